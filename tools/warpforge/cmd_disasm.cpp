// warpforge disasm: a listing of a .wfx module.
#include "cli.h"
#include "warpforge/asm/disassembler.h"
#include "warpforge/module/wfx.h"

#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <map>

namespace wf::driver {
namespace {

/// Source files named by the line table, read once; looked up as given, then next to the module.
class SourceCache {
public:
  explicit SourceCache(std::filesystem::path moduleDir) : moduleDir_(std::move(moduleDir)) {}

  std::optional<std::string> line(const std::string &file, uint32_t number) {
    auto [it, inserted] = files_.try_emplace(file);
    if (inserted)
      it->second = load(file);
    if (!it->second || number == 0 || number > it->second->size())
      return std::nullopt;
    std::string text = (*it->second)[number - 1];
    size_t start = text.find_first_not_of(" \t");
    return start == std::string::npos ? std::string() : text.substr(start);
  }

private:
  std::optional<std::vector<std::string>> load(const std::string &file) {
    auto text = readTextFile(file);
    if (!text && std::filesystem::path(file).is_relative())
      text = readTextFile((moduleDir_ / file).string());
    if (!text)
      return std::nullopt;
    std::vector<std::string> lines;
    size_t start = 0;
    while (start <= text->size()) {
      size_t end = text->find('\n', start);
      if (end == std::string::npos)
        end = text->size();
      std::string line = text->substr(start, end - start);
      if (!line.empty() && line.back() == '\r')
        line.pop_back();
      lines.push_back(std::move(line));
      start = end + 1;
    }
    return lines;
  }

  std::filesystem::path moduleDir_;
  std::map<std::string, std::optional<std::vector<std::string>>> files_;
};

} // namespace

int runDisasm(const std::vector<std::string> &args) {
  CommandLine line;
  line.usage = "usage: warpforge disasm FILE.wfx [options]\n\n"
               "Lists a module: each kernel with its metadata, the code with addresses, "
               "encodings,\nlabels and the source line each instruction came from (the source "
               "text too when the\nfile can be read), and the data segments.";
  line.options.add_options()("no-addresses", "leave out code addresses")(
      "no-encodings", "leave out the 64-bit instruction words")(
      "no-source", "leave out source lines from the line table")(
      "output,o", po::value<std::string>()->value_name("FILE"), "write the listing to FILE");
  po::variables_map values;
  if (!parseCommandLine(args, line, values))
    return kExitOk;
  if (!values.count("input"))
    throw UsageError("no input file");
  std::string input = values["input"].as<std::string>();
  if (!std::filesystem::exists(input))
    throw UsageError(fmt::format("cannot read '{}'", input));
  auto module = wfx::readFile(input);
  if (!module) {
    std::cerr << module.error().str() << "\n";
    return kExitFailure;
  }
  SourceCache sources(std::filesystem::path(input).parent_path());
  mc::ListingOptions listing;
  listing.addresses = !values.count("no-addresses");
  listing.encodings = !values.count("no-encodings");
  listing.sourceLines = !values.count("no-source");
  listing.sourceText = [&sources](const std::string &file, uint32_t line) {
    return sources.line(file, line);
  };
  std::string text = mc::listModule(*module, listing);
  if (values.count("output")) {
    std::string output = values["output"].as<std::string>();
    if (!writeBinaryFile(output, text.data(), text.size())) {
      std::cerr << fmt::format("{}: error: cannot write\n", output);
      return kExitFailure;
    }
    return kExitOk;
  }
  std::cout << text;
  return kExitOk;
}

} // namespace wf::driver

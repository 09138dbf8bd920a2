#include "cli.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <iterator>
#include <limits>
#include <sstream>

namespace wf::driver {

const std::vector<Command> &commands() {
  static const std::vector<Command> all = {
#ifdef WARPFORGE_HAVE_COMPILE
      {"compile", "compile CUDA (.cu) or PTX device code into a .wfx module", runCompile},
#endif
#ifdef WARPFORGE_HAVE_CC
      {"cc", "compile a CUDA program (host and device code) into an executable", runCc},
      {"run", "compile a CUDA program and run it on a Warpforge device", runRun},
      {"sweep", "run configurations x programs x devices in parallel; one CSV of statistics",
       runSweep},
#endif
      {"asm", "assemble native assembly into a .wfx module", runAsm},
      {"disasm", "list a .wfx module: kernels, code, data, source lines", runDisasm},
#ifdef WARPFORGE_HAVE_EMU
      {"emu", "run a kernel of a .wfx module on the functional emulator", runEmu},
#endif
#ifdef WARPFORGE_HAVE_BOARD
      {"board", "serve a device to host programs from a separate process", runBoard},
#endif
      {"report", "render statistics and a timeline as one HTML page with SVG charts", runReport},
      {"configs", "list the named GPU configurations", runConfigs},
      {"synth", "synthesize RTL units with Yosys: resource and logic-depth reports", runSynth},
  };
  return all;
}

bool parseCommandLine(const std::vector<std::string> &args, CommandLine &line,
                      po::variables_map &values) {
  line.options.add_options()("help,h", "print this help");
  po::options_description all;
  all.add(line.options);
  po::positional_options_description positional;
  if (line.takesInput) {
    all.add_options()("input", po::value<std::string>());
    positional.add("input", 1);
  }
  try {
    po::store(
        po::command_line_parser(args)
            .options(all)
            .positional(positional)
            .style(po::command_line_style::unix_style ^ po::command_line_style::allow_guessing)
            .run(),
        values);
    po::notify(values);
  } catch (const po::error &error) {
    throw UsageError(error.what());
  }
  if (values.count("help")) {
    std::cout << line.usage << "\n\n" << line.options;
    if (!line.details.empty())
      std::cout << "\n" << line.details;
    return false;
  }
  return true;
}

int guarded(const char *command, int (*body)(const std::vector<std::string> &),
            const std::vector<std::string> &args) {
  try {
    return body(args);
  } catch (const UsageError &error) {
    std::cerr << fmt::format("warpforge {}: {}\n(see 'warpforge {} --help')\n", command,
                             error.what(), command);
    return kExitUsage;
  }
}

std::optional<std::vector<uint8_t>> readBinaryFile(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  if (!file)
    return std::nullopt;
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)),
                             std::istreambuf_iterator<char>());
  if (file.bad())
    return std::nullopt;
  return bytes;
}

std::optional<std::string> readTextFile(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  if (!file)
    return std::nullopt;
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad())
    return std::nullopt;
  return text.str();
}

bool writeBinaryFile(const std::string &path, const void *data, size_t size) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file)
    return false;
  file.write(static_cast<const char *>(data), std::streamsize(size));
  return bool(file);
}

int64_t parseInteger(const std::string &text, const std::string &what, bool *negative) {
  std::string_view digits = text;
  bool minus = !digits.empty() && digits.front() == '-';
  if (minus)
    digits.remove_prefix(1);
  int base = 10;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X'))
    base = 16, digits.remove_prefix(2);
  else if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'b' || digits[1] == 'B'))
    base = 2, digits.remove_prefix(2);
  uint64_t magnitude = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude, base);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size())
    throw UsageError(fmt::format("{}: '{}' is not an integer", what, text));
  if (minus && magnitude > uint64_t(std::numeric_limits<int64_t>::max()) + 1)
    throw UsageError(fmt::format("{}: '{}' is out of range", what, text));
  if (negative)
    *negative = minus && magnitude != 0;
  return minus ? int64_t(0 - magnitude) : int64_t(magnitude);
}

uint64_t parseSize(const std::string &text, const std::string &what) {
  std::string number = text;
  uint64_t scale = 1;
  if (!number.empty()) {
    char suffix = number.back();
    if (suffix == 'k' || suffix == 'K')
      scale = 1ull << 10;
    else if (suffix == 'm' || suffix == 'M')
      scale = 1ull << 20;
    else if (suffix == 'g' || suffix == 'G')
      scale = 1ull << 30;
    if (scale != 1)
      number.pop_back();
  }
  bool negative = false;
  uint64_t value = uint64_t(parseInteger(number, what, &negative));
  if (negative || value > std::numeric_limits<uint64_t>::max() / scale)
    throw UsageError(fmt::format("{}: '{}' is not a size", what, text));
  return value * scale;
}

double parseReal(const std::string &text, const std::string &what) {
  std::string lower;
  for (char c : text)
    lower += char(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "inf" || lower == "+inf")
    return std::numeric_limits<double>::infinity();
  if (lower == "-inf")
    return -std::numeric_limits<double>::infinity();
  if (lower == "nan")
    return std::numeric_limits<double>::quiet_NaN();
  std::string_view digits = text;
  if (!digits.empty() && digits.front() == '+')
    digits.remove_prefix(1);
  double value = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size())
    throw UsageError(fmt::format("{}: '{}' is not a number", what, text));
  return value;
}

Dims parseDims(const std::string &text, const std::string &what) {
  std::vector<uint32_t> parts;
  size_t start = 0;
  for (;;) {
    size_t comma = text.find(',', start);
    std::string part =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    bool negative = false;
    int64_t value = parseInteger(part, what, &negative);
    if (negative || value < 1 || value > std::numeric_limits<uint32_t>::max())
      throw UsageError(fmt::format("{}: each dimension of '{}' must be at least 1", what, text));
    parts.push_back(uint32_t(value));
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  if (parts.size() > 3)
    throw UsageError(fmt::format("{}: '{}' has more than three dimensions", what, text));
  parts.resize(3, 1);
  return Dims{parts[0], parts[1], parts[2]};
}

} // namespace wf::driver

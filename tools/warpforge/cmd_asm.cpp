// warpforge asm: native assembly to a .wfx module.
#include "cli.h"
#include "warpforge/asm/assembler.h"

#include <filesystem>
#include <fmt/format.h>
#include <iostream>

namespace wf::driver {

int runAsm(const std::vector<std::string> &args) {
  CommandLine line;
  line.usage = "usage: warpforge asm FILE.s [-o FILE.wfx]\n\n"
               "Assembles native Warpforge assembly (syntax: docs/wfx.md) into a module.";
  line.options.add_options()("output,o", po::value<std::string>()->value_name("FILE.wfx"),
                             "the module to write (default: the input with extension .wfx)")(
      "no-lines", "leave out the line table (source positions for `disasm`)");
  po::variables_map values;
  if (!parseCommandLine(args, line, values))
    return kExitOk;
  if (!values.count("input"))
    throw UsageError("no input file");
  std::string input = values["input"].as<std::string>();
  std::string output = values.count("output")
                           ? values["output"].as<std::string>()
                           : std::filesystem::path(input).replace_extension(".wfx").string();
  auto source = readTextFile(input);
  if (!source)
    throw UsageError(fmt::format("cannot read '{}'", input));

  mc::AsmOptions asmOptions;
  asmOptions.fileName = input;
  asmOptions.lineTable = !values.count("no-lines");
  auto module = mc::assemble(*source, asmOptions);
  if (!module) {
    std::cerr << str(module.error());
    return kExitFailure;
  }
  if (auto status = wfx::writeFile(output, *module); !status) {
    std::cerr << status.error().str() << "\n";
    return kExitFailure;
  }
  return kExitOk;
}

} // namespace wf::driver

// warpforge compile: CUDA (.cu) or PTX (.ptx) to a native .wfx module.
//
// A .cu file goes through a CUDA front end that writes PTX: clang's NVPTX back end with our own
// CUDA headers (compiler/cuda/include, the default; no NVIDIA toolkit needed) or nvcc when it is
// installed. The PTX then takes the same path as a .ptx input: wf_ptx parses it, wf_codegen
// compiles it, and the module is written.
#include "cli.h"
#include "frontend.h"
#include "warpforge/codegen/Codegen.h"
#include "warpforge/module/wfx.h"
#include "warpforge/ptx/Parser.h"

#include <filesystem>
#include <fmt/format.h>
#include <iostream>

namespace wf::driver {
namespace {

namespace fs = std::filesystem;

struct FrontEndOptions {
  std::string frontend;                 ///< "clang" or "nvcc"
  std::string program;                  ///< explicit front end executable (--cc)
  std::vector<std::string> includeDirs; ///< -I
  std::vector<std::string> defines;     ///< -D
  std::vector<std::string> extra;       ///< -Xfrontend
  bool lineInfo = false;                ///< ask for .loc lines referring to the .cu source
  bool verbose = false;
};

/// Runs the chosen front end on `input`, writing PTX to `ptxPath`. Returns an error text or "".
std::string runFrontEnd(const std::string &input, const std::string &ptxPath,
                        const FrontEndOptions &options) {
  std::vector<std::string> argv;
  if (options.frontend == "clang") {
    std::string clang = options.program.empty() ? findClang() : options.program;
    if (clang.empty())
      return "the clang front end needs clang++ (14 or newer, with the NVPTX target) on PATH; "
             "install Debian's 'clang' package, or name one with --cc";
    std::string headers = findCudaHeaders();
    if (headers.empty())
      return "cannot find Warpforge's CUDA headers (compiler/cuda/include); set "
             "WARPFORGE_CUDA_INCLUDE to their folder";
    argv = clangCudaArgs(clang, headers);
    argv.insert(argv.end(), kClangDevicePass.begin(), kClangDevicePass.end());
    for (const std::string &dir : options.includeDirs)
      argv.push_back("-I" + dir);
    if (options.lineInfo)
      argv.push_back("-gline-tables-only");
  } else {
    std::string nvcc = options.program.empty() ? findOnPath({"nvcc"}) : options.program;
    if (nvcc.empty())
      return "the nvcc front end needs NVIDIA's nvcc on PATH (not found); use "
             "--frontend=clang, which needs no NVIDIA toolkit";
    argv = {nvcc,         "-ptx", "-arch=compute_80", // the compute capability the device reports
            "-std=c++17", "-O3",  "-D__WARPFORGE__=1"};
    for (const std::string &dir : options.includeDirs)
      argv.push_back("-I" + dir);
    if (options.lineInfo)
      argv.push_back("-lineinfo");
  }
  for (const std::string &define : options.defines)
    argv.push_back("-D" + define);
  for (const std::string &arg : options.extra)
    argv.push_back(arg);
  argv.push_back(input);
  argv.push_back("-o");
  argv.push_back(ptxPath);
  if (options.verbose)
    std::cerr << joinCommand(argv) << "\n";
  int status = runProgram(argv);
  if (status == 127)
    return fmt::format("cannot run '{}'", argv[0]);
  if (status != 0)
    return fmt::format("{} failed on '{}' (exit status {}); its messages are above",
                       options.frontend, input, status);
  if (options.frontend == "clang")
    return repairClangPtx(ptxPath);
  return {};
}

} // namespace

int runCompile(const std::vector<std::string> &args) {
  CommandLine line;
  line.usage = "usage: warpforge compile FILE.cu|FILE.ptx -o FILE.wfx [options]\n\n"
               "Compiles the device code of a CUDA source, or a PTX file, into a native module.\n"
               "CUDA sources go through a front end that writes PTX: clang (the default; Debian's\n"
               "clang++ with Warpforge's own CUDA headers, no NVIDIA toolkit needed) or nvcc.";
  line.options.add_options()("output,o", po::value<std::string>()->value_name("FILE"),
                             "the module to write (default: the input with .wfx)")(
      "frontend", po::value<std::string>()->value_name("NAME")->default_value("clang"),
      "front end for .cu files: clang or nvcc")(
      "config", po::value<std::string>()->value_name("NAME")->default_value("default"),
      "named GPU configuration (warpforge configs)")(
      "opt,O", po::value<unsigned>()->value_name("N")->default_value(1),
      "back end optimization level: 0 or 1")(
      "include-dir,I", po::value<std::vector<std::string>>()->value_name("DIR")->composing(),
      "add DIR to the front end's include path")(
      "define,D", po::value<std::vector<std::string>>()->value_name("X[=V]")->composing(),
      "define a preprocessor macro for the front end")(
      "Xfrontend", po::value<std::vector<std::string>>()->value_name("ARG")->composing(),
      "pass ARG to the front end")(
      "cc", po::value<std::string>()->value_name("PATH"),
      "the front end executable (default: clang++[-14..19] or nvcc on PATH)")(
      "lineinfo", "have the front end emit .loc lines for the CUDA source")(
      "save-ptx", po::value<std::string>()->value_name("FILE"),
      "keep the front end's PTX in FILE (the module's line table then names it)")(
      "max-regs", po::value<uint32_t>()->value_name("N"),
      "register budget per thread")("verbose,v", "print the front end's command line");
  line.details = "Exit status: 0 success, 1 compile errors (front end messages as they are, ours\n"
                 "as FILE:LINE:COL: error: ...), 2 bad command line.\n";
  po::variables_map values;
  if (!parseCommandLine(args, line, values))
    return kExitOk;
  if (!values.count("input"))
    throw UsageError("no input file");
  std::string input = values["input"].as<std::string>();
  if (!fs::exists(input))
    throw UsageError(fmt::format("cannot read '{}'", input));
  std::string extension = fs::path(input).extension().string();
  if (extension != ".cu" && extension != ".ptx")
    throw UsageError(fmt::format("'{}': expected a .cu or .ptx file", input));
  std::string output = values.count("output") ? values["output"].as<std::string>()
                                              : fs::path(input).replace_extension(".wfx").string();
  FrontEndOptions frontEnd;
  frontEnd.frontend = values["frontend"].as<std::string>();
  if (frontEnd.frontend != "clang" && frontEnd.frontend != "nvcc")
    throw UsageError(fmt::format("--frontend '{}': expected clang or nvcc", frontEnd.frontend));
  if (values.count("include-dir"))
    frontEnd.includeDirs = values["include-dir"].as<std::vector<std::string>>();
  if (values.count("define"))
    frontEnd.defines = values["define"].as<std::vector<std::string>>();
  if (values.count("Xfrontend"))
    frontEnd.extra = values["Xfrontend"].as<std::vector<std::string>>();
  if (values.count("cc"))
    frontEnd.program = values["cc"].as<std::string>();
  frontEnd.lineInfo = values.count("lineinfo") != 0;
  frontEnd.verbose = values.count("verbose") != 0;
  codegen::CodegenOptions codegenOptions;
  codegenOptions.config = values["config"].as<std::string>();
  codegenOptions.optLevel = values["opt"].as<unsigned>();
  if (codegenOptions.optLevel > 1)
    throw UsageError(fmt::format("-O{}: expected -O0 or -O1", codegenOptions.optLevel));
  if (values.count("max-regs"))
    codegenOptions.maxRegs = values["max-regs"].as<uint32_t>();

  // PTX: the input itself, or what the front end wrote.
  std::string ptxPath = input;
  std::optional<TempFile> temporary;
  if (extension == ".cu") {
    if (values.count("save-ptx")) {
      ptxPath = values["save-ptx"].as<std::string>();
    } else {
      temporary.emplace(".ptx");
      ptxPath = temporary->path();
    }
    std::string problem = runFrontEnd(input, ptxPath, frontEnd);
    if (!problem.empty()) {
      std::cerr << fmt::format("{}: error: {}\n", input, problem);
      return kExitFailure;
    }
  }
  auto text = readTextFile(ptxPath);
  if (!text) {
    std::cerr << fmt::format("{}: error: cannot read\n", ptxPath);
    return kExitFailure;
  }
  ptx::ParseOptions parseOptions;
  // The line table names the PTX file; a temporary one is named after the source instead.
  parseOptions.fileName = temporary ? input + ".ptx" : ptxPath;
  auto parsed = ptx::parseModule(*text, parseOptions);
  if (!parsed) {
    std::cerr << parsed.error().str() << "\n";
    return kExitFailure;
  }
  auto compiled = codegen::compilePtx(*parsed, codegenOptions);
  if (!compiled) {
    std::cerr << compiled.error().str() << "\n";
    return kExitFailure;
  }
  if (auto written = wfx::writeFile(output, *compiled); !written) {
    std::cerr << written.error().str() << "\n";
    return kExitFailure;
  }
  return kExitOk;
}

} // namespace wf::driver

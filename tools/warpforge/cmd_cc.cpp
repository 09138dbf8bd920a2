// warpforge cc: a whole CUDA program (host and device code) to an ordinary host executable that
// runs on Warpforge through the drop-in libcudart.
//
// Each .cu file is compiled twice by clang with our CUDA headers: the device pass writes PTX, and
// the host pass embeds that PTX (-fcuda-include-gpubinary), so that clang emits the registration
// calls (__cudaRegisterFatBinary, __cudaRegisterFunction, __cudaRegisterVar) and launches
// through __cudaPushCallConfiguration/cudaLaunchKernel. At the first launch the runtime compiles
// the PTX for the device's configuration and caches the result, as for nvcc-built programs.
// __managed__ variables need our pass plugin in the host pass (compiler/clang-plugin).
#include "cli.h"
#include "frontend.h"
#include "warpforge/codegen/Codegen.h"
#include "warpforge/isa/config.gen.h"
#include "warpforge/module/wfx.h"
#include "warpforge/ptx/Parser.h"

#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

namespace wf::driver {
namespace {

namespace fs = std::filesystem;

constexpr const char *kUsage =
    "usage: warpforge cc FILE.cu [more .cu/.cpp/.o files] -o EXE [options] [clang flags]\n\n"
    "Compiles a CUDA program's host and device code with clang and Warpforge's CUDA headers\n"
    "and links it against Warpforge's libcudart: the executable runs on Warpforge's devices\n"
    "(WARPFORGE_DEVICE, WARPFORGE_CONFIG) with no NVIDIA toolkit or driver.\n\n"
    "Options:\n"
    "  -o EXE             the executable to write (default: a.out)\n"
    "  --config=NAME      the configuration the program uses when WARPFORGE_CONFIG is unset\n"
    "                     (warpforge configs; default: the runtime's default)\n"
    "  --embed=ptx|wfx    the device code in the executable: PTX, compiled by the runtime\n"
    "                     for the device's configuration (default), or a .wfx module compiled\n"
    "                     now for --config (which must then match the device's)\n"
    "  --cc=PATH          the clang++ to use (default: clang++[-14..19] on PATH)\n"
    "  -v, --verbose      print every command\n"
    "  -h, --help         print this help\n"
    "Other flags go to clang: -I -D -U -O -std= -g -W -f -include -isystem -Xclang for the\n"
    "compiles, -l -L -Wl, -pthread for the link.\n\n"
    "__managed__ variables need the pass plugin built with Warpforge for one clang major\n"
    "version (WARPFORGE_MANAGED_PLUGIN overrides where it is; set empty: none).\n\n"
    "Exit status: 0 success, 1 compile or link errors (clang's messages as they are), 2 bad\n"
    "command line.\n";

enum class InputKind { Cuda, Cxx, C, Linkable };

std::optional<InputKind> classify(const std::string &path) {
  std::string ext = fs::path(path).extension().string();
  if (ext == ".cu")
    return InputKind::Cuda;
  if (ext == ".cpp" || ext == ".cc" || ext == ".cxx" || ext == ".C")
    return InputKind::Cxx;
  if (ext == ".c")
    return InputKind::C;
  if (ext == ".o" || ext == ".a" || ext == ".so" || path.find(".so.") != std::string::npos)
    return InputKind::Linkable;
  return std::nullopt;
}

/// Runs one command (printed first with -v); "" on success.
std::string step(const std::vector<std::string> &argv, bool verbose, const std::string &what) {
  if (verbose)
    std::cerr << joinCommand(argv) << "\n";
  int status = runProgram(argv);
  if (status == 127)
    return fmt::format("cannot run '{}'", argv[0]);
  if (status != 0)
    return fmt::format("{} failed (exit status {}); its messages are above", what, status);
  return {};
}

/// The files named by a make-style dependency file (clang -MD): "target: dep dep \ ...".
void readDeps(const std::string &path, std::set<std::string> &out) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::string all = text.str(), token;
  auto flush = [&] {
    if (!token.empty() && token.back() != ':')
      out.insert(fs::weakly_canonical(token).string());
    token.clear();
  };
  for (size_t i = 0; i < all.size(); ++i) {
    char c = all[i];
    if (c == '\\' && i + 1 < all.size() && all[i + 1] == ' ') {
      token += ' ';
      ++i;
    } else if (c == '\\' && i + 1 < all.size() && all[i + 1] == '\n') {
      ++i;
      flush();
    } else if (c == ' ' || c == '\n' || c == '\t') {
      flush();
    } else {
      token += c;
    }
  }
  flush();
}

/// The back end, ahead of time: PTX to a .wfx module for `config` ("" the default).
std::string compileToWfx(const std::string &ptxPath, const std::string &source,
                         const std::string &config, const std::string &wfxPath) {
  auto text = readTextFile(ptxPath);
  if (!text)
    return fmt::format("cannot read '{}'", ptxPath);
  ptx::ParseOptions parseOptions;
  parseOptions.fileName = source + ".ptx";
  auto parsed = ptx::parseModule(*text, parseOptions);
  if (!parsed)
    return parsed.error().str();
  codegen::CodegenOptions codegenOptions;
  if (!config.empty())
    codegenOptions.config = config;
  auto compiled = codegen::compilePtx(*parsed, codegenOptions);
  if (!compiled)
    return compiled.error().str();
  if (auto written = wfx::writeFile(wfxPath, *compiled); !written)
    return written.error().str();
  return {};
}

} // namespace

bool parseCcArgs(const std::vector<std::string> &args, CcOptions &options) {
  // Flags that take the next argument when written apart from it.
  static const std::set<std::string> kWithValue = {"-I", "-D", "-U", "-include", "-isystem",
                                                   "-Xclang", "-x", "-L", "-l"};
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &arg = args[i];
    auto next = [&](const std::string &flag) -> std::string {
      if (i + 1 >= args.size())
        throw UsageError(fmt::format("{} needs a value", flag));
      return args[++i];
    };
    auto value = [&](const std::string &flag) -> std::optional<std::string> {
      if (arg == flag)
        return next(flag);
      if (arg.rfind(flag + "=", 0) == 0)
        return arg.substr(flag.size() + 1);
      return std::nullopt;
    };
    if (arg == "-h" || arg == "--help") {
      std::cout << kUsage;
      return false;
    }
    if (arg == "-v" || arg == "--verbose") {
      options.verbose = true;
    } else if (arg == "-o") {
      options.output = next(arg);
    } else if (arg.rfind("-o", 0) == 0 && arg.size() > 2 && arg[2] != '-') {
      options.output = arg.substr(2);
    } else if (auto config = value("--config")) {
      if (!isa::findConfig(*config))
        throw UsageError(fmt::format("unknown configuration '{}' (see 'warpforge configs')",
                                     *config));
      options.config = *config;
    } else if (auto embed = value("--embed")) {
      if (*embed != "ptx" && *embed != "wfx")
        throw UsageError(fmt::format("--embed '{}': expected ptx or wfx", *embed));
      options.embedWfx = *embed == "wfx";
    } else if (auto clang = value("--cc")) {
      options.clang = *clang;
    } else if (arg == "-x") {
      throw UsageError("-x is not accepted: the file extension says what each input is");
    } else if (arg.rfind("-l", 0) == 0 || arg.rfind("-L", 0) == 0 || arg.rfind("-Wl,", 0) == 0) {
      options.linkFlags.push_back(arg);
      if (kWithValue.count(arg))
        options.linkFlags.push_back(next(arg));
    } else if (arg == "-pthread") {
      options.compileFlags.push_back(arg);
      options.linkFlags.push_back(arg);
    } else if (arg.size() > 1 && arg[0] == '-') {
      options.compileFlags.push_back(arg);
      if (kWithValue.count(arg))
        options.compileFlags.push_back(next(arg));
    } else {
      if (!fs::exists(arg))
        throw UsageError(fmt::format("cannot read '{}'", arg));
      if (!classify(arg))
        throw UsageError(fmt::format("'{}': expected .cu, .cpp/.cc/.cxx, .c, .o, .a or .so", arg));
      options.inputs.push_back(arg);
    }
  }
  if (options.inputs.empty())
    throw UsageError("no input file");
  if (options.output.empty())
    options.output = "a.out";
  return true;
}

std::string buildExecutable(const CcOptions &options) {
  std::string clang = options.clang.empty() ? findClang() : options.clang;
  if (clang.empty())
    return "warpforge cc needs clang++ (14 or newer, with the NVPTX target) on PATH; install "
           "Debian's 'clang' package, or name one with --cc";
  std::string headers = findCudaHeaders();
  if (headers.empty())
    return "cannot find Warpforge's CUDA headers (compiler/cuda/include); set "
           "WARPFORGE_CUDA_INCLUDE to their folder";
  std::string libDir = findRuntimeLibDir();
  if (libDir.empty())
    return "cannot find Warpforge's libcudart.so.13 (expected in the lib folder next to the "
           "warpforge executable's bin folder); set WARPFORGE_LIB_DIR to its folder";

  // __managed__ variables need the pass plugin in the host pass (compiler/clang-plugin says why);
  // it loads only into a clang of the LLVM version it was built for. Without it our headers make
  // __managed__ an error.
  std::string managedPlugin = findManagedPlugin();
  if (!managedPlugin.empty()) {
    int wanted = managedPluginLlvmMajor(), major = clangMajorVersion(clang);
    if (major != wanted && options.clang.empty()) {
      std::string versioned = findOnPath({fmt::format("clang++-{}", wanted)});
      if (!versioned.empty()) {
        clang = versioned;
        major = wanted;
      }
    }
    if (major != wanted) {
      if (options.verbose)
        std::cerr << fmt::format("warpforge cc: {} is not clang {}, for which the __managed__ "
                                 "pass plugin was built; __managed__ is not available\n",
                                 clang, wanted);
      managedPlugin.clear();
    }
  } else if (options.verbose) {
    std::cerr << "warpforge cc: no __managed__ pass plugin found; __managed__ is not "
                 "available\n";
  }

  TempDir temp;
  bool deps = !options.depsFile.empty();
  std::vector<std::string> objects, depFiles;
  std::vector<std::string> cudaBase = clangCudaArgs(clang, headers);
  for (size_t n = 0; n < options.inputs.size(); ++n) {
    const std::string &input = options.inputs[n];
    InputKind kind = *classify(input);
    if (kind == InputKind::Linkable) {
      objects.push_back(input);
      continue;
    }
    std::string stem = fmt::format("{}/{}-{}", temp.path(), n, fs::path(input).stem().string());
    std::string object = stem + ".o";
    std::vector<std::string> argv;
    if (kind == InputKind::Cuda) {
      // Device pass: PTX, embedded below by the host pass.
      std::string ptx = stem + ".ptx";
      argv = cudaBase;
      argv.insert(argv.end(), kClangDevicePass.begin(), kClangDevicePass.end());
      argv.insert(argv.end(), options.compileFlags.begin(), options.compileFlags.end());
      if (deps) {
        depFiles.push_back(stem + ".device.d");
        argv.insert(argv.end(), {"-MD", "-MF", depFiles.back()});
      }
      argv.insert(argv.end(), {input, "-o", ptx});
      if (std::string problem = step(argv, options.verbose, "the device pass on '" + input + "'");
          !problem.empty())
        return problem;
      if (std::string problem = repairClangPtx(ptx); !problem.empty())
        return problem;
      if (options.embedWfx) {
        std::string wfxPath = stem + ".wfx";
        if (std::string problem = compileToWfx(ptx, input, options.config, wfxPath);
            !problem.empty())
          return problem;
        ptx = wfxPath;
      }
      argv = cudaBase;
      argv.insert(argv.end(), {"--cuda-host-only", "-Xclang", "-fcuda-include-gpubinary",
                               "-Xclang", ptx});
      if (!managedPlugin.empty())
        argv.insert(argv.end(), {"-D__WARPFORGE_MANAGED__=1", "-fpass-plugin=" + managedPlugin});
    } else {
      argv = {clang, "-x", kind == InputKind::C ? "c" : "c++", "-O2",
              kind == InputKind::C ? "-std=c11" : "-std=c++17", "-D__WARPFORGE__=1", "-isystem",
              headers};
    }
    argv.push_back("-c");
    argv.insert(argv.end(), options.compileFlags.begin(), options.compileFlags.end());
    if (deps) {
      depFiles.push_back(stem + ".host.d");
      argv.insert(argv.end(), {"-MD", "-MF", depFiles.back()});
    }
    argv.insert(argv.end(), {input, "-o", object});
    if (std::string problem = step(argv, options.verbose, "compiling '" + input + "'");
        !problem.empty())
      return problem;
    objects.push_back(object);
  }

  // --config: a constructor sets the default before the runtime opens its device.
  if (!options.config.empty()) {
    std::string source = temp.path() + "/warpforge_config.c";
    std::ofstream(source) << "#include <stdlib.h>\n"
                             "__attribute__((constructor)) static void warpforgeDefaultConfig(void) {\n"
                             "  setenv(\"WARPFORGE_CONFIG\", \""
                          << options.config << "\", 0);\n}\n";
    std::string object = temp.path() + "/warpforge_config.o";
    if (std::string problem = step({clang, "-x", "c", "-c", source, "-o", object},
                                   options.verbose, "compiling the configuration default");
        !problem.empty())
      return problem;
    objects.push_back(object);
  }

  std::vector<std::string> link = {clang};
  link.insert(link.end(), objects.begin(), objects.end());
  link.insert(link.end(), options.linkFlags.begin(), options.linkFlags.end());
  // The soname is libcudart.so.13; the rpath lets the program run without LD_LIBRARY_PATH.
  link.insert(link.end(), {"-L" + libDir, "-l:libcudart.so.13", "-Wl,-rpath," + libDir, "-o",
                           options.output});
  if (std::string problem = step(link, options.verbose, "linking"); !problem.empty())
    return problem;

  if (deps) {
    std::set<std::string> files;
    for (const std::string &file : depFiles)
      readDeps(file, files);
    if (!managedPlugin.empty())
      files.insert(fs::weakly_canonical(managedPlugin).string());
    std::ofstream out(options.depsFile);
    for (const std::string &file : files)
      out << file << "\n";
    if (!out)
      return fmt::format("cannot write '{}'", options.depsFile);
  }
  return {};
}

int runCc(const std::vector<std::string> &args) {
  CcOptions options;
  if (!parseCcArgs(args, options))
    return kExitOk;
  if (std::string problem = buildExecutable(options); !problem.empty()) {
    std::cerr << fmt::format("warpforge cc: error: {}\n", problem);
    return kExitFailure;
  }
  return kExitOk;
}

} // namespace wf::driver

// warpforge run: build a CUDA program with `warpforge cc` (cached) and run it on a device.
//
// The executable is cached under <cache>/run, named by a hash of the inputs' paths, the flags and
// this driver's identity; it is rebuilt when any file the last build read (clang's dependency
// lists: sources, our headers, system headers) is newer than it.
#include "cli.h"
#include "frontend.h"
#include "warpforge/isa/config.gen.h"
#include "warpforge/runtime/plugins.h"

#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <optional>
#include <unistd.h>

namespace wf::driver {
namespace {

namespace fs = std::filesystem;

constexpr const char *kUsage =
    "usage: warpforge run FILE.cu [more inputs and cc flags] [--device=NAME] [--config=NAME]\n"
    "                     [-- ARGS]\n\n"
    "Builds a CUDA program with 'warpforge cc' (cached between runs) and runs it with ARGS on a\n"
    "Warpforge device; its output and exit status are the program's.\n\n"
    "Options:\n"
    "  --device=NAME   a device plugin: func (the functional emulator; default), board (the\n"
    "                  device of a `warpforge board` server), or any other installed plugin\n"
    "  --config=NAME   named GPU configuration (warpforge configs); default: WARPFORGE_CONFIG,\n"
    "                  else the runtime's default\n"
    "  --wave=FILE     rtl device: write FST waves to FILE (WARPFORGE_RTL_WAVE)\n"
    "  --wave-cycles=FROM:TO  rtl device: only cycles FROM to TO-1 (WARPFORGE_RTL_WAVE_CYCLES)\n"
    "  --lockstep      rtl device: compare every committed instruction with the emulator\n"
    "  --stats=FILE    the device's statistics as JSON (warpforge-stats; the cycle device:\n"
    "                  IPC, stall reasons, caches, DRAM), written after every launch\n"
    "  --rebuild       ignore the cached executable\n"
    "  -v, --verbose   print the build's commands\n"
    "  -h, --help      print this help\n"
    "Other flags (-I -D -O -std ...) go to 'warpforge cc'.\n\n"
    "The executable cache is $WARPFORGE_CACHE_DIR/run, else $XDG_CACHE_HOME/warpforge/run,\n"
    "else ~/.cache/warpforge/run; WARPFORGE_CACHE=0 builds into a temporary folder instead.\n\n"
    "Exit status: the program's; 1 when it cannot be built, 2 bad command line or a device\n"
    "plugin that is not installed.\n";

uint64_t fnv1a(const std::string &text, uint64_t hash = 0xcbf29ce484222325ull) {
  for (unsigned char c : text)
    hash = (hash ^ c) * 0x100000001b3ull;
  return hash;
}

/// The runtime's cache root (docs/runtime.md), so one variable moves both caches.
fs::path cacheRoot() {
  if (const char *dir = std::getenv("WARPFORGE_CACHE_DIR"); dir && *dir)
    return dir;
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return fs::path(xdg) / "warpforge";
  if (const char *home = std::getenv("HOME"); home && *home)
    return fs::path(home) / ".cache/warpforge";
  return {};
}

/// "size:mtime" of a file, to notice a rebuilt driver or header folder.
std::string identity(const fs::path &path) {
  std::error_code ec;
  auto size = fs::file_size(path, ec);
  auto time = fs::last_write_time(path, ec);
  return ec ? "?" : fmt::format("{}:{}", size, time.time_since_epoch().count());
}

/// True when `exe` exists and no file listed in `deps` is newer than it (or missing).
bool upToDate(const fs::path &exe, const fs::path &deps) {
  std::error_code ec;
  auto built = fs::last_write_time(exe, ec);
  if (ec)
    return false;
  std::ifstream in(deps);
  if (!in)
    return false;
  std::string file;
  while (std::getline(in, file)) {
    auto time = fs::last_write_time(file, ec);
    if (ec || time > built)
      return false;
  }
  return true;
}

} // namespace

int runRun(const std::vector<std::string> &args) {
  std::vector<std::string> ccArgs, programArgs;
  std::string device = "func", config, statsFile;
  std::vector<std::string> deviceEnv; // WARPFORGE_RTL_* settings the rtl device reads
  bool rebuild = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &arg = args[i];
    if (arg == "--") {
      programArgs.assign(args.begin() + long(i) + 1, args.end());
      break;
    }
    auto value = [&](const std::string &flag) -> std::optional<std::string> {
      if (arg == flag) {
        if (i + 1 >= args.size())
          throw UsageError(fmt::format("{} needs a value", flag));
        return args[++i];
      }
      if (arg.rfind(flag + "=", 0) == 0)
        return arg.substr(flag.size() + 1);
      return std::nullopt;
    };
    if (arg == "-h" || arg == "--help") {
      std::cout << kUsage;
      return kExitOk;
    }
    if (auto d = value("--device"))
      device = *d;
    else if (auto c = value("--config"))
      config = *c;
    else if (auto w = value("--wave"))
      deviceEnv.push_back("WARPFORGE_RTL_WAVE=" + *w);
    else if (auto wc = value("--wave-cycles"))
      deviceEnv.push_back("WARPFORGE_RTL_WAVE_CYCLES=" + *wc);
    else if (arg == "--lockstep")
      deviceEnv.push_back("WARPFORGE_RTL_LOCKSTEP=1");
    else if (auto f = value("--stats"))
      statsFile = fs::absolute(*f).string();
    else if (arg == "--rebuild")
      rebuild = true;
    else
      ccArgs.push_back(arg);
  }
  // The program loads the device plugin itself (WARPFORGE_DEVICE); asking here first turns a
  // missing plugin into a clear error before anything is built.
  if (std::string error; !rt::loadPlugin(device, error)) {
    std::cerr << "warpforge run: " << error << "\n";
    return kExitUsage;
  }
  if (!deviceEnv.empty() && device != "rtl")
    throw UsageError("--wave, --wave-cycles and --lockstep are options of --device=rtl");
  if (!config.empty() && !isa::findConfig(config))
    throw UsageError(fmt::format("unknown configuration '{}' (see 'warpforge configs')", config));

  CcOptions options;
  if (!parseCcArgs(ccArgs, options))
    return kExitOk;
  if (options.output != "a.out")
    throw UsageError("-o is not accepted: use 'warpforge cc' to keep an executable");

  // The cache key: what was asked (absolute inputs, flags) and who builds it (this driver).
  std::string key;
  for (std::string &input : options.inputs) {
    input = fs::absolute(input).string();
    key += input + '\n';
  }
  for (const std::string &flag : ccArgs)
    key += flag + '\n';
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  key += self.string() + '\n' + identity(self) + '\n' + findManagedPlugin();
  std::string name = fmt::format("{:016x}{:016x}-{}", fnv1a(key), fnv1a(key, fnv1a(key) ^ 0x9e37),
                                 fs::path(options.inputs.front()).stem().string());

  const char *cacheSetting = std::getenv("WARPFORGE_CACHE");
  bool cached = !(cacheSetting && std::string(cacheSetting) == "0") && !cacheRoot().empty();
  std::optional<TempDir> temp;
  fs::path dir;
  if (cached) {
    dir = cacheRoot() / "run";
    fs::create_directories(dir, ec);
    if (ec)
      cached = false;
  }
  if (!cached) {
    temp.emplace();
    dir = temp->path();
  }
  fs::path exe = dir / name, deps = dir / (name + ".d");
  if (!cached || rebuild || !upToDate(exe, deps)) {
    // Built under a private name, then renamed: runs of the same program may build at once.
    std::string suffix = fmt::format(".{}.tmp", ::getpid());
    options.output = exe.string() + suffix;
    options.depsFile = deps.string() + suffix;
    if (std::string problem = buildExecutable(options); !problem.empty()) {
      std::cerr << fmt::format("warpforge run: error: {}\n", problem);
      fs::remove(options.output, ec);
      fs::remove(options.depsFile, ec);
      return kExitFailure;
    }
    fs::rename(options.output, exe, ec);
    fs::rename(options.depsFile, deps, ec);
  }

  std::vector<std::string> argv = {exe.string()};
  argv.insert(argv.end(), programArgs.begin(), programArgs.end());
  std::vector<std::string> env = {"WARPFORGE_DEVICE=" + device};
  if (!config.empty())
    env.push_back("WARPFORGE_CONFIG=" + config);
  env.insert(env.end(), deviceEnv.begin(), deviceEnv.end());
  if (!statsFile.empty()) {
    if (device != "cycle")
      std::cerr << "warpforge run: note: --stats is written by the cycle device only\n";
    env.push_back("WARPFORGE_STATS=" + statsFile);
  }
  int status = runProgramWithEnv(argv, env);
  if (status == 127 && !fs::exists(exe))
    std::cerr << fmt::format("warpforge run: cannot run '{}'\n", exe.string());
  return status;
}

} // namespace wf::driver

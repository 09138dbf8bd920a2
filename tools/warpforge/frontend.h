// What `warpforge compile`, `cc` and `run` share: finding clang, our CUDA headers and the drop-in
// runtime, running a child program, temporary files, and clang's CUDA command line.
#pragma once

#include <string>
#include <vector>

namespace wf::driver {

/// The first executable among `names` on PATH; empty when there is none.
std::string findOnPath(const std::vector<std::string> &names);

/// clang++ 14 or newer on PATH (clang++, then clang++-19 ... clang++-14); empty when none.
std::string findClang();

/// Our CUDA headers: $WARPFORGE_CUDA_INCLUDE, then next to the executable (install tree:
/// <prefix>/bin/warpforge -> <prefix>/share/warpforge/cuda/include), then the source tree's
/// folder compiled in by CMake (build-tree use without installing). Empty when not found.
std::string findCudaHeaders();

/// The pass plugin for __managed__ variables (compiler/clang-plugin), loaded into clang's host
/// pass: $WARPFORGE_MANAGED_PLUGIN when set (empty: none), else <bin>/../lib next to this
/// executable. Empty when there is none (not built: no LLVM development files for the clang).
std::string findManagedPlugin();

/// The LLVM major version the plugin was built for; 0 when this build has no plugin.
int managedPluginLlvmMajor();

/// The major version of `clang` (from `clang -dumpversion`); 0 when it cannot be read.
int clangMajorVersion(const std::string &clang);

/// The folder holding the drop-in libcudart.so.13: $WARPFORGE_LIB_DIR, else <bin>/../lib next to
/// this executable (the build tree and the install tree alike). Empty when not found.
std::string findRuntimeLibDir();

/// Runs `argv` with stdin closed and stdout/stderr inherited, so a child's own messages reach the
/// user unchanged. Returns the exit status (127: could not start; 128+N: signal N).
int runProgram(const std::vector<std::string> &argv);

/// Like runProgram, with stdin inherited and `env` ("NAME=VALUE") added to the environment.
int runProgramWithEnv(const std::vector<std::string> &argv, const std::vector<std::string> &env);

/// The command line as one string, for -v.
std::string joinCommand(const std::vector<std::string> &argv);

/// A temporary file removed when this goes out of scope.
class TempFile {
public:
  explicit TempFile(const std::string &suffix);
  ~TempFile();
  TempFile(const TempFile &) = delete;
  TempFile &operator=(const TempFile &) = delete;
  const std::string &path() const { return path_; }

private:
  std::string path_;
};

/// A temporary folder removed with its contents when this goes out of scope.
class TempDir {
public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
  const std::string &path() const { return path_; }

private:
  std::string path_;
};

/// clang's CUDA options common to the device and the host pass: CUDA mode without an NVIDIA
/// installation, our headers, the implicit cuda_runtime.h, -O2 -std=c++17 (later flags override).
std::vector<std::string> clangCudaArgs(const std::string &clang, const std::string &headers);

/// The device pass's extra options: PTX text out. Without a CUDA installation clang assumes an
/// old PTX ISA; the *_sync builtins need PTX 6.0 or newer.
inline const std::vector<std::string> kClangDevicePass = {
    "--cuda-device-only", "-S", "-Xclang", "-target-feature", "-Xclang", "+ptx70"};

/// Rewrites, in place, the PTX file clang's device pass wrote, around a bug of clang's NVPTX back
/// end (14 to 16): a 64-bit rotate by a register amount becomes shifts of that amount and of 64
/// minus it, but LLVM's rotate takes the amount modulo 64 while PTX clamps shift amounts, so an
/// amount the optimizer left unreduced (`~(1ull << (t % 63))` rotates by `t + t / 63`) gives 0.
/// The amount is reduced modulo 64 first. Returns an error text or "".
std::string repairClangPtx(const std::string &ptxPath);

/// What `warpforge cc` builds: inputs (.cu, C/C++ sources, objects and libraries), the executable,
/// and the flags for clang.
struct CcOptions {
  std::vector<std::string> inputs;
  std::string output;
  std::string config;                    ///< default configuration baked in ("" none)
  std::string clang;                     ///< explicit clang++ (--cc)
  std::vector<std::string> compileFlags; ///< -I -D -O -std ... for every compile
  std::vector<std::string> linkFlags;    ///< -l -L -Wl, ... for the link
  std::string depsFile;                  ///< when set: every file the build read, one a line
  bool embedWfx = false; ///< embed .wfx modules compiled now (for config) instead of PTX
  bool verbose = false;
};

/// Reads cc's command line (clang-style flags); throws UsageError. False when --help was printed.
bool parseCcArgs(const std::vector<std::string> &args, CcOptions &options);

/// Compiles and links; returns "" on success, else why (clang's own messages are on stderr).
std::string buildExecutable(const CcOptions &options);

} // namespace wf::driver

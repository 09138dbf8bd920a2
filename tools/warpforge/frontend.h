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

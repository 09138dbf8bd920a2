#include "frontend.h"

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace wf::driver {

namespace fs = std::filesystem;

std::string findOnPath(const std::vector<std::string> &names) {
  const char *path = std::getenv("PATH");
  if (!path)
    return {};
  for (const std::string &name : names) {
    std::string_view rest = path;
    while (true) {
      size_t colon = rest.find(':');
      std::string dir(rest.substr(0, colon));
      if (dir.empty())
        dir = ".";
      fs::path candidate = fs::path(dir) / name;
      std::error_code ec;
      if (fs::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0)
        return candidate.string();
      if (colon == std::string_view::npos)
        break;
      rest.remove_prefix(colon + 1);
    }
  }
  return {};
}

std::string findClang() {
  return findOnPath({"clang++", "clang++-19", "clang++-18", "clang++-17", "clang++-16",
                     "clang++-15", "clang++-14"});
}

/// The folder above the one holding this executable (<prefix> of <prefix>/bin/warpforge).
static fs::path prefixOfExecutable() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe.parent_path().parent_path();
}

std::string findCudaHeaders() {
  if (const char *env = std::getenv("WARPFORGE_CUDA_INCLUDE"); env && *env)
    return env;
  std::error_code ec;
  if (fs::path prefix = prefixOfExecutable(); !prefix.empty()) {
    fs::path installed = prefix / "share/warpforge/cuda/include";
    if (fs::exists(installed / "cuda_runtime.h", ec))
      return installed.string();
  }
#ifdef WARPFORGE_CUDA_INCLUDE_DIR
  if (fs::exists(fs::path(WARPFORGE_CUDA_INCLUDE_DIR) / "cuda_runtime.h", ec))
    return WARPFORGE_CUDA_INCLUDE_DIR;
#endif
  return {};
}

std::string findRuntimeLibDir() {
  std::error_code ec;
  if (const char *env = std::getenv("WARPFORGE_LIB_DIR"); env && *env)
    return fs::absolute(env, ec).string();
  if (fs::path prefix = prefixOfExecutable(); !prefix.empty())
    if (fs::exists(prefix / "lib/libcudart.so.13", ec))
      return (prefix / "lib").string();
  return {};
}

static int waitFor(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return 127;
  if (WIFEXITED(status))
    return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

static int spawn(const std::vector<std::string> &argv, const std::vector<std::string> *env,
                 bool closeStdin) {
  std::cout.flush();
  std::cerr.flush();
  pid_t pid = ::fork();
  if (pid < 0)
    return 127;
  if (pid == 0) {
    if (closeStdin)
      ::close(0);
    if (env)
      for (const std::string &entry : *env)
        ::putenv(const_cast<char *>(entry.c_str()));
    std::vector<char *> raw;
    for (const std::string &arg : argv)
      raw.push_back(const_cast<char *>(arg.c_str()));
    raw.push_back(nullptr);
    ::execve(raw[0], raw.data(), environ);
    std::_Exit(127);
  }
  return waitFor(pid);
}

int runProgram(const std::vector<std::string> &argv) { return spawn(argv, nullptr, true); }

int runProgramWithEnv(const std::vector<std::string> &argv, const std::vector<std::string> &env) {
  return spawn(argv, &env, false);
}

std::string joinCommand(const std::vector<std::string> &argv) {
  std::string line;
  for (const std::string &arg : argv)
    line += (line.empty() ? "" : " ") + arg;
  return line;
}

TempFile::TempFile(const std::string &suffix) {
  std::string pattern = (fs::temp_directory_path() / "warpforge-XXXXXX").string() + suffix;
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  int fd = ::mkstemps(buffer.data(), int(suffix.size()));
  if (fd < 0)
    throw std::runtime_error("cannot create a temporary file");
  ::close(fd);
  path_ = buffer.data();
}

TempFile::~TempFile() {
  std::error_code ec;
  fs::remove(path_, ec);
}

TempDir::TempDir() {
  std::string pattern = (fs::temp_directory_path() / "warpforge-XXXXXX").string();
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (!::mkdtemp(buffer.data()))
    throw std::runtime_error("cannot create a temporary folder");
  path_ = buffer.data();
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

std::vector<std::string> clangCudaArgs(const std::string &clang, const std::string &headers) {
  std::vector<std::string> argv = {clang, "-x", "cuda", "--cuda-gpu-arch=sm_75", "-nocudainc",
                                   "-nocudalib", "-O2", "-std=c++17", "-Wno-unknown-cuda-version",
                                   "-D__WARPFORGE__=1", "-isystem", headers};
  // The runtime's ABI types (cuda_types.h and the tables it includes) are installed beside our
  // headers; in the build tree they are read where the runtime has them.
  std::error_code ec;
#ifdef WARPFORGE_RUNTIME_TYPES_DIR
  if (!fs::exists(fs::path(headers) / "cuda_types.h", ec))
    argv.insert(argv.end(), {"-isystem", WARPFORGE_RUNTIME_TYPES_DIR, "-isystem",
                             WARPFORGE_RUNTIME_INCLUDE_DIR});
#endif
  argv.insert(argv.end(), {"-include", "__wf_cuda_preinclude.h"});
  return argv;
}

} // namespace wf::driver

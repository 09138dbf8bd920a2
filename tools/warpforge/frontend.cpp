#include "frontend.h"

#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
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

std::string findManagedPlugin() {
  if (const char *env = std::getenv("WARPFORGE_MANAGED_PLUGIN"))
    return env;
#ifdef WARPFORGE_MANAGED_PLUGIN
  std::error_code ec;
  if (fs::path prefix = prefixOfExecutable(); !prefix.empty())
    if (fs::exists(prefix / "lib" / WARPFORGE_MANAGED_PLUGIN, ec))
      return (prefix / "lib" / WARPFORGE_MANAGED_PLUGIN).string();
#endif
  return {};
}

int managedPluginLlvmMajor() {
#ifdef WARPFORGE_MANAGED_PLUGIN_LLVM_MAJOR
  return WARPFORGE_MANAGED_PLUGIN_LLVM_MAJOR;
#else
  return 0;
#endif
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
    if (closeStdin) {
      // Stdin from /dev/null rather than closed: a closed descriptor 0 is reused by the child's
      // next open(), which confuses tools that write to what they opened (nvcc's preprocessor).
      int null = ::open("/dev/null", O_RDONLY);
      if (null > 0) {
        ::dup2(null, 0);
        ::close(null);
      }
    }
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

int clangMajorVersion(const std::string &clang) {
  int fds[2];
  if (::pipe(fds) != 0)
    return 0;
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return 0;
  }
  if (pid == 0) {
    ::dup2(fds[1], 1);
    ::close(fds[0]);
    ::close(fds[1]);
    char *argv[] = {const_cast<char *>(clang.c_str()), const_cast<char *>("-dumpversion"), nullptr};
    ::execve(argv[0], argv, environ);
    std::_Exit(127);
  }
  ::close(fds[1]);
  std::string text;
  char buffer[256];
  for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) != 0;) {
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      break;
    text.append(buffer, size_t(n));
  }
  ::close(fds[0]);
  if (waitFor(pid) != 0)
    return 0;
  return std::atoi(text.c_str()); // "14.0.6"
}

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
  std::vector<std::string> argv = {
      clang,        "-x",   "cuda",       "--cuda-gpu-arch=sm_75",     "-nocudainc",
      "-nocudalib", "-O2",  "-std=c++17", "-Wno-unknown-cuda-version", "-D__WARPFORGE__=1",
      "-isystem",   headers}; // the ABI types (cuda_types.h) are among them
  argv.insert(argv.end(), {"-include", "__wf_cuda_preinclude.h"});
  return argv;
}

std::string repairClangPtx(const std::string &ptxPath) {
  std::ifstream in(ptxPath);
  if (!in)
    return "cannot read '" + ptxPath + "'";
  std::stringstream text;
  text << in.rdbuf();
  std::string source = text.str();
  // The back end's pattern: `shl.b64 %lhs, X, N;` then `sub.u32 %amt2, 64, N;` (shr.b64 for a
  // rotate right), both inside a `{ }` scope that declares %lhs, %rhs and %amt2.
  auto split = [](std::string_view line, std::string_view &op, std::vector<std::string> &args) {
    size_t start = line.find_first_not_of(" \t");
    if (start == std::string_view::npos)
      return false;
    line.remove_prefix(start);
    size_t gap = line.find_first_of(" \t");
    if (gap == std::string_view::npos || line.back() != ';')
      return false;
    op = line.substr(0, gap);
    std::string_view rest = line.substr(gap, line.size() - gap - 1);
    args.clear();
    while (!rest.empty()) {
      size_t comma = rest.find(',');
      std::string_view arg = rest.substr(0, comma);
      size_t b = arg.find_first_not_of(" \t"), e = arg.find_last_not_of(" \t");
      args.emplace_back(b == std::string_view::npos ? std::string_view()
                                                    : arg.substr(b, e - b + 1));
      if (comma == std::string_view::npos)
        break;
      rest.remove_prefix(comma + 1);
    }
    return true;
  };
  std::vector<std::string_view> lines;
  for (size_t at = 0; at < source.size();) {
    size_t end = source.find('\n', at);
    if (end == std::string::npos)
      end = source.size();
    lines.push_back(std::string_view(source).substr(at, end - at));
    at = end + 1;
  }
  std::string out;
  out.reserve(source.size() + 1024);
  bool changed = false;
  std::string_view op, subOp;
  std::vector<std::string> args, subArgs;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i + 1 < lines.size() && split(lines[i], op, args) && (op == "shl.b64" || op == "shr.b64") &&
        args.size() == 3 && args[0] == "%lhs" && split(lines[i + 1], subOp, subArgs) &&
        subOp == "sub.u32" && subArgs.size() == 3 && subArgs[0] == "%amt2" && subArgs[1] == "64" &&
        subArgs[2] == args[2]) {
      out += "\tand.b32 \t%amt2, " + args[2] + ", 63;\n";
      out += "\t" + std::string(op) + " \t%lhs, " + args[1] + ", %amt2;\n";
      out += "\tsub.u32 \t%amt2, 64, %amt2;\n";
      ++i;
      changed = true;
      continue;
    }
    out += lines[i];
    out += '\n';
  }
  if (!changed)
    return {};
  std::ofstream file(ptxPath, std::ios::trunc);
  if (!(file << out))
    return "cannot write '" + ptxPath + "'";
  return {};
}

} // namespace wf::driver

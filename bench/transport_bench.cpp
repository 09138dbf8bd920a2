// The cost of the device protocol per transport, side by side in one run: copy bandwidth through
// the DMA window (host to device, device to host) and the round trip of one command (a FENCE),
// for the in-process emulator and for a board server in a child process.
#include "warpforge/runtime/board_server.h"
#include "warpforge/runtime/device.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace wf::rt;
using Clock = std::chrono::steady_clock;

static double seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

static void measure(const char *label, Device &dev) {
  const uint64_t bytes = 256ull << 20;
  std::vector<uint8_t> host(bytes, 0x5a);
  uint64_t a = dev.allocate(bytes, 4096);
  if (!a) {
    std::printf("%s: cannot allocate\n", label);
    return;
  }
  dev.write(a, host.data(), bytes); // touch the pages once
  auto t = Clock::now();
  for (int i = 0; i < 4; ++i)
    dev.write(a, host.data(), bytes);
  double h2d = 4.0 * bytes / seconds(t) / 1e9;
  t = Clock::now();
  for (int i = 0; i < 4; ++i)
    dev.read(a, host.data(), bytes);
  double d2h = 4.0 * bytes / seconds(t) / 1e9;
  const int fences = 20000;
  t = Clock::now();
  for (int i = 0; i < fences; ++i)
    dev.synchronize();
  double us = seconds(t) / fences * 1e6;
  std::printf("| %s | %.2f | %.2f | %.2f |\n", label, h2d, d2h, us);
  dev.free(a);
}

int main() {
  std::printf(
      "| transport | host to device GB/s | device to host GB/s | command round trip us |\n");
  std::printf("| --- | --- | --- | --- |\n");
  ::unsetenv("WARPFORGE_SERVER");
  std::string error;
  {
    auto dev = openDevice("func", "large", error);
    if (!dev) {
      std::fprintf(stderr, "%s\n", error.c_str());
      return 1;
    }
    measure("in-process", *dev);
  }
  std::string path = (std::filesystem::temp_directory_path() /
                      ("wf-bench-" + std::to_string(::getpid()) + ".sock"))
                         .string();
  pid_t child = ::fork();
  if (child == 0) {
    board::ServerOptions options;
    options.config = "large";
    options.socketPath = path;
    options.maxClients = 1;
    options.quiet = true;
    std::_Exit(board::serve(options));
  }
  for (int i = 0; i < 500 && !std::filesystem::exists(path); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ::setenv("WARPFORGE_SERVER", path.c_str(), 1);
  {
    auto dev = openDevice("func", "large", error);
    if (!dev) {
      std::fprintf(stderr, "%s\n", error.c_str());
      ::kill(child, SIGTERM);
      return 1;
    }
    measure("board server (Unix socket + shared memory)", *dev);
  }
  ::waitpid(child, nullptr, 0);
  return 0;
}

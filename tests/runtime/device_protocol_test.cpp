// The runtime's device layer over the device protocol: device plugins loaded by name, the
// in-process transport and the board server (a thread, or a child process for the lost-device
// case), through rt::openDevice.
#include "warpforge/isa/config.gen.h"
#include "warpforge/runtime/board_server.h"
#include "warpforge/runtime/device.h"
#include "warpforge/runtime/plugins.h"
#include "warpforge/runtime/runtime.h"
#include "warpforge/runtime/texture.h"
#include "warpforge/runtime/transport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace wf::rt {
namespace {

std::string tempSocket(const char *tag) {
  return (std::filesystem::temp_directory_path() /
          ("wf-test-" + std::string(tag) + "-" + std::to_string(::getpid()) + ".sock"))
      .string();
}

/// Waits until the server's socket exists (it is created listening, so a connect then queues).
void waitForServer(const std::string &path) {
  for (int i = 0; i < 500 && !std::filesystem::exists(path); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_TRUE(std::filesystem::exists(path)) << "no board server socket at " << path;
}

/// A link with no shared address space, as PCIe is: the emulator's plugin behind a transport whose
/// DMA window the host reaches only through windowWrite/windowRead (a buffer the test owns, which
/// the model reaches through its host-DMA port) and whose device memory is not mapped.
class UnmappedTransport final : public Transport {
public:
  UnmappedTransport(const wf_device_plugin &plugin, wf_device_model *model)
      : ops_(*plugin.ops), model_(model), window_(8ull << 20) {
    port_ = {this, window_.size(), portRead, portWrite};
    ops_.attach_host_dma(model_, &port_);
  }
  ~UnmappedTransport() override { ops_.destroy(model_); }
  std::string deviceKind() const override { return ops_.kind(model_); }
  std::string describe() const override { return "a link with no shared address space"; }
  uint32_t readReg(uint32_t offset) override { return ops_.read_reg(model_, offset); }
  void writeReg(uint32_t offset, uint32_t value) override { ops_.write_reg(model_, offset, value); }
  uint64_t dmaWindowSize() const override { return window_.size(); }
  bool windowWrite(uint64_t offset, const void *src, uint64_t bytes) override {
    ++windowCalls;
    return portWrite(this, offset, src, bytes) == 0;
  }
  bool windowRead(uint64_t offset, void *dst, uint64_t bytes) override {
    ++windowCalls;
    return portRead(this, offset, dst, bytes) == 0;
  }
  bool dmaWrite(uint64_t address, const void *src, uint64_t bytes) override {
    return ops_.mem_write(model_, address, src, bytes) == 0;
  }
  bool dmaRead(uint64_t address, void *dst, uint64_t bytes) override {
    return ops_.mem_read(model_, address, dst, bytes) == 0;
  }
  std::atomic<uint64_t> windowCalls{0};

private:
  static int portRead(void *context, uint64_t offset, void *dst, uint64_t bytes) {
    auto &w = static_cast<UnmappedTransport *>(context)->window_;
    if (offset > w.size() || bytes > w.size() - offset)
      return 1;
    std::memcpy(dst, w.data() + offset, bytes);
    return 0;
  }
  static int portWrite(void *context, uint64_t offset, const void *src, uint64_t bytes) {
    auto &w = static_cast<UnmappedTransport *>(context)->window_;
    if (offset > w.size() || bytes > w.size() - offset)
      return 1;
    std::memcpy(w.data() + offset, src, bytes);
    return 0;
  }
  const wf_device_model_ops &ops_;
  wf_device_model *model_;
  std::vector<uint8_t> window_;
  wf_host_dma_port port_{};
};

TEST(DeviceProtocol, ALinkWithNoSharedAddressSpace) {
  std::string error;
  const wf_device_plugin *plugin = loadPlugin("func", error);
  ASSERT_TRUE(plugin) << error;
  wf_device_create_params params{};
  params.abi_version = WF_DEVICE_PLUGIN_ABI_VERSION;
  params.config = "tiny";
  char why[256] = {};
  wf_device_model *model = plugin->create(&params, why, sizeof why);
  ASSERT_TRUE(model) << why;
  auto owned = std::make_unique<UnmappedTransport>(*plugin, model);
  UnmappedTransport *transport = owned.get();
  std::unique_ptr<Device> dev = openProtocolDevice(std::move(owned), error);
  ASSERT_TRUE(dev) << error;
  EXPECT_EQ(dev->info().queues, isa::dev::kQueues);

  const uint64_t n = 3ull << 20; // several pieces of the window
  uint64_t a = dev->allocate(n, 4096), b = dev->allocate(n, 4096);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(dev->hostWindow(a, 16), nullptr) << "no host pointer into device memory";
  std::vector<uint32_t> data(n / 4), back(n / 4);
  std::iota(data.begin(), data.end(), 7u);
  // Across engines: a copy in on CopyIn, a device copy on Compute after it, a copy out on CopyOut
  // after that (WAIT commands order the queues).
  Ticket in = dev->submitWrite(Engine::CopyIn, a, data.data(), n, {});
  Ticket dd = dev->submitCopy(Engine::Compute, b, a, n, std::span<const Ticket>(&in, 1));
  Ticket out = dev->submitRead(Engine::CopyOut, b, back.data(), n, std::span<const Ticket>(&dd, 1));
  dev->wait(out);
  EXPECT_TRUE(back == data);
  ASSERT_TRUE(dev->fill(a, 0x5a, 16));
  uint8_t bytes[16];
  ASSERT_TRUE(dev->read(a, bytes, sizeof bytes));
  EXPECT_EQ(bytes[15], 0x5a);
  EXPECT_GT(transport->windowCalls.load(), 0u);
}

/// Exercises copies larger than the DMA window, fills, timestamps and mapped memory.
void exerciseDevice(Device &dev) {
  const uint64_t n = 40ull << 20; // more than two DMA windows
  uint64_t a = dev.allocate(n, 4096);
  ASSERT_NE(a, 0u);
  std::vector<uint32_t> data(n / 4);
  std::iota(data.begin(), data.end(), 0x1234u);
  ASSERT_TRUE(dev.write(a, data.data(), n));
  std::vector<uint32_t> back(n / 4);
  ASSERT_TRUE(dev.read(a, back.data(), n));
  EXPECT_TRUE(back == data);
  ASSERT_TRUE(dev.fill(a + 8, 0xff, 8));
  uint32_t word[4];
  ASSERT_TRUE(dev.read(a, word, sizeof word));
  EXPECT_EQ(word[1], 0x1235u);
  EXPECT_EQ(word[2], 0xffffffffu);
  EXPECT_EQ(word[3], 0xffffffffu);
  // Out of range: refused, nothing lost.
  EXPECT_FALSE(dev.read(dev.info().memBase + dev.info().memSize - 4, word, 8));
  EXPECT_FALSE(dev.write(0x1000, word, 4));
  // Mapped memory aliases device memory both ways.
  auto *host = static_cast<uint32_t *>(dev.hostWindow(a, 16));
  ASSERT_NE(host, nullptr);
  EXPECT_EQ(host[0], 0x1234u);
  host[0] = 0xabcdef01u;
  ASSERT_TRUE(dev.read(a, word, 4));
  EXPECT_EQ(word[0], 0xabcdef01u);
  uint64_t t0 = dev.cycles(), t1 = dev.cycles();
  EXPECT_LE(t0, t1);
  dev.synchronize();
  // A launch the device must refuse comes back as InvalidLaunch with a reason.
  LaunchParams p;
  p.kernelName = "impossible";
  p.codeBase = a;
  p.codeSize = 64;
  p.block = {4096, 1, 1};
  LaunchOutcome r = dev.launch(p);
  ASSERT_TRUE(r.fault);
  EXPECT_EQ(r.fault->kind, FaultKind::InvalidLaunch);
  // The reason comes as fields (detail BLOCK_TOO_LARGE); the host's words say which limit.
  std::string why = r.fault->describe("impossible");
  EXPECT_NE(why.find("kernel 'impossible'"), std::string::npos) << why;
  EXPECT_NE(why.find("invalid launch: 4096 threads per block exceed the limit of"),
            std::string::npos)
      << why;
}

/// Host-initiated DMA: a round trip checked against the queued copies, ordering after queued
/// commands on every engine, and ranges outside device memory refused without losing the device.
void exerciseDma(Device &dev) {
  const uint64_t n = (3ull << 20) + 12; // several of the board protocol's DMA requests
  uint64_t a = dev.allocate(n, 4096), b = dev.allocate(n, 4096);
  ASSERT_TRUE(a && b);
  std::vector<uint8_t> data(n), back(n, 0);
  for (uint64_t i = 0; i < n; ++i)
    data[i] = uint8_t(i * 7 + (i >> 12));
  ASSERT_TRUE(dev.dmaWrite(a, data.data(), n));
  ASSERT_TRUE(dev.read(a, back.data(), n)); // a queued copy sees what the DMA wrote
  EXPECT_TRUE(back == data);
  ASSERT_TRUE(dev.write(b, data.data(), n));
  std::fill(back.begin(), back.end(), 0);
  ASSERT_TRUE(dev.dmaRead(b, back.data(), n)); // and the DMA sees what a queued copy wrote
  EXPECT_TRUE(back == data);

  // Queued, not yet waited for: a fill on CopyIn and a copy on Compute after it. The DMA must
  // not overtake them: its read sees the copy, and its write lands after the fill.
  Ticket fill = dev.submitFill(Engine::CopyIn, a, 0x3c, n, {});
  Ticket copy = dev.submitCopy(Engine::Compute, b, a, n, std::span<const Ticket>(&fill, 1));
  (void)copy;
  ASSERT_TRUE(dev.dmaRead(b + n - 16, back.data(), 16));
  for (int i = 0; i < 16; ++i)
    EXPECT_EQ(back[i], 0x3c) << "byte " << i;
  Ticket refill = dev.submitFill(Engine::CopyOut, a, 0x11, n, {});
  (void)refill;
  ASSERT_TRUE(dev.dmaWrite(a + 8, data.data(), 4));
  uint8_t word[12];
  ASSERT_TRUE(dev.read(a, word, sizeof word));
  EXPECT_EQ(word[0], 0x11);
  EXPECT_EQ(std::memcmp(word + 8, data.data(), 4), 0) << "the DMA landed before the queued fill";

  // Outside device memory: refused, and the device goes on.
  uint64_t end = dev.info().memBase + dev.info().memSize;
  EXPECT_FALSE(dev.dmaWrite(end - 8, data.data(), 16));
  EXPECT_FALSE(dev.dmaRead(end - 8, back.data(), 16));
  EXPECT_FALSE(dev.dmaWrite(dev.info().memBase - 4096, data.data(), 4));
  EXPECT_FALSE(dev.dmaRead(end, back.data(), 1));
  EXPECT_FALSE(dev.lost());
  ASSERT_TRUE(dev.dmaRead(a + 8, word, 4));
  EXPECT_EQ(std::memcmp(word, data.data(), 4), 0);
}

TEST(DeviceProtocol, HostInitiatedDmaInProcess) {
  ::unsetenv("WARPFORGE_SERVER");
  std::string error;
  auto dev = openDevice("func", "tiny", error);
  ASSERT_TRUE(dev) << error;
  exerciseDma(*dev);
}

TEST(DeviceProtocol, HostInitiatedDmaThroughTheBoardServer) {
  std::string path = tempSocket("dma");
  board::ServerOptions options;
  options.config = "tiny";
  options.socketPath = path;
  options.maxClients = 1;
  options.quiet = true;
  int status = -1;
  std::thread server([&] { status = board::serve(options); });
  waitForServer(path);
  ::setenv("WARPFORGE_SERVER", path.c_str(), 1);
  {
    std::string error;
    auto dev = openDevice("func", "tiny", error);
    ASSERT_TRUE(dev) << error;
    EXPECT_EQ(dev->info().transport.find("board server"), 0u) << dev->info().transport;
    exerciseDma(*dev);
  }
  ::unsetenv("WARPFORGE_SERVER");
  server.join();
  EXPECT_EQ(status, 0);
}

TEST(DeviceProtocol, InProcessDevice) {
  ::unsetenv("WARPFORGE_SERVER");
  std::string error;
  auto dev = openDevice("func", "default", error);
  ASSERT_TRUE(dev) << error;
  EXPECT_EQ(dev->info().kind, "func");
  EXPECT_EQ(dev->info().memBase, isa::kGlobalBase);
  exerciseDevice(*dev);
  uint64_t a = dev->allocate(4096, 4096);
  ASSERT_TRUE(dev->fill(a, 0x77, 4096));
  dev->reset();
  uint8_t b = 1;
  ASSERT_TRUE(dev->read(a, &b, 1));
  EXPECT_EQ(b, 0) << "cudaDeviceReset leaves memory zeroed";
}

TEST(DeviceProtocol, BoardServerServesProgramsInTurn) {
  std::string path = tempSocket("board");
  board::ServerOptions options;
  options.config = "tiny";
  options.socketPath = path;
  options.maxClients = 2;
  options.quiet = true;
  int status = -1;
  std::thread server([&] { status = board::serve(options); });
  waitForServer(path);
  ::setenv("WARPFORGE_SERVER", path.c_str(), 1);
  ::unsetenv("WARPFORGE_CONFIG");
  ::unsetenv("WARPFORGE_DEVICE");
  uint64_t marked = 0;
  {
    std::string error;
    auto dev = openDevice("func", "default", error); // the server's configuration wins
    ASSERT_TRUE(dev) << error;
    EXPECT_EQ(dev->info().config.name, "tiny");
    EXPECT_EQ(dev->info().kind, "func");
    exerciseDevice(*dev);
    marked = dev->allocate(64, 256);
    ASSERT_TRUE(dev->fill(marked, 0x42, 64));
  }
  {
    std::string error;
    auto dev = openDevice("func", "default", error);
    ASSERT_TRUE(dev) << error;
    uint8_t b = 1;
    ASSERT_TRUE(dev->read(marked, &b, 1));
    EXPECT_EQ(b, 0) << "a program must not see the previous program's memory";
  }
  server.join();
  EXPECT_EQ(status, 0);
  EXPECT_FALSE(std::filesystem::exists(path));
  ::unsetenv("WARPFORGE_SERVER");
}

TEST(DeviceProtocol, MissingServerIsAClearError) {
  ::setenv("WARPFORGE_SERVER", tempSocket("absent").c_str(), 1);
  std::string error;
  EXPECT_FALSE(openDevice("func", "default", error));
  EXPECT_NE(error.find("warpforge board"), std::string::npos) << error;
  ::unsetenv("WARPFORGE_SERVER");
}

TEST(DeviceProtocol, ServerMismatchIsAClearError) {
  std::string path = tempSocket("mismatch");
  board::ServerOptions options;
  options.config = "tiny";
  options.socketPath = path;
  options.maxClients = 1;
  options.quiet = true;
  std::thread server([&] { board::serve(options); });
  waitForServer(path);
  ::setenv("WARPFORGE_SERVER", path.c_str(), 1);
  ::setenv("WARPFORGE_CONFIG", "large", 1);
  std::string error;
  EXPECT_FALSE(openDevice("func", "large", error));
  EXPECT_NE(error.find("tiny"), std::string::npos) << error;
  server.join();
  ::unsetenv("WARPFORGE_SERVER");
  ::unsetenv("WARPFORGE_CONFIG");
}

TEST(DevicePlugins, TheEmulatorAndTheBoardAreInstalled) {
  std::vector<PluginListing> plugins = installedPlugins();
  auto has = [&](const char *name) {
    for (const PluginListing &p : plugins)
      if (p.name == name)
        return true;
    return false;
  };
  EXPECT_TRUE(has("func"));
  EXPECT_TRUE(has("board"));
  std::string error;
  const wf_device_plugin *func = loadPlugin("func", error);
  ASSERT_TRUE(func) << error;
  EXPECT_STREQ(func->name, "func");
  EXPECT_EQ(func->abi_version, WF_DEVICE_PLUGIN_ABI_VERSION);
}

TEST(DevicePlugins, AMissingPluginListsTheInstalledOnes) {
  ::unsetenv("WARPFORGE_SERVER");
  std::string error;
  EXPECT_FALSE(openDevice("cycle-nonexistent", "default", error));
  EXPECT_NE(error.find("no device plugin 'cycle-nonexistent'"), std::string::npos) << error;
  // The list names every plugin this build installed (which ones depends on the build's options:
  // func and board always, cycle and rtl with SystemC and Verilator), each one loadable.
  size_t at = error.find("installed: ");
  ASSERT_NE(at, std::string::npos) << error;
  std::string list = error.substr(at + 11, error.find(';', at) - at - 11);
  std::vector<std::string> names;
  for (size_t begin = 0; begin <= list.size();) {
    size_t end = std::min(list.find(", ", begin), list.size());
    names.push_back(list.substr(begin, end - begin));
    begin = end + 2;
  }
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end())) << list;
  EXPECT_NE(std::find(names.begin(), names.end(), "func"), names.end()) << list;
  EXPECT_NE(std::find(names.begin(), names.end(), "board"), names.end()) << list;
  for (const std::string &name : names) {
    std::string loadError;
    EXPECT_TRUE(loadPlugin(name, loadError)) << name << ": " << loadError;
  }
  EXPECT_NE(error.find("WARPFORGE_DEVICE_PATH"), std::string::npos) << error;
}

TEST(DevicePlugins, ABrokenPluginIsAClearError) {
  auto dir = std::filesystem::temp_directory_path() / ("wf-plugins-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "libwf-device-broken.so") << "not a shared library";
  ::setenv("WARPFORGE_DEVICE_PATH", dir.c_str(), 1);
  std::string error;
  EXPECT_FALSE(loadPlugin("broken", error));
  EXPECT_NE(error.find("cannot load device plugin"), std::string::npos) << error;
  // WARPFORGE_DEVICE_PATH adds to the search path: the installed plugins are still found.
  EXPECT_TRUE(loadPlugin("func", error)) << error;
  ::unsetenv("WARPFORGE_DEVICE_PATH");
  std::filesystem::remove_all(dir);
}

TEST(DevicePlugins, TheBoardIsSelectedByName) {
  // WARPFORGE_DEVICE=board without WARPFORGE_SERVER: the default socket, under XDG_RUNTIME_DIR.
  auto dir = std::filesystem::temp_directory_path() / ("wf-xdg-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const char *oldXdg = std::getenv("XDG_RUNTIME_DIR");
  std::string savedXdg = oldXdg ? oldXdg : "";
  ::setenv("XDG_RUNTIME_DIR", dir.c_str(), 1);
  ::unsetenv("WARPFORGE_SERVER");
  ::unsetenv("WARPFORGE_CONFIG");
  std::string path = board::defaultSocketPath();
  EXPECT_EQ(path, (dir / "warpforge-board.sock").string());
  board::ServerOptions options;
  options.config = "tiny";
  options.maxClients = 1;
  options.quiet = true;
  int status = -1;
  std::thread server([&] { status = board::serve(options); });
  waitForServer(path);
  {
    std::string error;
    auto dev = openDevice("board", "default", error);
    ASSERT_TRUE(dev) << error;
    EXPECT_EQ(dev->info().kind, "func"); // the model the server hosts
    EXPECT_EQ(dev->info().transport, "board server at " + path);
    EXPECT_EQ(dev->info().config.name, "tiny");
    exerciseDevice(*dev);
  }
  server.join();
  EXPECT_EQ(status, 0);
  // The in-process default is a different transport of the same model.
  std::string error;
  auto local = openDevice("func", "tiny", error);
  ASSERT_TRUE(local) << error;
  EXPECT_EQ(local->info().transport, "in-process emulator");
  if (oldXdg)
    ::setenv("XDG_RUNTIME_DIR", savedXdg.c_str(), 1);
  else
    ::unsetenv("XDG_RUNTIME_DIR");
  std::filesystem::remove_all(dir);
}

TEST(DevicePlugins, TheServerRefusesWhatItCannotHost) {
  board::ServerOptions options;
  options.socketPath = tempSocket("refuse");
  options.quiet = true;
  options.device = "nonexistent";
  EXPECT_EQ(board::serve(options), 2);
  options.device = "board"; // a board server cannot host the board behind another one
  EXPECT_EQ(board::serve(options), 2);
  EXPECT_FALSE(std::filesystem::exists(options.socketPath));
}

TEST(DeviceProtocol, LostServerIsReportedNotFatal) {
  std::string path = tempSocket("lost");
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    board::ServerOptions options;
    options.config = "tiny";
    options.socketPath = path;
    options.quiet = true;
    std::_Exit(board::serve(options));
  }
  waitForServer(path);
  ::setenv("WARPFORGE_SERVER", path.c_str(), 1);
  std::string error;
  auto dev = openDevice("func", "default", error);
  ::unsetenv("WARPFORGE_SERVER");
  ASSERT_TRUE(dev) << error;
  uint64_t a = dev->allocate(256, 256);
  uint32_t v = 5;
  ASSERT_TRUE(dev->write(a, &v, 4));
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  EXPECT_FALSE(dev->write(a, &v, 4));
  LaunchParams p;
  p.kernelName = "k";
  LaunchOutcome r = dev->launch(p);
  ASSERT_TRUE(r.fault);
  EXPECT_EQ(r.fault->kind, FaultKind::InvalidLaunch);
  EXPECT_NE(r.fault->describe("k").find("lost the device"), std::string::npos)
      << r.fault->describe("k");
  std::filesystem::remove(path);
}

} // namespace
} // namespace wf::rt

namespace wf::rt {
namespace {

TEST(DeviceReset, ArraysAndTextureObjectsDoNotOutliveIt) {
  ::unsetenv("WARPFORGE_SERVER");
  Runtime &r = Runtime::get();
  ASSERT_EQ(r.ensureDevice(), Error::cudaSuccess);
  ArrayInfo shape;
  shape.width = 16;
  shape.height = 4;
  ArrayInfo *array = nullptr;
  ASSERT_EQ(arrayCreate(shape, array), Error::cudaSuccess);
  ASSERT_EQ(findArray(array), array);
  isa::dev::TexDesc desc{};
  uint64_t handle = 0;
  ASSERT_EQ(objectCreate(desc, handle), Error::cudaSuccess);
  EXPECT_TRUE(isObject(handle, false));
  r.reset();
  EXPECT_EQ(findArray(array), nullptr) << "an array handle must die with cudaDeviceReset";
  EXPECT_FALSE(isObject(handle, false));
  EXPECT_EQ(objectDestroy(handle, false), Error::cudaErrorInvalidValue);
}

} // namespace
} // namespace wf::rt

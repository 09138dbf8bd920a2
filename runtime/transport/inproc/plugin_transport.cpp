// The in-process transport: a device plugin (docs/runtime.md, "Device plugins") loaded into the host
// process and driven through its ports. The runtime links no device model; the model comes from
// the plugin registry (lib/plugins.cpp). Host memory for DMA is a buffer of this process that the
// model reaches through the host-DMA port, unless the model provides its own (a board server's
// shared window).
#include "warpforge/runtime/device.h"
#include "warpforge/runtime/plugins.h"
#include "warpforge/runtime/transport.h"

#include <cstring>
#include <sys/mman.h>

namespace wf::rt {

namespace {

constexpr uint64_t kDmaWindowBytes = 16ull << 20;
/// Cycles a clocked model runs each time the host polls it.
constexpr uint64_t kAdvanceQuantum = 4096;

class PluginTransport final : public Transport {
public:
  PluginTransport(const wf_device_plugin &plugin, wf_device_model *model)
      : plugin_(plugin), ops_(*plugin.ops), model_(model) {}
  ~PluginTransport() override {
    ops_.destroy(model_); // first: the model may still reach the window
    if (ownWindow_)
      munmap(window_, windowBytes_);
  }

  /// Finds or makes the host memory the device reaches by DMA.
  bool attachHostMemory(std::string &error) {
    if (ops_.host_memory)
      window_ = ops_.host_memory(model_, &windowBytes_);
    if (window_)
      return true;
    if (!ops_.attach_host_dma) {
      error = std::string("device plugin '") + plugin_.name + "' offers no host-DMA port";
      return false;
    }
    void *p = mmap(nullptr, kDmaWindowBytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
      error = "cannot map the DMA window (" + std::string(std::strerror(errno)) + ")";
      return false;
    }
    window_ = static_cast<uint8_t *>(p);
    windowBytes_ = kDmaWindowBytes;
    ownWindow_ = true;
    port_ = {this, windowBytes_, portRead, portWrite};
    ops_.attach_host_dma(model_, &port_);
    return true;
  }

  std::string deviceKind() const override { return ops_.kind(model_); }
  std::string describe() const override { return ops_.describe(model_); }
  uint32_t readReg(uint32_t offset) override { return ops_.read_reg(model_, offset); }
  void writeReg(uint32_t offset, uint32_t value) override { ops_.write_reg(model_, offset, value); }
  bool lost() const override { return ops_.lost && ops_.lost(model_, nullptr, 0); }
  std::string lostReason() const override {
    char why[256] = {};
    if (!ops_.lost || !ops_.lost(model_, why, sizeof why))
      return {};
    return why;
  }
  void service() override {
    if (ops_.advance)
      ops_.advance(model_, kAdvanceQuantum);
  }
  uint64_t dmaWindowSize() const override { return windowBytes_; }
  bool windowWrite(uint64_t offset, const void *src, uint64_t bytes) override {
    if (offset > windowBytes_ || bytes > windowBytes_ - offset)
      return false;
    std::memcpy(window_ + offset, src, bytes);
    return true;
  }
  bool windowRead(uint64_t offset, void *dst, uint64_t bytes) override {
    if (offset > windowBytes_ || bytes > windowBytes_ - offset)
      return false;
    std::memcpy(dst, window_ + offset, bytes);
    return true;
  }
  // The model's device-memory port is its host-initiated DMA engine.
  bool dmaWrite(uint64_t address, const void *src, uint64_t bytes) override {
    return ops_.mem_write && ops_.mem_write(model_, address, src, bytes) == 0;
  }
  bool dmaRead(uint64_t address, void *dst, uint64_t bytes) override {
    return ops_.mem_read && ops_.mem_read(model_, address, dst, bytes) == 0;
  }
  uint8_t *mappedMemory() override {
    uint64_t base = 0, bytes = 0;
    return ops_.mem_map ? ops_.mem_map(model_, &base, &bytes) : nullptr;
  }

private:
  static int portRead(void *context, uint64_t offset, void *dst, uint64_t bytes) {
    auto *self = static_cast<PluginTransport *>(context);
    if (offset > self->windowBytes_ || bytes > self->windowBytes_ - offset)
      return 1;
    std::memcpy(dst, self->window_ + offset, bytes);
    return 0;
  }
  static int portWrite(void *context, uint64_t offset, const void *src, uint64_t bytes) {
    auto *self = static_cast<PluginTransport *>(context);
    if (offset > self->windowBytes_ || bytes > self->windowBytes_ - offset)
      return 1;
    std::memcpy(self->window_ + offset, src, bytes);
    return 0;
  }

  const wf_device_plugin &plugin_;
  const wf_device_model_ops &ops_;
  wf_device_model *model_;
  uint8_t *window_ = nullptr;
  uint64_t windowBytes_ = 0;
  bool ownWindow_ = false;
  wf_host_dma_port port_{};
};

} // namespace

std::unique_ptr<Device> openPluginDevice(const std::string &name, const std::string &config,
                                         const std::string &options, std::string &error) {
  const wf_device_plugin *plugin = loadPlugin(name, error);
  if (!plugin)
    return nullptr;
  wf_device_create_params params{};
  params.abi_version = WF_DEVICE_PLUGIN_ABI_VERSION;
  params.config = config.c_str();
  params.options = options.c_str();
  char why[512] = {};
  wf_device_model *model = plugin->create(&params, why, sizeof why);
  if (!model) {
    error = why[0] ? why : "device plugin '" + name + "' could not create a device";
    return nullptr;
  }
  auto transport = std::make_unique<PluginTransport>(*plugin, model);
  if (!transport->attachHostMemory(error))
    return nullptr;
  return openProtocolDevice(std::move(transport), error);
}

} // namespace wf::rt

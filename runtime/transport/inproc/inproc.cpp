// The in-process transport: the functional emulator and its command processor in the host
// process. With the board server, the only place in the runtime that includes a device model
// (ARCHITECTURE.md). The DMA window is ordinary host memory; device memory is mapped here too, so
// pinned and mapped host allocations work.
#include "warpforge/func/command_processor.h"
#include "warpforge/runtime/device.h"
#include "warpforge/runtime/transport.h"

#include <new>
#include <sys/mman.h>

namespace wf::rt {

uint64_t minimumDmaWindow();
std::unique_ptr<Device> openProtocolDevice(std::unique_ptr<Transport> transport,
                                           std::string &error);

namespace {

constexpr uint64_t kDmaWindowBytes = 16ull << 20;

class InProcTransport final : public Transport {
public:
  explicit InProcTransport(const isa::Config &config)
      : device_(config), window_(mapWindow()), processor_(device_, {window_, kDmaWindowBytes}) {}
  ~InProcTransport() override { munmap(window_, kDmaWindowBytes); }

  std::string deviceKind() const override { return "func"; }
  std::string describe() const override { return "in-process emulator"; }
  uint32_t readReg(uint32_t offset) override { return processor_.readReg(offset); }
  void writeReg(uint32_t offset, uint32_t value) override { processor_.writeReg(offset, value); }
  uint8_t *dmaWindow() override { return window_; }
  uint64_t dmaWindowSize() const override { return kDmaWindowBytes; }
  uint8_t *mappedMemory() override { return device_.memory().host(device_.memory().base()); }

private:
  static uint8_t *mapWindow() {
    void *p = mmap(nullptr, kDmaWindowBytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
      throw std::bad_alloc();
    return static_cast<uint8_t *>(p);
  }

  func::Device device_;
  uint8_t *window_;
  func::CommandProcessor processor_;
};

} // namespace

std::unique_ptr<Device> openInProcDevice(const isa::Config &config, std::string &error) {
  return openProtocolDevice(std::make_unique<InProcTransport>(config), error);
}

} // namespace wf::rt

// The in-process transport: the functional emulator in the host process. The only place in the
// runtime that includes a device model (ARCHITECTURE.md).
#include "warpforge/func/device.h"
#include "warpforge/runtime/allocator.h"
#include "warpforge/runtime/device.h"

#include <mutex>

namespace wf::rt {
namespace {

FaultKind convert(func::FaultKind kind) {
  switch (kind) {
  case func::FaultKind::None: return FaultKind::None;
  case func::FaultKind::OutOfBounds: return FaultKind::OutOfBounds;
  case func::FaultKind::Misaligned: return FaultKind::Misaligned;
  case func::FaultKind::IllegalInstruction: return FaultKind::IllegalInstruction;
  case func::FaultKind::Trap: return FaultKind::Trap;
  case func::FaultKind::Assert: return FaultKind::Assert;
  case func::FaultKind::Breakpoint: return FaultKind::Breakpoint;
  case func::FaultKind::BarrierDeadlock: return FaultKind::BarrierDeadlock;
  case func::FaultKind::Watchdog: return FaultKind::Watchdog;
  case func::FaultKind::ReadOnlyWrite: return FaultKind::ReadOnlyWrite;
  case func::FaultKind::InvalidLaunch: return FaultKind::InvalidLaunch;
  }
  return FaultKind::Trap;
}

class InProcDevice final : public Device {
public:
  explicit InProcDevice(const isa::Config &config)
      : device_(config), allocator_(device_.memory().base(), device_.memory().size()) {
    info_.kind = "func";
    info_.name = "Warpforge " + std::string(config.name) + " (func)";
    info_.config = config;
    info_.memBase = device_.memory().base();
    info_.memSize = device_.memory().size();
  }

  const DeviceInfo &info() const override { return info_; }
  uint64_t allocate(uint64_t bytes, uint64_t align) override {
    std::lock_guard lock(mutex_);
    return allocator_.allocate(bytes, align);
  }
  bool free(uint64_t address) override {
    std::lock_guard lock(mutex_);
    return allocator_.free(address);
  }
  bool read(uint64_t address, void *dst, uint64_t bytes) override {
    return device_.memory().read(address, dst, bytes);
  }
  bool write(uint64_t address, const void *src, uint64_t bytes) override {
    return device_.memory().write(address, src, bytes);
  }
  bool fill(uint64_t address, uint8_t value, uint64_t bytes) override {
    return device_.memory().fill(address, value, bytes);
  }
  LaunchOutcome launch(const LaunchParams &p) override {
    std::lock_guard lock(mutex_);
    func::LaunchDesc d;
    d.kernelName = p.kernelName;
    d.codeBase = p.codeBase;
    d.codeSize = p.codeSize;
    d.entryPc = p.entryPc;
    d.grid = {p.grid.x, p.grid.y, p.grid.z};
    d.block = {p.block.x, p.block.y, p.block.z};
    d.regsPerThread = p.regsPerThread;
    d.sharedStatic = p.sharedStatic;
    d.sharedDynamic = p.sharedDynamic;
    d.localBytes = p.localBytes;
    d.constBase = p.constBase;
    d.constSize = p.constSize;
    d.params = p.params;
    d.rtbuf = p.rtbuf;
    d.gridId = ++gridId_;
    func::RunOptions options;
    options.hostThreads = 1;
    func::LaunchResult r = device_.launch(d, options);
    LaunchOutcome out;
    out.cycles = r.cycles;
    out.warpInsts = r.warpInsts;
    out.threadInsts = r.threadInsts;
    if (r.fault) {
      DeviceFault f;
      f.kind = convert(r.fault->kind);
      f.block = {r.fault->block.x, r.fault->block.y, r.fault->block.z};
      f.thread = {r.fault->thread.x, r.fault->thread.y, r.fault->thread.z};
      f.pc = r.fault->pc;
      f.address = r.fault->address;
      f.code = r.fault->code;
      f.description = r.fault->describe();
      out.fault = f;
    }
    return out;
  }
  void synchronize() override {}
  uint64_t cycles() const override { return device_.cycles(); }
  void *hostWindow(uint64_t address, uint64_t bytes) override {
    if (!device_.memory().contains(address, bytes))
      return nullptr;
    return device_.memory().host(address);
  }
  void reset() override {
    std::lock_guard lock(mutex_);
    allocator_.reset();
    device_.memory().fill(device_.memory().base(), 0, device_.memory().size());
  }

private:
  std::mutex mutex_;
  func::Device device_;
  Allocator allocator_;
  DeviceInfo info_;
  uint64_t gridId_ = 0;
};

} // namespace

std::unique_ptr<Device> openInProcDevice(const isa::Config &config) {
  return std::make_unique<InProcDevice>(config);
}

} // namespace wf::rt

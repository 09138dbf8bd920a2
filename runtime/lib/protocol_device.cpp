//===- protocol_device.cpp - The Device interface over the device protocol -===//
//
// The one implementation of rt::Device: every transport hands it control registers and a DMA
// window, and it turns copies, fills, launches, fences and timestamps into commands on the device's
// queue (docs/device-protocol.md). Device memory is never touched directly: data moves through the
// DMA window's staging area in pieces, as it would over PCIe. Allocation is the host's business,
// as in any GPU driver.
//
// DMA window layout: the command ring, one completion record per ring slot, the launch slots
// (descriptor, parameter buffer), a timestamp word, then the staging area.
//
// Every command is waited for before the call returns (the runtime's streams are synchronous), so
// one staging area and one launch slot suffice; the ring still wraps as a real queue does.
//
//===----------------------------------------------------------------------===//

#include "warpforge/isa/device.gen.h"
#include "warpforge/runtime/allocator.h"
#include "warpforge/runtime/device.h"
#include "warpforge/runtime/transport.h"

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

namespace wf::rt {
namespace {

namespace dev = isa::dev;

constexpr uint32_t kRingEntries = 256;
// The watchdog when WARPFORGE_WATCHDOG_MINSTS is unset: 10^9 warp instructions per launch, about
// 800 times the largest launch of the application corpus (mandelbrot_fixed, 1.2 M; bench/README.md)
// and under a minute of the emulator's time, so a runaway kernel ends instead of hanging the
// program. It counts instructions, not time: the cycle model and the RTL take longer to reach it.
constexpr uint32_t kDefaultWatchdogMinsts = 1000;
constexpr uint64_t kParamBytes = 32 * 1024; // CUDA's largest parameter buffer (32764) fits
constexpr uint64_t kRingOffset = 0;
constexpr uint64_t kCompletionOffset = kRingOffset + kRingEntries * sizeof(dev::Command);
constexpr uint64_t kLaunchOffset = kCompletionOffset + kRingEntries * sizeof(dev::Completion);
constexpr uint64_t kParamOffset = kLaunchOffset + sizeof(dev::LaunchDesc);
constexpr uint64_t kTimestampOffset = kParamOffset + kParamBytes;
constexpr uint64_t kStagingOffset = (kTimestampOffset + 8 + 4095) & ~uint64_t(4095);
constexpr uint64_t kNoCompletion = ~uint64_t(0);

class ProtocolDevice final : public Device {
public:
  ProtocolDevice(std::unique_ptr<Transport> transport, const isa::Config &config, uint64_t memBase,
                 uint64_t memSize)
      : transport_(std::move(transport)), window_(transport_->dmaWindow()),
        staging_(transport_->dmaWindowSize() - kStagingOffset), allocator_(memBase, memSize) {
    info_.kind = transport_->deviceKind();
    info_.transport = transport_->describe();
    info_.name = "Warpforge " + std::string(config.name) + " (" + info_.kind + ")";
    info_.config = config;
    info_.memBase = memBase;
    info_.memSize = memSize;
    startQueue();
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
  bool allocated(uint64_t address, uint64_t bytes) override {
    std::lock_guard lock(mutex_);
    return allocator_.covers(address, bytes);
  }

  bool read(uint64_t address, void *dst, uint64_t bytes) override {
    std::lock_guard lock(mutex_);
    if (!inMemory(address, bytes))
      return false;
    auto *out = static_cast<uint8_t *>(dst);
    for (uint64_t done = 0; done < bytes;) {
      uint64_t piece = std::min(bytes - done, staging_);
      if (!ok(execute(dev::Op::Copy, dev::kFlagDstHost, address + done, kStagingOffset, piece)))
        return false;
      std::memcpy(out + done, window_ + kStagingOffset, piece);
      done += piece;
    }
    return true;
  }

  bool write(uint64_t address, const void *src, uint64_t bytes) override {
    std::lock_guard lock(mutex_);
    if (!inMemory(address, bytes))
      return false;
    auto *in = static_cast<const uint8_t *>(src);
    for (uint64_t done = 0; done < bytes;) {
      uint64_t piece = std::min(bytes - done, staging_);
      std::memcpy(window_ + kStagingOffset, in + done, piece);
      if (!ok(execute(dev::Op::Copy, dev::kFlagSrcHost, kStagingOffset, address + done, piece)))
        return false;
      done += piece;
    }
    return true;
  }

  bool fill(uint64_t address, uint8_t value, uint64_t bytes) override {
    std::lock_guard lock(mutex_);
    return inMemory(address, bytes) && ok(execute(dev::Op::Fill, 0, address, value, bytes));
  }

  LaunchOutcome launch(const LaunchParams &p) override {
    std::lock_guard lock(mutex_);
    LaunchOutcome out;
    if (p.params.size() > kParamBytes) {
      out.fault = invalid("the parameter buffer is larger than the protocol's " +
                          std::to_string(kParamBytes) + " bytes");
      return out;
    }
    dev::LaunchDesc d{};
    d.codeBase = p.codeBase;
    d.codeSize = p.codeSize;
    d.entryPc = p.entryPc;
    d.gridX = p.grid.x, d.gridY = p.grid.y, d.gridZ = p.grid.z;
    d.blockX = p.block.x, d.blockY = p.block.y, d.blockZ = p.block.z;
    d.regsPerThread = p.regsPerThread;
    d.sharedStatic = p.sharedStatic;
    d.sharedDynamic = p.sharedDynamic;
    d.localBytes = p.localBytes;
    d.constBase = p.constBase;
    d.constSize = p.constSize;
    d.paramSize = uint32_t(p.params.size());
    d.paramAddr = kParamOffset;
    d.rtbuf = p.rtbuf;
    d.profileAddr = p.profileCounters;
    d.localBase = p.localBase;
    d.gridId = ++gridIds_;
    std::memcpy(window_ + kLaunchOffset, &d, sizeof d);
    if (!p.params.empty())
      std::memcpy(window_ + kParamOffset, p.params.data(), p.params.size());

    dev::Completion c = execute(dev::Op::Launch, 0, kLaunchOffset, 0, 0);
    out.cycles = c.cycles;
    out.warpInsts = c.warpInsts;
    out.threadInsts = c.threadInsts;
    if (ok(c))
      return out;
    if (c.status != uint32_t(dev::Status::Fault) &&
        c.status != uint32_t(dev::Status::InvalidLaunch)) {
      out.fault = invalid(transport_->lost() ? lostMessage()
                                             : "the device rejected the launch command (status " +
                                                   std::to_string(c.status) + ")");
      return out;
    }
    DeviceFault f;
    f.kind = c.status == uint32_t(dev::Status::InvalidLaunch)    ? FaultKind::InvalidLaunch
             : c.faultKind <= uint32_t(FaultKind::InvalidLaunch) ? FaultKind(c.faultKind)
                                                                 : FaultKind::Trap;
    f.block = {c.faultBlockX, c.faultBlockY, c.faultBlockZ};
    f.thread = {c.faultThreadX, c.faultThreadY, c.faultThreadZ};
    f.pc = c.faultPc;
    f.address = c.faultAddress;
    f.code = c.faultCode;
    f.fields = c;
    out.fault = f;
    return out;
  }

  bool lost() const override { return transport_->lost(); }

  void synchronize() override {
    std::lock_guard lock(mutex_);
    execute(dev::Op::Fence, 0, 0, 0, 0);
  }

  uint64_t cycles() const override {
    // An event timestamp: TIMESTAMP runs after every earlier command, as cudaEventRecord does.
    std::lock_guard lock(mutex_);
    auto *self = const_cast<ProtocolDevice *>(this);
    uint64_t value = 0;
    if (ok(self->execute(dev::Op::Timestamp, 0, kTimestampOffset, 0, 0)))
      std::memcpy(&value, window_ + kTimestampOffset, sizeof value);
    return value;
  }

  void *hostWindow(uint64_t address, uint64_t bytes) override {
    uint8_t *mapped = transport_->mappedMemory();
    if (!mapped || !inMemory(address, bytes))
      return nullptr;
    return mapped + (address - info_.memBase);
  }

  void reset() override {
    std::lock_guard lock(mutex_);
    allocator_.reset();
    transport_->writeReg(uint32_t(dev::Reg::Control), dev::kControlReset | dev::kControlScrub);
    startQueue();
  }

private:
  static bool ok(const dev::Completion &c) { return c.status == uint32_t(dev::Status::Ok); }

  static DeviceFault invalid(std::string why) {
    DeviceFault f;
    f.kind = FaultKind::InvalidLaunch;
    f.hostReason = std::move(why);
    return f;
  }

  void startQueue() {
    transport_->writeReg(uint32_t(dev::Reg::Control), dev::kControlReset);
    transport_->writeReg(uint32_t(dev::Reg::QueueBaseLo), uint32_t(kRingOffset));
    transport_->writeReg(uint32_t(dev::Reg::QueueBaseHi), uint32_t(kRingOffset >> 32));
    transport_->writeReg(uint32_t(dev::Reg::QueueSize), kRingEntries);
    transport_->writeReg(uint32_t(dev::Reg::WatchdogMinsts), watchdogMinsts());
    tail_ = 0;
    seq_ = 0;
  }

  /// The launch limit in million warp instructions: WARPFORGE_WATCHDOG_MINSTS (0: no limit), else
  /// kDefaultWatchdogMinsts. A launch past it ends with cudaErrorLaunchTimeout (docs/runtime.md).
  static uint32_t watchdogMinsts() {
    const char *text = std::getenv("WARPFORGE_WATCHDOG_MINSTS");
    if (!text || !*text)
      return kDefaultWatchdogMinsts;
    char *end = nullptr;
    errno = 0;
    unsigned long long value = std::strtoull(text, &end, 10);
    if (*end || errno || text[0] == '-' || value > UINT32_MAX) {
      std::fprintf(stderr,
                   "warpforge: WARPFORGE_WATCHDOG_MINSTS='%s' is not a count of million warp "
                   "instructions (0 to %u); using %u\n",
                   text, UINT32_MAX, kDefaultWatchdogMinsts);
      return kDefaultWatchdogMinsts;
    }
    return uint32_t(value);
  }

  bool inMemory(uint64_t address, uint64_t bytes) const {
    uint64_t base = info_.memBase, size = info_.memSize;
    return address >= base && address - base <= size && bytes <= size - (address - base);
  }

  std::string lostMessage() const {
    return "lost the device (" + transport_->describe() + "): " + transport_->lostReason();
  }

  uint64_t completedSeq() {
    uint32_t lo = transport_->readReg(uint32_t(dev::Reg::CompletedSeqLo));
    uint32_t hi = transport_->readReg(uint32_t(dev::Reg::CompletedSeqHi));
    return uint64_t(hi) << 32 | lo;
  }

  /// Submits one command and waits for it; returns its completion record (status BadCommand when
  /// the device is gone).
  dev::Completion execute(dev::Op op, uint8_t flags, uint64_t arg0, uint64_t arg1, uint64_t arg2) {
    dev::Completion done{};
    done.status = uint32_t(dev::Status::BadCommand);
    if (transport_->lost())
      return done;
    uint32_t index = tail_ % kRingEntries;
    uint64_t record = kCompletionOffset + uint64_t(index) * sizeof(dev::Completion);
    dev::Command cmd{};
    cmd.opcode = uint8_t(op);
    cmd.flags = flags;
    cmd.seq = ++seq_;
    cmd.arg0 = arg0;
    cmd.arg1 = arg1;
    cmd.arg2 = arg2;
    cmd.completion = record;
    std::memcpy(window_ + kRingOffset + uint64_t(index) * sizeof cmd, &cmd, sizeof cmd);
    std::memset(window_ + record, 0, sizeof(dev::Completion));
    transport_->writeReg(uint32_t(dev::Reg::QueueTail), ++tail_);
    if (!wait(cmd.seq))
      return done;
    std::memcpy(&done, window_ + record, sizeof done);
    if (done.seq != cmd.seq) // the device moved COMPLETED_SEQ without writing our record
      done.status = uint32_t(dev::Status::BadCommand);
    return done;
  }

  bool wait(uint64_t seq) {
    auto start = std::chrono::steady_clock::now();
    for (unsigned spins = 0;; ++spins) {
      if (completedSeq() >= seq)
        return true;
      if (transport_->lost())
        return false;
      transport_->service();
      if (spins > 64) {
        bool slow = std::chrono::steady_clock::now() - start > std::chrono::milliseconds(10);
        std::this_thread::sleep_for(std::chrono::microseconds(slow ? 200 : 10));
      }
    }
  }

  std::unique_ptr<Transport> transport_;
  mutable std::recursive_mutex mutex_;
  uint8_t *window_;
  uint64_t staging_;
  Allocator allocator_;
  DeviceInfo info_;
  uint32_t tail_ = 0;
  uint64_t seq_ = 0;
  uint64_t gridIds_ = 0;
};

} // namespace

/// The minimum DMA window a transport must offer: the control structures plus one page of staging.
uint64_t minimumDmaWindow() { return kStagingOffset + 4096; }

std::unique_ptr<Device> openProtocolDevice(std::unique_ptr<Transport> transport,
                                           std::string &error) {
  auto reg = [&](dev::Reg r) { return transport->readReg(uint32_t(r)); };
  if (reg(dev::Reg::Magic) != dev::kMagic) {
    error = "no Warpforge device at " + transport->describe() + " (bad magic" +
            (transport->lost() ? ": " + transport->lostReason() : std::string()) + ")";
    return nullptr;
  }
  if (reg(dev::Reg::Version) != dev::kVersion) {
    error = "the device at " + transport->describe() + " speaks protocol version " +
            std::to_string(reg(dev::Reg::Version)) + "; this runtime speaks " +
            std::to_string(dev::kVersion);
    return nullptr;
  }
  uint32_t configIndex = reg(dev::Reg::Config);
  if (configIndex >= isa::kConfigs.size()) {
    error = "the device reports an unknown configuration index " + std::to_string(configIndex);
    return nullptr;
  }
  if (transport->dmaWindowSize() < minimumDmaWindow() || !transport->dmaWindow()) {
    error = "the transport's DMA window is too small";
    return nullptr;
  }
  uint64_t base = uint64_t(reg(dev::Reg::GlobalBaseHi)) << 32 | reg(dev::Reg::GlobalBaseLo);
  uint64_t size = uint64_t(reg(dev::Reg::GlobalSizeHi)) << 32 | reg(dev::Reg::GlobalSizeLo);
  const isa::Config &config = isa::kConfigs[configIndex];
  return std::make_unique<ProtocolDevice>(std::move(transport), config, base, size);
}

} // namespace wf::rt

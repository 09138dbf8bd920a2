//===- command_processor.cpp - The device protocol on the emulator ---------===//
//
// Commands run strictly in order: the emulator has one engine, so FENCE and TIMESTAMP need no
// waiting beyond running their predecessors first. A command that names a completion record gets it
// written before COMPLETED_SEQ moves, so a host that sees the sequence number also sees the record.
// The ring, completion records, launch descriptors and parameter buffers are in host memory, reached
// only through the host-DMA port by offset; device memory is touched only by COPY, FILL and the
// kernels.
//
//===----------------------------------------------------------------------===//

#include "warpforge/func/command_processor.h"
#include "warpforge/isa/isa.gen.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace wf::func {

namespace dev = isa::dev;

static_assert(uint32_t(FaultKind::InvalidLaunch) == uint32_t(dev::Fault::InvalidLaunch) &&
                  uint32_t(FaultKind::OutOfBounds) == uint32_t(dev::Fault::OutOfBounds) &&
                  uint32_t(FaultKind::Watchdog) == uint32_t(dev::Fault::Watchdog),
              "func::FaultKind follows the protocol's fault codes (isa/device.toml)");

namespace {
// The reset value of WATCHDOG_MINSTS: 2^32 warp instructions, in millions.
constexpr uint32_t kDefaultWatchdogMinsts = 4295;

uint32_t configIndex(const isa::Config &config) {
  for (size_t i = 0; i < isa::kConfigs.size(); ++i)
    if (isa::kConfigs[i].name == config.name)
      return uint32_t(i);
  return ~0u;
}
} // namespace

CommandProcessor::CommandProcessor(Device &device, const wf_host_dma_port &port)
    : device_(device), port_(port), watchdogMinsts_(kDefaultWatchdogMinsts) {}

CommandProcessor::CommandProcessor(Device &device)
    : device_(device), watchdogMinsts_(kDefaultWatchdogMinsts) {}

void CommandProcessor::attachHostDma(const wf_host_dma_port &port) {
  std::lock_guard lock(mutex_);
  port_ = port;
}

bool CommandProcessor::idle() {
  std::lock_guard lock(mutex_);
  return head_ == tail_;
}

static int bufferRead(void *context, uint64_t offset, void *dst, uint64_t bytes) {
  auto *w = static_cast<DmaWindow *>(context);
  if (offset > w->size || bytes > w->size - offset)
    return 1;
  std::memcpy(dst, w->data + offset, bytes);
  return 0;
}

static int bufferWrite(void *context, uint64_t offset, const void *src, uint64_t bytes) {
  auto *w = static_cast<DmaWindow *>(context);
  if (offset > w->size || bytes > w->size - offset)
    return 1;
  std::memcpy(w->data + offset, src, bytes);
  return 0;
}

CommandProcessor::CommandProcessor(Device &device, DmaWindow window)
    : device_(device), buffer_(window), port_{&buffer_, window.size, bufferRead, bufferWrite},
      watchdogMinsts_(kDefaultWatchdogMinsts) {}

void CommandProcessor::reset() {
  queueBase_ = 0;
  queueSize_ = 0;
  head_ = tail_ = 0;
  completedSeq_ = 0;
  irqStatus_ = 0;
  faulted_ = false;
  watchdogMinsts_ = kDefaultWatchdogMinsts;
}

uint32_t CommandProcessor::readReg(uint32_t offset) {
  std::lock_guard lock(mutex_);
  const Memory &mem = device_.memory();
  switch (dev::Reg(offset)) {
  case dev::Reg::Magic:
    return dev::kMagic;
  case dev::Reg::Version:
    return dev::kVersion;
  case dev::Reg::Config:
    return configIndex(device_.config());
  case dev::Reg::GlobalBaseLo:
    return uint32_t(mem.base());
  case dev::Reg::GlobalBaseHi:
    return uint32_t(mem.base() >> 32);
  case dev::Reg::GlobalSizeLo:
    return uint32_t(mem.size());
  case dev::Reg::GlobalSizeHi:
    return uint32_t(mem.size() >> 32);
  case dev::Reg::DmaWindowSize:
    return uint32_t(std::min<uint64_t>(port_.size, 0xffffffffu));
  case dev::Reg::Status:
    return (head_ == tail_ ? dev::kStatusIdle : 0) | (faulted_ ? dev::kStatusFaulted : 0);
  case dev::Reg::Control:
    return 0;
  case dev::Reg::QueueBaseLo:
    return uint32_t(queueBase_);
  case dev::Reg::QueueBaseHi:
    return uint32_t(queueBase_ >> 32);
  case dev::Reg::QueueSize:
    return queueSize_;
  case dev::Reg::QueueHead:
    return head_;
  case dev::Reg::QueueTail:
    return tail_;
  case dev::Reg::CompletedSeqLo:
    latchedSeqHi_ = uint32_t(completedSeq_ >> 32);
    return uint32_t(completedSeq_);
  case dev::Reg::CompletedSeqHi:
    return latchedSeqHi_;
  case dev::Reg::CyclesLo:
    latchedCyclesHi_ = uint32_t(device_.cycles() >> 32);
    return uint32_t(device_.cycles());
  case dev::Reg::CyclesHi:
    return latchedCyclesHi_;
  case dev::Reg::IrqStatus:
    return irqStatus_;
  case dev::Reg::IrqEnable:
    return irqEnable_;
  case dev::Reg::WatchdogMinsts:
    return watchdogMinsts_;
  case dev::Reg::ClockMhz:
    return device_.config().clockMhz;
  }
  return 0;
}

void CommandProcessor::writeReg(uint32_t offset, uint32_t value) {
  std::lock_guard lock(mutex_);
  switch (dev::Reg(offset)) {
  case dev::Reg::Control:
    if (value & dev::kControlReset)
      reset();
    if (value & dev::kControlScrub)
      device_.memory().scrub();
    return;
  case dev::Reg::QueueBaseLo:
    queueBase_ = (queueBase_ & ~0xffffffffull) | value;
    return;
  case dev::Reg::QueueBaseHi:
    queueBase_ = (queueBase_ & 0xffffffffull) | (uint64_t(value) << 32);
    return;
  case dev::Reg::QueueSize:
    // Anything but a power of two in range leaves the queue unusable (size 0) rather than
    // guessing; the doorbell then completes nothing, which the host sees as a timeout.
    queueSize_ = (value && !(value & (value - 1)) && value <= dev::kQueueEntriesMax) ? value : 0;
    head_ = tail_ = 0;
    return;
  case dev::Reg::QueueTail:
    tail_ = value;
    drain();
    return;
  case dev::Reg::IrqStatus:
    irqStatus_ &= ~value;
    return;
  case dev::Reg::IrqEnable:
    irqEnable_ = value;
    return;
  case dev::Reg::WatchdogMinsts:
    watchdogMinsts_ = value;
    return;
  default:
    return; // read-only or unknown: ignored, as a bus would
  }
}

bool CommandProcessor::irqPending() const { return (irqStatus_ & irqEnable_) != 0; }

bool CommandProcessor::hostRange(uint64_t offset, uint64_t bytes) const {
  return port_.read && port_.write && offset <= port_.size && bytes <= port_.size - offset;
}

bool CommandProcessor::hostRead(uint64_t offset, void *dst, uint64_t bytes) const {
  return hostRange(offset, bytes) && port_.read(port_.context, offset, dst, bytes) == 0;
}

bool CommandProcessor::hostWrite(uint64_t offset, const void *src, uint64_t bytes) const {
  return hostRange(offset, bytes) && port_.write(port_.context, offset, src, bytes) == 0;
}

void CommandProcessor::drain() {
  if (!queueSize_ || queueBase_ % 64)
    return;
  while (head_ != tail_) {
    dev::Command cmd;
    uint64_t slot = queueBase_ + uint64_t(head_ % queueSize_) * sizeof cmd;
    dev::Completion done{};
    dev::Status status;
    if (!hostRead(slot, &cmd, sizeof cmd)) {
      // The ring itself is outside the window: nothing more can be read.
      head_ = tail_;
      faulted_ = true;
      return;
    }
    uint64_t start = device_.cycles();
    status = run(cmd, done);
    done.seq = cmd.seq;
    done.status = uint32_t(status);
    if (!done.cycles)
      done.cycles = device_.cycles() - start;
    hostWrite(cmd.completion, &done, sizeof done); // none (all ones) or a bad offset: no record
    ++head_;
    ++commandsRun_;
    completedSeq_ = cmd.seq;
    if (cmd.flags & dev::kFlagIrq)
      irqStatus_ |= dev::kIrqStatusCompletion;
    if (status == dev::Status::Fault) {
      faulted_ = true;
      irqStatus_ |= dev::kIrqStatusFault;
    }
  }
}

dev::Status CommandProcessor::run(const dev::Command &cmd, dev::Completion &done) {
  Memory &mem = device_.memory();
  switch (dev::Op(cmd.opcode)) {
  case dev::Op::Nop:
  case dev::Op::Fence:
    return dev::Status::Ok;
  case dev::Op::Launch:
    return launch(cmd.arg0, done);
  case dev::Op::Copy: {
    uint64_t bytes = cmd.arg2;
    bool srcHost = cmd.flags & dev::kFlagSrcHost, dstHost = cmd.flags & dev::kFlagDstHost;
    if ((srcHost ? !hostRange(cmd.arg0, bytes) : !mem.contains(cmd.arg0, bytes)) ||
        (dstHost ? !hostRange(cmd.arg1, bytes) : !mem.contains(cmd.arg1, bytes)))
      return dev::Status::BadCommand;
    bool ok = true;
    if (srcHost && dstHost) {
      std::vector<uint8_t> bounce(bytes);
      ok = hostRead(cmd.arg0, bounce.data(), bytes) && hostWrite(cmd.arg1, bounce.data(), bytes);
    } else if (srcHost) {
      ok = hostRead(cmd.arg0, mem.host(cmd.arg1), bytes);
    } else if (dstHost) {
      ok = hostWrite(cmd.arg1, mem.host(cmd.arg0), bytes);
    } else {
      std::memmove(mem.host(cmd.arg1), mem.host(cmd.arg0), bytes);
    }
    return ok ? dev::Status::Ok : dev::Status::BadCommand;
  }
  case dev::Op::Fill:
    return mem.fill(cmd.arg0, uint8_t(cmd.arg1), cmd.arg2) ? dev::Status::Ok
                                                           : dev::Status::BadCommand;
  case dev::Op::Timestamp: {
    uint64_t now = device_.cycles();
    return hostWrite(cmd.arg0, &now, sizeof now) ? dev::Status::Ok : dev::Status::BadCommand;
  }
  }
  return dev::Status::BadCommand;
}

dev::Status CommandProcessor::launch(uint64_t descAddr, dev::Completion &done) {
  dev::LaunchDesc d;
  if (!hostRead(descAddr, &d, sizeof d))
    return dev::Status::BadCommand;
  // The kernel's name is the host's (its module table): faults are reported as fields only.
  // local_base is ignored: the emulator keeps each thread's local memory with its registers.
  LaunchDesc desc;
  if (!hostRange(d.paramAddr, d.paramSize))
    return dev::Status::BadCommand;
  desc.params.resize(d.paramSize);
  if (!hostRead(d.paramAddr, desc.params.data(), d.paramSize))
    return dev::Status::BadCommand;
  desc.codeBase = d.codeBase;
  desc.codeSize = d.codeSize;
  desc.entryPc = d.entryPc;
  desc.grid = {d.gridX, d.gridY, d.gridZ};
  desc.block = {d.blockX, d.blockY, d.blockZ};
  desc.regsPerThread = d.regsPerThread;
  desc.sharedStatic = d.sharedStatic;
  desc.sharedDynamic = d.sharedDynamic;
  desc.localBytes = d.localBytes;
  desc.constBase = d.constBase;
  desc.constSize = d.constSize;
  desc.rtbuf = d.rtbuf;
  desc.gridId = d.gridId ? d.gridId : ++gridCount_;

  RunOptions options;
  if (watchdogMinsts_)
    options.watchdogWarpInsts = uint64_t(watchdogMinsts_) * 1000000;
  else
    options.watchdogWarpInsts = ~0ull;
  options.trace = trace_;
  if (d.profileAddr) {
    // One counter per instruction of the code segment, in device memory, 8-byte aligned.
    uint64_t bytes = uint64_t(d.codeSize / isa::kInstBytes) * sizeof(uint64_t);
    if (d.profileAddr % alignof(uint64_t) || !device_.memory().contains(d.profileAddr, bytes))
      return dev::Status::BadCommand;
    options.pcProfile = reinterpret_cast<uint64_t *>(device_.memory().host(d.profileAddr));
  }
  LaunchResult r = launcher_ ? launcher_(desc, options) : device_.launch(desc, options);
  const Fault *f = r.fault ? &*r.fault : nullptr;
  if (f)
    done = f->record(); // the fault as fields; seq and status are the caller's
  done.cycles = r.cycles;
  done.warpInsts = r.warpInsts;
  done.threadInsts = r.threadInsts;
  if (!f)
    return dev::Status::Ok;
  return f->kind == FaultKind::InvalidLaunch ? dev::Status::InvalidLaunch : dev::Status::Fault;
}

} // namespace wf::func

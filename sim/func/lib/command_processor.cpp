//===- command_processor.cpp - The device protocol on the emulator ---------===//
//
// Threaded, one thread per hardware queue runs that queue's commands in order, so the queues are
// concurrent as a GPU's compute and copy engines are: a COPY of one queue runs while a LAUNCH of
// another is in flight. WAIT holds its queue until another queue's COMPLETED_SEQ reaches a sequence
// number. The emulator's cores are one resource, so launches of different queues run one after
// another. Synchronous, the one queue runs in the thread that rings its doorbell (step()).
// A command that names a completion record gets it written before COMPLETED_SEQ moves, so a host
// that sees the sequence number also sees the record. Rings, completion records, launch
// descriptors and parameter buffers are in host memory, reached only through the host-DMA port by
// offset; device memory is touched only by COPY, FILL and the kernels.
//
//===----------------------------------------------------------------------===//

#include "warpforge/func/command_processor.h"
#include "warpforge/isa/isa.gen.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
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

int bufferRead(void *context, uint64_t offset, void *dst, uint64_t bytes) {
  auto *w = static_cast<DmaWindow *>(context);
  if (offset > w->size || bytes > w->size - offset)
    return 1;
  std::memcpy(dst, w->data + offset, bytes);
  return 0;
}

int bufferWrite(void *context, uint64_t offset, const void *src, uint64_t bytes) {
  auto *w = static_cast<DmaWindow *>(context);
  if (offset > w->size || bytes > w->size - offset)
    return 1;
  std::memcpy(w->data + offset, src, bytes);
  return 0;
}
} // namespace

CommandProcessor::CommandProcessor(Device &device, const wf_host_dma_port &port,
                                   CommandProcessorParams params)
    : device_(device), port_(port), params_(params), watchdogMinsts_(kDefaultWatchdogMinsts) {
  startThreads();
}

CommandProcessor::CommandProcessor(Device &device, CommandProcessorParams params)
    : device_(device), params_(params), watchdogMinsts_(kDefaultWatchdogMinsts) {
  startThreads();
}

CommandProcessor::CommandProcessor(Device &device, DmaWindow window, CommandProcessorParams params)
    : device_(device), buffer_(window), port_{&buffer_, window.size, bufferRead, bufferWrite},
      params_(params), watchdogMinsts_(kDefaultWatchdogMinsts) {
  startThreads();
}

void CommandProcessor::startThreads() {
  // A configuration error of the plugin that builds it, not of any host: stop at once.
  if (params_.queues < 1 || params_.queues > dev::kQueues ||
      (!params_.threaded && params_.queues != 1))
    throw std::invalid_argument("CommandProcessor: " + std::to_string(params_.queues) +
                                (params_.threaded ? " threaded" : " synchronous") + " queues");
  cycles_ = device_.cycles();
  if (params_.threaded)
    for (unsigned q = 0; q < params_.queues; ++q)
      queues_[q].thread = std::thread([this, q] { work(q); });
}

void CommandProcessor::setLauncher(Launcher launcher) {
  if (launcher && params_.threaded) {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    cv_.notify_all();
    for (Queue &queue : queues_)
      if (queue.thread.joinable())
        queue.thread.join();
    std::lock_guard lock(mutex_);
    stop_ = false;
    for (unsigned q = 1; q < params_.queues; ++q) // their registers become holes
      queues_[q] = Queue{};
    params_ = CommandProcessorParams{};
  }
  std::lock_guard lock(mutex_);
  launcher_ = std::move(launcher);
}

bool CommandProcessor::queueRegAt(uint32_t offset, unsigned &queue, dev::QueueReg &reg) const {
  for (unsigned q = 0; q < params_.queues; ++q) {
    uint32_t base = dev::queueReg(q, dev::QueueReg::BaseLo);
    if (offset >= base && offset < base + dev::kQueueStride) {
      queue = q;
      reg = dev::QueueReg(offset - base);
      return true;
    }
  }
  return false;
}

CommandProcessor::~CommandProcessor() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  cv_.notify_all();
  for (Queue &queue : queues_)
    if (queue.thread.joinable())
      queue.thread.join();
}

void CommandProcessor::attachHostDma(const wf_host_dma_port &port) {
  std::lock_guard lock(mutex_);
  port_ = port;
}

bool CommandProcessor::idle() {
  std::lock_guard lock(mutex_);
  return std::all_of(queues_.begin(), queues_.end(),
                     [](const Queue &q) { return q.head == q.tail && !q.busy; });
}

void CommandProcessor::reset() {
  // Called with the lock held and no command running: every queue stops and empties.
  ++epoch_;
  for (Queue &q : queues_) {
    q.base = 0;
    q.size = 0;
    q.head = q.tail = 0;
    q.completedSeq = 0;
  }
  irqStatus_ = 0;
  faulted_ = false;
  watchdogMinsts_ = kDefaultWatchdogMinsts;
  cv_.notify_all(); // WAITs of the old epoch end
}

uint32_t CommandProcessor::readQueueReg(Queue &q, dev::QueueReg reg) {
  switch (reg) {
  case dev::QueueReg::BaseLo:
    return uint32_t(q.base);
  case dev::QueueReg::BaseHi:
    return uint32_t(q.base >> 32);
  case dev::QueueReg::Size:
    return q.size;
  case dev::QueueReg::Head:
    return q.head;
  case dev::QueueReg::Tail:
    return q.tail;
  case dev::QueueReg::CompletedSeqLo:
    q.latchedSeqHi = uint32_t(q.completedSeq >> 32);
    return uint32_t(q.completedSeq);
  case dev::QueueReg::CompletedSeqHi:
    return q.latchedSeqHi;
  }
  return 0; // a hole in the block
}

uint32_t CommandProcessor::readReg(uint32_t offset) {
  std::lock_guard lock(mutex_);
  unsigned q;
  dev::QueueReg qreg;
  if (queueRegAt(offset, q, qreg))
    return readQueueReg(queues_[q], qreg);
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
  case dev::Reg::Status: {
    bool idle = std::all_of(queues_.begin(), queues_.end(),
                            [](const Queue &q) { return q.head == q.tail && !q.busy; });
    return (idle ? dev::kStatusIdle : 0) | (faulted_ ? dev::kStatusFaulted : 0);
  }
  case dev::Reg::Control:
    return 0;
  case dev::Reg::QueueCount:
    return params_.queues;
  case dev::Reg::CyclesLo: {
    uint64_t now = cycles_.load();
    latchedCyclesHi_ = uint32_t(now >> 32);
    return uint32_t(now);
  }
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
  default:
    return 0; // the queue registers are decoded above
  }
}

void CommandProcessor::writeQueueReg(unsigned index, dev::QueueReg reg, uint32_t value,
                                     std::unique_lock<std::mutex> &lock) {
  Queue &q = queues_[index];
  switch (reg) {
  case dev::QueueReg::BaseLo:
    q.base = (q.base & ~0xffffffffull) | value;
    return;
  case dev::QueueReg::BaseHi:
    q.base = (q.base & 0xffffffffull) | (uint64_t(value) << 32);
    return;
  case dev::QueueReg::Size:
    // Anything but a power of two in range leaves the queue unusable (size 0) rather than
    // guessing; the doorbell then completes nothing, which the host sees as a timeout.
    q.size = (value && !(value & (value - 1)) && value <= dev::kQueueEntriesMax) ? value : 0;
    q.head = q.tail = 0;
    return;
  case dev::QueueReg::Tail:
    q.tail = value;
    cv_.notify_all();
    // One engine: the doorbell runs the queue, unless another caller's doorbell is running it
    // already (it goes on to the new tail).
    if (!params_.threaded && !q.busy)
      while (ready(q))
        step(index, lock);
    return;
  default:
    return; // read-only
  }
}

void CommandProcessor::writeReg(uint32_t offset, uint32_t value) {
  std::unique_lock lock(mutex_);
  unsigned q;
  dev::QueueReg qreg;
  if (queueRegAt(offset, q, qreg)) {
    writeQueueReg(q, qreg, value, lock);
    return;
  }
  switch (dev::Reg(offset)) {
  case dev::Reg::Control:
    if (value & (dev::kControlReset | dev::kControlScrub)) {
      // Nothing may run while the device resets or its memory is scrubbed: queued commands are
      // dropped at once, a running one ends first (the watchdog bounds a launch).
      for (Queue &q : queues_)
        q.head = q.tail;
      cv_.wait(lock, [&] {
        return std::none_of(queues_.begin(), queues_.end(), [](const Queue &q) { return q.busy; });
      });
    }
    if (value & dev::kControlReset)
      reset();
    if (value & dev::kControlScrub)
      device_.memory().scrub();
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

bool CommandProcessor::irqPending() {
  std::lock_guard lock(mutex_);
  return (irqStatus_ & irqEnable_) != 0;
}

bool CommandProcessor::hostRange(uint64_t offset, uint64_t bytes) const {
  return port_.read && port_.write && offset <= port_.size && bytes <= port_.size - offset;
}

bool CommandProcessor::hostRead(uint64_t offset, void *dst, uint64_t bytes) const {
  return hostRange(offset, bytes) && port_.read(port_.context, offset, dst, bytes) == 0;
}

bool CommandProcessor::hostWrite(uint64_t offset, const void *src, uint64_t bytes) const {
  return hostRange(offset, bytes) && port_.write(port_.context, offset, src, bytes) == 0;
}

void CommandProcessor::work(unsigned index) {
  Queue &q = queues_[index];
  std::unique_lock lock(mutex_);
  for (;;) {
    cv_.wait(lock, [&] { return stop_ || ready(q); });
    if (stop_)
      return;
    step(index, lock);
  }
}

// Runs queue `index`'s next command. Called with the lock held; it is released while the command
// runs (so registers stay readable and other queues go on) and held again on return.
void CommandProcessor::step(unsigned index, std::unique_lock<std::mutex> &lock) {
  Queue &q = queues_[index];
  dev::Command cmd;
  uint64_t slot = q.base + uint64_t(q.head % q.size) * sizeof cmd;
  if (!hostRead(slot, &cmd, sizeof cmd)) {
    // The ring itself is outside the window: nothing more can be read.
    q.head = q.tail;
    faulted_ = true;
    cv_.notify_all();
    return;
  }
  const uint64_t epoch = epoch_;
  dev::Completion done{};
  dev::Status status;
  if (dev::Op(cmd.opcode) == dev::Op::Wait) {
    // Cross-queue order, without occupying anything: the queue sleeps until the other one gets
    // there (or a reset ends the wait). A wait on its own queue for what is not done yet could
    // never end (its commands run in order), nor one on a queue the device lacks.
    if (cmd.arg0 >= params_.queues ||
        (cmd.arg0 == index && q.completedSeq < cmd.arg1)) {
      status = dev::Status::BadCommand;
    } else {
      const Queue &other = queues_[cmd.arg0];
      cv_.wait(lock, [&] { return stop_ || epoch_ != epoch || other.completedSeq >= cmd.arg1; });
      if (stop_ || epoch_ != epoch)
        return;
      status = dev::Status::Ok;
    }
  } else {
    q.busy = true;
    lock.unlock();
    uint64_t start = cycles_.load();
    status = run(cmd, done);
    if (!done.cycles)
      done.cycles = cycles_.load() - start;
    lock.lock();
    q.busy = false;
    if (epoch_ != epoch) { // reset while it ran: it reports nothing
      cv_.notify_all();
      return;
    }
  }
  done.seq = cmd.seq;
  done.status = uint32_t(status);
  hostWrite(cmd.completion, &done, sizeof done); // none (all ones) or a bad offset: no record
  ++q.head;
  ++commandsRun_;
  q.completedSeq = cmd.seq;
  if (cmd.flags & dev::kFlagIrq)
    irqStatus_ |= dev::kIrqStatusCompletion;
  if (status == dev::Status::Fault) {
    faulted_ = true;
    irqStatus_ |= dev::kIrqStatusFault;
  }
  cv_.notify_all();
}

dev::Status CommandProcessor::run(const dev::Command &cmd, dev::Completion &done) {
  Memory &mem = device_.memory();
  switch (dev::Op(cmd.opcode)) {
  case dev::Op::Nop:
  case dev::Op::Fence:
    return dev::Status::Ok; // this queue's earlier commands are done: they ran first
  case dev::Op::Wait:
    return dev::Status::BadCommand; // handled by the queue (work)
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
    uint64_t now = cycles_.load();
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

  RunOptions options;
  uint32_t minsts = watchdogMinsts_;
  options.watchdogWarpInsts = minsts ? uint64_t(minsts) * 1000000 : ~0ull;
  options.trace = trace_;
  if (d.profileAddr) {
    // One counter per instruction of the code segment, in device memory, 8-byte aligned.
    uint64_t bytes = uint64_t(d.codeSize / isa::kInstBytes) * sizeof(uint64_t);
    if (d.profileAddr % alignof(uint64_t) || !device_.memory().contains(d.profileAddr, bytes))
      return dev::Status::BadCommand;
    options.pcProfile = reinterpret_cast<uint64_t *>(device_.memory().host(d.profileAddr));
  }
  LaunchResult r;
  {
    std::lock_guard cores(launchMutex_);
    desc.gridId = d.gridId ? d.gridId : ++gridCount_;
    r = launcher_ ? launcher_(desc, options) : device_.launch(desc, options);
    cycles_ = device_.cycles();
  }
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

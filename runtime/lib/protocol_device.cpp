//===- protocol_device.cpp - The Device interface over the device protocol -===//
//
// The one implementation of rt::Device: every transport hands it control registers and a DMA
// window, and it turns copies, fills, launches and timestamps into commands on the device's
// hardware queues (docs/device-protocol.md). Engine::Compute, CopyIn and CopyOut are queues 0, 1
// and 2 (fewer when the device has fewer: the last one takes the rest). A command waits for
// tickets of other queues with a WAIT command on its own queue, so stream order and events across
// engines hold on the device and the host never blocks to submit. Device memory is never touched
// directly: data moves through pieces of the DMA window, as it would over PCIe. Allocation is the
// host's business, as in any GPU driver.
//
// DMA window layout: one command ring a queue, one completion record a ring slot, then an arena
// from which each command in flight takes what it needs (staging for a copy piece, a launch
// descriptor and its parameters, a timestamp word) until its completion is processed.
//
// Completions are processed in order per queue by whichever thread polls first: the device's
// completion thread, or a thread that waits for a ticket. Completion callbacks run there, with no
// lock of this class held, so they may submit.
//
//===----------------------------------------------------------------------===//

#include "warpforge/isa/device.gen.h"
#include "warpforge/runtime/allocator.h"
#include "warpforge/runtime/device.h"
#include "warpforge/runtime/transport.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

namespace wf::rt {
namespace {

namespace dev = isa::dev;

constexpr uint32_t kRingEntries = 256;
constexpr unsigned kMaxQueues = kEngines;
// The watchdog when WARPFORGE_WATCHDOG_MINSTS is unset: 10^9 warp instructions per launch, about
// 800 times the largest launch of the application corpus (mandelbrot_fixed, 1.2 M; bench/README.md)
// and under a minute of the emulator's time, so a runaway kernel ends instead of hanging the
// program. It counts instructions, not time: the cycle model and the RTL take longer to reach it.
constexpr uint32_t kDefaultWatchdogMinsts = 1000;
constexpr uint64_t kParamBytes = 32 * 1024; // CUDA's largest parameter buffer (32764) fits
constexpr uint64_t kRingOffset = 0;
constexpr uint64_t kRecordOffset = kRingOffset + kMaxQueues * kRingEntries * sizeof(dev::Command);
constexpr uint64_t kArenaOffset =
    (kRecordOffset + kMaxQueues * kRingEntries * sizeof(dev::Completion) + 4095) & ~uint64_t(4095);
constexpr uint64_t kArenaMinimum = 64 * 1024;
constexpr uint64_t kPieceMax = 1 << 20; // a copy moves through the window in pieces of this size

uint64_t ringSlot(unsigned q, uint32_t index) {
  return kRingOffset + (uint64_t(q) * kRingEntries + index) * sizeof(dev::Command);
}
uint64_t recordSlot(unsigned q, uint32_t index) {
  return kRecordOffset + (uint64_t(q) * kRingEntries + index) * sizeof(dev::Completion);
}

class ProtocolDevice final : public Device {
public:
  ProtocolDevice(std::unique_ptr<Transport> transport, const isa::Config &config, uint64_t memBase,
                 uint64_t memSize, unsigned queues)
      : transport_(std::move(transport)),
        allocator_(memBase, memSize),
        arena_(kArenaOffset, transport_->dmaWindowSize() - kArenaOffset),
        pieceMax_(std::min<uint64_t>(kPieceMax,
                                     (transport_->dmaWindowSize() - kArenaOffset) / 4 & ~uint64_t(255))),
        queueCount_(queues) {
    info_.kind = transport_->deviceKind();
    info_.transport = transport_->describe();
    info_.name = "Warpforge " + std::string(config.name) + " (" + info_.kind + ")";
    info_.config = config;
    info_.memBase = memBase;
    info_.memSize = memSize;
    info_.queues = queueCount_;
    startQueues();
    completer_ = std::thread([this] { completions(); });
  }

  ~ProtocolDevice() override {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    cv_.notify_all();
    completer_.join();
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

  // --- Synchronous calls: a command on the compute queue (after every launch, as before the
  // device had queues), waited for.

  bool read(uint64_t address, void *dst, uint64_t bytes) override {
    return runSync([&](CompletionFn done) {
      return submitRead(Engine::Compute, address, dst, bytes, {}, std::move(done));
    }).ok;
  }
  bool write(uint64_t address, const void *src, uint64_t bytes) override {
    return runSync([&](CompletionFn done) {
      return submitWrite(Engine::Compute, address, src, bytes, {}, std::move(done));
    }).ok;
  }
  bool fill(uint64_t address, uint8_t value, uint64_t bytes) override {
    return runSync([&](CompletionFn done) {
      return submitFill(Engine::Compute, address, value, bytes, {}, std::move(done));
    }).ok;
  }
  bool dmaWrite(uint64_t address, const void *src, uint64_t bytes) override {
    synchronize(); // the transfer bypasses the queues: nothing queued may still touch the range
    std::lock_guard lock(transportMutex_);
    return transport_->dmaWrite(address, src, bytes);
  }
  bool dmaRead(uint64_t address, void *dst, uint64_t bytes) override {
    synchronize();
    std::lock_guard lock(transportMutex_);
    return transport_->dmaRead(address, dst, bytes);
  }
  LaunchOutcome launch(const LaunchParams &p) override {
    return runSync([&](CompletionFn done) { return submitLaunch(p, {}, std::move(done)); })
        .launch;
  }
  void synchronize() override {
    for (unsigned q = 0; q < queueCount_; ++q) {
      Ticket last;
      {
        std::lock_guard lock(mutex_);
        last = Ticket{Engine(q), queues_[q].seq};
      }
      wait(last);
    }
  }
  uint64_t cycles() const override {
    // An event timestamp: TIMESTAMP runs after every earlier command of the compute queue.
    auto *self = const_cast<ProtocolDevice *>(this);
    return self
        ->runSync([&](CompletionFn done) {
          return self->submitTimestamp(Engine::Compute, {}, std::move(done));
        })
        .timestamp;
  }

  void *hostWindow(uint64_t address, uint64_t bytes) override {
    uint8_t *mapped = transport_->mappedMemory();
    if (!mapped || !inMemory(address, bytes))
      return nullptr;
    return mapped + (address - info_.memBase);
  }

  void reset() override {
    synchronize(); // nothing of the old context may still run
    std::lock_guard lock(mutex_);
    allocator_.reset();
    regWrite(uint32_t(dev::Reg::Control), dev::kControlReset | dev::kControlScrub);
    startQueues();
  }

  bool lost() const override {
    std::lock_guard lock(transportMutex_);
    return transport_->lost();
  }

  // --- Asynchronous commands.

  Ticket submitWrite(Engine engine, uint64_t address, const void *src, uint64_t bytes,
                     std::span<const Ticket> after, CompletionFn done) override {
    if (!inMemory(address, bytes))
      return failNow("device write failed", std::move(done));
    auto result = std::make_shared<CommandResult>();
    auto *in = static_cast<const uint8_t *>(src);
    std::unique_lock lock(mutex_);
    unsigned q = queueOf(engine);
    pushWaits(lock, q, after, result);
    uint64_t seq = 0;
    for (uint64_t moved = 0; moved < bytes || seq == 0;) {
      uint64_t piece = std::min(bytes - moved, pieceMax_);
      bool last = moved + piece == bytes;
      uint64_t staging = reserve(lock, piece);
      windowWrite(staging, in + moved, piece);
      Pending p{result, staging, last ? std::move(done) : CompletionFn{}, {}, "device write failed"};
      seq = push(lock, q, command(dev::Op::Copy, dev::kFlagSrcHost, staging, address + moved, piece),
                 std::move(p));
      moved += piece;
    }
    return Ticket{Engine(q), seq};
  }

  Ticket submitRead(Engine engine, uint64_t address, void *dst, uint64_t bytes,
                    std::span<const Ticket> after, CompletionFn done) override {
    if (!inMemory(address, bytes))
      return failNow("device read failed", std::move(done));
    auto result = std::make_shared<CommandResult>();
    auto *out = static_cast<uint8_t *>(dst);
    std::unique_lock lock(mutex_);
    unsigned q = queueOf(engine);
    pushWaits(lock, q, after, result);
    uint64_t seq = 0;
    for (uint64_t moved = 0; moved < bytes || seq == 0;) {
      uint64_t piece = std::min(bytes - moved, pieceMax_);
      bool last = moved + piece == bytes;
      uint64_t staging = reserve(lock, piece);
      Pending p{result, staging, last ? std::move(done) : CompletionFn{},
                [this, to = out + moved, staging, piece](const dev::Completion &, CommandResult &) {
                  windowRead(staging, to, piece);
                },
                "device read failed"};
      seq = push(lock, q, command(dev::Op::Copy, dev::kFlagDstHost, address + moved, staging, piece),
                 std::move(p));
      moved += piece;
    }
    return Ticket{Engine(q), seq};
  }

  Ticket submitCopy(Engine engine, uint64_t dstAddress, uint64_t srcAddress, uint64_t bytes,
                    std::span<const Ticket> after, CompletionFn done) override {
    if (!inMemory(dstAddress, bytes) || !inMemory(srcAddress, bytes))
      return failNow("device copy failed", std::move(done));
    auto result = std::make_shared<CommandResult>();
    std::unique_lock lock(mutex_);
    unsigned q = queueOf(engine);
    pushWaits(lock, q, after, result);
    uint64_t seq = push(lock, q, command(dev::Op::Copy, 0, srcAddress, dstAddress, bytes),
                        Pending{result, 0, std::move(done), {}, "device copy failed"});
    return Ticket{Engine(q), seq};
  }

  Ticket submitFill(Engine engine, uint64_t address, uint8_t value, uint64_t bytes,
                    std::span<const Ticket> after, CompletionFn done) override {
    if (!inMemory(address, bytes))
      return failNow("device fill failed", std::move(done));
    auto result = std::make_shared<CommandResult>();
    std::unique_lock lock(mutex_);
    unsigned q = queueOf(engine);
    pushWaits(lock, q, after, result);
    uint64_t seq = push(lock, q, command(dev::Op::Fill, 0, address, value, bytes),
                        Pending{result, 0, std::move(done), {}, "device fill failed"});
    return Ticket{Engine(q), seq};
  }

  Ticket submitLaunch(const LaunchParams &p, std::span<const Ticket> after,
                      CompletionFn done) override {
    if (p.params.size() > kParamBytes) {
      CommandResult r;
      r.ok = false;
      r.launch.fault = invalid("the parameter buffer is larger than the protocol's " +
                               std::to_string(kParamBytes) + " bytes");
      if (done)
        done(r);
      return Ticket{};
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
    d.rtbuf = p.rtbuf;
    d.profileAddr = p.profileCounters;
    d.localBase = p.localBase;
    auto result = std::make_shared<CommandResult>();
    std::unique_lock lock(mutex_);
    d.gridId = ++gridIds_;
    unsigned q = queueOf(Engine::Compute);
    pushWaits(lock, q, after, result);
    uint64_t slot = reserve(lock, sizeof d + p.params.size());
    d.paramAddr = slot + sizeof d;
    windowWrite(slot, &d, sizeof d);
    if (!p.params.empty())
      windowWrite(d.paramAddr, p.params.data(), p.params.size());
    Pending pending{result, slot, std::move(done), {}, "the launch did not run"};
    pending.launch = true;
    uint64_t seq = push(lock, q, command(dev::Op::Launch, 0, slot, 0, 0), std::move(pending));
    return Ticket{Engine(q), seq};
  }

  Ticket submitTimestamp(Engine engine, std::span<const Ticket> after,
                         CompletionFn done) override {
    auto result = std::make_shared<CommandResult>();
    std::unique_lock lock(mutex_);
    unsigned q = queueOf(engine);
    pushWaits(lock, q, after, result);
    uint64_t word = reserve(lock, sizeof(uint64_t));
    Pending p{result, word, std::move(done),
              [this, word](const dev::Completion &, CommandResult &r) {
                windowRead(word, &r.timestamp, sizeof r.timestamp);
              },
              "device timestamp failed"};
    uint64_t seq = push(lock, q, command(dev::Op::Timestamp, 0, word, 0, 0), std::move(p));
    return Ticket{Engine(q), seq};
  }

  bool complete(const Ticket &ticket) override {
    if (!ticket.valid())
      return true;
    poll(); // a query moves completions along, as cudaStreamQuery would find them
    std::lock_guard lock(mutex_);
    return queues_[queueIndex(ticket)].done >= ticket.seq;
  }

  void wait(const Ticket &ticket) override {
    if (!ticket.valid())
      return;
    unsigned q = queueIndex(ticket);
    waitUntil([&] { return queues_[q].done >= ticket.seq; });
  }

private:
  /// One command in flight, from submission until its completion is processed.
  struct Pending {
    std::shared_ptr<CommandResult> result; ///< shared by the pieces (and WAITs) of one submit
    uint64_t arena = 0;                    ///< window space to give back; 0: none
    CompletionFn done;                     ///< the submit's callback, on its last command
    /// Runs when the command succeeded: copies a read piece out, reads a timestamp.
    std::function<void(const dev::Completion &, CommandResult &)> finish;
    const char *failure = "";              ///< the error when the device rejects it
    bool launch = false;
    uint64_t seq = 0, record = 0;
  };
  struct QueueState {
    uint32_t tail = 0;  ///< ring index of the next command (restarts with the queue)
    uint64_t seq = 0;   ///< last sequence number submitted (never restarts: tickets outlive resets)
    uint64_t done = 0;  ///< last sequence number whose completion was processed
    std::deque<Pending> pending;
  };

  static DeviceFault invalid(std::string why) {
    DeviceFault f;
    f.kind = FaultKind::InvalidLaunch;
    f.hostReason = std::move(why);
    return f;
  }

  static dev::Command command(dev::Op op, uint8_t flags, uint64_t a0, uint64_t a1, uint64_t a2) {
    dev::Command c{};
    c.opcode = uint8_t(op);
    c.flags = flags;
    c.arg0 = a0, c.arg1 = a1, c.arg2 = a2;
    return c;
  }

  unsigned queueOf(Engine e) const { return std::min(unsigned(e), queueCount_ - 1); }
  unsigned queueIndex(const Ticket &t) const { return std::min(unsigned(t.engine), queueCount_ - 1); }

  Ticket failNow(const char *why, CompletionFn done) {
    CommandResult r;
    r.ok = false;
    r.error = why;
    if (done)
      done(r);
    return Ticket{};
  }

  CommandResult runSync(const std::function<Ticket(CompletionFn)> &submit) {
    auto result = std::make_shared<CommandResult>();
    Ticket t = submit([result](const CommandResult &r) { *result = r; });
    wait(t);
    return *result;
  }

  // --- Window and register access (the transport is not assumed to be thread-safe).

  // The window is the transport's pinned buffers, reached by offset (no host pointer: over PCIe
  // they are not memory the runtime may assume it can address). Every offset here lies inside
  // the window (the layout is checked against its size at open), so these cannot fail.
  void windowWrite(uint64_t offset, const void *src, uint64_t bytes) {
    transport_->windowWrite(offset, src, bytes);
  }
  void windowRead(uint64_t offset, void *dst, uint64_t bytes) const {
    transport_->windowRead(offset, dst, bytes);
  }
  void regWrite(uint32_t offset, uint32_t value) {
    std::lock_guard lock(transportMutex_);
    transport_->writeReg(offset, value);
  }
  uint64_t completedSeq(unsigned q) {
    std::lock_guard lock(transportMutex_);
    uint32_t lo = transport_->readReg(dev::queueReg(q, dev::QueueReg::CompletedSeqLo));
    uint32_t hi = transport_->readReg(dev::queueReg(q, dev::QueueReg::CompletedSeqHi));
    return uint64_t(hi) << 32 | lo;
  }

  void startQueues() {
    regWrite(uint32_t(dev::Reg::Control), dev::kControlReset);
    for (unsigned q = 0; q < queueCount_; ++q) {
      regWrite(dev::queueReg(q, dev::QueueReg::BaseLo), uint32_t(ringSlot(q, 0)));
      regWrite(dev::queueReg(q, dev::QueueReg::BaseHi), uint32_t(ringSlot(q, 0) >> 32));
      regWrite(dev::queueReg(q, dev::QueueReg::Size), kRingEntries);
      queues_[q].tail = 0;
    }
    regWrite(uint32_t(dev::Reg::WatchdogMinsts), watchdogMinsts());
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

  // --- Submission (mutex_ held).

  /// Waits, with `lock` released, until `ready` (checked with it held) while completions are
  /// processed; a lost device fails everything in flight, so every wait ends.
  template <typename Ready> void waitLocked(std::unique_lock<std::mutex> &lock, Ready ready) {
    for (unsigned idle = 0; !ready();) {
      lock.unlock();
      if (poll())
        idle = 0;
      else
        backoff(idle);
      lock.lock();
    }
  }

  uint64_t reserve(std::unique_lock<std::mutex> &lock, uint64_t bytes) {
    uint64_t at = 0;
    waitLocked(lock, [&] { return (at = arena_.allocate(std::max<uint64_t>(bytes, 1), 64)) != 0; });
    return at;
  }

  /// Queue `q` waits for the other queues' tickets in `after` (its own are in order already).
  void pushWaits(std::unique_lock<std::mutex> &lock, unsigned q, std::span<const Ticket> after,
                 const std::shared_ptr<CommandResult> &result) {
    std::array<uint64_t, kMaxQueues> need{};
    for (const Ticket &t : after) {
      unsigned other = queueIndex(t);
      if (t.valid() && other != q && t.seq > queues_[other].done)
        need[other] = std::max(need[other], t.seq);
    }
    for (unsigned other = 0; other < queueCount_; ++other)
      if (need[other])
        push(lock, q, command(dev::Op::Wait, 0, other, need[other], 0),
             Pending{result, 0, {}, {}, "a cross-queue wait failed"});
  }

  /// Writes one command into queue `q`'s ring and rings the doorbell; returns its sequence number.
  uint64_t push(std::unique_lock<std::mutex> &lock, unsigned q, dev::Command cmd, Pending p) {
    QueueState &qs = queues_[q];
    waitLocked(lock, [&] { return qs.pending.size() < kRingEntries; });
    uint32_t index = qs.tail % kRingEntries;
    cmd.seq = ++qs.seq;
    cmd.completion = recordSlot(q, index);
    windowWrite(ringSlot(q, index), &cmd, sizeof cmd);
    p.seq = cmd.seq;
    p.record = cmd.completion;
    qs.pending.push_back(std::move(p));
    regWrite(dev::queueReg(q, dev::QueueReg::Tail), ++qs.tail);
    cv_.notify_all(); // the completion thread has something to watch
    return cmd.seq;
  }

  // --- Completion.

  /// Processes every completion the device has reported; true when it processed any. One thread
  /// at a time; the others return false at once.
  bool poll() {
    std::unique_lock processing(processMutex_, std::try_to_lock);
    if (!processing)
      return false;
    if (lost()) {
      // A lost device's registers read as all ones: no COMPLETED_SEQ of it means anything.
      failAll();
      return true;
    }
    bool progress = false;
    for (unsigned q = 0; q < queueCount_; ++q) {
      {
        std::lock_guard lock(mutex_);
        if (queues_[q].pending.empty())
          continue;
      }
      uint64_t completed = completedSeq(q);
      for (;;) {
        Pending *front;
        {
          std::lock_guard lock(mutex_);
          QueueState &qs = queues_[q];
          if (qs.pending.empty() || qs.pending.front().seq > completed)
            break;
          front = &qs.pending.front(); // stable: only this thread pops, deque push_back keeps it
        }
        dev::Completion record;
        windowRead(front->record, &record, sizeof record);
        if (record.seq != front->seq) // the device moved COMPLETED_SEQ without writing our record
          record.status = uint32_t(dev::Status::BadCommand);
        Pending p;
        {
          std::lock_guard lock(mutex_);
          p = std::move(queues_[q].pending.front());
          queues_[q].pending.pop_front();
        }
        finish(q, p, record, nullptr);
        progress = true;
      }
    }
    if (!progress) {
      std::lock_guard lock(transportMutex_);
      transport_->service(); // a clocked model runs some cycles
    }
    return progress;
  }

  /// A processed completion: the result, the callback, then the ticket counts as complete.
  void finish(unsigned q, Pending &p, const dev::Completion &record, const std::string *lostWhy) {
    CommandResult &r = *p.result;
    if (p.launch) {
      r.launch.cycles = record.cycles;
      r.launch.warpInsts = record.warpInsts;
      r.launch.threadInsts = record.threadInsts;
    }
    if (record.status == uint32_t(dev::Status::Ok)) {
      if (p.finish)
        p.finish(record, r);
    } else {
      r.ok = false;
      if (p.launch && !lostWhy &&
          (record.status == uint32_t(dev::Status::Fault) ||
           record.status == uint32_t(dev::Status::InvalidLaunch))) {
        DeviceFault f;
        f.kind = record.status == uint32_t(dev::Status::InvalidLaunch) ? FaultKind::InvalidLaunch
                 : record.faultKind <= uint32_t(FaultKind::InvalidLaunch)
                     ? FaultKind(record.faultKind)
                     : FaultKind::Trap;
        f.block = {record.faultBlockX, record.faultBlockY, record.faultBlockZ};
        f.thread = {record.faultThreadX, record.faultThreadY, record.faultThreadZ};
        f.pc = record.faultPc;
        f.address = record.faultAddress;
        f.code = record.faultCode;
        f.fields = record;
        r.launch.fault = f;
      } else if (p.launch && !r.launch.fault) {
        r.launch.fault = invalid(lostWhy ? *lostWhy
                                         : "the device rejected the launch command (status " +
                                               std::to_string(record.status) + ")");
      }
      if (r.error.empty())
        r.error = lostWhy ? *lostWhy : p.failure;
    }
    if (p.done)
      p.done(r);
    {
      std::lock_guard lock(mutex_);
      if (p.arena)
        arena_.free(p.arena);
      queues_[q].done = std::max(queues_[q].done, p.seq);
    }
    cv_.notify_all();
  }

  /// The device is gone: every command in flight fails (a launch with the loss as its fault).
  void failAll() {
    std::string why = lostMessage();
    for (unsigned q = 0; q < queueCount_; ++q)
      for (;;) {
        Pending p;
        {
          std::lock_guard lock(mutex_);
          if (queues_[q].pending.empty())
            break;
          p = std::move(queues_[q].pending.front());
          queues_[q].pending.pop_front();
        }
        dev::Completion record{};
        record.seq = p.seq;
        record.status = uint32_t(dev::Status::BadCommand);
        finish(q, p, record, &why);
      }
  }

  template <typename Ready> void waitUntil(Ready ready) {
    for (unsigned idle = 0;;) {
      {
        std::lock_guard lock(mutex_);
        if (ready())
          return;
      }
      if (poll())
        idle = 0;
      else
        backoff(idle);
    }
  }

  /// A pause while the device works: a few yields, then sleeps of 20 us, then of 200 us (a
  /// completion processed by another thread ends it early).
  void backoff(unsigned &idle) {
    if (idle < 64) {
      ++idle;
      std::this_thread::yield();
      return;
    }
    if (idle < 1000)
      ++idle;
    std::unique_lock lock(mutex_);
    cv_.wait_for(lock, std::chrono::microseconds(idle < 1000 ? 20 : 200));
  }

  /// The completion thread: processes completions while anything is in flight, so callbacks
  /// run and tickets complete without anyone waiting for them.
  void completions() {
    for (;;) {
      {
        std::unique_lock lock(mutex_);
        cv_.wait(lock, [&] {
          return stop_ || std::any_of(queues_.begin(), queues_.begin() + queueCount_,
                                      [](const QueueState &q) { return !q.pending.empty(); });
        });
        if (stop_)
          return;
      }
      if (!poll()) {
        std::unique_lock lock(mutex_);
        cv_.wait_for(lock, std::chrono::microseconds(100));
      }
    }
  }

  std::unique_ptr<Transport> transport_;
  mutable std::mutex transportMutex_; ///< register access (leaf)
  mutable std::mutex mutex_;          ///< queue state, allocators
  std::condition_variable cv_;        ///< submissions, completions, stop
  std::mutex processMutex_;           ///< held by the one thread processing completions
  Allocator allocator_; ///< device memory
  Allocator arena_;     ///< window space of commands in flight
  uint64_t pieceMax_;
  unsigned queueCount_;
  DeviceInfo info_;
  std::array<QueueState, kMaxQueues> queues_;
  uint64_t gridIds_ = 0;
  bool stop_ = false;
  std::thread completer_;
};

} // namespace

/// The minimum DMA window a transport must offer: the rings, the records and a small arena.
uint64_t minimumDmaWindow() { return kArenaOffset + kArenaMinimum; }

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
  uint32_t queues = std::max(reg(dev::Reg::QueueCount), 1u); // 0: a device from before queues
  if (queues > dev::kQueues) {
    error = "the device reports " + std::to_string(queues) + " hardware queues (1 to " +
            std::to_string(dev::kQueues) + " expected)";
    return nullptr;
  }
  if (transport->dmaWindowSize() < minimumDmaWindow()) {
    error = "the transport's DMA window is too small";
    return nullptr;
  }
  uint64_t base = uint64_t(reg(dev::Reg::GlobalBaseHi)) << 32 | reg(dev::Reg::GlobalBaseLo);
  uint64_t size = uint64_t(reg(dev::Reg::GlobalSizeHi)) << 32 | reg(dev::Reg::GlobalSizeLo);
  const isa::Config &config = isa::kConfigs[configIndex];
  return std::make_unique<ProtocolDevice>(std::move(transport), config, base, size,
                                          std::min<unsigned>(queues, kMaxQueues));
}

} // namespace wf::rt

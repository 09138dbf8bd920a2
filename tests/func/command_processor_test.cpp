//===- command_processor_test.cpp - The device protocol on the emulator --------===//
//
// Drives the command processor the way a transport does: control registers, a ring and completion
// records in the DMA window, device memory reached only by commands.

#include "harness.h"
#include "warpforge/func/command_processor.h"
#include "warpforge/isa/fault_report.h"

#include <chrono>
#include <thread>

namespace wf::test {
namespace {

namespace dev = isa::dev;

constexpr uint64_t kRing = 0;         // 16 commands a queue, 0x400 bytes apart
constexpr uint64_t kRecords = 0x1000; // one Completion per ring slot of each queue
constexpr uint64_t kDesc = 0x4000;
constexpr uint64_t kParams = 0x4100;
constexpr uint64_t kStaging = 0x8000;
constexpr uint32_t kEntries = 16;

/// A host's view: registers, the window, and submit helpers for each hardware queue.
struct Host {
  Harness h{"tiny"};
  std::vector<uint8_t> window = std::vector<uint8_t>(1 << 20);
  func::CommandProcessor cp;
  uint32_t tail[dev::kQueues] = {};
  uint64_t seq[dev::kQueues] = {};

  explicit Host(func::CommandProcessorParams params = func::CommandProcessorParams::concurrent())
      : cp(h.dev, func::DmaWindow{window.data(), window.size()}, params) {
    for (unsigned q = 0; q < params.queues; ++q)
      startQueue(q);
  }

  void startQueue(unsigned q) {
    cp.writeReg(dev::queueReg(q, dev::QueueReg::BaseLo), uint32_t(kRing + q * 0x400));
    cp.writeReg(dev::queueReg(q, dev::QueueReg::BaseHi), 0);
    cp.writeReg(dev::queueReg(q, dev::QueueReg::Size), kEntries);
    tail[q] = 0;
  }
  uint32_t reg(dev::Reg r) { return cp.readReg(uint32_t(r)); }
  uint32_t qreg(unsigned q, dev::QueueReg r) { return cp.readReg(dev::queueReg(q, r)); }
  uint64_t completed(unsigned q = 0) {
    uint32_t lo = qreg(q, dev::QueueReg::CompletedSeqLo);
    return uint64_t(qreg(q, dev::QueueReg::CompletedSeqHi)) << 32 | lo;
  }
  uint64_t record(unsigned q, uint32_t index) {
    return kRecords + (q * kEntries + index) * sizeof(dev::Completion);
  }

  /// Writes one command into queue `q`; rings the doorbell when `ring` (so several can be
  /// batched). Returns its sequence number.
  uint64_t post(unsigned q, dev::Op op, uint8_t flags, uint64_t a0, uint64_t a1, uint64_t a2,
                bool ring = true) {
    uint32_t index = tail[q] % kEntries;
    dev::Command cmd{};
    cmd.opcode = uint8_t(op);
    cmd.flags = flags;
    cmd.seq = ++seq[q];
    cmd.arg0 = a0, cmd.arg1 = a1, cmd.arg2 = a2;
    cmd.completion = record(q, index);
    std::memcpy(window.data() + kRing + q * 0x400 + index * sizeof cmd, &cmd, sizeof cmd);
    ++tail[q];
    if (ring)
      cp.writeReg(dev::queueReg(q, dev::QueueReg::Tail), tail[q]);
    return cmd.seq;
  }

  /// Waits (at most 60 s) until queue `q` has completed `s`; false if it never does.
  bool waitFor(unsigned q, uint64_t s) {
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (completed(q) < s)
      if (std::chrono::steady_clock::now() > until)
        return false;
      else
        std::this_thread::yield();
    return true;
  }

  /// The completion record of queue `q`'s command `s`.
  dev::Completion result(unsigned q, uint64_t s) {
    dev::Completion done{};
    std::memcpy(&done, window.data() + record(q, uint32_t((s - 1) % kEntries)), sizeof done);
    return done;
  }

  /// One command on queue 0, waited for; returns its completion record.
  dev::Completion submit(dev::Op op, uint8_t flags, uint64_t a0, uint64_t a1, uint64_t a2,
                         bool ring = true) {
    uint64_t s = post(0, op, flags, a0, a1, a2, ring);
    if (!ring)
      return {};
    EXPECT_TRUE(waitFor(0, s)) << "command " << s << " never completed";
    return result(0, s);
  }
};

TEST(CommandProcessor, IdentifiesItself) {
  Host host;
  EXPECT_EQ(host.reg(dev::Reg::Magic), dev::kMagic);
  EXPECT_EQ(host.reg(dev::Reg::Version), dev::kVersion);
  EXPECT_EQ(isa::kConfigs[host.reg(dev::Reg::Config)].name, "tiny");
  uint64_t base =
      uint64_t(host.reg(dev::Reg::GlobalBaseHi)) << 32 | host.reg(dev::Reg::GlobalBaseLo);
  uint64_t size =
      uint64_t(host.reg(dev::Reg::GlobalSizeHi)) << 32 | host.reg(dev::Reg::GlobalSizeLo);
  EXPECT_EQ(base, isa::kGlobalBase);
  EXPECT_EQ(size, uint64_t(config("tiny").globalMemMib) << 20);
  EXPECT_EQ(host.reg(dev::Reg::DmaWindowSize), 1u << 20);
  EXPECT_EQ(host.reg(dev::Reg::ClockMhz), config("tiny").clockMhz);
  EXPECT_TRUE(host.reg(dev::Reg::Status) & dev::kStatusIdle);
  EXPECT_EQ(host.reg(dev::Reg::QueueCount), dev::kQueues);
}

TEST(CommandProcessor, CopiesAndFillsThroughTheWindow) {
  Host host;
  uint64_t a = isa::kGlobalBase + 0x10000, b = a + 0x1000;
  for (int i = 0; i < 256; ++i)
    host.window[kStaging + i] = uint8_t(i * 7);
  auto c = host.submit(dev::Op::Copy, dev::kFlagSrcHost, kStaging, a, 256);
  EXPECT_EQ(c.status, uint32_t(dev::Status::Ok));
  EXPECT_EQ(c.seq, 1u);
  EXPECT_EQ(host.h.read<uint8_t>(a + 255), uint8_t(255 * 7));
  // Device to device, overlapping forwards, then a fill, then back to the window.
  EXPECT_EQ(host.submit(dev::Op::Copy, 0, a, a + 16, 128).status, uint32_t(dev::Status::Ok));
  EXPECT_EQ(host.submit(dev::Op::Fill, 0, b, 0xa5, 64).status, uint32_t(dev::Status::Ok));
  EXPECT_EQ(host.submit(dev::Op::Copy, dev::kFlagDstHost, a, kStaging + 4096, 256).status,
            uint32_t(dev::Status::Ok));
  EXPECT_EQ(host.window[kStaging + 4096 + 16], 0);                 // a[16] = old a[0] = 0
  EXPECT_EQ(host.window[kStaging + 4096 + 17], 7);                 // a[17] = old a[1]
  EXPECT_EQ(host.window[kStaging + 4096 + 200], uint8_t(200 * 7)); // past the moved part
  EXPECT_EQ(host.h.read<uint8_t>(b + 63), 0xa5);
  EXPECT_EQ(host.h.read<uint8_t>(b + 64), 0);
  EXPECT_EQ(host.completed(), 4u);
}

TEST(CommandProcessor, RejectsOutOfRangeArguments) {
  Host host;
  uint64_t end = isa::kGlobalBase + (uint64_t(config("tiny").globalMemMib) << 20);
  EXPECT_EQ(host.submit(dev::Op::Fill, 0, end - 8, 0, 16).status,
            uint32_t(dev::Status::BadCommand));
  EXPECT_EQ(
      host.submit(dev::Op::Copy, dev::kFlagSrcHost, (1 << 20) - 8, isa::kGlobalBase, 16).status,
      uint32_t(dev::Status::BadCommand));
  EXPECT_EQ(host.submit(dev::Op::Copy, 0, 0x1000, isa::kGlobalBase, 16).status,
            uint32_t(dev::Status::BadCommand)); // address 0x1000 is not device memory
  EXPECT_EQ(host.submit(dev::Op(0x7f), 0, 0, 0, 0).status, uint32_t(dev::Status::BadCommand));
  // The queue keeps going after bad commands.
  EXPECT_EQ(host.submit(dev::Op::Nop, 0, 0, 0, 0).status, uint32_t(dev::Status::Ok));
  EXPECT_EQ(host.completed(), 5u);
}

TEST(CommandProcessor, BatchedCommandsRunInOrderAndTheRingWraps) {
  Host host;
  uint64_t a = isa::kGlobalBase + 0x20000;
  // 40 fills of growing length over the same bytes, 8 at a time: only order makes the last win.
  for (int batch = 0; batch < 5; ++batch) {
    for (int k = 0; k < 8; ++k) {
      int n = batch * 8 + k;
      host.submit(dev::Op::Fill, 0, a, uint8_t(n + 1), 64 - n, /*ring=*/k == 7);
    }
  }
  EXPECT_EQ(host.completed(), 40u);
  EXPECT_EQ(host.qreg(0, dev::QueueReg::Head), 40u);
  EXPECT_EQ(host.h.read<uint8_t>(a), 40);     // the last fill covers byte 0
  EXPECT_EQ(host.h.read<uint8_t>(a + 63), 1); // only the first reached byte 63
  EXPECT_EQ(host.h.read<uint8_t>(a + 30),
            34); // fill n covers [0, 64-n): last with 64-n > 30 is n=33
}

TEST(CommandProcessor, LaunchesAndReportsCountsAndTimestamps) {
  Host host;
  uint64_t out = host.h.alloc(64 * 4);
  Code c;
  emitGlobalIndex(c, 0);
  emitElementAddress(c, 2, 0, 0, 4, 1);
  c << Inst(Opcode::IADD_I).rd(5).ra(0).imm(100) << stg(2, 5) << exitInst();
  func::LaunchDesc d = host.h.describe(c, {2, 1, 1}, {32, 1, 1}, Params().u64(out));
  dev::LaunchDesc desc{};
  desc.codeBase = d.codeBase;
  desc.codeSize = d.codeSize;
  desc.gridX = 2, desc.gridY = 1, desc.gridZ = 1;
  desc.blockX = 32, desc.blockY = 1, desc.blockZ = 1;
  desc.regsPerThread = 32;
  desc.paramSize = uint32_t(d.params.size());
  desc.paramAddr = kParams;
  std::memcpy(host.window.data() + kParams, d.params.data(), d.params.size());
  std::memcpy(host.window.data() + kDesc, &desc, sizeof desc);

  host.submit(dev::Op::Timestamp, 0, kStaging, 0, 0);
  auto done = host.submit(dev::Op::Launch, 0, kDesc, 0, 0);
  host.submit(dev::Op::Timestamp, 0, kStaging + 8, 0, 0);
  ASSERT_EQ(done.status, uint32_t(dev::Status::Ok));
  EXPECT_GT(done.cycles, 0u);
  EXPECT_EQ(done.threadInsts, done.warpInsts * 32);
  auto v = host.h.download<uint32_t>(out, 64);
  for (uint32_t i = 0; i < 64; ++i)
    EXPECT_EQ(v[i], i + 100);
  uint64_t t0, t1;
  std::memcpy(&t0, host.window.data() + kStaging, 8);
  std::memcpy(&t1, host.window.data() + kStaging + 8, 8);
  EXPECT_EQ(t1 - t0, done.cycles);
}

TEST(CommandProcessor, FaultsAreReportedAndResetClearsThem) {
  Host host;
  Code c;
  c << Inst(Opcode::TRAP).imm(7) << exitInst();
  func::LaunchDesc d = host.h.describe(c, {1, 1, 1}, {32, 1, 1});
  dev::LaunchDesc desc{};
  desc.codeBase = d.codeBase;
  desc.codeSize = d.codeSize;
  desc.gridX = desc.gridY = desc.gridZ = 1;
  desc.blockX = 32, desc.blockY = desc.blockZ = 1;
  desc.regsPerThread = 8;
  desc.paramAddr = kParams;
  std::memcpy(host.window.data() + kDesc, &desc, sizeof desc);
  host.cp.writeReg(uint32_t(dev::Reg::IrqEnable), dev::kIrqStatusFault);
  auto done = host.submit(dev::Op::Launch, 0, kDesc, 0, 0);
  EXPECT_EQ(done.status, uint32_t(dev::Status::Fault));
  EXPECT_EQ(done.faultKind, uint32_t(dev::Fault::Trap));
  EXPECT_EQ(done.faultCode, 7u);
  // The device reports fields only; the host's words come from them.
  EXPECT_EQ(done.faultDetail, uint16_t(dev::FaultDetail::TrapCode));
  EXPECT_EQ(dev::describeFault("k", done),
            "kernel 'k' block (0,0,0) thread (0,0,0) pc 0x0: trap: trap (code 7)");
  EXPECT_TRUE(host.reg(dev::Reg::Status) & dev::kStatusFaulted);
  EXPECT_TRUE(host.cp.irqPending());
  host.cp.writeReg(uint32_t(dev::Reg::IrqStatus), dev::kIrqStatusFault);
  EXPECT_FALSE(host.cp.irqPending());

  // An impossible launch (too many threads) is INVALID_LAUNCH, not a fault of a thread.
  desc.blockX = 4096;
  std::memcpy(host.window.data() + kDesc, &desc, sizeof desc);
  EXPECT_EQ(host.submit(dev::Op::Launch, 0, kDesc, 0, 0).status,
            uint32_t(dev::Status::InvalidLaunch));

  // RESET clears the fault and the counters; SCRUB zeroes memory.
  uint64_t a = host.h.alloc(64);
  EXPECT_TRUE(host.h.dev.memory().fill(a, 0x5a, 64));
  host.cp.writeReg(uint32_t(dev::Reg::Control), dev::kControlReset | dev::kControlScrub);
  EXPECT_FALSE(host.reg(dev::Reg::Status) & dev::kStatusFaulted);
  EXPECT_EQ(host.completed(), 0u);
  EXPECT_EQ(host.qreg(0, dev::QueueReg::Size), 0u);
  EXPECT_EQ(host.h.read<uint8_t>(a), 0);
  host.startQueue(0);
  host.seq[0] = 0;
  EXPECT_EQ(host.submit(dev::Op::Nop, 0, 0, 0, 0).status, uint32_t(dev::Status::Ok));
}

TEST(CommandProcessor, WatchdogRegisterBoundsALaunch) {
  Host host;
  Code c;
  c.label("spin");
  c << bra("spin");
  func::LaunchDesc d = host.h.describe(c, {1, 1, 1}, {32, 1, 1});
  dev::LaunchDesc desc{};
  desc.codeBase = d.codeBase;
  desc.codeSize = d.codeSize;
  desc.gridX = desc.gridY = desc.gridZ = 1;
  desc.blockX = 32, desc.blockY = desc.blockZ = 1;
  desc.regsPerThread = 8;
  desc.paramAddr = kParams;
  std::memcpy(host.window.data() + kDesc, &desc, sizeof desc);
  host.cp.writeReg(uint32_t(dev::Reg::WatchdogMinsts), 1);
  auto done = host.submit(dev::Op::Launch, 0, kDesc, 0, 0);
  EXPECT_EQ(done.status, uint32_t(dev::Status::Fault));
  EXPECT_EQ(done.faultKind, uint32_t(dev::Fault::Watchdog));
  EXPECT_LE(done.warpInsts, 1000001u);
}

TEST(CommandProcessor, BadQueueSizeLeavesTheQueueStopped) {
  Host host;
  host.cp.writeReg(dev::queueReg(0, dev::QueueReg::Size), 12); // not a power of two
  EXPECT_EQ(host.qreg(0, dev::QueueReg::Size), 0u);
  host.post(0, dev::Op::Nop, 0, 0, 0, 0);
  EXPECT_EQ(host.completed(), 0u);
  // The other queues are unaffected.
  EXPECT_TRUE(host.waitFor(1, host.post(1, dev::Op::Nop, 0, 0, 0, 0)));
}

// Queues are concurrent engines: a kernel on queue 0 waits for a flag that only a copy on queue 1
// writes, so it completes only if the copy ran while it was in flight (with one engine it would
// spin until the watchdog stops it). Queue 2 meanwhile holds at a WAIT for the kernel, and its
// copy then sees what the kernel wrote.
TEST(CommandProcessor, QueuesRunConcurrentlyAndWaitOrdersThem) {
  Host host;
  uint64_t flag = host.h.alloc(64);
  Code c;
  c << mov32(8, uint32_t(flag)) << mov32(9, uint32_t(flag >> 32));
  c.label("spin");
  c << ldg(10, 8) << isetpI(0, 10, 0, "EQ") << bra("spin").guard(0) << stg(8, 10, 4)
    << exitInst();
  func::LaunchDesc d = host.h.describe(c, {1, 1, 1}, {32, 1, 1});
  dev::LaunchDesc desc{};
  desc.codeBase = d.codeBase;
  desc.codeSize = d.codeSize;
  desc.gridX = desc.gridY = desc.gridZ = 1;
  desc.blockX = 32, desc.blockY = desc.blockZ = 1;
  desc.regsPerThread = 16;
  desc.paramAddr = kParams;
  std::memcpy(host.window.data() + kDesc, &desc, sizeof desc);
  host.cp.writeReg(uint32_t(dev::Reg::WatchdogMinsts), 200); // the failure ends, not hangs

  uint64_t launch = host.post(0, dev::Op::Launch, 0, kDesc, 0, 0);
  host.post(2, dev::Op::Wait, 0, 0, launch, 0, /*ring=*/false);
  uint64_t readBack = host.post(2, dev::Op::Copy, dev::kFlagDstHost, flag + 4, kStaging + 64, 4);
  // The kernel cannot end before the flag is set, so neither can queue 2's WAIT.
  EXPECT_EQ(host.completed(2), 0u);
  EXPECT_EQ(host.completed(0), 0u);

  uint32_t value = 7;
  std::memcpy(host.window.data() + kStaging, &value, 4);
  uint64_t set = host.post(1, dev::Op::Copy, dev::kFlagSrcHost, kStaging, flag, 4);
  ASSERT_TRUE(host.waitFor(1, set));
  EXPECT_EQ(host.result(1, set).status, uint32_t(dev::Status::Ok));
  ASSERT_TRUE(host.waitFor(0, launch));
  dev::Completion k = host.result(0, launch);
  EXPECT_EQ(k.status, uint32_t(dev::Status::Ok))
      << "the kernel did not see the copy's flag: " << dev::describeFault("spin", k);
  ASSERT_TRUE(host.waitFor(2, readBack));
  uint32_t seen = 0;
  std::memcpy(&seen, host.window.data() + kStaging + 64, 4);
  EXPECT_EQ(seen, 7u); // the copy after the WAIT read what the kernel stored

  // A WAIT on a queue the device lacks is a bad command; the queue goes on.
  uint64_t bad = host.post(1, dev::Op::Wait, 0, dev::kQueues, 1, 0);
  ASSERT_TRUE(host.waitFor(1, bad));
  EXPECT_EQ(host.result(1, bad).status, uint32_t(dev::Status::BadCommand));
  EXPECT_TRUE(host.cp.idle());
}
// A synchronous processor (the cycle model's: SystemC runs on its caller's thread) has one queue:
// the doorbell write runs the commands before it returns, the other queues' registers are holes,
// and a WAIT can name only its own queue's completed commands.
TEST(CommandProcessor, SynchronousHasOneQueueDrainedByTheDoorbell) {
  Host host(func::CommandProcessorParams{});
  EXPECT_EQ(host.reg(dev::Reg::QueueCount), 1u);
  uint64_t a = host.h.alloc(64);
  uint64_t fill = host.post(0, dev::Op::Fill, 0, a, 0x5a, 64);
  EXPECT_EQ(host.completed(0), fill) << "the doorbell returned before its command ran";
  EXPECT_EQ(host.h.read<uint8_t>(a + 63), 0x5a);

  host.cp.writeReg(dev::queueReg(1, dev::QueueReg::Size), kEntries);
  EXPECT_EQ(host.cp.readReg(dev::queueReg(1, dev::QueueReg::Size)), 0u);

  uint64_t waitDone = host.post(0, dev::Op::Wait, 0, 0, fill, 0);
  EXPECT_EQ(host.result(0, waitDone).status, uint32_t(dev::Status::Ok));
  uint64_t waitLater = host.post(0, dev::Op::Wait, 0, 0, waitDone + 5, 0);
  EXPECT_EQ(host.result(0, waitLater).status, uint32_t(dev::Status::BadCommand))
      << "a wait for the queue's own later command would never end";
  uint64_t waitOther = host.post(0, dev::Op::Wait, 0, 1, 1, 0);
  EXPECT_EQ(host.result(0, waitOther).status, uint32_t(dev::Status::BadCommand));
  EXPECT_TRUE(host.cp.idle());
}

// A launcher (the cycle model's) runs on the thread that rings: setting one on a threaded processor
// leaves one queue, run by the doorbell write, with every LAUNCH through the launcher.
TEST(CommandProcessor, ALauncherMakesTheProcessorSynchronous) {
  Host host;
  ASSERT_EQ(host.reg(dev::Reg::QueueCount), dev::kQueues);
  std::thread::id ranOn;
  unsigned launches = 0;
  host.cp.setLauncher([&](const func::LaunchDesc &desc, const func::RunOptions &options) {
    ranOn = std::this_thread::get_id();
    ++launches;
    return host.h.dev.launch(desc, options);
  });
  EXPECT_EQ(host.reg(dev::Reg::QueueCount), 1u);
  EXPECT_EQ(host.cp.readReg(dev::queueReg(1, dev::QueueReg::Size)), 0u);

  Code c;
  c << exitInst();
  func::LaunchDesc d = host.h.describe(c, {1, 1, 1}, {32, 1, 1});
  dev::LaunchDesc desc{};
  desc.codeBase = d.codeBase;
  desc.codeSize = d.codeSize;
  desc.gridX = desc.gridY = desc.gridZ = 1;
  desc.blockX = 32, desc.blockY = desc.blockZ = 1;
  desc.regsPerThread = 16;
  desc.paramAddr = kParams;
  std::memcpy(host.window.data() + kDesc, &desc, sizeof desc);
  uint64_t launch = host.post(0, dev::Op::Launch, 0, kDesc, 0, 0);
  EXPECT_EQ(host.completed(0), launch) << "the doorbell returned before the launch ran";
  EXPECT_EQ(host.result(0, launch).status, uint32_t(dev::Status::Ok));
  EXPECT_EQ(launches, 1u);
  EXPECT_EQ(ranOn, std::this_thread::get_id());
}

TEST(CommandProcessor, ASynchronousProcessorWithSeveralQueuesIsRefused) {
  Harness h{"tiny"};
  EXPECT_THROW(func::CommandProcessor(h.dev, func::CommandProcessorParams{2, false}),
               std::invalid_argument);
  EXPECT_THROW(func::CommandProcessor(h.dev, func::CommandProcessorParams{dev::kQueues + 1, true}),
               std::invalid_argument);
}

} // namespace

} // namespace wf::test

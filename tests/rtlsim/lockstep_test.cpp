//===- lockstep_test.cpp - The RTL lockstep shadow (sim/rtl) --------------===//
//
// RtlLockstep follows a device's command stream through the host ring and checks a stream of
// RTL-shaped commit records against a shadow emulator. These tests stand in for the RTL with a
// second emulator (the "reference"), whose records are exactly the bytes the RTL's commit port
// carries; the host side (ring, LaunchDesc, parameters, staging, completion records) is a plain
// buffer behind a host-DMA port, laid out as the runtime lays it out.
//
//===----------------------------------------------------------------------===//

#include "harness.h"
#include "warpforge/func/commit.h"
#include "warpforge/rtl/lockstep.h"

#include <gtest/gtest.h>

#include <cstring>

namespace wf::test {
namespace {

namespace dev = isa::dev;
using rtl::RtlLockstep;

/// Every thread adds 1 to a global counter with ATOM, reads the counter with a plain load and
/// reads CLOCK, and stores all three: the nondeterministic values the shadow must take from the
/// reference.
Code racyKernel() {
  Code c;
  c << ldp64(2, 0) << mov32(6, 1) << Inst(Opcode::ATOM).rd(8).ra(2).rb(6).mod("fn", "ADD")
    << ldg(9, 2) << s2r(10, SReg::CLOCK);
  emitGlobalIndex(c, 12);
  emitElementAddress(c, 16, 8, 12, 12, 15);
  c << stg(16, 8, 0) << stg(16, 9, 4) << stg(16, 10, 8) << exitInst();
  return c;
}

constexpr uint64_t kRing = 0, kRingEntries = 16, kDesc = 0x1000, kParams = 0x1100,
                   kCompletion = 0x2000, kStaging = 0x10000;

/// The host side: a DMA window with the ring, and the commands the runtime would write.
struct Host {
  std::vector<uint8_t> window = std::vector<uint8_t>(1 << 20);
  wf_host_dma_port port{this, 1 << 20, read, write};
  uint32_t tail = 0;
  uint64_t seq = 0;

  static int read(void *ctx, uint64_t off, void *dst, uint64_t n) {
    auto *h = static_cast<Host *>(ctx);
    if (off > h->window.size() || n > h->window.size() - off)
      return 1;
    std::memcpy(dst, h->window.data() + off, n);
    return 0;
  }
  static int write(void *ctx, uint64_t off, const void *src, uint64_t n) {
    auto *h = static_cast<Host *>(ctx);
    if (off > h->window.size() || n > h->window.size() - off)
      return 1;
    std::memcpy(h->window.data() + off, src, n);
    return 0;
  }
  /// Queues a command; returns its sequence number. Its completion record is at kCompletion.
  uint64_t push(dev::Op op, uint8_t flags, uint64_t a0, uint64_t a1, uint64_t a2) {
    dev::Command cmd{};
    cmd.opcode = uint8_t(op);
    cmd.flags = flags;
    cmd.seq = ++seq;
    cmd.arg0 = a0;
    cmd.arg1 = a1;
    cmd.arg2 = a2;
    cmd.completion = kCompletion;
    std::memcpy(window.data() + kRing + (tail % kRingEntries) * sizeof cmd, &cmd, sizeof cmd);
    ++tail;
    return cmd.seq;
  }
  void complete(uint64_t doneSeq, dev::Status status) {
    dev::Completion c{};
    c.seq = doneSeq;
    c.status = uint32_t(status);
    std::memcpy(window.data() + kCompletion, &c, sizeof c);
  }
};

/// The reference device ran the racy kernel; the host has queued the copy of the reference's
/// initial memory and the launch, as a runtime would have before the launch.
struct Scenario {
  Harness ref{"tiny"};
  func::LaunchDesc desc;
  uint64_t counter = 0, out = 0, imageBase = 0, imageBytes = 0;
  func::CommitStream stream;
  Host host;
  uint64_t completed = 0;
  std::vector<std::string> stops;
  std::unique_ptr<RtlLockstep> lockstep;
  uint64_t launchSeq = 0;

  Scenario() {
    counter = ref.alloc(4);
    out = ref.alloc(4 * 64 * 12);
    desc = ref.describe(racyKernel(), {2, 1, 1}, {64, 1, 1}, Params().u64(counter).u64(out), 24);
    desc.gridId = 7;
    imageBase = isa::kGlobalBase;
    imageBytes = ref.alloc(0) - imageBase;
    // The initial image goes to the shadow through a COPY from the staging area.
    EXPECT_TRUE(ref.dev.memory().read(imageBase, host.window.data() + kStaging, imageBytes));

    dev::LaunchDesc d{};
    d.codeBase = desc.codeBase;
    d.codeSize = desc.codeSize;
    d.entryPc = desc.entryPc;
    d.gridX = desc.grid.x, d.gridY = desc.grid.y, d.gridZ = desc.grid.z;
    d.blockX = desc.block.x, d.blockY = desc.block.y, d.blockZ = desc.block.z;
    d.regsPerThread = desc.regsPerThread;
    d.paramSize = uint32_t(desc.params.size());
    d.paramAddr = kParams;
    d.gridId = desc.gridId;
    std::memcpy(host.window.data() + kDesc, &d, sizeof d);
    std::memcpy(host.window.data() + kParams, desc.params.data(), desc.params.size());

    func::RunOptions opts;
    opts.commit = stream.sink();
    auto r = ref.dev.launch(desc, opts);
    EXPECT_FALSE(r.fault.has_value());

    RtlLockstep::Hooks hooks;
    hooks.completedSeq = [this] { return completed; };
    hooks.stop = [this](const std::string &why) { stops.push_back(why); };
    lockstep = std::make_unique<RtlLockstep>(*isa::findConfig("tiny"), hooks);
    lockstep->attachHostDma(host.port);
  }

  /// The host sets up the ring and rings the doorbell for a copy and the launch.
  void ring() {
    lockstep->writeReg(uint32_t(dev::Reg::QueueBaseLo), uint32_t(kRing));
    lockstep->writeReg(uint32_t(dev::Reg::QueueBaseHi), 0);
    lockstep->writeReg(uint32_t(dev::Reg::QueueSize), kRingEntries);
    host.push(dev::Op::Copy, dev::kFlagSrcHost, kStaging, imageBase, imageBytes);
    launchSeq = host.push(dev::Op::Launch, 0, kDesc, 0, 0);
    lockstep->writeReg(uint32_t(dev::Reg::QueueTail), host.tail);
  }

  /// Feeds records [0, n) in the reference's order; returns how many were accepted.
  size_t feed(size_t n) {
    size_t accepted = 0;
    for (size_t i = 0; i < n; ++i)
      if (lockstep->onRecord(0, stream[i]))
        ++accepted;
    return accepted;
  }
  /// The device reports the launch complete with `status`.
  void completeLaunch(dev::Status status) {
    host.complete(launchSeq, status);
    completed = launchSeq;
    lockstep->poll();
  }
};

TEST(RtlLockstep, RacyProgramAgreesAndShadowMemoryFollows) {
  Scenario s;
  s.ring();
  ASSERT_GT(s.stream.size(), 8u);
  EXPECT_EQ(s.feed(s.stream.size()), s.stream.size());
  s.completeLaunch(dev::Status::Ok);
  EXPECT_TRUE(s.lockstep->finish()) << s.lockstep->stopped();
  EXPECT_TRUE(s.stops.empty());
  EXPECT_EQ(s.lockstep->compared(), s.stream.size());
  EXPECT_EQ(s.lockstep->launches(), 1u);
  // The shadow ran the copy and then the launch: its output equals the reference's.
  auto want = s.ref.download<uint32_t>(s.out, 128 * 3);
  std::vector<uint32_t> got(want.size());
  ASSERT_NE(s.lockstep->shadow(), nullptr);
  ASSERT_TRUE(s.lockstep->shadow()->read(s.out, got.data(), got.size() * 4));
  EXPECT_EQ(got, want);
  EXPECT_EQ(s.ref.read<uint32_t>(s.counter), 128u);
}

TEST(RtlLockstep, PlantedDifferenceStopsAtThatRecordWithBothStates) {
  Scenario s;
  s.ring();
  // Flip the first REG value of record k (an instruction with a destination register).
  size_t k = 0;
  for (size_t i = 3; i < s.stream.size() && !k; ++i) {
    func::CommitView v(s.stream[i]);
    if (v.find(dev::CommitPartKind::Reg))
      k = i;
  }
  ASSERT_NE(k, 0u);
  uint8_t *rec = s.stream.mutableRecord(k);
  std::string before = func::formatCommit(s.stream[k]);
  rec[sizeof(dev::CommitRecord) + sizeof(dev::CommitPart)] ^= 0x40;
  std::string planted = func::formatCommit(s.stream[k]);
  ASSERT_NE(before, planted);

  EXPECT_EQ(s.feed(s.stream.size()), k); // everything before k was accepted, nothing after
  ASSERT_EQ(s.stops.size(), 1u);
  const std::string &why = s.stops[0];
  EXPECT_NE(why.find("lockstep with the emulator failed"), std::string::npos) << why;
  // Both states: the RTL's record (planted) and the emulator's (as the reference had it).
  EXPECT_NE(why.find(planted), std::string::npos) << why;
  EXPECT_NE(why.find(before), std::string::npos) << why;
  EXPECT_FALSE(s.lockstep->finish());
}

TEST(RtlLockstep, LaunchCompletedWithInstructionsMissingIsADifference) {
  Scenario s;
  s.ring();
  // The RTL "completes" the launch without its last record (a warp's EXIT).
  EXPECT_EQ(s.feed(s.stream.size() - 1), s.stream.size() - 1);
  s.completeLaunch(dev::Status::Ok);
  ASSERT_EQ(s.stops.size(), 1u);
  EXPECT_NE(s.stops[0].find("has not exited"), std::string::npos) << s.stops[0];
}

TEST(RtlLockstep, RecordOutsideEveryLaunchStops) {
  Scenario s;
  EXPECT_FALSE(s.lockstep->onRecord(0, s.stream[0]));
  ASSERT_EQ(s.stops.size(), 1u);
  EXPECT_NE(s.stops[0].find("outside every launch"), std::string::npos) << s.stops[0];
}

// The golden-model interface the shadow uses (docs/golden-model.md): a plugin that does not exist
// is a clear error naming what is installed, and an impossible launch begins, reports its fault as
// fields and steps nothing.
TEST(GoldenModel, UnknownPluginNamesWhatIsInstalled) {
  std::string error;
  EXPECT_EQ(isa::GoldenModel::open("no-such-model", "tiny", error), nullptr);
  EXPECT_NE(error.find("no device plugin 'no-such-model'"), std::string::npos) << error;
  EXPECT_NE(error.find("installed: "), std::string::npos) << error;
  EXPECT_NE(error.find("func"), std::string::npos) << error;
}

TEST(GoldenModel, ImpossibleLaunchReportsItsFaultAndStepsNothing) {
  std::string error;
  std::unique_ptr<isa::GoldenModel> model = isa::GoldenModel::open("func", "tiny", error);
  ASSERT_NE(model, nullptr) << error;
  isa::LaunchDesc desc; // no code segment
  desc.kernelName = "nothing";
  desc.block = {64, 1, 1};
  std::unique_ptr<isa::GoldenLaunch> launch = model->begin(desc);
  ASSERT_TRUE(launch->fault().has_value());
  EXPECT_EQ(launch->fault()->kind, isa::FaultKind::InvalidLaunch);
  EXPECT_EQ(launch->fault()->kernel, "nothing");
  isa::StepResult r = launch->step(isa::WarpRef{{0, 0, 0}, 0}, 1);
  EXPECT_EQ(r.executed, 0u);
  EXPECT_NE(r.status, isa::StepStatus::Ran);
  isa::LaunchResult done = launch->finish();
  ASSERT_TRUE(done.fault.has_value());
  EXPECT_EQ(done.fault->kind, isa::FaultKind::InvalidLaunch);
  EXPECT_EQ(done.warpInsts, 0u);
}

} // namespace
} // namespace wf::test

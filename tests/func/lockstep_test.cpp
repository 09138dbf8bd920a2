//===- lockstep_test.cpp - Commit records, the step interface and the checker ------===//

#include "harness.h"
#include "warpforge/func/commit.h"
#include "warpforge/func/lockstep.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <map>
#include <sstream>

namespace wf::test {
namespace {

using func::CommitComparator;
using func::CommitStream;
using func::CommitView;
using func::LockstepChecker;
using func::StepStatus;
using func::WarpRef;
using isa::dev::CommitKind;
using isa::dev::CommitPartKind;

/// Two warps a block exchange values through shared memory across a BAR.RED_POPC (so the streams
/// hold barrier releases), then store to global memory.
Code exchangeKernel() {
  Code c;
  emitGlobalIndex(c, 0);
  c << s2r(20, SReg::TID_X) << Inst(Opcode::SHL_I).rd(21).ra(20).imm(2)
    << Inst(Opcode::IADD).rd(4).ra(0).rb(0) << Inst(Opcode::STS).ra(21).rd(4)
    << Inst(Opcode::BAR).rd(7).pc(0).mod("fn", "RED_POPC")
    << Inst(Opcode::LOP_I).rd(22).ra(21).imm(0xfc).mod("fn", "XOR")
    << Inst(Opcode::LDS).rd(8).ra(22) << Inst(Opcode::IADD).rd(4).ra(4).rb(8)
    << Inst(Opcode::IADD).rd(4).ra(4).rb(7);
  emitElementAddress(c, 2, 0, 0, 4, 1);
  c << stg(2, 4) << exitInst();
  return c;
}

/// Every thread adds 1 to a global counter with ATOM, then reads the counter with a plain load
/// and reads CLOCK, and stores all three: a program whose blocks race.
Code racyKernel() {
  Code c;
  c << ldp64(2, 0) << mov32(6, 1) << Inst(Opcode::ATOM).rd(8).ra(2).rb(6).mod("fn", "ADD")
    << ldg(9, 2) << s2r(10, SReg::CLOCK);
  emitGlobalIndex(c, 12);
  emitElementAddress(c, 16, 8, 12, 12, 15);
  c << stg(16, 8, 0) << stg(16, 9, 4) << stg(16, 10, 8) << exitInst();
  return c;
}

struct Setup {
  Harness h{"tiny"};
  func::LaunchDesc desc;
};

/// The exchange kernel on a fresh device: 3 blocks of 2 warps.
std::unique_ptr<Setup> exchangeSetup() {
  auto s = std::make_unique<Setup>();
  uint64_t out = s->h.alloc(3 * 64 * 4);
  s->desc = s->h.describe(exchangeKernel(), {3, 1, 1}, {64, 1, 1}, Params().u64(out), 24);
  s->desc.sharedStatic = 64 * 4;
  return s;
}

std::unique_ptr<Setup> racySetup() {
  auto s = std::make_unique<Setup>();
  uint64_t counter = s->h.alloc(4);
  uint64_t out = s->h.alloc(4 * 32 * 12);
  s->desc = s->h.describe(racyKernel(), {4, 1, 1}, {32, 1, 1}, Params().u64(counter).u64(out), 24);
  return s;
}

CommitStream freeRun(Setup &s) {
  CommitStream stream;
  func::RunOptions opts;
  opts.commit = stream.sink();
  auto r = s.h.dev.launch(s.desc, opts);
  EXPECT_FALSE(r.fault) << r.fault->describe();
  return stream;
}

WarpRef warpOf(std::span<const uint8_t> record) { return WarpRef::of(CommitView(record).header()); }

/// The records of `stream` grouped by warp, warps in `descending` or ascending order; each warp's
/// records keep their order.
std::vector<size_t> groupedByWarp(const CommitStream &stream, bool descending) {
  std::map<WarpRef, std::vector<size_t>> byWarp;
  for (size_t i = 0; i < stream.size(); ++i)
    byWarp[warpOf(stream[i])].push_back(i);
  std::vector<size_t> order;
  auto append = [&](const std::vector<size_t> &v) {
    order.insert(order.end(), v.begin(), v.end());
  };
  if (descending)
    for (auto it = byWarp.rbegin(); it != byWarp.rend(); ++it)
      append(it->second);
  else
    for (auto &[warp, v] : byWarp)
      append(v);
  return order;
}

TEST(Commit, TextTraceIsThePrinterOfTheRecords) {
  auto s = exchangeSetup();
  CommitStream stream;
  std::ostringstream text;
  func::RunOptions opts;
  opts.commit = stream.sink();
  opts.trace = &text;
  ASSERT_FALSE(s->h.dev.launch(s->desc, opts).fault);
  std::string printed;
  size_t releases = 0;
  for (size_t i = 0; i < stream.size(); ++i) {
    EXPECT_EQ(CommitView::validate(stream[i]), "") << i;
    printed += func::formatCommit(stream[i]) + "\n";
    releases += CommitView(stream[i]).header().kind == uint8_t(CommitKind::BarRelease);
  }
  EXPECT_EQ(printed, text.str());
  EXPECT_EQ(releases, 3u * 2); // both warps of each block wait at the BAR.RED_POPC
  // 3 blocks x 2 warps x 18 instructions, plus the releases.
  EXPECT_EQ(stream.size(), 3u * 2 * 18 + releases);
  // The buffer reads back as the same records.
  CommitStream copy;
  ASSERT_EQ(copy.assign(stream.data()), "");
  EXPECT_EQ(copy.size(), stream.size());
}

TEST(Commit, MalformedBuffersAreRejected) {
  auto s = exchangeSetup();
  CommitStream stream = freeRun(*s);
  std::vector<uint8_t> bytes = stream.data();
  bytes.resize(bytes.size() - 8); // the last record is cut off
  CommitStream cut;
  EXPECT_NE(cut.assign(bytes), "");
  std::vector<uint8_t> first(stream[0].begin(), stream[0].end());
  first[6] = 200; // parts: far more than there are
  EXPECT_NE(CommitView::validate(first), "");
}

TEST(Stepper, StepsOneWarpAtATimeInAnyOrder) {
  auto free = exchangeSetup();
  CommitStream reference = freeRun(*free);
  auto s = exchangeSetup();
  CommitStream stepped;
  func::Stepper stepper(s->h.dev, s->desc, stepped.sink());
  // Blocks last to first; within a block warp 1 first, one instruction at a time.
  for (uint32_t b = 3; b-- > 0;) {
    WarpRef w0{{b, 0, 0}, 0}, w1{{b, 0, 0}, 1};
    auto r = stepper.step(w1, 100);
    EXPECT_EQ(r.status, StepStatus::Waiting); // at the barrier, for warp 0
    EXPECT_EQ(r.executed, 9u);
    EXPECT_EQ(stepper.step(w1, 1).status, StepStatus::Waiting);
    // Warp 0's BAR completes the barrier; it goes on to its EXIT one instruction at a time.
    func::StepResult last;
    uint32_t executed = 0;
    do {
      last = stepper.step(w0, 1);
      executed += last.executed;
    } while (last.status == StepStatus::Ran);
    EXPECT_EQ(last.status, StepStatus::Finished);
    EXPECT_EQ(executed, 18u);
    EXPECT_TRUE(stepper.finished(w0));
    EXPECT_FALSE(stepper.finished(w1));
    auto rest = stepper.step(w1, 100);
    EXPECT_EQ(rest.status, StepStatus::Finished);
    EXPECT_EQ(rest.executed, 9u);
    EXPECT_TRUE(stepper.finished(w1));
  }
  EXPECT_EQ(stepper.step({{3, 0, 0}, 0}, 1).status, StepStatus::Invalid);
  auto result = stepper.finish();
  ASSERT_FALSE(result.fault);
  EXPECT_EQ(result.blocks, 3u);
  EXPECT_EQ(result.warpInsts, 3u * 2 * 18);
  // A race-free program: the same records per warp as the free run, in another interleaving.
  CommitComparator cmp;
  for (size_t i = 0; i < reference.size(); ++i)
    cmp.addReference(reference[i]);
  for (size_t i = 0; i < stepped.size(); ++i)
    cmp.addTest(stepped[i]);
  EXPECT_TRUE(cmp.finish()) << cmp.mismatch()->message;
  EXPECT_EQ(cmp.compared(), reference.size());
}

TEST(Checker, StopsAtAPlantedDifferenceAndPrintsBothStates) {
  auto s = exchangeSetup();
  CommitStream a = freeRun(*s);
  // Plant: lane 3 of the last register write of block (1,0,0) warp 1.
  const WarpRef target{{1, 0, 0}, 1};
  size_t planted = SIZE_MAX;
  uint64_t indexInWarp = 0, count = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!(warpOf(a[i]) == target))
      continue;
    CommitView v(a[i]);
    if (v.header().kind == uint8_t(CommitKind::Inst) && v.find(CommitPartKind::Reg) &&
        v.find(CommitPartKind::Reg)->element(3)) {
      planted = i;
      indexInWarp = count;
    }
    ++count;
  }
  ASSERT_NE(planted, SIZE_MAX);
  CommitStream b;
  ASSERT_EQ(b.assign(a.data()), "");
  CommitView view(b[planted]);
  const func::CommitPartView &part = *view.find(CommitPartKind::Reg);
  const unsigned reg = part.header().index;
  const uint32_t original = uint32_t(part.value(3)), flipped = original ^ 0x100;
  size_t offset = size_t(part.element(3) - b[planted].data());
  std::memcpy(b.mutableRecord(planted) + offset, &flipped, 4);

  // Offline: the test side arrives in another warp interleaving.
  CommitComparator cmp;
  for (size_t i = 0; i < a.size(); ++i)
    ASSERT_TRUE(cmp.addReference(a[i]));
  bool agreed = true;
  for (size_t i : groupedByWarp(b, true))
    agreed = agreed && cmp.addTest(b[i]);
  ASSERT_FALSE(agreed);
  ASSERT_TRUE(cmp.mismatch());
  const func::Mismatch &m = *cmp.mismatch();
  EXPECT_EQ(m.warp, target);
  EXPECT_EQ(m.index, indexInWarp);
  EXPECT_EQ(m.field, fmt::format("R{} lane 3", reg));
  EXPECT_NE(m.message.find("block (1,0,0) warp 1"), std::string::npos) << m.message;
  EXPECT_NE(m.message.find(fmt::format("reference: {:08x}", original)), std::string::npos)
      << m.message;
  EXPECT_NE(m.message.find(fmt::format("emulator:  {:08x}", flipped)), std::string::npos)
      << m.message;
  EXPECT_NE(m.message.find(func::formatCommit(a[planted])), std::string::npos) << m.message;
  EXPECT_NE(m.message.find(func::formatCommit(b[planted])), std::string::npos) << m.message;
  // Every record of other warps and the earlier ones of the target compared equal.
  EXPECT_GT(cmp.compared(), indexInWarp);

  // Online: the checker replays the planted stream as the reference, injection on, and stops at
  // the same record.
  auto fresh = exchangeSetup();
  LockstepChecker checker(fresh->h.dev, fresh->desc);
  size_t stoppedAt = SIZE_MAX;
  for (size_t i = 0; i < b.size() && stoppedAt == SIZE_MAX; ++i)
    if (!checker.check(b[i]))
      stoppedAt = i;
  EXPECT_EQ(stoppedAt, planted);
  ASSERT_TRUE(checker.mismatch());
  EXPECT_EQ(checker.mismatch()->warp, target);
  EXPECT_EQ(checker.mismatch()->index, indexInWarp);
  EXPECT_EQ(checker.mismatch()->field, fmt::format("R{} lane 3", reg));
  EXPECT_NE(checker.mismatch()->message.find(fmt::format("reference: {:08x}", flipped)),
            std::string::npos)
      << checker.mismatch()->message;
  EXPECT_NE(checker.mismatch()->message.find(fmt::format("emulator:  {:08x}", original)),
            std::string::npos)
      << checker.mismatch()->message;
}

TEST(Checker, UnplantedStreamAgreesAndMissingRecordsAreReported) {
  auto s = exchangeSetup();
  CommitStream a = freeRun(*s);
  auto fresh = exchangeSetup();
  LockstepChecker checker(fresh->h.dev, fresh->desc);
  for (size_t i = 0; i < a.size(); ++i)
    ASSERT_TRUE(checker.check(a[i])) << checker.mismatch()->message;
  EXPECT_TRUE(checker.finish());
  EXPECT_EQ(checker.compared(), a.size());

  // The reference loses warp (2,0,0)/0's EXIT: the comparison ends with the emulator's extra
  // record.
  CommitComparator cmp;
  for (size_t i = 0; i + 1 < a.size(); ++i)
    cmp.addReference(a[i]);
  for (size_t i = 0; i < a.size(); ++i)
    cmp.addTest(a[i]);
  EXPECT_FALSE(cmp.finish());
  ASSERT_TRUE(cmp.mismatch());
  EXPECT_EQ(cmp.mismatch()->warp, warpOf(a[a.size() - 1]));
  EXPECT_NE(cmp.mismatch()->message.find("EXIT"), std::string::npos) << cmp.mismatch()->message;
}

/// The racy kernel's reference side: blocks last to first, each warp to its end.
CommitStream reversedRun(Setup &s) {
  CommitStream stream;
  func::Stepper stepper(s.h.dev, s.desc, stream.sink());
  for (uint32_t b = 4; b-- > 0;)
    while (stepper.step({{b, 0, 0}, 0}, 64).status == StepStatus::Ran) {
    }
  EXPECT_FALSE(stepper.finish().fault);
  return stream;
}

TEST(Checker, RacyProgramAgreesOnlyWithInjection) {
  auto refSide = racySetup();
  CommitStream reference = reversedRun(*refSide);
  auto freeSide = racySetup();
  CommitStream free = freeRun(*freeSide);
  ASSERT_EQ(reference.size(), free.size());

  // Without injection the two runs differ: block 0 saw the counter at 0 in one, at 96 in the other.
  CommitComparator offline;
  for (size_t i = 0; i < reference.size(); ++i)
    offline.addReference(reference[i]);
  for (size_t i = 0; i < free.size(); ++i)
    offline.addTest(free[i]);
  EXPECT_FALSE(offline.finish());
  ASSERT_TRUE(offline.mismatch());
  EXPECT_EQ(offline.mismatch()->index, 2u); // the ATOM
  EXPECT_NE(offline.mismatch()->message.find("ATOM"), std::string::npos);

  // The reference's records reach the checker warp by warp, first block first: the emulator
  // replays them in another order than the reference ran them.
  std::vector<size_t> order = groupedByWarp(reference, false);
  func::Injection none{false, false, false};
  {
    auto side = racySetup();
    LockstepChecker checker(side->h.dev, side->desc, none);
    bool ok = true;
    for (size_t i : order)
      if (!(ok = checker.check(reference[i])))
        break;
    EXPECT_FALSE(ok);
    ASSERT_TRUE(checker.mismatch());
    EXPECT_EQ(checker.mismatch()->warp, (WarpRef{{0, 0, 0}, 0}));
    EXPECT_EQ(checker.mismatch()->index, 2u);
  }
  // Each kind of injection alone leaves the others' differences.
  for (int only = 0; only < 3; ++only) {
    func::Injection one{only == 0, only == 1, only == 2};
    auto side = racySetup();
    LockstepChecker checker(side->h.dev, side->desc, one);
    bool ok = true;
    for (size_t i : order)
      if (!(ok = checker.check(reference[i])))
        break;
    EXPECT_FALSE(ok) << "injecting only kind " << only;
  }
  {
    auto side = racySetup();
    LockstepChecker checker(side->h.dev, side->desc); // everything injected
    for (size_t i : order)
      ASSERT_TRUE(checker.check(reference[i])) << checker.mismatch()->message;
    EXPECT_TRUE(checker.finish()) << checker.mismatch()->message;
    EXPECT_EQ(checker.compared(), reference.size());
  }
  // The records carry what was injected: loads, atomics' old values and CLOCK. Block 0 ran last
  // on the reference side, after three blocks of 32 increments.
  std::vector<size_t> block0 = groupedByWarp(reference, false);
  CommitView atom(reference[block0[2]]), load(reference[block0[3]]), clock(reference[block0[4]]);
  ASSERT_TRUE(atom.find(CommitPartKind::Atom));
  EXPECT_EQ(atom.find(CommitPartKind::Atom)->value(0), 3u * 32);
  EXPECT_EQ(atom.find(CommitPartKind::Atom)->value(31), 3u * 32 + 31);
  ASSERT_TRUE(load.find(CommitPartKind::Load));
  uint32_t seen;
  std::memcpy(&seen, load.find(CommitPartKind::Load)->data(0), 4);
  EXPECT_EQ(seen, 4u * 32);
  ASSERT_TRUE(clock.find(CommitPartKind::Sreg, int(SReg::CLOCK)));
}

} // namespace
} // namespace wf::test

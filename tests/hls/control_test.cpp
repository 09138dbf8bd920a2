// The core's control decisions in hls/: the warp scheduler's pick (warp_scheduler.h), the
// scoreboard (scoreboard.h) and the register-file read arbiter (rf_arbiter.h), against the rules of docs/microarchitecture.md worked by hand on
// small cases, and invariants on random stimulus.
#include "warpforge/hls/dispatch.h"
#include "warpforge/hls/operand_collector.h"
#include "warpforge/hls/rf_arbiter.h"
#include "warpforge/hls/scoreboard.h"
#include "warpforge/hls/warp_scheduler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <random>
#include <vector>

namespace {

using namespace wf::hls;

uint64_t bit(unsigned w) { return uint64_t{1} << w; }

TEST(WarpScheduler, LooseRoundRobinSkipsWarpsThatAreNotReady) {
  WarpScheduler s(8, 1, SchedPolicy::LooseRoundRobin);
  s.step(0, 0xff);
  // From reset the pointer sits at warp 7, so warp 0 goes first.
  EXPECT_EQ(s.step(0xff, 0).warp[0], 0);
  EXPECT_EQ(s.step(0xff, 0).warp[0], 1);
  // Warps 2..5 are not ready: the next ready after 1 is 6, then 7, then wrap to 0.
  EXPECT_EQ(s.step(0xc3, 0).warp[0], 6);
  EXPECT_EQ(s.step(0xc3, 0).warp[0], 7);
  EXPECT_EQ(s.step(0xc3, 0).warp[0], 0);
  // Nothing ready: nothing issues and the pointer stays.
  EXPECT_FALSE(s.step(0, 0).valid[0]);
  EXPECT_EQ(s.step(bit(0) | bit(1), 0).warp[0], 1);
}

TEST(WarpScheduler, GreedyThenOldestStaysWithTheGreedyWarp) {
  WarpScheduler s(8, 1, SchedPolicy::GreedyThenOldest);
  s.step(0, bit(5) | bit(6)); // 5 older than 6 (same cycle: lower slot)
  s.step(0, bit(2));          // 2 younger than both
  EXPECT_TRUE(s.isOlder(5, 6));
  EXPECT_TRUE(s.isOlder(6, 2));
  EXPECT_FALSE(s.isOlder(2, 5));
  // No greedy warp yet: the oldest ready one.
  EXPECT_EQ(s.step(bit(2) | bit(6), 0).warp[0], 6);
  // 6 is greedy and stays while ready, even though 5 is older.
  EXPECT_EQ(s.step(bit(5) | bit(6), 0).warp[0], 6);
  // 6 stalls: the oldest ready (5) becomes greedy.
  EXPECT_EQ(s.step(bit(5) | bit(2), 0).warp[0], 5);
  EXPECT_EQ(s.step(bit(5) | bit(6) | bit(2), 0).warp[0], 5);
  // A warp slot re-admitted is the youngest.
  s.step(0, bit(5));
  EXPECT_TRUE(s.isOlder(2, 5));
  EXPECT_EQ(s.step(bit(2) | bit(6), 0).warp[0], 6);
}

TEST(WarpScheduler, TwoIssueSlotsTakeDifferentWarps) {
  WarpScheduler lrr(4, 2, SchedPolicy::LooseRoundRobin);
  lrr.step(0, 0xf);
  SchedPick p = lrr.step(0xf, 0);
  EXPECT_EQ(p.warp[0], 0);
  EXPECT_EQ(p.warp[1], 1);
  p = lrr.step(0xf, 0); // the pointer is the last slot's warp
  EXPECT_EQ(p.warp[0], 2);
  EXPECT_EQ(p.warp[1], 3);
  p = lrr.step(bit(1), 0);
  EXPECT_TRUE(p.valid[0]);
  EXPECT_FALSE(p.valid[1]);

  WarpScheduler gto(4, 2, SchedPolicy::GreedyThenOldest);
  gto.step(0, bit(3));
  gto.step(0, bit(1) | bit(2));
  p = gto.step(0xe, 0); // oldest 3, then the oldest of the rest: 1
  EXPECT_EQ(p.warp[0], 3);
  EXPECT_EQ(p.warp[1], 1);
  p = gto.step(0x6, 0); // greedy 3 not ready: oldest 1, then 2
  EXPECT_EQ(p.warp[0], 1);
  EXPECT_EQ(p.warp[1], 2);
}

TEST(WarpScheduler, PicksAreReadyAndDistinctOnRandomStimulus) {
  std::mt19937_64 rng(7);
  for (SchedPolicy pol : {SchedPolicy::LooseRoundRobin, SchedPolicy::GreedyThenOldest}) {
    for (unsigned width : {1u, 2u}) {
      WarpScheduler s(48, width, pol);
      s.step(0, (uint64_t{1} << 48) - 1);
      for (int i = 0; i < 20000; ++i) {
        const uint64_t ready = rng() & rng() & ((uint64_t{1} << 48) - 1);
        const SchedPick p = s.step(ready, 0);
        const unsigned want = std::min<unsigned>(width, std::popcount(ready));
        unsigned got = 0;
        for (unsigned k = 0; k < width; ++k) {
          if (!p.valid[k])
            continue;
          ++got;
          ASSERT_TRUE((ready >> p.warp[k]) & 1);
        }
        ASSERT_EQ(got, want); // work conserving
        if (width == 2 && got == 2) {
          ASSERT_NE(p.warp[0], p.warp[1]);
        }
      }
    }
  }
}

SbUse use(std::initializer_list<std::pair<uint8_t, uint8_t>> regs, bool writesReg,
          std::initializer_list<uint8_t> preds = {}, bool writesPred = false) {
  SbUse u;
  unsigned k = 0;
  for (auto [base, count] : regs)
    u.regs[k++] = SbRegGroup{true, base, count};
  // Sources in slots 0.., the destination (the list's last, when written) in the last slot.
  const std::vector<uint8_t> ps(preds);
  const size_t sources = writesPred ? ps.size() - 1 : ps.size();
  for (size_t i = 0; i < sources; ++i) {
    u.predValid[i] = true;
    u.pred[i] = ps[i];
  }
  if (writesPred) {
    u.predValid[kSbPreds - 1] = true;
    u.pred[kSbPreds - 1] = ps.back();
  }
  u.writesReg = writesReg;
  u.writesPred = writesPred;
  return u;
}

TEST(Scoreboard, RegisterHazardsUntilTheCycleAfterRelease) {
  Scoreboard sb(4, 2);
  const std::array<SbRelease, 1> none{};
  // R4:R5 (a pair) written by warp 1.
  const SbReserved r = sb.step(none, true, 1, use({{4, 2}, {8, 1}}, true));
  EXPECT_EQ(r.regEntry, 0);
  EXPECT_FALSE(sb.ready(1, use({{5, 1}}, false)));          // RAW on the pair's high half
  EXPECT_FALSE(sb.ready(1, use({{4, 4}}, false)));          // a quad containing it
  EXPECT_FALSE(sb.ready(1, use({{5, 1}, {0, 1}}, true)));   // WAW
  EXPECT_TRUE(sb.ready(1, use({{6, 2}, {3, 1}}, true)));    // neighbours
  EXPECT_TRUE(sb.ready(0, use({{4, 2}}, true)));            // other warps are independent
  // Release at this edge: not ready during the release cycle, ready after it.
  const std::array<SbRelease, 1> rel{SbRelease{true, 1, r.regEntry}};
  EXPECT_FALSE(sb.ready(1, use({{5, 1}}, false)));
  sb.step(rel, false, 0, SbUse{});
  EXPECT_TRUE(sb.ready(1, use({{5, 1}}, false)));
}

TEST(Scoreboard, PredicatesAndFullEntries) {
  Scoreboard sb(2, 2);
  const std::array<SbRelease, 1> none{};
  // An instruction writing R10 and P3 takes both entries, register first.
  const SbReserved r = sb.step(none, true, 0, use({{10, 1}}, true, {3}, true));
  EXPECT_EQ(r.regEntry, 0);
  EXPECT_EQ(r.predEntry, 1);
  EXPECT_FALSE(sb.ready(0, use({}, false, {3})));  // guard or source P3
  EXPECT_TRUE(sb.ready(0, use({{11, 1}}, false, {2})));
  EXPECT_FALSE(sb.ready(0, use({{11, 1}}, true))); // no free entry for a write
  // Releasing the register entry frees one: a one-write instruction may issue, a two-write not.
  const std::array<SbRelease, 1> rel{SbRelease{true, 0, 0}};
  sb.step(rel, false, 0, SbUse{});
  EXPECT_TRUE(sb.ready(0, use({{11, 1}}, true)));
  EXPECT_FALSE(sb.ready(0, use({{11, 1}}, true, {4}, true)));
  // The next write takes the lowest free entry.
  EXPECT_EQ(sb.step(none, true, 0, use({{12, 1}}, true)).regEntry, 0);
}

TEST(Scoreboard, AnEntryReleasedThisCycleIsNotReallocatedThisCycle) {
  Scoreboard sb(1, 2);
  const std::array<SbRelease, 1> none{};
  sb.step(none, true, 0, use({{1, 1}}, true)); // entry 0
  const std::array<SbRelease, 1> rel{SbRelease{true, 0, 0}};
  // Issue and release in the same cycle: the issue takes entry 1, the free one at cycle start.
  EXPECT_EQ(sb.step(rel, true, 0, use({{2, 1}}, true)).regEntry, 1);
  EXPECT_FALSE(sb.entryValid(0, 0));
  EXPECT_TRUE(sb.entryValid(0, 1));
}

RfReadRequest reads(std::initializer_list<std::pair<unsigned, uint8_t>> slotBanks) {
  RfReadRequest r;
  for (auto [slot, bank] : slotBanks) {
    r.valid = static_cast<uint8_t>(r.valid | (1u << slot));
    r.bank[slot] = bank;
  }
  return r;
}

TEST(RfReadArbiter, OldestCollectorThenLowestSlotWinsEachBank) {
  RfReadArbiter arb(4, 8);
  std::array<RfReadRequest, kMaxCollectors> none{};
  arb.step(none, 0b0100); // collector 2 first
  arb.step(none, 0b0011); // then 0 and 1 together: 0 older than 1
  EXPECT_TRUE(arb.isOlder(2, 0));
  EXPECT_TRUE(arb.isOlder(0, 1));
  std::array<RfReadRequest, kMaxCollectors> req{};
  req[0] = reads({{0, 3}, {1, 5}});
  req[1] = reads({{0, 5}, {2, 6}});
  req[2] = reads({{1, 3}, {4, 3}}); // two slots on bank 3: the lower one first
  const RfReadGrant g = arb.grant(req);
  EXPECT_EQ(g.bankValid, (1u << 3) | (1u << 5) | (1u << 6));
  EXPECT_EQ(g.collector[3], 2); // 2 is older than 0
  EXPECT_EQ(g.slot[3], 1);
  EXPECT_EQ(g.collector[5], 0); // 0 is older than 1
  EXPECT_EQ(g.slot[5], 1);
  EXPECT_EQ(g.collector[6], 1); // nobody else wants bank 6
  EXPECT_EQ(g.slotsGranted[0], 0b10);
  EXPECT_EQ(g.slotsGranted[1], 0b100);
  EXPECT_EQ(g.slotsGranted[2], 0b10);
  // Re-allocating collector 2 makes it the youngest.
  arb.step(none, 0b0100);
  EXPECT_EQ(arb.grant(req).collector[3], 0);
}

// An FFMA-shaped issue: ra, rb, rc one register each, in warp 0 with rfBase 0.
std::array<OcIssue, kMaxOcIssue> ffma(uint8_t a, uint8_t b, uint8_t c) {
  std::array<OcIssue, kMaxOcIssue> is{};
  is[0].valid = true;
  is[0].roles[0] = OcRole{a, 1, true};
  is[0].roles[1] = OcRole{b, 1, true};
  is[0].roles[2] = OcRole{c, 1, true};
  return is;
}

// docs/microarchitecture.md's FFMA timing (P = 2, sources in different banks): issued in t, reads
// granted t + 1, pass 0 complete and dispatched t + 3, pass 1's reads granted t + 3, pass 1
// dispatched t + 5, the collector free from t + 6.
TEST(OperandCollectors, FfmaReadTimingOfTheDocument) {
  OperandCollectors oc(4, 8, 2);
  const std::array<OcIssue, kMaxOcIssue> none{};
  OcCycle t0 = oc.step(ffma(1, 2, 3), 0); // t
  EXPECT_EQ(t0.issueColl[0], 0);
  EXPECT_EQ(t0.grant.bankValid, 0);
  EXPECT_FALSE(oc.passReady(0));
  OcCycle t1 = oc.step(none, 0); // t + 1: first cycle, all three reads granted
  EXPECT_EQ(t1.grant.bankValid, 0b1110);
  EXPECT_EQ(t1.row[1], 0); // register 1: bank 1, row 0 x 2 + pass 0
  EXPECT_FALSE(oc.passReady(0));
  oc.step(none, 0); // t + 2: delivery
  EXPECT_TRUE(oc.passReady(0)); // t + 3
  OcCycle t3 = oc.step(none, 1); // pass 0 dispatches, pass 1's reads granted
  EXPECT_EQ(t3.grant.bankValid, 0b1110);
  EXPECT_EQ(t3.row[2], 1); // pass 1's row
  EXPECT_FALSE(oc.passReady(0)); // t + 4
  oc.step(none, 0);
  EXPECT_TRUE(oc.passReady(0)); // t + 5
  EXPECT_EQ(oc.pass(0), 1u);
  oc.step(none, 1);
  EXPECT_EQ(oc.freeMask() & 1, 1u); // t + 6
}

TEST(OperandCollectors, BankConflictsAndNoReadPasses) {
  OperandCollectors oc(4, 8, 2);
  const std::array<OcIssue, kMaxOcIssue> none{};
  oc.step(ffma(1, 9, 17), 0); // all in bank 1: one read a cycle, lowest slot first
  OcCycle g1 = oc.step(none, 0);
  EXPECT_EQ(g1.grant.slotsGranted[0], 0b001);
  OcCycle g2 = oc.step(none, 0);
  EXPECT_EQ(g2.grant.slotsGranted[0], 0b010);
  EXPECT_FALSE(oc.passReady(0));
  oc.step(none, 0); // the last read, granted in t + 3, is delivered at the end of t + 4
  EXPECT_FALSE(oc.passReady(0));
  oc.step(none, 0);
  EXPECT_TRUE(oc.passReady(0));
  // An instruction with no register reads: complete in t + 2, then every other cycle.
  OperandCollectors nr(2, 4, 2);
  std::array<OcIssue, kMaxOcIssue> mov{};
  mov[0].valid = true;
  nr.step(mov, 0);
  EXPECT_FALSE(nr.passReady(0));
  nr.step(none, 0);
  EXPECT_TRUE(nr.passReady(0));
  nr.step(none, 1);
  EXPECT_FALSE(nr.passReady(0));
  nr.step(none, 0);
  EXPECT_TRUE(nr.passReady(0));
}

TEST(OperandCollectors, WriteAfterReadPendingUntilTheLastPassIsGranted) {
  OperandCollectors oc(2, 8, 2);
  const std::array<OcIssue, kMaxOcIssue> none{};
  std::array<OcIssue, kMaxOcIssue> is = ffma(1, 2, 3);
  is[0].roles[1] = OcRole{255, 1, false}; // RZ: no read, never pending
  oc.step(is, 0);
  EXPECT_TRUE(oc.pending(0).role[0]);
  EXPECT_FALSE(oc.pending(0).role[1]);
  oc.step(none, 0);
  oc.step(none, 0);
  EXPECT_TRUE(oc.pending(0).role[0]); // pass 0 read, pass 1 not yet
  oc.step(none, 1);                   // pass 1's reads granted
  EXPECT_FALSE(oc.pending(0).role[0]);
  EXPECT_FALSE(oc.pending(0).role[2]);
  EXPECT_TRUE(oc.pending(0).valid);
}

// The document's fixed-latency example end to end through the collectors and dispatch (default
// configuration: P = 2, B = 8; FFMA latency 4): issued in t, pass 0 dispatched t + 3, pass 1
// t + 5, results written t + 7 and t + 9 (the reservation bits of the destination bank).
TEST(Dispatcher, FfmaTimingOfTheDocument) {
  OperandCollectors oc(4, 8, 2);
  Dispatcher disp(4, 8, 72);
  const unsigned fma = 4, lat = 4; // isa Unit::FMA, FFMA's latency
  const unsigned rdBank = 5;
  std::array<OcIssue, kMaxOcIssue> is = ffma(1, 2, 3);
  std::vector<unsigned> dispatched, written;
  const std::array<ReturnRequest, kReturnSources> noRet{};
  for (unsigned t = 0; t < 12; ++t) {
    std::array<DispatchCandidate, kMaxCollectors> cand{};
    for (unsigned c = 0; c < 4; ++c) {
      cand[c].ready = oc.passReady(c);
      cand[c].unit = fma;
      cand[c].latency = lat;
      cand[c].banks = 1u << rdBank;
    }
    if (disp.reserved(rdBank, 0))
      written.push_back(t);
    const DispatchCycle d =
        disp.step(cand, ~0u, noRet, [&](unsigned a, unsigned b) { return oc.isOlder(a, b); });
    if (d.dispatch & 1)
      dispatched.push_back(t);
    oc.step(t == 0 ? is : std::array<OcIssue, kMaxOcIssue>{}, d.dispatch);
  }
  EXPECT_EQ(dispatched, (std::vector<unsigned>{3, 5}));
  EXPECT_EQ(written, (std::vector<unsigned>{7, 9}));
}

TEST(Dispatcher, OlderPassClaimsTheWriteSlotAndReturnsTakeFreeSlots) {
  Dispatcher disp(2, 8, 72);
  std::array<DispatchCandidate, kMaxCollectors> cand{};
  // Collector 1 (older) on the FMA (latency 4), collector 0 on the IMUL (latency 4), both writing
  // bank 2 in the same cycle: only the older dispatches.
  cand[0] = DispatchCandidate{true, 2, false, 4, 1, 1u << 2, false};
  cand[1] = DispatchCandidate{true, 4, false, 4, 1, 1u << 2, false};
  const std::array<ReturnRequest, kReturnSources> noRet{};
  auto older10 = [](unsigned a, unsigned b) { return a == 1 && b == 0; };
  DispatchCycle d = disp.step(cand, ~0u, noRet, older10);
  EXPECT_EQ(d.dispatch, 0b10u);
  EXPECT_EQ(d.unitColl[4], 1);
  EXPECT_EQ(d.unitColl[2], -1);
  // Three cycles later bank 2 is written by the FMA: the LSU's return waits, the CTRL's (bank 3)
  // writes.
  for (int i = 0; i < 3; ++i)
    disp.step({}, ~0u, noRet, older10);
  std::array<ReturnRequest, kReturnSources> ret{};
  ret[0] = ReturnRequest{true, 1u << 2, false};
  ret[1] = ReturnRequest{true, 1u << 3, false};
  d = disp.step({}, ~0u, ret, older10);
  EXPECT_EQ(d.returnGrant, 0b10u);
  d = disp.step({}, ~0u, ret, older10);
  EXPECT_EQ(d.returnGrant, 0b11u);
}

} // namespace

// hls/convergence.h: the lane-state transitions on cases worked by hand from the rules of
// docs/execution-model.md and docs/emulator.md ("Divergence and reconvergence"), and the CTRL
// unit's timing (docs/microarchitecture.md, "Per-thread PCs and convergence").

#include "warpforge/hls/convergence.h"

#include <gtest/gtest.h>

namespace {

using namespace wf::hls;

constexpr uint32_t kLow = 0x0000ffffu;
constexpr uint32_t kHigh = 0xffff0000u;
constexpr uint32_t kAll = ~0u;

// if (lane < 16) A else B; join. Code: 0 BSSY B0 ; 1 @P BRA 4 ; 2 B ; 3 BRA 5 ; 4 A ; 5 BSYNC B0 ;
// 6 after. Lanes 0-15 take the branch (target 4 > next 2): the fall-through side (lower pc)
// stays the group, the taken side waits at 4.
TEST(Convergence, IfElseReconvergesAtBsync) {
  WarpConv w;
  conv::start(w, kAll, 0);
  conv::bssy(w, kAll, 0, 0);
  EXPECT_EQ(w.conv[0], kAll);
  conv::branch(w, kLow, 1, 4, 1024);
  EXPECT_EQ(w.group, kHigh);
  EXPECT_EQ(w.groupPc, 2u);
  EXPECT_EQ(w.runnable, kLow);
  EXPECT_EQ(w.pc[0], 4u);
  EXPECT_EQ(w.pc[15], 4u);
  // B, then the uniform jump to the BSYNC.
  conv::branch(w, kHigh, 3, 5, 1024);
  EXPECT_EQ(w.group, kHigh);
  EXPECT_EQ(w.groupPc, 5u);
  // The high half waits at BSYNC B0 (the low half has not arrived).
  conv::bsync(w, kHigh, 5, 0);
  EXPECT_EQ(w.group, 0u);
  EXPECT_EQ(w.bsyncWait[0], kHigh);
  EXPECT_EQ(w.pc[16], 6u);
  // The pick takes the low half at 4.
  ASSERT_TRUE(conv::pick(w));
  EXPECT_EQ(w.group, kLow);
  EXPECT_EQ(w.groupPc, 4u);
  EXPECT_EQ(w.runnable, 0u);
  // A falls into the BSYNC: complete on arrival; the waiters at 6 join the group.
  conv::bsync(w, kLow, 5, 0);
  EXPECT_EQ(w.group, kAll);
  EXPECT_EQ(w.groupPc, 6u);
  EXPECT_EQ(w.bsyncWait[0], 0u);
  EXPECT_EQ(w.runnable, 0u);
}

// A backward divergent branch: the taken side (target below next) is the group.
TEST(Convergence, BackwardBranchKeepsTakenSide) {
  WarpConv w;
  conv::start(w, kAll, 10);
  conv::branch(w, 0x1u, 10, 3, 1024);
  EXPECT_EQ(w.group, 0x1u);
  EXPECT_EQ(w.groupPc, 3u);
  EXPECT_EQ(w.runnable, kAll & ~0x1u);
  EXPECT_EQ(w.pc[1], 11u);
  EXPECT_EQ(w.backEdges, 1u);
  // A branch not taken by any lane falls through; a branch to next is not a split.
  conv::branch(w, 0, 3, 0, 1024);
  EXPECT_EQ(w.groupPc, 4u);
  EXPECT_EQ(w.group, 0x1u);
}

// EXIT of the missing lanes completes the barrier the others wait at.
TEST(Convergence, ExitReleasesBsyncWaiters) {
  WarpConv w;
  conv::start(w, 0xffu, 0); // a partial warp of 8 threads
  EXPECT_EQ(w.exited, ~0xffu);
  conv::bssy(w, 0xffu, 0, 3);
  conv::branch(w, 0x0fu, 1, 7, 1024); // lanes 0-3 to 7; 4-7 fall through to 2 (lower: group)
  EXPECT_EQ(w.group, 0xf0u);
  conv::bsync(w, 0xf0u, 2, 3);        // 4-7 wait at 3
  EXPECT_EQ(w.group, 0u);
  ASSERT_TRUE(conv::pick(w));
  EXPECT_EQ(w.group, 0x0fu);
  EXPECT_EQ(w.groupPc, 7u);
  conv::exit(w, 0x0fu, 7);            // 0-3 exit: B3's other lanes all wait: released
  EXPECT_EQ(w.group, 0u);
  EXPECT_EQ(w.conv[3], 0xf0u);
  EXPECT_EQ(w.bsyncWait[3], 0u);
  EXPECT_EQ(w.runnable, 0xf0u);
  ASSERT_TRUE(conv::pick(w));
  EXPECT_EQ(w.group, 0xf0u);
  EXPECT_EQ(w.groupPc, 3u);
  conv::exit(w, 0xf0u, 3);
  EXPECT_EQ(w.exited, kAll);
  EXPECT_FALSE(conv::pick(w));
}

// The pick: lowest pc, every runnable lane at it; yielded lanes only when nothing else runs.
TEST(Convergence, PickLowestPcAndYieldedLast) {
  WarpConv w;
  conv::start(w, kAll, 0);
  w.group = 0;
  w.runnable = 0b1111;
  w.pc[0] = 9;
  w.pc[1] = 5;
  w.pc[2] = 5;
  w.pc[3] = 2;
  w.yielded = 0b1000;
  ASSERT_TRUE(conv::pick(w));
  EXPECT_EQ(w.group, 0b0110u);
  EXPECT_EQ(w.groupPc, 5u);
  w.group = 0;
  ASSERT_TRUE(conv::pick(w));
  EXPECT_EQ(w.group, 0b0001u);
  EXPECT_EQ(w.groupPc, 9u);
  EXPECT_EQ(w.yielded, 0b1000u);
  w.group = 0;
  ASSERT_TRUE(conv::pick(w)); // only the yielded lane: its turn, flag cleared
  EXPECT_EQ(w.group, 0b1000u);
  EXPECT_EQ(w.groupPc, 2u);
  EXPECT_EQ(w.yielded, 0u);
}

// A spin loop (lane 0 waits for lane 1, which is runnable behind it) yields after yieldLimit
// backward branches; it leaves the barrier lane 1 waits at, releasing it.
TEST(Convergence, SpinLoopYields) {
  WarpConv w;
  conv::start(w, 0b11u, 0);
  conv::bssy(w, 0b11u, 0, 1);
  // 1: @lane0 BRA 3 -> lane 1 falls to 2 (group), lane 0 waits at 3.
  conv::branch(w, 0b01u, 1, 3, 4);
  EXPECT_EQ(w.group, 0b10u);
  conv::bsync(w, 0b10u, 2, 1); // lane 1 waits at BSYNC B1 (pc 3 next)
  EXPECT_EQ(w.bsyncWait[1], 0b10u);
  ASSERT_TRUE(conv::pick(w));
  EXPECT_EQ(w.group, 0b01u);
  EXPECT_EQ(w.groupPc, 3u);
  // 3: BRA 3 (spin): three back edges, the fourth yields.
  for (unsigned i = 0; i < 3; ++i) {
    conv::branch(w, 0b01u, 3, 3, 4);
    EXPECT_EQ(w.group, 0b01u);
  }
  conv::branch(w, 0b01u, 3, 3, 4);
  EXPECT_EQ(w.group, 0u);
  EXPECT_EQ(w.yieldedOut[1], 0b01u);
  EXPECT_EQ(w.conv[1], 0b10u);
  EXPECT_EQ(w.bsyncWait[1], 0u); // released: its other lane left
  EXPECT_EQ(w.runnable, 0b11u);
  EXPECT_EQ(w.yielded, 0b01u);
  EXPECT_EQ(w.backEdges, 0u);
  ASSERT_TRUE(conv::pick(w)); // lane 1 (not yielded) first, at 3
  EXPECT_EQ(w.group, 0b10u);
  EXPECT_EQ(w.groupPc, 3u);
  // Lane 0 yielded out of B1: its BSYNC B1 passes once without waiting.
  w.group = 0b01u;
  w.runnable = 0;
  conv::bsync(w, 0b01u, 2, 1);
  EXPECT_EQ(w.group, 0b01u);
  EXPECT_EQ(w.yieldedOut[1], 0u);
}

// A spinning group with no other lane to run does not yield; its counter restarts.
TEST(Convergence, NoYieldWithoutOthers) {
  WarpConv w;
  conv::start(w, kAll, 0);
  for (unsigned i = 0; i < 4; ++i)
    conv::branch(w, kAll, 3, 3, 4);
  EXPECT_EQ(w.group, kAll);
  EXPECT_EQ(w.backEdges, 0u);
}

// BRX: the group splits by per-lane target; the lowest target stays the group.
TEST(Convergence, IndirectSplitsByTarget) {
  WarpConv w;
  conv::start(w, 0b1111u, 0);
  std::array<uint32_t, kConvLanes> t{};
  t[0] = 20;
  t[1] = 8;
  t[2] = 20;
  conv::indirect(w, 0b0111u, 4, t); // lane 3 not taken: next = 5
  EXPECT_EQ(w.group, 0b1000u);
  EXPECT_EQ(w.groupPc, 5u);
  EXPECT_EQ(w.runnable, 0b0111u);
  EXPECT_EQ(w.pc[1], 8u);
  EXPECT_EQ(w.pc[0], 20u);
}

// WARPSYNC: a complete group goes on at once; otherwise the iterative release (a waiter whose
// mask lanes are not all waiting is removed, until stable).
TEST(Convergence, WarpsyncRelease) {
  WarpConv w;
  conv::start(w, 0b1111u, 0);
  std::array<uint32_t, kConvLanes> m{};
  m.fill(0b1111u);
  conv::warpsync(w, 0b1111u, 2, m);
  EXPECT_EQ(w.group, 0b1111u);
  EXPECT_EQ(w.warpsyncWait, 0u);
  // Lanes 0-1 arrive wanting 0-3; lane 2 is elsewhere, lane 3 exits later.
  w.group = 0b0011u;
  w.runnable = 0b0100u;
  w.pc[2] = 30;
  conv::warpsync(w, 0b0011u, 6, m);
  EXPECT_EQ(w.group, 0u);
  EXPECT_EQ(w.warpsyncWait, 0b0011u);
  // Lane 3 exits: still lane 2 missing.
  w.group = 0b1000u;
  conv::exit(w, 0b1000u, 9);
  EXPECT_EQ(w.warpsyncWait, 0b0011u);
  // Lane 2 arrives at another pc (wanting only itself and lane 0): all release; lanes 0-1 resume
  // at their own pc (7) as runnable, lane 2 goes on at 31 with the group.
  std::array<uint32_t, kConvLanes> m2{};
  m2[2] = 0b0101u;
  w.group = 0b0100u;
  w.runnable = 0;
  conv::warpsync(w, 0b0100u, 30, m2);
  EXPECT_EQ(w.warpsyncWait, 0u);
  EXPECT_EQ(w.group, 0b0100u);
  EXPECT_EQ(w.groupPc, 31u);
  EXPECT_EQ(w.runnable, 0b0011u);
  EXPECT_EQ(w.pc[0], 7u);
  // The removal is iterative: 0 waits for 1, 1 for 2 (not waiting): both removed, in 2 rounds.
  WarpConv v;
  conv::start(v, kAll, 0);
  v.warpsyncMask[0] = 0b011u;
  v.warpsyncMask[1] = 0b110u;
  unsigned rounds = 0;
  EXPECT_EQ(conv::releaseWarpsync(v, 0b011u, &rounds), 0u);
  EXPECT_EQ(rounds, 2u);
  EXPECT_EQ(v.warpsyncWait, 0b011u);
}

// The CTRL unit's timing: a pass in t resolves in t + 1 (redirect then for a fetch-stop
// instruction whose group goes on); a group that waits is replaced by the pick in t + 7.
TEST(CtrlUnit, ResolveAndPickTiming) {
  CtrlUnit u(4, 1024);
  std::vector<uint32_t> lanes(4, kAll);
  const CtrlPassIn none;
  // Cycle 0: admit warps 1 and 2 at entry 0; cycles 1, 2: their redirects, lowest first.
  CtrlOut o = u.step(none, 0b0110, lanes, 0, 4096);
  EXPECT_FALSE(o.redirect);
  EXPECT_FALSE(u.hasGroup(1));
  o = u.step(none, 0, lanes, 0, 4096);
  ASSERT_TRUE(o.redirect);
  EXPECT_EQ(o.redirectWarp, 1u);
  EXPECT_EQ(o.redirectPc, 0u);
  EXPECT_TRUE(u.hasGroup(1));
  o = u.step(none, 0, lanes, 0, 4096);
  ASSERT_TRUE(o.redirect);
  EXPECT_EQ(o.redirectWarp, 2u);
  // Warp 1: divergent BRA at pc 1 to byte 32 (index 4) from lanes 0-15, dispatched in cycle t.
  CtrlPassIn bra;
  bra.valid = true;
  bra.warp = 1;
  bra.kind = CtrlKind::Bra;
  bra.fetchStop = true;
  bra.pc = 1;
  bra.exec = kLow;
  bra.imm = 32;
  o = u.step(bra, 0, lanes, 0, 4096); // t
  EXPECT_FALSE(o.redirect);
  o = u.step(none, 0, lanes, 0, 4096); // t + 1: resolves
  ASSERT_TRUE(o.redirect);
  EXPECT_EQ(o.redirectWarp, 1u);
  EXPECT_EQ(o.redirectPc, 2u);
  EXPECT_EQ(u.warp(1).group, kHigh);
  // BSSY B0 with every lane (exec is driven directly here), then the high half waits at BSYNC
  // B0 (pc 5): dispatched t', resolved r = t' + 1; the pick enters in r + 1 and forms the group
  // of the low half (at 4) in r + 7, with its redirect.
  CtrlPassIn bssy = bra;
  bssy.kind = CtrlKind::Bssy;
  bssy.fetchStop = false;
  bssy.exec = kAll;
  bssy.breg = 0;
  u.step(bssy, 0, lanes, 0, 4096);
  o = u.step(none, 0, lanes, 0, 4096);
  EXPECT_FALSE(o.redirect); // BSSY does not stop fetch
  EXPECT_EQ(u.warp(1).conv[0], kAll);
  CtrlPassIn bsync = bssy;
  bsync.kind = CtrlKind::Bsync;
  bsync.fetchStop = true;
  bsync.pc = 5;
  bsync.exec = kHigh;
  u.step(bsync, 0, lanes, 0, 4096);    // t'
  o = u.step(none, 0, lanes, 0, 4096); // r
  EXPECT_FALSE(o.redirect);
  EXPECT_EQ(u.warp(1).group, 0u);
  EXPECT_FALSE(u.idle(1));
  EXPECT_FALSE(u.picking(1));
  for (unsigned c = 1; c < 7; ++c) {
    o = u.step(none, 0, lanes, 0, 4096);
    EXPECT_FALSE(o.redirect) << "cycle r + " << c;
    EXPECT_TRUE(u.picking(1)) << "cycle r + " << c;
  }
  o = u.step(none, 0, lanes, 0, 4096); // r + 7
  ASSERT_TRUE(o.redirect);
  EXPECT_EQ(o.redirectWarp, 1u);
  EXPECT_EQ(o.redirectPc, 4u);
  EXPECT_EQ(u.warp(1).group, kLow);
  EXPECT_TRUE(u.hasGroup(1));
}

TEST(CtrlUnit, FaultsChangeNothing) {
  CtrlUnit u(2, 1024);
  std::vector<uint32_t> lanes(2, kAll);
  const CtrlPassIn none;
  u.step(none, 0b1, lanes, 0, 64);
  u.step(none, 0, lanes, 0, 64);
  CtrlPassIn bra;
  bra.valid = true;
  bra.kind = CtrlKind::Bra;
  bra.fetchStop = true;
  bra.pc = 2;
  bra.exec = 0xf0u;
  bra.imm = 64; // past the code (64 bytes)
  u.step(bra, 0, lanes, 0, 64);
  const WarpConv before = u.warp(0);
  CtrlOut o = u.step(none, 0, lanes, 0, 64);
  EXPECT_EQ(o.fault, CtrlFaultKind::BadJump);
  EXPECT_EQ(o.faultLane, 4u);
  EXPECT_EQ(o.faultPc, 2u);
  EXPECT_EQ(o.faultCode, 64u);
  EXPECT_FALSE(o.redirect);
  EXPECT_EQ(u.warp(0), before);
  bra.imm = 12; // misaligned
  bra.exec = 0;
  u.step(bra, 0, lanes, 0, 64);
  o = u.step(none, 0, lanes, 0, 64);
  EXPECT_EQ(o.fault, CtrlFaultKind::None) << "a jump no lane takes does not fault";
  CtrlPassIn trap = bra;
  trap.kind = CtrlKind::Trap;
  trap.exec = 0x100u;
  trap.imm = 1;
  u.step(trap, 0, lanes, 0, 64);
  o = u.step(none, 0, lanes, 0, 64);
  EXPECT_EQ(o.fault, CtrlFaultKind::Assert);
  EXPECT_EQ(o.faultLane, 8u);
}

// BRX/RET in the CTRL unit: the lowest exec lane with a bad target faults (nothing changes);
// good targets split the group, the lowest target's lanes going on with a redirect.
TEST(CtrlUnit, IndirectTargets) {
  CtrlUnit u(1, 1024);
  std::vector<uint32_t> lanes(1, kAll);
  const CtrlPassIn none;
  u.step(none, 0b1, lanes, 0, 128);
  u.step(none, 0, lanes, 0, 128);
  CtrlPassIn brx;
  brx.valid = true;
  brx.kind = CtrlKind::Indirect;
  brx.fetchStop = true;
  brx.pc = 3;
  brx.exec = kAll & ~0x1u; // lane 0 not taken: on at 4
  brx.targets.fill(80);
  brx.targets[5] = 12;  // misaligned
  brx.targets[9] = 128; // past the code
  u.step(brx, 0, lanes, 0, 128);
  CtrlOut o = u.step(none, 0, lanes, 0, 128);
  EXPECT_EQ(o.fault, CtrlFaultKind::BadJump);
  EXPECT_EQ(o.faultLane, 5u);
  EXPECT_EQ(o.faultCode, 12u);
  EXPECT_EQ(u.warp(0).group, kAll);
  brx.targets[5] = 16;
  brx.targets[9] = 16;
  u.step(brx, 0, lanes, 0, 128);
  o = u.step(none, 0, lanes, 0, 128);
  EXPECT_EQ(o.fault, CtrlFaultKind::None);
  ASSERT_TRUE(o.redirect);
  EXPECT_EQ(o.redirectPc, 2u); // lanes 5 and 9 at 16 / 8
  EXPECT_EQ(u.warp(0).group, (1u << 5) | (1u << 9));
  EXPECT_EQ(u.warp(0).pc[0], 4u);
  EXPECT_EQ(u.warp(0).pc[1], 10u);
  EXPECT_EQ(u.warp(0).runnable, kAll & ~((1u << 5) | (1u << 9)));
}

// CALL's link leaves through the return path: P passes from the cycle after the resolution, each
// held until taken; the last one releases the scoreboard entry.
TEST(CtrlUnit, CallLinkReturns) {
  CtrlUnit u(1, 1024, 2);
  std::vector<uint32_t> lanes(1, kAll);
  const CtrlPassIn none;
  u.step(none, 0b1, lanes, 0, 128);
  u.step(none, 0, lanes, 0, 128);
  CtrlPassIn call;
  call.valid = true;
  call.kind = CtrlKind::Call;
  call.link = true;
  call.fetchStop = true;
  call.pc = 5;
  call.exec = kLow;
  call.imm = 64;
  call.rd = 20;
  call.sbReg = 3;
  u.step(call, 0, lanes, 0, 128);
  CtrlOut o = u.step(none, 0, lanes, 0, 128); // resolves: redirect, no return yet
  EXPECT_TRUE(o.redirect);
  EXPECT_FALSE(o.ret);
  EXPECT_TRUE(u.returning());
  o = u.step(none, 0, lanes, 0, 128, false); // pass 0 offered, not taken
  ASSERT_TRUE(o.ret);
  EXPECT_EQ(o.retPass, 0u);
  EXPECT_EQ(o.retValue, 48u); // (5 + 1) * 8
  EXPECT_EQ(o.retLanes, kLow);
  EXPECT_EQ(o.retRd, 20u);
  EXPECT_FALSE(o.release);
  o = u.step(none, 0, lanes, 0, 128, true); // pass 0 taken
  EXPECT_EQ(o.retPass, 0u);
  EXPECT_FALSE(o.retLast);
  o = u.step(none, 0, lanes, 0, 128, true); // pass 1 taken: the release
  EXPECT_EQ(o.retPass, 1u);
  EXPECT_TRUE(o.retLast);
  ASSERT_TRUE(o.release);
  EXPECT_EQ(o.releaseSb, 3u);
  EXPECT_FALSE(u.returning());
}

} // namespace

// CTA barriers (emulator.md's rules) in the CTRL unit: block slot 1 holds warps 0 and 1.
namespace {
struct BarBench {
  CtrlUnit u{3, 1024, 1, 2};
  std::vector<uint32_t> lanes{kAll, kAll, kAll};
  CtrlOut o;
  BarBench() {
    o = u.step({}, 0b011, lanes, 0, 4096, true, 1);
    for (int c = 0; c < 2; ++c)
      o = u.step({}, 0, lanes, 0, 4096);
  }
  /// One instruction of warp `w` at `pc`: dispatch, then its resolution (returned).
  CtrlOut bar(unsigned w, uint32_t pc, uint32_t exec, BarFn fn, uint32_t idReg, uint32_t count,
              CtrlKind kind = CtrlKind::Bar) {
    CtrlPassIn in;
    in.valid = true;
    in.warp = w;
    in.kind = kind;
    in.fetchStop = true;
    in.pc = pc;
    in.exec = exec;
    in.barFn = fn;
    in.barId = 1;
    in.targets.fill(idReg);
    in.b.fill(count);
    u.step(in, 0, lanes, 0, 4096);
    return u.step({}, 0, lanes, 0, 4096);
  }
  void settle() {
    for (int c = 0; c < 10; ++c)
      o = u.step({}, 0, lanes, 0, 4096);
  }
};
} // namespace

TEST(CtrlUnit, BarSyncWaitsForTheBlock) {
  BarBench t;
  EXPECT_EQ(t.u.blockOf(0), 1u);
  // Warp 0 arrives at barrier 1 + 2 = 3 (count 0: the whole block): it waits, idle.
  CtrlOut o = t.bar(0, 4, kAll, BarFn::Sync, 2, 0);
  EXPECT_EQ(o.fault, CtrlFaultKind::None);
  EXPECT_FALSE(o.redirect);
  EXPECT_EQ(t.u.warp(0).group, 0u);
  EXPECT_EQ(t.u.warp(0).barWait, kAll);
  EXPECT_TRUE(t.u.idle(0));
  // Warp 1's low half arrives: not complete; its high half goes on (guard false).
  o = t.bar(1, 4, kLow, BarFn::Sync, 2, 0);
  EXPECT_EQ(t.u.warp(1).group, kHigh);
  EXPECT_EQ(t.u.warp(0).group, 0u);
  // The high half arrives: complete on arrival. Warp 1's lanes at pc 5 go on as the group at
  // once (redirect to 5); warp 0's become runnable and the pick forms its group at 5.
  o = t.bar(1, 4, kHigh, BarFn::Sync, 2, 0);
  ASSERT_TRUE(o.redirect);
  EXPECT_EQ(o.redirectWarp, 1u);
  EXPECT_EQ(o.redirectPc, 5u);
  EXPECT_EQ(t.u.warp(1).group, kAll);
  EXPECT_EQ(t.u.warp(0).runnable, kAll);
  EXPECT_EQ(t.u.warp(0).barWait, 0u);
  t.settle();
  EXPECT_EQ(t.u.warp(0).group, kAll);
  EXPECT_EQ(t.u.warp(0).groupPc, 5u);
  EXPECT_EQ(t.o.fault, CtrlFaultKind::None);
}

TEST(CtrlUnit, BarCountArriveAndExit) {
  BarBench t;
  // Count 48: warp 0 ARRIVEs with 32 lanes (no wait), warp 1's low half (16) completes it.
  CtrlOut o = t.bar(0, 2, kAll, BarFn::Arrive, 0, 48);
  EXPECT_EQ(t.u.warp(0).group, kAll);
  o = t.bar(1, 2, kLow, BarFn::Sync, 0, 48);
  EXPECT_EQ(t.u.warp(1).group, kAll) << "complete on arrival: the group stays";
  EXPECT_EQ(t.u.warp(1).barWait, 0u);
  // Count 0 with exits: warp 1 waits at barrier 1; warp 0's low half exits, then its high half
  // arrives (every lane of the block arrived or exited): released.
  o = t.bar(1, 3, kAll, BarFn::Sync, 0, 0);
  EXPECT_EQ(t.u.warp(1).barWait, kAll);
  o = t.bar(0, 3, kLow, BarFn::Sync, 0, 0, CtrlKind::Exit);
  EXPECT_EQ(t.u.warp(1).barWait, kAll) << "warp 0's high half has not arrived";
  o = t.bar(0, 4, kHigh, BarFn::Sync, 0, 0);
  EXPECT_EQ(t.u.warp(1).barWait, 0u);
  EXPECT_EQ(t.u.warp(1).runnable, kAll);
  EXPECT_EQ(t.u.warp(0).group, kHigh);
  // Warp 0 waits at barrier 1 (count 0); warp 1 exits entirely: the EXIT releases warp 0.
  t.settle();
  o = t.bar(0, 6, kHigh, BarFn::Sync, 0, 0);
  EXPECT_EQ(t.u.warp(0).barWait, kHigh);
  o = t.bar(1, 4, kAll, BarFn::Sync, 0, 0, CtrlKind::Exit);
  EXPECT_EQ(t.u.warp(0).barWait, 0u);
  EXPECT_EQ(t.u.warp(0).runnable, kHigh);
}

// BAR.RED: POPC/AND/OR over the arriving lanes' predicate, written at the release to rd of every
// warp's released RED lanes (one warp at a time, slot order), each warp's scoreboard entry
// released by its last pass (emulator.md, Block::release).
TEST(CtrlUnit, BarRedReducesAndReturns) {
  for (BarFn fn : {BarFn::RedPopc, BarFn::RedAnd, BarFn::RedOr}) {
    BarBench t;
    auto red = [&](unsigned w, uint32_t exec, uint32_t pred, uint8_t rd, unsigned sb) {
      CtrlPassIn in;
      in.valid = true;
      in.warp = w;
      in.kind = CtrlKind::Bar;
      in.fetchStop = true;
      in.pc = 4;
      in.exec = exec;
      in.barFn = fn;
      in.rd = rd;
      in.sbReg = sb;
      in.pred = pred;
      t.u.step(in, 0, t.lanes, 0, 4096);
      return t.u.step({}, 0, t.lanes, 0, 4096);
    };
    // Warp 0: all lanes, predicate on 5 of them; it waits with no result yet.
    CtrlOut o = red(0, kAll, 0x1f, 7, 2);
    EXPECT_FALSE(o.ret);
    EXPECT_FALSE(t.u.returning()) << "the entry stays held while the lanes wait";
    // Warp 1's low half has the predicate set everywhere except off-exec lanes; its high half
    // (not exec) goes on. Then the high half arrives with no predicate lane: complete.
    o = red(1, kLow, ~0u, 9, 5);
    EXPECT_FALSE(t.u.returning());
    o = red(1, kHigh, 0, 9, 5);
    EXPECT_TRUE(t.u.returning());
    const uint32_t want = fn == BarFn::RedPopc ? 5 + 16 : fn == BarFn::RedAnd ? 0 : 1;
    // Warp 0's result first (slot order), then warp 1's; the second cycle is not granted.
    o = t.u.step({}, 0, t.lanes, 0, 4096, true);
    ASSERT_TRUE(o.ret);
    EXPECT_EQ(o.retWarp, 0u);
    EXPECT_EQ(o.retRd, 7u);
    EXPECT_EQ(o.retLanes, kAll);
    EXPECT_EQ(o.retValue, want);
    ASSERT_TRUE(o.release);
    EXPECT_EQ(o.releaseWarp, 0u);
    EXPECT_EQ(o.releaseSb, 2u);
    o = t.u.step({}, 0, t.lanes, 0, 4096, false);
    ASSERT_TRUE(o.ret);
    EXPECT_EQ(o.retWarp, 1u);
    EXPECT_FALSE(o.release);
    o = t.u.step({}, 0, t.lanes, 0, 4096, true);
    ASSERT_TRUE(o.ret);
    EXPECT_EQ(o.retWarp, 1u);
    EXPECT_EQ(o.retRd, 9u);
    EXPECT_EQ(o.retLanes, kAll) << "both halves wait at the barrier: both written";
    EXPECT_EQ(o.retValue, want);
    ASSERT_TRUE(o.release);
    EXPECT_EQ(o.releaseSb, 5u);
    EXPECT_FALSE(t.u.returning());
    // A RED with no exec lane arrives nowhere; a return with no lanes releases its entry.
    t.settle();
    o = red(0, 0, ~0u, 3, 6);
    EXPECT_EQ(t.u.warp(0).barWait, 0u);
    o = t.u.step({}, 0, t.lanes, 0, 4096, true);
    ASSERT_TRUE(o.ret);
    EXPECT_EQ(o.retLanes, 0u);
    ASSERT_TRUE(o.release);
    EXPECT_EQ(o.releaseSb, 6u);
  }
}

TEST(CtrlUnit, BarFaultsAndBlockDeadlock) {
  BarBench t;
  // Id 14 + 1 = 15 is the last; 15 + 1 faults with the id and changes nothing.
  CtrlOut o = t.bar(0, 2, kHigh, BarFn::Sync, 15, 0);
  EXPECT_EQ(o.fault, CtrlFaultKind::BarrierRange);
  EXPECT_EQ(o.faultCode, 16u);
  EXPECT_EQ(o.faultLane, 16u);
  EXPECT_EQ(t.u.warp(0).group, kAll);
  // Both warps wait at different barriers (count 0): every warp of block 1 is idle. The cycle
  // after the second resolution reports the deadlock (warp 0, lane 0, its BAR's pc); warp 2
  // (block 0, still running) is not part of it.
  o = t.bar(0, 2, kAll, BarFn::Sync, 0, 0);
  EXPECT_EQ(o.fault, CtrlFaultKind::None);
  o = t.bar(1, 7, kAll, BarFn::Sync, 1, 0);
  EXPECT_EQ(o.fault, CtrlFaultKind::None);
  o = t.u.step({}, 0, t.lanes, 0, 4096);
  EXPECT_EQ(o.fault, CtrlFaultKind::DeadlockBar);
  EXPECT_EQ(o.faultWarp, 0u);
  EXPECT_EQ(o.faultLane, 0u);
  EXPECT_EQ(o.faultPc, 2u);
}

// WARPSYNC in the CTRL unit: halves that reach it at different pcs wait for each other and go on
// at their own pcs; an EXIT of the lanes waited for releases the waiters.
TEST(CtrlUnit, WarpsyncWaitsAndReleases) {
  BarBench t;
  CtrlOut o = t.bar(0, 1, kAll, BarFn::Sync, 0, 0, CtrlKind::Warpsync); // whole group: no wait
  EXPECT_EQ(t.u.warp(0).group, kAll);
  EXPECT_EQ(t.u.warp(0).warpsyncWait, 0u);
  // Split warp 0: low half to pc 8, high half on at 3.
  CtrlPassIn bra;
  bra.valid = true;
  bra.kind = CtrlKind::Bra;
  bra.fetchStop = true;
  bra.pc = 2;
  bra.exec = kLow;
  bra.imm = 64;
  t.u.step(bra, 0, t.lanes, 0, 4096);
  t.u.step({}, 0, t.lanes, 0, 4096);
  ASSERT_EQ(t.u.warp(0).group, kHigh);
  o = t.bar(0, 3, kHigh, BarFn::Sync, kAll, 0, CtrlKind::Warpsync); // waits for the low half
  EXPECT_EQ(t.u.warp(0).warpsyncWait, kHigh);
  EXPECT_EQ(t.u.warp(0).group, 0u);
  t.settle();
  ASSERT_EQ(t.u.warp(0).group, kLow);
  EXPECT_EQ(t.u.warp(0).groupPc, 8u);
  o = t.bar(0, 8, kLow, BarFn::Sync, kAll, 0, CtrlKind::Warpsync); // releases both
  EXPECT_EQ(t.u.warp(0).warpsyncWait, 0u);
  EXPECT_EQ(t.u.warp(0).group, kLow) << "the low half goes on at 9";
  EXPECT_EQ(t.u.warp(0).runnable, kHigh) << "the high half at its own pc, 4";
  EXPECT_EQ(t.u.warp(0).pc[16], 4u);
  // Warp 1: lanes 16-31 wait for every lane at 3; lanes 0-15 exit at 8: the waiters go.
  CtrlPassIn bra1 = bra;
  bra1.warp = 1;
  t.u.step(bra1, 0, t.lanes, 0, 4096);
  t.u.step({}, 0, t.lanes, 0, 4096);
  o = t.bar(1, 3, kHigh, BarFn::Sync, kAll, 0, CtrlKind::Warpsync);
  EXPECT_EQ(t.u.warp(1).warpsyncWait, kHigh);
  t.settle();
  ASSERT_EQ(t.u.warp(1).group, kLow);
  o = t.bar(1, 8, kLow, BarFn::Sync, 0, 0, CtrlKind::Exit);
  EXPECT_EQ(t.u.warp(1).warpsyncWait, 0u) << "the exited lanes are not waited for";
  EXPECT_EQ(t.u.warp(1).runnable, kHigh);
}

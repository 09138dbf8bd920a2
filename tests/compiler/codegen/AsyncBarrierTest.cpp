//===- AsyncBarrierTest.cpp - cp.async and mbarrier on the emulator ----------------===//
//
// cp.async of 4, 8 and 16 bytes with src-size zero-fill and ignore-src; mbarrier phases over four
// warps with test_wait on the state and try_wait.parity, arrive_drop shrinking the expected count,
// and a phase that also waits for transaction bytes (expect_tx, complete_tx).
//
//===----------------------------------------------------------------------===//

#include "Harness.h"

#include <algorithm>

using namespace wf;
using namespace wf::cgtest;

namespace {

// 64 threads. Thread t copies src[16t..16t+16) to shared four ways, then thread t writes the
// shared bytes of thread (t + 1) % 64 to out: full 16-byte copies (cp-size 16), 4 + 4 + 8 byte
// copies, and a 16-byte copy with src-size t % 17 (bytes from there on are zero), and one with
// ignore-src set for odd t (all zero).
const char *kCpAsyncPtx = R"PTX(
.version 8.0
.target sm_80
.address_size 64
.visible .entry cp(.param .u64 src, .param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<40>;
  .reg .b64 %rd<20>;
  .shared .align 16 .b8 full[1024];
  .shared .align 16 .b8 parts[1024];
  .shared .align 16 .b8 zfill[1024];
  .shared .align 16 .b8 ign[1024];
  ld.param.u64 %rd1, [src];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 16;
  add.s64 %rd4, %rd1, %rd3;
  shl.b32 %r2, %r1, 4;
  mov.u32 %r3, full;
  add.u32 %r4, %r3, %r2;
  cp.async.ca.shared.global [%r4], [%rd4], 16;
  mov.u32 %r5, parts;
  add.u32 %r6, %r5, %r2;
  cp.async.ca.shared.global [%r6], [%rd4], 4;
  cp.async.ca.shared.global.L2::128B [%r6+4], [%rd4+4], 4;
  cp.async.ca.shared.global [%r6+8], [%rd4+8], 8;
  cp.async.commit_group;
  mov.u32 %r7, zfill;
  add.u32 %r8, %r7, %r2;
  rem.u32 %r9, %r1, 17;
  cp.async.cg.shared.global [%r8], [%rd4], 16, %r9;
  mov.u32 %r10, ign;
  add.u32 %r11, %r10, %r2;
  and.b32 %r12, %r1, 1;
  setp.ne.u32 %p1, %r12, 0;
  cp.async.ca.shared.global [%r11], [%rd4], 8, %p1;
  cp.async.ca.shared.global [%r11+8], [%rd4+8], 8;
  cp.async.commit_group;
  cp.async.wait_group 0;
  bar.sync 0;
  add.u32 %r13, %r1, 1;
  and.b32 %r13, %r13, 63;
  shl.b32 %r14, %r13, 4;
  mul.wide.u32 %rd5, %r1, 64;
  add.s64 %rd6, %rd2, %rd5;
  add.u32 %r15, %r3, %r14;
  ld.shared.v2.u64 {%rd7, %rd8}, [%r15];
  st.global.v2.u64 [%rd6], {%rd7, %rd8};
  add.u32 %r16, %r5, %r14;
  ld.shared.v2.u64 {%rd7, %rd8}, [%r16];
  st.global.v2.u64 [%rd6+16], {%rd7, %rd8};
  add.u32 %r17, %r7, %r14;
  ld.shared.v2.u64 {%rd7, %rd8}, [%r17];
  st.global.v2.u64 [%rd6+32], {%rd7, %rd8};
  add.u32 %r18, %r10, %r14;
  ld.shared.v2.u64 {%rd7, %rd8}, [%r18];
  st.global.v2.u64 [%rd6+48], {%rd7, %rd8};
  ret;
}
)PTX";

TEST(AsyncBarrier, CpAsyncCopiesAndZeroFills) {
  Runner R;
  ASSERT_TRUE(R.compile(kCpAsyncPtx));
  std::vector<uint8_t> Src(64 * 16);
  for (size_t I = 0; I < Src.size(); ++I)
    Src[I] = uint8_t(I * 7 + 1) | 1; // never zero, so zero-fill is visible
  uint64_t Out = R.alloc(64 * 64);
  auto Res = R.launch("cp", {1, 1, 1}, {64, 1, 1}, Params().u64(R.upload(Src)).u64(Out));
  ASSERT_FALSE(Res.fault) << faultText(Res);
  auto O = R.download<uint8_t>(Out, 64 * 64);
  for (unsigned T = 0; T < 64; ++T) {
    unsigned From = (T + 1) % 64;
    for (unsigned B = 0; B < 16; ++B) {
      uint8_t S = Src[From * 16 + B];
      SCOPED_TRACE(testing::Message() << "thread " << T << " byte " << B);
      EXPECT_EQ(O[T * 64 + B], S);
      EXPECT_EQ(O[T * 64 + 16 + B], S);
      EXPECT_EQ(O[T * 64 + 32 + B], B < From % 17 ? S : 0);
      EXPECT_EQ(O[T * 64 + 48 + B], (B < 8 && From % 2) ? 0 : S);
    }
  }
}

// Four warps, seven phases of one mbarrier (count 128). In each round a thread writes
// tid * 1000 + round to a double-buffered slot, arrives, waits for the phase (test_wait on the
// state in even rounds, try_wait.parity in odd ones) and adds the slot of thread (tid + 37) % 96.
// In round 3 threads 96..127 arrive_drop and leave, so rounds 4..6 complete with 96 arrivals.
// Each arrival's pending_count goes to pend[round * 128 + tid].
const char *kPhasesPtx = R"PTX(
.version 8.0
.target sm_80
.address_size 64
.visible .entry phases(.param .u64 out, .param .u64 pend)
{
  .reg .pred %p<8>;
  .reg .b32 %r<40>;
  .reg .b64 %rd<20>;
  .shared .align 8 .b64 bar;
  .shared .align 4 .b32 data[256];
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd9, [pend];
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 mbarrier.init.shared.b64 [bar], 128;
  bar.sync 0;
  mov.u32 %r2, 0;
  mov.u32 %r3, 0;
  shl.b32 %r4, %r1, 2;
  mov.u32 %r5, data;
LOOP:
  and.b32 %r8, %r2, 1;
  mad.lo.u32 %r9, %r8, 512, %r5;
  add.u32 %r10, %r9, %r4;
  mad.lo.u32 %r11, %r1, 1000, %r2;
  st.shared.u32 [%r10], %r11;
  setp.eq.u32 %p2, %r2, 3;
  setp.ge.u32 %p3, %r1, 96;
  and.pred %p4, %p2, %p3;
  @%p4 bra DROP;
  mbarrier.arrive.shared.b64 %rd2, [bar];
  mbarrier.pending_count.b64 %r12, %rd2;
  mad.lo.u32 %r13, %r2, 128, %r1;
  mul.wide.u32 %rd3, %r13, 4;
  add.s64 %rd4, %rd9, %rd3;
  st.global.u32 [%rd4], %r12;
  setp.ne.u32 %p6, %r8, 0;
  @%p6 bra WAIT_PARITY;
WAIT_STATE:
  mbarrier.test_wait.shared.b64 %p5, [bar], %rd2;
  @!%p5 bra WAIT_STATE;
  bra.uni READ;
WAIT_PARITY:
  mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 %p5, [bar], %r8;
  @!%p5 bra WAIT_PARITY;
READ:
  add.u32 %r14, %r1, 37;
  rem.u32 %r14, %r14, 96;
  shl.b32 %r15, %r14, 2;
  add.u32 %r16, %r9, %r15;
  ld.shared.u32 %r17, [%r16];
  add.u32 %r3, %r3, %r17;
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p7, %r2, 7;
  @%p7 bra LOOP;
  bra.uni DONE;
DROP:
  mbarrier.arrive_drop.release.cta.shared.b64 _, [bar];
DONE:
  mul.wide.u32 %rd5, %r1, 4;
  add.s64 %rd6, %rd1, %rd5;
  st.global.u32 [%rd6], %r3;
  ret;
}
)PTX";

TEST(AsyncBarrier, MbarrierPhasesWaitsAndDrop) {
  Runner R;
  ASSERT_TRUE(R.compile(kPhasesPtx));
  uint64_t Out = R.alloc(128 * 4);
  std::vector<uint32_t> PendInit(7 * 128, 0xffffffffu);
  uint64_t Pend = R.upload(PendInit);
  auto Res = R.launch("phases", {1, 1, 1}, {128, 1, 1}, Params().u64(Out).u64(Pend));
  ASSERT_FALSE(Res.fault) << faultText(Res);
  auto O = R.download<uint32_t>(Out, 128);
  for (uint32_t T = 0; T < 128; ++T) {
    uint32_t Partner = (T + 37) % 96;
    uint32_t Rounds = T < 96 ? 7 : 3; // dropping threads leave before reading in round 3
    uint32_t Want = 0;
    for (uint32_t Rd = 0; Rd < Rounds; ++Rd)
      Want += Partner * 1000 + Rd;
    EXPECT_EQ(O[T], Want) << "thread " << T;
  }
  // Each arrival takes one from the pending count, so the counts the arrivals of a phase see
  // are count-1 .. 1 and, for the arrival that completes it, the reloaded count.
  auto P = R.download<uint32_t>(Pend, 7 * 128);
  for (uint32_t Rd = 0; Rd < 7; ++Rd) {
    if (Rd == 3)
      continue; // interleaved with the drops
    uint32_t N = Rd < 3 ? 128 : 96;
    std::vector<uint32_t> Seen;
    for (uint32_t T = 0; T < 128; ++T)
      if (P[Rd * 128 + T] != 0xffffffffu)
        Seen.push_back(P[Rd * 128 + T]);
    std::sort(Seen.begin(), Seen.end());
    ASSERT_EQ(Seen.size(), N) << "round " << Rd;
    for (uint32_t K = 0; K < N; ++K)
      EXPECT_EQ(Seen[K], K + 1) << "round " << Rd;
  }
}

// One warp, count 32. Lane 0 arrives with expect_tx of 100 bytes, the rest arrive plainly: the
// phase stays open until lanes 0..3 complete 25 bytes each.
const char *kTxPtx = R"PTX(
.version 8.0
.target sm_90
.address_size 64
.visible .entry tx(.param .u64 out)
{
  .reg .pred %p<8>;
  .reg .b32 %r<20>;
  .reg .b64 %rd<10>;
  .shared .align 8 .b64 bar;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, bar;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 mbarrier.init.shared::cta.b64 [%r2], 32;
  bar.warp.sync -1;
  @%p1 mbarrier.arrive.expect_tx.shared.b64 %rd2, [bar], 100;
  @!%p1 mbarrier.arrive.shared.b64 %rd2, [bar];
  bar.warp.sync -1;
  mbarrier.test_wait.shared.b64 %p2, [bar], %rd2;
  selp.u32 %r3, 1, 0, %p2;
  setp.lt.u32 %p3, %r1, 4;
  @%p3 mbarrier.complete_tx.shared.b64 [bar], 25;
  bar.warp.sync -1;
  mbarrier.test_wait.shared.b64 %p4, [bar], %rd2;
  selp.u32 %r4, 1, 0, %p4;
  mbarrier.test_wait.parity.shared.b64 %p5, [bar], 0;
  selp.u32 %r5, 1, 0, %p5;
  mbarrier.test_wait.parity.shared.b64 %p6, [bar], 1;
  selp.u32 %r6, 1, 0, %p6;
  mul.wide.u32 %rd3, %r1, 16;
  add.s64 %rd4, %rd1, %rd3;
  st.global.v4.u32 [%rd4], {%r3, %r4, %r5, %r6};
  ret;
}
)PTX";

TEST(AsyncBarrier, MbarrierWaitsForTransactionBytes) {
  Runner R;
  ASSERT_TRUE(R.compile(kTxPtx));
  uint64_t Out = R.alloc(32 * 16);
  auto Res = R.launch("tx", {1, 1, 1}, {32, 1, 1}, Params().u64(Out));
  ASSERT_FALSE(Res.fault) << faultText(Res);
  auto O = R.download<uint32_t>(Out, 32 * 4);
  for (uint32_t T = 0; T < 32; ++T) {
    EXPECT_EQ(O[4 * T], 0u) << "lane " << T << ": complete before the transaction bytes";
    EXPECT_EQ(O[4 * T + 1], 1u) << "lane " << T << ": not complete after them";
    EXPECT_EQ(O[4 * T + 2], 1u) << "lane " << T << ": phase 0 (parity 0) complete";
    EXPECT_EQ(O[4 * T + 3], 0u) << "lane " << T << ": phase 1 (parity 1) not complete";
  }
}

} // namespace

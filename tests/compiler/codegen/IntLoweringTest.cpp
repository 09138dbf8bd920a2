//===- IntLoweringTest.cpp - Multi-instruction integer lowerings on the emulator ----===//
//
// 64-bit bfe/bfi/bfind, sad, fns, dp4a/dp2a, atom.cas.b16 and atom.add.{f16,bf16,f16x2} (CAS loops
// on the containing word) and copysign, run on the emulator and checked against the hls reference
// functions (fns: a direct bit scan).
//
//===----------------------------------------------------------------------===//

#include "Harness.h"

#include "warpforge/hls/intops.h"

#include <cstring>

using namespace wf;
using namespace wf::cgtest;

namespace {

// Per thread i: a = A[i], b = B[i], p = P[i], l = L[i]; writes 14 64-bit results to out[14*i..].
const char *kBitsPtx = R"PTX(
.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 pa, .param .u64 pb, .param .u64 pp, .param .u64 pl)
{
  .reg .b32 %r<40>;
  .reg .b64 %rd<40>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [pa];
  ld.param.u64 %rd3, [pb];
  ld.param.u64 %rd4, [pp];
  ld.param.u64 %rd5, [pl];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd6, %r1, 8;
  mul.wide.u32 %rd7, %r1, 4;
  mul.wide.u32 %rd8, %r1, 112;
  add.s64 %rd2, %rd2, %rd6;
  add.s64 %rd3, %rd3, %rd6;
  add.s64 %rd4, %rd4, %rd7;
  add.s64 %rd5, %rd5, %rd7;
  add.s64 %rd1, %rd1, %rd8;
  ld.global.u64 %rd10, [%rd2];
  ld.global.u64 %rd11, [%rd3];
  ld.global.u32 %r2, [%rd4];
  ld.global.u32 %r3, [%rd5];
  bfe.u64 %rd12, %rd10, %r2, %r3;
  st.global.u64 [%rd1], %rd12;
  bfe.s64 %rd13, %rd10, %r2, %r3;
  st.global.u64 [%rd1+8], %rd13;
  bfi.b64 %rd14, %rd10, %rd11, %r2, %r3;
  st.global.u64 [%rd1+16], %rd14;
  bfind.u64 %r4, %rd10;
  bfind.s64 %r5, %rd10;
  bfind.shiftamt.s64 %r6, %rd11;
  cvt.u64.u32 %rd15, %r4;
  st.global.u64 [%rd1+24], %rd15;
  cvt.u64.u32 %rd16, %r5;
  st.global.u64 [%rd1+32], %rd16;
  cvt.u64.u32 %rd17, %r6;
  st.global.u64 [%rd1+40], %rd17;
  cvt.u32.u64 %r7, %rd10;
  cvt.u32.u64 %r8, %rd11;
  sad.u32 %r9, %r7, %r8, %r2;
  sad.s32 %r10, %r7, %r8, %r3;
  cvt.u64.u32 %rd18, %r9;
  st.global.u64 [%rd1+48], %rd18;
  cvt.u64.u32 %rd19, %r10;
  st.global.u64 [%rd1+56], %rd19;
  sad.s64 %rd20, %rd10, %rd11, %rd10;
  st.global.u64 [%rd1+64], %rd20;
  and.b32 %r11, %r2, 31;
  sub.s32 %r12, %r3, 20;
  fns.b32 %r13, %r7, %r11, %r12;
  cvt.u64.u32 %rd21, %r13;
  st.global.u64 [%rd1+72], %rd21;
  bfe.u64 %rd22, %rd10, 8, 40;
  st.global.u64 [%rd1+80], %rd22;
  bfi.b64 %rd23, %rd10, %rd11, 60, 10;
  st.global.u64 [%rd1+88], %rd23;
  dp4a.s32.u32 %r14, %r7, %r8, %r2;
  dp2a.hi.u32.s32 %r15, %r7, %r8, %r3;
  mov.b64 %rd24, {%r14, %r15};
  st.global.u64 [%rd1+96], %rd24;
  dp4a.u32.s32 %r16, %r8, %r7, %r2;
  dp2a.lo.s32.s32 %r17, %r8, %r7, %r3;
  mov.b64 %rd25, {%r16, %r17};
  st.global.u64 [%rd1+104], %rd25;
  ret;
}
)PTX";

uint32_t fnsRef(uint32_t Mask, uint32_t Base, int32_t Off) {
  if (Off == 0)
    return (Mask >> Base) & 1 ? Base : 0xffffffffu;
  int Step = Off > 0 ? 1 : -1;
  int N = Off > 0 ? Off : -Off;
  for (int B = int(Base); B >= 0 && B < 32; B += Step)
    if ((Mask >> B) & 1 && --N == 0)
      return uint32_t(B);
  return 0xffffffffu;
}

TEST(IntLowering, BitField64SadFnsDot) {
  Runner R;
  ASSERT_TRUE(R.compile(kBitsPtx));
  constexpr int N = 64;
  std::vector<uint64_t> A(N), B(N);
  std::vector<uint32_t> P(N), L(N);
  uint64_t S = 0x9e3779b97f4a7c15ull;
  auto Next = [&] {
    S ^= S << 13;
    S ^= S >> 7;
    S ^= S << 17;
    return S;
  };
  for (int I = 0; I < N; ++I) {
    A[I] = Next();
    B[I] = Next();
    if (I % 8 == 1)
      A[I] >>= (I % 50);
    if (I % 8 == 2)
      A[I] = ~(A[I] >> (I % 60));
    if (I == 3)
      A[I] = 0;
    if (I == 4)
      B[I] = ~0ull;
    P[I] = uint32_t(Next() % 80);
    L[I] = uint32_t(Next() % 80);
    if (I % 5 == 0)
      P[I] |= 0x100; // only the low 8 bits count
    if (I % 7 == 0)
      L[I] = 0;
  }
  uint64_t Out = R.alloc(N * 112);
  auto Res = R.launch(
      "k", {1, 1, 1}, {N, 1, 1},
      Params().u64(Out).u64(R.upload(A)).u64(R.upload(B)).u64(R.upload(P)).u64(R.upload(L)));
  ASSERT_FALSE(Res.fault) << faultText(Res);
  auto O = R.download<uint64_t>(Out, N * 14);
  using namespace hls;
  for (int I = 0; I < N; ++I) {
    const uint64_t *D = &O[I * 14];
    uint32_t A32 = uint32_t(A[I]), B32 = uint32_t(B[I]);
    EXPECT_EQ(D[0], bfe64(A[I], P[I], L[I], false)) << I;
    EXPECT_EQ(D[1], bfe64(A[I], P[I], L[I], true)) << I;
    EXPECT_EQ(D[2], bfi64(A[I], B[I], P[I], L[I])) << I;
    EXPECT_EQ(D[3], bfind64(A[I], false, false)) << I;
    EXPECT_EQ(D[4], bfind64(A[I], true, false)) << I;
    EXPECT_EQ(D[5], bfind64(B[I], true, true)) << I;
    EXPECT_EQ(D[6], sad32(A32, B32, P[I], false)) << I;
    EXPECT_EQ(D[7], sad32(A32, B32, L[I], true)) << I;
    EXPECT_EQ(D[8], sad64(A[I], B[I], A[I], true)) << I;
    EXPECT_EQ(D[9], fnsRef(A32, P[I] & 31, int32_t(L[I]) - 20)) << I;
    EXPECT_EQ(D[10], bfe64(A[I], 8, 40, false)) << I;
    EXPECT_EQ(D[11], bfi64(A[I], B[I], 60, 10)) << I;
    EXPECT_EQ(uint32_t(D[12]), dp4a(A32, B32, P[I], true, false)) << I;
    EXPECT_EQ(uint32_t(D[12] >> 32), dp2a(A32, B32, L[I], false, true, true)) << I;
    EXPECT_EQ(uint32_t(D[13]), dp4a(B32, A32, P[I], false, true)) << I;
    EXPECT_EQ(uint32_t(D[13] >> 32), dp2a(B32, A32, L[I], true, true, false)) << I;
  }
}

// Every thread does compare-and-swap on 16-bit slots: thread i repeatedly tries to advance
// slot i % 4 from v to v + 1 until it has done so 5 times; each slot ends at 8 * 5.
const char *kCas16Ptx = R"PTX(
.version 7.0
.target sm_70
.address_size 64
.visible .entry cas16(.param .u64 slots, .param .u64 olds)
{
  .reg .pred %p<4>;
  .reg .b16 %rs<8>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<10>;
  .shared .align 4 .b16 sh[4];
  ld.param.u64 %rd1, [slots];
  ld.param.u64 %rd9, [olds];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 3;
  mul.wide.u32 %rd2, %r2, 2;
  add.s64 %rd3, %rd1, %rd2;
  mov.u32 %r6, sh;
  shl.b32 %r7, %r2, 1;
  add.s32 %r6, %r6, %r7;
  setp.lt.u32 %p3, %r1, 4;
  mov.u16 %rs7, 0;
  @%p3 st.shared.u16 [%r6], %rs7;
  bar.sync 0;
  mov.u32 %r3, 0;
LOOP:
  ld.volatile.global.u16 %rs1, [%rd3];
  add.s16 %rs2, %rs1, 1;
  atom.global.cas.b16 %rs3, [%rd3], %rs1, %rs2;
  setp.ne.s16 %p1, %rs3, %rs1;
  @%p1 bra LOOP;
  atom.shared.cas.b16 %rs4, [%r6], %rs1, %rs2;
  atom.cas.b16 %rs5, [%rd3], %rs7, %rs2;
  add.s32 %r3, %r3, 1;
  setp.lt.u32 %p2, %r3, 5;
  @%p2 bra LOOP;
  cvt.u32.u16 %r4, %rs5;
  mul.wide.u32 %rd4, %r1, 4;
  add.s64 %rd5, %rd9, %rd4;
  st.global.u32 [%rd5], %r4;
  bar.sync 0;
  @%p3 ld.shared.u16 %rs6, [%r6];
  cvt.u32.u16 %r5, %rs6;
  add.s64 %rd6, %rd5, 128;
  @%p3 st.global.u32 [%rd6], %r5;
  ret;
}
)PTX";

TEST(IntLowering, AtomCas16) {
  Runner R;
  ASSERT_TRUE(R.compile(kCas16Ptx));
  // Slots 0..3 are the halves of two words; a sentinel after them must stay untouched.
  std::vector<uint16_t> Slots = {0, 0, 0, 0, 0xBEEF, 0xCAFE};
  uint64_t SlotsA = R.upload(Slots);
  uint64_t OldsA = R.alloc(64 * 4);
  auto Res = R.launch("cas16", {1, 1, 1}, {32, 1, 1}, Params().u64(SlotsA).u64(OldsA));
  ASSERT_FALSE(Res.fault) << faultText(Res);
  auto Got = R.download<uint16_t>(SlotsA, 6);
  for (int I = 0; I < 4; ++I)
    EXPECT_EQ(Got[I], 40) << I;
  EXPECT_EQ(Got[4], 0xBEEF);
  EXPECT_EQ(Got[5], 0xCAFE);
  auto Olds = R.download<uint32_t>(OldsA, 36);
  // atom.cas.b16 with compare 0 on a slot that is already non-zero returns the current value.
  for (int I = 0; I < 32; ++I)
    EXPECT_GT(Olds[I], 0u) << I;
  // Shared slots: each successful global round also bumped the shared slot when it still held
  // the old global value; every shared slot ends between 1 and 40.
  for (int I = 0; I < 4; ++I) {
    EXPECT_GE(Olds[32 + I], 1u) << I;
    EXPECT_LE(Olds[32 + I], 40u) << I;
  }
}

// Half-precision atomic adds: 32 threads add 1.0 to f16 slot i % 4 and bf16 slot i % 2 (each a
// halfword of a shared word) and (1.0, 2.0) to one f16x2 word; red adds 0.5 to f16 slot 4 and
// copysign is checked on the side (sign of a, magnitude of b).
const char *kHalfAtomPtx = R"PTX(
.version 7.0
.target sm_80
.address_size 64
.visible .entry hadd(.param .u64 h, .param .u64 b, .param .u64 p, .param .u64 o, .param .u64 c)
{
  .reg .pred %p<2>;
  .reg .b16 %rs<8>;
  .reg .b32 %r<10>;
  .reg .f32 %f<4>;
  .reg .f64 %fd<4>;
  .reg .b64 %rd<12>;
  ld.param.u64 %rd1, [h];
  ld.param.u64 %rd2, [b];
  ld.param.u64 %rd3, [p];
  ld.param.u64 %rd4, [o];
  ld.param.u64 %rd10, [c];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 3;
  mul.wide.u32 %rd5, %r2, 2;
  add.s64 %rd6, %rd1, %rd5;
  mov.b16 %rs1, 0x3C00;
  atom.global.add.noftz.f16 %rs2, [%rd6], %rs1;
  and.b32 %r3, %r1, 1;
  mul.wide.u32 %rd7, %r3, 2;
  add.s64 %rd8, %rd2, %rd7;
  mov.b16 %rs3, 0x3F80;
  atom.add.noftz.bf16 %rs4, [%rd8], %rs3;
  mov.b32 %r4, 0x40003C00;
  atom.global.add.noftz.f16x2 %r5, [%rd3], %r4;
  mov.b16 %rs5, 0x3800;
  red.global.add.noftz.f16 [%rd1+8], %rs5;
  cvt.u32.u16 %r6, %rs2;
  mul.wide.u32 %rd9, %r1, 4;
  add.s64 %rd9, %rd4, %rd9;
  st.global.u32 [%rd9], %r6;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra DONE;
  ld.global.f32 %f1, [%rd10];
  ld.global.f32 %f2, [%rd10+4];
  copysign.f32 %f3, %f1, %f2;
  st.global.f32 [%rd10+8], %f3;
  ld.global.f64 %fd1, [%rd10+16];
  ld.global.f64 %fd2, [%rd10+24];
  copysign.f64 %fd3, %fd1, %fd2;
  st.global.f64 [%rd10+32], %fd3;
DONE:
  ret;
}
)PTX";

TEST(IntLowering, HalfAtomicAddAndCopysign) {
  Runner R;
  ASSERT_TRUE(R.compile(kHalfAtomPtx));
  std::vector<uint16_t> H = {0, 0, 0, 0, 0, 0x1234};
  std::vector<uint16_t> B = {0, 0};
  std::vector<uint32_t> P = {0};
  std::vector<double> C = {0, 0, 0, 0, 0};
  float Cf[4] = {-1.0f, 2.5f, 0, 0};
  std::memcpy(C.data(), Cf, 16);
  C[2] = -0.0;
  C[3] = 3.0;
  uint64_t HA = R.upload(H), BA = R.upload(B), PA = R.upload(P), CA = R.upload(C);
  uint64_t OA = R.alloc(32 * 4);
  auto Res =
      R.launch("hadd", {1, 1, 1}, {32, 1, 1}, Params().u64(HA).u64(BA).u64(PA).u64(OA).u64(CA));
  ASSERT_FALSE(Res.fault) << faultText(Res);
  auto Hg = R.download<uint16_t>(HA, 6);
  for (int I = 0; I < 4; ++I)
    EXPECT_EQ(Hg[I], 0x4800) << I; // 8.0
  EXPECT_EQ(Hg[4], 0x4C00);        // 32 * 0.5 = 16.0
  EXPECT_EQ(Hg[5], 0x1234);        // the other half of slot 4's word stays
  auto Bg = R.download<uint16_t>(BA, 2);
  EXPECT_EQ(Bg[0], 0x4180); // bf16 16.0
  EXPECT_EQ(Bg[1], 0x4180);
  EXPECT_EQ(R.download<uint32_t>(PA, 1)[0], 0x54005000u); // (32.0, 64.0)
  // The old values each thread saw on its f16 slot are distinct: 0, 1, ..., 7.
  auto Olds = R.download<uint32_t>(OA, 32);
  for (int S = 0; S < 4; ++S) {
    uint32_t Seen = 0;
    for (int I = S; I < 32; I += 4) {
      uint16_t Ho = uint16_t(Olds[I]);
      int V = Ho == 0 ? 0 : 1 << ((Ho >> 10) - 15); // powers of two ...
      if (Ho != 0 && (Ho & 0x3ff))                  // ... or 3, 5, 6, 7
        V = int((1024 + (Ho & 0x3ff)) << ((Ho >> 10) - 15)) / 1024;
      Seen |= 1u << V;
    }
    EXPECT_EQ(Seen, 0xffu) << S;
  }
  auto Cg = R.download<double>(CA, 5);
  float Cr[4];
  std::memcpy(Cr, Cg.data(), 16);
  EXPECT_EQ(Cr[2], -2.5f);
  EXPECT_EQ(Cg[4], -3.0);
}

} // namespace

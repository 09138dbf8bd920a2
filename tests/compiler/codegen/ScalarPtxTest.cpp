//===- ScalarPtxTest.cpp - mul24, mad24, bmsk, szext, slct, cvt.pack, elect.sync ----===//
//
// Each instruction runs on the emulator over edge values and pseudo-random inputs and is compared
// with a reference written from the PTX ISA's definition of the instruction (its pseudo-code for
// bmsk and szext), not from the lowering.
//
//===----------------------------------------------------------------------===//

#include "Harness.h"

#include <cmath>
#include <cstring>

using namespace wf;
using namespace wf::cgtest;

namespace {

constexpr int kResults = 24; // 32-bit results per thread

// Per thread i: a = A[i], b = B[i], c = C[i]; writes kResults words to out[kResults*i..].
const char *kScalarPtx = R"PTX(
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 pa, .param .u64 pb, .param .u64 pc)
{
  .reg .b32 %r<60>;
  .reg .b64 %rd<20>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [pa];
  ld.param.u64 %rd3, [pb];
  ld.param.u64 %rd4, [pc];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mad.lo.s32 %r4, %r1, %r2, %r3;
  mul.wide.u32 %rd5, %r4, 4;
  mul.wide.u32 %rd6, %r4, 96;
  add.s64 %rd2, %rd2, %rd5;
  add.s64 %rd3, %rd3, %rd5;
  add.s64 %rd4, %rd4, %rd5;
  add.s64 %rd1, %rd1, %rd6;
  ld.global.u32 %r5, [%rd2];
  ld.global.u32 %r6, [%rd3];
  ld.global.u32 %r7, [%rd4];
  bmsk.clamp.b32 %r10, %r5, %r6;
  st.global.u32 [%rd1], %r10;
  bmsk.wrap.b32 %r11, %r5, %r6;
  st.global.u32 [%rd1+4], %r11;
  szext.clamp.s32 %r12, %r5, %r6;
  st.global.u32 [%rd1+8], %r12;
  szext.wrap.s32 %r13, %r5, %r6;
  st.global.u32 [%rd1+12], %r13;
  szext.clamp.u32 %r14, %r5, %r6;
  st.global.u32 [%rd1+16], %r14;
  szext.wrap.u32 %r15, %r5, %r6;
  st.global.u32 [%rd1+20], %r15;
  mul24.lo.s32 %r16, %r5, %r6;
  st.global.u32 [%rd1+24], %r16;
  mul24.hi.s32 %r17, %r5, %r6;
  st.global.u32 [%rd1+28], %r17;
  mul24.lo.u32 %r18, %r5, %r6;
  st.global.u32 [%rd1+32], %r18;
  mul24.hi.u32 %r19, %r5, %r6;
  st.global.u32 [%rd1+36], %r19;
  mad24.lo.s32 %r20, %r5, %r6, %r7;
  st.global.u32 [%rd1+40], %r20;
  mad24.hi.s32 %r21, %r5, %r6, %r7;
  st.global.u32 [%rd1+44], %r21;
  mad24.hi.sat.s32 %r22, %r5, %r6, %r7;
  st.global.u32 [%rd1+48], %r22;
  mad24.hi.u32 %r23, %r5, %r6, %r7;
  st.global.u32 [%rd1+52], %r23;
  slct.b32.s32 %r24, %r5, %r6, %r7;
  st.global.u32 [%rd1+56], %r24;
  slct.b32.f32 %r25, %r5, %r6, %r7;
  st.global.u32 [%rd1+60], %r25;
  slct.ftz.u32.f32 %r26, %r5, %r6, %r7;
  st.global.u32 [%rd1+64], %r26;
  cvt.pack.sat.u16.s32 %r27, %r5, %r6;
  st.global.u32 [%rd1+68], %r27;
  cvt.pack.sat.s16.s32 %r28, %r5, %r6;
  st.global.u32 [%rd1+72], %r28;
  cvt.pack.sat.u8.s32.b32 %r29, %r5, %r6, %r7;
  st.global.u32 [%rd1+76], %r29;
  cvt.pack.sat.s8.s32.b32 %r30, %r5, %r6, %r7;
  st.global.u32 [%rd1+80], %r30;
  mov.b64 %rd10, {%r5, %r6};
  mov.b64 %rd11, {%r6, %r7};
  slct.s64.s32 %rd12, %rd10, %rd11, %r7;
  st.global.u64 [%rd1+88], %rd12;
  bmsk.wrap.b32 %r31, 1, 2;
  st.global.u32 [%rd1+84], %r31;
  ret;
}
)PTX";

// --- references, from the PTX ISA definitions ------------------------------------------------

uint32_t bmskRef(uint32_t A, uint32_t B, bool Clamp) {
  auto Shl = [](uint32_t V, uint32_t N) { return N >= 32 ? 0u : V << N; };
  uint32_t A1 = A & 0x1f, B1 = B & 0x1f, Sum = A1 + B1;
  uint32_t Mask0 = Shl(~0u, A1), Mask1 = Shl(~0u, Sum);
  bool SumOvf = Sum >= 32, PosOvf = false, WidOvf = false;
  if (Clamp) {
    if (A >= 32) {
      PosOvf = true;
      Mask0 = 0;
    }
    if (B >= 32)
      WidOvf = true;
  }
  if (SumOvf || PosOvf || WidOvf)
    Mask1 = 0;
  else if (B1 == 0)
    Mask1 = ~0u;
  return Mask0 & ~Mask1;
}

uint32_t szextRef(uint32_t A, uint32_t B, bool Clamp, bool Signed) {
  uint32_t B1 = B & 0x1f;
  bool TooLarge = B >= 32 && Clamp;
  uint32_t Mask = TooLarge ? 0 : ~0u << B1;
  uint32_t SignPos = (B1 - 1) & 0x1f;
  bool SignBit = (B1 == 0 || TooLarge || !Signed) ? false : (A >> SignPos) & 1;
  return (A & ~Mask) | (SignBit ? Mask : 0);
}

int64_t sext24(uint32_t V) { return int64_t(int32_t(V << 8) >> 8); }

// t = a[23:0] * b[23:0] as a 48-bit value; lo: t[31:0], hi: t[47:16].
uint32_t mul24Ref(uint32_t A, uint32_t B, bool Hi, bool Signed) {
  uint64_t T = Signed ? uint64_t(sext24(A) * sext24(B)) : uint64_t(A & 0xffffff) * (B & 0xffffff);
  return Hi ? uint32_t(T >> 16) : uint32_t(T);
}

uint32_t mad24HiSatRef(uint32_t A, uint32_t B, uint32_t C) {
  int64_t S = int64_t(int32_t(mul24Ref(A, B, true, true))) + int64_t(int32_t(C));
  S = std::min<int64_t>(std::max<int64_t>(S, INT32_MIN), INT32_MAX);
  return uint32_t(int32_t(S));
}

uint32_t slctF32Ref(uint32_t A, uint32_t B, uint32_t C, bool Ftz) {
  if (Ftz && (C & 0x7f800000u) == 0)
    C &= 0x80000000u; // subnormal: sign-preserving zero
  float F;
  std::memcpy(&F, &C, 4);
  return F >= 0.0f ? A : B;
}

uint32_t packRef(uint32_t A, uint32_t B, uint32_t C, int Bits, bool Signed) {
  int64_t Lo = Signed ? -(int64_t(1) << (Bits - 1)) : 0;
  int64_t Hi = Signed ? (int64_t(1) << (Bits - 1)) - 1 : (int64_t(1) << Bits) - 1;
  auto Sat = [&](uint32_t V) {
    int64_t X = std::min(std::max(int64_t(int32_t(V)), Lo), Hi);
    return uint32_t(X) & ((1u << Bits) - 1);
  };
  uint32_t D = Sat(B) | Sat(A) << Bits;
  if (Bits == 8)
    D |= C << 16;
  return D;
}

TEST(ScalarPtx, Mul24Mad24BmskSzextSlctCvtPack) {
  Runner R;
  ASSERT_TRUE(R.compile(kScalarPtx));
  const uint32_t Edge[] = {0,          1,          2,          5,          16,         24,
                           31,         32,         33,         64,         0x7fffff,   0x800000,
                           0xffffff,   0x1000000,  0x7fffffff, 0x80000000, 0xffffffff, 0x807fffff,
                           0xdeadbeef, 0x12345678, 0xff800000, 0x7fc00000, 0x00000080, 0xffffff80};
  constexpr int NE = sizeof(Edge) / sizeof(Edge[0]);
  constexpr int Blocks = 4, Threads = 256, N = Blocks * Threads;
  std::vector<uint32_t> A(N), B(N), C(N);
  uint64_t S = 0x2545f4914f6cdd1dull;
  auto Next = [&] {
    S ^= S << 13;
    S ^= S >> 7;
    S ^= S << 17;
    return uint32_t(S >> 11);
  };
  for (int I = 0; I < N; ++I) {
    if (I < NE * NE) {
      A[I] = Edge[I % NE];
      B[I] = Edge[I / NE];
      C[I] = Edge[(I * 7 + 3) % NE];
    } else {
      A[I] = Next();
      B[I] = I % 3 ? Next() % 70 : Next(); // mostly small widths and positions
      C[I] = Next();
    }
  }
  uint64_t Out = R.alloc(N * kResults * 4);
  auto Res = R.launch("k", {Blocks, 1, 1}, {Threads, 1, 1},
                      Params().u64(Out).u64(R.upload(A)).u64(R.upload(B)).u64(R.upload(C)));
  ASSERT_FALSE(Res.fault) << faultText(Res);
  auto O = R.download<uint32_t>(Out, N * kResults);
  for (int I = 0; I < N; ++I) {
    const uint32_t *D = &O[I * kResults];
    uint32_t a = A[I], b = B[I], c = C[I];
    SCOPED_TRACE(testing::Message() << std::hex << "a=0x" << a << " b=0x" << b << " c=0x" << c);
    EXPECT_EQ(D[0], bmskRef(a, b, true));
    EXPECT_EQ(D[1], bmskRef(a, b, false));
    EXPECT_EQ(D[2], szextRef(a, b, true, true));
    EXPECT_EQ(D[3], szextRef(a, b, false, true));
    EXPECT_EQ(D[4], szextRef(a, b, true, false));
    EXPECT_EQ(D[5], szextRef(a, b, false, false));
    EXPECT_EQ(D[6], mul24Ref(a, b, false, true));
    EXPECT_EQ(D[7], mul24Ref(a, b, true, true));
    EXPECT_EQ(D[8], mul24Ref(a, b, false, false));
    EXPECT_EQ(D[9], mul24Ref(a, b, true, false));
    EXPECT_EQ(D[10], mul24Ref(a, b, false, true) + c);
    EXPECT_EQ(D[11], mul24Ref(a, b, true, true) + c);
    EXPECT_EQ(D[12], mad24HiSatRef(a, b, c));
    EXPECT_EQ(D[13], mul24Ref(a, b, true, false) + c);
    EXPECT_EQ(D[14], int32_t(c) >= 0 ? a : b);
    EXPECT_EQ(D[15], slctF32Ref(a, b, c, false));
    EXPECT_EQ(D[16], slctF32Ref(a, b, c, true));
    EXPECT_EQ(D[17], packRef(a, b, c, 16, false));
    EXPECT_EQ(D[18], packRef(a, b, c, 16, true));
    EXPECT_EQ(D[19], packRef(a, b, c, 8, false));
    EXPECT_EQ(D[20], packRef(a, b, c, 8, true));
    EXPECT_EQ(D[21], bmskRef(1, 2, false));
    uint64_t D64 = uint64_t(D[22]) | uint64_t(D[23]) << 32;
    uint64_t AB = uint64_t(a) | uint64_t(b) << 32, BC = uint64_t(b) | uint64_t(c) << 32;
    EXPECT_EQ(D64, int32_t(c) >= 0 ? AB : BC);
  }
  // The PTX ISA's own examples.
  EXPECT_EQ(bmskRef(1, 2, false), 0x6u);
  EXPECT_EQ(szextRef(0xffffffff, 0, false, false), 0u);
  EXPECT_EQ(packRef(1, 2, 0, 8, true), 0x0102u);
  EXPECT_EQ(packRef(3, 4, 0x0102, 8, true), 0x01020304u);
}

// Lanes in the member mask run elect.sync; the others skip it. Writes the elected lane (or
// 0xdead for lanes that skipped) and the predicate.
const char *kElectPtx = R"PTX(
.version 8.0
.target sm_90
.address_size 64
.visible .entry elect(.param .u64 out, .param .u32 mask)
{
  .reg .pred %p<4>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [mask];
  mov.u32 %r2, %laneid;
  mov.u32 %r9, %tid.x;
  mul.wide.u32 %rd2, %r9, 8;
  add.s64 %rd1, %rd1, %rd2;
  shr.u32 %r3, %r1, %r2;
  and.b32 %r3, %r3, 1;
  setp.eq.u32 %p1, %r3, 0;
  mov.u32 %r4, 0xdead;
  mov.u32 %r5, 7;
  @%p1 bra SKIP;
  elect.sync %r4|%p2, %r1;
  selp.u32 %r5, 1, 0, %p2;
SKIP:
  st.global.u32 [%rd1], %r4;
  st.global.u32 [%rd1+4], %r5;
  ret;
}
)PTX";

TEST(ScalarPtx, ElectSyncPicksTheLowestMember) {
  Runner R;
  ASSERT_TRUE(R.compile(kElectPtx));
  for (uint32_t Mask : {0xffffffffu, 0xf0f0f0f0u, 0x80000000u, 0x00010000u, 0x0000fffeu}) {
    uint64_t Out = R.alloc(64 * 8);
    auto Res = R.launch("elect", {1, 1, 1}, {64, 1, 1}, Params().u64(Out).u32(Mask));
    ASSERT_FALSE(Res.fault) << faultText(Res);
    auto O = R.download<uint32_t>(Out, 64 * 2);
    uint32_t Leader = uint32_t(__builtin_ctz(Mask));
    for (uint32_t T = 0; T < 64; ++T) {
      uint32_t Lane = T % 32;
      bool Member = (Mask >> Lane) & 1;
      SCOPED_TRACE(testing::Message() << std::hex << "mask 0x" << Mask << " thread " << std::dec << T);
      EXPECT_EQ(O[2 * T], Member ? Leader : 0xdeadu);
      EXPECT_EQ(O[2 * T + 1], Member ? uint32_t(Lane == Leader) : 7u);
    }
  }
}

// cvt.rna.tf32.f32 of values around rounding ties, against rounding of the value itself.
const char *kTf32Ptx = R"PTX(
.version 8.0
.target sm_80
.address_size 64
.visible .entry tf32(.param .u64 in, .param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
  ld.global.f32 %f1, [%rd4];
  cvt.rna.tf32.f32 %r2, %f1;
  st.global.u32 [%rd5], %r2;
  ret;
}
)PTX";

/// Round to 10 fraction bits, ties away from zero, from the value (tf32 has f32's exponent range).
uint32_t tf32Ref(uint32_t Bits) {
  float F;
  std::memcpy(&F, &Bits, 4);
  if (!std::isfinite(F))
    return Bits;
  double A = std::fabs(double(F));
  int Exp = 0;
  std::frexp(A, &Exp);                           // A = m * 2^Exp, m in [0.5, 1)
  double Ulp = std::ldexp(1.0, std::max(Exp - 1, -126) - 10);
  double R = std::floor(A / Ulp + 0.5) * Ulp;    // ties away from zero (A >= 0)
  float G = float(std::signbit(F) ? -R : R);
  uint32_t Out;
  std::memcpy(&Out, &G, 4);
  return Out;
}

TEST(ScalarPtx, CvtRnaTf32) {
  Runner R;
  ASSERT_TRUE(R.compile(kTf32Ptx));
  std::vector<uint32_t> In = {0x3f800000, 0x3f801000, 0x3f800fff, 0x3f803000, 0xbf801000, 0xbf800fff,
                              0x7f7ff000, 0x7f7fefff, 0x7f800000, 0xff800000, 0x7fc00001, 0x00000000,
                              0x80000000, 0x00001000, 0x00000fff, 0x00403000, 0x807ff000, 0x12345678,
                              0x40490fdb, 0xc0490fdb, 0x3eaaaaab, 0x00800000, 0x00ffffff, 0x4b7ff800};
  uint64_t Out = R.alloc(In.size() * 4);
  auto Res = R.launch("tf32", {1, 1, 1}, {uint32_t(In.size()), 1, 1},
                      Params().u64(R.upload(In)).u64(Out));
  ASSERT_FALSE(Res.fault) << faultText(Res);
  auto O = R.download<uint32_t>(Out, In.size());
  for (size_t K = 0; K < In.size(); ++K)
    EXPECT_EQ(O[K], tf32Ref(In[K])) << std::hex << "in 0x" << In[K];
}

} // namespace

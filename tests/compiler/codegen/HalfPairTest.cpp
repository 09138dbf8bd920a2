//===- HalfPairTest.cpp - Packed f16x2 add/sub/min/max/set/setp ------------===//
//
// cuda_fp16.hpp's __hadd2, __hmin2, __heq2, __hlt2 ... are inline asm on .f16x2 registers. The
// add/sub, min/max and set/setp lowerings once treated .f16x2 as a 32-bit integer (IADD, IMNMX,
// ISETP). Operands here are exactly representable halves, so every result is exact.
//
//===----------------------------------------------------------------------===//

#include "Harness.h"

#include <algorithm>
#include <bit>

using namespace wf;
using namespace wf::cgtest;

namespace {

const char *kHalfPairPtx = R"PTX(
.version 7.0
.target sm_80
.address_size 64

.visible .entry k(.param .u64 in, .param .u64 out)
{
  .reg .pred %p<3>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 8;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.v2.u32 {%r2, %r3}, [%rd4];
  add.f16x2 %r4, %r2, %r3;
  sub.f16x2 %r5, %r2, %r3;
  min.f16x2 %r6, %r2, %r3;
  max.f16x2 %r7, %r2, %r3;
  set.eq.u32.f16x2 %r8, %r2, %r3;
  set.lt.f16x2.f16x2 %r9, %r2, %r3;
  setp.lt.f16x2 %p1|%p2, %r2, %r3;
  selp.u32 %r10, 1, 0, %p1;
  selp.u32 %r11, 2, 0, %p2;
  or.b32 %r12, %r10, %r11;
  mul.lo.u32 %r13, %r1, 28;
  cvt.u64.u32 %rd5, %r13;
  add.s64 %rd5, %rd2, %rd5;
  st.global.u32 [%rd5], %r4;
  st.global.u32 [%rd5+4], %r5;
  st.global.u32 [%rd5+8], %r6;
  st.global.u32 [%rd5+12], %r7;
  st.global.u32 [%rd5+16], %r8;
  st.global.u32 [%rd5+20], %r9;
  st.global.u32 [%rd5+24], %r12;
  ret;
}
)PTX";

/// Half bits of a float that a half represents exactly (normal or zero).
uint16_t toHalf(float V) {
  uint32_t B = std::bit_cast<uint32_t>(V);
  uint16_t S = uint16_t((B >> 16) & 0x8000);
  if ((B & 0x7fffffff) == 0)
    return S;
  int E = int((B >> 23) & 0xff) - 127 + 15;
  return uint16_t(S | (E << 10) | ((B >> 13) & 0x3ff));
}
uint32_t pack(float Lo, float Hi) { return toHalf(Lo) | uint32_t(toHalf(Hi)) << 16; }

TEST(HalfPair, ArithmeticAndComparisonsPerHalf) {
  Runner R("default");
  ASSERT_TRUE(R.compile(kHalfPairPtx));
  const int N = 32;
  std::vector<float> A(2 * N), B(2 * N);
  std::vector<uint32_t> In(2 * N);
  for (int T = 0; T < N; ++T)
    for (int H = 0; H < 2; ++H) {
      A[2 * T + H] = float((T * 7 + H * 3) % 11 - 5) * 0.75f;
      B[2 * T + H] = (T + H) % 4 == 0 ? A[2 * T + H] : float((T * 5 + H) % 9 - 4) * 1.25f;
    }
  for (int T = 0; T < N; ++T) {
    In[2 * T] = pack(A[2 * T], A[2 * T + 1]);
    In[2 * T + 1] = pack(B[2 * T], B[2 * T + 1]);
  }
  uint64_t InA = R.upload(In), Out = R.alloc(N * 28);
  auto Res = R.launch("k", {1, 1, 1}, {N, 1, 1}, Params().u64(InA).u64(Out));
  ASSERT_FALSE(Res.fault) << faultText(Res);
  auto V = R.download<uint32_t>(Out, N * 7);
  for (int T = 0; T < N; ++T) {
    float A0 = A[2 * T], A1 = A[2 * T + 1], B0 = B[2 * T], B1 = B[2 * T + 1];
    const uint32_t *G = &V[T * 7];
    EXPECT_EQ(G[0], pack(A0 + B0, A1 + B1)) << "add " << T;
    EXPECT_EQ(G[1], pack(A0 - B0, A1 - B1)) << "sub " << T;
    EXPECT_EQ(G[2], pack(std::min(A0, B0), std::min(A1, B1))) << "min " << T;
    EXPECT_EQ(G[3], pack(std::max(A0, B0), std::max(A1, B1))) << "max " << T;
    EXPECT_EQ(G[4], (A0 == B0 ? 0xffffu : 0u) | (A1 == B1 ? 0xffff0000u : 0u)) << "set.eq " << T;
    EXPECT_EQ(G[5], pack(A0 < B0 ? 1.f : 0.f, A1 < B1 ? 1.f : 0.f)) << "set.lt " << T;
    EXPECT_EQ(G[6], uint32_t(A0 < B0) | uint32_t(A1 < B1) << 1) << "setp.lt " << T;
  }
}

} // namespace

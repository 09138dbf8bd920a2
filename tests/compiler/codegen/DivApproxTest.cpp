//===- DivApproxTest.cpp - div.approx.f32 (__fdividef) ---------------------===//
//
// PTX defines div.approx.f32 as a * (1/b), with the result for 2^126 < |b| < 2^128 given: 0, or
// NaN when a is infinite (the CUDA guide says the same of __fdividef). It was once lowered to the
// correctly rounded FDIV, which gives tiny nonzero quotients there; subnormal divisors must still
// divide exactly (a plain reciprocal overflows to infinity).
//
//===----------------------------------------------------------------------===//

#include "Harness.h"

#include <cmath>
#include <limits>

using namespace wf;
using namespace wf::cgtest;

namespace {

const char *kDivApproxPtx = R"PTX(
.version 7.0
.target sm_80
.address_size 64

.visible .entry k(.param .u64 a, .param .u64 b, .param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [a];
  ld.param.u64 %rd2, [b];
  ld.param.u64 %rd3, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd4, %r1, 4;
  add.s64 %rd5, %rd1, %rd4;
  add.s64 %rd6, %rd2, %rd4;
  add.s64 %rd7, %rd3, %rd4;
  ld.global.f32 %f1, [%rd5];
  ld.global.f32 %f2, [%rd6];
  div.approx.f32 %f3, %f1, %f2;
  st.global.f32 [%rd7], %f3;
  ret;
}
)PTX";

TEST(DivApprox, HugeDivisorsGiveZeroOrNaN) {
  Runner R("default");
  ASSERT_TRUE(R.compile(kDivApproxPtx));
  const float Inf = std::numeric_limits<float>::infinity();
  std::vector<float> A, B;
  for (float X : {1.0f, -3.5f, 1e30f, Inf, -Inf, 0.0f})
    for (float Y : {0x1.000002p126f, 0x1.8p126f, -0x1.fffffep127f, 3.0f, -0.75f}) {
      A.push_back(X);
      B.push_back(Y);
    }
  // Subnormal divisors keep their quotient (fmodf's nvcc code divides by them).
  for (float X : {0x1.8p-148f, -0x1p-149f, 1.0f}) {
    A.push_back(X);
    B.push_back(0x1p-149f);
  }
  uint32_t N = uint32_t(A.size());
  uint64_t AA = R.upload(A), BA = R.upload(B), Out = R.alloc(N * 4);
  auto Res = R.launch("k", {1, 1, 1}, {N, 1, 1}, Params().u64(AA).u64(BA).u64(Out));
  ASSERT_FALSE(Res.fault) << faultText(Res);
  auto V = R.download<float>(Out, N);
  for (uint32_t I = 0; I < N; ++I) {
    if (std::fabs(B[I]) > 0x1p126f) {
      if (std::isinf(A[I]))
        EXPECT_TRUE(std::isnan(V[I])) << A[I] << " / " << B[I] << " = " << V[I];
      else
        EXPECT_EQ(V[I], 0.0f) << A[I] << " / " << B[I];
    } else if (std::isinf(A[I]) || std::isinf(A[I] / B[I])) {
      EXPECT_EQ(V[I], A[I] / B[I]) << A[I] << " / " << B[I];
    } else {
      // Within the 2 ulp PTX allows.
      float Q = A[I] / B[I];
      EXPECT_LE(std::fabs(V[I] - Q), 2 * (std::nextafter(std::fabs(Q), Inf) - std::fabs(Q)))
          << A[I] << " / " << B[I];
    }
  }
}

} // namespace

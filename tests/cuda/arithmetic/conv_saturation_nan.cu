// WF-CHAPTER: arithmetic
// WF-FEATURES: arith.conv.saturation
// WF-DESCRIPTION: float/double-to-integer intrinsics outside the destination range clamp to its limits and float NaN converts to 0 (PTX cvt semantics that these intrinsics map to; observed on an H200); float-to-half overflow gives infinity (IEEE rn) and half-to-int clamps
#include "../common/check.h"
#include <cuda_fp16.h>
#include <climits>
#include <limits>
#include <vector>

struct Out { int i[4]; unsigned u[4]; long long ll[2]; unsigned long long ull[2]; int di; unsigned du; float h_of_big; int h2i; };

__global__ void sat(const float* in, Out* out, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  float f = in[k];
  Out o;
  o.i[0] = __float2int_rn(f); o.i[1] = __float2int_rz(f); o.i[2] = __float2int_rd(f); o.i[3] = __float2int_ru(f);
  o.u[0] = __float2uint_rn(f); o.u[1] = __float2uint_rz(f); o.u[2] = __float2uint_rd(f); o.u[3] = __float2uint_ru(f);
  o.ll[0] = __float2ll_rn(f); o.ll[1] = __float2ll_rz(f);
  o.ull[0] = __float2ull_rn(f); o.ull[1] = __float2ull_rz(f);
  o.di = __double2int_rz((double)f * 4.0); o.du = __double2uint_rn((double)f * 4.0);
  o.h_of_big = __half2float(__float2half_rn(f));
  o.h2i = __half2int_rz(__float2half_rz(f));
  out[k] = o;
}

template <class I> I clampi(long double v) {
  if (std::isnan(v)) return 0;
  if (v <= (long double)std::numeric_limits<I>::min()) return std::numeric_limits<I>::min();
  if (v >= (long double)std::numeric_limits<I>::max()) return std::numeric_limits<I>::max();
  return (I)v;
}

int main() {
  std::vector<float> in = {3e9f, -3e9f, 1e20f, -1e20f, 5e19f, INFINITY, -INFINITY, NAN, -NAN, 2147483648.0f, -2147483904.0f,
                           4294967296.0f, -0.5f, -1.0f, -100.0f, 9.3e18f, -9.3e18f, 1.9e19f, 70000.0f, -70000.0f, 65520.0f, 65519.0f};
  int n = (int)in.size();
  float* din; Out* dout;
  CHECK(cudaMalloc(&din, n * 4)); CHECK(cudaMalloc(&dout, n * sizeof(Out)));
  CHECK(cudaMemcpy(din, in.data(), n * 4, cudaMemcpyHostToDevice));
  sat<<<1, 32>>>(din, dout, n);
  CHECK_KERNEL();
  std::vector<Out> o(n);
  CHECK(cudaMemcpy(o.data(), dout, n * sizeof(Out), cudaMemcpyDeviceToHost));
  for (int k = 0; k < n; ++k) {
    long double f = in[k];
    long double rn = std::isnan(f) ? f : std::nearbyint(f), rz = std::isnan(f) ? f : std::trunc(f);
    long double rd = std::isnan(f) ? f : std::floor(f), ru = std::isnan(f) ? f : std::ceil(f);
    EXPECT_EQ(o[k].i[0], clampi<int>(rn), "__float2int_rn", k);
    EXPECT_EQ(o[k].i[1], clampi<int>(rz), "__float2int_rz", k);
    EXPECT_EQ(o[k].i[2], clampi<int>(rd), "__float2int_rd", k);
    EXPECT_EQ(o[k].i[3], clampi<int>(ru), "__float2int_ru", k);
    EXPECT_EQ(o[k].u[0], clampi<unsigned>(rn), "__float2uint_rn", k);
    EXPECT_EQ(o[k].u[1], clampi<unsigned>(rz), "__float2uint_rz", k);
    EXPECT_EQ(o[k].u[2], clampi<unsigned>(rd), "__float2uint_rd", k);
    EXPECT_EQ(o[k].u[3], clampi<unsigned>(ru), "__float2uint_ru", k);
    // 64-bit destinations: clamping checked; NaN is left out (not pinned down by the guides)
    if (!std::isnan(f)) {
      EXPECT_EQ(o[k].ll[0], clampi<long long>(rn), "__float2ll_rn", k);
      EXPECT_EQ(o[k].ll[1], clampi<long long>(rz), "__float2ll_rz", k);
      EXPECT_EQ(o[k].ull[0], clampi<unsigned long long>(rn), "__float2ull_rn", k);
      EXPECT_EQ(o[k].ull[1], clampi<unsigned long long>(rz), "__float2ull_rz", k);
    }
    long double d4 = f * 4;
    // double -> int of NaN is not pinned down either (an H200 gives 0x80000000 there, unlike float -> int)
    if (!std::isnan(f)) EXPECT_EQ(o[k].di, clampi<int>(std::isnan(d4) ? d4 : std::trunc(d4)), "__double2int_rz", k);
    if (!std::isnan(f)) EXPECT_EQ(o[k].du, clampi<unsigned>(std::isnan(d4) ? d4 : std::nearbyint(d4)), "__double2uint_rn", k);
    // float -> half rn: |f| >= 65520 overflows to infinity; NaN stays NaN
    float hw = std::isnan(f) ? NAN : (std::fabs(f) >= 65520.0L ? std::copysign(INFINITY, (float)f) : 0.0f);
    if (std::isnan(f) || std::fabs(f) >= 65520.0L) EXPECT_EQ(o[k].h_of_big, hw, "__float2half_rn overflow", k);
    // float -> half rz saturates to the largest finite half (65504), then half -> int
    // (infinity stays infinite under rz, and then clamps to the int range)
    if (!std::isnan(f) && std::fabs(f) >= 65504.0L)
      EXPECT_EQ(o[k].h2i, std::isinf(f) ? (f > 0 ? INT_MAX : INT_MIN) : (f > 0 ? 65504 : -65504), "__float2half_rz/__half2int_rz", k);
  }
  return wf::finish();
}

// WF-CHAPTER: arithmetic
// WF-FEATURES: arith.conv.float2int, arith.conv.float2uint, arith.conv.float2ll, arith.conv.float2ull, arith.conv.c_casts
// WF-DESCRIPTION: __float2int/uint/ll/ull in all four rounding modes (rn ties-to-even, rz, rd, ru) and C casts, on ties, negatives, and values up to the edges of each destination range
#include "../common/check.h"
#include <vector>

struct Out { int i[4]; unsigned u[4]; long long ll[4]; unsigned long long ull[4]; int ci; long long cll; };

__global__ void conv(const float* in, Out* out, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  float f = in[k];
  Out o = {};
  float fa = fabsf(f);
  if (fa < 2147483648.0f) {
    o.i[0] = __float2int_rn(f); o.i[1] = __float2int_rz(f); o.i[2] = __float2int_rd(f); o.i[3] = __float2int_ru(f);
    o.ci = (int)f;
  }
  if (f >= 0.0f && f < 4294967296.0f) {
    o.u[0] = __float2uint_rn(f); o.u[1] = __float2uint_rz(f); o.u[2] = __float2uint_rd(f); o.u[3] = __float2uint_ru(f);
  }
  if (fa < 9223372036854775808.0f) {
    o.ll[0] = __float2ll_rn(f); o.ll[1] = __float2ll_rz(f); o.ll[2] = __float2ll_rd(f); o.ll[3] = __float2ll_ru(f);
    o.cll = (long long)f;
  }
  if (f >= 0.0f && f < 18446744073709551616.0f) {
    o.ull[0] = __float2ull_rn(f); o.ull[1] = __float2ull_rz(f); o.ull[2] = __float2ull_rd(f); o.ull[3] = __float2ull_ru(f);
  }
  out[k] = o;
}

static long double rnd(long double x, int m) {
  switch (m) { case 0: return std::nearbyint(x); case 1: return std::trunc(x); case 2: return std::floor(x); default: return std::ceil(x); }
}

int main() {
  std::vector<float> in;
  for (int k = -40; k <= 40; ++k) in.push_back(k * 0.25f);             // .25/.5/.75 and ties
  for (int k = -20; k <= 20; ++k) in.push_back(k + 0.5f);              // all ties
  const float edges[] = {2147483520.0f, -2147483648.0f, 4294967040.0f, 16777216.0f, 16777215.0f, 8388607.5f, -8388607.5f,
                         8388608.5f /* rounds to even in float */, 9.2233715e18f, -9.2233720e18f, 1.8446743e19f,
                         1e-30f, -1e-30f, 0.49999997f, -0.49999997f, 0.5f, -0.5f, 1.5f, -1.5f, 2.5f, -2.5f, 0.0f, -0.0f};
  for (float e : edges) in.push_back(e);
  wf::Rng r(21);
  for (int k = 0; k < 600; ++k) in.push_back(r.uniform(-1e6f, 1e6f));
  for (int k = 0; k < 300; ++k) in.push_back(r.uniform(-3e9f, 3e9f));
  for (int k = 0; k < 300; ++k) in.push_back(std::ldexp(r.uniform(-1.0f, 1.0f), r.range(0, 63)));
  for (int k = 0; k < 200; ++k) in.push_back(r.uniform(-8.0f, 8.0f));
  int n = (int)in.size();
  float* din; Out* dout;
  CHECK(cudaMalloc(&din, n * sizeof(float))); CHECK(cudaMalloc(&dout, n * sizeof(Out)));
  CHECK(cudaMemcpy(din, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  conv<<<(n + 127) / 128, 128>>>(din, dout, n);
  CHECK_KERNEL();
  std::vector<Out> o(n);
  CHECK(cudaMemcpy(o.data(), dout, n * sizeof(Out), cudaMemcpyDeviceToHost));
  const char* names[4] = {"rn", "rz", "rd", "ru"};
  char what[64];
  for (int k = 0; k < n; ++k) {
    long double f = in[k], fa = std::fabs(f);
    for (int m = 0; m < 4; ++m) {
      long double w = rnd(f, m);
      if (fa < 2147483648.0L && w <= 2147483647.0L && w >= -2147483648.0L) { snprintf(what, sizeof what, "__float2int_%s", names[m]); EXPECT_EQ(o[k].i[m], (int)w, what, k); }
      if (f >= 0 && f < 4294967296.0L && w <= 4294967295.0L) { snprintf(what, sizeof what, "__float2uint_%s", names[m]); EXPECT_EQ(o[k].u[m], (unsigned)w, what, k); }
      if (fa < 9223372036854775808.0L && std::fabs(w) < 9223372036854775808.0L) { snprintf(what, sizeof what, "__float2ll_%s", names[m]); EXPECT_EQ(o[k].ll[m], (long long)w, what, k); }
      if (f >= 0 && f < 18446744073709551616.0L && w < 18446744073709551616.0L) { snprintf(what, sizeof what, "__float2ull_%s", names[m]); EXPECT_EQ(o[k].ull[m], (unsigned long long)w, what, k); }
    }
    if (fa < 2147483648.0L) EXPECT_EQ(o[k].ci, (int)std::trunc(f), "(int)float", k);
    if (fa < 9223372036854775808.0L) EXPECT_EQ(o[k].cll, (long long)std::trunc(f), "(long long)float", k);
  }
  return wf::finish();
}

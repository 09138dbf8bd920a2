// WF-CHAPTER: arithmetic
// WF-FEATURES: arith.conv.int2float, arith.conv.uint2float, arith.conv.ll2float, arith.conv.ull2float, arith.conv.ll2double, arith.conv.ull2double, arith.conv.int2double, arith.conv.c_casts
// WF-DESCRIPTION: integer-to-floating conversions in all four rounding modes (__int2float_rX, __uint2float_rX, __ll2float_rX, __ull2float_rX, __ll2double_rX, __ull2double_rX) plus exact __int2double_rn/__uint2double_rn and C casts, checked against exact long double values
#include "../common/check.h"
#include <vector>

struct Out { float i2f[4], u2f[4], ll2f[4], ull2f[4]; double ll2d[4], ull2d[4], i2d, u2d; float ci; double cll; };

__global__ void conv(const long long* in, Out* out, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  long long v = in[k];
  int i = (int)v;
  unsigned u = (unsigned)v;
  unsigned long long uv = (unsigned long long)v;
  Out o;
  o.i2f[0] = __int2float_rn(i); o.i2f[1] = __int2float_rz(i); o.i2f[2] = __int2float_rd(i); o.i2f[3] = __int2float_ru(i);
  o.u2f[0] = __uint2float_rn(u); o.u2f[1] = __uint2float_rz(u); o.u2f[2] = __uint2float_rd(u); o.u2f[3] = __uint2float_ru(u);
  o.ll2f[0] = __ll2float_rn(v); o.ll2f[1] = __ll2float_rz(v); o.ll2f[2] = __ll2float_rd(v); o.ll2f[3] = __ll2float_ru(v);
  o.ull2f[0] = __ull2float_rn(uv); o.ull2f[1] = __ull2float_rz(uv); o.ull2f[2] = __ull2float_rd(uv); o.ull2f[3] = __ull2float_ru(uv);
  o.ll2d[0] = __ll2double_rn(v); o.ll2d[1] = __ll2double_rz(v); o.ll2d[2] = __ll2double_rd(v); o.ll2d[3] = __ll2double_ru(v);
  o.ull2d[0] = __ull2double_rn(uv); o.ull2d[1] = __ull2double_rz(uv); o.ull2d[2] = __ull2double_rd(uv); o.ull2d[3] = __ull2double_ru(uv);
  o.i2d = __int2double_rn(i); o.u2d = __uint2double_rn(u);
  o.ci = (float)i; o.cll = (double)v;
  out[k] = o;
}

int main() {
#ifndef __CUDA_ARCH__  // a host-only check: clang's device pass has a 64-bit long double
  static_assert(LDBL_MANT_DIG >= 64, "needs an extended long double");
#endif
  std::vector<long long> in = {0, 1, -1, 16777216, 16777217, 16777219, -16777217, 2147483647, -2147483647 - 1, 33554435,
                               (1LL << 53) + 1, (1LL << 53) + 3, -(1LL << 53) - 1, 0x7fffffffffffffffLL, (long long)0x8000000000000000ull,
                               (long long)0xffffffffffffffffull, (long long)0xfffffffffffff801ull, 0x7ffffffffffffc00LL, 0x7ffffffffffffe00LL};
  wf::Rng r(99);
  for (int k = 0; k < 800; ++k) in.push_back((long long)r.next64());
  for (int k = 0; k < 400; ++k) in.push_back((long long)(int)r.next());
  for (int k = 0; k < 200; ++k) in.push_back((long long)(r.next64() >> r.range(1, 40)));
  int n = (int)in.size();
  long long* din; Out* dout;
  CHECK(cudaMalloc(&din, n * 8)); CHECK(cudaMalloc(&dout, n * sizeof(Out)));
  CHECK(cudaMemcpy(din, in.data(), n * 8, cudaMemcpyHostToDevice));
  conv<<<(n + 127) / 128, 128>>>(din, dout, n);
  CHECK_KERNEL();
  std::vector<Out> o(n);
  CHECK(cudaMemcpy(o.data(), dout, n * sizeof(Out), cudaMemcpyDeviceToHost));
  char what[64];
  for (int k = 0; k < n; ++k) {
    long long v = in[k];
    int i = (int)v; unsigned u = (unsigned)v; unsigned long long uv = (unsigned long long)v;
    for (int m = 0; m < 4; ++m) {
      const char* mn = wf::mode_name(m);
      snprintf(what, sizeof what, "__int2float_%s", mn);
      EXPECT_ROUNDED(o[k].i2f[m], m, wf::cmp_exact((long double)i), i, what, k);
      snprintf(what, sizeof what, "__uint2float_%s", mn);
      EXPECT_ROUNDED(o[k].u2f[m], m, wf::cmp_exact((long double)u), u, what, k);
      snprintf(what, sizeof what, "__ll2float_%s", mn);
      EXPECT_ROUNDED(o[k].ll2f[m], m, wf::cmp_exact((long double)v), v, what, k);
      snprintf(what, sizeof what, "__ull2float_%s", mn);
      EXPECT_ROUNDED(o[k].ull2f[m], m, wf::cmp_exact((long double)uv), uv, what, k);
      snprintf(what, sizeof what, "__ll2double_%s", mn);
      EXPECT_ROUNDED(o[k].ll2d[m], m, wf::cmp_exact((long double)v), v, what, k);
      snprintf(what, sizeof what, "__ull2double_%s", mn);
      EXPECT_ROUNDED(o[k].ull2d[m], m, wf::cmp_exact((long double)uv), uv, what, k);
    }
    EXPECT_EQ(o[k].i2d, (double)i, "__int2double_rn", k);
    EXPECT_EQ(o[k].u2d, (double)u, "__uint2double_rn", k);
    EXPECT_EQ(o[k].ci, (float)i, "(float)int", k);
    EXPECT_EQ(o[k].cll, (double)v, "(double)long long", k);
  }
  return wf::finish();
}

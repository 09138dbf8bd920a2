// WF-CHAPTER: arithmetic
// WF-FEATURES: arith.half.conversions, arith.half.conv_rounding, arith.half.int_conversions, arith.half.reinterpret
// WF-DESCRIPTION: cuda_fp16.h conversions: __float2half_rn/rz/rd/ru (normals, subnormals, ties), __double2half, __half2float (exact), half2 packing, __half2int/uint/short/ll_rX and __int2half/uint2half/short2half/ll2half_rX in all modes, __half_as_ushort/__ushort_as_half
#include "../common/check.h"
#include <cuda_fp16.h>
#include <vector>

// ---- host half helpers (independent of cuda_fp16.h's host code) ----
static long double h2ld(unsigned short b) {
  int s = b >> 15, e = (b >> 10) & 31, m = b & 1023;
  long double v = e == 0 ? std::ldexp((long double)m, -24) : e == 31 ? (m ? NAN : INFINITY) : std::ldexp((long double)(1024 + m), e - 25);
  return s ? -v : v;
}
static unsigned short h_up(unsigned short b) { return (b & 0x8000) ? (b == 0x8000 ? 0x0001 : b - 1) : b + 1; }
static unsigned short h_down(unsigned short b) { return (b & 0x8000) ? b + 1 : (b == 0 ? 0x8001 : b - 1); }
template <class Cmp> static bool half_ok(unsigned short got, int mode, Cmp cmp) {
  if (((got >> 10) & 31) == 31 && (got & 1023)) return false;  // NaN
  if (mode == wf::RN && (got & 0x7fff) == 0x7c00)                // rn overflows to infinity from |x| >= 65520
    return (got & 0x8000) ? cmp(-65520.0L) >= 0 : cmp(65520.0L) <= 0;
  return wf::rounded_ok(h2ld(got), h2ld(h_down(got)), h2ld(h_up(got)), (got & 1) == 0, mode, cmp);
}

struct Out {
  unsigned short f2h[4], d2h, i2h[4], u2h[4], s2h[4], ll2h[4];
  float back, lo, hi;
  int h2i[4]; unsigned h2u[4]; short h2s[4]; long long h2ll[4];
  unsigned short asu; short ass; unsigned short fromu, phi;
};

__global__ void conv(const float* fin, const double* din, const long long* iin, Out* out, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  float f = fin[k];
  long long v = iin[k];
  Out o;
  o.f2h[0] = __half_as_ushort(__float2half_rn(f)); o.f2h[1] = __half_as_ushort(__float2half_rz(f));
  o.f2h[2] = __half_as_ushort(__float2half_rd(f)); o.f2h[3] = __half_as_ushort(__float2half_ru(f));
  o.d2h = __half_as_ushort(__double2half(din[k]));
  int i = (int)v; unsigned u = (unsigned)v; short s = (short)v;
  o.i2h[0] = __half_as_ushort(__int2half_rn(i)); o.i2h[1] = __half_as_ushort(__int2half_rz(i));
  o.i2h[2] = __half_as_ushort(__int2half_rd(i)); o.i2h[3] = __half_as_ushort(__int2half_ru(i));
  o.u2h[0] = __half_as_ushort(__uint2half_rn(u)); o.u2h[1] = __half_as_ushort(__uint2half_rz(u));
  o.u2h[2] = __half_as_ushort(__uint2half_rd(u)); o.u2h[3] = __half_as_ushort(__uint2half_ru(u));
  o.s2h[0] = __half_as_ushort(__short2half_rn(s)); o.s2h[1] = __half_as_ushort(__short2half_rz(s));
  o.s2h[2] = __half_as_ushort(__short2half_rd(s)); o.s2h[3] = __half_as_ushort(__short2half_ru(s));
  o.ll2h[0] = __half_as_ushort(__ll2half_rn(v)); o.ll2h[1] = __half_as_ushort(__ll2half_rz(v));
  o.ll2h[2] = __half_as_ushort(__ll2half_rd(v)); o.ll2h[3] = __half_as_ushort(__ll2half_ru(v));
  __half h = __float2half_rn(f);
  o.back = __half2float(h);
  __half2 p = __floats2half2_rn(f, -f * 0.5f);
  float2 pf = __half22float2(p);
  o.lo = pf.x; o.hi = __high2float(__float2half2_rn(f));
  o.phi = __half_as_ushort(__high2half(p));
  o.h2i[0] = __half2int_rn(h); o.h2i[1] = __half2int_rz(h); o.h2i[2] = __half2int_rd(h); o.h2i[3] = __half2int_ru(h);
  __half ha = __habs(h);
  o.h2u[0] = __half2uint_rn(ha); o.h2u[1] = __half2uint_rz(ha); o.h2u[2] = __half2uint_rd(ha); o.h2u[3] = __half2uint_ru(ha);
  __half hs = __float2half_rn(fminf(fmaxf(f, -32000.0f), 32000.0f));
  o.h2s[0] = __half2short_rn(hs); o.h2s[1] = __half2short_rz(hs); o.h2s[2] = __half2short_rd(hs); o.h2s[3] = __half2short_ru(hs);
  o.h2ll[0] = __half2ll_rn(h); o.h2ll[1] = __half2ll_rz(h); o.h2ll[2] = __half2ll_rd(h); o.h2ll[3] = __half2ll_ru(h);
  o.asu = __half_as_ushort(h); o.ass = __half_as_short(h);
  o.fromu = __half_as_ushort(__ushort_as_half((unsigned short)(o.asu ^ 0x8000)));
  out[k] = o;
}

static long double rnd(long double x, int m) {
  switch (m) { case 0: return std::nearbyint(x); case 1: return std::trunc(x); case 2: return std::floor(x); default: return std::ceil(x); }
}

int main() {
  std::vector<float> fin = {0.0f, -0.0f, 1.0f, -1.0f, 65504.0f, -65504.0f, 65500.0f, 0x1p-24f, 0x1p-25f, 0x1.8p-25f, 0x1p-26f,
                            0x1p-14f, 0x1.ff8p-15f, 1.0f + 0x1p-11f, 1.0f + 0x1p-11f + 0x1p-20f, 1.0f + 3 * 0x1p-11f, 2049.0f, 2051.0f,
                            3.14159265f, -2.71828183f, 1e-8f, 6e-8f, 0.5f, 1.5f, 2.5f, -2.5f, 1000.5f, 1001.5f};
  wf::Rng r(77);
  for (int k = 0; k < 500; ++k) fin.push_back(r.uniform(-60000.0f, 60000.0f));
  for (int k = 0; k < 500; ++k) fin.push_back(std::ldexp(r.uniform(-1.0f, 1.0f), r.range(-26, 15)));
  int n = (int)fin.size();
  std::vector<double> din(n);
  std::vector<long long> iin(n);
  for (int k = 0; k < n; ++k) {
    din[k] = (double)fin[k] * (1.0 + 0x1p-40);  // a double that is not a float
    iin[k] = (k % 3 == 0) ? (long long)(int)r.next() : (k % 3 == 1) ? (long long)r.range(-70000, 70000) : (long long)r.next64();
  }
  float* dfin; double* ddin; long long* diin; Out* dout;
  CHECK(cudaMalloc(&dfin, n * 4)); CHECK(cudaMalloc(&ddin, n * 8)); CHECK(cudaMalloc(&diin, n * 8)); CHECK(cudaMalloc(&dout, n * sizeof(Out)));
  CHECK(cudaMemcpy(dfin, fin.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(ddin, din.data(), n * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(diin, iin.data(), n * 8, cudaMemcpyHostToDevice));
  conv<<<(n + 127) / 128, 128>>>(dfin, ddin, diin, dout, n);
  CHECK_KERNEL();
  std::vector<Out> o(n);
  CHECK(cudaMemcpy(o.data(), dout, n * sizeof(Out), cudaMemcpyDeviceToHost));
  char what[64];
  auto expect_half = [&](unsigned short got, int mode, long double exact, const char* name, int k) {
    if (half_ok(got, mode, wf::cmp_exact(exact))) return;
    if (wf::report(__FILE__, __LINE__, name, k))
      printf("got half 0x%04x (%.10Lg), exact %.17Lg, mode %s\n", got, h2ld(got), exact, wf::mode_name(mode));
  };
  for (int k = 0; k < n; ++k) {
    long long v = iin[k];
    for (int m = 0; m < 4; ++m) {
      const char* mn = wf::mode_name(m);
      snprintf(what, sizeof what, "__float2half_%s", mn); expect_half(o[k].f2h[m], m, fin[k], what, k);
      snprintf(what, sizeof what, "__int2half_%s", mn); expect_half(o[k].i2h[m], m, (long double)(int)v, what, k);
      snprintf(what, sizeof what, "__uint2half_%s", mn); expect_half(o[k].u2h[m], m, (long double)(unsigned)v, what, k);
      snprintf(what, sizeof what, "__short2half_%s", mn); expect_half(o[k].s2h[m], m, (long double)(short)v, what, k);
      snprintf(what, sizeof what, "__ll2half_%s", mn); expect_half(o[k].ll2h[m], m, (long double)v, what, k);
    }
    expect_half(o[k].d2h, wf::RN, din[k], "__double2half", k);
    long double hv = h2ld(o[k].f2h[0]);
    EXPECT_EQ((long double)o[k].back, hv, "__half2float", k);
    EXPECT_EQ((long double)o[k].lo, hv, "__floats2half2_rn/__half22float2 low", k);
    EXPECT_EQ((long double)o[k].hi, hv, "__float2half2_rn high", k);
    for (int m = 0; m < 4; ++m) {
      const char* mn = wf::mode_name(m);
      snprintf(what, sizeof what, "__half2int_%s", mn); EXPECT_EQ(o[k].h2i[m], (int)rnd(hv, m), what, k);
      snprintf(what, sizeof what, "__half2uint_%s", mn); EXPECT_EQ(o[k].h2u[m], (unsigned)rnd(std::fabs(hv), m), what, k);
      snprintf(what, sizeof what, "__half2ll_%s", mn); EXPECT_EQ(o[k].h2ll[m], (long long)rnd(hv, m), what, k);
    }
    expect_half(o[k].phi, wf::RN, -(long double)fin[k] * 0.5L, "__floats2half2_rn high", k);
    if (std::fabs(fin[k]) <= 32000.0f)  // not clamped: the half is the rn rounding checked above
      for (int m = 0; m < 4; ++m) {
        snprintf(what, sizeof what, "__half2short_%s", wf::mode_name(m));
        EXPECT_EQ((int)o[k].h2s[m], (int)rnd(hv, m), what, k);
      }
    EXPECT_EQ(o[k].asu, o[k].f2h[0], "__half_as_ushort", k);
    EXPECT_EQ((unsigned short)o[k].ass, o[k].f2h[0], "__half_as_short", k);
    EXPECT_EQ(o[k].fromu, (unsigned short)(o[k].f2h[0] ^ 0x8000), "__ushort_as_half", k);
  }
  return wf::finish();
}

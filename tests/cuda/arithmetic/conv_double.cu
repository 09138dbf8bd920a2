// WF-CHAPTER: arithmetic
// WF-FEATURES: arith.conv.double2float, arith.conv.double2int, arith.conv.double2uint, arith.conv.double2ll, arith.conv.double2ull, arith.conv.reinterpret, arith.conv.float2double
// WF-DESCRIPTION: __double2float_rX (all modes, including subnormal results), __double2int/uint/ll/ull_rX, float->double, and the bit reinterpretations (__double_as_longlong, __longlong_as_double, __double2hiint/loint, __hiloint2double, __float_as_int, __int_as_float, __float_as_uint, __uint_as_float)
#include "../common/check.h"
#include <vector>

struct Out { float f[4]; int i[4]; unsigned u[4]; long long ll[4]; unsigned long long ull[4];
             long long bits; double back; int hi, lo; double hilo; int fbits; unsigned fubits; float fback, fuback; double widened; };

__global__ void conv(const double* in, Out* out, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  double d = in[k];
  Out o = {};
  o.f[0] = __double2float_rn(d); o.f[1] = __double2float_rz(d); o.f[2] = __double2float_rd(d); o.f[3] = __double2float_ru(d);
  double a = fabs(d);
  if (a < 2147483648.0) { o.i[0] = __double2int_rn(d); o.i[1] = __double2int_rz(d); o.i[2] = __double2int_rd(d); o.i[3] = __double2int_ru(d); }
  if (d >= 0 && d < 4294967296.0) { o.u[0] = __double2uint_rn(d); o.u[1] = __double2uint_rz(d); o.u[2] = __double2uint_rd(d); o.u[3] = __double2uint_ru(d); }
  if (a < 9223372036854775808.0) { o.ll[0] = __double2ll_rn(d); o.ll[1] = __double2ll_rz(d); o.ll[2] = __double2ll_rd(d); o.ll[3] = __double2ll_ru(d); }
  if (d >= 0 && d < 18446744073709551616.0) { o.ull[0] = __double2ull_rn(d); o.ull[1] = __double2ull_rz(d); o.ull[2] = __double2ull_rd(d); o.ull[3] = __double2ull_ru(d); }
  o.bits = __double_as_longlong(d);
  o.back = __longlong_as_double(o.bits ^ 0x8000000000000000LL);
  o.hi = __double2hiint(d); o.lo = __double2loint(d);
  o.hilo = __hiloint2double(o.lo, o.hi);  // swapped halves
  float f = o.f[0];
  o.fbits = __float_as_int(f); o.fubits = __float_as_uint(f);
  o.fback = __int_as_float(o.fbits + 1); o.fuback = __uint_as_float(o.fubits ^ 0x80000000u);
  o.widened = (double)f;
  out[k] = o;
}

static long double rnd(long double x, int m) {
  switch (m) { case 0: return std::nearbyint(x); case 1: return std::trunc(x); case 2: return std::floor(x); default: return std::ceil(x); }
}

int main() {
  std::vector<double> in = {0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.5, -2.5, 1.0 + 0x1p-24, 1.0 + 0x1p-23 + 0x1p-24, 1.0 + 0x1p-24 + 0x1p-50,
                            3.4028234663852886e38, 3.4028235677973366e38 /* just above FLT_MAX, below the rounding boundary */,
                            1.1754942e-38, 1.4e-45, 7.0e-46 /* half the smallest subnormal */, 1e-50, -1e-50, 0x1.fffffep-127,
                            2147483647.4, -2147483648.6 + 1.0, 4294967295.2, 9.2233720368547748e18, 1.8446744073709550e19,
                            123456789.5, -123456788.5};
  wf::Rng r(5);
  for (int k = 0; k < 500; ++k) in.push_back(r.uniformd(-1e6, 1e6));
  for (int k = 0; k < 300; ++k) in.push_back(std::ldexp(r.uniformd(-1, 1), r.range(-160, 130)));
  for (int k = 0; k < 300; ++k) in.push_back(std::ldexp(r.uniformd(-1, 1), r.range(0, 64)));
  for (int k = 0; k < 100; ++k) in.push_back(std::floor(r.uniformd(-100, 100)) + 0.5);
  int n = (int)in.size();
  double* din; Out* dout;
  CHECK(cudaMalloc(&din, n * 8)); CHECK(cudaMalloc(&dout, n * sizeof(Out)));
  CHECK(cudaMemcpy(din, in.data(), n * 8, cudaMemcpyHostToDevice));
  conv<<<(n + 127) / 128, 128>>>(din, dout, n);
  CHECK_KERNEL();
  std::vector<Out> o(n);
  CHECK(cudaMemcpy(o.data(), dout, n * sizeof(Out), cudaMemcpyDeviceToHost));
  char what[64];
  for (int k = 0; k < n; ++k) {
    double d = in[k];
    long double a = std::fabs((long double)d);
    for (int m = 0; m < 4; ++m) {
      const char* mn = wf::mode_name(m);
      snprintf(what, sizeof what, "__double2float_%s", mn);
      EXPECT_ROUNDED(o[k].f[m], m, wf::cmp_exact(d), d, what, k);
      long double w = rnd(d, m);
      // the input may be in range while its rounding is not (e.g. 2147483647.4 rounded up): skip those
      if (a < 2147483648.0L && w <= 2147483647.0L && w >= -2147483648.0L) { snprintf(what, sizeof what, "__double2int_%s", mn); EXPECT_EQ(o[k].i[m], (int)w, what, k); }
      if (d >= 0 && d < 4294967296.0 && w <= 4294967295.0L) { snprintf(what, sizeof what, "__double2uint_%s", mn); EXPECT_EQ(o[k].u[m], (unsigned)w, what, k); }
      if (a < 9223372036854775808.0L && std::fabs(w) < 9223372036854775808.0L) { snprintf(what, sizeof what, "__double2ll_%s", mn); EXPECT_EQ(o[k].ll[m], (long long)w, what, k); }
      if (d >= 0 && d < 18446744073709551616.0 && w < 18446744073709551616.0L) { snprintf(what, sizeof what, "__double2ull_%s", mn); EXPECT_EQ(o[k].ull[m], (unsigned long long)w, what, k); }
    }
    uint64_t b = wf::double_to_bits(d);
    EXPECT_EQ((unsigned long long)o[k].bits, (unsigned long long)b, "__double_as_longlong", k);
    EXPECT_BITS(o[k].back, wf::bits_to_double(b ^ 0x8000000000000000ull), "__longlong_as_double", k);
    EXPECT_EQ((unsigned)o[k].hi, (unsigned)(b >> 32), "__double2hiint", k);
    EXPECT_EQ((unsigned)o[k].lo, (unsigned)b, "__double2loint", k);
    EXPECT_BITS(o[k].hilo, wf::bits_to_double((b << 32) | (b >> 32)), "__hiloint2double", k);
    uint32_t fb = wf::float_to_bits(o[k].f[0]);
    EXPECT_EQ((unsigned)o[k].fbits, fb, "__float_as_int", k);
    EXPECT_EQ(o[k].fubits, fb, "__float_as_uint", k);
    EXPECT_BITS(o[k].fback, wf::bits_to_float(fb + 1), "__int_as_float", k);
    EXPECT_BITS(o[k].fuback, wf::bits_to_float(fb ^ 0x80000000u), "__uint_as_float", k);
    EXPECT_BITS(o[k].widened, (double)o[k].f[0], "float to double", k);
  }
  return wf::finish();
}

// Warpforge CUDA headers: the CUDA Math API, first part. Written for Warpforge: range reduction
// plus Taylor polynomials evaluated in double precision (single-precision functions are evaluated
// in double and rounded once, which keeps them within 1 ulp). Device overloads live beside the
// host C library's functions (clang's CUDA target overloading).
#pragma once
#include "__wf_host_defines.h"

#define __WF_M static __device__ __forceinline__
#define __WF_MN static __device__ __noinline__
#define __WF_BITS(d) __builtin_bit_cast(unsigned long long, d)
#define __WF_DBL(b) __builtin_bit_cast(double, (unsigned long long)(b))

// ---- basic operations mapped to PTX -------------------------------------------------------------
__WF_M double fabs(double x) { return __WF_DBL(__WF_BITS(x) & 0x7fffffffffffffffull); }
__WF_M float fabsf(float x) { return __builtin_bit_cast(float, __builtin_bit_cast(unsigned, x) & 0x7fffffffu); }
__WF_M float sqrtf(float x) { float r; asm("sqrt.rn.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__WF_M double sqrt(double x) { double r; asm("sqrt.rn.f64 %0, %1;" : "=d"(r) : "d"(x)); return r; }
__WF_M float rsqrtf(float x) { return 1.0f / sqrtf(x); }
__WF_M double rsqrt(double x) { return 1.0 / sqrt(x); }
__WF_M float fmaf(float a, float b, float c) { float r; asm("fma.rn.f32 %0, %1, %2, %3;" : "=f"(r) : "f"(a), "f"(b), "f"(c)); return r; }
__WF_M double fma(double a, double b, double c) { double r; asm("fma.rn.f64 %0, %1, %2, %3;" : "=d"(r) : "d"(a), "d"(b), "d"(c)); return r; }
__WF_M float fminf(float a, float b) { float r; asm("min.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); return r; }
__WF_M float fmaxf(float a, float b) { float r; asm("max.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); return r; }
__WF_M double fmin(double a, double b) { double r; asm("min.f64 %0, %1, %2;" : "=d"(r) : "d"(a), "d"(b)); return r; }
__WF_M double fmax(double a, double b) { double r; asm("max.f64 %0, %1, %2;" : "=d"(r) : "d"(a), "d"(b)); return r; }
#define __WF_ROUND1(NAME, T, C, INSN) \
  __WF_M T NAME(T x) { T r; asm("cvt." INSN " %0, %1;" : "=" C(r) : C(x)); return r; }
__WF_ROUND1(floorf, float, "f", "rmi.f32.f32")
__WF_ROUND1(ceilf, float, "f", "rpi.f32.f32")
__WF_ROUND1(truncf, float, "f", "rzi.f32.f32")
__WF_ROUND1(rintf, float, "f", "rni.f32.f32")
__WF_ROUND1(nearbyintf, float, "f", "rni.f32.f32")
__WF_ROUND1(floor, double, "d", "rmi.f64.f64")
__WF_ROUND1(ceil, double, "d", "rpi.f64.f64")
__WF_ROUND1(trunc, double, "d", "rzi.f64.f64")
__WF_ROUND1(rint, double, "d", "rni.f64.f64")
__WF_ROUND1(nearbyint, double, "d", "rni.f64.f64")
#undef __WF_ROUND1
__WF_M float roundf(float x) { float t = truncf(x); return fabsf(x - t) >= 0.5f ? t + (x < 0 ? -1.0f : 1.0f) : t; }
__WF_M double round(double x) { double t = trunc(x); return fabs(x - t) >= 0.5 ? t + (x < 0 ? -1.0 : 1.0) : t; }
__WF_M long lroundf(float x) { return (long)roundf(x); }
__WF_M long long llroundf(float x) { return (long long)roundf(x); }
__WF_M long lrintf(float x) { return (long)rintf(x); }
__WF_M float copysignf(float a, float b) { return __builtin_bit_cast(float, (__builtin_bit_cast(unsigned, a) & 0x7fffffffu) | (__builtin_bit_cast(unsigned, b) & 0x80000000u)); }
__WF_M double copysign(double a, double b) { return __WF_DBL((__WF_BITS(a) & 0x7fffffffffffffffull) | (__WF_BITS(b) & 0x8000000000000000ull)); }
__WF_M float fdimf(float a, float b) { return a > b ? a - b : (a != a || b != b) ? a + b : 0.0f; }
__WF_M double fdim(double a, double b) { return a > b ? a - b : (a != a || b != b) ? a + b : 0.0; }
__WF_M float fmodf(float a, float b);
__WF_M int __isnanf(float x) { return x != x; }
__WF_M int __isinff(float x) { return fabsf(x) == __builtin_inff(); }
__WF_M int __finitef(float x) { return fabsf(x) < __builtin_inff(); }
__WF_M int __isnan(double x) { return x != x; }
__WF_M int __isinf(double x) { return fabs(x) == __builtin_inf(); }
__WF_M int __isfinited(double x) { return fabs(x) < __builtin_inf(); }
__WF_M int __signbitf(float x) { return (int)(__builtin_bit_cast(unsigned, x) >> 31); }
__WF_M int __signbitd(double x) { return (int)(__WF_BITS(x) >> 63); }

// ---- fast intrinsics: PTX instructions with their roundings ---------------------------------------
#define __WF_BIN(NAME, T, C, INSN) \
  __WF_M T NAME(T a, T b) { T r; asm(INSN " %0, %1, %2;" : "=" C(r) : C(a), C(b)); return r; }
#define __WF_BIN4(BASE, T, C, OP, TY) \
  __WF_BIN(BASE##_rn, T, C, OP ".rn" TY) __WF_BIN(BASE##_rz, T, C, OP ".rz" TY) \
  __WF_BIN(BASE##_ru, T, C, OP ".rp" TY) __WF_BIN(BASE##_rd, T, C, OP ".rm" TY)
__WF_BIN4(__fadd, float, "f", "add", ".f32")
__WF_BIN4(__fsub, float, "f", "sub", ".f32")
__WF_BIN4(__fmul, float, "f", "mul", ".f32")
__WF_BIN4(__fdiv, float, "f", "div", ".f32")
__WF_BIN4(__dadd, double, "d", "add", ".f64")
__WF_BIN4(__dsub, double, "d", "sub", ".f64")
__WF_BIN4(__dmul, double, "d", "mul", ".f64")
__WF_BIN4(__ddiv, double, "d", "div", ".f64")
#undef __WF_BIN4
#undef __WF_BIN
#define __WF_FMA(NAME, T, C, INSN) \
  __WF_M T NAME(T a, T b, T c) { T r; asm(INSN " %0, %1, %2, %3;" : "=" C(r) : C(a), C(b), C(c)); return r; }
__WF_FMA(__fmaf_rn, float, "f", "fma.rn.f32") __WF_FMA(__fmaf_rz, float, "f", "fma.rz.f32")
__WF_FMA(__fmaf_ru, float, "f", "fma.rp.f32") __WF_FMA(__fmaf_rd, float, "f", "fma.rm.f32")
__WF_FMA(__fma_rn, double, "d", "fma.rn.f64") __WF_FMA(__fma_rz, double, "d", "fma.rz.f64")
__WF_FMA(__fma_ru, double, "d", "fma.rp.f64") __WF_FMA(__fma_rd, double, "d", "fma.rm.f64")
__WF_FMA(__fmaf_ieee_rn, float, "f", "fma.rn.f32")
#undef __WF_FMA
#define __WF_UN(NAME, T, C, INSN) \
  __WF_M T NAME(T a) { T r; asm(INSN " %0, %1;" : "=" C(r) : C(a)); return r; }
__WF_UN(__fsqrt_rn, float, "f", "sqrt.rn.f32") __WF_UN(__fsqrt_rz, float, "f", "sqrt.rz.f32")
__WF_UN(__fsqrt_ru, float, "f", "sqrt.rp.f32") __WF_UN(__fsqrt_rd, float, "f", "sqrt.rm.f32")
__WF_UN(__dsqrt_rn, double, "d", "sqrt.rn.f64") __WF_UN(__dsqrt_rz, double, "d", "sqrt.rz.f64")
__WF_UN(__dsqrt_ru, double, "d", "sqrt.rp.f64") __WF_UN(__dsqrt_rd, double, "d", "sqrt.rm.f64")
__WF_UN(__frcp_rn, float, "f", "rcp.rn.f32") __WF_UN(__frcp_rz, float, "f", "rcp.rz.f32")
__WF_UN(__frcp_ru, float, "f", "rcp.rp.f32") __WF_UN(__frcp_rd, float, "f", "rcp.rm.f32")
__WF_UN(__drcp_rn, double, "d", "rcp.rn.f64") __WF_UN(__drcp_rz, double, "d", "rcp.rz.f64")
__WF_UN(__drcp_ru, double, "d", "rcp.rp.f64") __WF_UN(__drcp_rd, double, "d", "rcp.rm.f64")
__WF_UN(__frsqrt_rn, float, "f", "rsqrt.approx.f32")
__WF_UN(__saturatef, float, "f", "cvt.sat.f32.f32")
__WF_UN(__wf_ex2_approx, float, "f", "ex2.approx.ftz.f32")
__WF_UN(__wf_lg2_approx, float, "f", "lg2.approx.ftz.f32")
__WF_UN(__sinf, float, "f", "sin.approx.ftz.f32")
__WF_UN(__cosf, float, "f", "cos.approx.ftz.f32")
#undef __WF_UN
__WF_M float __fdividef(float a, float b) { float r; asm("div.approx.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); return r; }
__WF_M float __expf(float x) { return __wf_ex2_approx(x * 1.44269504f); }
__WF_M float __exp10f(float x) { return __wf_ex2_approx(x * 3.32192809f); }
__WF_M float __logf(float x) { return __wf_lg2_approx(x) * 0.693147181f; }
__WF_M float __log2f(float x) { return __wf_lg2_approx(x); }
__WF_M float __log10f(float x) { return __wf_lg2_approx(x) * 0.301029996f; }
__WF_M float __powf(float a, float b) { return __wf_ex2_approx(b * __wf_lg2_approx(a)); }
__WF_M float __tanf(float x) { return __fdividef(__sinf(x), __cosf(x)); }
__WF_M void __sincosf(float x, float *s, float *c) { *s = __sinf(x); *c = __cosf(x); }

// ---- double-precision cores -----------------------------------------------------------------------
__WF_M double __wf_pow2i(int k) { return __WF_DBL((unsigned long long)(k + 1023) << 52); } // -1022..1023
__WF_M double __wf_scale(double v, int n) { // v * 2^n for any n, one rounding at most
  if (n > 1023) { v *= __wf_pow2i(1023); n -= 1023; if (n > 1023) { v *= __wf_pow2i(1023); n -= 1023; if (n > 1023) n = 1023; } }
  else if (n < -1022) { v *= __wf_pow2i(-1022 + 54); n += 1022 - 54; if (n < -1022) { v *= __wf_pow2i(-1022 + 54); n += 1022 - 54; if (n < -1022) n = -1022; } }
  return v * __wf_pow2i(n);
}
// e^(r + rl) for |r| <= 0.35, |rl| tiny: Taylor series to r^13.
__WF_M double __wf_exp_poly(double r, double rl) {
  double p = 1.0 / 6227020800.0;
  p = fma(p, r, 1.0 / 479001600.0); p = fma(p, r, 1.0 / 39916800.0); p = fma(p, r, 1.0 / 3628800.0);
  p = fma(p, r, 1.0 / 362880.0); p = fma(p, r, 1.0 / 40320.0); p = fma(p, r, 1.0 / 5040.0);
  p = fma(p, r, 1.0 / 720.0); p = fma(p, r, 1.0 / 120.0); p = fma(p, r, 1.0 / 24.0);
  p = fma(p, r, 1.0 / 6.0); p = fma(p, r, 0.5);
  double q = fma(p * r, r, rl) + r; // e^r - 1 (+ rl) without the leading 1
  return 1.0 + fma(q, rl, q);
}
#define __WF_LN2_HI 6.93147180369123816490e-01
#define __WF_LN2_LO 1.90821492927058770002e-10
__WF_MN double __wf_exp(double x) {
  if (x != x) return x + x;
  if (x > 709.782712893384) return __builtin_inf();
  if (x < -745.1332191019412) return 0.0;
  double n = rint(x * 1.4426950408889634);
  double r = fma(-n, __WF_LN2_HI, x);
  double rl = -n * __WF_LN2_LO;
  double hi = r + rl, lo = (r - hi) + rl;
  return __wf_scale(__wf_exp_poly(hi, lo), (int)n);
}
// log(x) as hi + lo for finite x > 0.
__WF_M double __wf_log_hl(double x, double *lo) {
  int e = 0;
  unsigned long long b = __WF_BITS(x);
  if (b < (1ull << 52)) { x *= 18014398509481984.0; b = __WF_BITS(x); e = -54; }
  e += (int)(b >> 52) - 1023;
  double m = __WF_DBL((b & 0x000fffffffffffffull) | 0x3ff0000000000000ull);
  if (m > 1.4142135623730951) { m *= 0.5; e += 1; }
  double f = m - 1.0, s = f / (2.0 + f), s2 = s * s;
  double R = 2.0 / 21.0;
  R = fma(R, s2, 2.0 / 19.0); R = fma(R, s2, 2.0 / 17.0); R = fma(R, s2, 2.0 / 15.0);
  R = fma(R, s2, 2.0 / 13.0); R = fma(R, s2, 2.0 / 11.0); R = fma(R, s2, 2.0 / 9.0);
  R = fma(R, s2, 2.0 / 7.0); R = fma(R, s2, 2.0 / 5.0); R = fma(R, s2, 2.0 / 3.0);
  R *= s2;
  // log(1+f) = f - s*(f - R); the rounding error of s is carried in sl.
  double sl = fma(-s, 2.0 + f, f) / (2.0 + f);
  double corr = s * (f - R) + sl * (f - R);
  double de = (double)e;
  double a = de * __WF_LN2_HI; // exact
  double hi = a + f;
  double l = (a - hi) + f;
  double hi2 = hi - corr;
  l += (hi - hi2) - corr + de * __WF_LN2_LO;
  *lo = l - 0.0;
  double h3 = hi2 + l;
  *lo = l - (h3 - hi2);
  return h3;
}
__WF_MN double __wf_log(double x) {
  if (x != x) return x + x;
  if (x < 0) return __builtin_nan("");
  if (x == 0) return -__builtin_inf();
  if (x == __builtin_inf()) return x;
  double lo;
  return __wf_log_hl(x, &lo);
}
// sin and cos of |r| <= pi/4 (Taylor to r^19 / r^20).
__WF_M double __wf_sin_poly(double r) {
  double z = r * r, p = -1.0 / 121645100408832000.0;
  p = fma(p, z, 1.0 / 355687428096000.0); p = fma(p, z, -1.0 / 1307674368000.0);
  p = fma(p, z, 1.0 / 6227020800.0); p = fma(p, z, -1.0 / 39916800.0); p = fma(p, z, 1.0 / 362880.0);
  p = fma(p, z, -1.0 / 5040.0); p = fma(p, z, 1.0 / 120.0); p = fma(p, z, -1.0 / 6.0);
  return fma(p * z, r, r);
}
__WF_M double __wf_cos_poly(double r) {
  double z = r * r, p = 1.0 / 2432902008176640000.0;
  p = fma(p, z, -1.0 / 6402373705728000.0); p = fma(p, z, 1.0 / 20922789888000.0);
  p = fma(p, z, -1.0 / 87178291200.0); p = fma(p, z, 1.0 / 479001600.0); p = fma(p, z, -1.0 / 3628800.0);
  p = fma(p, z, 1.0 / 40320.0); p = fma(p, z, -1.0 / 720.0); p = fma(p, z, 1.0 / 24.0);
  double hz = 0.5 * z, w = 1.0 - hz;
  return w + (((1.0 - w) - hz) + z * z * p);
}
// x = k*pi/2 + r; Cody-Waite reduction with three parts of pi/2 (accurate for |x| < 2^26).
__WF_M double __wf_reduce(double x, int *q) {
  double k = rint(x * 0.63661977236758138);
  double r = fma(-k, 1.5707963267341256e+00, x);
  r = fma(-k, 6.0771005065061922e-11, r);
  r = fma(-k, 2.0222662487959506e-21, r);
  *q = (int)(long long)k;
  return r;
}
__WF_MN double __wf_sin(double x) {
  if (!(fabs(x) < __builtin_inf())) return __builtin_nan("");
  if (fabs(x) < 1e-300) return x;
  int q; double r = __wf_reduce(x, &q);
  double v = (q & 1) ? __wf_cos_poly(r) : __wf_sin_poly(r);
  return (q & 2) ? -v : v;
}
__WF_MN double __wf_cos(double x) {
  if (!(fabs(x) < __builtin_inf())) return __builtin_nan("");
  int q; double r = __wf_reduce(x, &q);
  double v = (q & 1) ? __wf_sin_poly(r) : __wf_cos_poly(r);
  return ((q + 1) & 2) ? -v : v;
}
__WF_MN double __wf_tan(double x) {
  if (!(fabs(x) < __builtin_inf())) return __builtin_nan("");
  int q; double r = __wf_reduce(x, &q);
  double s = __wf_sin_poly(r), c = __wf_cos_poly(r);
  return (q & 1) ? -c / s : s / c;
}
// atan: reduce to |t| <= 0.4142 with atan(x) = pi/4 + atan((x-1)/(x+1)) and 1/x; then
// halve once more, t' = t / (1 + sqrt(1 + t^2)), and sum the Taylor series of |t'| <= 0.199.
__WF_MN double __wf_atan(double x) {
  if (x != x) return x;
  double a = fabs(x), base = 0.0, basel = 0.0, sign = 1.0;
  if (a > 1.0) { a = 1.0 / a; base = 1.5707963267948966; basel = 6.123233995736766e-17; sign = -1.0; }
  double t = a, off = 0.0, offl = 0.0;
  if (t > 0.41421356237309503) { t = (t - 1.0) / (t + 1.0); off = 0.78539816339744828; offl = 3.061616997868383e-17; }
  double h = t / (1.0 + sqrt(fma(t, t, 1.0)));
  double z = h * h, p = 1.0 / 29.0;
  for (int k = 27; k >= 3; k -= 2) p = fma(p, z, ((k / 2) & 1 ? -1.0 : 1.0) / k);
  double at = 2.0 * fma(h * z, p, h); // p = -1/3 + z/5 - ...: atan(h) = h + h*z*p
  double r = (off + (offl + at));
  double res = sign > 0 ? r : (base - r) + basel;
  return x < 0 ? -res : res;
}
__WF_MN double __wf_asin(double x) {
  double a = fabs(x);
  if (!(a <= 1.0)) return __builtin_nan("");
  if (a < 0.5) return __wf_atan(x / sqrt(fma(-x, x, 1.0)));
  double r = 2.0 * __wf_atan(sqrt((1.0 - a) / (1.0 + a)));
  r = 1.5707963267948966 - r + 6.123233995736766e-17;
  return x < 0 ? -r : r;
}
__WF_MN double __wf_acos(double x) {
  if (!(fabs(x) <= 1.0)) return __builtin_nan("");
  return 2.0 * __wf_atan(sqrt((1.0 - x) / (1.0 + x)));
}
__WF_MN double __wf_atan2(double y, double x) {
  if (x != x || y != y) return x + y;
  double ay = fabs(y), ax = fabs(x), r;
  if (ax == 0 && ay == 0) r = (__signbitd(x) ? 3.1415926535897931 : 0.0);
  else if (ax == __builtin_inf() && ay == __builtin_inf()) r = __signbitd(x) ? 2.3561944901923448 : 0.78539816339744828;
  else if (ay <= ax) {
    r = __wf_atan(ay / ax);
    if (__signbitd(x)) r = (3.1415926535897931 - r) + 1.2246467991473532e-16;
  } else {
    r = 1.5707963267948966 - __wf_atan(ax / ay) + 6.123233995736766e-17;
    if (__signbitd(x)) r = 3.1415926535897931 - r + 1.2246467991473532e-16;
  }
  return copysign(r, y);
}
__WF_MN double __wf_expm1(double x) {
  if (fabs(x) < 0.3) {
    double s = 0.0, t = x;
    for (int k = 1; k <= 16; ++k) { s += t; t = t * x / (k + 1); }
    return s;
  }
  return __wf_exp(x) - 1.0;
}
__WF_MN double __wf_log1p(double x) {
  double u = 1.0 + x;
  if (u == 1.0) return x;
  if (!(u > 0.0) || u == __builtin_inf()) return __wf_log(u);
  return __wf_log(u) * (x / (u - 1.0));
}
// x^y through e^(y*log x) with log x as hi+lo and the product split exactly (fma).
__WF_MN double __wf_pow(double x, double y) {
  if (y == 0.0 || x == 1.0) return 1.0;
  if (x != x || y != y) return x + y;
  double ay = fabs(y), ax = fabs(x);
  bool yint = rint(y) == y;
  bool yodd = yint && ay < 9007199254740992.0 && rint(y * 0.5) != y * 0.5;
  if (ay == __builtin_inf()) {
    if (ax == 1.0) return 1.0;
    return (ax > 1.0) == (y > 0) ? __builtin_inf() : 0.0;
  }
  if (x == 0.0) {
    double r = y < 0 ? __builtin_inf() : 0.0;
    return yodd ? copysign(r, x) : r;
  }
  if (ax == __builtin_inf()) {
    double r = y < 0 ? 0.0 : __builtin_inf();
    return (x < 0 && yodd) ? -r : r;
  }
  if (x < 0 && !yint) return __builtin_nan("");
  double ll, lh = __wf_log_hl(ax, &ll);
  double ph = y * lh, pl = fma(y, lh, -ph) + y * ll;
  double r;
  if (ph > 709.8) r = __builtin_inf();
  else if (ph < -745.2) r = 0.0;
  else {
    double n = rint(ph * 1.4426950408889634);
    double t = fma(-n, __WF_LN2_HI, ph);
    double tl = pl - n * __WF_LN2_LO;
    double hi = t + tl, lo = (t - hi) + tl;
    r = __wf_scale(__wf_exp_poly(hi, lo), (int)n);
  }
  return (x < 0 && yodd) ? -r : r;
}
__WF_MN double __wf_cbrt(double x) {
  if (x == 0 || !(fabs(x) < __builtin_inf())) return x + x;
  double a = fabs(x);
  double r = __wf_exp(__wf_log(a) / 3.0);
  r = r - (r * r * r - a) / (3.0 * r * r); // one Newton step
  return copysign(r, x);
}
__WF_MN double __wf_erf(double x) {
  double a = fabs(x), r;
  if (x != x) return x;
  if (a < 2.5) { // Taylor: 2/sqrt(pi) * sum (-1)^n x^(2n+1) / (n! (2n+1))
    double s = 0.0, t = a, z = a * a;
    for (int n = 0; n < 60; ++n) { double term = t / (2 * n + 1); s += term; t = -t * z / (n + 1); if (fabs(term) < 1e-18 * s) break; }
    r = s * 1.1283791670955126;
  } else if (a < 6.0) { // continued fraction for erfc
    double f = 0.0;
    for (int k = 60; k >= 1; --k) f = (k * 0.5) / (a + f);
    r = 1.0 - __wf_exp(-a * a) / (a + f) * 0.56418958354775628;
  } else r = 1.0;
  return x < 0 ? -r : r;
}

// ---- the public functions ---------------------------------------------------------------------------
__WF_M double exp(double x) { return __wf_exp(x); }
__WF_M double exp2(double x) {
  if (x != x) return x;
  if (x >= 1024) return __builtin_inf();
  if (x < -1075) return 0.0;
  double n = rint(x), f = x - n;
  double h = f * 6.9314718055994529e-01, l = fma(f, 6.9314718055994529e-01, -h) + f * 2.3190468138462996e-17;
  double hi = h + l, lo = (h - hi) + l;
  return __wf_scale(__wf_exp_poly(hi, lo), (int)n);
}
__WF_M double exp10(double x) { return __wf_pow(10.0, x); }
__WF_M double expm1(double x) { return __wf_expm1(x); }
__WF_M double log(double x) { return __wf_log(x); }
__WF_M double log2(double x) {
  if (!(x > 0) || x == __builtin_inf()) return __wf_log(x) * 1.4426950408889634;
  double l, h = __wf_log_hl(x, &l);
  double ph = h * 1.4426950408889634, pl = fma(h, 1.4426950408889634, -ph) + h * 2.0355273740931033e-17 + l * 1.4426950408889634;
  return ph + pl;
}
__WF_M double log10(double x) {
  if (!(x > 0) || x == __builtin_inf()) return __wf_log(x);
  double l, h = __wf_log_hl(x, &l);
  double ph = h * 0.43429448190325182, pl = fma(h, 0.43429448190325182, -ph) + h * 1.0983196502167651e-17 + l * 0.43429448190325182;
  return ph + pl;
}
__WF_M double log1p(double x) { return __wf_log1p(x); }
__WF_M double sin(double x) { return __wf_sin(x); }
__WF_M double cos(double x) { return __wf_cos(x); }
__WF_M double tan(double x) { return __wf_tan(x); }
__WF_M void sincos(double x, double *s, double *c) { *s = __wf_sin(x); *c = __wf_cos(x); }
__WF_M double atan(double x) { return __wf_atan(x); }
__WF_M double asin(double x) { return __wf_asin(x); }
__WF_M double acos(double x) { return __wf_acos(x); }
__WF_M double atan2(double y, double x) { return __wf_atan2(y, x); }
__WF_M double pow(double x, double y) { return __wf_pow(x, y); }
__WF_M double cbrt(double x) { return __wf_cbrt(x); }
__WF_M double erf(double x) { return __wf_erf(x); }
__WF_M double sinh(double x) {
  double a = fabs(x), r;
  if (a < 0.3) r = __wf_expm1(a) * 0.5 * (1.0 + 1.0 / (__wf_expm1(a) + 1.0));
  else if (a < 710) { double e = __wf_exp(a * 0.5); r = 0.5 * e * (e - 1.0 / (e * e) * e); r = 0.5 * (e * e - 1.0 / (e * e)); if (a > 700) r = 0.5 * e * e; }
  else { double e = __wf_exp(a * 0.5); r = (0.5 * e) * e; }
  return copysign(r, x);
}
__WF_M double cosh(double x) {
  double a = fabs(x);
  double e = __wf_exp(a * 0.5);
  if (a > 700) return (0.5 * e) * e;
  double ee = e * e;
  return 0.5 * (ee + 1.0 / ee);
}
__WF_M double tanh(double x) {
  double a = fabs(x), r;
  if (a > 22) r = 1.0;
  else { double m = __wf_expm1(2.0 * a); r = m / (m + 2.0); }
  return copysign(r, x);
}
__WF_M double hypot(double a, double b) {
  a = fabs(a); b = fabs(b);
  if (a == __builtin_inf() || b == __builtin_inf()) return __builtin_inf();
  double m = fmax(a, b), n = fmin(a, b);
  if (m == 0 || m != m || n != n) return a + b;
  double q = n / m;
  return m * sqrt(fma(q, q, 1.0));
}
__WF_M double ldexp(double x, int n) { return __wf_scale(x, n); }
__WF_M double frexp(double x, int *e) {
  if (x == 0 || !(fabs(x) < __builtin_inf())) { *e = 0; return x + x * 0; }
  int adj = 0;
  if (fabs(x) < 2.2250738585072014e-308) { x *= 18014398509481984.0; adj = -54; }
  unsigned long long b = __WF_BITS(x);
  *e = (int)((b >> 52) & 0x7ff) - 1022 + adj;
  return __WF_DBL((b & 0x800fffffffffffffull) | 0x3fe0000000000000ull);
}
__WF_M double fmod(double a, double b) {
  if (b == 0 || a != a || b != b || fabs(a) == __builtin_inf()) return __builtin_nan("");
  double ab = fabs(a), bb = fabs(b);
  if (ab < bb) return a;
  while (ab >= bb) { double d = bb; while (d * 2.0 <= ab && d < 8.9e307) d *= 2.0; ab -= d; }
  return copysign(ab, a);
}

__WF_M float expf(float x) { return (float)__wf_exp(x); }
__WF_M float exp2f(float x) { return (float)exp2((double)x); }
__WF_M float exp10f(float x) { return (float)__wf_exp((double)x * 2.302585092994046); }
__WF_M float expm1f(float x) { return (float)__wf_expm1(x); }
__WF_M float logf(float x) { return (float)__wf_log(x); }
__WF_M float log2f(float x) { return (float)log2((double)x); }
__WF_M float log10f(float x) { return (float)log10((double)x); }
__WF_M float log1pf(float x) { return (float)__wf_log1p(x); }
__WF_M float sinf(float x) { return (float)__wf_sin(x); }
__WF_M float cosf(float x) { return (float)__wf_cos(x); }
__WF_M float tanf(float x) { return (float)__wf_tan(x); }
__WF_M void sincosf(float x, float *s, float *c) { *s = sinf(x); *c = cosf(x); }
__WF_M float sinpif(float x) { return (float)__wf_sin((double)x * 3.1415926535897931); }
__WF_M float cospif(float x) { return (float)__wf_cos((double)x * 3.1415926535897931); }
__WF_M float atanf(float x) { return (float)__wf_atan(x); }
__WF_M float asinf(float x) { return (float)__wf_asin(x); }
__WF_M float acosf(float x) { return (float)__wf_acos(x); }
__WF_M float atan2f(float y, float x) { return (float)__wf_atan2(y, x); }
__WF_M float sinhf(float x) { return (float)sinh((double)x); }
__WF_M float coshf(float x) { return (float)cosh((double)x); }
__WF_M float tanhf(float x) { return (float)tanh((double)x); }
__WF_M float powf(float x, float y) { return (float)__wf_pow(x, y); }
__WF_M float cbrtf(float x) { return (float)__wf_cbrt(x); }
__WF_M float erff(float x) { return (float)__wf_erf(x); }
__WF_M float hypotf(float a, float b) { double da = a, db = b; return (float)sqrt(da * da + db * db); }
__WF_M float ldexpf(float x, int n) { return (float)__wf_scale(x, n < -400 ? -400 : n > 400 ? 400 : n); }
__WF_M float frexpf(float x, int *e) { return (float)frexp((double)x, e); }
__WF_M float fmodf(float a, float b) { return (float)fmod(a, b); }
__WF_M float rcbrtf(float x) { return (float)(1.0 / __wf_cbrt(x)); }

#undef __WF_BITS
#undef __WF_DBL

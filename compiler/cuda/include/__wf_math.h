// Warpforge CUDA headers: the CUDA Math API, first part. Written for Warpforge: range reduction
// plus Taylor polynomials, with double-double steps (exp and log cores good to about 2^-66) where a
// double-precision result must come within the guide's 1-2 ulp; single-precision functions are
// evaluated in double and rounded once. Device overloads live beside the host C library's
// functions (clang's CUDA target overloading).
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
__WF_UN(__saturatef, float, "f", "cvt.sat.f32.f32")
__WF_UN(__wf_ex2_approx, float, "f", "ex2.approx.ftz.f32")
__WF_UN(__wf_lg2_approx, float, "f", "lg2.approx.ftz.f32")
__WF_UN(__sinf, float, "f", "sin.approx.ftz.f32")
__WF_UN(__cosf, float, "f", "cos.approx.ftz.f32")
#undef __WF_UN
// Correctly rounded 1/sqrt(x): the double 1/sqrt is within 2^-51 of it, so its rounding y is off
// by at most one; the midpoints m next to y decide, by the sign of m^2 x - 1 (m^2 exact, one
// rounding in fma).
__WF_M float __frsqrt_rn(float x) {
  if (!(x > 0.0f) || x == __builtin_inff())
    return x == 0.0f ? copysignf(__builtin_inff(), x)
                     : x == __builtin_inff() ? 0.0f : __builtin_nanf("");
  double xd = x;
  float y = (float)(1.0 / sqrt(xd));
  unsigned b = __builtin_bit_cast(unsigned, y);
  double below = 0.5 * ((double)y + (double)__builtin_bit_cast(float, b - 1));
  double above = 0.5 * ((double)y + (double)__builtin_bit_cast(float, b + 1));
  if (fma(above * above, xd, -1.0) < 0.0) return __builtin_bit_cast(float, b + 1);
  if (fma(below * below, xd, -1.0) > 0.0) return __builtin_bit_cast(float, b - 1);
  return y;
}
__WF_M float __fdividef(float a, float b) { float r; asm("div.approx.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); return r; }
__WF_M float __expf(float x) { return __wf_ex2_approx(x * 1.44269504f); }
__WF_M float __exp10f(float x) { return __wf_ex2_approx(x * 3.32192809f); }
__WF_M float __logf(float x) { return __wf_lg2_approx(x) * 0.693147181f; }
__WF_M float __log2f(float x) { return __wf_lg2_approx(x); }
__WF_M float __log10f(float x) { return __wf_lg2_approx(x) * 0.301029996f; }
__WF_M float __powf(float a, float b) { return __wf_ex2_approx(b * __wf_lg2_approx(a)); }
__WF_M float __tanf(float x) { return __fdividef(__sinf(x), __cosf(x)); }
__WF_M void __sincosf(float x, float *s, float *c) { *s = __sinf(x); *c = __cosf(x); }

// 1/sqrt(x) with one Newton step y + y (1 - x y^2) / 2 on an exact residual (scaled so that y^2
// stays normal).
__WF_M double rsqrt(double x) {
  if (!(x > 0.0) || x == __builtin_inf()) return 1.0 / sqrt(x);
  double s = x < 0x1p-1000 ? 0x1p100 : x > 0x1p1000 ? 0x1p-100 : 1.0;
  double a = x * s, y = 1.0 / sqrt(a);
  double y2 = __dmul_rn(y, y), y2l = fma(y, y, -y2), p = __dmul_rn(a, y2);
  double d = ((1.0 - p) - fma(a, y2, -p)) - a * y2l;
  return fma(y, 0.5 * d, y) * (s == 1.0 ? 1.0 : s > 1.0 ? 0x1p50 : 0x1p-50);
}
// ---- double-precision cores -----------------------------------------------------------------------
__WF_M double __wf_pow2i(int k) { return __WF_DBL((unsigned long long)(k + 1023) << 52); } // -1022..1023
__WF_M double __wf_scale(double v, int n) { // v * 2^n for any n, one rounding at most
  if (n > 1023) { v *= __wf_pow2i(1023); n -= 1023; if (n > 1023) { v *= __wf_pow2i(1023); n -= 1023; if (n > 1023) n = 1023; } }
  else if (n < -1022) { v *= __wf_pow2i(-1022 + 54); n += 1022 - 54; if (n < -1022) { v *= __wf_pow2i(-1022 + 54); n += 1022 - 54; if (n < -1022) n = -1022; } }
  return v * __wf_pow2i(n);
}
// ---- double-double helpers (hi + lo, |lo| <= ulp(hi)/2) ----------------------------------------
// clang contracts a*b + c into an fma across statements (CUDA's default); error-free
// transformations that need a product's rounded value form it with __dmul_rn, which PTX never
// contracts.
struct __wf_dd { double hi, lo; };
__WF_M __wf_dd __wf_dd_norm(double h, double l) { double s = h + l; return {s, l - (s - h)}; }
__WF_M __wf_dd __wf_two_sum(double a, double b) {
  double s = a + b, bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}
__WF_M __wf_dd __wf_dd_add(__wf_dd a, __wf_dd b) {
  __wf_dd s = __wf_two_sum(a.hi, b.hi);
  return __wf_dd_norm(s.hi, s.lo + a.lo + b.lo);
}
__WF_M __wf_dd __wf_dd_mul(__wf_dd a, __wf_dd b) {
  double p = __dmul_rn(a.hi, b.hi);
  return __wf_dd_norm(p, fma(a.hi, b.hi, -p) + (a.hi * b.lo + a.lo * b.hi));
}
__WF_M __wf_dd __wf_dd_muld(__wf_dd a, double b) {
  double p = __dmul_rn(a.hi, b);
  return __wf_dd_norm(p, fma(a.hi, b, -p) + a.lo * b);
}
__WF_M __wf_dd __wf_dd_div(__wf_dd a, __wf_dd b) { // the remainder a.hi - q b.hi is exact (fma)
  double q = a.hi / b.hi;
  double r = (fma(-q, b.hi, a.hi) + a.lo) - q * b.lo;
  return __wf_dd_norm(q, r / b.hi);
}
__WF_M __wf_dd __wf_dd_divd(__wf_dd a, double d) { return __wf_dd_div(a, {d, 0.0}); }
__WF_M double __wf_dd_val(__wf_dd a) { return a.hi + a.lo; }

// ---- exp and log in double-double -------------------------------------------------------------
// 2^(j/64), j = 0..63, as hi, lo.
static __device__ const double __wf_exp2_tab[128] = {
    1.0, 0.0, 1.0108892860517005, -1.5234778603368577e-17,
    1.0218971486541166, 5.109225028973444e-17, 1.0330248790212284, 7.600838874027088e-18,
    1.0442737824274138, 8.551889705537965e-17, 1.0556451783605572, 1.759325738772092e-18,
    1.0671404006768237, -7.899853966841582e-17, 1.0787607977571199, -6.656660436056593e-17,
    1.0905077326652577, -3.046782079812471e-17, 1.102382583307841, 5.2660368715706944e-17,
    1.1143867425958924, 1.0410278456845571e-16, 1.1265216186082418, 5.165856758795457e-17,
    1.1387886347566916, 8.912812676025408e-17, 1.1511892299529827, 3.250710218863827e-17,
    1.1637248587775775, 3.8292048369240935e-17, 1.1763969916502812, 5.554203254218079e-17,
    1.189207115002721, 3.982015231465646e-17, 1.202156731452703, 6.644981499252301e-17,
    1.215247359980469, -7.712630692681488e-17, 1.22848053610687, -1.89878163130253e-17,
    1.241857812073484, 4.658027591836937e-17, 1.255380757024691, -6.7113898212968784e-18,
    1.2690509571917332, 2.667932131342186e-18, 1.2828700160787783, 1.713594918243561e-17,
    1.2968395546510096, 2.5382502794888315e-17, 1.3109612115247644, -7.181536135519454e-17,
    1.3252366431597413, -2.8587312100388614e-17, 1.339667524053303, 8.927282594831732e-17,
    1.3542555469368927, 7.70094837980299e-17, 1.3690024229745905, 9.593797919118849e-17,
    1.383909881963832, -6.770511658794786e-17, 1.3989796725383112, -9.614213209051323e-17,
    1.4142135623730951, -9.667293313452913e-17, 1.42961333839197, -1.2031642489053655e-17,
    1.4451808069770467, -3.0237581349939873e-17, 1.460917794180647, -5.600377186075216e-17,
    1.4768261459394993, -3.483994556892796e-17, 1.4929077282912648, 1.4192920154284036e-17,
    1.5091644275934228, -1.016455327754295e-16, 1.5255981507445384, -1.1024941712342561e-16,
    1.5422108254079407, 7.949834809697621e-17, 1.559004400237837, 3.7812070533575275e-17,
    1.5759808451078865, -1.0136916471278304e-17, 1.593142151342267, -1.0094406542311964e-16,
    1.6104903319492543, 2.4707192569797888e-17, 1.6280274218573478, -6.712955084707084e-17,
    1.645755478153965, -1.0125679913674773e-16, 1.6636765803267364, 5.8909926967131e-17,
    1.681792830507429, 8.199010020581497e-17, 1.7001063537185235, -8.0237193703977e-18,
    1.718619298122478, -1.851380418263111e-17, 1.7373338352737062, 3.164389299292957e-17,
    1.7562521603732995, 2.960140695448873e-17, 1.7753764925265212, 6.429731796556572e-17,
    1.7947090750031072, 1.8227458427912087e-17, 1.8142521755003989, -9.969531538920349e-17,
    1.8340080864093424, 3.283107224245627e-17, 1.8539791250833855, 9.761887490727594e-17,
    1.8741676341103, -6.122763413004143e-17, 1.8945759815869656, 3.4034035352165297e-17,
    1.9152065613971474, -1.0619946056195963e-16, 1.9360617934922943, 1.0332385960676326e-16,
    1.9571441241754002, 8.960767791036668e-17, 1.978456026387951, 4.0388753109278167e-17,};
// log(256/k), k = 129..256, as hi, lo.
static __device__ const double __wf_log_tab[256] = {
    0.6853650401178903, 1.5397031675690708e-17, 0.6776429940239801, -3.8931744894412815e-17,
    0.6699801212784109, 4.17146573914374e-17, 0.6623755218931916, 2.21472949355624e-17,
    0.6548283162578087, 2.5548464295814284e-17, 0.6473376445286511, 4.904308388761765e-17,
    0.639902666041133, 3.1794937859343885e-17, 0.6325225587435105, -2.1085297878853066e-17,
    0.6251965186514375, 1.0592894454709713e-17, 0.6179237593223578, 1.524328452694178e-17,
    0.6107035113488707, 3.1367818172463465e-17, 0.6035350218702582, -2.6893870159130116e-17,
    0.5964175541013942, 9.872420079277536e-18, 0.5893503868783018, -2.3920619442246964e-17,
    0.5823328142196552, -1.9626643627806023e-17, 0.5753641449035618, 5.214321232885128e-17,
    0.5684437020589881, -1.379063432133071e-17, 0.561570822771226, -1.5688108356895506e-17,
    0.5547448577008262, 1.874269083710547e-17, 0.5479651707154474, 4.2703624971069435e-17,
    0.5412311385341033, 1.6706605014060776e-17, 0.5345421503833068, -4.357768696497742e-17,
    0.5278976076646381, 3.3285403760785623e-17, 0.5212969236332861, 2.9212921959474365e-17,
    0.514739523087127, 7.867446311535213e-18, 0.5082248420659333, -7.588768892523324e-18,
    0.5017523275603158, 7.564389428626968e-18, 0.4953214372300254, 1.0369273765482855e-17,
    0.4889316391312544, -7.298935579038195e-18, 0.48258241145259567, -3.1570216243602197e-19,
    0.47627324225933093, 1.8639441945228713e-17, 0.4700036292457356, -2.3229412495470032e-17,
    0.4637730794950995, -1.4492779301143943e-17, 0.4575811092471784, 2.558480528798173e-17,
    0.4514272436728001, 1.4289478116296355e-17, 0.44531101665536404, 7.867102101536607e-18,
    0.4392319705789819, -2.427258569837063e-17, 0.43318965612301924, 2.4923987486736457e-18,
    0.42718363206280735, 1.7851087862331565e-17, 0.42121346507630353, 2.2407148500765553e-17,
    0.415278729556489, 2.4106486433372258e-17, 0.4093790074293007, -1.1994027281528269e-17,
    0.40351388797690263, 2.654514918604821e-18, 0.39768296766610944, -1.067457448873493e-17,
    0.39188584998178355, -2.3272171948746268e-17, 0.38612214526503347, -2.0000766892692867e-17,
    0.38039147055604844, -1.7802599561805317e-17, 0.3746934494414107, -3.9243112288632396e-18,
    0.36902771190573336, -2.4362468710901017e-17, 0.3633938941874773, 2.106844752226605e-17,
    0.3577916386388075, 4.844823767868267e-18, 0.3522205935893521, 5.7233316949182485e-18,
    0.3466804132137367, 1.2904632283500345e-17, 0.34117075740276714, -1.9366790062602867e-17,
    0.33569129163814154, -7.183773020381283e-18, 0.33024168687057687, -1.0828321637483858e-17,
    0.32482161940123766, -3.7162556628635935e-18, 0.3194307707663612, 1.354256857264811e-18,
    0.31406882762497584, 7.311073985078525e-18, 0.3087354816496133, -1.6199186085148102e-17,
    0.3034304294199201, -4.151258540103992e-18, 0.29815337231907635, -1.720695867445866e-17,
    0.2929040164329326, -2.097144388760612e-17, 0.2876820724517809, 2.607160616442564e-17,
    0.2824872555746769, 1.3652325538490778e-17, 0.27731928541623435, -7.44528405583513e-18,
    0.27217788591581565, 1.9460544362807653e-17, 0.26706278524904525, -7.32891532732017e-18,
    0.26197371574157396, 3.769957084925505e-18, 0.2569104137850272, 2.502843296152504e-17,
    0.2518726197550701, -1.8984402852371785e-18, 0.24686007793152578, 1.361743371748368e-17,
    0.24187253642048673, -3.5869293176775316e-18, 0.2369097470783577, 1.9682402978398164e-18,
    0.23197146543777514, 5.774320510479237e-18, 0.22705745063534608, 9.551415762738488e-18,
    0.2221674653411543, -1.0797202916767509e-17, 0.2173012756899814, 1.6168452453763015e-18,
    0.2124586512141934, -9.63115306272449e-18, 0.2076393647782445, 1.2053243216686129e-17,
    0.20284319251475147, 2.0981425921481313e-18, 0.1980699137620938, 3.742843482461439e-18,
    0.19331931100349597, 4.630440315107144e-18, 0.18859116980755003, -7.432164219196925e-18,
    0.18388527877013736, 6.716094199344591e-18, 0.179201429457711, -1.0785017454858423e-17,
    0.17453941635189968, -1.5833038914101321e-18, 0.16989903679539747, -4.868008764439071e-19,
    0.16528009093910292, -6.262313551919987e-19, 0.16068238169047347, -3.650183553047837e-18,
    0.15610571466306167, -1.2806970330932862e-17, 0.15154989812720093, 5.1669593684615594e-18,
    0.14701474296180966, -4.46694718500102e-18, 0.14250006260728304, -9.926388234225749e-18,
    0.13800567301944372, -3.082753002960249e-18, 0.13353139262452263, -3.664457663660085e-18,
    0.12907704227514236, -1.2940973323385866e-17, 0.1246424452072766, -5.808912678940971e-18,
    0.1202274269981598, -2.8375497328444e-18, 0.1158318155251217, 4.338484369808096e-18,
    0.11145544092532282, 5.685957919022839e-18, 0.1070981355563671, -1.73705104015906e-18,
    0.10275973395776894, -4.707630866560681e-18, 0.09844007281325252, -4.439009633675136e-18,
    0.09413899091386191, 1.4973805419956277e-18, 0.08985632912186105, -6.273760163689594e-19,
    0.08559193033540351, 6.769872319991152e-18, 0.0813456394539524, 5.07707635593117e-18,
    0.07711730334443129, 2.5654358635266204e-18, 0.07290677080808779, -6.306860257532778e-18,
    0.06871389254805181, -2.5298812881248404e-18, 0.06453852113757118, -6.470486661692933e-18,
    0.06038051098890748, -2.1569637373409678e-18, 0.05623971832287608, -3.2835149805605613e-18,
    0.05211600113901402, 7.1036769831546065e-19, 0.048009219186360606, 1.4390903347292205e-18,
    0.04391923393483549, 1.762355270004629e-18, 0.039845908547199674, -3.129547680315208e-18,
    0.03578910785158528, -2.740984674024185e-18, 0.0317486983145803, 3.0382263084680858e-18,
    0.027724548014854862, -1.56535712927094e-18, 0.023716526617316044, -1.5774243488668215e-18,
    0.01972450534777859, -1.3445979863167511e-18, 0.015748356968139168, 1.0021578630528974e-18,
    0.01178795575204224, 2.208154666796622e-19, 0.007843177461025893, 2.764708154124904e-19,
    0.003913899321136329, 4.2808986230681256e-19, 0.0, 0.0,};
#define __WF_LN2_HI 6.93147180369123816490e-01 // ln 2 in 32 bits and the rest (Cody-Waite)
#define __WF_LN2_LO 1.90821492927058770002e-10
struct __wf_edd { double hi, lo; int n; }; // 2^n (hi + lo)
// e^(x + xl) for |x| <= 746 and |xl| <= 2^-50 |x|, relative error about 2^-66:
// x + xl = (64 n + j) ln2/64 + r with |r| <= ln2/128, e^r - 1 by its Taylor series through r^7
// and 2^(j/64) from the table. k ln2/64 in two parts: the first product and difference are exact
// (k < 2^17).
__WF_MN __wf_edd __wf_exp_dd(double x, double xl) {
  double kd = rint(x * 92.332482616893657);
  double rh = fma(-kd, 0.010830424696249145, x);
  double rm = fma(-kd, 3.623510646634843e-19, xl);
  __wf_dd r = __wf_two_sum(rh, rm);
  double p = 1.0 / 5040.0;
  p = fma(p, r.hi, 1.0 / 720.0); p = fma(p, r.hi, 1.0 / 120.0); p = fma(p, r.hi, 1.0 / 24.0);
  p = fma(p, r.hi, 1.0 / 6.0); p = fma(p, r.hi, 0.5);
  double ql = fma(r.hi * r.hi, p, fma(r.lo, r.hi, r.lo)); // e^r - 1 = r.hi + ql
  int k = (int)kd, j = k & 63;
  double th = __wf_exp2_tab[2 * j], tl = __wf_exp2_tab[2 * j + 1];
  // 2^(j/64) (1 + r.hi + ql) with the large product exact
  double p1 = __dmul_rn(th, r.hi), e1 = fma(th, r.hi, -p1);
  double s = th + p1, err = (th - s) + p1;
  double lo = err + e1 + fma(th, ql, tl * (1.0 + r.hi + ql));
  double hi = s + lo;
  return {hi, lo - (hi - s), k >> 6};
}
// e^(h + l) rounded once (h may be out of range).
__WF_MN double __wf_exp_hl(double h, double l) {
  if (h != h) return h + h;
  if (h > 709.8) return __builtin_inf();
  if (h < -745.2) return 0.0;
  __wf_edd e = __wf_exp_dd(h, l);
  return __wf_scale(e.hi + e.lo, e.n);
}
__WF_M double __wf_exp(double x) { return __wf_exp_hl(x, 0.0); }
// e^x - 1 as hi + lo for -40 <= x <= 709.78, relative error about 2^-60 (the subtraction of 1 is
// exact, and for |x| < ln2/128 the result is r.hi + ql above, no cancellation).
__WF_MN __wf_dd __wf_expm1_dd(double x) {
  __wf_edd e = __wf_exp_dd(x, 0.0);
  __wf_dd s = __wf_two_sum(__wf_scale(e.hi, e.n), -1.0); // 2^n scalings exact in this range
  return __wf_dd_norm(s.hi, s.lo + __wf_scale(e.lo, e.n));
}
// log(x) for finite x > 0 as hi + lo, relative error about 2^-67: x = 2^e m (1 <= m < 2),
// k = round(256/m) so that t = m k/256 - 1 is exact (52 bits) with |t| <= 2^-8;
// log x = e ln2 + log(256/k) + log1p(t), log1p by its Taylor series with t^2/2 exact.
__WF_MN __wf_dd __wf_log_dd(double x) {
  int e = 0;
  unsigned long long b = __WF_BITS(x);
  if (b < (1ull << 52)) { x *= 18014398509481984.0; b = __WF_BITS(x); e = -54; }
  e += (int)(b >> 52) - 1023;
  double m = __WF_DBL((b & 0x000fffffffffffffull) | 0x3ff0000000000000ull);
  int k = (int)rint(256.0 / m);
  double t = fma(m, k * 0.00390625, -1.0);
  if (k == 128) { k = 256; ++e; } // m near 2: log(m/2) = log1p(t), no cancellation near x = 1
  double t2 = __dmul_rn(t, t), t2l = fma(t, t, -t2);
  double p = -1.0 / 10.0; // 1/3 - t/4 + t^2/5 - ...
  p = fma(p, t, 1.0 / 9.0); p = fma(p, t, -1.0 / 8.0); p = fma(p, t, 1.0 / 7.0);
  p = fma(p, t, -1.0 / 6.0); p = fma(p, t, 1.0 / 5.0); p = fma(p, t, -1.0 / 4.0);
  p = fma(p, t, 1.0 / 3.0);
  double h = t - 0.5 * t2;
  double l = ((t - h) - 0.5 * t2) + fma(t * t2, p, -0.5 * t2l);
  double de = (double)e;
  // ln 2 in 42 bits (e ln2_hi exact) and the rest
  __wf_dd c = __wf_two_sum(de * 0.6931471805598903, __wf_log_tab[2 * (k - 129)]);
  c.lo += fma(de, 5.497923018708371e-14, __wf_log_tab[2 * (k - 129) + 1]);
  return __wf_dd_add(c, {h, l});
}
__WF_M double __wf_log_hl(double x, double *lo) {
  __wf_dd r = __wf_log_dd(x);
  *lo = r.lo;
  return r.hi;
}
__WF_MN double __wf_log(double x) {
  if (x != x) return x + x;
  if (x < 0) return __builtin_nan("");
  if (x == 0) return -__builtin_inf();
  if (x == __builtin_inf()) return x;
  return __wf_log_dd(x).hi;
}
// sin and cos of |r| <= pi/4 (Taylor to r^19 / r^20).
// sin(r) and cos(r) as unnormalized hi + lo: the leading term and the rest.
__WF_M __wf_dd __wf_sin_dd(double r) {
  double z = r * r, p = -1.0 / 121645100408832000.0;
  p = fma(p, z, 1.0 / 355687428096000.0); p = fma(p, z, -1.0 / 1307674368000.0);
  p = fma(p, z, 1.0 / 6227020800.0); p = fma(p, z, -1.0 / 39916800.0); p = fma(p, z, 1.0 / 362880.0);
  p = fma(p, z, -1.0 / 5040.0); p = fma(p, z, 1.0 / 120.0); p = fma(p, z, -1.0 / 6.0);
  return {r, p * z * r};
}
__WF_M __wf_dd __wf_cos_dd(double r) {
  double z = r * r, p = 1.0 / 2432902008176640000.0;
  p = fma(p, z, -1.0 / 6402373705728000.0); p = fma(p, z, 1.0 / 20922789888000.0);
  p = fma(p, z, -1.0 / 87178291200.0); p = fma(p, z, 1.0 / 479001600.0); p = fma(p, z, -1.0 / 3628800.0);
  p = fma(p, z, 1.0 / 40320.0); p = fma(p, z, -1.0 / 720.0); p = fma(p, z, 1.0 / 24.0);
  double hz = 0.5 * z, w = 1.0 - hz;
  return {w, ((1.0 - w) - hz) + z * z * p};
}
__WF_M double __wf_sin_poly(double r) { __wf_dd s = __wf_sin_dd(r); return s.hi + s.lo; }
__WF_M double __wf_cos_poly(double r) { __wf_dd c = __wf_cos_dd(r); return c.hi + c.lo; }
// x = k*pi/2 + (r + rl); Cody-Waite reduction with four parts of pi/2, the first three of 33 bits
// so that k times each is exact for k < 2^20, the differences kept as hi + lo.
__WF_M double __wf_reduce(double x, int *q, double *rl) {
  double k = rint(x * 0.63661977236758138);
  double r = fma(-k, 1.5707963267341256e+00, x); // exact
  __wf_dd a = __wf_two_sum(r, -k * 6.077100506303966e-11);
  __wf_dd b = __wf_two_sum(a.hi, -k * 2.0222662487111665e-21);
  __wf_dd c = __wf_dd_norm(b.hi, (a.lo + b.lo) - k * 8.4784276603689e-32);
  *q = (int)(long long)k;
  *rl = c.lo;
  return c.hi;
}
// Payne-Hanek reduction for |x| >= 2^26: x * 2/pi from the bits of 2/pi that matter (those whose
// product with x is not a multiple of 4), in 64-bit integer arithmetic; r as hi + lo radians.
__WF_MN void __wf_reduce_large(double x, int *q, double *rh, double *rl) {
  const unsigned long long T[20] = {0xa2f9836e4e441529ull, 0xfc2757d1f534ddc0ull, 0xdb6295993c439041ull, 0xfe5163abdebbc561ull, 0xb7246e3a424dd2e0ull, 0x06492eea09d1921cull, 0xfe1deb1cb129a73eull, 0xe88235f52ebb4484ull, 0xe99c7026b45f7e41ull, 0x3991d639835339f4ull, 0x9c845f8bbdf9283bull, 0x1ff897ffde05980full, 0xef2f118b5a0a6d1full, 0x6d367ecf27cb09b7ull, 0x4f463f669e5fea2dull, 0x7527bac7ebe5f17bull, 0x3d0739f78a5292eaull, 0x6bfb5fb11f8d5d08ull, 0x56033046fc7b6babull, 0xf0cfbc209af4361dull};
  unsigned long long bits = __WF_BITS(fabs(x));
  int ex = (int)(bits >> 52) - 1075; // |x| = m * 2^ex
  unsigned long long m = (bits & 0x000fffffffffffffull) | 0x0010000000000000ull;
  int j0 = ex - 2 > 0 ? ex - 2 : 0;  // first bit of 2/pi used
  // The 192-bit window W of 2/pi starting at bit j0 (w[0] most significant).
  unsigned long long w[3];
  int idx = j0 >> 6, sh = j0 & 63;
  for (int i = 0; i < 3; ++i)
    w[i] = sh ? (T[idx + i] << sh) | (T[idx + i + 1] >> (64 - sh)) : T[idx + i];
  // P = m * W, 256 bits in p[0] (most significant) .. p[3].
  unsigned long long p[4] = {0, 0, 0, 0};
  for (int i = 2; i >= 0; --i) {
    unsigned long long lo = m * w[i], hi = __umul64hi(m, w[i]);
    unsigned long long s1 = p[i + 1] + lo;
    unsigned long long c1 = s1 < lo;
    p[i + 1] = s1;
    p[i] += hi + c1; // cannot overflow: p[i] is still 0 here
  }
  // x * 2/pi = P * 2^(ex - j0 - 192): the binary point is at bit pos of P.
  int pos = 192 - ex + j0;
  auto bitsAt = [&](int low) -> unsigned long long { // the 64 bits of P from bit low upwards
    int word = 3 - (low >> 6), off = low & 63;
    unsigned long long v = p[word] >> off;
    if (off && word > 0) v |= p[word - 1] << (64 - off);
    return v;
  };
  unsigned long long ip = bitsAt(pos) & 3, f = bitsAt(pos - 64), g = bitsAt(pos - 128);
  long long sf = (long long)f; // the fraction in [-1/2, 1/2) once rounded to the nearest quadrant
  int quad = (int)((ip + (f >> 63)) & 3);
  // r = (sf + g / 2^64) / 2^64 turns of a quadrant, as hi + lo
  double h = (double)(sf >> 21) * 2097152.0, l = (double)(sf & 0x1fffff) + (double)(g >> 11) * 1.1102230246251565e-16;
  double th = h + l, tl = l - (th - h);
  th *= 5.421010862427522e-20; tl *= 5.421010862427522e-20; // 2^-64
  double ah = th * 1.5707963267948966;
  double al = fma(th, 1.5707963267948966, -ah) + th * 6.123233995736766e-17 + tl * 1.5707963267948966;
  if (x < 0) { quad = -quad; ah = -ah; al = -al; }
  *q = quad & 3;
  *rh = ah; *rl = al;
}
// x = q*pi/2 + (r + rl) with |r| <= pi/4 (about).
__WF_M double __wf_reduce2(double x, int *q, double *rl) {
  // Cody-Waite is exact while k * (pi/2)_hi is, k < 2^20; beyond, Payne-Hanek.
  if (fabs(x) < 262144.0) return __wf_reduce(x, q, rl);
  double rh; __wf_reduce_large(x, q, &rh, rl);
  return rh;
}
__WF_MN double __wf_sin(double x) {
  if (!(fabs(x) < __builtin_inf())) return __builtin_nan("");
  if (fabs(x) < 1e-300) return x;
  int q; double rl, r = __wf_reduce2(x, &q, &rl);
  __wf_dd sp = __wf_sin_dd(r), cp = __wf_cos_dd(r); // sin(r + rl), cos(r + rl) to first order in rl
  double v = (q & 1) ? cp.hi + fma(-rl, sp.hi, cp.lo) : sp.hi + fma(rl, cp.hi, sp.lo);
  return (q & 2) ? -v : v;
}
__WF_MN double __wf_cos(double x) {
  if (!(fabs(x) < __builtin_inf())) return __builtin_nan("");
  int q; double rl, r = __wf_reduce2(x, &q, &rl);
  __wf_dd sp = __wf_sin_dd(r), cp = __wf_cos_dd(r);
  double v = (q & 1) ? sp.hi + fma(rl, cp.hi, sp.lo) : cp.hi + fma(-rl, sp.hi, cp.lo);
  return ((q + 1) & 2) ? -v : v;
}
__WF_MN double __wf_tan(double x) {
  if (!(fabs(x) < __builtin_inf())) return __builtin_nan("");
  if (fabs(x) < 1e-300) return x;
  int q; double rl, r = __wf_reduce2(x, &q, &rl);
  __wf_dd s = __wf_sin_dd(r), c = __wf_cos_dd(r);
  s = __wf_dd_norm(s.hi, fma(rl, c.hi, s.lo)); // sin(r + rl) = sin r + rl cos r
  c = __wf_dd_norm(c.hi, fma(-rl, s.hi, c.lo));
  return (q & 1) ? -__wf_dd_div(c, s).hi : __wf_dd_div(s, c).hi;
}
// atan(i/8), i = 0..8, as hi, lo.
static __device__ const double __wf_atan_tab[18] = {
    0.0, 0.0, 0.12435499454676144, -3.1253241424539383e-18,
    0.24497866312686414, 1.0698755618734451e-17, 0.35877067027057225, -2.4623815582638635e-17,
    0.4636476090008061, 2.2698777452961687e-17, 0.5585993153435624, -5.4556305485916264e-18,
    0.6435011087932844, 1.5834785051444286e-17, 0.7188299996216245, -2.1478388444456983e-17,
    0.7853981633974483, 3.061616997868383e-17,
};
// atan: |x| > 1 through pi/2 - atan(t), t = 1/|x| as hi + lo; then atan(t) = atan(c) + atan(u) with
// c = i/8 nearest t and u = (t - c) / (1 + t c), |u| <= 1/16, formed in double-double (t - c is
// exact); atan(u) by its Taylor series through u^15.
__WF_MN double __wf_atan(double x) {
  if (x != x) return x + x;
  double a = fabs(x);
  if (a > 0x1p60) return copysign(1.5707963267948966, x); // pi/2 - 1/|x| rounds to pi/2
  double th = a, tl = 0.0;
  bool inv = a > 1.0;
  if (inv) { th = 1.0 / a; tl = fma(-th, a, 1.0) / a; }
  int i = (int)rint(th * 8.0);
  double c = i * 0.125;
  __wf_dd num = __wf_two_sum(th - c, tl);
  double ph = __dmul_rn(th, c);
  __wf_dd den = __wf_two_sum(1.0, ph);
  den = __wf_dd_norm(den.hi, den.lo + (fma(th, c, -ph) + tl * c));
  __wf_dd u = __wf_dd_div(num, den);
  double z = u.hi * u.hi, p = -1.0 / 15.0;
  p = fma(p, z, 1.0 / 13.0); p = fma(p, z, -1.0 / 11.0); p = fma(p, z, 1.0 / 9.0);
  p = fma(p, z, -1.0 / 7.0); p = fma(p, z, 1.0 / 5.0); p = fma(p, z, -1.0 / 3.0);
  __wf_dd r = __wf_dd_add({__wf_atan_tab[2 * i], __wf_atan_tab[2 * i + 1]},
                          {u.hi, fma(u.hi * z, p, u.lo)});
  if (inv) r = __wf_dd_add({1.5707963267948966, 6.123233995736766e-17}, {-r.hi, -r.lo});
  return copysign(r.hi, x);
}
// asin(z) for |z| <= 1/2 as z + z^3 P(z^2) (unnormalized hi + lo), the Taylor series of asin (its
// coefficients (2k)! / (4^k k!^2 (2k+1)), k >= 1).
__WF_M __wf_dd __wf_asin_dd(double z) {
  const double c[29] = {0.16666666666666666, 0.074999999999999997, 0.044642857142857144, 0.030381944444444444, 0.022372159090909092, 0.017352764423076924, 0.013964843750000001, 0.011551800896139705, 0.0097616095291940784, 0.0083903358096168151, 0.0073125258735988454, 0.0064472103118896487, 0.0057400376708419236, 0.0051533096823199046, 0.0046601434869150962, 0.0042409070936793632, 0.0038809645588376691, 0.0035692053938259347, 0.0032970595034734849, 0.0030578216492580306, 0.0028461784011089421, 0.0026578706382072901, 0.0024894486782468836, 0.002338091892111975, 0.0022014739737101384, 0.0020776610325181676, 0.0019650336162772837, 0.0018622264064031275, 0.0017680811205154183};
  double z2 = z * z, p = c[28];
  for (int k = 27; k >= 0; --k) p = fma(p, z2, c[k]);
  return {z, z * z2 * p};
}
// 2 asin(sqrt(w)) for 0 <= w <= 1/4 as hi + lo, the root's rounding error carried to first order.
__WF_M __wf_dd __wf_asin_half(double w) {
  double s = sqrt(w), sl = s > 0.0 ? fma(-s, s, w) / (2.0 * s) : 0.0;
  __wf_dd a = __wf_asin_dd(s);
  return __wf_dd_norm(2.0 * a.hi, 2.0 * (a.lo + sl / sqrt(1.0 - w)));
}
// |x| > 1/2: asin(x) = pi/2 - 2 asin(sqrt((1 - |x|) / 2)) (1 - |x| and the halving exact);
// acos through the same, with pi/2 and pi as hi + lo and one rounding at the end.
__WF_MN double __wf_asin(double x) {
  double a = fabs(x);
  if (!(a <= 1.0)) return __builtin_nan("");
  if (a <= 0.5) { __wf_dd r = __wf_asin_dd(x); return r.hi + r.lo; }
  __wf_dd t = __wf_asin_half(0.5 * (1.0 - a));
  double r = __wf_dd_add({1.5707963267948966, 6.123233995736766e-17}, {-t.hi, -t.lo}).hi;
  return x < 0 ? -r : r;
}
__WF_MN double __wf_acos(double x) {
  if (!(fabs(x) <= 1.0)) return __builtin_nan("");
  if (x > 0.5) return __wf_asin_half(0.5 * (1.0 - x)).hi;
  if (x < -0.5) {
    __wf_dd t = __wf_asin_half(0.5 * (1.0 + x));
    return __wf_dd_add({3.1415926535897931, 1.2246467991473532e-16}, {-t.hi, -t.lo}).hi;
  }
  __wf_dd t = __wf_asin_dd(x);
  return __wf_dd_add({1.5707963267948966, 6.123233995736766e-17}, {-t.hi, -t.lo}).hi;
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
  if (x != x || x == 0) return x + x;
  if (x > 709.782712893384) return __builtin_inf();
  if (x < -40.0) return -1.0; // e^x below half an ulp of 1
  return __wf_expm1_dd(x).hi;
}
// log1p(x) = log(u) + log1p(ul/u) with 1 + x = u + ul exactly.
__WF_MN double __wf_log1p(double x) {
  if (x != x || x == 0 || x == __builtin_inf()) return x + x;
  if (x < -1.0) return __builtin_nan("");
  if (x == -1.0) return -__builtin_inf();
  __wf_dd u = __wf_two_sum(1.0, x);
  __wf_dd l = __wf_log_dd(u.hi);
  double c = u.lo / u.hi;
  return l.hi + (l.lo + (c - 0.5 * c * c));
}
// x^y = e^(y log x) with log x as hi + lo (relative error about 2^-67) and the product split
// exactly (fma), so that e^ gets the exponent to within 2^-60 for any result in range.
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
  __wf_dd l = __wf_log_dd(ax);
  double ph = __dmul_rn(y, l.hi), pl = fma(y, l.hi, -ph) + y * l.lo;
  double r = __wf_exp_hl(ph, pl);
  return (x < 0 && yodd) ? -r : r;
}
// ---- the public functions ---------------------------------------------------------------------------
__WF_M double exp(double x) { return __wf_exp(x); }
__WF_M double exp2(double x) {
  if (x != x) return x + x;
  if (x >= 1024) return __builtin_inf();
  if (x < -1076) return 0.0;
  double n = rint(x), f = x - n; // exact
  double h = __dmul_rn(f, 6.9314718055994529e-01);
  double l = fma(f, 6.9314718055994529e-01, -h) + f * 2.3190468138462996e-17;
  __wf_edd e = __wf_exp_dd(h, l);
  return __wf_scale(e.hi + e.lo, e.n + (int)n);
}
__WF_M double exp10(double x) {
  if (x != x) return x + x;
  if (x > 309) return __builtin_inf();
  if (x < -324) return 0.0;
  double h = __dmul_rn(x, 2.3025850929940459);
  double l = fma(x, 2.3025850929940459, -h) + x * -2.1707562233822494e-16;
  return __wf_exp_hl(h, l);
}
__WF_M double expm1(double x) { return __wf_expm1(x); }
__WF_M double log(double x) { return __wf_log(x); }
__WF_M double log2(double x) {
  if (!(x > 0) || x == __builtin_inf()) return __wf_log(x) * 1.4426950408889634;
  __wf_dd l = __wf_log_dd(x);
  double ph = __dmul_rn(l.hi, 1.4426950408889634);
  return ph + (fma(l.hi, 1.4426950408889634, -ph) + l.hi * 2.0355273740931033e-17 +
               l.lo * 1.4426950408889634);
}
__WF_M double log10(double x) {
  if (!(x > 0) || x == __builtin_inf()) return __wf_log(x);
  __wf_dd l = __wf_log_dd(x);
  double ph = __dmul_rn(l.hi, 0.43429448190325182);
  return ph + (fma(l.hi, 0.43429448190325182, -ph) + l.hi * 1.0983196502167651e-17 +
               l.lo * 0.43429448190325182);
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
__WF_M double cbrt(double x);
__WF_M double erf(double x);
// Hyperbolic functions from e^a or e^a - 1 in double-double, rounded once. Beyond |x| = 40 the
// e^-|x| terms are below 2^-115 of the result: sinh and cosh are e^|x| / 2, scaled past the
// overflow of e^x.
__WF_MN double __wf_exp_half(double a) {
  if (a > 711.0) return __builtin_inf();
  __wf_edd e = __wf_exp_dd(a, 0.0);
  return __wf_scale(e.hi + e.lo, e.n - 1);
}
__WF_MN double sinh(double x) {
  double a = fabs(x), r;
  if (a != a) return x + x;
  if (a > 40.0) r = __wf_exp_half(a);
  else { // (m + m / (1 + m)) / 2 with m = e^a - 1: no cancellation near 0
    __wf_dd m = __wf_expm1_dd(a);
    __wf_dd s = __wf_dd_add(m, __wf_dd_div(m, __wf_dd_add({1.0, 0.0}, m)));
    r = 0.5 * s.hi;
  }
  return copysign(r, x);
}
__WF_MN double cosh(double x) {
  double a = fabs(x);
  if (a != a) return a;
  if (a > 40.0) return __wf_exp_half(a);
  __wf_edd e = __wf_exp_dd(a, 0.0);
  __wf_dd E = {__wf_scale(e.hi, e.n), __wf_scale(e.lo, e.n)};
  return 0.5 * __wf_dd_add(E, __wf_dd_div({1.0, 0.0}, E)).hi;
}
__WF_MN double tanh(double x) {
  double a = fabs(x), r;
  if (a != a) return x + x;
  if (a > 22.0) r = 1.0; // 1 - tanh(a) < 2^-63
  else { // m / (m + 2) with m = e^(2a) - 1
    __wf_dd m = __wf_expm1_dd(2.0 * a);
    r = __wf_dd_div(m, __wf_dd_add({2.0, 0.0}, m)).hi;
  }
  return copysign(r, x);
}
__WF_M double hypot(double a, double b) {
  a = fabs(a); b = fabs(b);
  if (a == __builtin_inf() || b == __builtin_inf()) return __builtin_inf();
  if (a != a || b != b) return a + b; // before fmax, which drops NaNs
  double m = fmax(a, b), n = fmin(a, b);
  if (m == 0 || m != m || n != n) return a + b;
  double q = n / m;
  return m * sqrt(fma(q, q, 1.0));
}
__WF_M double ldexp(double x, int n) { return __wf_scale(x, n); }
__WF_M double frexp(double x, int *e) {
  if (x == 0 || !(fabs(x) < __builtin_inf())) { *e = 0; return x; }
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
__WF_M float sinpif(float x);
__WF_M float cospif(float x);
__WF_M float atanf(float x) { return (float)__wf_atan(x); }
__WF_M float asinf(float x) { return (float)__wf_asin(x); }
__WF_M float acosf(float x) { return (float)__wf_acos(x); }
__WF_M float atan2f(float y, float x) { return (float)__wf_atan2(y, x); }
__WF_M float sinhf(float x) { return (float)sinh((double)x); }
__WF_M float coshf(float x) { return (float)cosh((double)x); }
__WF_M float tanhf(float x) { return (float)tanh((double)x); }
__WF_M float powf(float x, float y) { return (float)__wf_pow(x, y); }
__WF_M float cbrtf(float x);
__WF_M float erff(float x);
__WF_M float hypotf(float a, float b) {
  if (fabsf(a) == __builtin_inff() || fabsf(b) == __builtin_inff()) return __builtin_inff();
  double da = a, db = b;
  return (float)sqrt(da * da + db * db);
}
__WF_M float ldexpf(float x, int n) { return (float)__wf_scale(x, n < -400 ? -400 : n > 400 ? 400 : n); }
__WF_M float frexpf(float x, int *e) { return (float)frexp((double)x, e); }
__WF_M float fmodf(float a, float b) { return (float)fmod((double)a, (double)b); }
__WF_M float rcbrtf(float x);


// ---- second part: exact and rounding helpers ----------------------------------------------------
__WF_M double modf(double x, double *ip) {
  double t = trunc(x);
  *ip = t;
  if (fabs(x) == __builtin_inf()) return copysign(0.0, x);
  return copysign(x - t, x); // exact; keeps the sign of zero fractions
}
__WF_M float modff(float x, float *ip) {
  double i, f = modf((double)x, &i);
  *ip = (float)i;
  return (float)f;
}
// x - n*y with n the integer nearest x/y (ties to even); quo gets n's sign and low three bits.
__WF_MN double remquo(double x, double y, int *quo) {
  *quo = 0;
  if (x != x || y != y) return x + y;
  if (y == 0 || fabs(x) == __builtin_inf()) return __builtin_nan("");
  double a = fabs(x), b = fabs(y);
  double r = b <= 1.1235582092889474e+307 ? fmod(a, 8.0 * b) : a;
  int q = 0;
  for (int i = 4; i >= 1; i >>= 1) // each subtraction is exact (r lies in [i*b, 2*i*b))
    if (r >= i * b) { r -= i * b; q += i; }
  if (2.0 * r > b || (2.0 * r == b && (q & 1))) { r -= b; ++q; }
  *quo = (__signbitd(x) != __signbitd(y)) ? -(q & 7) : (q & 7);
  return __signbitd(x) ? -r : r; // a zero result keeps the sign of x
}
__WF_M double remainder(double x, double y) { int q; return remquo(x, y, &q); }
__WF_M float remquof(float x, float y, int *quo) { return (float)remquo((double)x, (double)y, quo); }
__WF_M float remainderf(float x, float y) { int q; return (float)remquo((double)x, (double)y, &q); }
__WF_M int ilogb(double x) {
  if (x != x || x == 0) return (int)0x80000000u;
  if (fabs(x) == __builtin_inf()) return 0x7fffffff;
  int e; frexp(x, &e);
  return e - 1;
}
__WF_M int ilogbf(float x) { return ilogb((double)x); }
__WF_M double logb(double x) {
  if (x != x) return x;
  if (x == 0) return -__builtin_inf();
  if (fabs(x) == __builtin_inf()) return __builtin_inf();
  return (double)ilogb(x);
}
__WF_M float logbf(float x) { return (float)logb((double)x); }
__WF_M double scalbn(double x, int n) { return __wf_scale(x, n); }
__WF_M double scalbln(double x, long n) { return __wf_scale(x, n > 4000 ? 4000 : n < -4000 ? -4000 : (int)n); }
__WF_M float scalbnf(float x, int n) { return ldexpf(x, n); }
__WF_M float scalblnf(float x, long n) { return ldexpf(x, n > 400 ? 400 : n < -400 ? -400 : (int)n); }
__WF_M long lrint(double x) { return (long)rint(x); }
__WF_M long long llrint(double x) { return (long long)rint(x); }
__WF_M long long llrintf(float x) { return (long long)rintf(x); }
__WF_M long lround(double x) { return (long)round(x); }
__WF_M long long llround(double x) { return (long long)round(x); }


// cbrt with a Newton step whose residual r^3 - a is computed exactly (fma).
__WF_MN double __wf_cbrt2(double x) {
  if (x == 0 || !(fabs(x) < __builtin_inf())) return x + x;
  double a = fabs(x);
  int sc = 0; // keeps r^3 within range: cbrt(a 2^(3s)) = cbrt(a) 2^s
  if (a < 0x1p-900) { a *= 0x1p162; sc = -54; }
  else if (a > 0x1p900) { a *= 0x1p-162; sc = 54; }
  double r = __wf_exp(__wf_log(a) / 3.0);
  for (int i = 0; i < 2; ++i) {
    double r2 = __dmul_rn(r, r), r2l = fma(r, r, -r2);
    double r3 = __dmul_rn(r2, r), r3l = fma(r2, r, -r3) + r2l * r;
    double res = (r3 - a) + r3l;
    r = r - res / (3.0 * r2);
  }
  return copysign(sc ? __wf_scale(r, sc) : r, x);
}

// sin(pi x) and cos(pi x): exact reduction to |r| <= 1/4, pi*r as hi + lo.
__WF_MN void __wf_sincospi(double x, double *sp, double *cp) {
  if (!(fabs(x) < __builtin_inf())) { *sp = *cp = __builtin_nan(""); return; }
  if (fabs(x) >= 4503599627370496.0) { // 2^52: an integer (even from 2^53 on)
    *sp = copysign(0.0, x);
    *cp = fabs(x) < 9007199254740992.0 && ((unsigned long long)fabs(x) & 1) ? -1.0 : 1.0;
    return;
  }
  double n = rint(2.0 * x), r = x - 0.5 * n; // exact
  long long q = fabs(n) < 9007199254740992.0 ? (long long)n & 3 : 0;
  double ph = r * 3.1415926535897931, pl = fma(r, 3.1415926535897931, -ph) + r * 1.2246467991473532e-16;
  double s = __wf_sin_poly(ph), c = __wf_cos_poly(ph);
  s = fma(pl, c, s);
  c = fma(-pl, s, c);
  double rs, rc;
  switch ((int)q) {
  case 0: rs = s; rc = c; break;
  case 1: rs = c; rc = -s; break;
  case 2: rs = -s; rc = -c; break;
  default: rs = -c; rc = s; break;
  }
  if (r == 0) { // integers and half-integers: exact zeros (sin keeps the sign of x; cos is +0)
    if ((q & 1) == 0) rs = copysign(0.0, x);
    else rc = 0.0;
  }
  *sp = rs; *cp = rc;
}
__WF_M double sinpi(double x) { double s, c; __wf_sincospi(x, &s, &c); return s; }
__WF_M double cospi(double x) { double s, c; __wf_sincospi(x, &s, &c); return c; }
__WF_M void sincospi(double x, double *s, double *c) { __wf_sincospi(x, s, c); }
__WF_M void sincospif(float x, float *s, float *c) {
  double ds, dc; __wf_sincospi(x, &ds, &dc); *s = (float)ds; *c = (float)dc;
}

// ---- inverse hyperbolic functions ------------------------------------------------------------------
__WF_M double acosh(double x) {
  if (!(x >= 1.0)) return __builtin_nan("");
  if (x > 268435456.0) return x == __builtin_inf() ? x : __wf_log(x) + 6.93147180559945286e-01;
  if (x > 2.0) return __wf_log(2.0 * x - 1.0 / (x + sqrt(fma(x, x, -1.0))));
  double t = x - 1.0;
  return __wf_log1p(t + sqrt(2.0 * t + t * t));
}
__WF_M double asinh(double x) {
  double a = fabs(x), r;
  if (!(a < __builtin_inf()) || a < 1e-300) return x; // NaN, infinities, tiny values
  if (a > 268435456.0) r = __wf_log(a) + 6.93147180559945286e-01;
  else if (a > 2.0) r = __wf_log(2.0 * a + 1.0 / (sqrt(fma(a, a, 1.0)) + a));
  else { double t = a * a; r = __wf_log1p(a + t / (1.0 + sqrt(1.0 + t))); }
  return copysign(r, x);
}
__WF_M double atanh(double x) {
  double a = fabs(x), r;
  if (!(a <= 1.0)) return __builtin_nan("");
  if (a == 1.0) return copysign(__builtin_inf(), x);
  if (a < 0.5) { double t = a + a; r = 0.5 * __wf_log1p(t + t * a / (1.0 - a)); }
  else r = 0.5 * __wf_log1p((a + a) / (1.0 - a));
  return copysign(r, x);
}
__WF_M float acoshf(float x) { return (float)acosh((double)x); }
__WF_M float asinhf(float x) { return (float)asinh((double)x); }
__WF_M float atanhf(float x) { return (float)atanh((double)x); }

// ---- norms ------------------------------------------------------------------------------------------
// Scaled by a power of two (exact) so that the sum of squares neither overflows nor underflows.
__WF_MN double __wf_norm(int n, const double *v, bool reciprocal) {
  double m = 0.0;
  bool nan = false;
  for (int i = 0; i < n; ++i) { double a = fabs(v[i]); if (a != a) nan = true; else if (a > m) m = a; }
  if (m == __builtin_inf()) return reciprocal ? 0.0 : m;
  if (nan) return __builtin_nan("");
  if (m == 0.0) return reciprocal ? __builtin_inf() : 0.0;
  int e; frexp(m, &e);
  __wf_dd s = {0.0, 0.0}; // the sum of squares in double-double, then one Newton step on the root
  for (int i = 0; i < n; ++i) {
    double t = __wf_scale(v[i], -e), p = __dmul_rn(t, t);
    s = __wf_dd_add(s, {p, fma(t, t, -p)});
  }
  if (reciprocal) { // y + y (1 - s y^2) / 2
    double y = 1.0 / sqrt(s.hi);
    double y2 = __dmul_rn(y, y), y2l = fma(y, y, -y2), p = __dmul_rn(s.hi, y2);
    double d = ((1.0 - p) - fma(s.hi, y2, -p)) - (s.hi * y2l + s.lo * y2);
    return __wf_scale(fma(y, 0.5 * d, y), -e);
  }
  double r = sqrt(s.hi); // r + (s - r^2) / (2 r)
  return __wf_scale(r + (fma(-r, r, s.hi) + s.lo) / (2.0 * r), e);
}
__WF_M double norm(int n, const double *v) { return __wf_norm(n, v, false); }
__WF_M double rnorm(int n, const double *v) { return __wf_norm(n, v, true); }
__WF_M double norm3d(double a, double b, double c) { double v[3] = {a, b, c}; return __wf_norm(3, v, false); }
__WF_M double rnorm3d(double a, double b, double c) { double v[3] = {a, b, c}; return __wf_norm(3, v, true); }
__WF_M double norm4d(double a, double b, double c, double d) { double v[4] = {a, b, c, d}; return __wf_norm(4, v, false); }
__WF_M double rnorm4d(double a, double b, double c, double d) { double v[4] = {a, b, c, d}; return __wf_norm(4, v, true); }
__WF_M double rhypot(double a, double b) { double v[2] = {a, b}; return __wf_norm(2, v, true); }
__WF_M double rcbrt(double x) {
  if (x == 0) return copysign(__builtin_inf(), x);
  if (!(fabs(x) < __builtin_inf())) return x != x ? x : copysign(0.0, x);
  double a = fabs(x);
  int sc = 0; // keeps a r^3 within range: rcbrt(a 2^(3s)) = rcbrt(a) 2^-s
  if (a < 0x1p-900) { a *= 0x1p162; sc = 54; }
  else if (a > 0x1p900) { a *= 0x1p-162; sc = -54; }
  double r = 1.0 / __wf_cbrt2(a);
  double r2 = __dmul_rn(r, r), r3 = __dmul_rn(r2, r);
  double e = fma(-a, r3, 1.0) - a * (fma(r2, r, -r3) + fma(r, r, -r2) * r); // 1 - a r^3
  r = fma(r, e / 3.0, r);
  return copysign(sc ? __wf_scale(r, sc) : r, x);
}
__WF_M float normf(int n, const float *v) {
  for (int i = 0; i < n; ++i) if (fabsf(v[i]) == __builtin_inff()) return __builtin_inff();
  double s = 0; for (int i = 0; i < n; ++i) s = fma((double)v[i], (double)v[i], s);
  return (float)sqrt(s);
}
__WF_M float rnormf(int n, const float *v) {
  for (int i = 0; i < n; ++i) if (fabsf(v[i]) == __builtin_inff()) return 0.0f;
  double s = 0; for (int i = 0; i < n; ++i) s = fma((double)v[i], (double)v[i], s);
  return (float)(1.0 / sqrt(s));
}
__WF_M float norm3df(float a, float b, float c) { float v[3] = {a, b, c}; return normf(3, v); }
__WF_M float rnorm3df(float a, float b, float c) { float v[3] = {a, b, c}; return rnormf(3, v); }
__WF_M float norm4df(float a, float b, float c, float d) { float v[4] = {a, b, c, d}; return normf(4, v); }
__WF_M float rnorm4df(float a, float b, float c, float d) { float v[4] = {a, b, c, d}; return rnormf(4, v); }
__WF_M float rhypotf(float a, float b) { float v[2] = {a, b}; return rnormf(2, v); }

// ---- error functions ---------------------------------------------------------------------------------
// exp(-(h + l)^2) as 2^n (hi + lo), the square split exactly.
__WF_M __wf_edd __wf_exp_negsq(double h, double l) {
  double s = __dmul_rn(h, h), sl = fma(h, h, -s) + 2.0 * h * l;
  return __wf_exp_dd(-s, -sl);
}
// erfc(a) * exp(a^2) * sqrt(pi) for a >= 0.5: Laplace's continued fraction (more terms near 0.5).
__WF_M double __wf_erfc_cf(double a) {
  int n = a < 1.0 ? 1200 : a < 2.0 ? 250 : 80;
  double f = 0.0;
  for (int k = n; k >= 1; --k) f = (k * 0.5) / (a + f);
  return 1.0 / (a + f);
}
// erf(a) for 0 <= a < 1: Taylor series (terms shrink fast enough to keep cancellation small).
__WF_M double __wf_erf_small(double a) {
  // 2/sqrt(pi) (-1)^n / (n! (2n+1)), n = 0..23: a * P(a^2).
  const double c[24] = {1.1283791670955126, -0.37612638903183754, 0.11283791670955126, -0.026866170645131252, 0.0052239776254421879, -0.00085483270234508533, 0.00012055332981789664, -1.492565035840625e-05, 1.6462114365889248e-06, -1.6365844691234924e-07, 1.4807192815879218e-08, -1.2290555301717928e-09, 9.4227590646504113e-11, -6.7113668551641105e-12, 4.4632242632864775e-13, -2.7835162072109215e-14, 1.6342614095367152e-15, -9.0639708428086728e-17, 4.7633480405150683e-18, -2.3784598852774293e-19, 1.1312187259246311e-20, -5.1362090545858109e-22, 2.2308786802746453e-23, -9.2867290113190594e-25};
  double z = a * a, p = c[23];
  for (int n = 22; n >= 0; --n) p = fma(p, z, c[n]);
  return a * p;
}
// erfc of (h + l), h >= 0.
__WF_MN double __wf_erfc_hl(double h, double l) {
  if (h < 0.5) return 1.0 - __wf_erf_small(h + l);
  if (h > 27.3) return 0.0;
  __wf_edd e = __wf_exp_negsq(h, l);
  double f = __wf_erfc_cf(h + l) * 0.56418958354775628;
  return __wf_scale(__wf_dd_muld({e.hi, e.lo}, f).hi, e.n);
}
__WF_MN double __wf_erf2(double x) {
  if (x != x) return x;
  double a = fabs(x), r;
  if (a < 1.0) r = __wf_erf_small(a);
  else if (a < 6.0) r = 1.0 - __wf_erfc_hl(a, 0.0);
  else r = 1.0;
  return copysign(r, x);
}
__WF_MN double __wf_erfc(double x) {
  if (x != x) return x;
  if (x < 0) return 2.0 - __wf_erfc_hl(-x, 0.0);
  return __wf_erfc_hl(x, 0.0);
}
__WF_M double erfc(double x) { return __wf_erfc(x); }
__WF_M float erfcf(float x) { return (float)__wf_erfc(x); }
__WF_MN double erfcx(double x) {
  if (x != x) return x;
  if (x >= 0.5) return x == __builtin_inf() ? 0.0 : __wf_erfc_cf(x) * 0.56418958354775628;
  if (x >= 0) return __wf_exp(x * x) * (1.0 - __wf_erf_small(x));
  if (x < -26.7) return __builtin_inf();
  // erfcx(x) = 2 exp(x^2) - erfcx(-x) for x < 0
  double h = x * x, l = fma(x, x, -h);
  double e = __wf_exp(h) * (1.0 + l);
  return 2.0 * e - (x > -0.5 ? e * (1.0 - __wf_erf_small(-x)) : __wf_erfc_cf(-x) * 0.56418958354775628);
}
__WF_M float erfcxf(float x) { return (float)erfcx((double)x); }
// Inverse: a starting point from the asymptotic form, then Newton steps on erf (|y| <= 1/2) or on
// erfc with the exact complement t = 1 - |y| (else), so that y near 1 keeps its accuracy.
__WF_MN double __wf_erfcinv_pos(double t) { // 0 < t <= 1: the x >= 0 with erfc(x) = t
  if (t == 1.0) return 0.0;
  double x;
  if (t > 0.5) { double y = 1.0 - t; x = 0.886226925452758 * y * (1.0 + 0.2617993877991494 * y * y); }
  else {
    x = sqrt(-__wf_log(t));
    for (int i = 0; i < 3; ++i) x = sqrt(-__wf_log(t * 1.7724538509055159 * x));
  }
  if (t < 0x1p-900) { // erfc(x) near underflow: Newton on log erfc(x) = log(erfcx(x)) - x^2
    __wf_dd lt = __wf_log_dd(t);
    for (int i = 0; i < 40; ++i) {
      double s = __dmul_rn(x, x), sl = fma(x, x, -s);
      double ex = __wf_erfc_cf(x) * 0.56418958354775628; // erfcx(x)
      double g = ((-s - lt.hi) + (-sl - lt.lo)) + __wf_log(ex); // log erfc(x) - log t
      double d = g * ex * 0.88622692545275801; // d/dx log erfc(x) = -2 / (sqrt(pi) erfcx(x))
      x += d;
      if (fabs(d) <= 1e-17 * x) break;
    }
    return x;
  }
  for (int i = 0; i < 40; ++i) {
    double f = (x < 0.5 ? 1.0 - __wf_erf_small(x) : __wf_erfc_hl(x, 0.0)) - t;
    double d = f / (1.1283791670955126 * __wf_exp(-x * x));
    x += d;
    if (fabs(d) <= 1e-17 * x) break;
  }
  return x;
}
__WF_MN double erfinv(double y) {
  if (y != y || fabs(y) > 1.0) return __builtin_nan("");
  if (fabs(y) == 1.0) return copysign(__builtin_inf(), y);
  double a = fabs(y), x;
  if (a <= 0.5) {
    x = 0.886226925452758 * a * (1.0 + 0.2617993877991494 * a * a);
    for (int i = 0; i < 40 && a != 0; ++i) {
      double d = (__wf_erf_small(x) - a) / (1.1283791670955126 * __wf_exp(-x * x));
      x -= d;
      if (fabs(d) <= 1e-17 * x) break;
    }
  } else x = __wf_erfcinv_pos(1.0 - a);
  return copysign(x, y);
}
__WF_MN double erfcinv(double t) {
  if (t != t || t < 0.0 || t > 2.0) return __builtin_nan("");
  if (t == 0.0) return __builtin_inf();
  if (t == 2.0) return -__builtin_inf();
  if (t >= 0.5 && t <= 1.5) return erfinv(1.0 - t); // 1 - t is exact; Newton on erf there
  return t <= 1.0 ? __wf_erfcinv_pos(t) : -__wf_erfcinv_pos(2.0 - t);
}
__WF_M float erfinvf(float y) { return (float)erfinv((double)y); }
__WF_M float erfcinvf(float t) { return (float)erfcinv((double)t); }
// normcdf(x) = erfc(-x / sqrt 2) / 2 with -x / sqrt 2 as hi + lo.
__WF_MN double normcdf(double x) {
  if (x != x) return x;
  double h = -x * 0.70710678118654757, l = fma(-x, 0.70710678118654757, -h) - x * -4.8336466567264567e-17;
  if (h >= 0) return 0.5 * __wf_erfc_hl(h, l);
  return 1.0 - 0.5 * __wf_erfc_hl(-h, -l);
}
__WF_M double normcdfinv(double p) {
  double r = -1.4142135623730951 * erfcinv(2.0 * p);
  return r == 0 ? 0.0 : r;
}
__WF_M float normcdff(float x) { return (float)normcdf((double)x); }
__WF_M float normcdfinvf(float p) { return (float)normcdfinv((double)p); }

// ---- gamma functions -----------------------------------------------------------------------------------
// lgamma(1 + z) and lgamma(2 + z) for |z| <= 1/2: power series with zeta(k) coefficients.
__WF_MN double __wf_lgamma1p(double z) {
  const double c[59] = {0.8224670334241132, -0.40068563438653143, 0.27058080842778454, -0.20738555102867398, 0.16955717699740819, -0.14404989676884611, 0.12550966952474304, -0.11133426586956469, 0.10009945751278181, -0.090954017145829041, 0.083353840546109004, -0.076932516411352195, 0.07143294629536133, -0.066668705882420465, 0.062500955141213038, -0.058823978658684585, 0.055555767627403614, -0.052631679379616658, 0.050000047698101693, -0.047619070330142226, 0.045454556293204669, -0.043478266053040261, 0.041666669150341208, -0.040000001192140137, 0.038461539034675182, -0.037037037312989324, 0.035714285847333355, -0.034482758684919304, 0.033333333364377583, -0.032258064531150418, 0.031250000007275971, -0.030303030306558044, 0.029411764707594344, -0.02857142857226011, 0.027777777778181998, -0.027027027027223673, 0.026315789473779948, -0.025641025641072283, 0.025000000000022737, -0.024390243902450117, 0.023809523809529224, -0.023255813953491015, 0.022727272727274019, -0.022222222222222855, 0.021739130434782917, -0.021276595744681003, 0.020833333333333409, -0.020408163265306159, 0.020000000000000018, -0.019607843137254912, 0.019230769230769235, -0.01886792452830189, 0.018518518518518521, -0.018181818181818181, 0.017857142857142856, -0.017543859649122806, 0.017241379310344827, -0.016949152542372881, 0.016666666666666666};
  double p = 0.0;
  for (int k = 58; k >= 0; --k) p = fma(p, z, c[k]);
  return z * fma(p, z, -0.57721566490153287);
}
__WF_MN double __wf_lgamma2p(double z) {
  const double c[50] = {0.3224670334241132, -0.067352301053198102, 0.020580808427784546, -0.0073855510286739857, 0.0028905103307415234, -0.001192753911703261, 0.00050966952474304245, -0.00022315475845357939, 9.9457512781808531e-05, -4.4926236738133142e-05, 2.0507212775670691e-05, -9.4394882752683967e-06, 4.3748667899074882e-06, -2.0392157538013662e-06, 9.5514121304074194e-07, -4.4924691987645662e-07, 2.1207184805554665e-07, -1.0043224823968099e-07, 4.7698101693639804e-08, -2.2711094608943164e-08, 1.0838659214896955e-08, -5.1834750419700466e-09, 2.4836745438024785e-09, -1.1921401405860912e-09, 5.7313672416788623e-10, -2.7595228851242334e-10, 1.3304764374244489e-10, -6.4229645638380996e-11, 3.1044247747322276e-11, -1.5021384080754142e-11, 7.2759744802390792e-12, -3.5277424765759151e-12, 1.711991790559618e-12, -8.315385841420285e-13, 4.0422005252894402e-13, -1.9664756310966165e-13, 9.5736303878385556e-14, -4.6640760264283744e-14, 2.2737369600659724e-14, -1.1091399470834522e-14, 5.4136591567253633e-15, -2.6438800178609949e-15, 1.2918959062789966e-15, -6.3159355041984482e-16, 3.089316266963393e-16, -1.5117930628108198e-16, 7.4014868569523199e-17, -3.6252180481206538e-17, 1.7763568421861633e-17, -8.7076315747917905e-18};
  double p = 0.0;
  for (int k = 49; k >= 0; --k) p = fma(p, z, c[k]);
  return z * fma(p, z, 0.42278433509846713);
}
// lgamma(x) for x >= 10 as hi + lo: Stirling's series with the large terms in double-double.
__WF_MN __wf_dd __wf_lgamma_stirling(double x) {
  double ll, lh = __wf_log_hl(x, &ll);
  double xm = x - 0.5;
  __wf_dd t = __wf_dd_mul({xm, 0.0}, {lh, ll});
  t = __wf_dd_add(t, {-x, 0.0});
  t = __wf_dd_add(t, {0.91893853320467278, -3.8782941580672414e-17});
  double r = 1.0 / x, r2 = r * r;
  const double b[8] = {0.083333333333333329, -0.0027777777777777779, 0.00079365079365079365, -0.00059523809523809529, 0.00084175084175084171, -0.0019175269175269176, 0.00641025641025641, -0.029550653594771242};
  double p = 0.0;
  for (int k = 7; k >= 1; --k) p = fma(p, r2, b[k]);
  double s = r * fma(p, r2, 0.0) + r * b[0];
  return __wf_dd_add(t, {s, 0.0});
}
// lgamma(x) for x > 0 (double-double where the value is large).
__WF_MN __wf_dd __wf_lgamma_pos(double x) {
  if (x >= 10.0) return __wf_lgamma_stirling(x);
  if (x < 0.5) {
    double ll, lh = __wf_log_hl(x, &ll);
    return __wf_dd_add({-lh, -ll}, {__wf_lgamma1p(x), 0.0});
  }
  if (x < 1.5) return {__wf_lgamma1p(x - 1.0), 0.0};
  if (x < 2.5) return {__wf_lgamma2p(x - 2.0), 0.0};
  __wf_dd p = {1.0, 0.0};
  double y = x; // shift down to [1.5, 2.5): each x - k is exact
  while (y >= 2.5) { y -= 1.0; p = __wf_dd_muld(p, y); }
  __wf_dd l = __wf_log_dd(p.hi);
  return __wf_dd_add(__wf_dd_add(l, {p.lo / p.hi, 0.0}), {__wf_lgamma2p(y - 2.0), 0.0});
}
__WF_MN double lgamma(double x) {
  if (x != x) return x + x;
  if (fabs(x) == __builtin_inf()) return __builtin_inf();
  if (fabs(x) > 0x1p60) { // x (log x - 1): the other terms are below 2^-60 of it
    if (x == trunc(x) && x < 0) return __builtin_inf();
    double a = fabs(x);
    return a * (__wf_log(a) - 1.0);
  }
  if (x > 0) return __wf_dd_val(__wf_lgamma_pos(x));
  if (x == trunc(x)) return __builtin_inf();
  if (x > -0.5) { // lgamma(1 + x) - log|x|
    double ll, lh = __wf_log_hl(-x, &ll);
    return __wf_dd_val(__wf_dd_add({-lh, -ll}, {__wf_lgamma1p(x), 0.0}));
  }
  // Reflection: lgamma(x) = log(pi / |sin(pi x)|) - lgamma(1 - x).
  double s = fabs(sinpi(x));
  double sl, sh = __wf_log_hl(s, &sl);
  __wf_dd r = __wf_dd_add({1.1447298858494002, 1.0265951162707826e-17}, {-sh, -sl});
  __wf_dd g = __wf_lgamma_pos(1.0 - x);
  return __wf_dd_val(__wf_dd_add(r, {-g.hi, -g.lo}));
}
// Gamma(x) = e^g f or e^g / f: the recurrence Gamma(x + 1) = x Gamma(x) moves x into [1.5, 2.5)
// (x >= 1.5) or [-1/2, 1/2) (x < 1/2, through Gamma(y) = Gamma(1 + y) / y), every x + i exact and
// their product f in double-double; g = lgamma of the moved argument by its series; Stirling's
// series for x >= 10. One rounding at the end (two for subnormal results).
__WF_MN double tgamma(double x) {
  if (x != x) return x + x;
  if (x == __builtin_inf()) return x;
  if (x == 0) return copysign(__builtin_inf(), x);
  if (fabs(x) < 0x1p-54) return 1.0 / x; // 1/x - gamma + ...: the rest is below 0.15 ulp
  if (x < 0 && x == trunc(x)) return __builtin_nan(""); // poles and -inf
  if (x > 171.7) return __builtin_inf();
  if (x >= 10.0) { __wf_dd g = __wf_lgamma_stirling(x); return __wf_exp_hl(g.hi, g.lo); }
  if (x < -190.0) return copysign(0.0, sinpi(x)); // |Gamma(x)| < 2^-1100
  __wf_dd f = {1.0, 0.0};
  int fe = 0; // f carries a factor 2^-fe (products beyond the double range)
  double g;
  bool divide = false;
  if (x >= 1.5) {
    double y = x;
    while (y >= 2.5) { y -= 1.0; f = __wf_dd_muld(f, y); }
    g = __wf_lgamma2p(y - 2.0);
  } else if (x >= 0.5) {
    g = __wf_lgamma1p(x - 1.0);
  } else {
    double y = x;
    f = {x, 0.0};
    while (y < -0.5) {
      y += 1.0;
      f = __wf_dd_muld(f, y);
      if (fabs(f.hi) > 0x1p600) { f.hi *= 0x1p-600; f.lo *= 0x1p-600; fe += 600; }
    }
    g = __wf_lgamma1p(y);
    divide = true;
  }
  __wf_edd e = __wf_exp_dd(g, 0.0);
  __wf_dd v = {e.hi, e.lo};
  v = divide ? __wf_dd_div(v, f) : __wf_dd_mul(v, f);
  return __wf_scale(v.hi, e.n - fe);
}
__WF_M float lgammaf(float x) { return (float)lgamma((double)x); }
__WF_M float tgammaf(float x) { return (float)tgamma((double)x); }

// ---- Bessel functions ------------------------------------------------------------------------------
// Small arguments: power series summed in double-double (they cancel heavily); large arguments:
// Hankel's asymptotic expansion.
__WF_MN double __wf_bessel_series(double x, int order, bool modified, int kind2) {
  double xh = x * x, xl = fma(x, x, -xh);
  __wf_dd z = {0.25 * xh, 0.25 * xl}; // x^2 / 4
  if (!modified) z = {-z.hi, -z.lo};
  __wf_dd term = {1.0, 0.0}, sum = {1.0, 0.0}, h = {0.0, 0.0}, hs = {0.0, 0.0};
  // kind2 == 0: J/I; kind2 == 1: the Y0 harmonic sum; kind2 == 2: the Y1 psi sum.
  if (kind2 == 2) hs = {1.0, 0.0}; // psi(1) + psi(2) + 2 gamma = H_0 + H_1 = 1
  __wf_dd hsum = kind2 == 2 ? hs : __wf_dd{0.0, 0.0};
  for (int k = 1; k < 200; ++k) {
    term = __wf_dd_divd(__wf_dd_mul(term, z), (double)k * (double)(k + order));
    sum = __wf_dd_add(sum, term);
    if (kind2 == 1) {
      h = __wf_dd_add(h, __wf_dd_divd({1.0, 0.0}, (double)k));
      hsum = __wf_dd_add(hsum, __wf_dd_mul(term, h));
    } else if (kind2 == 2) {
      h = __wf_dd_add(h, __wf_dd_divd({1.0, 0.0}, (double)k)); // H_k
      __wf_dd hk1 = __wf_dd_add(h, __wf_dd_divd({1.0, 0.0}, (double)(k + 1)));
      hsum = __wf_dd_add(hsum, __wf_dd_mul(term, __wf_dd_add(h, hk1)));
    }
    if (fabs(term.hi) < 1e-34 * fabs(sum.hi) && k > 4) break;
  }
  if (kind2 == 0) {
    __wf_dd r = order ? __wf_dd_muld(sum, 0.5 * x) : sum;
    return __wf_dd_val(r);
  }
  double ll, lh = __wf_log_hl(x, &ll);
  __wf_dd lx2 = __wf_dd_add({lh, ll}, {-0.69314718055994529, -2.3190468138462996e-17}); // log(x/2)
  __wf_dd twoOverPi = {0.63661977236758138, -3.9357353350364972e-17};
  if (kind2 == 1) {
    // Y0 = 2/pi [(log(x/2) + gamma) J0 - sum_k (-z)^k H_k / (k!)^2]  (the series carries (-z)^k)
    __wf_dd a = __wf_dd_mul(__wf_dd_add(lx2, {0.57721566490153287, -4.9429151524306449e-18}), sum);
    return __wf_dd_val(__wf_dd_mul(twoOverPi, __wf_dd_add(a, {-hsum.hi, -hsum.lo})));
  }
  // Y1 = 2/pi log(x/2) J1 - 2/(pi x) - (x/2)/pi sum_k (-z)^k (psi(k+1) + psi(k+2)) / (k!(k+1)!),
  // psi(k+1) + psi(k+2) = H_k + H_{k+1} - 2 gamma.
  __wf_dd j1 = __wf_dd_muld(sum, 0.5 * x);
  __wf_dd a = __wf_dd_mul(__wf_dd_mul(twoOverPi, lx2), j1);
  __wf_dd b = __wf_dd_divd(twoOverPi, x);
  __wf_dd ps = __wf_dd_add(hsum, __wf_dd_mul(sum, {-1.1544313298030657, -9.8858303048612898e-18}));
  __wf_dd c = __wf_dd_muld(__wf_dd_mul(ps, {0.31830988618379069, -1.9678676675182486e-17}), 0.5 * x);
  return __wf_dd_val(__wf_dd_add(__wf_dd_add(a, {-b.hi, -b.lo}), {-c.hi, -c.lo}));
}
// Hankel's expansion for x >= 20: J = A (P cos chi - Q sin chi), Y = A (P sin chi + Q cos chi).
__WF_MN double __wf_bessel_large(double x, int order, bool second) {
  double mu = 4.0 * order * order, p = 1.0, q = 0.0, t = 1.0;
  for (int k = 1; k < 40; ++k) {
    t *= (mu - (2.0 * k - 1) * (2.0 * k - 1)) / (k * 8.0 * x);
    if ((k & 1) == 1) q += ((k >> 1) & 1 ? -t : t);
    else p += ((k >> 1) & 1 ? -t : t);
    if (fabs(t) < 1e-17) break;
  }
  double s = __wf_sin(x), c = __wf_cos(x);
  // chi = x - pi/4 (order 0) or x - 3 pi/4 (order 1)
  double cc = order ? (s - c) * 0.70710678118654757 : (c + s) * 0.70710678118654757;
  double sc = order ? -(s + c) * 0.70710678118654757 : (s - c) * 0.70710678118654757;
  double a = sqrt(0.63661977236758138 / x);
  return second ? a * (p * sc + q * cc) : a * (p * cc - q * sc);
}
__WF_M double j0(double x) {
  double a = fabs(x);
  if (a != a) return a;
  if (a == __builtin_inf()) return 0.0;
  return a < 20.0 ? __wf_bessel_series(a, 0, false, 0) : __wf_bessel_large(a, 0, false);
}
__WF_M double j1(double x) {
  double a = fabs(x), r;
  if (a != a) return a;
  if (a == __builtin_inf()) return copysign(0.0, x);
  r = a < 20.0 ? __wf_bessel_series(a, 1, false, 0) : __wf_bessel_large(a, 1, false);
  return __signbitd(x) ? -r : r; // odd
}
__WF_M double y0(double x) {
  if (x != x || x < 0) return __builtin_nan("");
  if (x == 0) return -__builtin_inf();
  if (x == __builtin_inf()) return 0.0;
  return x < 20.0 ? __wf_bessel_series(x, 0, false, 1) : __wf_bessel_large(x, 0, true);
}
__WF_M double y1(double x) {
  if (x != x || x < 0) return __builtin_nan("");
  if (x == 0) return -__builtin_inf();
  if (x == __builtin_inf()) return 0.0;
  if (x < 0x1p-30) return -0.63661977236758138 / x; // -2/(pi x); the next term is below 2^-60 of it
  return x < 20.0 ? __wf_bessel_series(x, 1, false, 2) : __wf_bessel_large(x, 1, true);
}
__WF_M double cyl_bessel_i0(double x) {
  double a = fabs(x);
  if (a != a || a == __builtin_inf()) return a;
  return a > 713.0 ? __builtin_inf() : __wf_bessel_series(a, 0, true, 0);
}
__WF_M double cyl_bessel_i1(double x) {
  double a = fabs(x);
  if (a != a) return a;
  if (a == __builtin_inf()) return x;
  return copysign(a > 713.0 ? __builtin_inf() : __wf_bessel_series(a, 1, true, 0), x);
}
__WF_M float j0f(float x) { return (float)j0((double)x); }
__WF_M float j1f(float x) { return (float)j1((double)x); }
__WF_M float y0f(float x) { return (float)y0((double)x); }
__WF_M float y1f(float x) { return (float)y1((double)x); }
__WF_M float cyl_bessel_i0f(float x) { return (float)cyl_bessel_i0((double)x); }
__WF_M float cyl_bessel_i1f(float x) { return (float)cyl_bessel_i1((double)x); }

__WF_M double cbrt(double x) { return __wf_cbrt2(x); }
__WF_M float cbrtf(float x) { return (float)__wf_cbrt2(x); }
__WF_M float rcbrtf(float x) { return (float)rcbrt((double)x); }
__WF_M double erf(double x) { return __wf_erf2(x); }
__WF_M float erff(float x) { return (float)__wf_erf2(x); }
__WF_M float sinpif(float x) { return (float)sinpi((double)x); }
__WF_M float cospif(float x) { return (float)cospi((double)x); }


__WF_M double nextafter(double x, double y) {
  if (x != x || y != y) return x + y;
  if (x == y) return y;
  if (x == 0) return copysign(4.9406564584124654e-324, y);
  unsigned long long b = __WF_BITS(x);
  b += ((x < y) == (x > 0)) ? 1 : -1;
  return __WF_DBL(b);
}
__WF_M float nextafterf(float x, float y) {
  if (x != x || y != y) return x + y;
  if (x == y) return y;
  if (x == 0) return copysignf(1.40129846e-45f, y);
  unsigned b = __builtin_bit_cast(unsigned, x);
  b += ((x < y) == (x > 0)) ? 1 : -1;
  return __builtin_bit_cast(float, b);
}
// C++ float overloads, as CUDA's math API has them (each the function's f form).
__WF_M float acos(float x) { return acosf(x); }
__WF_M float acosh(float x) { return acoshf(x); }
__WF_M float asin(float x) { return asinf(x); }
__WF_M float asinh(float x) { return asinhf(x); }
__WF_M float atan(float x) { return atanf(x); }
__WF_M float atanh(float x) { return atanhf(x); }
__WF_M float cbrt(float x) { return cbrtf(x); }
__WF_M float ceil(float x) { return ceilf(x); }
__WF_M float cos(float x) { return cosf(x); }
__WF_M float cosh(float x) { return coshf(x); }
__WF_M float erf(float x) { return erff(x); }
__WF_M float erfc(float x) { return erfcf(x); }
__WF_M float exp(float x) { return expf(x); }
__WF_M float exp2(float x) { return exp2f(x); }
__WF_M float expm1(float x) { return expm1f(x); }
__WF_M float fabs(float x) { return fabsf(x); }
__WF_M float floor(float x) { return floorf(x); }
__WF_M float lgamma(float x) { return lgammaf(x); }
__WF_M float log(float x) { return logf(x); }
__WF_M float log10(float x) { return log10f(x); }
__WF_M float log1p(float x) { return log1pf(x); }
__WF_M float log2(float x) { return log2f(x); }
__WF_M float logb(float x) { return logbf(x); }
__WF_M float nearbyint(float x) { return nearbyintf(x); }
__WF_M float rint(float x) { return rintf(x); }
__WF_M float round(float x) { return roundf(x); }
__WF_M float sin(float x) { return sinf(x); }
__WF_M float sinh(float x) { return sinhf(x); }
__WF_M float sqrt(float x) { return sqrtf(x); }
__WF_M float tan(float x) { return tanf(x); }
__WF_M float tanh(float x) { return tanhf(x); }
__WF_M float tgamma(float x) { return tgammaf(x); }
__WF_M float trunc(float x) { return truncf(x); }
__WF_M float atan2(float x, float y) { return atan2f(x, y); }
__WF_M float copysign(float x, float y) { return copysignf(x, y); }
__WF_M float fdim(float x, float y) { return fdimf(x, y); }
__WF_M float fmax(float x, float y) { return fmaxf(x, y); }
__WF_M float fmin(float x, float y) { return fminf(x, y); }
__WF_M float fmod(float x, float y) { return fmodf(x, y); }
__WF_M float hypot(float x, float y) { return hypotf(x, y); }
__WF_M float nextafter(float x, float y) { return nextafterf(x, y); }
__WF_M float pow(float x, float y) { return powf(x, y); }
__WF_M float remainder(float x, float y) { return remainderf(x, y); }
__WF_M float fma(float x, float y, float z) { return fmaf(x, y, z); }
__WF_M float frexp(float x, int *e) { return frexpf(x, e); }
__WF_M float ldexp(float x, int n) { return ldexpf(x, n); }
__WF_M float scalbn(float x, int n) { return scalbnf(x, n); }
__WF_M float scalbln(float x, long n) { return scalblnf(x, n); }
__WF_M int ilogb(float x) { return ilogbf(x); }
__WF_M long lrint(float x) { return lrintf(x); }
__WF_M long lround(float x) { return lroundf(x); }
__WF_M long long llrint(float x) { return llrintf(x); }
__WF_M long long llround(float x) { return llroundf(x); }
__WF_M float modf(float x, float *ip) { return modff(x, ip); }
__WF_M float remquo(float x, float y, int *q) { return remquof(x, y, q); }
__WF_M void sincos(float x, float *s, float *c) { sincosf(x, s, c); }

#undef __WF_BITS
#undef __WF_DBL

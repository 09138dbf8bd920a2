// Warpforge CUDA headers: __half / __half2 types and their conversions (part of cuda_fp16.h).
// Written for Warpforge.
#pragma once
#include "__wf_host_defines.h"
#include "vector_types.h"

// ---- bit-level conversions usable on host and device -------------------------------------------
// Host: software float <-> binary16, round to nearest even. Device: cvt.
static __host__ __device__ inline unsigned short __wf_f2h_sw(float f) {
  unsigned x = __builtin_bit_cast(unsigned, f);
  unsigned short s = (unsigned short)((x >> 16) & 0x8000u);
  unsigned a = x & 0x7fffffffu;
  if (a >= 0x7f800000u) return (unsigned short)(s | (a > 0x7f800000u ? 0x7e00u : 0x7c00u));
  if (a >= 0x477ff000u) return (unsigned short)(s | 0x7c00u);  // >= 65520: rounds to infinity
  if (a < 0x33000000u) return s;                                 // < 2^-25 (2^-25 ties to 0)
  unsigned e = a >> 23, m = (a & 0x7fffffu) | 0x800000u;
  if (e < 113) {  // half subnormal: units of 2^-24
    unsigned shift = 126 - e, r = m >> shift, rem = m & ((1u << shift) - 1), hw = 1u << (shift - 1);
    if (rem > hw || (rem == hw && (r & 1))) ++r;
    return (unsigned short)(s | r);
  }
  unsigned r = ((e - 112) << 10) + ((m >> 13) & 0x3ffu), rem = m & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (r & 1))) ++r;  // a carry into the exponent is correct
  return (unsigned short)(s | r);
}
static __host__ __device__ inline float __wf_h2f_sw(unsigned short h) {
  unsigned s = (unsigned)(h & 0x8000u) << 16, e = (h >> 10) & 31u, m = h & 1023u;
  if (e == 31) return __builtin_bit_cast(float, s | 0x7f800000u | (m << 13));
  if (e == 0) {
    float v = (float)m * 5.9604644775390625e-8f;  // m * 2^-24, exact
    return s ? -v : v;
  }
  return __builtin_bit_cast(float, s | ((e + 112) << 23) | (m << 13));
}
static __host__ __device__ __forceinline__ unsigned short __wf_f2h_rn(float f) {
#ifdef __CUDA_ARCH__
  unsigned short r;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(r) : "f"(f));
  return r;
#else
  return __wf_f2h_sw(f);
#endif
}
static __host__ __device__ __forceinline__ float __wf_h2f(unsigned short h) {
#ifdef __CUDA_ARCH__
  float r;
  asm("cvt.f32.f16 %0, %1;" : "=f"(r) : "h"(h));
  return r;
#else
  return __wf_h2f_sw(h);
#endif
}

// ---- types --------------------------------------------------------------------------------------
typedef struct __align__(2) { unsigned short x; } __half_raw;
typedef struct __align__(4) { unsigned short x, y; } __half2_raw;

struct __align__(2) __half {
  unsigned short __x;
  __half() = default;
  __host__ __device__ constexpr __half(const __half_raw &r) : __x(r.x) {}
  __host__ __device__ __half(float f) : __x(__wf_f2h_rn(f)) {}
  __host__ __device__ __half(double d) : __x(__wf_f2h_rn((float)d)) {}
  __host__ __device__ __half(int v) : __x(__wf_f2h_rn((float)v)) {}
  __host__ __device__ __half(unsigned v) : __x(__wf_f2h_rn((float)v)) {}
  __host__ __device__ __half(short v) : __x(__wf_f2h_rn((float)v)) {}
  __host__ __device__ __half(unsigned short v) : __x(__wf_f2h_rn((float)v)) {}
  __host__ __device__ __half(long long v) : __x(__wf_f2h_rn((float)v)) {}
  __host__ __device__ __half(unsigned long long v) : __x(__wf_f2h_rn((float)v)) {}
  __host__ __device__ __half &operator=(const __half_raw &r) { __x = r.x; return *this; }
  __host__ __device__ __half &operator=(float f) { __x = __wf_f2h_rn(f); return *this; }
  __host__ __device__ __half &operator=(double d) { __x = __wf_f2h_rn((float)d); return *this; }
  __host__ __device__ operator __half_raw() const { __half_raw r; r.x = __x; return r; }
  __host__ __device__ operator float() const { return __wf_h2f(__x); }
  __host__ __device__ explicit operator bool() const { return (__x & 0x7fffu) != 0; }
};

struct __align__(4) __half2 {
  __half x, y;
  __half2() = default;
  __host__ __device__ constexpr __half2(const __half &a, const __half &b) : x(a), y(b) {}
  __host__ __device__ __half2(const __half2_raw &r) {
    __half_raw a, b;
    a.x = r.x; b.x = r.y;
    x = a; y = b;
  }
  __host__ __device__ __half2 &operator=(const __half2_raw &r) { *this = __half2(r); return *this; }
  __host__ __device__ operator __half2_raw() const {
    __half2_raw r;
    r.x = x.__x; r.y = y.__x;
    return r;
  }
};

typedef __half half;
typedef __half2 half2;
typedef __half __nv_half;
typedef __half2 __nv_half2;

// ---- raw access -----------------------------------------------------------------------------------
static __host__ __device__ __forceinline__ __half __wf_mkh(unsigned short b) { __half_raw r; r.x = b; return __half(r); }
static __host__ __device__ __forceinline__ unsigned __wf_h2u(__half2 h) { return __builtin_bit_cast(unsigned, h); }
static __host__ __device__ __forceinline__ __half2 __wf_u2h2(unsigned u) { return __builtin_bit_cast(__half2, u); }

static __host__ __device__ __forceinline__ short __half_as_short(__half h) { return (short)h.__x; }
static __host__ __device__ __forceinline__ unsigned short __half_as_ushort(__half h) { return h.__x; }
static __host__ __device__ __forceinline__ __half __short_as_half(short s) { return __wf_mkh((unsigned short)s); }
static __host__ __device__ __forceinline__ __half __ushort_as_half(unsigned short s) { return __wf_mkh(s); }

// ---- float / double conversions ------------------------------------------------------------------
static __host__ __device__ __forceinline__ __half __float2half(float f) { return __wf_mkh(__wf_f2h_rn(f)); }
static __host__ __device__ __forceinline__ __half __float2half_rn(float f) { return __wf_mkh(__wf_f2h_rn(f)); }
static __host__ __device__ __forceinline__ float __half2float(__half h) { return __wf_h2f(h.__x); }
#ifdef __CUDA_ARCH__
#define __WF_F2H(NAME, RND)                                                                        \
  static __host__ __device__ __forceinline__ __half NAME(float f) {                                \
    unsigned short r;                                                                              \
    asm("cvt." RND ".f16.f32 %0, %1;" : "=h"(r) : "f"(f));                                         \
    return __wf_mkh(r);                                                                            \
  }
__WF_F2H(__float2half_rz, "rz")
__WF_F2H(__float2half_rd, "rm")
__WF_F2H(__float2half_ru, "rp")
#undef __WF_F2H
static __host__ __device__ __forceinline__ __half __double2half(double d) {
  unsigned short r;
  asm("cvt.rn.f16.f64 %0, %1;" : "=h"(r) : "d"(d));
  return __wf_mkh(r);
}
#else
// Host: the directed roundings step the nearest result by one ulp where it lies on the wrong side.
static __host__ __device__ inline __half __wf_f2h_dir_host(float f, int dir) {  // dir: 0 toward zero, -1 down, +1 up
  unsigned short h = __wf_f2h_sw(f);
  if (f != f) return __wf_mkh(h);
  float g = __wf_h2f_sw(h);
  bool neg = (h & 0x8000u) != 0;
  if (dir == 0) return __wf_mkh((unsigned short)((g < 0 ? -g : g) > (f < 0 ? -f : f) ? h - 1 : h));
  if (dir < 0 && g > f) return __wf_mkh((unsigned short)(h == 0 ? 0x8001u : neg ? h + 1 : h - 1));
  if (dir > 0 && g < f) return __wf_mkh((unsigned short)(h == 0x8000u ? 0x0001u : neg ? h - 1 : h + 1));
  return __wf_mkh(h);
}
static __host__ __device__ inline __half __float2half_rz(float f) { return __wf_f2h_dir_host(f, 0); }
static __host__ __device__ inline __half __float2half_rd(float f) { return __wf_f2h_dir_host(f, -1); }
static __host__ __device__ inline __half __float2half_ru(float f) { return __wf_f2h_dir_host(f, 1); }
static __host__ __device__ inline __half __double2half(double d) { return __wf_mkh(__wf_f2h_sw((float)d)); }
#endif

static __host__ __device__ __forceinline__ __half2 __halves2half2(__half lo, __half hi) { return __half2(lo, hi); }
static __host__ __device__ __forceinline__ __half2 make_half2(__half x, __half y) { return __half2(x, y); }
static __host__ __device__ __forceinline__ __half2 __half2half2(__half h) { return __half2(h, h); }
static __host__ __device__ __forceinline__ __half2 __float2half2_rn(float f) { __half h = __float2half_rn(f); return __half2(h, h); }
static __host__ __device__ __forceinline__ __half2 __floats2half2_rn(float lo, float hi) {
  return __half2(__float2half_rn(lo), __float2half_rn(hi));
}
static __host__ __device__ __forceinline__ __half2 __float22half2_rn(float2 f) { return __floats2half2_rn(f.x, f.y); }
static __host__ __device__ __forceinline__ float2 __half22float2(__half2 h) {
  float2 r;
  r.x = __half2float(h.x); r.y = __half2float(h.y);
  return r;
}
static __host__ __device__ __forceinline__ __half __low2half(__half2 h) { return h.x; }
static __host__ __device__ __forceinline__ __half __high2half(__half2 h) { return h.y; }
static __host__ __device__ __forceinline__ float __low2float(__half2 h) { return __half2float(h.x); }
static __host__ __device__ __forceinline__ float __high2float(__half2 h) { return __half2float(h.y); }
static __host__ __device__ __forceinline__ __half2 __low2half2(__half2 h) { return __half2(h.x, h.x); }
static __host__ __device__ __forceinline__ __half2 __high2half2(__half2 h) { return __half2(h.y, h.y); }
static __host__ __device__ __forceinline__ __half2 __lows2half2(__half2 a, __half2 b) { return __half2(a.x, b.x); }
static __host__ __device__ __forceinline__ __half2 __highs2half2(__half2 a, __half2 b) { return __half2(a.y, b.y); }
static __host__ __device__ __forceinline__ __half2 __lowhigh2highlow(__half2 h) { return __half2(h.y, h.x); }

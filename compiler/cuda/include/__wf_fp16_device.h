// Warpforge CUDA headers: __half / __half2 device intrinsics, math, warp functions, atomics and
// operators (part of cuda_fp16.h). Inline PTX on .f16 / .f16x2 / .b16. Written for Warpforge.
#pragma once
#include "__wf_fp16_types.h"
#include "__wf_device_functions.h"
#include "__wf_math.h"

#define __WF_H static __device__ __forceinline__

// ---- integer conversions ------------------------------------------------------------------------
#define __WF_H2I(NAME, RT, RC, ITYPE)                                                              \
  __WF_H RT NAME##_rn(__half h) { RT r; asm("cvt.rni." ITYPE ".f16 %0, %1;" : "=" RC(r) : "h"(h.__x)); return r; } \
  __WF_H RT NAME##_rz(__half h) { RT r; asm("cvt.rzi." ITYPE ".f16 %0, %1;" : "=" RC(r) : "h"(h.__x)); return r; } \
  __WF_H RT NAME##_rd(__half h) { RT r; asm("cvt.rmi." ITYPE ".f16 %0, %1;" : "=" RC(r) : "h"(h.__x)); return r; } \
  __WF_H RT NAME##_ru(__half h) { RT r; asm("cvt.rpi." ITYPE ".f16 %0, %1;" : "=" RC(r) : "h"(h.__x)); return r; }
__WF_H2I(__half2int, int, "r", "s32")
__WF_H2I(__half2uint, unsigned, "r", "u32")
__WF_H2I(__half2short, short, "h", "s16")
__WF_H2I(__half2ushort, unsigned short, "h", "u16")
__WF_H2I(__half2ll, long long, "l", "s64")
__WF_H2I(__half2ull, unsigned long long, "l", "u64")
#undef __WF_H2I
#define __WF_I2H(NAME, AT, AC, ITYPE)                                                              \
  __WF_H __half NAME##_rn(AT v) { unsigned short r; asm("cvt.rn.f16." ITYPE " %0, %1;" : "=h"(r) : AC(v)); return __wf_mkh(r); } \
  __WF_H __half NAME##_rz(AT v) { unsigned short r; asm("cvt.rz.f16." ITYPE " %0, %1;" : "=h"(r) : AC(v)); return __wf_mkh(r); } \
  __WF_H __half NAME##_rd(AT v) { unsigned short r; asm("cvt.rm.f16." ITYPE " %0, %1;" : "=h"(r) : AC(v)); return __wf_mkh(r); } \
  __WF_H __half NAME##_ru(AT v) { unsigned short r; asm("cvt.rp.f16." ITYPE " %0, %1;" : "=h"(r) : AC(v)); return __wf_mkh(r); }
__WF_I2H(__int2half, int, "r", "s32")
__WF_I2H(__uint2half, unsigned, "r", "u32")
__WF_I2H(__short2half, short, "h", "s16")
__WF_I2H(__ushort2half, unsigned short, "h", "u16")
__WF_I2H(__ll2half, long long, "l", "s64")
__WF_I2H(__ull2half, unsigned long long, "l", "u64")
#undef __WF_I2H
// Unsuffixed forms: half to integer truncates (as a C conversion), integer to half rounds to nearest.
__WF_H int __half2int(__half h) { return __half2int_rz(h); }
__WF_H unsigned __half2uint(__half h) { return __half2uint_rz(h); }
__WF_H short __half2short(__half h) { return __half2short_rz(h); }
__WF_H unsigned short __half2ushort(__half h) { return __half2ushort_rz(h); }
__WF_H long long __half2ll(__half h) { return __half2ll_rz(h); }
__WF_H unsigned long long __half2ull(__half h) { return __half2ull_rz(h); }
__WF_H __half __int2half(int v) { return __int2half_rn(v); }
__WF_H __half __uint2half(unsigned v) { return __uint2half_rn(v); }
__WF_H __half __short2half(short v) { return __short2half_rn(v); }
__WF_H __half __ushort2half(unsigned short v) { return __ushort2half_rn(v); }
__WF_H __half __ll2half(long long v) { return __ll2half_rn(v); }
__WF_H __half __ull2half(unsigned long long v) { return __ull2half_rn(v); }
__WF_H __half2 __float2half2_rz(float f) { __half h = __float2half_rz(f); return __half2(h, h); }

// ---- scalar arithmetic ---------------------------------------------------------------------------
#define __WF_HBIN(NAME, INSN)                                                                      \
  __WF_H __half NAME(__half a, __half b) {                                                         \
    unsigned short r;                                                                              \
    asm(INSN " %0, %1, %2;" : "=h"(r) : "h"(a.__x), "h"(b.__x));                                   \
    return __wf_mkh(r);                                                                            \
  }
__WF_HBIN(__hadd, "add.rn.f16")
__WF_HBIN(__hsub, "sub.rn.f16")
__WF_HBIN(__hmul, "mul.rn.f16")
__WF_HBIN(__hadd_rn, "add.rn.f16")
__WF_HBIN(__hsub_rn, "sub.rn.f16")
__WF_HBIN(__hmul_rn, "mul.rn.f16")
__WF_HBIN(__hadd_sat, "add.rn.sat.f16")
__WF_HBIN(__hsub_sat, "sub.rn.sat.f16")
__WF_HBIN(__hmul_sat, "mul.rn.sat.f16")
__WF_HBIN(__hmin, "min.f16")
__WF_HBIN(__hmax, "max.f16")
__WF_HBIN(__hmin_nan, "min.NaN.f16")
__WF_HBIN(__hmax_nan, "max.NaN.f16")
#undef __WF_HBIN
__WF_H __half __hfma(__half a, __half b, __half c) {
  unsigned short r;
  asm("fma.rn.f16 %0, %1, %2, %3;" : "=h"(r) : "h"(a.__x), "h"(b.__x), "h"(c.__x));
  return __wf_mkh(r);
}
__WF_H __half __hfma_sat(__half a, __half b, __half c) {
  unsigned short r;
  asm("fma.rn.sat.f16 %0, %1, %2, %3;" : "=h"(r) : "h"(a.__x), "h"(b.__x), "h"(c.__x));
  return __wf_mkh(r);
}
__WF_H __half __hfma_relu(__half a, __half b, __half c) {
  __half r = __hfma(a, b, c);
  return (r.__x & 0x8000u) && !((r.__x & 0x7c00u) == 0x7c00u && (r.__x & 0x3ffu)) ? __wf_mkh(0) : r;
}
__WF_H __half __hneg(__half a) {
  unsigned short r;
  asm("neg.f16 %0, %1;" : "=h"(r) : "h"(a.__x));
  return __wf_mkh(r);
}
__WF_H __half __habs(__half a) {
  unsigned short r;
  asm("abs.f16 %0, %1;" : "=h"(r) : "h"(a.__x));
  return __wf_mkh(r);
}
// Division through f32: the correctly rounded f32 quotient rounds correctly to f16 (24 >= 2*11+2).
__WF_H __half __hdiv(__half a, __half b) { return __float2half_rn(__fdiv_rn(__half2float(a), __half2float(b))); }

// ---- scalar comparisons --------------------------------------------------------------------------
#define __WF_HCMP(NAME, OP)                                                                        \
  __WF_H bool NAME(__half a, __half b) {                                                           \
    int r;                                                                                         \
    asm("{ .reg .pred p; setp." OP ".f16 p, %1, %2; selp.s32 %0, 1, 0, p; }"                       \
        : "=r"(r) : "h"(a.__x), "h"(b.__x));                                                       \
    return r != 0;                                                                                 \
  }
__WF_HCMP(__heq, "eq")
__WF_HCMP(__hne, "ne")
__WF_HCMP(__hlt, "lt")
__WF_HCMP(__hle, "le")
__WF_HCMP(__hgt, "gt")
__WF_HCMP(__hge, "ge")
__WF_HCMP(__hequ, "equ")
__WF_HCMP(__hneu, "neu")
__WF_HCMP(__hltu, "ltu")
__WF_HCMP(__hleu, "leu")
__WF_HCMP(__hgtu, "gtu")
__WF_HCMP(__hgeu, "geu")
#undef __WF_HCMP
__WF_H bool __hisnan(__half a) { return (a.__x & 0x7fffu) > 0x7c00u; }
__WF_H int __hisinf(__half a) { return (a.__x & 0x7fffu) == 0x7c00u ? ((a.__x & 0x8000u) ? -1 : 1) : 0; }

// ---- half2 arithmetic ----------------------------------------------------------------------------
#define __WF_H2BIN(NAME, INSN)                                                                     \
  __WF_H __half2 NAME(__half2 a, __half2 b) {                                                      \
    unsigned r;                                                                                    \
    asm(INSN " %0, %1, %2;" : "=r"(r) : "r"(__wf_h2u(a)), "r"(__wf_h2u(b)));                       \
    return __wf_u2h2(r);                                                                           \
  }
__WF_H2BIN(__hadd2, "add.rn.f16x2")
__WF_H2BIN(__hsub2, "sub.rn.f16x2")
__WF_H2BIN(__hmul2, "mul.rn.f16x2")
__WF_H2BIN(__hadd2_rn, "add.rn.f16x2")
__WF_H2BIN(__hsub2_rn, "sub.rn.f16x2")
__WF_H2BIN(__hmul2_rn, "mul.rn.f16x2")
__WF_H2BIN(__hadd2_sat, "add.rn.sat.f16x2")
__WF_H2BIN(__hsub2_sat, "sub.rn.sat.f16x2")
__WF_H2BIN(__hmul2_sat, "mul.rn.sat.f16x2")
__WF_H2BIN(__hmin2, "min.f16x2")
__WF_H2BIN(__hmax2, "max.f16x2")
__WF_H2BIN(__hmin2_nan, "min.NaN.f16x2")
__WF_H2BIN(__hmax2_nan, "max.NaN.f16x2")
#undef __WF_H2BIN
__WF_H __half2 __hfma2(__half2 a, __half2 b, __half2 c) {
  unsigned r;
  asm("fma.rn.f16x2 %0, %1, %2, %3;" : "=r"(r) : "r"(__wf_h2u(a)), "r"(__wf_h2u(b)), "r"(__wf_h2u(c)));
  return __wf_u2h2(r);
}
__WF_H __half2 __hfma2_sat(__half2 a, __half2 b, __half2 c) {
  unsigned r;
  asm("fma.rn.sat.f16x2 %0, %1, %2, %3;" : "=r"(r) : "r"(__wf_h2u(a)), "r"(__wf_h2u(b)), "r"(__wf_h2u(c)));
  return __wf_u2h2(r);
}
__WF_H __half2 __hneg2(__half2 a) {
  unsigned r;
  asm("neg.f16x2 %0, %1;" : "=r"(r) : "r"(__wf_h2u(a)));
  return __wf_u2h2(r);
}
__WF_H __half2 __habs2(__half2 a) {
  unsigned r;
  asm("abs.f16x2 %0, %1;" : "=r"(r) : "r"(__wf_h2u(a)));
  return __wf_u2h2(r);
}
__WF_H __half2 __h2div(__half2 a, __half2 b) { return __half2(__hdiv(a.x, b.x), __hdiv(a.y, b.y)); }
__WF_H __half2 __hcmadd(__half2 a, __half2 b, __half2 c) {  // complex a*b + c, (x=re, y=im)
  __half re = __hfma(a.x, b.x, __hfma(__hneg(a.y), b.y, c.x));
  __half im = __hfma(a.x, b.y, __hfma(a.y, b.x, c.y));
  return __half2(re, im);
}

// ---- half2 comparisons ---------------------------------------------------------------------------
// __hXX2 give 1.0 or 0.0 per half, __hbXX2 true when both halves compare true, __hXX2_mask give
// 0xffff or 0 per half.
#define __WF_H2CMP(OP, SCALAR)                                                                     \
  __WF_H __half2 __h##OP##2(__half2 a, __half2 b) {                                                \
    return __half2(__wf_mkh(SCALAR(a.x, b.x) ? 0x3c00 : 0), __wf_mkh(SCALAR(a.y, b.y) ? 0x3c00 : 0)); \
  }                                                                                                \
  __WF_H bool __hb##OP##2(__half2 a, __half2 b) { return SCALAR(a.x, b.x) && SCALAR(a.y, b.y); }    \
  __WF_H unsigned __h##OP##2_mask(__half2 a, __half2 b) {                                          \
    return (SCALAR(a.x, b.x) ? 0xffffu : 0u) | (SCALAR(a.y, b.y) ? 0xffff0000u : 0u);              \
  }
__WF_H2CMP(eq, __heq)
__WF_H2CMP(ne, __hne)
__WF_H2CMP(lt, __hlt)
__WF_H2CMP(le, __hle)
__WF_H2CMP(gt, __hgt)
__WF_H2CMP(ge, __hge)
__WF_H2CMP(equ, __hequ)
__WF_H2CMP(neu, __hneu)
__WF_H2CMP(ltu, __hltu)
__WF_H2CMP(leu, __hleu)
__WF_H2CMP(gtu, __hgtu)
__WF_H2CMP(geu, __hgeu)
#undef __WF_H2CMP
__WF_H __half2 __hisnan2(__half2 a) {
  return __half2(__wf_mkh(__hisnan(a.x) ? 0x3c00 : 0), __wf_mkh(__hisnan(a.y) ? 0x3c00 : 0));
}

// ---- math (through f32) --------------------------------------------------------------------------
#define __WF_HMATH(NAME, NAME2, EXPR)                                                              \
  __WF_H __half NAME(__half h) { float x = __half2float(h); return __float2half_rn(EXPR); }        \
  __WF_H __half2 NAME2(__half2 h) { return __half2(NAME(h.x), NAME(h.y)); }
__WF_HMATH(hsqrt, h2sqrt, sqrtf(x))
__WF_HMATH(hrsqrt, h2rsqrt, rsqrtf(x))
__WF_HMATH(hrcp, h2rcp, __frcp_rn(x))
__WF_HMATH(hexp, h2exp, expf(x))
__WF_HMATH(hexp2, h2exp2, exp2f(x))
__WF_HMATH(hexp10, h2exp10, exp10f(x))
__WF_HMATH(hlog, h2log, logf(x))
__WF_HMATH(hlog2, h2log2, log2f(x))
__WF_HMATH(hlog10, h2log10, log10f(x))
__WF_HMATH(hsin, h2sin, sinf(x))
__WF_HMATH(hcos, h2cos, cosf(x))
__WF_HMATH(htanh, h2tanh, tanhf(x))
__WF_HMATH(htrunc, h2trunc, truncf(x))
__WF_HMATH(hceil, h2ceil, ceilf(x))
__WF_HMATH(hfloor, h2floor, floorf(x))
__WF_HMATH(hrint, h2rint, rintf(x))
#undef __WF_HMATH

// ---- warp functions ------------------------------------------------------------------------------
#define __WF_HSHFL(NAME, ARG)                                                                      \
  __WF_H __half NAME(unsigned m, __half v, ARG d, int w = 32) {                                    \
    return __wf_mkh((unsigned short)NAME(m, (int)v.__x, d, w));                                    \
  }                                                                                                \
  __WF_H __half2 NAME(unsigned m, __half2 v, ARG d, int w = 32) {                                  \
    return __wf_u2h2(NAME(m, __wf_h2u(v), d, w));                                                  \
  }
__WF_HSHFL(__shfl_sync, int)
__WF_HSHFL(__shfl_up_sync, unsigned)
__WF_HSHFL(__shfl_down_sync, unsigned)
__WF_HSHFL(__shfl_xor_sync, int)
#undef __WF_HSHFL

// ---- loads/stores with cache hints ---------------------------------------------------------------
// (the generic __ldg/__ldcg/... templates of __wf_device_functions.h cover __half and __half2)

// ---- atomics -------------------------------------------------------------------------------------
// A compare-and-swap loop on the aligned 32-bit word that holds the value (our PTX front end does
// not take atom.add.noftz.f16 / .f16x2 yet); the f16 add rounds to nearest, no flush to zero.
__WF_H __half atomicAdd(__half *a, __half v) {
  unsigned long long addr = (unsigned long long)a;
  unsigned *w = (unsigned *)(addr & ~3ull);
  unsigned shift = (unsigned)(addr & 2u) * 8u;
  unsigned old = *(volatile unsigned *)w, assumed;
  do {
    assumed = old;
    __half h = __wf_mkh((unsigned short)(assumed >> shift));
    unsigned s = (unsigned)__hadd(h, v).__x;
    old = atomicCAS(w, assumed, (assumed & ~(0xffffu << shift)) | (s << shift));
  } while (old != assumed);
  return __wf_mkh((unsigned short)(old >> shift));
}
__WF_H __half2 atomicAdd(__half2 *a, __half2 v) {
  unsigned *w = (unsigned *)a;
  unsigned old = *(volatile unsigned *)w, assumed;
  do {
    assumed = old;
    old = atomicCAS(w, assumed, __wf_h2u(__hadd2(__wf_u2h2(assumed), v)));
  } while (old != assumed);
  return __wf_u2h2(old);
}

// ---- operators -----------------------------------------------------------------------------------
__WF_H __half operator+(const __half &a, const __half &b) { return __hadd(a, b); }
__WF_H __half operator-(const __half &a, const __half &b) { return __hsub(a, b); }
__WF_H __half operator*(const __half &a, const __half &b) { return __hmul(a, b); }
__WF_H __half operator/(const __half &a, const __half &b) { return __hdiv(a, b); }
__WF_H __half &operator+=(__half &a, const __half &b) { a = __hadd(a, b); return a; }
__WF_H __half &operator-=(__half &a, const __half &b) { a = __hsub(a, b); return a; }
__WF_H __half &operator*=(__half &a, const __half &b) { a = __hmul(a, b); return a; }
__WF_H __half &operator/=(__half &a, const __half &b) { a = __hdiv(a, b); return a; }
__WF_H __half operator+(const __half &a) { return a; }
__WF_H __half operator-(const __half &a) { return __hneg(a); }
__WF_H __half &operator++(__half &a) { a = __hadd(a, __wf_mkh(0x3c00)); return a; }
__WF_H __half &operator--(__half &a) { a = __hsub(a, __wf_mkh(0x3c00)); return a; }
__WF_H __half operator++(__half &a, int) { __half o = a; ++a; return o; }
__WF_H __half operator--(__half &a, int) { __half o = a; --a; return o; }
__WF_H bool operator==(const __half &a, const __half &b) { return __heq(a, b); }
__WF_H bool operator!=(const __half &a, const __half &b) { return __hneu(a, b); }
__WF_H bool operator<(const __half &a, const __half &b) { return __hlt(a, b); }
__WF_H bool operator<=(const __half &a, const __half &b) { return __hle(a, b); }
__WF_H bool operator>(const __half &a, const __half &b) { return __hgt(a, b); }
__WF_H bool operator>=(const __half &a, const __half &b) { return __hge(a, b); }

__WF_H __half2 operator+(const __half2 &a, const __half2 &b) { return __hadd2(a, b); }
__WF_H __half2 operator-(const __half2 &a, const __half2 &b) { return __hsub2(a, b); }
__WF_H __half2 operator*(const __half2 &a, const __half2 &b) { return __hmul2(a, b); }
__WF_H __half2 operator/(const __half2 &a, const __half2 &b) { return __h2div(a, b); }
__WF_H __half2 &operator+=(__half2 &a, const __half2 &b) { a = __hadd2(a, b); return a; }
__WF_H __half2 &operator-=(__half2 &a, const __half2 &b) { a = __hsub2(a, b); return a; }
__WF_H __half2 &operator*=(__half2 &a, const __half2 &b) { a = __hmul2(a, b); return a; }
__WF_H __half2 &operator/=(__half2 &a, const __half2 &b) { a = __h2div(a, b); return a; }
__WF_H __half2 operator+(const __half2 &a) { return a; }
__WF_H __half2 operator-(const __half2 &a) { return __hneg2(a); }
__WF_H bool operator==(const __half2 &a, const __half2 &b) { return __hbeq2(a, b); }
__WF_H bool operator!=(const __half2 &a, const __half2 &b) { return __hbneu2(a, b); }
__WF_H bool operator<(const __half2 &a, const __half2 &b) { return __hblt2(a, b); }
__WF_H bool operator<=(const __half2 &a, const __half2 &b) { return __hble2(a, b); }
__WF_H bool operator>(const __half2 &a, const __half2 &b) { return __hbgt2(a, b); }
__WF_H bool operator>=(const __half2 &a, const __half2 &b) { return __hbge2(a, b); }

#undef __WF_H

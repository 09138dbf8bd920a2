// Warpforge CUDA headers: min/max overloads, device memset/memcpy and __assert_fail, __dp2a,
// the SIMD-within-a-word (__v*) and DPX intrinsics, address-space conversions (__cvta_*) and the
// __nv_atomic_* built-ins of nvcc 12.8+. Written for Warpforge.
//
// The __v* intrinsics are ordinary integer code per 8- or 16-bit lane (as nvcc compiles them for
// current GPUs); the PTX video instructions (vadd2, ...) are not used.
#pragma once
#include "__wf_host_defines.h"
#include "__wf_device_functions.h"

// ---- min / max ----------------------------------------------------------------------------------
// CUDA's overloads, for host and device code; mixed signed/unsigned arguments compare unsigned.
#define __WF_MINMAX(T)                                                                             \
  __WF_HD T min(T a, T b) { return a < b ? a : b; }                                                \
  __WF_HD T max(T a, T b) { return a > b ? a : b; }
__WF_MINMAX(int)
__WF_MINMAX(unsigned int)
__WF_MINMAX(long)
__WF_MINMAX(unsigned long)
__WF_MINMAX(long long)
__WF_MINMAX(unsigned long long)
#undef __WF_MINMAX
__WF_HD unsigned int min(int a, unsigned int b) { return min((unsigned int)a, b); }
__WF_HD unsigned int min(unsigned int a, int b) { return min(a, (unsigned int)b); }
__WF_HD unsigned int max(int a, unsigned int b) { return max((unsigned int)a, b); }
__WF_HD unsigned int max(unsigned int a, int b) { return max(a, (unsigned int)b); }
__WF_HD unsigned long long min(long long a, unsigned long long b) { return min((unsigned long long)a, b); }
__WF_HD unsigned long long min(unsigned long long a, long long b) { return min(a, (unsigned long long)b); }
__WF_HD unsigned long long max(long long a, unsigned long long b) { return max((unsigned long long)a, b); }
__WF_HD unsigned long long max(unsigned long long a, long long b) { return max(a, (unsigned long long)b); }
__WF_HD float min(float a, float b) { return fminf(a, b); }
__WF_HD float max(float a, float b) { return fmaxf(a, b); }
__WF_HD double min(double a, double b) { return fmin(a, b); }
__WF_HD double max(double a, double b) { return fmax(a, b); }
__WF_HD float min(float a, double b) { return fminf(a, (float)b); }
__WF_HD float min(double a, float b) { return fminf((float)a, b); }
__WF_HD float max(float a, double b) { return fmaxf(a, (float)b); }
__WF_HD float max(double a, float b) { return fmaxf((float)a, b); }

// Integer absolute values on the device (the C library's are host functions).
__WF_DEVICE int abs(int a) { return a < 0 ? -a : a; }
__WF_DEVICE long labs(long a) { return a < 0 ? -a : a; }
__WF_DEVICE long long llabs(long long a) { return a < 0 ? -a : a; }
__WF_DEVICE long abs(long a) { return labs(a); }
__WF_DEVICE long long abs(long long a) { return llabs(a); }
__WF_DEVICE float abs(float a) { return fabsf(a); }
__WF_DEVICE double abs(double a) { return fabs(a); }

// ---- memory and assert --------------------------------------------------------------------------
// Device overloads of the C library's functions; clang expands the builtins inline.
__WF_DEVICE void *memcpy(void *d, const void *s, size_t n) { return __builtin_memcpy(d, s, n); }
__WF_DEVICE void *memset(void *d, int v, size_t n) { return __builtin_memset(d, v, n); }
// glibc's assert macro calls __assert_fail; on the device it is CUDA's __assertfail.
__WF_DEVICE void __assert_fail(const char *expr, const char *file, unsigned int line,
                               const char *function) {
  __assertfail(expr, file, line, function, sizeof(char));
}

// ---- dot products -------------------------------------------------------------------------------
__WF_DEVICE int __dp2a_lo(int a, int b, int c) {
  int r; asm("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r;
}
__WF_DEVICE int __dp2a_hi(int a, int b, int c) {
  int r; asm("dp2a.hi.s32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r;
}
__WF_DEVICE unsigned __dp2a_lo(unsigned a, unsigned b, unsigned c) {
  unsigned r; asm("dp2a.lo.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r;
}
__WF_DEVICE unsigned __dp2a_hi(unsigned a, unsigned b, unsigned c) {
  unsigned r; asm("dp2a.hi.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r;
}

__WF_DEVICE int __dp4a(char4 a, char4 b, int c) {
  return __dp4a(__builtin_bit_cast(int, a), __builtin_bit_cast(int, b), c);
}
__WF_DEVICE unsigned __dp4a(uchar4 a, uchar4 b, unsigned c) {
  return __dp4a(__builtin_bit_cast(unsigned, a), __builtin_bit_cast(unsigned, b), c);
}
__WF_DEVICE int __dp2a_lo(short2 a, char4 b, int c) {
  return __dp2a_lo(__builtin_bit_cast(int, a), __builtin_bit_cast(int, b), c);
}
__WF_DEVICE int __dp2a_hi(short2 a, char4 b, int c) {
  return __dp2a_hi(__builtin_bit_cast(int, a), __builtin_bit_cast(int, b), c);
}
__WF_DEVICE unsigned __dp2a_lo(ushort2 a, uchar4 b, unsigned c) {
  return __dp2a_lo(__builtin_bit_cast(unsigned, a), __builtin_bit_cast(unsigned, b), c);
}
__WF_DEVICE unsigned __dp2a_hi(ushort2 a, uchar4 b, unsigned c) {
  return __dp2a_hi(__builtin_bit_cast(unsigned, a), __builtin_bit_cast(unsigned, b), c);
}

// ---- SIMD within a word: __v*2 (two 16-bit lanes), __v*4 (four 8-bit lanes) -------------------
// In EXPR: ua/ub the lanes unsigned, sa/sb sign-extended, M the lane mask, W the lane width.
__WF_DEVICE int __wf_lane_sat(int v, int w) {
  int hi = (1 << (w - 1)) - 1, lo = -(1 << (w - 1));
  return v < lo ? lo : v > hi ? hi : v;
}
#define __WF_SIMD_W(NAME, WIDTH, EXPR)                                                             \
  __WF_DEVICE unsigned NAME(unsigned a, unsigned b) {                                              \
    const int W = WIDTH;                                                                           \
    const unsigned M = (1u << W) - 1;                                                              \
    unsigned r = 0;                                                                                \
    _Pragma("unroll") for (int s = 0; s < 32; s += W) {                                            \
      unsigned ua = (a >> s) & M, ub = (b >> s) & M;                                               \
      int sa = (int)(ua << (32 - W)) >> (32 - W), sb = (int)(ub << (32 - W)) >> (32 - W);          \
      (void)sa, (void)sb, (void)ua, (void)ub;                                                      \
      r |= ((unsigned)(EXPR) & M) << s;                                                            \
    }                                                                                              \
    return r;                                                                                      \
  }
#define __WF_SIMD(NAME, EXPR) __WF_SIMD_W(NAME##2, 16, EXPR) __WF_SIMD_W(NAME##4, 8, EXPR)
__WF_SIMD(__vadd, ua + ub)
__WF_SIMD(__vaddss, __wf_lane_sat(sa + sb, W))
__WF_SIMD(__vaddus, ua + ub > M ? M : ua + ub)
__WF_SIMD(__vsub, ua - ub)
__WF_SIMD(__vsubss, __wf_lane_sat(sa - sb, W))
__WF_SIMD(__vsubus, ua > ub ? ua - ub : 0u)
__WF_SIMD(__vabsdiffs, sa > sb ? sa - sb : sb - sa)
__WF_SIMD(__vabsdiffu, ua > ub ? ua - ub : ub - ua)
__WF_SIMD(__vavgs, (sa + sb + 1) >> 1)
__WF_SIMD(__vavgu, (ua + ub + 1) >> 1)
__WF_SIMD(__vhaddu, (ua + ub) >> 1)
__WF_SIMD(__vmaxs, sa > sb ? sa : sb)
__WF_SIMD(__vmaxu, ua > ub ? ua : ub)
__WF_SIMD(__vmins, sa < sb ? sa : sb)
__WF_SIMD(__vminu, ua < ub ? ua : ub)
__WF_SIMD(__vcmpeq, ua == ub ? M : 0u)
__WF_SIMD(__vcmpne, ua != ub ? M : 0u)
__WF_SIMD(__vcmpges, sa >= sb ? M : 0u)
__WF_SIMD(__vcmpgts, sa > sb ? M : 0u)
__WF_SIMD(__vcmples, sa <= sb ? M : 0u)
__WF_SIMD(__vcmplts, sa < sb ? M : 0u)
__WF_SIMD(__vcmpgeu, ua >= ub ? M : 0u)
__WF_SIMD(__vcmpgtu, ua > ub ? M : 0u)
__WF_SIMD(__vcmpleu, ua <= ub ? M : 0u)
__WF_SIMD(__vcmpltu, ua < ub ? M : 0u)
__WF_SIMD(__vseteq, ua == ub ? 1u : 0u)
__WF_SIMD(__vsetne, ua != ub ? 1u : 0u)
__WF_SIMD(__vsetges, sa >= sb ? 1u : 0u)
__WF_SIMD(__vsetgts, sa > sb ? 1u : 0u)
__WF_SIMD(__vsetles, sa <= sb ? 1u : 0u)
__WF_SIMD(__vsetlts, sa < sb ? 1u : 0u)
__WF_SIMD(__vsetgeu, ua >= ub ? 1u : 0u)
__WF_SIMD(__vsetgtu, ua > ub ? 1u : 0u)
__WF_SIMD(__vsetleu, ua <= ub ? 1u : 0u)
__WF_SIMD(__vsetltu, ua < ub ? 1u : 0u)
// Unary forms: the second operand is unused.
__WF_SIMD(__wf_vabs, sa < 0 ? -sa : sa)
__WF_SIMD(__wf_vabsss, __wf_lane_sat(sa < 0 ? -sa : sa, W))
__WF_SIMD(__wf_vneg, 0u - ua)
__WF_SIMD(__wf_vnegss, __wf_lane_sat(-sa, W))
__WF_SIMD(__wf_vabsdiff_sum_s, sa > sb ? sa - sb : sb - sa)
__WF_SIMD(__wf_vabsdiff_sum_u, ua > ub ? ua - ub : ub - ua)
#undef __WF_SIMD
#undef __WF_SIMD_W
__WF_DEVICE unsigned __vabs2(unsigned a) { return __wf_vabs2(a, 0); }
__WF_DEVICE unsigned __vabs4(unsigned a) { return __wf_vabs4(a, 0); }
__WF_DEVICE unsigned __vabsss2(unsigned a) { return __wf_vabsss2(a, 0); }
__WF_DEVICE unsigned __vabsss4(unsigned a) { return __wf_vabsss4(a, 0); }
__WF_DEVICE unsigned __vneg2(unsigned a) { return __wf_vneg2(a, 0); }
__WF_DEVICE unsigned __vneg4(unsigned a) { return __wf_vneg4(a, 0); }
__WF_DEVICE unsigned __vnegss2(unsigned a) { return __wf_vnegss2(a, 0); }
__WF_DEVICE unsigned __vnegss4(unsigned a) { return __wf_vnegss4(a, 0); }
// Sums of absolute differences: the per-lane differences added up.
__WF_DEVICE unsigned __wf_lane_sum(unsigned v, int w) {
  unsigned m = (1u << w) - 1, s = 0;
  for (int i = 0; i < 32; i += w) s += (v >> i) & m;
  return s;
}
__WF_DEVICE unsigned __vsads2(unsigned a, unsigned b) { return __wf_lane_sum(__wf_vabsdiff_sum_s2(a, b), 16); }
__WF_DEVICE unsigned __vsads4(unsigned a, unsigned b) { return __wf_lane_sum(__wf_vabsdiff_sum_s4(a, b), 8); }
__WF_DEVICE unsigned __vsadu2(unsigned a, unsigned b) { return __wf_lane_sum(__wf_vabsdiff_sum_u2(a, b), 16); }
__WF_DEVICE unsigned __vsadu4(unsigned a, unsigned b) { return __wf_lane_sum(__wf_vabsdiff_sum_u4(a, b), 8); }

// ---- DPX (CUDA 12): three-way and fused add-then-min/max, with ReLU forms -----------------------
#define __WF_DPX(T, S)                                                                             \
  __WF_HD T __vimax3_##S(T a, T b, T c) { return max(max(a, b), c); }                              \
  __WF_HD T __vimin3_##S(T a, T b, T c) { return min(min(a, b), c); }                              \
  __WF_HD T __viaddmax_##S(T a, T b, T c) { return max((T)(a + b), c); }                          \
  __WF_HD T __viaddmin_##S(T a, T b, T c) { return min((T)(a + b), c); }                          \
  __WF_HD T __vibmax_##S(T a, T b, bool *pred) { *pred = a >= b; return max(a, b); }               \
  __WF_HD T __vibmin_##S(T a, T b, bool *pred) { *pred = a <= b; return min(a, b); }
__WF_DPX(int, s32)
__WF_DPX(unsigned int, u32)
#undef __WF_DPX
__WF_HD int __vimax_s32_relu(int a, int b) { return max(max(a, b), 0); }
__WF_HD int __vimin_s32_relu(int a, int b) { return max(min(a, b), 0); }
__WF_HD int __vimax3_s32_relu(int a, int b, int c) { return max(__vimax3_s32(a, b, c), 0); }
__WF_HD int __vimin3_s32_relu(int a, int b, int c) { return max(__vimin3_s32(a, b, c), 0); }
__WF_HD int __viaddmax_s32_relu(int a, int b, int c) { return max(__viaddmax_s32(a, b, c), 0); }
__WF_HD int __viaddmin_s32_relu(int a, int b, int c) { return max(__viaddmin_s32(a, b, c), 0); }
// Packed 16-bit forms: each lane on its own.
#define __WF_DPX16(NAME, SIGNED, EXPR)                                                             \
  __WF_HD unsigned NAME(unsigned a, unsigned b, unsigned c) {                                      \
    unsigned r = 0;                                                                                \
    for (int s = 0; s < 32; s += 16) {                                                             \
      int x = SIGNED ? (int)(short)(a >> s) : (int)((a >> s) & 0xffffu);                           \
      int y = SIGNED ? (int)(short)(b >> s) : (int)((b >> s) & 0xffffu);                           \
      int z = SIGNED ? (int)(short)(c >> s) : (int)((c >> s) & 0xffffu);                           \
      r |= ((unsigned)(EXPR) & 0xffffu) << s;                                                      \
    }                                                                                              \
    return r;                                                                                      \
  }
__WF_DPX16(__vimax3_s16x2, 1, max(max(x, y), z))
__WF_DPX16(__vimax3_u16x2, 0, max(max(x, y), z))
__WF_DPX16(__vimin3_s16x2, 1, min(min(x, y), z))
__WF_DPX16(__vimin3_u16x2, 0, min(min(x, y), z))
__WF_DPX16(__vimax3_s16x2_relu, 1, max(max(max(x, y), z), 0))
__WF_DPX16(__vimin3_s16x2_relu, 1, max(min(min(x, y), z), 0))
__WF_DPX16(__viaddmax_s16x2, 1, max((int)(short)(x + y), z))
__WF_DPX16(__viaddmax_u16x2, 0, max((int)((x + y) & 0xffff), z))
__WF_DPX16(__viaddmin_s16x2, 1, min((int)(short)(x + y), z))
__WF_DPX16(__viaddmin_u16x2, 0, min((int)((x + y) & 0xffff), z))
#undef __WF_DPX16

// ---- address-space conversions ------------------------------------------------------------------
__WF_DEVICE size_t __cvta_generic_to_shared(const void *p) {
  size_t r; asm("cvta.to.shared.u64 %0, %1;" : "=l"(r) : "l"(p)); return r;
}
__WF_DEVICE size_t __cvta_generic_to_global(const void *p) {
  size_t r; asm("cvta.to.global.u64 %0, %1;" : "=l"(r) : "l"(p)); return r;
}
__WF_DEVICE size_t __cvta_generic_to_constant(const void *p) {
  size_t r; asm("cvta.to.const.u64 %0, %1;" : "=l"(r) : "l"(p)); return r;
}
__WF_DEVICE size_t __cvta_generic_to_local(const void *p) {
  size_t r; asm("cvta.to.local.u64 %0, %1;" : "=l"(r) : "l"(p)); return r;
}
__WF_DEVICE void *__cvta_shared_to_generic(size_t a) {
  void *r; asm("cvta.shared.u64 %0, %1;" : "=l"(r) : "l"(a)); return r;
}
__WF_DEVICE void *__cvta_global_to_generic(size_t a) {
  void *r; asm("cvta.global.u64 %0, %1;" : "=l"(r) : "l"(a)); return r;
}
__WF_DEVICE void *__cvta_constant_to_generic(size_t a) {
  void *r; asm("cvta.const.u64 %0, %1;" : "=l"(r) : "l"(a)); return r;
}
__WF_DEVICE void *__cvta_local_to_generic(size_t a) {
  void *r; asm("cvta.local.u64 %0, %1;" : "=l"(r) : "l"(a)); return r;
}

// ---- __nv_atomic_* built-ins (nvcc 12.8+) -------------------------------------------------------
// Over clang's __atomic built-ins, which the NVPTX back end lowers to atom/ld/st and CAS loops.
// Memory orders have the C++ values; the thread scope is accepted and device scope is used (it
// includes the narrower ones).
#ifndef __CUDACC_DEVICE_ATOMIC_BUILTINS__
#define __CUDACC_DEVICE_ATOMIC_BUILTINS__ 1
#define __NV_ATOMIC_RELAXED __ATOMIC_RELAXED
#define __NV_ATOMIC_CONSUME __ATOMIC_CONSUME
#define __NV_ATOMIC_ACQUIRE __ATOMIC_ACQUIRE
#define __NV_ATOMIC_RELEASE __ATOMIC_RELEASE
#define __NV_ATOMIC_ACQ_REL __ATOMIC_ACQ_REL
#define __NV_ATOMIC_SEQ_CST __ATOMIC_SEQ_CST
#define __NV_THREAD_SCOPE_SYSTEM 0
#define __NV_THREAD_SCOPE_DEVICE 1
#define __NV_THREAD_SCOPE_CLUSTER 2
#define __NV_THREAD_SCOPE_BLOCK 3
#define __NV_THREAD_SCOPE_THREAD 4
#define __WF_NV_FETCH(OP)                                                                          \
  template <class T, class U>                                                                      \
  __WF_DEVICE T __nv_atomic_fetch_##OP(T *p, U v, int order, int scope = 1) {                      \
    (void)scope;                                                                                   \
    return __atomic_fetch_##OP(p, (T)v, order);                                                    \
  }                                                                                                \
  template <class T, class U>                                                                      \
  __WF_DEVICE void __nv_atomic_##OP(T *p, U v, int order, int scope = 1) {                         \
    (void)scope;                                                                                   \
    __atomic_fetch_##OP(p, (T)v, order);                                                           \
  }
__WF_NV_FETCH(add)
__WF_NV_FETCH(sub)
__WF_NV_FETCH(and)
__WF_NV_FETCH(or)
__WF_NV_FETCH(xor)
__WF_NV_FETCH(min)
__WF_NV_FETCH(max)
#undef __WF_NV_FETCH
// clang 14's NVPTX back end cannot select fence instructions: a fence stronger than relaxed is
// membar.sys at system scope, membar.cta at block scope, membar.gl otherwise.
__WF_DEVICE void __nv_atomic_thread_fence(int order, int scope = 1) {
  if (order == __ATOMIC_RELAXED)
    return;
  if (scope == 0)
    __threadfence_system();
  else if (scope >= 3)
    __threadfence_block();
  else
    __threadfence();
}
// Atomic loads and stores with an order other than relaxed are not selected by clang 14's NVPTX
// back end either: a volatile access (one ld/st of the whole object) with the fences around it.
template <class T> struct __wf_word_of { typedef T type; };
#define __WF_WORD(N, W) template <> struct __wf_word_of<char[N]> { typedef W type; };
__WF_WORD(1, unsigned char) __WF_WORD(2, unsigned short) __WF_WORD(4, unsigned int)
__WF_WORD(8, unsigned long long)
#undef __WF_WORD
template <class T> using __wf_word = typename __wf_word_of<char[sizeof(T)]>::type;
template <class T> __WF_DEVICE T __nv_atomic_load_n(const T *p, int order, int scope = 1) {
  if (order == __ATOMIC_SEQ_CST)
    __nv_atomic_thread_fence(order, scope);
  __wf_word<T> w = *(const volatile __wf_word<T> *)p;
  __nv_atomic_thread_fence(order, scope);
  return __builtin_bit_cast(T, w);
}
template <class T> __WF_DEVICE void __nv_atomic_load(const T *p, T *ret, int order, int scope = 1) {
  *ret = __nv_atomic_load_n(p, order, scope);
}
template <class T> __WF_DEVICE void __nv_atomic_store_n(T *p, T v, int order, int scope = 1) {
  __nv_atomic_thread_fence(order, scope);
  *(volatile __wf_word<T> *)p = __builtin_bit_cast(__wf_word<T>, v);
  if (order == __ATOMIC_SEQ_CST)
    __nv_atomic_thread_fence(order, scope);
}
template <class T> __WF_DEVICE void __nv_atomic_store(T *p, T *v, int order, int scope = 1) {
  __nv_atomic_store_n(p, *v, order, scope);
}
// clang 14's NVPTX back end has no 8- or 16-bit compare-and-swap: those are a CAS loop on the
// aligned 32-bit word that holds them.
template <class T> __WF_DEVICE bool __wf_cas_narrow(T *p, T *expected, T desired) {
  unsigned *w = (unsigned *)((unsigned long long)p & ~3ull);
  int shift = (int)((unsigned long long)p & 3) * 8;
  unsigned mask = (sizeof(T) == 1 ? 0xffu : 0xffffu) << shift;
  unsigned e = (unsigned)__builtin_bit_cast(__wf_word<T>, *expected) << shift;
  unsigned d = (unsigned)__builtin_bit_cast(__wf_word<T>, desired) << shift;
  unsigned old = *(volatile unsigned *)w;
  while (true) {
    if ((old & mask) != e) {
      *expected = __builtin_bit_cast(T, (__wf_word<T>)((old & mask) >> shift));
      return false;
    }
    unsigned prev = atomicCAS(w, old, (old & ~mask) | d);
    if (prev == old)
      return true;
    old = prev;
  }
}
template <class T>
__WF_DEVICE bool __nv_atomic_compare_exchange_n(T *p, T *expected, T desired, bool weak,
                                                int success, int failure, int scope = 1) {
  (void)scope;
  if constexpr (sizeof(T) < 4) {
    (void)weak, (void)failure;
    __nv_atomic_thread_fence(success, scope);
    bool ok = __wf_cas_narrow(p, expected, desired);
    __nv_atomic_thread_fence(success, scope);
    return ok;
  } else {
    // As the word of the object's size (objects are naturally aligned, as nvcc requires).
    __wf_word<T> e = __builtin_bit_cast(__wf_word<T>, *expected);
    bool ok = __atomic_compare_exchange_n((__wf_word<T> *)p, &e,
                                          __builtin_bit_cast(__wf_word<T>, desired), weak, success,
                                          failure);
    *expected = __builtin_bit_cast(T, e);
    return ok;
  }
}
template <class T>
__WF_DEVICE bool __nv_atomic_compare_exchange(T *p, T *expected, T *desired, bool weak,
                                              int success, int failure, int scope = 1) {
  return __nv_atomic_compare_exchange_n(p, expected, *desired, weak, success, failure, scope);
}
template <class T>
__WF_DEVICE T __nv_atomic_exchange_n(T *p, T v, int order, int scope = 1) {
  (void)scope;
  if constexpr (sizeof(T) < 4) {
    T old = *(volatile T *)p;
    while (!__nv_atomic_compare_exchange_n(p, &old, v, false, order, order, scope)) {
    }
    return old;
  } else {
    return __builtin_bit_cast(
        T, __atomic_exchange_n((__wf_word<T> *)p, __builtin_bit_cast(__wf_word<T>, v), order));
  }
}
template <class T>
__WF_DEVICE void __nv_atomic_exchange(T *p, T *v, T *ret, int order, int scope = 1) {
  *ret = __nv_atomic_exchange_n(p, *v, order, scope);
}
#endif

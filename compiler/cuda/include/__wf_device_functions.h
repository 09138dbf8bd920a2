// Warpforge CUDA headers: device functions other than math. Barriers, fences, atomics, warp
// functions, integer and conversion intrinsics, printf/assert/trap, clocks. Inline PTX and clang's
// __nvvm_* builtins; everything maps to one PTX instruction or a short sequence of them.
#pragma once
#include "__wf_host_defines.h"

// ---- barriers, fences, misc ------------------------------------------------------------------
// __syncthreads is inline PTX with a memory clobber, not clang's builtin: clang 14 marks its
// llvm.nvvm.barrier0 `nocallback`, so the globals analysis concludes the barrier cannot touch an
// internal global (a function's __shared__ variable) and forwards one thread's store to the other
// threads' loads across it (`if (tid == 0) s = x; __syncthreads(); use(s);` read s early).
__WF_DEVICE void __wf_syncthreads() { asm volatile("bar.sync 0;" ::: "memory"); }
#define __syncthreads() __wf_syncthreads()
__WF_DEVICE int __syncthreads_count(int p) {
  int r;
  asm volatile("{ .reg .pred p; setp.ne.s32 p, %1, 0; bar.red.popc.u32 %0, 0, p; }"
               : "=r"(r) : "r"(p) : "memory");
  return r;
}
__WF_DEVICE int __syncthreads_and(int p) {
  int r;
  asm volatile("{ .reg .pred p, q; setp.ne.s32 p, %1, 0; bar.red.and.pred q, 0, p; selp.s32 %0, 1, 0, q; }"
               : "=r"(r) : "r"(p) : "memory");
  return r;
}
__WF_DEVICE int __syncthreads_or(int p) {
  int r;
  asm volatile("{ .reg .pred p, q; setp.ne.s32 p, %1, 0; bar.red.or.pred q, 0, p; selp.s32 %0, 1, 0, q; }"
               : "=r"(r) : "r"(p) : "memory");
  return r;
}
__WF_DEVICE void __syncwarp(unsigned mask = 0xffffffffu) {
  asm volatile("bar.warp.sync %0;" ::"r"(mask) : "memory");
}
__WF_DEVICE void __threadfence_block() { asm volatile("membar.cta;" ::: "memory"); }
__WF_DEVICE void __threadfence() { asm volatile("membar.gl;" ::: "memory"); }
__WF_DEVICE void __threadfence_system() { asm volatile("membar.sys;" ::: "memory"); }
__WF_DEVICE void __trap() { asm volatile("trap;" ::: "memory"); }
__WF_DEVICE void __brkpt() { asm volatile("brkpt;" ::: "memory"); }
__WF_DEVICE void __nanosleep(unsigned ns) { asm volatile("nanosleep.u32 %0;" ::"r"(ns)); }
__WF_DEVICE clock_t clock() {
  int r;
  asm volatile("mov.u32 %0, %%clock;" : "=r"(r));
  return (clock_t)r;
}
__WF_DEVICE long long clock64() {
  long long r;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(r));
  return r;
}
__WF_DEVICE unsigned long long __globaltimer() {
  unsigned long long r;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(r));
  return r;
}
__WF_DEVICE unsigned __lanemask_lt() {
  unsigned r;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(r));
  return r;
}
__WF_DEVICE void *__wf_memcpy_dummy();
template <class T> __WF_DEVICE T __ldg(const T *p) { return *p; }
template <class T> __WF_DEVICE T __ldcg(const T *p) { return *p; }
template <class T> __WF_DEVICE T __ldca(const T *p) { return *p; }
template <class T> __WF_DEVICE T __ldcs(const T *p) { return *p; }
template <class T> __WF_DEVICE T __ldlu(const T *p) { return *p; }
template <class T> __WF_DEVICE T __ldcv(const T *p) { return *(const volatile T *)p; }
template <class T> __WF_DEVICE void __stwb(T *p, T v) { *p = v; }
template <class T> __WF_DEVICE void __stcg(T *p, T v) { *p = v; }
template <class T> __WF_DEVICE void __stcs(T *p, T v) { *p = v; }
template <class T> __WF_DEVICE void __stwt(T *p, T v) { *(volatile T *)p = v; }
__WF_DEVICE unsigned __isGlobal(const void *p) { return __nvvm_isspacep_global(p); }
__WF_DEVICE unsigned __isShared(const void *p) { return __nvvm_isspacep_shared(p); }
__WF_DEVICE unsigned __isConstant(const void *p) { return __nvvm_isspacep_const(p); }
__WF_DEVICE unsigned __isLocal(const void *p) { return __nvvm_isspacep_local(p); }

// ---- printf, assert ---------------------------------------------------------------------------
extern "C" __device__ int vprintf(const char *, const char *);
// clang turns device calls of printf into vprintf with an argument buffer.
extern "C" __device__ int printf(const char *, ...);
extern "C" __device__ void __assertfail(const char *message, const char *file, unsigned line,
                                        const char *function, size_t charSize);
#undef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
#define assert(e)                                                                                \
  ((e) ? (void)0 : __assertfail(#e, __FILE__, __LINE__, __PRETTY_FUNCTION__, sizeof(char)))
#endif
extern "C" __device__ void *malloc(size_t);
extern "C" __device__ void free(void *);

// ---- atomics ----------------------------------------------------------------------------------
#define __WF_ATOM(NAME, OP, CTYPE, PTYPE, CONS)                                                  \
  __WF_DEVICE CTYPE NAME(CTYPE *a, CTYPE v) {                                                     \
    CTYPE r;                                                                                      \
    asm volatile("atom." OP "." PTYPE " %0, [%1], %2;" : "=" CONS(r) : "l"(a), CONS(v) : "memory"); \
    return r;                                                                                     \
  }                                                                                               \
  __WF_DEVICE CTYPE NAME##_block(CTYPE *a, CTYPE v) {                                             \
    CTYPE r;                                                                                      \
    asm volatile("atom.cta." OP "." PTYPE " %0, [%1], %2;" : "=" CONS(r) : "l"(a), CONS(v) : "memory"); \
    return r;                                                                                     \
  }                                                                                               \
  __WF_DEVICE CTYPE NAME##_system(CTYPE *a, CTYPE v) {                                            \
    CTYPE r;                                                                                      \
    asm volatile("atom.sys." OP "." PTYPE " %0, [%1], %2;" : "=" CONS(r) : "l"(a), CONS(v) : "memory"); \
    return r;                                                                                     \
  }
__WF_ATOM(atomicAdd, "add", int, "s32", "r")
__WF_ATOM(atomicAdd, "add", unsigned int, "u32", "r")
__WF_ATOM(atomicAdd, "add", unsigned long long, "u64", "l")
__WF_ATOM(atomicAdd, "add", float, "f32", "f")
__WF_ATOM(atomicAdd, "add", double, "f64", "d")
__WF_ATOM(atomicExch, "exch", int, "b32", "r")
__WF_ATOM(atomicExch, "exch", unsigned int, "b32", "r")
__WF_ATOM(atomicExch, "exch", unsigned long long, "b64", "l")
__WF_ATOM(atomicMin, "min", int, "s32", "r")
__WF_ATOM(atomicMin, "min", unsigned int, "u32", "r")
__WF_ATOM(atomicMin, "min", long long, "s64", "l")
__WF_ATOM(atomicMin, "min", unsigned long long, "u64", "l")
__WF_ATOM(atomicMax, "max", int, "s32", "r")
__WF_ATOM(atomicMax, "max", unsigned int, "u32", "r")
__WF_ATOM(atomicMax, "max", long long, "s64", "l")
__WF_ATOM(atomicMax, "max", unsigned long long, "u64", "l")
__WF_ATOM(atomicInc, "inc", unsigned int, "u32", "r")
__WF_ATOM(atomicDec, "dec", unsigned int, "u32", "r")
__WF_ATOM(atomicAnd, "and", int, "b32", "r")
__WF_ATOM(atomicAnd, "and", unsigned int, "b32", "r")
__WF_ATOM(atomicAnd, "and", unsigned long long, "b64", "l")
__WF_ATOM(atomicOr, "or", int, "b32", "r")
__WF_ATOM(atomicOr, "or", unsigned int, "b32", "r")
__WF_ATOM(atomicOr, "or", unsigned long long, "b64", "l")
__WF_ATOM(atomicXor, "xor", int, "b32", "r")
__WF_ATOM(atomicXor, "xor", unsigned int, "b32", "r")
__WF_ATOM(atomicXor, "xor", unsigned long long, "b64", "l")
#undef __WF_ATOM
__WF_DEVICE float atomicExch(float *a, float v) {
  return __builtin_bit_cast(float, atomicExch((int *)a, __builtin_bit_cast(int, v)));
}
__WF_DEVICE int atomicSub(int *a, int v) { return atomicAdd(a, -v); }
__WF_DEVICE unsigned int atomicSub(unsigned int *a, unsigned int v) { return atomicAdd(a, 0u - v); }
__WF_DEVICE int atomicSub_block(int *a, int v) { return atomicAdd_block(a, -v); }
__WF_DEVICE unsigned int atomicSub_block(unsigned int *a, unsigned int v) { return atomicAdd_block(a, 0u - v); }
__WF_DEVICE int atomicSub_system(int *a, int v) { return atomicAdd_system(a, -v); }
__WF_DEVICE unsigned int atomicSub_system(unsigned int *a, unsigned int v) { return atomicAdd_system(a, 0u - v); }
#define __WF_CAS(SCOPE, CTYPE, PTYPE, CONS)                                                      \
  __WF_DEVICE CTYPE atomicCAS##SCOPE(CTYPE *a, CTYPE c, CTYPE v) {                                \
    CTYPE r;                                                                                      \
    asm volatile("atom" __WF_SCOPE_##SCOPE ".cas." PTYPE " %0, [%1], %2, %3;"                      \
                 : "=" CONS(r) : "l"(a), CONS(c), CONS(v) : "memory");                            \
    return r;                                                                                     \
  }
#define __WF_SCOPE_ ""
#define __WF_SCOPE__block ".cta"
#define __WF_SCOPE__system ".sys"
__WF_CAS(, int, "b32", "r")
__WF_CAS(, unsigned int, "b32", "r")
__WF_CAS(, unsigned long long, "b64", "l")
__WF_CAS(, unsigned short, "b16", "h")
__WF_CAS(_block, int, "b32", "r")
__WF_CAS(_block, unsigned int, "b32", "r")
__WF_CAS(_block, unsigned long long, "b64", "l")
__WF_CAS(_system, int, "b32", "r")
__WF_CAS(_system, unsigned int, "b32", "r")
__WF_CAS(_system, unsigned long long, "b64", "l")
#undef __WF_CAS

// ---- warp vote, shuffle, match, reduce ----------------------------------------------------------
__WF_DEVICE unsigned __activemask() {
  unsigned r;
  asm volatile("activemask.b32 %0;" : "=r"(r));
  return r;
}
__WF_DEVICE int __all_sync(unsigned m, int p) { return __nvvm_vote_all_sync(m, p); }
__WF_DEVICE int __any_sync(unsigned m, int p) { return __nvvm_vote_any_sync(m, p); }
__WF_DEVICE int __uni_sync(unsigned m, int p) { return __nvvm_vote_uni_sync(m, p); }
__WF_DEVICE unsigned __ballot_sync(unsigned m, int p) { return __nvvm_vote_ballot_sync(m, p); }
__WF_DEVICE int __all(int p) { return __all_sync(0xffffffffu, p); }
__WF_DEVICE int __any(int p) { return __any_sync(0xffffffffu, p); }
__WF_DEVICE unsigned __ballot(int p) { return __ballot_sync(0xffffffffu, p); }

#define __WF_SHFL_INT(NAME, KIND, ARG, CLAMP)                                                    \
  __WF_DEVICE int NAME(unsigned m, int v, ARG d, int w = 32) {                                    \
    return __nvvm_shfl_sync_##KIND##_i32(m, v, (int)d, CLAMP);                                    \
  }                                                                                               \
  __WF_DEVICE unsigned NAME(unsigned m, unsigned v, ARG d, int w = 32) {                          \
    return (unsigned)NAME(m, (int)v, d, w);                                                       \
  }                                                                                               \
  __WF_DEVICE float NAME(unsigned m, float v, ARG d, int w = 32) {                                \
    return __nvvm_shfl_sync_##KIND##_f32(m, v, (int)d, CLAMP);                                    \
  }                                                                                               \
  __WF_DEVICE long long NAME(unsigned m, long long v, ARG d, int w = 32) {                        \
    int lo = NAME(m, (int)v, d, w), hi = NAME(m, (int)(v >> 32), d, w);                          \
    return (long long)(((unsigned long long)(unsigned)hi << 32) | (unsigned)lo);                 \
  }                                                                                               \
  __WF_DEVICE unsigned long long NAME(unsigned m, unsigned long long v, ARG d, int w = 32) {      \
    return (unsigned long long)NAME(m, (long long)v, d, w);                                       \
  }                                                                                               \
  __WF_DEVICE long NAME(unsigned m, long v, ARG d, int w = 32) {                                  \
    return (long)NAME(m, (long long)v, d, w);                                                     \
  }                                                                                               \
  __WF_DEVICE unsigned long NAME(unsigned m, unsigned long v, ARG d, int w = 32) {                \
    return (unsigned long)NAME(m, (long long)v, d, w);                                            \
  }                                                                                               \
  __WF_DEVICE double NAME(unsigned m, double v, ARG d, int w = 32) {                              \
    long long b = NAME(m, __builtin_bit_cast(long long, v), d, w);                                \
    return __builtin_bit_cast(double, b);                                                         \
  }
// c field of shfl: ((32 - width) << 8) | clamp; up uses clamp 0, the others 0x1f.
__WF_SHFL_INT(__shfl_sync, idx, int, ((32 - w) << 8) | 0x1f)
__WF_SHFL_INT(__shfl_up_sync, up, unsigned, ((32 - w) << 8))
__WF_SHFL_INT(__shfl_down_sync, down, unsigned, ((32 - w) << 8) | 0x1f)
__WF_SHFL_INT(__shfl_xor_sync, bfly, int, ((32 - w) << 8) | 0x1f)
#undef __WF_SHFL_INT

__WF_DEVICE unsigned __match_any_sync(unsigned m, unsigned v) { return __nvvm_match_any_sync_i32(m, v); }
__WF_DEVICE unsigned __match_any_sync(unsigned m, int v) { return __nvvm_match_any_sync_i32(m, v); }
__WF_DEVICE unsigned __match_any_sync(unsigned m, unsigned long long v) { return __nvvm_match_any_sync_i64(m, v); }
__WF_DEVICE unsigned __match_any_sync(unsigned m, long long v) { return __nvvm_match_any_sync_i64(m, v); }
__WF_DEVICE unsigned __match_any_sync(unsigned m, float v) { return __nvvm_match_any_sync_i32(m, __builtin_bit_cast(unsigned, v)); }
__WF_DEVICE unsigned __match_any_sync(unsigned m, double v) { return __nvvm_match_any_sync_i64(m, __builtin_bit_cast(unsigned long long, v)); }
#define __WF_MATCH_ALL(T, BITS, CONS)                                                             \
  __WF_DEVICE unsigned __match_all_sync(unsigned m, T v, int *pred) {                              \
    unsigned r; int p;                                                                             \
    asm volatile("{ .reg .pred q; match.all.sync.b" #BITS " %0|q, %2, %3; selp.s32 %1, 1, 0, q; }" \
                 : "=r"(r), "=r"(p) : CONS(v), "r"(m));                                            \
    *pred = p;                                                                                     \
    return r;                                                                                      \
  }
__WF_MATCH_ALL(unsigned, 32, "r")
__WF_MATCH_ALL(int, 32, "r")
__WF_MATCH_ALL(unsigned long long, 64, "l")
__WF_MATCH_ALL(long long, 64, "l")
#undef __WF_MATCH_ALL
#define __WF_REDUX(NAME, OP, T, PT)                                                               \
  __WF_DEVICE T NAME(unsigned m, T v) {                                                            \
    T r;                                                                                           \
    asm volatile("redux.sync." OP "." PT " %0, %1, %2;" : "=r"(r) : "r"(v), "r"(m));              \
    return r;                                                                                      \
  }
__WF_REDUX(__reduce_add_sync, "add", unsigned, "u32")
__WF_REDUX(__reduce_add_sync, "add", int, "s32")
__WF_REDUX(__reduce_min_sync, "min", unsigned, "u32")
__WF_REDUX(__reduce_min_sync, "min", int, "s32")
__WF_REDUX(__reduce_max_sync, "max", unsigned, "u32")
__WF_REDUX(__reduce_max_sync, "max", int, "s32")
__WF_REDUX(__reduce_and_sync, "and", unsigned, "b32")
__WF_REDUX(__reduce_or_sync, "or", unsigned, "b32")
__WF_REDUX(__reduce_xor_sync, "xor", unsigned, "b32")
#undef __WF_REDUX

// ---- integer intrinsics -----------------------------------------------------------------------
__WF_DEVICE int __popc(unsigned x) { return __builtin_popcount(x); }
__WF_DEVICE int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
__WF_DEVICE int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned)x); }
__WF_DEVICE int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
__WF_DEVICE int __ffs(int x) { return x == 0 ? 0 : __builtin_ctz((unsigned)x) + 1; }
__WF_DEVICE int __ffsll(long long x) { return x == 0 ? 0 : __builtin_ctzll((unsigned long long)x) + 1; }
__WF_DEVICE unsigned __brev(unsigned x) { unsigned r; asm("brev.b32 %0, %1;" : "=r"(r) : "r"(x)); return r; }
__WF_DEVICE unsigned long long __brevll(unsigned long long x) { unsigned long long r; asm("brev.b64 %0, %1;" : "=l"(r) : "l"(x)); return r; }
__WF_DEVICE unsigned __byte_perm(unsigned x, unsigned y, unsigned s) { return __nvvm_prmt(x, y, s); }
__WF_DEVICE unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned s) {
  unsigned r;
  asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(s));
  return r;
}
__WF_DEVICE unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned s) {
  unsigned r;
  asm("shf.l.clamp.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(s));
  return r;
}
__WF_DEVICE unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned s) {
  unsigned r;
  asm("shf.r.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(s));
  return r;
}
__WF_DEVICE unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned s) {
  unsigned r;
  asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(s));
  return r;
}
__WF_DEVICE int __mulhi(int x, int y) { return (int)(((long long)x * y) >> 32); }
__WF_DEVICE unsigned __umulhi(unsigned x, unsigned y) { return (unsigned)(((unsigned long long)x * y) >> 32); }
__WF_DEVICE long long __mul64hi(long long x, long long y) { return (long long)(((__int128)x * y) >> 64); }
__WF_DEVICE unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
  return (unsigned long long)(((unsigned __int128)x * y) >> 64);
}
// The low 32 bits of the product of the operands' low 24 bits (sign-extended for __mul24), as
// plain integer code: the back end has no mul24.
__WF_DEVICE int __mul24(int x, int y) { return (int)((unsigned)((x << 8) >> 8) * (unsigned)((y << 8) >> 8)); }
__WF_DEVICE unsigned __umul24(unsigned x, unsigned y) { return (x & 0xffffffu) * (y & 0xffffffu); }
__WF_DEVICE unsigned __sad(int x, int y, unsigned z) { return z + (x > y ? (unsigned)(x - y) : (unsigned)(y - x)); }
__WF_DEVICE unsigned __usad(unsigned x, unsigned y, unsigned z) { return z + (x > y ? x - y : y - x); }
__WF_DEVICE int __hadd(int x, int y) { return (int)(((long long)x + y) >> 1); }
__WF_DEVICE int __rhadd(int x, int y) { return (int)(((long long)x + y + 1) >> 1); }
__WF_DEVICE unsigned __uhadd(unsigned x, unsigned y) { return (unsigned)(((unsigned long long)x + y) >> 1); }
__WF_DEVICE unsigned __urhadd(unsigned x, unsigned y) { return (unsigned)(((unsigned long long)x + y + 1) >> 1); }
__WF_DEVICE int __dp4a(int a, int b, int c) {
  int r; asm("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r;
}
__WF_DEVICE unsigned __dp4a(unsigned a, unsigned b, unsigned c) {
  unsigned r; asm("dp4a.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r;
}

// ---- type conversion intrinsics ---------------------------------------------------------------
__WF_HD float __int_as_float_wf(int x) { return __builtin_bit_cast(float, x); }
__WF_HD float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
__WF_HD int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
__WF_HD float __uint_as_float(unsigned x) { return __builtin_bit_cast(float, x); }
__WF_HD unsigned __float_as_uint(float x) { return __builtin_bit_cast(unsigned, x); }
__WF_HD double __longlong_as_double(long long x) { return __builtin_bit_cast(double, x); }
__WF_HD long long __double_as_longlong(double x) { return __builtin_bit_cast(long long, x); }
__WF_DEVICE int __double2hiint(double x) { return (int)(__double_as_longlong(x) >> 32); }
__WF_DEVICE int __double2loint(double x) { return (int)__double_as_longlong(x); }
__WF_DEVICE double __hiloint2double(int hi, int lo) {
  return __longlong_as_double((long long)(((unsigned long long)(unsigned)hi << 32) | (unsigned)lo));
}
#define __WF_CVT(NAME, RT, RC, AT, AC, INSN)                                                      \
  __WF_DEVICE RT NAME(AT a) {                                                                      \
    RT r;                                                                                          \
    asm("cvt." INSN " %0, %1;" : "=" RC(r) : AC(a));                                               \
    return r;                                                                                      \
  }
#define __WF_CVT4(BASE, RT, RC, AT, AC, ITYPE)                                                    \
  __WF_CVT(BASE##_rn, RT, RC, AT, AC, "rn" ITYPE)                                                 \
  __WF_CVT(BASE##_rz, RT, RC, AT, AC, "rz" ITYPE)                                                 \
  __WF_CVT(BASE##_ru, RT, RC, AT, AC, "rp" ITYPE)                                                 \
  __WF_CVT(BASE##_rd, RT, RC, AT, AC, "rm" ITYPE)
#define __WF_CVTI4(BASE, RT, RC, AT, AC, ITYPE)                                                   \
  __WF_CVT(BASE##_rn, RT, RC, AT, AC, "rni" ITYPE)                                                \
  __WF_CVT(BASE##_rz, RT, RC, AT, AC, "rzi" ITYPE)                                                \
  __WF_CVT(BASE##_ru, RT, RC, AT, AC, "rpi" ITYPE)                                                \
  __WF_CVT(BASE##_rd, RT, RC, AT, AC, "rmi" ITYPE)
__WF_CVTI4(__float2int, int, "r", float, "f", ".s32.f32")
__WF_CVTI4(__float2uint, unsigned, "r", float, "f", ".u32.f32")
__WF_CVTI4(__float2ll, long long, "l", float, "f", ".s64.f32")
__WF_CVTI4(__float2ull, unsigned long long, "l", float, "f", ".u64.f32")
__WF_CVTI4(__double2int, int, "r", double, "d", ".s32.f64")
__WF_CVTI4(__double2uint, unsigned, "r", double, "d", ".u32.f64")
__WF_CVTI4(__double2ll, long long, "l", double, "d", ".s64.f64")
__WF_CVTI4(__double2ull, unsigned long long, "l", double, "d", ".u64.f64")
__WF_CVT4(__int2float, float, "f", int, "r", ".f32.s32")
__WF_CVT4(__uint2float, float, "f", unsigned, "r", ".f32.u32")
__WF_CVT4(__ll2float, float, "f", long long, "l", ".f32.s64")
__WF_CVT4(__ull2float, float, "f", unsigned long long, "l", ".f32.u64")
__WF_CVT4(__double2float, float, "f", double, "d", ".f32.f64")
__WF_CVT4(__ll2double, double, "d", long long, "l", ".f64.s64")
__WF_CVT4(__ull2double, double, "d", unsigned long long, "l", ".f64.u64")
__WF_CVT(__int2double_rn, double, "d", int, "r", "rn.f64.s32")
__WF_CVT(__uint2double_rn, double, "d", unsigned, "r", "rn.f64.u32")
#undef __WF_CVT4
#undef __WF_CVTI4
#undef __WF_CVT

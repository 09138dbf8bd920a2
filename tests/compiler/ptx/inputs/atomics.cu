#include "compat.h"

#if !defined(__NVCC__) && !defined(__WARPFORGE__) // Warpforge's headers declare them
__device__ inline int atomicAdd(int *p, int v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
__device__ inline unsigned atomicAdd(unsigned *p, unsigned v) {
  return __nvvm_atom_add_gen_i((int *)p, (int)v);
}
__device__ inline float atomicAdd(float *p, float v) { return __nvvm_atom_add_gen_f(p, v); }
__device__ inline double atomicAdd(double *p, double v) { return __nvvm_atom_add_gen_d(p, v); }
__device__ inline unsigned long long atomicAdd(unsigned long long *p, unsigned long long v) {
  return __nvvm_atom_add_gen_ll((long long *)p, (long long)v);
}
__device__ inline int atomicCAS(int *p, int c, int v) { return __nvvm_atom_cas_gen_i(p, c, v); }
__device__ inline unsigned long long atomicCAS(unsigned long long *p, unsigned long long c,
                                               unsigned long long v) {
  return __nvvm_atom_cas_gen_ll((long long *)p, c, v);
}
__device__ inline int atomicExch(int *p, int v) { return __nvvm_atom_xchg_gen_i(p, v); }
__device__ inline int atomicMin(int *p, int v) { return __nvvm_atom_min_gen_i(p, v); }
__device__ inline unsigned atomicMax(unsigned *p, unsigned v) { return __nvvm_atom_max_gen_ui(p, v); }
__device__ inline unsigned atomicInc(unsigned *p, unsigned v) { return __nvvm_atom_inc_gen_ui(p, v); }
__device__ inline unsigned atomicDec(unsigned *p, unsigned v) { return __nvvm_atom_dec_gen_ui(p, v); }
__device__ inline int atomicAnd(int *p, int v) { return __nvvm_atom_and_gen_i(p, v); }
__device__ inline int atomicOr(int *p, int v) { return __nvvm_atom_or_gen_i(p, v); }
__device__ inline int atomicXor(int *p, int v) { return __nvvm_atom_xor_gen_i(p, v); }
__device__ inline int atomicAdd_block(int *p, int v) { return __nvvm_atom_cta_add_gen_i(p, v); }
__device__ inline int atomicAdd_system(int *p, int v) { return __nvvm_atom_sys_add_gen_i(p, v); }
#endif

__device__ int gCounter;
__device__ unsigned long long gBig;

extern "C" __global__ void atomics(int *ip, unsigned *up, float *fp, double *dp,
                                   unsigned long long *lp) {
  __shared__ int sh[64];
  int t = WF_TID_X();
  if (t < 64)
    sh[t] = 0;
  WF_SYNCTHREADS();
  atomicAdd(&sh[t & 63], 1);
  int old = atomicAdd(ip, t);
  atomicAdd(up, 2u);
  atomicAdd(fp, 1.5f);
  atomicAdd(dp, 2.5);
  atomicAdd(lp, 3ull);
  atomicCAS(ip + 1, old, t);
  atomicCAS(lp + 1, 7ull, (unsigned long long)t);
  atomicExch(ip + 2, t);
  atomicMin(ip + 3, t);
  atomicMax(up + 4, (unsigned)t);
  atomicInc(up + 5, 100u);
  atomicDec(up + 6, 100u);
  atomicAnd(ip + 7, ~t);
  atomicOr(ip + 8, t);
  atomicXor(ip + 9, t);
  atomicAdd_block(ip + 10, 1);
  atomicAdd_system(ip + 11, 1);
  atomicAdd(&gCounter, 1);
  atomicAdd(&gBig, 1ull);
  WF_SYNCTHREADS();
  if (t == 0)
    ip[12] = sh[0] + sh[63];
}

// A spin lock built from CAS and exchange, with fences.
extern "C" __global__ void lockedIncrement(int *lock, int *value) {
  if (WF_TID_X() % 32 == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    WF_THREADFENCE();
    *(volatile int *)value = *(volatile int *)value + 1;
    WF_THREADFENCE();
    atomicExch(lock, 0);
  }
}

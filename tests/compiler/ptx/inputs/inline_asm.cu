#include "compat.h"

__device__ __forceinline__ unsigned laneId() {
  unsigned r;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}

__device__ __forceinline__ unsigned addCarry(unsigned a, unsigned b, unsigned c, unsigned d,
                                             unsigned &hi) {
  unsigned lo;
  asm("{\n\t"
      ".reg .u32 t1;\n\t"
      "add.cc.u32 %0, %2, %3;\n\t"
      "addc.u32 t1, %4, %5;\n\t"
      "mov.u32 %1, t1;\n\t"
      "}"
      : "=r"(lo), "=r"(hi)
      : "r"(a), "r"(b), "r"(c), "r"(d));
  return lo;
}

__device__ __forceinline__ unsigned nested(unsigned a) {
  unsigned r;
  // The inner block shadows t of the outer one.
  asm("{\n\t"
      ".reg .u32 t;\n\t"
      "add.u32 t, %1, 1;\n\t"
      "{\n\t"
      ".reg .u32 t;\n\t"
      ".reg .pred p;\n\t"
      "setp.eq.u32 p, %1, 0;\n\t"
      "@p mov.u32 t, 7;\n\t"
      "@!p mov.u32 t, 9;\n\t"
      "}\n\t"
      "shl.b32 %0, t, 2;\n\t"
      "}"
      : "=r"(r)
      : "r"(a));
  return r;
}

__device__ __forceinline__ unsigned bfe(unsigned x, unsigned pos, unsigned len) {
  unsigned r;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(pos), "r"(len));
  return r;
}

__device__ __forceinline__ unsigned prmt(unsigned a, unsigned b, unsigned s) {
  unsigned r;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(s));
  return r;
}

__device__ __forceinline__ unsigned long long globalTimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ unsigned lop3(unsigned a, unsigned b, unsigned c) {
  unsigned r;
  asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
}

__device__ __forceinline__ float ldgF(const float *p) {
  float v;
  asm("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(p));
  return v;
}

__device__ __forceinline__ unsigned dynSmem() {
  unsigned r;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(r));
  return r;
}

extern "C" __global__ void inlineAsm(const unsigned *in, unsigned *out, const float *fin) {
  unsigned t = WF_TID_X();
  unsigned hi;
  unsigned lo = addCarry(in[t], in[t + 1], in[t + 2], in[t + 3], hi);
  out[t] = lo + hi + laneId() + nested(in[t]) + bfe(in[t], 4, 8) + prmt(lo, hi, 0x3210) +
           (unsigned)globalTimer() + lop3(lo, hi, t) + (unsigned)ldgF(fin + t) + dynSmem();
  asm volatile("membar.gl;" ::: "memory");
  asm volatile("bar.sync 1, 64;");
  asm volatile("nanosleep.u32 100;");
}

// Minimal portability layer for the PTX front-end test inputs.
//
// The inputs compile with nvcc (its own CUDA headers) and with clang in -nocudainc mode, where no
// CUDA header exists: there this file declares the few attributes and builtins the kernels use.
#pragma once

#if defined(__NVCC__) || defined(__WARPFORGE__) // nvcc, or clang with Warpforge's CUDA headers
#include <cuda_fp16.h>
#include <cstdio>
#define WF_TID_X() threadIdx.x
#define WF_TID_Y() threadIdx.y
#define WF_NTID_X() blockDim.x
#define WF_CTAID_X() blockIdx.x
#define WF_NCTAID_X() gridDim.x
#define WF_SYNCTHREADS() __syncthreads()
#define WF_SYNCTHREADS_COUNT(p) __syncthreads_count(p)
#define WF_SYNCTHREADS_OR(p) __syncthreads_or(p)
#define WF_SHFL_DOWN(v, d) __shfl_down_sync(0xffffffffu, (v), (d))
#define WF_SHFL_XOR(v, d) __shfl_xor_sync(0xffffffffu, (v), (d))
#define WF_SHFL_IDX(v, l) __shfl_sync(0xffffffffu, (v), (l))
#define WF_SHFL_UP(v, d) __shfl_up_sync(0xffffffffu, (v), (d))
#define WF_BALLOT(p) __ballot_sync(0xffffffffu, (p))
#define WF_ALL(p) __all_sync(0xffffffffu, (p))
#define WF_ANY(p) __any_sync(0xffffffffu, (p))
#define WF_ACTIVEMASK() __activemask()
#define WF_SYNCWARP() __syncwarp()
#define WF_THREADFENCE() __threadfence()
#define WF_THREADFENCE_BLOCK() __threadfence_block()
#define WF_CLOCK64() clock64()
#define WF_LANEID() (threadIdx.x & 31)
#define WF_BREV(x) __brev(x)
#define WF_CTZ(x) (__ffs(x) - 1)
#define WF_TRAP() __trap()
#else
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __noinline__ __attribute__((noinline))
#define __forceinline__ __attribute__((always_inline)) inline
extern "C" __device__ int printf(const char *, ...);
extern "C" __device__ int vprintf(const char *, void *);
#define WF_TID_X() __nvvm_read_ptx_sreg_tid_x()
#define WF_TID_Y() __nvvm_read_ptx_sreg_tid_y()
#define WF_NTID_X() __nvvm_read_ptx_sreg_ntid_x()
#define WF_CTAID_X() __nvvm_read_ptx_sreg_ctaid_x()
#define WF_NCTAID_X() __nvvm_read_ptx_sreg_nctaid_x()
#define WF_SYNCTHREADS() __syncthreads()
#define WF_SYNCTHREADS_COUNT(p) __nvvm_bar0_popc(p)
#define WF_SYNCTHREADS_OR(p) __nvvm_bar0_or(p)
#define WF_SHFL_DOWN(v, d) __nvvm_shfl_sync_down_i32(0xffffffffu, (v), (d), 0x1f)
#define WF_SHFL_XOR(v, d) __nvvm_shfl_sync_bfly_i32(0xffffffffu, (v), (d), 0x1f)
#define WF_SHFL_IDX(v, l) __nvvm_shfl_sync_idx_i32(0xffffffffu, (v), (l), 0x1f)
#define WF_SHFL_UP(v, d) __nvvm_shfl_sync_up_i32(0xffffffffu, (v), (d), 0)
#define WF_BALLOT(p) __nvvm_vote_ballot_sync(0xffffffffu, (p))
#define WF_ALL(p) __nvvm_vote_all_sync(0xffffffffu, (p))
#define WF_ANY(p) __nvvm_vote_any_sync(0xffffffffu, (p))
__device__ inline unsigned wfActivemask() {
  unsigned m;
  asm volatile("activemask.b32 %0;" : "=r"(m));
  return m;
}
#define WF_ACTIVEMASK() wfActivemask()
#define WF_SYNCWARP() __nvvm_bar_warp_sync(0xffffffffu)
#define WF_THREADFENCE() __nvvm_membar_gl()
#define WF_THREADFENCE_BLOCK() __nvvm_membar_cta()
#define WF_CLOCK64() __nvvm_read_ptx_sreg_clock64()
#define WF_LANEID() __nvvm_read_ptx_sreg_laneid()
#define WF_BREV(x) __builtin_bitreverse32(x)
#define WF_CTZ(x) __builtin_ctz(x)
#define WF_TRAP() __builtin_trap()
#endif

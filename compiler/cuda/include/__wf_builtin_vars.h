// Warpforge CUDA headers: threadIdx, blockIdx, blockDim, gridDim and warpSize, read from the PTX
// special registers through clang's __nvvm_read_ptx_sreg_* builtins.
#pragma once
#include "__wf_host_defines.h"
#include "__wf_isa.gen.h"
#include "vector_types.h"

#define __WF_SREG_STRUCT(NAME, REG)                                                            \
  struct NAME {                                                                               \
    __declspec(property(get = __get_x)) unsigned int x;                                        \
    __declspec(property(get = __get_y)) unsigned int y;                                        \
    __declspec(property(get = __get_z)) unsigned int z;                                        \
    static __device__ __forceinline__ unsigned int __get_x() {                                 \
      return __nvvm_read_ptx_sreg_##REG##_x();                                                 \
    }                                                                                          \
    static __device__ __forceinline__ unsigned int __get_y() {                                 \
      return __nvvm_read_ptx_sreg_##REG##_y();                                                 \
    }                                                                                          \
    static __device__ __forceinline__ unsigned int __get_z() {                                 \
      return __nvvm_read_ptx_sreg_##REG##_z();                                                 \
    }                                                                                          \
    __device__ operator uint3() const { return {__get_x(), __get_y(), __get_z()}; }            \
    __device__ operator dim3() const { return dim3(__get_x(), __get_y(), __get_z()); }         \
                                                                                               \
  private:                                                                                     \
    __device__ NAME() = delete;                                                                \
    __device__ NAME(const NAME &) = delete;                                                    \
    __device__ void operator=(const NAME &) const = delete;                                    \
    __device__ NAME *operator&() const = delete;                                               \
  };

__WF_SREG_STRUCT(__wf_threadIdx_t, tid)
__WF_SREG_STRUCT(__wf_blockIdx_t, ctaid)
__WF_SREG_STRUCT(__wf_blockDim_t, ntid)
__WF_SREG_STRUCT(__wf_gridDim_t, nctaid)
#undef __WF_SREG_STRUCT

#define __WF_BUILTIN_VAR extern const __attribute__((device)) __attribute__((weak))
__WF_BUILTIN_VAR __wf_threadIdx_t threadIdx;
__WF_BUILTIN_VAR __wf_blockIdx_t blockIdx;
__WF_BUILTIN_VAR __wf_blockDim_t blockDim;
__WF_BUILTIN_VAR __wf_gridDim_t gridDim;
#undef __WF_BUILTIN_VAR
constexpr int warpSize = __WF_WARP_SIZE;

// Warpforge CUDA headers: function and variable space attributes for clang's CUDA mode.
#pragma once

#ifndef __host__
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#endif
// clang (14) accepts __managed__ only for HIP. A managed variable is a device variable; in the
// host pass its shadow is marked (the section) for warpforge cc's pass plugin, which sends host
// uses through the pointer it registers with __cudaRegisterManagedVar (compiler/clang-plugin).
#ifndef __managed__
#if defined(__CUDA_ARCH__)
#define __managed__ __attribute__((device))
#elif defined(__WARPFORGE_MANAGED__)
#define __managed__ __attribute__((device, section(".warpforge.managed")))
#else
#define __managed__                                                                                \
  __attribute__((device, unavailable("__managed__ variables need warpforge cc's pass plugin, "     \
                                     "built with LLVM's development files for this clang")))
#endif
#endif
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __restrict__ __restrict
#define __builtin_align__(n) __align__(n)
#define __device_builtin__
// clang 14 has no grid_constant attribute; a const kernel parameter whose address is taken is
// then copied, which reads the same values.
#define __grid_constant__
#define __cudart_builtin__
#define CUDARTAPI
#define CUDART_CB
#define __WF_DEVICE static __device__ __forceinline__
#define __WF_HD static __host__ __device__ __forceinline__

#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
#define __NVCC__DUMMY 1
#ifndef __CUDACC_VER_MAJOR__
#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 0
#define __CUDACC_VER_BUILD__ 0
#endif
#ifndef CUDART_VERSION
#define CUDART_VERSION 12000
#define __CUDART_API_VERSION 12000
#endif

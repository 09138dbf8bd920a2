// Arrays, texture objects and surface objects of the CUDA API layer (texture_api.cpp).
#pragma once

#include "cuda_types.h"
#include "warpforge/runtime/runtime.h"

// cudaMallocArray / cudaMalloc3DArray flags (NVIDIA's values).
enum : unsigned {
  cudaArrayDefault = 0x00,
  cudaArrayLayered = 0x01,
  cudaArraySurfaceLoadStore = 0x02,
  cudaArrayCubemap = 0x04,
  cudaArrayTextureGather = 0x08,
};

/// cudaMemcpy3D where the source or the destination is a CUDA array.
wf::rt::Error memcpy3DArray(const cudaMemcpy3DParms *p);

extern "C" {
cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                size_t spitch, size_t width, size_t height, cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                  size_t hOffset, size_t width, size_t height, cudaMemcpyKind kind);
cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                              size_t count, cudaMemcpyKind kind);
cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                size_t count, cudaMemcpyKind kind);
}

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

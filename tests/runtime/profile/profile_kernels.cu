// Kernels with known execution counts for the profile report (WARPFORGE_PROFILE): a straight-line
// kernel that every warp runs once, and a loop whose trip count comes from the command line.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

__global__ void straightLine(const float *in, float *out, float a, float b) {
  unsigned i = threadIdx.x;
  out[i] = a * in[i] + b;
}

__global__ void counted(unsigned *out, int trips) {
  unsigned acc = threadIdx.x;
#pragma unroll 1
  for (int k = 0; k < trips; ++k)
    acc = acc * 2654435761u + unsigned(k);
  out[threadIdx.x] = acc;
}

int main(int argc, char **argv) {
  int trips = argc > 1 ? std::atoi(argv[1]) : 10;
  float *in, *out;
  unsigned *words;
  if (cudaMalloc(&in, 64 * sizeof(float)) || cudaMalloc(&out, 64 * sizeof(float)) ||
      cudaMalloc(&words, 32 * sizeof(unsigned)))
    return 1;
  cudaMemset(in, 0, 64 * sizeof(float));
  straightLine<<<1, 64>>>(in, out, 2.0f, 1.0f); // two warps
  counted<<<1, 32>>>(words, trips);              // one warp
  if (cudaError_t e = cudaDeviceSynchronize()) {
    std::printf("error: %s\n", cudaGetErrorString(e));
    return 1;
  }
  std::printf("ran\n");
  return 0;
}

// A tiny program for `warpforge sweep`'s test: two blocks of a shared-memory reduction, checked
// on the host, so the cycle device runs a few thousand cycles.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void blockSums(const int *in, int *out) {
  __shared__ int partial[64];
  partial[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = partial[0];
}

int main() {
  const int blocks = 2, threads = 64, n = blocks * threads;
  int host[n], sums[blocks];
  for (int i = 0; i < n; ++i)
    host[i] = i * 3 + 1;
  int *in = nullptr, *out = nullptr;
  if (cudaMalloc(&in, sizeof host) != cudaSuccess || cudaMalloc(&out, sizeof sums) != cudaSuccess)
    return 1;
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  blockSums<<<blocks, threads>>>(in, out);
  if (cudaMemcpy(sums, out, sizeof sums, cudaMemcpyDeviceToHost) != cudaSuccess)
    return 1;
  for (int b = 0; b < blocks; ++b) {
    int expected = 0;
    for (int i = 0; i < threads; ++i)
      expected += host[b * threads + i];
    if (sums[b] != expected) {
      std::printf("FAIL block %d: %d, expected %d\n", b, sums[b], expected);
      return 1;
    }
  }
  std::printf("PASS\n");
  return 0;
}

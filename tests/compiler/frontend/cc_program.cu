// A whole program for `warpforge cc` / `warpforge run`: a kernel, a __device__ variable copied
// back by symbol, and an exit status that depends on the arguments (so that the tests can see
// that argv and the status pass through unchanged).
#include <cstdio>
#include <cstring>

__device__ int counter;

__global__ void count(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = i * i;
    atomicAdd(&counter, 1);
  }
}

int main(int argc, char **argv) {
  const int n = 1000;
  int *d = nullptr;
  if (cudaMalloc(&d, n * sizeof(int)) != cudaSuccess)
    return 10;
  count<<<(n + 127) / 128, 128>>>(d, n);
  int h[n], c = 0;
  if (cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess)
    return 11;
  if (cudaMemcpyFromSymbol(&c, counter, sizeof c) != cudaSuccess)
    return 12;
  for (int i = 0; i < n; ++i)
    if (h[i] != i * i)
      return 13;
  if (c != n)
    return 14;
  std::printf("counted %d\n", c);
  // Status 3 with the arguments "x y", 0 without any.
  if (argc == 3 && std::strcmp(argv[1], "x") == 0 && std::strcmp(argv[2], "y") == 0)
    return 3;
  return argc == 1 ? 0 : 15;
}

// 64-bit rotates by amounts the optimizer leaves unreduced: clang's NVPTX back end (14 to 16)
// shifts by the amount and by 64 minus it, where LLVM's rotate takes it modulo 64 and PTX clamps
// shifts (warpforge repairs the PTX). Every value is checked against the same expression on the
// host; the exit status says whether all matched.
#include <cstdio>

__host__ __device__ unsigned long long clearBit(int t) { return ~(1ull << (t % 63)); }
__host__ __device__ unsigned long long rotl(unsigned long long x, unsigned n) {
  n %= 64;
  return n ? x << n | x >> (64 - n) : x;
}
__host__ __device__ unsigned long long rotr(unsigned long long x, unsigned n) {
  n %= 64;
  return n ? x >> n | x << (64 - n) : x;
}
__host__ __device__ unsigned long long value(int t) { return 0x9E3779B97F4A7C15ull * (t + 1); }

__global__ void rotates(unsigned long long *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  out[3 * t] = clearBit(t);
  out[3 * t + 1] = rotl(value(t), unsigned(t) * 7u);
  out[3 * t + 2] = rotr(value(t), unsigned(t) * 5u);
}

int main() {
  const int n = 512;
  unsigned long long *d, h[3 * n];
  cudaMalloc(&d, sizeof h);
  rotates<<<n / 128, 128>>>(d, n);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < n; ++t) {
    unsigned long long want[3] = {clearBit(t), rotl(value(t), unsigned(t) * 7u),
                                  rotr(value(t), unsigned(t) * 5u)};
    for (int k = 0; k < 3; ++k)
      if (h[3 * t + k] != want[k] && bad++ < 8)
        printf("t=%d form %d: got %llx, want %llx\n", t, k, h[3 * t + k], want[k]);
  }
  printf("%d of %d rotates wrong\n", bad, 3 * n);
  return bad != 0;
}

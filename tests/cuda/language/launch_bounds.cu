// WF-CHAPTER: language
// WF-FEATURES: lang.launch_bounds, lang.launch_bounds.exceeded, rt.func.get_attributes
// WF-DESCRIPTION: __launch_bounds__(maxThreadsPerBlock[, minBlocksPerMultiprocessor]) kernels: correct results at and below the bound, cudaFuncGetAttributes reports maxThreadsPerBlock <= the bound, and a launch above the bound fails without running
#include "../common/check.h"
#include <vector>

__global__ void __launch_bounds__(128) lb128(int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = i * 3 + (int)blockDim.x;
}
__global__ void __launch_bounds__(256, 2) lb256_2(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float acc = 0;
#pragma unroll 8
    for (int k = 0; k < 64; ++k) acc += in[(i + k) % n] * (float)(k & 3);
    out[i] = acc;
  }
}
__global__ void __launch_bounds__(64, 1) lb64(int* out) { out[threadIdx.x] = -(int)threadIdx.x; }

int main() {
  cudaFuncAttributes a;
  CHECK(cudaFuncGetAttributes(&a, lb128));
  EXPECT_TRUE(a.maxThreadsPerBlock <= 128 && a.maxThreadsPerBlock >= 32, "lb128: maxThreadsPerBlock within the bound");
  CHECK(cudaFuncGetAttributes(&a, lb256_2));
  EXPECT_TRUE(a.maxThreadsPerBlock <= 256 && a.maxThreadsPerBlock >= 32, "lb256_2: maxThreadsPerBlock within the bound");
  CHECK(cudaFuncGetAttributes(&a, lb64));
  EXPECT_TRUE(a.maxThreadsPerBlock <= 64, "lb64: maxThreadsPerBlock within the bound");
  int* d;
  CHECK(cudaMalloc(&d, 4096 * 4));
  for (int threads : {128, 96, 1}) {
    CHECK(cudaMemset(d, 0, 4096 * 4));
    lb128<<<5, threads>>>(d);
    CHECK_KERNEL();
    std::vector<int> h(5 * threads);
    CHECK(cudaMemcpy(h.data(), d, h.size() * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 5 * threads; ++i) EXPECT_EQ(h[i], i * 3 + threads, "lb128", i);
  }
  const int n = 1000;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = (float)(i % 11);
  float *fi, *fo;
  CHECK(cudaMalloc(&fi, n * 4)); CHECK(cudaMalloc(&fo, n * 4));
  CHECK(cudaMemcpy(fi, in.data(), n * 4, cudaMemcpyHostToDevice));
  lb256_2<<<(n + 255) / 256, 256>>>(fi, fo, n);
  CHECK_KERNEL();
  std::vector<float> ho(n);
  CHECK(cudaMemcpy(ho.data(), fo, n * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    float acc = 0;
    for (int k = 0; k < 64; ++k) acc += in[(i + k) % n] * (float)(k & 3);
    EXPECT_EQ(ho[i], acc, "lb256_2", i);  // small integers: exact in any order
  }
  // Above the bound: the launch must fail and leave memory untouched.
  CHECK(cudaMemset(d, 0, 4096 * 4));
  lb128<<<1, 256>>>(d);
  cudaError_t e = cudaGetLastError();
  EXPECT_TRUE(e != cudaSuccess, "launch above __launch_bounds__ fails");
  if (e != cudaSuccess) printf("(launch above the bound reported %s)\n", cudaGetErrorName(e));
  CHECK(cudaDeviceSynchronize());
  std::vector<int> h(256);
  CHECK(cudaMemcpy(h.data(), d, 256 * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 256; ++i) EXPECT_EQ(h[i], 0, "failed launch wrote nothing", i);
  lb64<<<1, 64>>>(d);  // the context is still usable
  CHECK_KERNEL();
  CHECK(cudaMemcpy(h.data(), d, 64 * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 64; ++i) EXPECT_EQ(h[i], -i, "lb64 after a failed launch", i);
  return wf::finish();
}

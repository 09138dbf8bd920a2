// WF-CHAPTER: language
// WF-FEATURES: lang.pragma_unroll, lang.builtin_assume, lang.builtin_expect, lang.builtin_unreachable, lang.assume_aligned
// WF-DESCRIPTION: optimisation hints must not change results: #pragma unroll (full, by N, 1), __builtin_assume, __builtin_expect, __builtin_unreachable after exhaustive branches, __builtin_assume_aligned on 16-byte aligned buffers
#include "../common/check.h"
#include <vector>

__device__ int classify(int v) {
  int r = v & 3;
  if (r == 0) return 10;
  if (r == 1) return 20;
  if (r == 2) return 30;
  if (r == 3) return 40;
  __builtin_unreachable();
}

__global__ void hints(const float* __restrict__ in, float* __restrict__ out, int* iout, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __builtin_assume(n > 0);
  const float4* a4 = (const float4*)__builtin_assume_aligned(in, 16);
  float s = 0;
#pragma unroll
  for (int k = 0; k < 8; ++k) s += in[(i + k) % n] * (float)k;
#pragma unroll 4
  for (int k = 0; k < 13; ++k) s += (float)(k * (i & 1));
#pragma unroll 1
  for (int k = 0; k < 5; ++k) s -= 1.0f;
  float4 q = a4[i / 4];
  s += q.x + q.y + q.z + q.w;
  if (__builtin_expect(i % 100 == 0, 0)) s = -s;
  out[i] = s;
  iout[i] = classify(i);
}

int main() {
  const int n = 1024;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = (float)(i % 9);
  float *di, *dout; int* dio;
  CHECK(cudaMalloc(&di, n * 4)); CHECK(cudaMalloc(&dout, n * 4)); CHECK(cudaMalloc(&dio, n * 4));
  CHECK(cudaMemcpy(di, in.data(), n * 4, cudaMemcpyHostToDevice));
  hints<<<n / 128, 128>>>(di, dout, dio, n);
  CHECK_KERNEL();
  std::vector<float> h(n);
  std::vector<int> hi(n);
  CHECK(cudaMemcpy(h.data(), dout, n * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hi.data(), dio, n * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    float s = 0;
    for (int k = 0; k < 8; ++k) s += in[(i + k) % n] * (float)k;
    for (int k = 0; k < 13; ++k) s += (float)(k * (i & 1));
    s -= 5.0f;
    int b = (i / 4) * 4;
    s += in[b] + in[b + 1] + in[b + 2] + in[b + 3];
    if (i % 100 == 0) s = -s;
    EXPECT_EQ(h[i], s, "hinted arithmetic (small integers, exact)", i);
    EXPECT_EQ(hi[i], 10 * ((i & 3) + 1), "__builtin_unreachable branch", i);
  }
  return wf::finish();
}

// WF-CHAPTER: atomics
// WF-FEATURES: atomics.add.half.global, atomics.add.half2.global, atomics.add.half2.shared, arith.half.conversions
// WF-DESCRIPTION: atomicAdd on __half and __half2 (compute capability 7.x+), with addends whose sums are exact in half precision so any order gives the same result
#include "../common/check.h"
#include <cuda_fp16.h>
#include <vector>

__global__ void hadd(__half* h, __half2* h2, float* shared_out) {
  __shared__ __half2 s;
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  if (t == 0) s = __floats2half2_rn(0.0f, 0.0f);
  __syncthreads();
  atomicAdd(&h[0], __float2half(0.5f));                    // 0.5 * N <= 2048 exactly representable
  atomicAdd(&h[1], __float2half((g % 2) ? 1.0f : -1.0f));  // cancels
  atomicAdd(h2, __floats2half2_rn(0.25f, -0.125f));
  atomicAdd(&s, __floats2half2_rn(1.0f, 2.0f));
  __syncthreads();
  if (t == 0) { shared_out[blockIdx.x * 2] = __low2float(s); shared_out[blockIdx.x * 2 + 1] = __high2float(s); }
}

int main() {
  const int blocks = 4, threads = 256, N = blocks * threads;
  __half* h; __half2* h2; float* so;
  CHECK(cudaMalloc(&h, 2 * sizeof(__half))); CHECK(cudaMalloc(&h2, sizeof(__half2))); CHECK(cudaMalloc(&so, blocks * 8));
  CHECK(cudaMemset(h, 0, 2 * sizeof(__half))); CHECK(cudaMemset(h2, 0, sizeof(__half2)));
  hadd<<<blocks, threads>>>(h, h2, so);
  CHECK_KERNEL();
  __half hh[2]; __half2 hh2; std::vector<float> hs(blocks * 2);
  CHECK(cudaMemcpy(hh, h, sizeof(hh), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&hh2, h2, sizeof(hh2), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hs.data(), so, blocks * 8, cudaMemcpyDeviceToHost));
  EXPECT_EQ(__half2float(hh[0]), 0.5f * N, "half sum", 0);
  EXPECT_EQ(__half2float(hh[1]), 0.0f, "half cancelling sum", 1);
  EXPECT_EQ(__low2float(hh2), 0.25f * N, "half2 low", 0);
  EXPECT_EQ(__high2float(hh2), -0.125f * N, "half2 high", 0);
  for (int b = 0; b < blocks; ++b) {
    EXPECT_EQ(hs[b * 2], (float)threads, "shared half2 low", b);
    EXPECT_EQ(hs[b * 2 + 1], 2.0f * threads, "shared half2 high", b);
  }
  return wf::finish();
}

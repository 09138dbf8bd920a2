// WF-CHAPTER: apps
// WF-FEATURES: app.histogram, atomics.add.int.shared, atomics.add.int.global
// WF-DESCRIPTION: 256-bin byte histogram of a skewed 120 KB input: a naive global-atomic version and a privatized version with per-block shared-memory histograms merged by global atomics; both must match the host count exactly
#include "../common/check.h"
#include <vector>

__global__ void naive(const unsigned char* in, int n, int* hist) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) atomicAdd(&hist[in[i]], 1);
}
__global__ void privatized(const unsigned* in4, int n4, int* hist) {
  __shared__ int h[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) h[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += blockDim.x * gridDim.x) {
    unsigned w = in4[i];  // four bytes per load
    atomicAdd(&h[w & 0xff], 1); atomicAdd(&h[(w >> 8) & 0xff], 1); atomicAdd(&h[(w >> 16) & 0xff], 1); atomicAdd(&h[w >> 24], 1);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x) if (h[b]) atomicAdd(&hist[b], h[b]);
}

int main() {
  const int n = 120000;  // multiple of 4
  std::vector<unsigned char> in(n);
  wf::Rng r(9);
  for (int i = 0; i < n; ++i) in[i] = (i % 3 == 0) ? 42 : (unsigned char)((r.next() % 64) * (r.next() % 4));  // heavy contention on a few bins
  std::vector<int> want(256, 0);
  for (unsigned char c : in) want[c]++;
  unsigned char* d; int* hist;
  CHECK(cudaMalloc(&d, n)); CHECK(cudaMalloc(&hist, 256 * 4));
  CHECK(cudaMemcpy(d, in.data(), n, cudaMemcpyHostToDevice));
  std::vector<int> h(256);
  CHECK(cudaMemset(hist, 0, 256 * 4));
  naive<<<64, 256>>>(d, n, hist);
  CHECK_KERNEL();
  CHECK(cudaMemcpy(h.data(), hist, 256 * 4, cudaMemcpyDeviceToHost));
  for (int b = 0; b < 256; ++b) EXPECT_EQ(h[b], want[b], "naive histogram", b);
  CHECK(cudaMemset(hist, 0, 256 * 4));
  privatized<<<48, 192>>>((const unsigned*)d, n / 4, hist);
  CHECK_KERNEL();
  CHECK(cudaMemcpy(h.data(), hist, 256 * 4, cudaMemcpyDeviceToHost));
  for (int b = 0; b < 256; ++b) EXPECT_EQ(h[b], want[b], "privatized histogram", b);
  return wf::finish();
}

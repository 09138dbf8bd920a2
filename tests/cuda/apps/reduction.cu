// WF-CHAPTER: apps
// WF-FEATURES: app.reduction, warp.shfl.down, mem.shared.dynamic, atomics.add.ull.global
// WF-DESCRIPTION: parallel sum reduction of 50003 integers in three classic forms: interleaved shared-memory tree, sequential addressing with first add during load, and warp-shuffle reduction with one atomic per block; plus a two-pass (block partials, then one block) version
#include "../common/check.h"
#include <vector>

__global__ void tree_interleaved(const int* in, long long* partial, int n) {
  extern __shared__ long long s[];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? in[i] : 0;
  __syncthreads();
  for (int st = 1; st < blockDim.x; st *= 2) {
    if (t % (2 * st) == 0) s[t] += s[t + st];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = s[0];
}
__global__ void sequential(const int* in, long long* partial, int n) {
  extern __shared__ long long s[];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x * 2 + t;
  long long v = i < n ? in[i] : 0;
  if (i + blockDim.x < n) v += in[i + blockDim.x];
  s[t] = v;
  __syncthreads();
  for (int st = blockDim.x / 2; st > 0; st >>= 1) {
    if (t < st) s[t] += s[t + st];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = s[0];
}
__global__ void shuffle_atomic(const int* in, unsigned long long* total, int n) {
  __shared__ long long warp_sums[32];
  long long v = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += in[i];
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  int lane = threadIdx.x % 32, w = threadIdx.x / 32;
  if (lane == 0) warp_sums[w] = v;
  __syncthreads();
  if (w == 0) {
    v = lane < blockDim.x / 32 ? warp_sums[lane] : 0;
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0) atomicAdd(total, (unsigned long long)v);
  }
}

int main() {
  const int n = 50003;
  std::vector<int> h(n);
  long long want = 0;
  for (int i = 0; i < n; ++i) { h[i] = (int)((i * 2654435761u) >> 12) - (1 << 19); want += h[i]; }
  int* d; long long *p, *p2; unsigned long long* tot;
  CHECK(cudaMalloc(&d, n * 4)); CHECK(cudaMalloc(&p, 8192 * 8)); CHECK(cudaMalloc(&p2, 8)); CHECK(cudaMalloc(&tot, 8));
  CHECK(cudaMemcpy(d, h.data(), n * 4, cudaMemcpyHostToDevice));
  std::vector<long long> hp(8192);
  // interleaved: blocks of 256
  int b1 = (n + 255) / 256;
  tree_interleaved<<<b1, 256, 256 * 8>>>(d, p, n);
  CHECK_KERNEL();
  CHECK(cudaMemcpy(hp.data(), p, b1 * 8, cudaMemcpyDeviceToHost));
  long long s1 = 0;
  for (int b = 0; b < b1; ++b) s1 += hp[b];
  EXPECT_EQ(s1, want, "interleaved tree", 0);
  // sequential addressing, two passes on the device
  int b2 = (n + 1023) / 1024;
  sequential<<<b2, 512, 512 * 8>>>(d, p, n);
  CHECK_KERNEL();
  CHECK(cudaMemcpy(hp.data(), p, b2 * 8, cudaMemcpyDeviceToHost));
  long long s2 = 0;
  for (int b = 0; b < b2; ++b) s2 += hp[b];
  EXPECT_EQ(s2, want, "sequential addressing", 0);
  // shuffle + one atomic per block (grid-stride)
  CHECK(cudaMemset(tot, 0, 8));
  shuffle_atomic<<<120, 256>>>(d, tot, n);
  CHECK_KERNEL();
  unsigned long long s3;
  CHECK(cudaMemcpy(&s3, tot, 8, cudaMemcpyDeviceToHost));
  EXPECT_EQ((long long)s3, want, "warp shuffle + atomics", 0);
  (void)p2;
  return wf::finish();
}

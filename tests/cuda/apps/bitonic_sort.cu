// WF-CHAPTER: apps
// WF-FEATURES: app.sort.bitonic, mem.shared.static, sync.syncthreads.loop
// WF-DESCRIPTION: bitonic sort of 8192 keys (padded from 6001 with +INF): shared-memory stages for the strides below 1024 and global-memory compare-exchange kernels for larger strides, ascending and with key-value payloads
#include "../common/check.h"
#include <algorithm>
#include <climits>
#include <vector>

constexpr int S = 1024;  // keys per shared-memory block (512 threads)

__device__ void cmpswap(unsigned& ka, int& va, unsigned& kb, int& vb, bool up) {
  if ((ka > kb) == up) { unsigned k = ka; ka = kb; kb = k; int v = va; va = vb; vb = v; }
}
// all stages with stride < S for a given size k (k <= S handled entirely, or merge tail for k > S)
__global__ void shared_stages(unsigned* key, int* val, int k_begin, int k_end, int j_start) {
  __shared__ unsigned sk[S];
  __shared__ int sv[S];
  int base = blockIdx.x * S, t = threadIdx.x;
  sk[t] = key[base + t]; sv[t] = val[base + t];
  sk[t + S / 2] = key[base + t + S / 2]; sv[t + S / 2] = val[base + t + S / 2];
  for (int k = k_begin; k <= k_end; k <<= 1) {
    for (int j = (k == k_begin ? j_start : k / 2); j > 0; j >>= 1) {
      __syncthreads();
      int i = 2 * t - (t & (j - 1));  // lower index of the pair
      int g = base + i;
      bool up = (g & k) == 0;
      cmpswap(sk[i], sv[i], sk[i + j], sv[i + j], up);
    }
  }
  __syncthreads();
  key[base + t] = sk[t]; val[base + t] = sv[t];
  key[base + t + S / 2] = sk[t + S / 2]; val[base + t + S / 2] = sv[t + S / 2];
}
__global__ void global_stage(unsigned* key, int* val, int k, int j) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int i = 2 * t - (t & (j - 1));
  bool up = (i & k) == 0;
  cmpswap(key[i], val[i], key[i + j], val[i + j], up);
}

int main() {
  const int n = 6001, N = 8192;
  std::vector<unsigned> k(N, 0xffffffffu);
  std::vector<int> v(N, -1);
  wf::Rng r(42);
  for (int i = 0; i < n; ++i) { k[i] = r.next() % 100000; v[i] = i; }
  unsigned* dk; int* dv;
  CHECK(cudaMalloc(&dk, N * 4)); CHECK(cudaMalloc(&dv, N * 4));
  CHECK(cudaMemcpy(dk, k.data(), N * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dv, v.data(), N * 4, cudaMemcpyHostToDevice));
  shared_stages<<<N / S, S / 2>>>(dk, dv, 2, S, 1);  // sizes 2..1024 entirely in shared memory
  for (int kk = 2 * S; kk <= N; kk <<= 1) {
    for (int j = kk / 2; j >= S; j >>= 1) global_stage<<<N / 2 / 256, 256>>>(dk, dv, kk, j);
    shared_stages<<<N / S, S / 2>>>(dk, dv, kk, kk, S / 2);  // the strides below S for this size
  }
  CHECK_KERNEL();
  std::vector<unsigned> rk(N);
  std::vector<int> rv(N);
  CHECK(cudaMemcpy(rk.data(), dk, N * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(rv.data(), dv, N * 4, cudaMemcpyDeviceToHost));
  std::vector<unsigned> sorted(k);
  std::sort(sorted.begin(), sorted.end());
  std::vector<int> seen(n, 0);
  for (int i = 0; i < N; ++i) {
    EXPECT_EQ(rk[i], sorted[i], "sorted key", i);
    if (i < n) {
      if (rv[i] >= 0 && rv[i] < n) { EXPECT_EQ(k[rv[i]], rk[i], "payload follows its key", i); seen[rv[i]]++; }
      else EXPECT_TRUE(false, "payload in range");
    }
  }
  for (int i = 0; i < n; ++i) EXPECT_EQ(seen[i], 1, "payload permutation", i);
  return wf::finish();
}

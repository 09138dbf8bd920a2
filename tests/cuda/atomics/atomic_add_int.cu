// WF-CHAPTER: atomics
// WF-FEATURES: atomics.add.int.global, atomics.add.int.shared, atomics.add.uint.global, atomics.add.uint.shared, atomics.add.ull.global, atomics.add.ull.shared, atomics.return_old
// WF-DESCRIPTION: atomicAdd on int, unsigned and unsigned long long in global and shared memory, all threads hitting a few addresses; returned old values form exact permutations
#include "../common/check.h"
#include <algorithm>
#include <vector>

__global__ void add_all(int* gi, unsigned* gu, unsigned long long* gull, int* tickets, int* shared_results) {
  __shared__ int si[4];
  __shared__ unsigned su[4];
  __shared__ unsigned long long sull[4];
  int t = threadIdx.x, gt = blockIdx.x * blockDim.x + t;
  if (t < 4) { si[t] = 0; su[t] = 0; sull[t] = 0; }
  __syncthreads();
  int slot = t % 4;
  atomicAdd(&si[slot], t - 100);
  atomicAdd(&su[slot], 0xfffffff0u);  // wraps
  atomicAdd(&sull[slot], 0x100000001ull * (unsigned long long)(t + 1));
  tickets[gt] = atomicAdd(&gi[0], 1);  // global ticket: old values 0..N-1
  atomicAdd(&gi[1 + slot], -(t + 1));
  atomicAdd(&gu[slot], (unsigned)t * 65537u);
  atomicAdd(&gull[slot], 0xffffffffull + (unsigned long long)t);
  __syncthreads();
  if (t < 4) {
    shared_results[blockIdx.x * 12 + t] = si[t];
    shared_results[blockIdx.x * 12 + 4 + t] = (int)su[t];
    shared_results[blockIdx.x * 12 + 8 + t] = (int)(sull[t] >> 32) ^ (int)(sull[t] & 0xffffffff);
  }
}

int main() {
  const int blocks = 20, threads = 256, N = blocks * threads;
  int *gi, *tickets, *sr;
  unsigned* gu;
  unsigned long long* gull;
  CHECK(cudaMalloc(&gi, 5 * sizeof(int)));
  CHECK(cudaMalloc(&gu, 4 * sizeof(unsigned)));
  CHECK(cudaMalloc(&gull, 4 * sizeof(unsigned long long)));
  CHECK(cudaMalloc(&tickets, N * sizeof(int)));
  CHECK(cudaMalloc(&sr, blocks * 12 * sizeof(int)));
  CHECK(cudaMemset(gi, 0, 5 * sizeof(int)));
  CHECK(cudaMemset(gu, 0, 4 * sizeof(unsigned)));
  CHECK(cudaMemset(gull, 0, 4 * sizeof(unsigned long long)));
  add_all<<<blocks, threads>>>(gi, gu, gull, tickets, sr);
  CHECK_KERNEL();
  int hgi[5]; unsigned hgu[4]; unsigned long long hgull[4];
  std::vector<int> ht(N), hsr(blocks * 12);
  CHECK(cudaMemcpy(hgi, gi, sizeof(hgi), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hgu, gu, sizeof(hgu), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hgull, gull, sizeof(hgull), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ht.data(), tickets, N * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hsr.data(), sr, hsr.size() * sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT_EQ(hgi[0], N, "ticket counter", 0);
  std::sort(ht.begin(), ht.end());
  for (int i = 0; i < N; ++i) EXPECT_EQ(ht[i], i, "tickets are a permutation", i);
  int si[4] = {0}; unsigned su[4] = {0}; unsigned long long sull[4] = {0};
  int wi[4] = {0}; unsigned wu[4] = {0}; unsigned long long wull[4] = {0};
  for (int t = 0; t < threads; ++t) {
    int s = t % 4;
    si[s] += t - 100; su[s] += 0xfffffff0u; sull[s] += 0x100000001ull * (unsigned long long)(t + 1);
    wi[s] += -(t + 1); wu[s] += (unsigned)t * 65537u; wull[s] += 0xffffffffull + (unsigned long long)t;
  }
  for (int s = 0; s < 4; ++s) {
    EXPECT_EQ(hgi[1 + s], wi[s] * blocks, "global int", s);
    EXPECT_EQ(hgu[s], wu[s] * (unsigned)blocks, "global unsigned", s);
    EXPECT_EQ(hgull[s], wull[s] * (unsigned long long)blocks, "global ull", s);
  }
  for (int b = 0; b < blocks; ++b)
    for (int s = 0; s < 4; ++s) {
      EXPECT_EQ(hsr[b * 12 + s], si[s], "shared int", b * 4 + s);
      EXPECT_EQ(hsr[b * 12 + 4 + s], (int)su[s], "shared unsigned", b * 4 + s);
      EXPECT_EQ(hsr[b * 12 + 8 + s], (int)(sull[s] >> 32) ^ (int)(sull[s] & 0xffffffff), "shared ull", b * 4 + s);
    }
  return wf::finish();
}

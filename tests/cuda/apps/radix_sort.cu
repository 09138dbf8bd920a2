// WF-CHAPTER: apps
// WF-FEATURES: app.sort.radix, atomics.add.int.shared, mem.shared.static, app.scan, warp.match.any
// WF-DESCRIPTION: stable LSD radix sort of 32-bit keys with values, 4 bits per pass: per-block digit histograms in shared memory, a host-side exclusive scan of the digit x block table, and a stable scatter that ranks keys with __match_any_sync inside warps and per-warp digit counts across the block
#include "../common/check.h"
#include <algorithm>
#include <utility>
#include <vector>

constexpr int TPB = 256, RADIX = 16;

__global__ void histogram(const unsigned* key, int n, int shift, int* table, int nblocks) {
  __shared__ int h[RADIX];
  if (threadIdx.x < RADIX) h[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * TPB + threadIdx.x;
  if (i < n) atomicAdd(&h[(key[i] >> shift) & (RADIX - 1)], 1);
  __syncthreads();
  if (threadIdx.x < RADIX) table[threadIdx.x * nblocks + blockIdx.x] = h[threadIdx.x];  // digit-major
}
__global__ void scatter(const unsigned* key, const int* val, unsigned* okey, int* oval, int n, int shift, const int* offsets, int nblocks) {
  __shared__ int warp_count[TPB / 32][RADIX + 1];
  int t = threadIdx.x, i = blockIdx.x * TPB + t, lane = t % 32, w = t / 32;
  int d = i < n ? (int)((key[i] >> shift) & (RADIX - 1)) : RADIX;  // RADIX = no key
  for (int k = t; k < (TPB / 32) * (RADIX + 1); k += TPB) warp_count[k / (RADIX + 1)][k % (RADIX + 1)] = 0;
  __syncthreads();
  unsigned peers = __match_any_sync(0xffffffffu, d);         // lanes of my warp with the same digit
  int rank_in_warp = __popc(peers & ((1u << lane) - 1));      // stable within the warp
  if (rank_in_warp == 0) warp_count[w][d] = __popc(peers);
  __syncthreads();
  if (i < n) {
    int rank = rank_in_warp;
    for (int k = 0; k < w; ++k) rank += warp_count[k][d];     // earlier warps of this block
    int dst = offsets[d * nblocks + blockIdx.x] + rank;
    okey[dst] = key[i];
    oval[dst] = val[i];
  }
}

int main() {
  const int n = 10007, nb = (n + TPB - 1) / TPB;
  std::vector<unsigned> k(n);
  std::vector<int> v(n);
  wf::Rng r(7);
  for (int i = 0; i < n; ++i) { k[i] = (i % 5 == 0) ? (r.next() & 0xff) : r.next(); v[i] = i; }  // many duplicates
  unsigned *k0, *k1; int *v0, *v1, *table;
  CHECK(cudaMalloc(&k0, n * 4)); CHECK(cudaMalloc(&k1, n * 4)); CHECK(cudaMalloc(&v0, n * 4)); CHECK(cudaMalloc(&v1, n * 4));
  CHECK(cudaMalloc(&table, RADIX * nb * 4));
  CHECK(cudaMemcpy(k0, k.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(v0, v.data(), n * 4, cudaMemcpyHostToDevice));
  std::vector<int> ht(RADIX * nb);
  for (int shift = 0; shift < 32; shift += 4) {
    histogram<<<nb, TPB>>>(k0, n, shift, table, nb);
    CHECK_KERNEL();
    CHECK(cudaMemcpy(ht.data(), table, ht.size() * 4, cudaMemcpyDeviceToHost));
    int acc = 0;
    for (int& x : ht) { int c = x; x = acc; acc += c; }  // exclusive scan, digit-major then block
    EXPECT_EQ(acc, n, "histogram total", shift);
    CHECK(cudaMemcpy(table, ht.data(), ht.size() * 4, cudaMemcpyHostToDevice));
    scatter<<<nb, TPB>>>(k0, v0, k1, v1, n, shift, table, nb);
    CHECK_KERNEL();
    std::swap(k0, k1);
    std::swap(v0, v1);
  }
  std::vector<unsigned> rk(n);
  std::vector<int> rv(n);
  CHECK(cudaMemcpy(rk.data(), k0, n * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(rv.data(), v0, n * 4, cudaMemcpyDeviceToHost));
  std::vector<int> idx(n);
  for (int i = 0; i < n; ++i) idx[i] = i;
  std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return k[a] < k[b]; });
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(rk[i], k[idx[i]], "sorted key", i);
    EXPECT_EQ(rv[i], idx[i], "stable order of equal keys", i);
  }
  return wf::finish();
}

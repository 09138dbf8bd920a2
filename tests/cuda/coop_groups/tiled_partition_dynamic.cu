// WF-CHAPTER: coop_groups
// WF-FEATURES: cg.tile.dynamic, cg.tile.nested, cg.sync, cg.thread_group
// WF-DESCRIPTION: tiled_partition(parent, n) with run-time sizes 1..32 returning thread_group (size, thread_rank, sync), and nested static partitions of a 32-thread tile into 8 and 2
#include "../common/check.h"
#include <cooperative_groups.h>
#include <vector>
namespace cg = cooperative_groups;

__global__ void dyn(int n, int* out) {
  __shared__ int s[256];
  cg::thread_block b = cg::this_thread_block();
  cg::thread_group g = cg::tiled_partition(b, n);
  int r = g.thread_rank();
  s[threadIdx.x] = threadIdx.x;
  g.sync();  // orders the tile's shared-memory writes
  int base = threadIdx.x - r;
  int partner = base + (r + 1) % (int)g.size();
  out[threadIdx.x * 4 + 0] = g.size();
  out[threadIdx.x * 4 + 1] = r;
  out[threadIdx.x * 4 + 2] = s[partner];
  out[threadIdx.x * 4 + 3] = (int)g.size();  // thread_group::num_threads is declared but not defined in CUDA 13.0
}

__global__ void nested(int* out) {
  cg::thread_block b = cg::this_thread_block();
  cg::thread_block_tile<32> w = cg::tiled_partition<32>(b);
  cg::thread_block_tile<8> e = cg::tiled_partition<8>(w);
  cg::thread_block_tile<2> p = cg::tiled_partition<2>(e);
  int v = threadIdx.x;
  out[threadIdx.x * 6 + 0] = e.thread_rank();
  out[threadIdx.x * 6 + 1] = e.meta_group_rank();
  out[threadIdx.x * 6 + 2] = p.thread_rank();
  out[threadIdx.x * 6 + 3] = p.meta_group_rank();
  out[threadIdx.x * 6 + 4] = e.shfl(v, 7);
  out[threadIdx.x * 6 + 5] = p.shfl_xor(v, 1);
}

int main() {
  const int threads = 256;
  int* d;
  CHECK(cudaMalloc(&d, threads * 6 * sizeof(int)));
  const int sizes[] = {1, 2, 4, 8, 16, 32};
  std::vector<int> h(threads * 6);
  for (int n : sizes) {
    dyn<<<1, threads>>>(n, d);
    CHECK_KERNEL();
    CHECK(cudaMemcpy(h.data(), d, threads * 4 * sizeof(int), cudaMemcpyDeviceToHost));
    for (int x = 0; x < threads; ++x) {
      int r = x % n, idx = n * 1000 + x;
      EXPECT_EQ(h[x * 4 + 0], n, "dynamic size", idx);
      EXPECT_EQ(h[x * 4 + 1], r, "dynamic rank", idx);
      EXPECT_EQ(h[x * 4 + 2], x - r + (r + 1) % n, "exchange after tile sync", idx);
      EXPECT_EQ(h[x * 4 + 3], n, "dynamic size (again)", idx);
    }
  }
  nested<<<1, 64>>>(d);
  CHECK_KERNEL();
  CHECK(cudaMemcpy(h.data(), d, 64 * 6 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int x = 0; x < 64; ++x) {
    const int* o = &h[x * 6];
    EXPECT_EQ(o[0], x % 8, "8-tile rank", x);
    EXPECT_EQ(o[1], (x % 32) / 8, "8-tile meta rank within warp tile", x);
    EXPECT_EQ(o[2], x % 2, "2-tile rank", x);
    EXPECT_EQ(o[3], (x % 8) / 2, "2-tile meta rank within 8-tile", x);
    EXPECT_EQ(o[4], x - x % 8 + 7, "8-tile shfl", x);
    EXPECT_EQ(o[5], x ^ 1, "2-tile shfl_xor", x);
  }
  return wf::finish();
}

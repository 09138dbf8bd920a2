// WF-CHAPTER: thread_hierarchy
// WF-FEATURES: th.grid.1d, th.block.1d, th.builtin.threadIdx, th.builtin.blockIdx, th.builtin.blockDim, th.builtin.gridDim, th.block.odd_size
// WF-DESCRIPTION: 1D grids and 1D blocks of odd sizes (1 to 1024 threads, partial warps); every thread records its built-in variables
#include "../common/check.h"
#include <vector>

__global__ void record(int4* out, int n) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid < n) out[gid] = make_int4(threadIdx.x, blockIdx.x, blockDim.x, gridDim.x);
}

// Launch with exactly n threads requested but a grid rounded up; the tail guard must hold.
int main() {
  const int configs[][2] = {{1, 1}, {1, 31}, {3, 33}, {7, 100}, {13, 257}, {5, 1024}, {999, 1}, {2, 1023}, {17, 65}};
  for (auto& c : configs) {
    int blocks = c[0], threads = c[1];
    int n = blocks * threads - (threads > 1 ? threads / 3 : 0);  // a partially used last block
    int4* d;
    CHECK(cudaMalloc(&d, sizeof(int4) * blocks * threads));
    CHECK(cudaMemset(d, 0xff, sizeof(int4) * blocks * threads));
    record<<<blocks, threads>>>(d, n);
    CHECK_KERNEL();
    std::vector<int4> h(blocks * threads);
    CHECK(cudaMemcpy(h.data(), d, sizeof(int4) * h.size(), cudaMemcpyDeviceToHost));
    for (int i = 0; i < blocks * threads; ++i) {
      if (i < n) {
        EXPECT_EQ(h[i].x, i % threads, "threadIdx.x", i);
        EXPECT_EQ(h[i].y, i / threads, "blockIdx.x", i);
        EXPECT_EQ(h[i].z, threads, "blockDim.x", i);
        EXPECT_EQ(h[i].w, blocks, "gridDim.x", i);
      } else {
        EXPECT_EQ(h[i].x, -1, "untouched tail", i);
      }
    }
    CHECK(cudaFree(d));
  }
  return wf::finish();
}

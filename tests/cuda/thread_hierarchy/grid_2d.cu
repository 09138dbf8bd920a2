// WF-CHAPTER: thread_hierarchy
// WF-FEATURES: th.grid.2d, th.block.2d, th.block.odd_size, th.thread_id.formula
// WF-DESCRIPTION: 2D grids of 2D blocks with odd extents over a non-multiple matrix; thread ID = x + y*Dx
#include "../common/check.h"
#include <vector>

__global__ void fill(int* m, int w, int h, int* tid) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    m[y * w + x] = (y + 1) * 1000 + x;
    // Programming guide 2.2: thread ID of (x, y) in a block of (Dx, Dy) is x + y*Dx.
    tid[y * w + x] = threadIdx.x + threadIdx.y * blockDim.x;
  }
}

int main() {
  struct Cfg { int w, h, bx, by; } cfgs[] = {{37, 23, 8, 8}, {100, 3, 32, 1}, {5, 77, 1, 16}, {129, 65, 16, 16}, {64, 64, 3, 5}, {1, 1, 7, 9}};
  for (auto& c : cfgs) {
    int *m, *t;
    size_t bytes = sizeof(int) * c.w * c.h;
    CHECK(cudaMalloc(&m, bytes));
    CHECK(cudaMalloc(&t, bytes));
    dim3 block(c.bx, c.by);
    dim3 grid((c.w + c.bx - 1) / c.bx, (c.h + c.by - 1) / c.by);
    fill<<<grid, block>>>(m, c.w, c.h, t);
    CHECK_KERNEL();
    std::vector<int> hm(c.w * c.h), ht(c.w * c.h);
    CHECK(cudaMemcpy(hm.data(), m, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(ht.data(), t, bytes, cudaMemcpyDeviceToHost));
    for (int y = 0; y < c.h; ++y)
      for (int x = 0; x < c.w; ++x) {
        EXPECT_EQ(hm[y * c.w + x], (y + 1) * 1000 + x, "value", y * c.w + x);
        EXPECT_EQ(ht[y * c.w + x], (x % c.bx) + (y % c.by) * c.bx, "thread id", y * c.w + x);
      }
    CHECK(cudaFree(m));
    CHECK(cudaFree(t));
  }
  return wf::finish();
}

// WF-CHAPTER: thread_hierarchy
// WF-FEATURES: th.grid.3d, th.block.3d, th.block.odd_size, th.thread_id.formula, th.builtin.gridDim
// WF-DESCRIPTION: 3D grids of 3D blocks with odd extents; thread ID = x + y*Dx + z*Dx*Dy
#include "../common/check.h"
#include <vector>

__global__ void fill(int2* v, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < nx && y < ny && z < nz) {
    int tid = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
    int bid = blockIdx.x + blockIdx.y * gridDim.x + blockIdx.z * gridDim.x * gridDim.y;
    v[(z * ny + y) * nx + x] = make_int2(tid, bid);
  }
}

int main() {
  struct Cfg { int nx, ny, nz, bx, by, bz; } cfgs[] = {
      {13, 11, 7, 4, 4, 4}, {33, 5, 9, 8, 2, 3}, {3, 3, 65, 1, 1, 64}, {17, 19, 23, 5, 3, 7}, {64, 2, 2, 32, 2, 2}};
  for (auto& c : cfgs) {
    int n = c.nx * c.ny * c.nz;
    int2* d;
    CHECK(cudaMalloc(&d, sizeof(int2) * n));
    dim3 block(c.bx, c.by, c.bz);
    dim3 grid((c.nx + c.bx - 1) / c.bx, (c.ny + c.by - 1) / c.by, (c.nz + c.bz - 1) / c.bz);
    fill<<<grid, block>>>(d, c.nx, c.ny, c.nz);
    CHECK_KERNEL();
    std::vector<int2> h(n);
    CHECK(cudaMemcpy(h.data(), d, sizeof(int2) * n, cudaMemcpyDeviceToHost));
    for (int z = 0; z < c.nz; ++z)
      for (int y = 0; y < c.ny; ++y)
        for (int x = 0; x < c.nx; ++x) {
          int i = (z * c.ny + y) * c.nx + x;
          int tid = x % c.bx + (y % c.by) * c.bx + (z % c.bz) * c.bx * c.by;
          int bid = x / c.bx + (y / c.by) * grid.x + (z / c.bz) * grid.x * grid.y;
          EXPECT_EQ(h[i].x, tid, "thread id", i);
          EXPECT_EQ(h[i].y, bid, "block id", i);
        }
    CHECK(cudaFree(d));
  }
  return wf::finish();
}

// WF-CHAPTER: thread_hierarchy
// WF-FEATURES: th.grid.large_x, th.grid.2d, th.grid.3d
// WF-DESCRIPTION: grid dimensions beyond 65535 in x, and large y/z extents with one-thread blocks
#include "../common/check.h"
#include <vector>

__global__ void mark_x(unsigned char* flags) {
  unsigned b = blockIdx.x;
  flags[b] = (unsigned char)(b * 7 + 1);
}
__global__ void mark_xyz(int* flags) {
  unsigned i = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  flags[i] = (int)(blockIdx.x + 10 * blockIdx.y + 10000 * blockIdx.z);
}

int main() {
  // x: 70001 blocks of 1 thread (only compute capability >= 3.0 allows > 65535 in x)
  const int nx = 70001;
  unsigned char* dx;
  CHECK(cudaMalloc(&dx, nx));
  CHECK(cudaMemset(dx, 0, nx));
  mark_x<<<nx, 1>>>(dx);
  CHECK_KERNEL();
  std::vector<unsigned char> hx(nx);
  CHECK(cudaMemcpy(hx.data(), dx, nx, cudaMemcpyDeviceToHost));
  for (int b = 0; b < nx; ++b) EXPECT_EQ(hx[b], (unsigned char)(b * 7 + 1), "x block", b);
  // y and z: 2 x 100 x 30 blocks of one thread
  const int gx = 2, ny = 100, nz = 30, n = gx * ny * nz;
  int* d;
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  CHECK(cudaMemset(d, 0xff, n * sizeof(int)));
  mark_xyz<<<dim3(gx, ny, nz), 1>>>(d);
  CHECK_KERNEL();
  std::vector<int> h(n);
  CHECK(cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < gx; ++x) {
        int i = (z * ny + y) * gx + x;
        EXPECT_EQ(h[i], x + 10 * y + 10000 * z, "xyz block", i);
      }
  CHECK(cudaFree(d));
  CHECK(cudaFree(dx));
  return wf::finish();
}

// WF-CHAPTER: memory
// WF-FEATURES: mem.3d.malloc, mem.3d.memcpy, mem.3d.memset, mem.pitched.kernel_access
// WF-DESCRIPTION: cudaMalloc3D with a cudaPitchedPtr, cudaMemcpy3D host<->device and device<->device with offsets, cudaMemset3D, kernel walking slices and rows (guide 3.2.2)
#include "../common/check.h"
#include <vector>

__global__ void walk(cudaPitchedPtr p, int w, int h, int d) {
  int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
  if (x >= w || y >= h || z >= d) return;
  char* slice = (char*)p.ptr + z * p.pitch * h;
  int* row = (int*)(slice + y * p.pitch);
  row[x] = row[x] * 3 + z * 1000 + y;
}

int main() {
  const int W = 19, H = 7, D = 5;
  cudaExtent ext = make_cudaExtent(W * sizeof(int), H, D);
  cudaPitchedPtr dp;
  CHECK(cudaMalloc3D(&dp, ext));
  EXPECT_TRUE(dp.pitch >= W * sizeof(int), "pitch");
  EXPECT_EQ(dp.xsize, W * sizeof(int), "xsize", 0);
  EXPECT_EQ(dp.ysize, (size_t)H, "ysize", 0);
  CHECK(cudaMemset3D(dp, 0, ext));
  std::vector<int> h(W * H * D);
  for (int i = 0; i < W * H * D; ++i) h[i] = i;
  cudaMemcpy3DParms up = {};
  up.srcPtr = make_cudaPitchedPtr(h.data(), W * sizeof(int), W, H);
  up.dstPtr = dp;
  up.extent = ext;
  up.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&up));
  walk<<<dim3(H, D), 32>>>(dp, W, H, D);
  CHECK_KERNEL();
  std::vector<int> back(W * H * D, -1);
  cudaMemcpy3DParms dn = {};
  dn.srcPtr = dp;
  dn.dstPtr = make_cudaPitchedPtr(back.data(), W * sizeof(int), W, H);
  dn.extent = ext;
  dn.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3D(&dn));
  auto val = [&](int x, int y, int z) { int i = (z * H + y) * W + x; return h[i] * 3 + z * 1000 + y; };
  for (int z = 0; z < D; ++z)
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) EXPECT_EQ(back[(z * H + y) * W + x], val(x, y, z), "3d", (z * H + y) * W + x);
  // device-to-device: a 4x3x2 box starting at (2,1,1) into a fresh 8x4x3 volume at (1,0,1)
  cudaExtent ext2 = make_cudaExtent(8 * sizeof(int), 4, 3);
  cudaPitchedPtr dp2;
  CHECK(cudaMalloc3D(&dp2, ext2));
  CHECK(cudaMemset3D(dp2, 0xff, ext2));  // every int = -1
  cudaMemcpy3DParms dd = {};
  dd.srcPtr = dp;
  dd.srcPos = make_cudaPos(2 * sizeof(int), 1, 1);
  dd.dstPtr = dp2;
  dd.dstPos = make_cudaPos(1 * sizeof(int), 0, 1);
  dd.extent = make_cudaExtent(4 * sizeof(int), 3, 2);
  dd.kind = cudaMemcpyDeviceToDevice;
  CHECK(cudaMemcpy3D(&dd));
  // zero a 2x1x1 box with cudaMemset3D on an offset pitched pointer
  cudaPitchedPtr off = dp2;
  off.ptr = (char*)dp2.ptr + 3 * dp2.pitch + 6 * sizeof(int);  // row 3, x = 6, slice 0
  CHECK(cudaMemset3D(off, 0, make_cudaExtent(2 * sizeof(int), 1, 1)));
  std::vector<int> b2(8 * 4 * 3);
  cudaMemcpy3DParms dn2 = {};
  dn2.srcPtr = dp2;
  dn2.dstPtr = make_cudaPitchedPtr(b2.data(), 8 * sizeof(int), 8, 4);
  dn2.extent = ext2;
  dn2.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3D(&dn2));
  for (int z = 0; z < 3; ++z)
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 8; ++x) {
        int want = -1;
        if (x >= 1 && x < 5 && y < 3 && z >= 1 && z < 3) want = val(x - 1 + 2, y + 1, z - 1 + 1);
        if (z == 0 && y == 3 && (x == 6 || x == 7)) want = 0;
        EXPECT_EQ(b2[(z * 4 + y) * 8 + x], want, "3d box", (z * 4 + y) * 8 + x);
      }
  CHECK(cudaFree(dp.ptr));
  CHECK(cudaFree(dp2.ptr));
  return wf::finish();
}

// WF-CHAPTER: apps
// WF-FEATURES: app.transpose, mem.shared.bank_conflicts, mem.shared.static, th.grid.2d
// WF-DESCRIPTION: matrix transpose of a 300x177 int matrix: naive, shared-memory tiled (32x8 threads per 32x32 tile) without padding (bank conflicts) and with one word of padding; all must give the same exact result
#include "../common/check.h"
#include <vector>

constexpr int TD = 32, BR = 8;
__global__ void naive(const int* in, int* out, int w, int h) {
  int x = blockIdx.x * TD + threadIdx.x;
  for (int j = 0; j < TD; j += BR) {
    int y = blockIdx.y * TD + threadIdx.y + j;
    if (x < w && y < h) out[x * h + y] = in[y * w + x];
  }
}
template <int PADDING>
__global__ void tiled(const int* in, int* out, int w, int h) {
  __shared__ int tile[TD][TD + PADDING];
  int x = blockIdx.x * TD + threadIdx.x, y = blockIdx.y * TD + threadIdx.y;
  for (int j = 0; j < TD; j += BR)
    if (x < w && y + j < h) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * TD + threadIdx.x;
  y = blockIdx.x * TD + threadIdx.y;
  for (int j = 0; j < TD; j += BR)
    if (x < h && y + j < w) out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main() {
  const int W = 300, H = 177;
  std::vector<int> in(W * H);
  for (int i = 0; i < W * H; ++i) in[i] = i * 3 + 1;
  int *d, *o;
  CHECK(cudaMalloc(&d, W * H * 4)); CHECK(cudaMalloc(&o, W * H * 4));
  CHECK(cudaMemcpy(d, in.data(), W * H * 4, cudaMemcpyHostToDevice));
  dim3 grid((W + TD - 1) / TD, (H + TD - 1) / TD), block(TD, BR);
  std::vector<int> h(W * H);
  for (int variant = 0; variant < 3; ++variant) {
    CHECK(cudaMemset(o, 0, W * H * 4));
    if (variant == 0) naive<<<grid, block>>>(d, o, W, H);
    else if (variant == 1) tiled<0><<<grid, block>>>(d, o, W, H);
    else tiled<1><<<grid, block>>>(d, o, W, H);
    CHECK_KERNEL();
    CHECK(cudaMemcpy(h.data(), o, W * H * 4, cudaMemcpyDeviceToHost));
    const char* name = variant == 0 ? "naive transpose" : variant == 1 ? "tiled transpose (conflicting)" : "tiled transpose (padded)";
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) EXPECT_EQ(h[x * H + y], in[y * W + x], name, x * H + y);
  }
  return wf::finish();
}

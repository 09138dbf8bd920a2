// WF-CHAPTER: apps
// WF-FEATURES: app.stencil, mem.shared.static, sync.syncthreads, th.grid.2d
// WF-DESCRIPTION: 2D five-point Jacobi heat stencil over 20 iterations with 16x16 shared-memory tiles and halos, odd domain size, fixed-point integer arithmetic so the result matches the host exactly
#include "../common/check.h"
#include <utility>
#include <vector>

constexpr int T = 16;
__global__ void jacobi(const int* in, int* out, int W, int H) {
  __shared__ int tile[T + 2][T + 2];
  int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
  auto at = [&](int xx, int yy) { xx = xx < 0 ? 0 : xx >= W ? W - 1 : xx; yy = yy < 0 ? 0 : yy >= H ? H - 1 : yy; return in[yy * W + xx]; };
  tile[threadIdx.y + 1][threadIdx.x + 1] = at(x, y);
  if (threadIdx.x == 0) tile[threadIdx.y + 1][0] = at(x - 1, y);
  if (threadIdx.x == T - 1) tile[threadIdx.y + 1][T + 1] = at(x + 1, y);
  if (threadIdx.y == 0) tile[0][threadIdx.x + 1] = at(x, y - 1);
  if (threadIdx.y == T - 1) tile[T + 1][threadIdx.x + 1] = at(x, y + 1);
  __syncthreads();
  if (x < W && y < H) {
    int c = tile[threadIdx.y + 1][threadIdx.x + 1];
    int s = tile[threadIdx.y][threadIdx.x + 1] + tile[threadIdx.y + 2][threadIdx.x + 1] + tile[threadIdx.y + 1][threadIdx.x] +
            tile[threadIdx.y + 1][threadIdx.x + 2];
    out[y * W + x] = (4 * c + s) / 8;  // fixed-point diffusion step
  }
}

int main() {
  const int W = 101, H = 67, iters = 20;
  std::vector<int> g(W * H);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) g[y * W + x] = ((x - 50) * (x - 50) + (y - 30) * (y - 30) < 200) ? 1 << 20 : (x * 97 + y * 31) % 1000;
  int *a, *b;
  CHECK(cudaMalloc(&a, W * H * 4)); CHECK(cudaMalloc(&b, W * H * 4));
  CHECK(cudaMemcpy(a, g.data(), W * H * 4, cudaMemcpyHostToDevice));
  dim3 block(T, T), grid((W + T - 1) / T, (H + T - 1) / T);
  for (int it = 0; it < iters; ++it) {
    jacobi<<<grid, block>>>(a, b, W, H);
    std::swap(a, b);
  }
  CHECK_KERNEL();
  std::vector<int> h(W * H), n(W * H);
  CHECK(cudaMemcpy(h.data(), a, W * H * 4, cudaMemcpyDeviceToHost));
  auto at = [&](const std::vector<int>& v, int x, int y) { x = x < 0 ? 0 : x >= W ? W - 1 : x; y = y < 0 ? 0 : y >= H ? H - 1 : y; return v[y * W + x]; };
  for (int it = 0; it < iters; ++it) {
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x)
        n[y * W + x] = (4 * at(g, x, y) + at(g, x, y - 1) + at(g, x, y + 1) + at(g, x - 1, y) + at(g, x + 1, y)) / 8;
    g.swap(n);
  }
  for (int i = 0; i < W * H; ++i) EXPECT_EQ(h[i], g[i], "heat stencil", i);
  return wf::finish();
}

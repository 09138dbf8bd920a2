// WF-CHAPTER: apps
// WF-FEATURES: app.game_of_life, mem.shared.static, th.grid.2d
// WF-DESCRIPTION: Conway's Game of Life on a 130x70 torus for 15 generations with a glider and random soup, shared-memory tiles with wrapped halos; bit-exact against the host
#include "../common/check.h"
#include <utility>
#include <vector>

constexpr int BX = 16, BY = 8;
__global__ void life(const unsigned char* in, unsigned char* out, int w, int h) {
  __shared__ unsigned char t[BY + 2][BX + 2];
  int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
  // cooperative halo load: (BX+2)*(BY+2) cells by BX*BY threads
  for (int k = threadIdx.y * BX + threadIdx.x; k < (BX + 2) * (BY + 2); k += BX * BY) {
    int ly = k / (BX + 2), lx = k % (BX + 2);
    int gx = (blockIdx.x * BX + lx - 1 + w) % w, gy = (blockIdx.y * BY + ly - 1 + h) % h;
    t[ly][lx] = in[gy * w + gx];
  }
  __syncthreads();
  if (x >= w || y >= h) return;
  int lx = threadIdx.x + 1, ly = threadIdx.y + 1, n = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) n += (dx || dy) ? t[ly + dy][lx + dx] : 0;
  unsigned char alive = t[ly][lx];
  out[y * w + x] = (n == 3 || (alive && n == 2)) ? 1 : 0;
}

int main() {
  const int w = 130, h = 70, gens = 15;
  std::vector<unsigned char> g(w * h, 0), n(w * h);
  wf::Rng r(3);
  for (int y = 40; y < 70; ++y)
    for (int x = 60; x < 130; ++x) g[y * w + x] = (r.next() % 3) == 0;
  const int glider[5][2] = {{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}};
  for (auto& c : glider) g[(5 + c[1]) * w + 5 + c[0]] = 1;
  unsigned char *a, *b;
  CHECK(cudaMalloc(&a, w * h)); CHECK(cudaMalloc(&b, w * h));
  CHECK(cudaMemcpy(a, g.data(), w * h, cudaMemcpyHostToDevice));
  for (int k = 0; k < gens; ++k) {
    life<<<dim3((w + BX - 1) / BX, (h + BY - 1) / BY), dim3(BX, BY)>>>(a, b, w, h);
    std::swap(a, b);
  }
  CHECK_KERNEL();
  std::vector<unsigned char> res(w * h);
  CHECK(cudaMemcpy(res.data(), a, w * h, cudaMemcpyDeviceToHost));
  for (int k = 0; k < gens; ++k) {
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        int c = 0;
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx)
            if (dx || dy) c += g[((y + dy + h) % h) * w + (x + dx + w) % w];
        n[y * w + x] = (c == 3 || (g[y * w + x] && c == 2)) ? 1 : 0;
      }
    g.swap(n);
  }
  for (int i = 0; i < w * h; ++i) EXPECT_EQ((int)res[i], (int)g[i], "cell", i);
  return wf::finish();
}

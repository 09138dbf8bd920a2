// WF-CHAPTER: apps
// WF-FEATURES: app.convolution, mem.constant, mem.shared.static, th.grid.2d
// WF-DESCRIPTION: separable 2D convolution (row pass then column pass) with a 9-tap integer kernel in __constant__ memory and shared-memory tiles with clamped aprons, on a 200x150 image; exact integer results against the host
#include "../common/check.h"
#include <vector>

constexpr int R = 4, TX = 32, TY = 8;
__constant__ int taps[2 * R + 1];

__global__ void rows(const int* in, int* out, int w, int h) {
  __shared__ int s[TY][TX + 2 * R];
  int x = blockIdx.x * TX + threadIdx.x, y = blockIdx.y * TY + threadIdx.y;
  int yc = y < h ? y : h - 1;
  for (int k = threadIdx.x; k < TX + 2 * R; k += TX) {
    int gx = blockIdx.x * TX + k - R;
    gx = gx < 0 ? 0 : gx >= w ? w - 1 : gx;
    s[threadIdx.y][k] = in[yc * w + gx];
  }
  __syncthreads();
  if (x < w && y < h) {
    int acc = 0;
    for (int t = -R; t <= R; ++t) acc += taps[t + R] * s[threadIdx.y][threadIdx.x + R + t];
    out[y * w + x] = acc;
  }
}
__global__ void cols(const int* in, int* out, int w, int h) {
  __shared__ int s[TY + 2 * R][TX];
  int x = blockIdx.x * TX + threadIdx.x, y = blockIdx.y * TY + threadIdx.y;
  int xc = x < w ? x : w - 1;
  for (int k = threadIdx.y; k < TY + 2 * R; k += TY) {
    int gy = blockIdx.y * TY + k - R;
    gy = gy < 0 ? 0 : gy >= h ? h - 1 : gy;
    s[k][threadIdx.x] = in[gy * w + xc];
  }
  __syncthreads();
  if (x < w && y < h) {
    int acc = 0;
    for (int t = -R; t <= R; ++t) acc += taps[t + R] * s[threadIdx.y + R + t][threadIdx.x];
    out[y * w + x] = acc;
  }
}

int main() {
  const int w = 200, h = 150;
  const int ht[2 * R + 1] = {1, -2, 3, 4, 6, 4, 3, -2, 1};
  CHECK(cudaMemcpyToSymbol(taps, ht, sizeof(ht)));
  std::vector<int> img(w * h);
  for (int i = 0; i < w * h; ++i) img[i] = (i * 37 + (i / w) * 11) % 256;
  int *a, *b;
  CHECK(cudaMalloc(&a, w * h * 4)); CHECK(cudaMalloc(&b, w * h * 4));
  CHECK(cudaMemcpy(a, img.data(), w * h * 4, cudaMemcpyHostToDevice));
  dim3 block(TX, TY), grid((w + TX - 1) / TX, (h + TY - 1) / TY);
  rows<<<grid, block>>>(a, b, w, h);
  cols<<<grid, block>>>(b, a, w, h);
  CHECK_KERNEL();
  std::vector<int> res(w * h), tmp(w * h), want(w * h);
  CHECK(cudaMemcpy(res.data(), a, w * h * 4, cudaMemcpyDeviceToHost));
  auto cx = [&](int x) { return x < 0 ? 0 : x >= w ? w - 1 : x; };
  auto cy = [&](int y) { return y < 0 ? 0 : y >= h ? h - 1 : y; };
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) { int s = 0; for (int t = -R; t <= R; ++t) s += ht[t + R] * img[y * w + cx(x + t)]; tmp[y * w + x] = s; }
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) { int s = 0; for (int t = -R; t <= R; ++t) s += ht[t + R] * tmp[cy(y + t) * w + x]; want[y * w + x] = s; }
  for (int i = 0; i < w * h; ++i) EXPECT_EQ(res[i], want[i], "separable convolution", i);
  return wf::finish();
}

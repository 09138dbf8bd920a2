// WF-CHAPTER: apps
// WF-FEATURES: app.mandelbrot, th.simt.divergent_loops, th.grid.2d, arith.int.mulhi
// WF-DESCRIPTION: Mandelbrot escape counts over a 96x72 grid in 32.32-style fixed point (64-bit integers, __mul64hi for the products), with strongly divergent per-thread loop lengths; bit-exact against the same fixed-point algorithm on the host
#include "../common/check.h"
#include <vector>

constexpr int FB = 28;  // fraction bits
__host__ __device__ inline long long fmul(long long a, long long b) {
#ifdef __CUDA_ARCH__
  long long hi = __mul64hi(a, b);
  unsigned long long lo = (unsigned long long)a * (unsigned long long)b;
  return (long long)(((unsigned long long)hi << (64 - FB)) | (lo >> FB));
#else
  return (long long)(((__int128)a * b) >> FB);
#endif
}

__global__ void mandel(int* out, int w, int h, long long x0, long long y0, long long step, int maxit) {
  int px = blockIdx.x * blockDim.x + threadIdx.x, py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= w || py >= h) return;
  long long cr = x0 + px * step, ci = y0 + py * step, zr = 0, zi = 0;
  const long long four = 4LL << FB;
  int it = 0;
  while (it < maxit) {
    long long zr2 = fmul(zr, zr), zi2 = fmul(zi, zi);
    if (zr2 + zi2 > four) break;
    zi = 2 * fmul(zr, zi) + ci;
    zr = zr2 - zi2 + cr;
    ++it;
  }
  out[py * w + px] = it;
}

int main() {
  const int w = 96, h = 72, maxit = 64;
  const long long x0 = -(2LL << FB) - (1LL << (FB - 1)), y0 = -(1LL << FB) - (1LL << (FB - 2)), step = (3LL << FB) / w;
  int* d;
  CHECK(cudaMalloc(&d, w * h * 4));
  mandel<<<dim3((w + 15) / 16, (h + 15) / 16), dim3(16, 16)>>>(d, w, h, x0, y0, step, maxit);
  CHECK_KERNEL();
  std::vector<int> g(w * h);
  CHECK(cudaMemcpy(g.data(), d, w * h * 4, cudaMemcpyDeviceToHost));
  long long inside = 0;
  for (int py = 0; py < h; ++py)
    for (int px = 0; px < w; ++px) {
      long long cr = x0 + px * step, ci = y0 + py * step, zr = 0, zi = 0;
      int it = 0;
      while (it < maxit) {
        long long zr2 = fmul(zr, zr), zi2 = fmul(zi, zi);
        if (zr2 + zi2 > (4LL << FB)) break;
        zi = 2 * fmul(zr, zi) + ci;
        zr = zr2 - zi2 + cr;
        ++it;
      }
      inside += it == maxit;
      EXPECT_EQ(g[py * w + px], it, "escape count", py * w + px);
    }
  EXPECT_TRUE(inside > 100 && inside < w * h / 2, "the set is in the picture");
  return wf::finish();
}

// WF-CHAPTER: memory
// WF-FEATURES: mem.constant, mem.symbol.memcpy_to, mem.symbol.memcpy_from, mem.constant.divergent_index
// WF-DESCRIPTION: __constant__ arrays and structs written with cudaMemcpyToSymbol (with offsets), read uniformly and with per-thread (divergent) indices
#include "../common/check.h"
#include <vector>

struct Params { float scale; int offset; short sh[6]; double d; };
__constant__ float coeffs[256];
__constant__ Params params;
__constant__ int table[64] = {0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89};  // initialised in the image

__global__ void use_const(const float* x, float* y, int* z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float acc = 0;
  for (int k = 0; k < 8; ++k) acc += coeffs[k] * x[i];          // uniform index
  acc += coeffs[i & 255];                                        // divergent index
  y[i] = acc * params.scale;
  z[i] = table[i % 12] + params.offset + params.sh[i % 6] + (int)params.d + table[40 + (i & 7)];
}

int main() {
  std::vector<float> c(256);
  for (int i = 0; i < 256; ++i) c[i] = (float)i * 0.125f;
  CHECK(cudaMemcpyToSymbol(coeffs, c.data(), 128 * sizeof(float)));  // first half
  CHECK(cudaMemcpyToSymbol(coeffs, c.data() + 128, 128 * sizeof(float), 128 * sizeof(float), cudaMemcpyHostToDevice));
  Params p{2.0f, -7, {1, -2, 3, -4, 5, -6}, 1000.75};
  CHECK(cudaMemcpyToSymbol(params, &p, sizeof(p)));
  int extra[8] = {100, 200, 300, 400, 500, 600, 700, 800};
  CHECK(cudaMemcpyToSymbol(table, extra, sizeof(extra), 40 * sizeof(int)));
  // read back through cudaMemcpyFromSymbol with an offset
  float back[4];
  CHECK(cudaMemcpyFromSymbol(back, coeffs, sizeof(back), 200 * sizeof(float)));
  for (int i = 0; i < 4; ++i) EXPECT_EQ(back[i], c[200 + i], "coeffs readback", i);
  int tb[12];
  CHECK(cudaMemcpyFromSymbol(tb, table, sizeof(tb)));
  const int fib[12] = {0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89};
  for (int i = 0; i < 12; ++i) EXPECT_EQ(tb[i], fib[i], "static initialiser", i);

  const int n = 1000;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i) x[i] = (float)(i % 10);
  float *dx, *dy;
  int* dz;
  CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CHECK(cudaMalloc(&dz, n * sizeof(int)));
  CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  use_const<<<(n + 127) / 128, 128>>>(dx, dy, dz, n);
  CHECK_KERNEL();
  std::vector<float> y(n);
  std::vector<int> z(n);
  CHECK(cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(z.data(), dz, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    float acc = 0;
    for (int k = 0; k < 8; ++k) acc += c[k] * x[i];  // exact: multiples of 1/8 below 2^10
    acc += c[i & 255];
    EXPECT_EQ(y[i], acc * 2.0f, "y", i);
    EXPECT_EQ(z[i], fib[i % 12] - 7 + p.sh[i % 6] + 1000 + extra[i & 7], "z", i);
  }
  CHECK(cudaFree(dx)); CHECK(cudaFree(dy)); CHECK(cudaFree(dz));
  return wf::finish();
}

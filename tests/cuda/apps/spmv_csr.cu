// WF-CHAPTER: apps
// WF-FEATURES: app.spmv, warp.shfl.down
// WF-DESCRIPTION: sparse matrix-vector product y = A*x in CSR format, scalar kernel (one thread per row) and vector kernel (one warp per row with shuffle reduction), on a random matrix with empty rows and very long rows; double values that are small integers so every order of summation is exact
#include "../common/check.h"
#include <vector>

__global__ void spmv_scalar(int rows, const int* rp, const int* ci, const double* v, const double* x, double* y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    double s = 0;
    for (int k = rp[r]; k < rp[r + 1]; ++k) s += v[k] * x[ci[k]];
    y[r] = s;
  }
}
__global__ void spmv_vector(int rows, const int* rp, const int* ci, const double* v, const double* x, double* y) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  if (warp >= rows) return;  // whole warps leave together
  double s = 0;
  for (int k = rp[warp] + lane; k < rp[warp + 1]; k += 32) s += v[k] * x[ci[k]];
  for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
  if (lane == 0) y[warp] = s;
}

int main() {
  const int rows = 2000, cols = 1500;
  std::vector<int> rp(rows + 1, 0), ci;
  std::vector<double> v, x(cols);
  wf::Rng r(11);
  for (int i = 0; i < rows; ++i) {
    int len = (i % 97 == 0) ? 700 : (i % 13 == 0) ? 0 : r.range(1, 20);
    for (int k = 0; k < len; ++k) { ci.push_back(r.range(0, cols - 1)); v.push_back(r.range(-9, 9)); }
    rp[i + 1] = (int)ci.size();
  }
  for (int j = 0; j < cols; ++j) x[j] = r.range(-100, 100);
  int nnz = (int)ci.size();
  int *drp, *dci; double *dv, *dx, *dy;
  CHECK(cudaMalloc(&drp, (rows + 1) * 4)); CHECK(cudaMalloc(&dci, nnz * 4)); CHECK(cudaMalloc(&dv, nnz * 8));
  CHECK(cudaMalloc(&dx, cols * 8)); CHECK(cudaMalloc(&dy, rows * 8));
  CHECK(cudaMemcpy(drp, rp.data(), (rows + 1) * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dci, ci.data(), nnz * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dv, v.data(), nnz * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dx, x.data(), cols * 8, cudaMemcpyHostToDevice));
  std::vector<double> want(rows, 0), h(rows);
  for (int i = 0; i < rows; ++i)
    for (int k = rp[i]; k < rp[i + 1]; ++k) want[i] += v[k] * x[ci[k]];
  spmv_scalar<<<(rows + 127) / 128, 128>>>(rows, drp, dci, dv, dx, dy);
  CHECK_KERNEL();
  CHECK(cudaMemcpy(h.data(), dy, rows * 8, cudaMemcpyDeviceToHost));
  for (int i = 0; i < rows; ++i) EXPECT_EQ(h[i], want[i], "scalar CSR", i);
  CHECK(cudaMemset(dy, 0, rows * 8));
  spmv_vector<<<(rows * 32 + 255) / 256, 256>>>(rows, drp, dci, dv, dx, dy);
  CHECK_KERNEL();
  CHECK(cudaMemcpy(h.data(), dy, rows * 8, cudaMemcpyDeviceToHost));
  for (int i = 0; i < rows; ++i) EXPECT_EQ(h[i], want[i], "vector CSR", i);
  return wf::finish();
}

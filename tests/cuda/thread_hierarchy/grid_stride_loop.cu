// WF-CHAPTER: thread_hierarchy
// WF-FEATURES: th.grid_stride_loop, th.grid.1d
// WF-DESCRIPTION: grid-stride loops with grids much smaller and larger than the data (saxpy and an index fill)
#include "../common/check.h"
#include <vector>

__global__ void saxpy(int n, float a, const float* x, float* y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = a * x[i] + y[i];
}

__global__ void visit(int n, int* count) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) count[i] += 1;
}

int main() {
  const int n = 10007;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) { x[i] = (float)(i % 97) * 0.5f; y[i] = (float)(i % 13); }
  float *dx, *dy;
  int* dc;
  CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CHECK(cudaMalloc(&dc, n * sizeof(int)));
  CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  const int grids[][2] = {{1, 1}, {1, 32}, {3, 64}, {7, 96}, {40, 256}, {100, 128}};
  std::vector<float> ref(y);
  CHECK(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dc, 0, n * sizeof(int)));
  for (auto& g : grids) {
    saxpy<<<g[0], g[1]>>>(n, 2.0f, dx, dy);
    visit<<<g[0], g[1]>>>(n, dc);
    CHECK_KERNEL();
    for (int i = 0; i < n; ++i) ref[i] = 2.0f * x[i] + ref[i];  // exact: small multiples of 0.5
  }
  std::vector<float> hy(n);
  std::vector<int> hc(n);
  CHECK(cudaMemcpy(hy.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hc.data(), dc, n * sizeof(int), cudaMemcpyDeviceToHost));
  const int launches = sizeof(grids) / sizeof(grids[0]);
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(hy[i], ref[i], "saxpy", i);
    EXPECT_EQ(hc[i], launches, "visits", i);
  }
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  CHECK(cudaFree(dc));
  return wf::finish();
}

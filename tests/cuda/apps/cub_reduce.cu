// WF-CHAPTER: apps
// WF-FEATURES: app.cub.reduce
// WF-DESCRIPTION: CUB from the CUDA toolkit: cub::DeviceReduce::Sum of 1000003 ints into a long long and of 4099 floats (small exact values), with the two-phase temporary-storage query, checked against host sums
#include "../common/check.h"
#include <cub/device/device_reduce.cuh>

#include <vector>

int main() {
  const int n = 1000003;
  std::vector<int> h(n);
  long long want = 0;
  for (int i = 0; i < n; ++i) { h[i] = (int)((i * 2654435761u) >> 8) - (1 << 23); want += h[i]; }
  int* d_in;
  long long* d_out;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out, sizeof(long long)));
  CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  // A null buffer asks for the size; the second call reduces.
  void* temp = nullptr;
  size_t temp_bytes = 0;
  CHECK(cub::DeviceReduce::Sum(temp, temp_bytes, d_in, d_out, n));
  EXPECT_TRUE(temp_bytes > 0, "temporary storage size reported");
  CHECK(cudaMalloc(&temp, temp_bytes));
  CHECK(cub::DeviceReduce::Sum(temp, temp_bytes, d_in, d_out, n));
  CHECK_KERNEL();
  long long got = 0;
  CHECK(cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost));
  EXPECT_EQ(got, want, "DeviceReduce::Sum int->long long", 0);
  CHECK(cudaFree(temp));

  // Floats that are small multiples of 1/4: every partial sum is exact, so any order gives want.
  const int m = 4099;
  std::vector<float> hf(m);
  float wantf = 0;
  for (int i = 0; i < m; ++i) { hf[i] = (float)((i * 37) % 101 - 50) * 0.25f; wantf += hf[i]; }
  float *d_f, *d_fo;
  CHECK(cudaMalloc(&d_f, m * sizeof(float)));
  CHECK(cudaMalloc(&d_fo, sizeof(float)));
  CHECK(cudaMemcpy(d_f, hf.data(), m * sizeof(float), cudaMemcpyHostToDevice));
  temp = nullptr;
  temp_bytes = 0;
  CHECK(cub::DeviceReduce::Sum(temp, temp_bytes, d_f, d_fo, m));
  CHECK(cudaMalloc(&temp, temp_bytes));
  CHECK(cub::DeviceReduce::Sum(temp, temp_bytes, d_f, d_fo, m));
  CHECK_KERNEL();
  float gotf = 0;
  CHECK(cudaMemcpy(&gotf, d_fo, sizeof gotf, cudaMemcpyDeviceToHost));
  EXPECT_EQ(gotf, wantf, "DeviceReduce::Sum float", 0);
  CHECK(cudaFree(temp));
  CHECK(cudaFree(d_in)); CHECK(cudaFree(d_out)); CHECK(cudaFree(d_f)); CHECK(cudaFree(d_fo));
  return wf::finish();
}

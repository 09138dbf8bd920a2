// __managed__ variables through the clang route (warpforge cc's pass plugin): a scalar, an array
// and a struct, written and read by host code in several forms and by kernels, alternately.
#include "../../cuda/common/check.h"

__managed__ int initial = 42;
__managed__ int counter;
__managed__ float samples[256];
struct Stats {
  int count;
  int sum;
};
__managed__ Stats stats = {5, 0};

__global__ void scaleAndCount(float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    samples[i] = samples[i] * factor + initial;
    atomicAdd(&counter, 1);
    atomicAdd(&stats.count, 1);
    atomicAdd(&stats.sum, i);
  }
}

__global__ void store(int *target, int value) { *target = value; }

// Compiled for both sides: the host reads the same array the kernel does.
__host__ __device__ float weight(int i) { return samples[i] * 0.5f + stats.count; }

__global__ void weigh(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = weight(i);
}

int main(int argc, char **) {
  const int n = 256;
  // Before any CUDA call: the first host access loads the module, then reads the device copy.
  EXPECT_EQ(initial, 42, "initial value", 0);
  EXPECT_EQ(stats.count, 5, "struct initial value", 0);

  for (int i = 0; i < n; ++i)
    samples[i] = float(i);
  initial = 7;
  scaleAndCount<<<n / 64, 64>>>(2.0f, n);
  CHECK_KERNEL();
  for (int i = 0; i < n; ++i)
    EXPECT_EQ(samples[i], float(i) * 2.0f + 7.0f, "samples after the kernel", i);
  EXPECT_EQ(counter, n, "counter", 0);
  EXPECT_EQ(stats.count, 5 + n, "stats.count", 0);
  EXPECT_EQ(stats.sum, n * (n - 1) / 2, "stats.sum", 0);

  // Addresses taken by host code are the device copies': kernels and cudaMemcpy use them.
  int *counterAddress = &counter;
  float *samplesAddress = samples;
  store<<<1, 1>>>(counterAddress, 1234);
  CHECK_KERNEL();
  EXPECT_EQ(counter, 1234, "counter written through a host-taken address", 0);
  samplesAddress[3] = -1.0f;
  EXPECT_EQ(samples[3], -1.0f, "samples written through a host-taken address", 3);
  float copy[256];
  CHECK(cudaMemcpy(copy, samples, sizeof copy, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    EXPECT_EQ(copy[i], samples[i], "cudaMemcpy from the managed array", i);
  CHECK(cudaMemset(&stats.sum, 0, sizeof stats.sum));
  EXPECT_EQ(stats.sum, 0, "stats.sum after cudaMemset", 0);

  // A reference chosen at run time (a phi of two addresses in the host code).
  int &chosen = argc > 100 ? stats.count : counter;
  chosen += 1;
  EXPECT_EQ(counter, 1235, "counter through a chosen reference", 0);

  // The host and device versions of weight() read the same values.
  stats.count = 3;
  float *weights;
  CHECK(cudaMallocManaged(&weights, n * sizeof(float)));
  weigh<<<n / 64, 64>>>(weights, n);
  CHECK_KERNEL();
  for (int i = 0; i < n; ++i)
    EXPECT_EQ(weights[i], weight(i), "weight on the device and on the host", i);
  CHECK(cudaFree(weights));

  // Symbol calls name a managed variable by the variable itself.
  int viaSymbol = 77;
  CHECK(cudaMemcpyToSymbol(initial, &viaSymbol, sizeof viaSymbol));
  EXPECT_EQ(initial, 77, "cudaMemcpyToSymbol into a managed variable", 0);
  int *symbolAddress = nullptr;
  CHECK(cudaGetSymbolAddress((void **)&symbolAddress, counter));
  EXPECT_EQ(int(symbolAddress == &counter), 1, "cudaGetSymbolAddress of a managed variable", 0);
  return wf::finish();
}

// The demo program: saxpy over 1 Mi floats, then a shared-memory tree reduction per block and an
// atomicAdd of the block sums, checked against the same computation on the host.
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    if (e_ != cudaSuccess) {                                                                       \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__);         \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

__global__ void saxpy(int n, float a, const float *x, float *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    y[i] = a * x[i] + y[i];
}

__global__ void sum(int n, const float *y, float *total) {
  __shared__ float partial[256];
  float s = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    s += y[i];
  partial[threadIdx.x] = s;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(total, partial[0]);
}

int main() {
  const int n = 1 << 20;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i)
    x[i] = float(i % 97) * 0.25f, y[i] = float(i % 13);
  float *dx, *dy, *dtotal;
  CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CHECK(cudaMalloc(&dtotal, sizeof(float)));
  CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dtotal, 0, sizeof(float)));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start));
  saxpy<<<256, 256>>>(n, 2.0f, dx, dy);
  sum<<<64, 256>>>(n, dy, dtotal);
  CHECK(cudaEventRecord(stop));
  CHECK(cudaGetLastError());
  CHECK(cudaEventSynchronize(stop));
  float ms = 0, total = 0;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  std::vector<float> out(n);
  CHECK(cudaMemcpy(out.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&total, dtotal, sizeof(float), cudaMemcpyDeviceToHost));

  double reference = 0;
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    float want = 2.0f * x[i] + y[i]; // exact in float for these values
    if (out[i] != want && bad++ < 3)
      std::printf("y[%d] = %g, expected %g\n", i, out[i], want);
    reference += want;
  }
  bool sumOk = std::fabs(total - reference) <= 1e-5 * reference;
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s: saxpy of %d floats and their sum %.1f (reference %.1f) in %.3f ms of device "
              "time: %s\n",
              prop.name, n, total, reference, ms, bad == 0 && sumOk ? "PASS" : "FAIL");
  return bad == 0 && sumOk ? 0 : 1;
}

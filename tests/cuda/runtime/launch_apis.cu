// WF-CHAPTER: runtime
// WF-FEATURES: rt.launch.launch_kernel, rt.launch.launch_kernel_ex, th.launch.execution_config
// WF-DESCRIPTION: kernels launched through cudaLaunchKernel (argument pointer array, dim3 grid/block, dynamic shared memory, stream) and cudaLaunchKernelEx with a cudaLaunchConfig_t, giving the same results as the <<<>>> syntax
#include "../common/check.h"
#include <vector>

__global__ void k(int* out, int a, double b, char c) {
  extern __shared__ int dyn[];
  int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * blockIdx.x);
  dyn[threadIdx.x + blockDim.x * threadIdx.y] = t;
  __syncthreads();
  out[t] = a * 1000 + (int)(b * 10) + c + dyn[(threadIdx.x + blockDim.x * threadIdx.y)];
}

int main() {
  int* d;
  CHECK(cudaMalloc(&d, 4096 * 4));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  std::vector<int> h(4096);
  const dim3 grid(3), block(8, 4);
  const int n = 3 * 32;
  auto check = [&](const char* what, int a, double b, char c) {
    CHECK(cudaMemcpy(h.data(), d, n * 4, cudaMemcpyDeviceToHost));
    for (int t = 0; t < n; ++t) EXPECT_EQ(h[t], a * 1000 + (int)(b * 10) + c + t, what, t);
  };
  k<<<grid, block, 32 * 4, s>>>(d, 1, 2.5, 3);
  CHECK(cudaStreamSynchronize(s));
  check("<<<>>>", 1, 2.5, 3);
  int a = 4; double b = 1.5; char c = 9;
  void* args[] = {&d, &a, &b, &c};
  CHECK(cudaLaunchKernel((const void*)k, grid, block, args, 32 * 4, s));
  CHECK(cudaStreamSynchronize(s));
  check("cudaLaunchKernel", 4, 1.5, 9);
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = grid;
  cfg.blockDim = block;
  cfg.dynamicSmemBytes = 32 * 4;
  cfg.stream = s;
  cfg.attrs = nullptr;
  cfg.numAttrs = 0;
  CHECK(cudaLaunchKernelEx(&cfg, k, d, 7, 0.5, (char)1));
  CHECK(cudaStreamSynchronize(s));
  check("cudaLaunchKernelEx", 7, 0.5, 1);
  CHECK(cudaStreamDestroy(s));
  return wf::finish();
}

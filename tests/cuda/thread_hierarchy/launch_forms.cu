// WF-CHAPTER: thread_hierarchy
// WF-FEATURES: th.launch.execution_config, th.launch.dim3_defaults, mem.shared.dynamic, rt.stream.create
// WF-DESCRIPTION: every form of the execution configuration <<<Dg, Db, Ns, S>>> with int and dim3 arguments, default dim3 members
#include "../common/check.h"
#include <vector>

__global__ void k(int* out, int tag) {
  extern __shared__ int dyn[];
  int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  int b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  int nt = blockDim.x * blockDim.y * blockDim.z;
  out[b * nt + t] = tag * 100000 + b * 1000 + t;
  if (t == 0 && b == 0) out[1023] = gridDim.x * 10000 + gridDim.y * 100 + gridDim.z + blockDim.z * 1000000;
  (void)dyn;
}

__global__ void uses_dyn(int* out) {
  extern __shared__ int dyn[];
  dyn[threadIdx.x] = threadIdx.x * 3;
  __syncthreads();
  out[threadIdx.x] = dyn[blockDim.x - 1 - threadIdx.x];
}

int main() {
  int* d;
  CHECK(cudaMalloc(&d, 1024 * sizeof(int)));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  std::vector<int> h(1024);
  struct L { dim3 g, b; int form; } ls[] = {
      {dim3(4), dim3(8), 0}, {dim3(2, 3), dim3(4, 2), 1}, {dim3(2, 2, 2), dim3(2, 2, 2), 2}, {dim3(1), dim3(5, 1, 3), 3}};
  for (int i = 0; i < 4; ++i) {
    CHECK(cudaMemset(d, 0, 1024 * sizeof(int)));
    auto& l = ls[i];
    switch (l.form) {
      case 0: k<<<4, 8>>>(d, i); break;                          // ints
      case 1: k<<<l.g, l.b, 0>>>(d, i); break;                   // dim3 + Ns
      case 2: k<<<l.g, l.b, 64 * sizeof(int), s>>>(d, i); break; // dim3 + Ns + stream
      case 3: k<<<1, l.b, 0, 0>>>(d, i); break;                  // null stream
    }
    CHECK_KERNEL();
    CHECK(cudaMemcpy(h.data(), d, 1024 * sizeof(int), cudaMemcpyDeviceToHost));
    int nb = l.g.x * l.g.y * l.g.z, nt = l.b.x * l.b.y * l.b.z;
    for (int b = 0; b < nb; ++b)
      for (int t = 0; t < nt; ++t) {
        if (b * nt + t == 0) continue;
        EXPECT_EQ(h[b * nt + t], i * 100000 + b * 1000 + t, "element", b * nt + t);
      }
    EXPECT_EQ(h[1023], (int)(l.g.x * 10000 + l.g.y * 100 + l.g.z + l.b.z * 1000000), "grid dims", i);
  }
  dim3 def;
  EXPECT_EQ(def.x + def.y * 10 + def.z * 100, 111u, "dim3 defaults", 0);
  dim3 two(7, 5);
  EXPECT_EQ(two.z, 1u, "dim3 z default", 0);
  uses_dyn<<<1, 77, 77 * sizeof(int), s>>>(d);
  CHECK(cudaGetLastError());
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaMemcpy(h.data(), d, 77 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int t = 0; t < 77; ++t) EXPECT_EQ(h[t], (76 - t) * 3, "dynamic shared", t);
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(d));
  return wf::finish();
}

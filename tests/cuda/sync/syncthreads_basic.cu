// WF-CHAPTER: sync
// WF-FEATURES: sync.syncthreads, mem.shared.static
// WF-DESCRIPTION: __syncthreads orders shared-memory writes before reads across warps: multi-phase exchange in 1024-thread and odd-sized blocks
#include "../common/check.h"
#include <vector>

__global__ void phases(const int* in, int* out) {
  __shared__ int a[1024], b[1024];
  int n = blockDim.x, t = threadIdx.x;
  a[t] = in[blockIdx.x * n + t];
  __syncthreads();
  b[t] = a[(t + 37) % n] + a[(n - 1 - t)];          // read other warps' writes
  __syncthreads();
  a[t] = b[(t * 5 + 3) % n] - b[t];
  __syncthreads();
  out[blockIdx.x * n + t] = a[(t + n / 2) % n];
}

int main() {
  const int sizes[] = {1024, 999, 96, 33};
  for (int n : sizes) {
    const int blocks = 3;
    std::vector<int> in(n * blocks);
    for (int i = 0; i < n * blocks; ++i) in[i] = (i * 2654435761u) % 100000;
    int *din, *dout;
    CHECK(cudaMalloc(&din, in.size() * sizeof(int)));
    CHECK(cudaMalloc(&dout, in.size() * sizeof(int)));
    CHECK(cudaMemcpy(din, in.data(), in.size() * sizeof(int), cudaMemcpyHostToDevice));
    phases<<<blocks, n>>>(din, dout);
    CHECK_KERNEL();
    std::vector<int> o(in.size());
    CHECK(cudaMemcpy(o.data(), dout, o.size() * sizeof(int), cudaMemcpyDeviceToHost));
    for (int blk = 0; blk < blocks; ++blk) {
      const int* a0 = &in[blk * n];
      std::vector<int> b(n), a(n);
      for (int t = 0; t < n; ++t) b[t] = a0[(t + 37) % n] + a0[n - 1 - t];
      for (int t = 0; t < n; ++t) a[t] = b[(t * 5 + 3) % n] - b[t];
      for (int t = 0; t < n; ++t) EXPECT_EQ(o[blk * n + t], a[(t + n / 2) % n], "phases", n * 10000 + blk * n + t);
    }
    CHECK(cudaFree(din)); CHECK(cudaFree(dout));
  }
  return wf::finish();
}

// WF-CHAPTER: runtime
// WF-FEATURES: rt.memory.malloc_async
// WF-DESCRIPTION: stream-ordered allocation: cudaMallocAsync/cudaFreeAsync in a stream interleaved with kernels and copies, reuse of freed memory in stream order, and the default memory pool's release threshold attribute
#include "../common/check.h"
#include <vector>

__global__ void iota(int* d, int n, int base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] = base + i;
}
__global__ void accumulate(int* dst, const int* src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] += src[i];
}

int main() {
  int supported = 0;
  CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, 0));
  if (!supported) { printf("memory pools not supported\n"); return 1; }
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  const int n = 2048;
  int* acc;
  CHECK(cudaMallocAsync((void**)&acc, n * 4, s));
  CHECK(cudaMemsetAsync(acc, 0, n * 4, s));
  for (int round = 0; round < 10; ++round) {
    int* tmp;
    CHECK(cudaMallocAsync((void**)&tmp, n * 4, s));
    iota<<<(n + 255) / 256, 256, 0, s>>>(tmp, n, round * 1000);
    accumulate<<<(n + 255) / 256, 256, 0, s>>>(acc, tmp, n);
    CHECK(cudaFreeAsync(tmp, s));  // the next round may get the same memory back, in stream order
  }
  std::vector<int> h(n);
  CHECK(cudaMemcpyAsync(h.data(), acc, n * 4, cudaMemcpyDeviceToHost, s));
  CHECK(cudaFreeAsync(acc, s));
  CHECK(cudaStreamSynchronize(s));
  for (int i = 0; i < n; ++i) EXPECT_EQ(h[i], 45000 + 10 * i, "accumulated through stream-ordered buffers", i);
  cudaMemPool_t pool;
  CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
  unsigned long long thr = 1 << 20, back = 0;
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &thr));
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &back));
  EXPECT_EQ(back, thr, "release threshold", 0);
  CHECK(cudaStreamDestroy(s));
  return wf::finish();
}

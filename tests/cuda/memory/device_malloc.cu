// WF-CHAPTER: memory
// WF-FEATURES: mem.device_heap.malloc_free, mem.device_heap.persist, rt.limit.malloc_heap_size
// WF-DESCRIPTION: in-kernel malloc/free/memset/memcpy (guide B.18): per-thread buffers, per-block buffers, allocations that persist between launches; heap size set with cudaDeviceSetLimit
#include "../common/check.h"
#include <vector>

__global__ void per_thread(int* out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int n = 4 + t % 13;
  int* p = (int*)malloc(n * sizeof(int));
  if (p == nullptr) { out[t] = -1; return; }
  memset(p, 0, n * sizeof(int));
  for (int i = 0; i < n; ++i) p[i] += i * t;
  int s = 0;
  for (int i = 0; i < n; ++i) s += p[i];
  int* q = (int*)malloc(n * sizeof(int));
  if (q == nullptr) { free(p); out[t] = -2; return; }
  memcpy(q, p, n * sizeof(int));
  s += q[n - 1];
  free(q);
  free(p);
  out[t] = s;
}

__global__ void per_block(int* out) {
  __shared__ int* buf;
  if (threadIdx.x == 0) buf = (int*)malloc(blockDim.x * sizeof(int));
  __syncthreads();
  if (buf == nullptr) { out[blockIdx.x * blockDim.x + threadIdx.x] = -1; return; }
  buf[threadIdx.x] = threadIdx.x * 2;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) free(buf);
}

__device__ int* persistent[4];
__global__ void alloc_persistent() {
  persistent[blockIdx.x] = (int*)malloc(64 * sizeof(int));
  for (int i = 0; i < 64; ++i) if (persistent[blockIdx.x]) persistent[blockIdx.x][i] = blockIdx.x * 100 + i;
}
__global__ void use_persistent(int* out) {
  int* p = persistent[blockIdx.x];
  out[blockIdx.x * 64 + threadIdx.x] = p ? p[threadIdx.x] : -1;
}
__global__ void free_persistent() { free(persistent[blockIdx.x]); }

int main() {
  CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 8 << 20));
  size_t lim = 0;
  CHECK(cudaDeviceGetLimit(&lim, cudaLimitMallocHeapSize));
  EXPECT_TRUE(lim >= (size_t)(8 << 20), "heap limit");
  const int nb = 4, nt = 64;
  int* d;
  CHECK(cudaMalloc(&d, nb * nt * sizeof(int)));
  per_thread<<<nb, nt>>>(d);
  CHECK_KERNEL();
  std::vector<int> h(nb * nt);
  CHECK(cudaMemcpy(h.data(), d, h.size() * sizeof(int), cudaMemcpyDeviceToHost));
  for (int t = 0; t < nb * nt; ++t) {
    int n = 4 + t % 13, s = 0;
    for (int i = 0; i < n; ++i) s += i * t;
    s += (n - 1) * t;
    EXPECT_EQ(h[t], s, "per-thread heap", t);
  }
  per_block<<<nb, nt>>>(d);
  CHECK_KERNEL();
  CHECK(cudaMemcpy(h.data(), d, h.size() * sizeof(int), cudaMemcpyDeviceToHost));
  for (int t = 0; t < nb * nt; ++t) EXPECT_EQ(h[t], (nt - 1 - t % nt) * 2, "per-block heap", t);
  alloc_persistent<<<4, 1>>>();
  CHECK_KERNEL();
  use_persistent<<<4, 64>>>(d);
  CHECK_KERNEL();
  free_persistent<<<4, 1>>>();
  CHECK_KERNEL();
  CHECK(cudaMemcpy(h.data(), d, 256 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 256; ++i) EXPECT_EQ(h[i], (i / 64) * 100 + i % 64, "persistent heap", i);
  CHECK(cudaFree(d));
  return wf::finish();
}

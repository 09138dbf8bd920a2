// WF-CHAPTER: runtime
// WF-FEATURES: rt.stream.default_legacy, rt.stream.ordering, rt.memset_async
// WF-DESCRIPTION: in-order execution of 200 dependent launches in one stream; the legacy default stream waits for prior work in blocking streams and later work waits for it (guide 3.2.5.5.2/3.2.5.5.4 implicit synchronisation)
#include "../common/check.h"
#include <vector>

__global__ void step(int* d, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] = d[i] * 3 + k;  // order-dependent
}
__global__ void slow_write(int* d, int n, int v) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {  // one thread delays the kernel's completion: a missing dependency shows
    long long t0 = clock64();
    while (clock64() - t0 < 100000) { }
  }
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] = v;
}
__global__ void add_from(int* dst, const int* src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] += src[i];
}

int main() {
  const int n = 1000;
  int *a, *b;
  CHECK(cudaMalloc(&a, n * 4)); CHECK(cudaMalloc(&b, n * 4));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));  // blocking stream: synchronises with the legacy default stream
  CHECK(cudaMemsetAsync(a, 0, n * 4, s));
  for (int k = 0; k < 200; ++k) step<<<(n + 255) / 256, 256, 0, s>>>(a, n, k);
  CHECK(cudaGetLastError());
  CHECK(cudaStreamSynchronize(s));
  std::vector<int> h(n);
  CHECK(cudaMemcpy(h.data(), a, n * 4, cudaMemcpyDeviceToHost));
  unsigned w = 0;
  for (int k = 0; k < 200; ++k) w = w * 3u + (unsigned)k;  // wraps identically (two's complement)
  for (int i = 0; i < n; ++i) EXPECT_EQ((unsigned)h[i], w, "200 ordered launches", i);
  // blocking stream -> default stream -> blocking stream
  CHECK(cudaMemset(a, 0, n * 4));
  slow_write<<<(n + 255) / 256, 256, 0, s>>>(b, n, 5);        // in s
  add_from<<<(n + 255) / 256, 256>>>(a, b, n);                // default stream: waits for s
  slow_write<<<(n + 255) / 256, 256, 0, s>>>(b, n, 100);      // in s: waits for the default stream
  add_from<<<(n + 255) / 256, 256, 0, s>>>(a, b, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h.data(), a, n * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) EXPECT_EQ(h[i], 105, "implicit default-stream synchronisation", i);
  CHECK(cudaStreamDestroy(s));
  return wf::finish();
}

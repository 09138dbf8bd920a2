// WF-CHAPTER: runtime
// WF-FEATURES: rt.stream.wait_event, rt.event.record, rt.stream.flags
// WF-DESCRIPTION: cross-stream dependencies with cudaStreamWaitEvent between non-blocking streams: a consumer stream waits for a slow producer kernel, a join back into the producer stream, and a fan-out/fan-in over four streams
#include "../common/check.h"
#include <vector>

__global__ void slow_fill(int* d, int n, int v) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {  // one thread delays completion
    long long t0 = clock64();
    while (clock64() - t0 < 100000) { }
  }
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) d[i] = v + i;
}
__global__ void combine(int* dst, const int* src, int n, int mul) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) dst[i] = dst[i] * mul + src[i];
}

int main() {
  const int n = 4096;
  cudaStream_t p, c, f[4];
  CHECK(cudaStreamCreateWithFlags(&p, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&c, cudaStreamNonBlocking));
  for (auto& x : f) CHECK(cudaStreamCreateWithFlags(&x, cudaStreamNonBlocking));
  cudaEvent_t produced, consumed, fan[4];
  CHECK(cudaEventCreateWithFlags(&produced, cudaEventDisableTiming));
  CHECK(cudaEventCreateWithFlags(&consumed, cudaEventDisableTiming));
  for (auto& e : fan) CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  int *a, *b, *parts;
  CHECK(cudaMalloc(&a, n * 4)); CHECK(cudaMalloc(&b, n * 4)); CHECK(cudaMalloc(&parts, 4 * n * 4));
  CHECK(cudaMemsetAsync(b, 0, n * 4, c));
  slow_fill<<<4, 128, 0, p>>>(a, n, 1000);
  CHECK(cudaEventRecord(produced, p));
  CHECK(cudaStreamWaitEvent(c, produced, 0));
  combine<<<4, 128, 0, c>>>(b, a, n, 1);          // needs a
  CHECK(cudaEventRecord(consumed, c));
  CHECK(cudaStreamWaitEvent(p, consumed, 0));
  combine<<<4, 128, 0, p>>>(b, a, n, 2);          // join: b = 2b + a
  // fan-out from p to four streams, fan-in back to p
  CHECK(cudaEventRecord(produced, p));
  for (int k = 0; k < 4; ++k) {
    CHECK(cudaStreamWaitEvent(f[k], produced, 0));
    slow_fill<<<2, 128, 0, f[k]>>>(parts + k * n, n, k * 100000);
    combine<<<2, 128, 0, f[k]>>>(parts + k * n, b, n, 1);  // reads b after the join
    CHECK(cudaEventRecord(fan[k], f[k]));
    CHECK(cudaStreamWaitEvent(p, fan[k], 0));
  }
  for (int k = 0; k < 4; ++k) combine<<<4, 128, 0, p>>>(b, parts + k * n, n, 1);
  CHECK(cudaGetLastError());
  CHECK(cudaStreamSynchronize(p));
  std::vector<int> h(n);
  CHECK(cudaMemcpy(h.data(), b, n * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    long long av = 1000 + i, bv = av;   // after consumer
    bv = 2 * bv + av;                   // join
    long long base = bv;
    for (int k = 0; k < 4; ++k) bv += (long long)k * 100000 + i + base;
    EXPECT_EQ((long long)h[i], bv, "event-ordered result", i);
  }
  CHECK(cudaStreamDestroy(p)); CHECK(cudaStreamDestroy(c));
  for (auto& x : f) CHECK(cudaStreamDestroy(x));
  return wf::finish();
}

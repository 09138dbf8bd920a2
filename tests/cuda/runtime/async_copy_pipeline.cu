// WF-CHAPTER: runtime
// WF-FEATURES: rt.memcpy_async, rt.memset_async, rt.memory.pinned, rt.stream.create, rt.stream.overlap
// WF-DESCRIPTION: a chunked copy-compute-copy pipeline over three streams with pinned host buffers (guide 3.2.5.5.5 overlapping behaviour): cudaMemcpyAsync H2D, kernel, cudaMemcpyAsync D2H per chunk, cudaMemsetAsync, cudaMemcpy2DAsync, completion by cudaDeviceSynchronize
#include "../common/check.h"
#include <vector>

__global__ void work(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * 2.0f + 1.0f;
}

int main() {
  const int chunks = 8, chunk = 3000, N = chunks * chunk, NS = 3;
  float *hin, *hout;
  CHECK(cudaMallocHost(&hin, N * 4));
  CHECK(cudaHostAlloc(&hout, N * 4, cudaHostAllocDefault));
  for (int i = 0; i < N; ++i) { hin[i] = (float)(i % 1000); hout[i] = -1; }
  float *din, *dout;
  CHECK(cudaMalloc(&din, N * 4)); CHECK(cudaMalloc(&dout, N * 4));
  cudaStream_t s[NS];
  for (auto& x : s) CHECK(cudaStreamCreateWithFlags(&x, cudaStreamNonBlocking));
  for (int c = 0; c < chunks; ++c) {
    cudaStream_t st = s[c % NS];
    size_t off = (size_t)c * chunk;
    CHECK(cudaMemsetAsync(dout + off, 0, chunk * 4, st));
    CHECK(cudaMemcpyAsync(din + off, hin + off, chunk * 4, cudaMemcpyHostToDevice, st));
    work<<<(chunk + 255) / 256, 256, 0, st>>>(din + off, dout + off, chunk);
    CHECK(cudaMemcpyAsync(hout + off, dout + off, chunk * 4, cudaMemcpyDeviceToHost, st));
  }
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < N; ++i) EXPECT_EQ(hout[i], hin[i] * 2.0f + 1.0f, "pipelined chunk", i);
  // a 2D async copy of a 100x30 sub-block into a pitched buffer and back
  float* pitched;
  size_t pitch;
  CHECK(cudaMallocPitch((void**)&pitched, &pitch, 100 * 4, 30));
  CHECK(cudaMemcpy2DAsync(pitched, pitch, hin, 200 * 4, 100 * 4, 30, cudaMemcpyHostToDevice, s[0]));
  CHECK(cudaMemcpy2DAsync(hout, 100 * 4, pitched, pitch, 100 * 4, 30, cudaMemcpyDeviceToHost, s[0]));
  CHECK(cudaStreamSynchronize(s[0]));
  for (int y = 0; y < 30; ++y)
    for (int x = 0; x < 100; ++x) EXPECT_EQ(hout[y * 100 + x], hin[y * 200 + x], "cudaMemcpy2DAsync", y * 100 + x);
  for (auto& x : s) CHECK(cudaStreamDestroy(x));
  CHECK(cudaFreeHost(hin)); CHECK(cudaFreeHost(hout));
  return wf::finish();
}

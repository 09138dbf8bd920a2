// WF-CHAPTER: runtime
// WF-FEATURES: rt.stream.create, rt.stream.flags, rt.stream.priority, rt.stream.sync, rt.stream.query, rt.memcpy_async, rt.memory.pinned
// WF-DESCRIPTION: streams created with cudaStreamCreate, cudaStreamCreateWithFlags(cudaStreamNonBlocking) and cudaStreamCreateWithPriority over the reported priority range; kernels and async copies per stream, cudaStreamSynchronize/Query/GetFlags/GetPriority, cudaStreamDestroy
#include "../common/check.h"
#include <vector>

__global__ void scale(int* d, int n, int mul, int add) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) d[i] = d[i] * mul + add;
}

int main() {
  int least = 0, greatest = 0;
  CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  EXPECT_TRUE(greatest <= least, "greatest priority is numerically <= least");
  const int NS = 4, n = 5000;
  cudaStream_t s[NS];
  CHECK(cudaStreamCreate(&s[0]));
  CHECK(cudaStreamCreateWithFlags(&s[1], cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithPriority(&s[2], cudaStreamDefault, greatest));
  CHECK(cudaStreamCreateWithPriority(&s[3], cudaStreamNonBlocking, least));
  unsigned flags = 0;
  CHECK(cudaStreamGetFlags(s[1], &flags));
  EXPECT_EQ(flags & cudaStreamNonBlocking, (unsigned)cudaStreamNonBlocking, "non-blocking flag", 1);
  CHECK(cudaStreamGetFlags(s[0], &flags));
  EXPECT_EQ(flags & cudaStreamNonBlocking, 0u, "default flags", 0);
  int prio = 12345;
  CHECK(cudaStreamGetPriority(s[2], &prio));
  EXPECT_EQ(prio, greatest, "priority of high-priority stream", 2);
  CHECK(cudaStreamGetPriority(s[3], &prio));
  EXPECT_EQ(prio, least, "priority of low-priority stream", 3);
  int* host;
  CHECK(cudaMallocHost(&host, NS * n * sizeof(int)));
  int* dev[NS];
  for (int k = 0; k < NS; ++k) {
    CHECK(cudaMalloc(&dev[k], n * sizeof(int)));
    for (int i = 0; i < n; ++i) host[k * n + i] = i + k * 7;
  }
  for (int k = 0; k < NS; ++k) {
    CHECK(cudaMemcpyAsync(dev[k], host + k * n, n * sizeof(int), cudaMemcpyHostToDevice, s[k]));
    for (int rep = 0; rep < 3; ++rep) scale<<<8, 128, 0, s[k]>>>(dev[k], n, k + 2, rep);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(host + k * n, dev[k], n * sizeof(int), cudaMemcpyDeviceToHost, s[k]));
  }
  for (int k = 0; k < NS; ++k) {
    CHECK(cudaStreamSynchronize(s[k]));
    EXPECT_EQ((int)cudaStreamQuery(s[k]), (int)cudaSuccess, "query after synchronize", k);
  }
  for (int k = 0; k < NS; ++k)
    for (int i = 0; i < n; ++i) {
      long long v = i + k * 7;
      for (int rep = 0; rep < 3; ++rep) v = v * (k + 2) + rep;
      EXPECT_EQ(host[k * n + i], (int)v, "stream result", k * n + i);
    }
  for (int k = 0; k < NS; ++k) { CHECK(cudaStreamDestroy(s[k])); CHECK(cudaFree(dev[k])); }
  CHECK(cudaFreeHost(host));
  return wf::finish();
}

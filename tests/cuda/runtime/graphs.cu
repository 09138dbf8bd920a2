// WF-CHAPTER: runtime
// WF-FEATURES: rt.graph.capture, rt.graph.explicit, rt.graph.launch
// WF-DESCRIPTION: CUDA graphs: a stream capture of memset/kernels/memcpy instantiated once and launched several times, and an explicitly built graph with kernel and memcpy nodes in a diamond dependency, each checked for ordering and repeatability
#include "../common/check.h"
#include <vector>

__global__ void add(int* d, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] += v;
}
__global__ void mul(int* d, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] *= v;
}
__global__ void sum2(int* out, const int* a, const int* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}

int main() {
  const int n = 1000;
  int *a, *b, *c, *host;
  CHECK(cudaMalloc(&a, n * 4)); CHECK(cudaMalloc(&b, n * 4)); CHECK(cudaMalloc(&c, n * 4));
  CHECK(cudaMallocHost(&host, n * 4));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  // ---- capture ----
  CHECK(cudaMemset(a, 0, n * 4));
  cudaGraph_t g;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  add<<<(n + 255) / 256, 256, 0, s>>>(a, n, 3);
  mul<<<(n + 255) / 256, 256, 0, s>>>(a, n, 2);
  CHECK(cudaMemcpyAsync(host, a, n * 4, cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamEndCapture(s, &g));
  size_t nodes = 0;
  CHECK(cudaGraphGetNodes(g, nullptr, &nodes));
  EXPECT_EQ(nodes, (size_t)3, "captured node count", 0);
  cudaGraphExec_t ge;
  CHECK(cudaGraphInstantiate(&ge, g, 0));
  int v = 0;
  for (int rep = 0; rep < 3; ++rep) {
    CHECK(cudaGraphLaunch(ge, s));
    CHECK(cudaStreamSynchronize(s));
    v = (v + 3) * 2;
    for (int i = 0; i < n; ++i) EXPECT_EQ(host[i], v, "captured graph launch", rep * n + i);
  }
  // ---- explicit diamond: memcpy(b <- a) ; {add(a), mul(b)} ; sum2(c = a + b) ----
  cudaGraph_t g2;
  CHECK(cudaGraphCreate(&g2, 0));
  cudaGraphNode_t ncopy, nadd, nmul, nsum;
  CHECK(cudaGraphAddMemcpyNode1D(&ncopy, g2, nullptr, 0, b, a, n * 4, cudaMemcpyDeviceToDevice));
  int nn = n, v5 = 5, v10 = 10;
  void* args_add[] = {&a, &nn, &v5};
  void* args_mul[] = {&b, &nn, &v10};
  void* args_sum[] = {&c, &a, &b, &nn};
  cudaKernelNodeParams kp = {};
  kp.gridDim = dim3((n + 255) / 256);
  kp.blockDim = dim3(256);
  kp.func = (void*)add;
  kp.kernelParams = args_add;
  CHECK(cudaGraphAddKernelNode(&nadd, g2, &ncopy, 1, &kp));
  kp.func = (void*)mul;
  kp.kernelParams = args_mul;
  CHECK(cudaGraphAddKernelNode(&nmul, g2, &ncopy, 1, &kp));
  cudaGraphNode_t deps[2] = {nadd, nmul};
  kp.func = (void*)sum2;
  kp.kernelParams = args_sum;
  CHECK(cudaGraphAddKernelNode(&nsum, g2, deps, 2, &kp));
  cudaGraphExec_t ge2;
  CHECK(cudaGraphInstantiate(&ge2, g2, 0));
  for (int rep = 0; rep < 2; ++rep) {
    CHECK(cudaGraphLaunch(ge2, s));
    CHECK(cudaStreamSynchronize(s));
    int bval = v * 10;
    v += 5;
    CHECK(cudaMemcpy(host, c, n * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) EXPECT_EQ(host[i], v + bval, "explicit graph", rep * n + i);
  }
  CHECK(cudaGraphExecDestroy(ge)); CHECK(cudaGraphExecDestroy(ge2));
  CHECK(cudaGraphDestroy(g)); CHECK(cudaGraphDestroy(g2));
  CHECK(cudaStreamDestroy(s));
  return wf::finish();
}

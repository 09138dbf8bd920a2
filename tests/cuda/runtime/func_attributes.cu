// WF-CHAPTER: runtime
// WF-FEATURES: rt.func.get_attributes, rt.func.set_attribute, rt.func.cache_config
// WF-DESCRIPTION: cudaFuncGetAttributes reports static shared memory, constant and local sizes, registers and the thread limit; cudaFuncSetAttribute (dynamic shared limit, carveout) and cudaFuncSetCacheConfig/cudaDeviceSetCacheConfig are accepted and kernels still run
#include "../common/check.h"
#include <vector>

__constant__ int ctab[300];
__global__ void with_static(int* out) {
  __shared__ double s[1000];  // 8000 bytes
  int loc[64];  // data-dependent indexing keeps this array in local memory
  for (int i = 0; i < 64; ++i) loc[(i * 7 + threadIdx.x) % 64] = i * (int)threadIdx.x + ctab[i];
  s[threadIdx.x] = threadIdx.x + ctab[threadIdx.x % 300];
  __syncthreads();
  out[threadIdx.x] = (int)s[(threadIdx.x + 1) % blockDim.x] + loc[ctab[threadIdx.x % 300] % 64];
}
__global__ void plain(int* out) { out[threadIdx.x] = 7; }

int main() {
  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, 0));
  cudaFuncAttributes a;
  CHECK(cudaFuncGetAttributes(&a, with_static));
  EXPECT_TRUE(a.sharedSizeBytes >= 8000, "static shared size");
  EXPECT_TRUE(a.numRegs > 0 && a.numRegs <= 255, "register count");
  EXPECT_TRUE(a.maxThreadsPerBlock > 0 && a.maxThreadsPerBlock <= p.maxThreadsPerBlock, "maxThreadsPerBlock");
  EXPECT_TRUE(a.localSizeBytes >= 64 * 4, "local memory for a dynamically indexed local array");
  EXPECT_TRUE(a.ptxVersion > 0 && a.binaryVersion > 0, "versions");
  CHECK(cudaFuncGetAttributes(&a, plain));
  EXPECT_EQ(a.sharedSizeBytes, (size_t)0, "no static shared", 0);
  CHECK(cudaFuncSetAttribute(plain, cudaFuncAttributeMaxDynamicSharedMemorySize, 2048));
  CHECK(cudaFuncSetAttribute(plain, cudaFuncAttributePreferredSharedMemoryCarveout, 50));
  CHECK(cudaFuncGetAttributes(&a, plain));
  EXPECT_EQ(a.maxDynamicSharedSizeBytes, 2048, "dynamic shared limit set", 0);
  CHECK(cudaFuncSetCacheConfig(with_static, cudaFuncCachePreferShared));
  CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferL1));
  cudaFuncCache cc;
  CHECK(cudaDeviceGetCacheConfig(&cc));
  std::vector<int> ht(300);
  for (int i = 0; i < 300; ++i) ht[i] = 1000 + i;
  CHECK(cudaMemcpyToSymbol(ctab, ht.data(), 300 * 4));
  int* d;
  CHECK(cudaMalloc(&d, 256 * 4));
  with_static<<<1, 256>>>(d);
  CHECK_KERNEL();
  std::vector<int> h(256);
  CHECK(cudaMemcpy(h.data(), d, 256 * 4, cudaMemcpyDeviceToHost));
  for (int t = 0; t < 256; ++t) {
    int u = (t + 1) % 256;
    int loc[64];
    for (int i = 0; i < 64; ++i) loc[(i * 7 + t) % 64] = i * t + ht[i];
    EXPECT_EQ(h[t], u + 1000 + u % 300 + loc[ht[t % 300] % 64], "kernel with attributes set", t);
  }
  plain<<<1, 32, 2048>>>(d);
  CHECK_KERNEL();
  return wf::finish();
}

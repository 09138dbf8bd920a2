// WF-CHAPTER: memory
// WF-FEATURES: mem.shared.dynamic, mem.shared.optin, rt.func.set_attribute
// WF-DESCRIPTION: dynamic shared memory up to the device's opt-in limit (cudaFuncAttributeMaxDynamicSharedMemorySize); over the default 48 KB only after opting in
#include "../common/check.h"
#include <vector>

__global__ void big_shared(int* out, int words) {
  extern __shared__ int s[];
  for (int i = threadIdx.x; i < words; i += blockDim.x) s[i] = i ^ 0x5a5a;
  __syncthreads();
  long long acc = 0;
  for (int i = threadIdx.x; i < words; i += blockDim.x) acc += s[words - 1 - i];
  atomicAdd((unsigned long long*)out, (unsigned long long)acc);
}

int main() {
  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, 0));
  EXPECT_TRUE(p.sharedMemPerBlock >= 16 * 1024, "sharedMemPerBlock >= 16 KB");
  EXPECT_TRUE(p.sharedMemPerBlockOptin >= p.sharedMemPerBlock, "optin >= default");
  unsigned long long* d;
  CHECK(cudaMalloc(&d, sizeof(unsigned long long)));
  std::vector<size_t> sizes = {1024, p.sharedMemPerBlock};
  if (p.sharedMemPerBlockOptin > p.sharedMemPerBlock) sizes.push_back(p.sharedMemPerBlockOptin);
  for (size_t bytes : sizes) {
    if (bytes > p.sharedMemPerBlock)
      CHECK(cudaFuncSetAttribute(big_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
    int words = (int)(bytes / sizeof(int));
    CHECK(cudaMemset(d, 0, sizeof(unsigned long long)));
    big_shared<<<2, 256, bytes>>>((int*)d, words);
    CHECK_KERNEL();
    unsigned long long got;
    CHECK(cudaMemcpy(&got, d, sizeof(got), cudaMemcpyDeviceToHost));
    unsigned long long want = 0;
    for (int i = 0; i < words; ++i) want += (unsigned long long)(i ^ 0x5a5a);
    EXPECT_EQ(got, want * 2, "sum over shared", (long)bytes);
  }
  CHECK(cudaFree(d));
  return wf::finish();
}

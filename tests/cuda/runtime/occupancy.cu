// WF-CHAPTER: runtime
// WF-FEATURES: rt.occupancy.max_active_blocks, rt.occupancy.potential_block_size, rt.func.get_attributes
// WF-DESCRIPTION: occupancy API consistency (guide 5.2.3.1): cudaOccupancyMaxActiveBlocksPerMultiprocessor never exceeds the thread, block, register and shared-memory limits, is non-increasing in shared memory per block, and cudaOccupancyMaxPotentialBlockSize returns a launchable block size that achieves the reported occupancy
#include "../common/check.h"
#include <vector>

__global__ void light(int* d) { d[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x; }
__global__ void heavy_shared(int* d) {
  __shared__ int s[8192];  // 32 KB static
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  d[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
}

template <class K>
void check_kernel(K k, const char* name, const cudaDeviceProp& p) {
  cudaFuncAttributes fa;
  CHECK(cudaFuncGetAttributes(&fa, k));
  int prev = 1 << 30;
  for (size_t shmem : {(size_t)0, (size_t)1024, (size_t)4096, (size_t)12288}) {
    for (int bs : {32, 64, 128, 256, 512, 1024}) {
      if (bs > fa.maxThreadsPerBlock) continue;
      int blocks = -1;
      CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k, bs, shmem));
      EXPECT_TRUE(blocks >= 0, name);
      EXPECT_TRUE(blocks * bs <= p.maxThreadsPerMultiProcessor, "threads per SM within the limit");
      EXPECT_TRUE(blocks <= p.maxBlocksPerMultiProcessor, "blocks per SM within the limit");
      EXPECT_TRUE((size_t)blocks * (shmem + fa.sharedSizeBytes) <= p.sharedMemPerMultiprocessor, "shared memory per SM within the limit");
      EXPECT_TRUE((long long)blocks * bs * fa.numRegs <= p.regsPerMultiprocessor, "registers per SM within the limit");
      if (shmem + fa.sharedSizeBytes <= p.sharedMemPerBlock) EXPECT_TRUE(blocks >= 1, "a launchable configuration has occupancy >= 1");
    }
    int b256 = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b256, k, 256, shmem));
    EXPECT_TRUE(b256 <= prev, "occupancy non-increasing in shared memory");
    prev = b256;
  }
  int minGrid = 0, block = 0;
  CHECK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, k, 0, 0));
  EXPECT_TRUE(block >= 32 && block <= fa.maxThreadsPerBlock, "potential block size within limits");
  int atBlock = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&atBlock, k, block, 0));
  EXPECT_TRUE(atBlock >= 1, "potential block size is launchable");
  EXPECT_EQ(minGrid, atBlock * p.multiProcessorCount, "minGridSize = blocks per SM x SMs", 0);
  // no other block size gives more resident threads
  for (int bs = 32; bs <= fa.maxThreadsPerBlock; bs += 32) {
    int b = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, k, bs, 0));
    EXPECT_TRUE(b * bs <= atBlock * block, "potential block size maximises occupancy");
  }
  int limited = 0, lb = 0;
  CHECK(cudaOccupancyMaxPotentialBlockSize(&limited, &lb, k, 0, 96));
  EXPECT_TRUE(lb >= 1 && lb <= 96, "blockSizeLimit respected");
}

int main() {
  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, 0));
  check_kernel(light, "light", p);
  check_kernel(heavy_shared, "heavy_shared", p);
  cudaFuncAttributes fa;
  CHECK(cudaFuncGetAttributes(&fa, heavy_shared));
  EXPECT_TRUE(fa.sharedSizeBytes >= 8192 * 4, "static shared size reported");
  // actually launch at the suggested configuration
  int minGrid = 0, block = 0;
  CHECK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, light, 0, 0));
  int* d;
  CHECK(cudaMalloc(&d, (size_t)minGrid * block * 4));
  light<<<minGrid, block>>>(d);
  CHECK_KERNEL();
  std::vector<int> h((size_t)minGrid * block);
  CHECK(cudaMemcpy(h.data(), d, h.size() * 4, cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < h.size(); ++i) EXPECT_EQ(h[i], (int)(i % block), "launch at suggested size", i);
  return wf::finish();
}

// WF-CHAPTER: sync
// WF-FEATURES: sync.threadfence, sync.volatile, sync.spin_wait.inter_block, cg.launch.cooperative
// WF-DESCRIPTION: producer/consumer across blocks made safe by a cooperative launch (all blocks co-resident): block b waits on block b-1's volatile flag, reads its data after __threadfence, adds its own and publishes
#include "../common/check.h"
#include <vector>

__global__ void chain(int* data, volatile int* flags, const int* contrib, int width) {
  int b = blockIdx.x;
  if (b > 0) {
    if (threadIdx.x == 0) while (flags[b - 1] == 0) { }
    __syncthreads();
    __threadfence();
  }
  for (int i = threadIdx.x; i < width; i += blockDim.x) {
    int prev = b > 0 ? ((volatile int*)data)[(b - 1) * width + i] : 0;
    data[b * width + i] = prev + contrib[b * width + i];
  }
  __threadfence();   // data visible device-wide before the flag
  __syncthreads();
  if (threadIdx.x == 0) flags[b] = 1;
}

int main() {
  int dev = 0, coop = 0;
  CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
  if (!coop) { printf("cooperative launch not supported\n"); return 1; }
  int perSm = 0, sms = 0;
  const int threads = 64, width = 100;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, chain, threads, 0));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  int blocks = perSm * sms;
  if (blocks > 64) blocks = 64;  // keep it small; still far more than one core's worth on small devices
  EXPECT_TRUE(blocks >= 1, "at least one co-resident block");
  std::vector<int> contrib(blocks * width);
  for (int i = 0; i < (int)contrib.size(); ++i) contrib[i] = (i * 31) % 97;
  int *data, *flags, *dc;
  CHECK(cudaMalloc(&data, contrib.size() * sizeof(int)));
  CHECK(cudaMalloc(&flags, blocks * sizeof(int)));
  CHECK(cudaMalloc(&dc, contrib.size() * sizeof(int)));
  CHECK(cudaMemset(flags, 0, blocks * sizeof(int)));
  CHECK(cudaMemcpy(dc, contrib.data(), contrib.size() * sizeof(int), cudaMemcpyHostToDevice));
  int w = width;
  void* args[] = {&data, &flags, &dc, &w};
  CHECK(cudaLaunchCooperativeKernel((void*)chain, blocks, threads, args, 0, 0));
  CHECK_KERNEL();
  std::vector<int> o(contrib.size());
  CHECK(cudaMemcpy(o.data(), data, o.size() * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < width; ++i) {
    int acc = 0;
    for (int b = 0; b < blocks; ++b) {
      acc += contrib[b * width + i];
      EXPECT_EQ(o[b * width + i], acc, "prefix chain", b * width + i);
    }
  }
  CHECK(cudaFree(data)); CHECK(cudaFree(flags)); CHECK(cudaFree(dc));
  return wf::finish();
}

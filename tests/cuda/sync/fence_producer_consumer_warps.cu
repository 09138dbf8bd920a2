// WF-CHAPTER: sync
// WF-FEATURES: sync.threadfence_block, sync.volatile, sync.spin_wait.intra_block
// WF-DESCRIPTION: producer/consumer between warps of one block: producer writes data, __threadfence_block, raises a volatile flag; consumer warps spin on the flag (warps of a block are co-resident)
#include "../common/check.h"
#include <vector>

__global__ void pc(const int* in, int* out, int rounds) {
  __shared__ int data[32];
  __shared__ volatile int flag;     // round number published by the producer
  __shared__ volatile int acks;     // consumers that finished the round
  int w = threadIdx.x / 32, lane = threadIdx.x % 32, nw = blockDim.x / 32;
  if (threadIdx.x == 0) { flag = -1; acks = 0; }
  __syncthreads();
  for (int r = 0; r < rounds; ++r) {
    if (w == 0) {
      // wait until every consumer acknowledged the previous round
      if (lane == 0) while (acks < r * (nw - 1)) { }
      __syncwarp();
      ((volatile int*)data)[lane] = in[r * 32 + lane] * (r + 1);
      __threadfence_block();
      __syncwarp();
      if (lane == 0) flag = r;
    } else {
      if (lane == 0) while (flag < r) { }
      __syncwarp();
      __threadfence_block();
      int v = ((volatile int*)data)[(lane + w) % 32];
      out[(r * (nw - 1) + (w - 1)) * 32 + lane] = v;
      __syncwarp();
      if (lane == 0) atomicAdd((int*)&acks, 1);
    }
  }
}

int main() {
  const int rounds = 20, threads = 128, nw = threads / 32;
  std::vector<int> in(rounds * 32);
  for (int i = 0; i < (int)in.size(); ++i) in[i] = i * 3 + 1;
  int *din, *dout;
  CHECK(cudaMalloc(&din, in.size() * sizeof(int)));
  CHECK(cudaMalloc(&dout, rounds * (nw - 1) * 32 * sizeof(int)));
  CHECK(cudaMemcpy(din, in.data(), in.size() * sizeof(int), cudaMemcpyHostToDevice));
  pc<<<1, threads>>>(din, dout, rounds);
  CHECK_KERNEL();
  std::vector<int> o(rounds * (nw - 1) * 32);
  CHECK(cudaMemcpy(o.data(), dout, o.size() * sizeof(int), cudaMemcpyDeviceToHost));
  for (int r = 0; r < rounds; ++r)
    for (int w = 1; w < nw; ++w)
      for (int l = 0; l < 32; ++l) {
        int i = (r * (nw - 1) + (w - 1)) * 32 + l;
        EXPECT_EQ(o[i], in[r * 32 + (l + w) % 32] * (r + 1), "consumed", i);
      }
  CHECK(cudaFree(din)); CHECK(cudaFree(dout));
  return wf::finish();
}

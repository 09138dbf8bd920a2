// WF-CHAPTER: sync
// WF-FEATURES: sync.syncwarp, sync.syncwarp.partial_mask, mem.shared.static
// WF-DESCRIPTION: __syncwarp orders shared-memory exchange inside a warp (full mask), and among a subset of lanes in a branch (partial masks)
#include "../common/check.h"
#include <vector>

__global__ void warp_shared_reduce(const int* in, int* out) {
  __shared__ int s[256];
  int t = threadIdx.x, lane = t % 32, w = t / 32;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncwarp();
  for (int off = 16; off > 0; off >>= 1) {
    int v = 0;
    if (lane < off) v = s[t + off];
    __syncwarp();  // reads of this step before writes of this step
    if (lane < off) s[t] += v;
    __syncwarp();  // writes before next step's reads
  }
  if (lane == 0) out[blockIdx.x * 8 + w] = s[t];
}

__global__ void half_warps(const int* in, int* out) {
  __shared__ int s[32];
  int lane = threadIdx.x;
  int v = in[lane];
  if (lane < 16) {
    s[lane] = v * 2;
    __syncwarp(0x0000ffffu);
    out[lane] = s[15 - lane] + s[(lane + 1) % 16];
  } else {
    s[lane] = v * 3;
    __syncwarp(0xffff0000u);
    out[lane] = s[47 - lane] - s[16 + (lane + 1) % 16];
  }
  // odd lanes only
  __syncwarp();
  if (lane & 1) {
    s[lane] = lane * 100;
    __syncwarp(0xaaaaaaaau);
    out[32 + lane] = s[(lane + 2) % 32];  // another odd lane's write
  }
}

int main() {
  const int blocks = 3, threads = 256;
  std::vector<int> in(blocks * threads);
  for (int i = 0; i < (int)in.size(); ++i) in[i] = (i * 37) % 1001 - 300;
  int *din, *dout;
  CHECK(cudaMalloc(&din, in.size() * sizeof(int)));
  CHECK(cudaMalloc(&dout, 64 * sizeof(int)));
  CHECK(cudaMemcpy(din, in.data(), in.size() * sizeof(int), cudaMemcpyHostToDevice));
  warp_shared_reduce<<<blocks, threads>>>(din, dout);
  CHECK_KERNEL();
  std::vector<int> o(64);
  CHECK(cudaMemcpy(o.data(), dout, blocks * 8 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int w = 0; w < blocks * 8; ++w) {
    int s = 0;
    for (int l = 0; l < 32; ++l) s += in[w * 32 + l];
    EXPECT_EQ(o[w], s, "warp reduce", w);
  }
  half_warps<<<1, 32>>>(din, dout);
  CHECK_KERNEL();
  CHECK(cudaMemcpy(o.data(), dout, 64 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int l = 0; l < 32; ++l) {
    int want = l < 16 ? in[15 - l] * 2 + in[(l + 1) % 16] * 2 : in[47 - l] * 3 - in[16 + (l + 1) % 16] * 3;
    EXPECT_EQ(o[l], want, "half warps", l);
    if (l & 1) EXPECT_EQ(o[32 + l], ((l + 2) % 32) * 100, "odd lanes", l);
  }
  CHECK(cudaFree(din)); CHECK(cudaFree(dout));
  return wf::finish();
}

// WF-CHAPTER: warp
// WF-FEATURES: warp.divergence, warp.vote.ballot, warp.shfl.partial_mask, th.simt.divergent_loops
// WF-DESCRIPTION: nested divergent branches, lane-dependent loop trip counts, switch statements and early returns inside a warp; explicit masks from __ballot_sync drive shuffles inside the branches
#include "../common/check.h"
#include <vector>

__device__ __noinline__ int collatz_steps(unsigned x) {
  int s = 0;
  while (x != 1) { x = (x & 1) ? 3 * x + 1 : x / 2; ++s; }
  return s;
}

__global__ void diverge(const int* in, int* out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32;
  int v = in[g];
  int r = 0;
  unsigned even = __ballot_sync(0xffffffffu, (v & 1) == 0);
  if ((v & 1) == 0) {
    // leader of the even lanes broadcasts its value to the even lanes only
    int leader = __ffs(even) - 1;
    r = __shfl_sync(even, v, leader);
    if (v % 4 == 0) {
      r += 1000;
      if (lane > 16) r += 7;
    } else {
      r -= 1000;
    }
  } else {
    switch (v % 5) {
      case 0: r = 1; break;
      case 1: r = 11; [[fallthrough]];
      case 2: r += 22; break;
      case 3: for (int k = 0; k < lane; ++k) r += k; break;
      default: r = -v;
    }
  }
  r += collatz_steps((unsigned)(v & 1023) + 1);  // lane-dependent trip count
  // reconverged: a full-warp operation must see every lane again
  int total = __reduce_add_sync(0xffffffffu, 1);
  out[g] = r * 100 + total;
}

int main() {
  const int n = 256;
  std::vector<int> in(n);
  wf::Rng rng(5);
  for (auto& x : in) x = (int)(rng.next() % 100000);
  int *din, *dout;
  CHECK(cudaMalloc(&din, n * sizeof(int)));
  CHECK(cudaMalloc(&dout, n * sizeof(int)));
  CHECK(cudaMemcpy(din, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  diverge<<<2, 128>>>(din, dout);
  CHECK_KERNEL();
  std::vector<int> o(n);
  CHECK(cudaMemcpy(o.data(), dout, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int g = 0; g < n; ++g) {
    int w = g / 32, lane = g % 32, v = in[g], r = 0;
    if ((v & 1) == 0) {
      int leader = -1;
      for (int l = 0; l < 32; ++l) if ((in[w * 32 + l] & 1) == 0) { leader = l; break; }
      r = in[w * 32 + leader];
      if (v % 4 == 0) { r += 1000; if (lane > 16) r += 7; } else r -= 1000;
    } else {
      switch (v % 5) {
        case 0: r = 1; break;
        case 1: r = 11; [[fallthrough]];
        case 2: r += 22; break;
        case 3: for (int k = 0; k < lane; ++k) r += k; break;
        default: r = -v;
      }
    }
    unsigned x = (unsigned)(v & 1023) + 1;
    int s = 0;
    while (x != 1) { x = (x & 1) ? 3 * x + 1 : x / 2; ++s; }
    r += s;
    EXPECT_EQ(o[g], r * 100 + 32, "divergent result", g);
  }
  CHECK(cudaFree(din)); CHECK(cudaFree(dout));
  return wf::finish();
}

// WF-CHAPTER: warp
// WF-FEATURES: warp.reduce.add, warp.reduce.minmax, warp.reduce.bitwise, warp.reduce.partial_mask
// WF-DESCRIPTION: __reduce_add/min/max_sync on int and unsigned (signedness matters) and __reduce_and/or/xor_sync (compute capability 8.0+), full and partial masks, several warps
#include "../common/check.h"
#include <algorithm>
#include <vector>

__device__ int val(int g) { return (int)((g * 2654435761u) >> 7) - (1 << 24); }

__global__ void red(int* out) {
  int g = threadIdx.x + blockIdx.x * blockDim.x, lane = threadIdx.x % 32;
  int v = val(g);
  unsigned u = (unsigned)v;
  int* o = out + g * 10;
  o[0] = __reduce_add_sync(0xffffffffu, v);
  o[1] = __reduce_min_sync(0xffffffffu, v);
  o[2] = __reduce_max_sync(0xffffffffu, v);
  o[3] = (int)__reduce_add_sync(0xffffffffu, u);
  o[4] = (int)__reduce_min_sync(0xffffffffu, u);
  o[5] = (int)__reduce_max_sync(0xffffffffu, u);
  o[6] = (int)__reduce_and_sync(0xffffffffu, u | 0x80000001u);
  o[7] = (int)__reduce_or_sync(0xffffffffu, u & 0x00ff00ffu);
  o[8] = (int)__reduce_xor_sync(0xffffffffu, u);
  o[9] = 0;
  if (lane & 1) o[9] = __reduce_add_sync(0xaaaaaaaau, v);  // odd lanes only
}

static int hval(int g) { return (int)((g * 2654435761u) >> 7) - (1 << 24); }

int main() {
  const int blocks = 2, threads = 96, N = blocks * threads;
  int* d;
  CHECK(cudaMalloc(&d, N * 10 * sizeof(int)));
  red<<<blocks, threads>>>(d);
  CHECK_KERNEL();
  std::vector<int> h(N * 10);
  CHECK(cudaMemcpy(h.data(), d, h.size() * sizeof(int), cudaMemcpyDeviceToHost));
  for (int w = 0; w < N / 32; ++w) {
    int add = 0, mn = 0x7fffffff, mx = (int)0x80000000, oddsum = 0;
    unsigned uadd = 0, umn = ~0u, umx = 0, a = ~0u, o = 0, x = 0;
    for (int l = 0; l < 32; ++l) {
      int v = hval(w * 32 + l); unsigned u = (unsigned)v;
      add += v; mn = std::min(mn, v); mx = std::max(mx, v);
      uadd += u; umn = std::min(umn, u); umx = std::max(umx, u);
      a &= u | 0x80000001u; o |= u & 0x00ff00ffu; x ^= u;
      if (l & 1) oddsum += v;
    }
    for (int l = 0; l < 32; ++l) {
      int g = w * 32 + l;
      const int* r = &h[g * 10];
      EXPECT_EQ(r[0], add, "add int", g); EXPECT_EQ(r[1], mn, "min int", g); EXPECT_EQ(r[2], mx, "max int", g);
      EXPECT_EQ((unsigned)r[3], uadd, "add unsigned", g); EXPECT_EQ((unsigned)r[4], umn, "min unsigned", g);
      EXPECT_EQ((unsigned)r[5], umx, "max unsigned", g);
      EXPECT_EQ((unsigned)r[6], a, "and", g); EXPECT_EQ((unsigned)r[7], o, "or", g); EXPECT_EQ((unsigned)r[8], x, "xor", g);
      EXPECT_EQ(r[9], (l & 1) ? oddsum : 0, "partial add", g);
    }
  }
  return wf::finish();
}

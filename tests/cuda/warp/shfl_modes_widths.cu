// WF-CHAPTER: warp
// WF-FEATURES: warp.shfl.idx, warp.shfl.up, warp.shfl.down, warp.shfl.xor, warp.shfl.width
// WF-DESCRIPTION: __shfl_sync/__shfl_up_sync/__shfl_down_sync/__shfl_xor_sync for every width 1..32 and many lane arguments, checked against the guide's rules (source modulo width; no wrap for up/down; xor into later groups returns own value)
#include "../common/check.h"
#include <vector>

#define NARGS 12
__constant__ int args[NARGS] = {0, 1, 2, 3, 5, 7, 8, 13, 16, 31, 33, 63};

__global__ void shuffles(int* out) {
  int lane = threadIdx.x % 32, w = threadIdx.x / 32;  // warp w uses width 1 << w
  int width = 1 << w;
  int v = lane * 1000 + w * 7 + 3;
  for (int a = 0; a < NARGS; ++a) {
    int arg = args[a];
    int* o = out + ((w * NARGS + a) * 32 + lane) * 4;
    o[0] = __shfl_sync(0xffffffffu, v, arg, width);
    o[1] = __shfl_up_sync(0xffffffffu, v, (unsigned)(arg & 31), width);
    o[2] = __shfl_down_sync(0xffffffffu, v, (unsigned)(arg & 31), width);
    o[3] = __shfl_xor_sync(0xffffffffu, v, arg & 31, width);
  }
}

// Default width (warpSize) and a lane-dependent source index.
__global__ void per_lane_source(int* out) {
  int lane = threadIdx.x;
  int v = lane * lane;
  out[lane] = __shfl_sync(0xffffffffu, v, (lane * 5 + 3) % 32);
  out[32 + lane] = __shfl_down_sync(0xffffffffu, v, 1);  // the guide's scan/reduce building block
  int s = lane + 1;
  for (int off = 16; off > 0; off /= 2) s += __shfl_xor_sync(0xffffffffu, s, off);
  out[64 + lane] = s;  // butterfly: every lane has the total
}

int main() {
  const int hargs[NARGS] = {0, 1, 2, 3, 5, 7, 8, 13, 16, 31, 33, 63};
  int* d;
  CHECK(cudaMalloc(&d, 6 * NARGS * 32 * 4 * sizeof(int)));
  shuffles<<<1, 6 * 32>>>(d);
  CHECK_KERNEL();
  std::vector<int> h(6 * NARGS * 32 * 4);
  CHECK(cudaMemcpy(h.data(), d, h.size() * sizeof(int), cudaMemcpyDeviceToHost));
  for (int w = 0; w < 6; ++w) {
    int width = 1 << w;
    auto val = [&](int l) { return l * 1000 + w * 7 + 3; };
    for (int a = 0; a < NARGS; ++a)
      for (int l = 0; l < 32; ++l) {
        int arg = hargs[a], seg = l & ~(width - 1), idx = (w * NARGS + a) * 32 + l;
        const int* o = &h[idx * 4];
        EXPECT_EQ(o[0], val(seg + arg % width), "shfl idx", idx);
        int d_ = arg & 31;
        EXPECT_EQ(o[1], (l - d_ >= seg) ? val(l - d_) : val(l), "shfl up", idx);
        EXPECT_EQ(o[2], (l + d_ < seg + width) ? val(l + d_) : val(l), "shfl down", idx);
        int x = l ^ d_;
        EXPECT_EQ(o[3], (x < seg + width) ? val(x) : val(l), "shfl xor", idx);
      }
  }
  per_lane_source<<<1, 32>>>(d);
  CHECK_KERNEL();
  CHECK(cudaMemcpy(h.data(), d, 96 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int l = 0; l < 32; ++l) {
    int s = (l * 5 + 3) % 32;
    EXPECT_EQ(h[l], s * s, "lane-dependent source", l);
    EXPECT_EQ(h[32 + l], l < 31 ? (l + 1) * (l + 1) : l * l, "down by one", l);
    EXPECT_EQ(h[64 + l], 32 * 33 / 2, "butterfly sum", l);
  }
  return wf::finish();
}

// WF-CHAPTER: warp
// WF-FEATURES: warp.activemask, warp.exited_lanes
// WF-DESCRIPTION: __activemask: exited lanes and lanes beyond the block size are never set, the calling lane always is, converged full warps report 0xffffffff; ballots after early exits name only live lanes
#include "../common/check.h"
#include <algorithm>
#include <vector>

__global__ void masks(unsigned* out, int exit_from) {
  int lane = threadIdx.x % 32, t = threadIdx.x;
  out[t * 3 + 0] = __activemask();  // at kernel entry
  if (lane >= exit_from) return;     // these lanes exit
  unsigned m = __activemask();
  out[t * 3 + 1] = m;
  // Exited lanes are excluded from the vote even when the mask names them (guide: non-exited threads).
  out[t * 3 + 2] = __ballot_sync(m, 1);
}

int main() {
  const int cases[][2] = {{64, 32}, {64, 20}, {40, 32}, {40, 5}, {1, 32}};
  unsigned* d;
  CHECK(cudaMalloc(&d, 64 * 3 * sizeof(unsigned)));
  for (auto& c : cases) {
    int threads = c[0], exit_from = c[1];
    CHECK(cudaMemset(d, 0, 64 * 3 * sizeof(unsigned)));
    masks<<<1, threads>>>(d, exit_from);
    CHECK_KERNEL();
    std::vector<unsigned> h(64 * 3);
    CHECK(cudaMemcpy(h.data(), d, h.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (int t = 0; t < threads; ++t) {
      int lane = t % 32, wbase = t - lane;
      int lanes_in_warp = std::min(32, threads - wbase);
      unsigned exist = lanes_in_warp == 32 ? 0xffffffffu : ((1u << lanes_in_warp) - 1);
      unsigned live = exist & (exit_from >= 32 ? 0xffffffffu : ((1u << exit_from) - 1));
      int idx = threads * 1000 + exit_from * 100 + t;
      unsigned entry = h[t * 3];
      EXPECT_TRUE((entry & ~exist) == 0 && (entry >> lane & 1), "entry mask within existing lanes and has self");
      if (lane < exit_from) {
        unsigned m = h[t * 3 + 1];
        if (!((m & ~live) == 0 && (m >> lane & 1))) EXPECT_EQ(m, live, "mask after exit: live lanes only", idx);
        EXPECT_EQ(h[t * 3 + 2] & ~live, 0u, "ballot after exit names only live lanes", idx);
        EXPECT_TRUE(h[t * 3 + 2] >> lane & 1, "ballot has self");
      }
    }
    // Converged entry: the whole existing warp is active on real hardware.
    EXPECT_EQ(h[0], threads >= 32 ? 0xffffffffu : ((1u << threads) - 1), "converged entry mask", threads);
  }
  return wf::finish();
}

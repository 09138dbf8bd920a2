// WF-CHAPTER: coop_groups
// WF-FEATURES: cg.coalesced, cg.coalesced.collectives, cg.reduce
// WF-DESCRIPTION: coalesced_threads() inside divergent branches: size equals the lanes taking the branch, thread_rank is the rank among them, shfl by rank, ballot/any/all, sync, and a warp-aggregated atomic increment
#include "../common/check.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <vector>
namespace cg = cooperative_groups;

// The classic warp-aggregated atomic: one atomicAdd per coalesced group.
__device__ int aggregated_inc(int* counter) {
  cg::coalesced_group g = cg::coalesced_threads();
  int prev = 0;
  if (g.thread_rank() == 0) prev = atomicAdd(counter, (int)g.size());
  return g.shfl(prev, 0) + g.thread_rank();
}

__global__ void branches(const int* sel, int* out, int* counter, int* tickets) {
  int lane = threadIdx.x % 32, v = sel[threadIdx.x];
  int* o = out + threadIdx.x * 8;
  for (int k = 0; k < 8; ++k) o[k] = -1;
  __syncwarp();
  if (v) {
    cg::coalesced_group g = cg::coalesced_threads();
    o[0] = g.size();
    o[1] = g.thread_rank();
    o[2] = g.shfl(lane, g.size() - 1);                 // the highest participating lane
    o[3] = (int)g.ballot(lane % 2 == 0);               // bits indexed by rank in the group
    o[4] = g.any(lane == 31);
    o[5] = g.all(lane >= 0);
    g.sync();
    o[6] = cg::reduce(g, lane, cg::plus<int>());
    o[7] = g.num_threads();
  }
  tickets[threadIdx.x] = (v ? aggregated_inc(counter) : -1);
}

int main() {
  const int threads = 64;
  std::vector<int> sel(threads);
  for (int t = 0; t < threads; ++t) sel[t] = (t < 32) ? ((t * 7) % 3 == 0) : (t % 5 != 0);
  int *ds, *d, *c, *tk;
  CHECK(cudaMalloc(&ds, threads * 4)); CHECK(cudaMalloc(&d, threads * 8 * 4)); CHECK(cudaMalloc(&c, 4)); CHECK(cudaMalloc(&tk, threads * 4));
  CHECK(cudaMemcpy(ds, sel.data(), threads * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(c, 0, 4));
  branches<<<1, threads>>>(ds, d, c, tk);
  CHECK_KERNEL();
  std::vector<int> h(threads * 8), ht(threads);
  int hc;
  CHECK(cudaMemcpy(h.data(), d, h.size() * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ht.data(), tk, threads * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&hc, c, 4, cudaMemcpyDeviceToHost));
  int total = 0;
  for (int w = 0; w < threads / 32; ++w) {
    std::vector<int> lanes;
    for (int l = 0; l < 32; ++l) if (sel[w * 32 + l]) lanes.push_back(l);
    total += (int)lanes.size();
    unsigned bal = 0; int any31 = 0, sum = 0;
    for (size_t k = 0; k < lanes.size(); ++k) { if (lanes[k] % 2 == 0) bal |= 1u << k; any31 |= lanes[k] == 31; sum += lanes[k]; }
    for (size_t k = 0; k < lanes.size(); ++k) {
      int x = w * 32 + lanes[k];
      const int* o = &h[x * 8];
      EXPECT_EQ(o[0], (int)lanes.size(), "coalesced size", x);
      EXPECT_EQ(o[1], (int)k, "coalesced rank", x);
      EXPECT_EQ(o[2], lanes.back(), "shfl by rank", x);
      EXPECT_EQ((unsigned)o[3], bal, "ballot by rank", x);
      EXPECT_EQ(o[4] != 0, any31 != 0, "any", x);
      EXPECT_EQ(o[5] != 0, true, "all", x);
      EXPECT_EQ(o[6], sum, "reduce over coalesced group", x);
      EXPECT_EQ(o[7], (int)lanes.size(), "num_threads", x);
    }
  }
  EXPECT_EQ(hc, total, "aggregated counter", 0);
  std::vector<int> seen(total, 0);
  for (int t = 0; t < threads; ++t) {
    if (!sel[t]) { EXPECT_EQ(ht[t], -1, "no ticket", t); continue; }
    if (ht[t] >= 0 && ht[t] < total) seen[ht[t]]++;
    else EXPECT_TRUE(false, "ticket in range");
  }
  for (int i = 0; i < total; ++i) EXPECT_EQ(seen[i], 1, "ticket unique", i);
  return wf::finish();
}

// WF-CHAPTER: coop_groups
// WF-FEATURES: cg.partition.labeled, cg.partition.binary, cg.coalesced.collectives
// WF-DESCRIPTION: labeled_partition and binary_partition (compute capability 7.0+) of a warp tile and of a coalesced group: group sizes, ranks and shuffles inside each label
#include "../common/check.h"
#include <cooperative_groups.h>
#include <vector>
namespace cg = cooperative_groups;

__global__ void parts(const int* labels, int* out) {
  auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  int lane = warp.thread_rank(), label = labels[threadIdx.x];
  cg::coalesced_group lg = cg::labeled_partition(warp, label);
  out[threadIdx.x * 6 + 0] = lg.size();
  out[threadIdx.x * 6 + 1] = lg.thread_rank();
  out[threadIdx.x * 6 + 2] = lg.shfl(lane, 0);  // lowest lane with my label
  cg::thread_block_tile<32> w2 = warp;
  cg::coalesced_group bg = cg::binary_partition(w2, lane >= label);
  out[threadIdx.x * 6 + 3] = bg.size();
  out[threadIdx.x * 6 + 4] = bg.thread_rank();
  out[threadIdx.x * 6 + 5] = 0;
  if (lane % 2) {  // partition a coalesced group (odd lanes) by label
    cg::coalesced_group odd = cg::coalesced_threads();
    cg::coalesced_group sub = cg::labeled_partition(odd, label);
    out[threadIdx.x * 6 + 5] = sub.size() * 100 + sub.thread_rank();
  }
}

int main() {
  const int threads = 64;
  std::vector<int> lab(threads);
  for (int t = 0; t < threads; ++t) lab[t] = (t * 5 + t / 32) % 7;
  int *dl, *d;
  CHECK(cudaMalloc(&dl, threads * 4)); CHECK(cudaMalloc(&d, threads * 6 * 4));
  CHECK(cudaMemcpy(dl, lab.data(), threads * 4, cudaMemcpyHostToDevice));
  parts<<<1, threads>>>(dl, d);
  CHECK_KERNEL();
  std::vector<int> h(threads * 6);
  CHECK(cudaMemcpy(h.data(), d, h.size() * 4, cudaMemcpyDeviceToHost));
  for (int t = 0; t < threads; ++t) {
    int w = t / 32, lane = t % 32;
    int size = 0, rank = 0, first = -1, bsize = 0, brank = 0, osize = 0, orank = 0;
    bool bp = lane >= lab[t];
    for (int l = 0; l < 32; ++l) {
      int o = w * 32 + l;
      if (lab[o] == lab[t]) { if (first < 0) first = l; ++size; if (l < lane) ++rank; }
      if ((l >= lab[o]) == bp) { ++bsize; if (l < lane) ++brank; }
      if ((l % 2) && lab[o] == lab[t]) { ++osize; if (l < lane) ++orank; }
    }
    EXPECT_EQ(h[t * 6 + 0], size, "labeled size", t);
    EXPECT_EQ(h[t * 6 + 1], rank, "labeled rank", t);
    EXPECT_EQ(h[t * 6 + 2], first, "labeled shfl from rank 0", t);
    EXPECT_EQ(h[t * 6 + 3], bsize, "binary size", t);
    EXPECT_EQ(h[t * 6 + 4], brank, "binary rank", t);
    EXPECT_EQ(h[t * 6 + 5], (lane % 2) ? osize * 100 + orank : 0, "labeled partition of coalesced group", t);
  }
  return wf::finish();
}

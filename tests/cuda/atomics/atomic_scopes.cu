// WF-CHAPTER: atomics
// WF-FEATURES: atomics.scope.block, atomics.scope.system, mem.managed.malloc, atomics.add.int.global, atomics.cas.int.global
// WF-DESCRIPTION: scoped legacy atomics: atomicAdd_block/atomicCAS_block/atomicExch_block/atomicMax_block on per-block data, atomicAdd_system/atomicOr_system on device memory and on managed memory (as in the guide's example)
#include "../common/check.h"
#include <vector>

__global__ void scoped(int* per_block, int* dev_total, unsigned* host_mapped, int* cas_winner, int* ex) {
  int t = threadIdx.x, b = blockIdx.x;
  atomicAdd_block(&per_block[b * 4 + 0], t);
  atomicMax_block(&per_block[b * 4 + 1], t * 3);
  atomicCAS_block(&per_block[b * 4 + 2], 0, t + 1) == 0 ? atomicAdd_block(&cas_winner[b], 1) : 0;
  atomicExch_block(&ex[b], t);
  atomicSub_block(&per_block[b * 4 + 3], 2);
  atomicAdd_system(dev_total, 1);
  atomicOr_system(&host_mapped[b % 2], 1u << (t % 32));
  atomicAdd_system(&host_mapped[2], 1u);
}

int main() {
  const int blocks = 6, threads = 160;
  int *pb, *tot, *cw, *ex;
  unsigned *hm, *dhm;
  CHECK(cudaMalloc(&pb, blocks * 16)); CHECK(cudaMalloc(&tot, 4)); CHECK(cudaMalloc(&cw, blocks * 4)); CHECK(cudaMalloc(&ex, blocks * 4));
  CHECK(cudaMemset(pb, 0, blocks * 16)); CHECK(cudaMemset(tot, 0, 4)); CHECK(cudaMemset(cw, 0, blocks * 4)); CHECK(cudaMemset(ex, 0xff, blocks * 4));
  CHECK(cudaMallocManaged(&hm, 3 * sizeof(unsigned)));
  hm[0] = hm[1] = hm[2] = 0;
  dhm = hm;
  scoped<<<blocks, threads>>>(pb, tot, dhm, cw, ex);
  CHECK_KERNEL();
  std::vector<int> h(blocks * 4), hc(blocks), he(blocks);
  int ht;
  CHECK(cudaMemcpy(h.data(), pb, blocks * 16, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hc.data(), cw, blocks * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(he.data(), ex, blocks * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&ht, tot, 4, cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) {
    EXPECT_EQ(h[b * 4 + 0], threads * (threads - 1) / 2, "atomicAdd_block", b);
    EXPECT_EQ(h[b * 4 + 1], (threads - 1) * 3, "atomicMax_block", b);
    EXPECT_TRUE(h[b * 4 + 2] >= 1 && h[b * 4 + 2] <= threads, "atomicCAS_block winner stored");
    EXPECT_EQ(hc[b], 1, "one atomicCAS_block winner", b);
    EXPECT_TRUE(he[b] >= 0 && he[b] < threads, "atomicExch_block value");
    EXPECT_EQ(h[b * 4 + 3], -2 * threads, "atomicSub_block", b);
  }
  EXPECT_EQ(ht, blocks * threads, "atomicAdd_system on device memory", 0);
  EXPECT_EQ(hm[0], 0xffffffffu, "atomicOr_system on managed memory", 0);
  EXPECT_EQ(hm[1], 0xffffffffu, "atomicOr_system on managed memory", 1);
  EXPECT_EQ(hm[2], (unsigned)(blocks * threads), "atomicAdd_system on managed memory", 2);
  CHECK(cudaFree(hm));
  return wf::finish();
}

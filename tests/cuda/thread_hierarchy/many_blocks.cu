// WF-CHAPTER: thread_hierarchy
// WF-FEATURES: th.many_blocks, th.block.independence, atomics.add.int.global
// WF-DESCRIPTION: many more blocks than cores (up to 1501 blocks of 32..64 threads); every block runs exactly once, in any order
#include "../common/check.h"
#include <vector>

// Each block claims a ticket; tickets must form a permutation of 0..nblocks-1 and every
// block must see its own shared memory freshly (no state leaks between blocks on one core).
__global__ void blocks(int* seen, int* ticket_of_block, int* counter, int* stale) {
  __shared__ int sh[64];
  if (threadIdx.x == 0) {
    ticket_of_block[blockIdx.x] = atomicAdd(counter, 1);
  }
  sh[threadIdx.x] = blockIdx.x * 64 + threadIdx.x;
  __syncthreads();
  int partner = (threadIdx.x + 1) % blockDim.x;
  if (sh[partner] != (int)(blockIdx.x * 64 + partner)) atomicAdd(stale, 1);
  atomicAdd(&seen[blockIdx.x], 1);
}

int main() {
  const int configs[][2] = {{1501, 32}, {700, 64}, {213, 33}};
  for (auto& c : configs) {
    int nb = c[0], nt = c[1];
    int *seen, *tick, *counter, *stale;
    CHECK(cudaMalloc(&seen, nb * sizeof(int)));
    CHECK(cudaMalloc(&tick, nb * sizeof(int)));
    CHECK(cudaMalloc(&counter, sizeof(int)));
    CHECK(cudaMalloc(&stale, sizeof(int)));
    CHECK(cudaMemset(seen, 0, nb * sizeof(int)));
    CHECK(cudaMemset(counter, 0, sizeof(int)));
    CHECK(cudaMemset(stale, 0, sizeof(int)));
    blocks<<<nb, nt>>>(seen, tick, counter, stale);
    CHECK_KERNEL();
    std::vector<int> hs(nb), ht(nb);
    int hc, hst;
    CHECK(cudaMemcpy(hs.data(), seen, nb * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(ht.data(), tick, nb * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&hc, counter, sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&hst, stale, sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT_EQ(hc, nb, "block counter", 0);
    EXPECT_EQ(hst, 0, "stale shared reads", 0);
    std::vector<int> used(nb, 0);
    for (int b = 0; b < nb; ++b) {
      EXPECT_EQ(hs[b], nt, "threads seen in block", b);
      if (ht[b] >= 0 && ht[b] < nb) used[ht[b]]++;
      else EXPECT_TRUE(false, "ticket in range");
    }
    for (int b = 0; b < nb; ++b) EXPECT_EQ(used[b], 1, "ticket used once", b);
    CHECK(cudaFree(seen)); CHECK(cudaFree(tick)); CHECK(cudaFree(counter)); CHECK(cudaFree(stale));
  }
  return wf::finish();
}

// WF-CHAPTER: coop_groups
// WF-FEATURES: cg.tile.static, cg.tile.shfl, cg.tile.vote, cg.tile.match, cg.tile.meta_group, cg.sync
// WF-DESCRIPTION: thread_block_tile<N> from tiled_partition<N> for N = 1, 2, 4, 8, 16, 32: rank/size/meta_group_rank/meta_group_size, shfl/shfl_up/shfl_down/shfl_xor, any/all/ballot, match_any/match_all, sync
#include "../common/check.h"
#include <cooperative_groups.h>
#include <vector>
namespace cg = cooperative_groups;

constexpr int K = 14;  // results per thread per tile size

template <int N>
__device__ void probe(int* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<N> t = cg::tiled_partition<N>(block);
  int r = t.thread_rank(), v = threadIdx.x * 3 + 1;
  int* o = out + threadIdx.x * K;
  o[0] = t.size();
  o[1] = r;
  o[2] = t.meta_group_rank();
  o[3] = t.meta_group_size();
  o[4] = t.shfl(v, (r + 1) % N);
  o[5] = t.shfl_up(v, 1);
  o[6] = t.shfl_down(v, N > 2 ? 2 : 1);
  o[7] = t.shfl_xor(v, N / 2 > 0 ? N / 2 : 0);
  o[8] = t.any(r == N - 1 && (threadIdx.x % 3 == 0));
  o[9] = t.all(v > 0);
  o[10] = (int)t.ballot(r % 2 == 0);
  o[11] = (int)t.match_any(r / 2);
  int pred;
  o[12] = (int)t.match_all(7, pred) != 0 && pred;
  t.sync();
  o[13] = t.num_threads();
}

template <int N>
__global__ void tile_kernel(int* out) { probe<N>(out); }

template <int N>
void check(int threads) {
  int* d;
  CHECK(cudaMalloc(&d, threads * K * sizeof(int)));
  tile_kernel<N><<<1, threads>>>(d);
  CHECK_KERNEL();
  std::vector<int> h(threads * K);
  CHECK(cudaMemcpy(h.data(), d, h.size() * sizeof(int), cudaMemcpyDeviceToHost));
  for (int x = 0; x < threads; ++x) {
    const int* o = &h[x * K];
    int r = x % N, base = x - r, idx = N * 10000 + x;
    auto v = [](int tid) { return tid * 3 + 1; };
    EXPECT_EQ(o[0], N, "size", idx);
    EXPECT_EQ(o[1], r, "thread_rank", idx);
    EXPECT_EQ(o[2], x / N, "meta_group_rank", idx);
    EXPECT_EQ(o[3], threads / N, "meta_group_size", idx);
    EXPECT_EQ(o[4], v(base + (r + 1) % N), "shfl", idx);
    EXPECT_EQ(o[5], r >= 1 ? v(x - 1) : v(x), "shfl_up", idx);
    int dd = N > 2 ? 2 : 1;
    EXPECT_EQ(o[6], r + dd < N ? v(x + dd) : v(x), "shfl_down", idx);
    EXPECT_EQ(o[7], v(base + (r ^ (N / 2))), "shfl_xor", idx);
    EXPECT_EQ(o[8] != 0, ((base + N - 1) % 3 == 0), "any", idx);
    EXPECT_EQ(o[9] != 0, true, "all", idx);
    unsigned bal = 0;
    for (int k = 0; k < N; k += 2) bal |= 1u << k;
    EXPECT_EQ((unsigned)o[10], bal, "ballot (tile-relative bits)", idx);
    unsigned m = 0;
    for (int k = 0; k < N; ++k) if (k / 2 == r / 2) m |= 1u << k;
    EXPECT_EQ((unsigned)o[11], m, "match_any (tile-relative bits)", idx);
    EXPECT_EQ(o[12], 1, "match_all", idx);
    EXPECT_EQ(o[13], N, "num_threads", idx);
  }
  CHECK(cudaFree(d));
}

int main() {
  check<1>(64);
  check<2>(64);
  check<4>(96);
  check<8>(128);
  check<16>(64);
  check<32>(128);
  return wf::finish();
}

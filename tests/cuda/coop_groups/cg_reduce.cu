// WF-CHAPTER: coop_groups
// WF-FEATURES: cg.reduce, cg.tile.static
// WF-DESCRIPTION: cooperative_groups::reduce over thread_block_tile<4/8/16/32> with plus, less, greater, bit_and, bit_or, bit_xor on int and unsigned, and plus on float with exactly representable values
#include "../common/check.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <algorithm>
#include <vector>
namespace cg = cooperative_groups;

__device__ int val(int x) { return (int)((x * 2654435761u) >> 9) - (1 << 22); }

template <int N>
__global__ void red(int* out, float* fout) {
  auto t = cg::tiled_partition<N>(cg::this_thread_block());
  int v = val(threadIdx.x);
  unsigned u = (unsigned)v;
  int* o = out + threadIdx.x * 6;
  o[0] = cg::reduce(t, v, cg::plus<int>());
  o[1] = cg::reduce(t, v, cg::less<int>());
  o[2] = cg::reduce(t, v, cg::greater<int>());
  o[3] = (int)cg::reduce(t, u, cg::bit_and<unsigned>());
  o[4] = (int)cg::reduce(t, u, cg::bit_or<unsigned>());
  o[5] = (int)cg::reduce(t, u, cg::bit_xor<unsigned>());
  fout[threadIdx.x] = cg::reduce(t, (float)(threadIdx.x % 13) * 0.5f, cg::plus<float>());
}

static int hval(int x) { return (int)((x * 2654435761u) >> 9) - (1 << 22); }

template <int N>
void run() {
  const int threads = 128;
  int* d; float* f;
  CHECK(cudaMalloc(&d, threads * 6 * 4)); CHECK(cudaMalloc(&f, threads * 4));
  red<N><<<1, threads>>>(d, f);
  CHECK_KERNEL();
  std::vector<int> h(threads * 6); std::vector<float> hf(threads);
  CHECK(cudaMemcpy(h.data(), d, h.size() * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hf.data(), f, threads * 4, cudaMemcpyDeviceToHost));
  for (int base = 0; base < threads; base += N) {
    int s = 0, mn = 0x7fffffff, mx = (int)0x80000000; unsigned a = ~0u, o = 0, x = 0; float fs = 0;
    for (int k = 0; k < N; ++k) {
      int v = hval(base + k); unsigned u = (unsigned)v;
      s += v; mn = std::min(mn, v); mx = std::max(mx, v); a &= u; o |= u; x ^= u; fs += (float)((base + k) % 13) * 0.5f;
    }
    for (int k = 0; k < N; ++k) {
      int t = base + k, idx = N * 1000 + t;
      const int* r = &h[t * 6];
      EXPECT_EQ(r[0], s, "plus", idx); EXPECT_EQ(r[1], mn, "less", idx); EXPECT_EQ(r[2], mx, "greater", idx);
      EXPECT_EQ((unsigned)r[3], a, "bit_and", idx); EXPECT_EQ((unsigned)r[4], o, "bit_or", idx); EXPECT_EQ((unsigned)r[5], x, "bit_xor", idx);
      EXPECT_EQ(hf[t], fs, "float plus", idx);
    }
  }
  CHECK(cudaFree(d)); CHECK(cudaFree(f));
}

int main() {
  run<4>(); run<8>(); run<16>(); run<32>();
  return wf::finish();
}

// WF-CHAPTER: warp
// WF-FEATURES: warp.shfl.types, warp.shfl.idx, warp.shfl.xor, warp.shfl.partial_mask, arith.half.conversions
// WF-DESCRIPTION: shuffles of every supported type (int, unsigned, long, unsigned long, long long, unsigned long long, float, double, __half, __half2) with 64-bit values split across registers, and shuffles among a subset of lanes
#include "../common/check.h"
#include <cuda_fp16.h>
#include <vector>

struct Out { int i; unsigned u; long l; unsigned long ul; long long ll; unsigned long long ull; float f; double d; float h; float h2a, h2b; };

__global__ void types(Out* out) {
  int lane = threadIdx.x;
  int src = (lane * 11 + 5) % 32;
  Out o;
  o.i = __shfl_sync(0xffffffffu, -lane * 3, src);
  o.u = __shfl_sync(0xffffffffu, 0x80000000u + lane, src);
  o.l = __shfl_xor_sync(0xffffffffu, (long)lane << 33 | 1, 5);
  o.ul = __shfl_xor_sync(0xffffffffu, ~0ul - lane, 17);
  o.ll = __shfl_sync(0xffffffffu, (long long)(0x123456789abcLL * (lane + 1)), src);
  o.ull = __shfl_down_sync(0xffffffffu, 0xfedcba9876543210ull ^ ((unsigned long long)lane << 40), 3);
  o.f = __shfl_up_sync(0xffffffffu, lane * 0.5f - 4.0f, 2);
  o.d = __shfl_sync(0xffffffffu, 1.0 / (lane + 1) + lane * 1e10, src);
  o.h = __half2float(__shfl_xor_sync(0xffffffffu, __float2half(lane * 0.25f), 1));
  __half2 h2 = __shfl_sync(0xffffffffu, __floats2half2_rn(lane, -lane * 2.0f), 31 - lane);
  o.h2a = __low2float(h2); o.h2b = __high2float(h2);
  out[lane] = o;
}

__global__ void subset(int* out) {
  int lane = threadIdx.x;
  out[lane] = -1;
  if (lane % 3 == 0) {  // lanes 0,3,...,30 take part; sources are taken among them only
    unsigned m = 0;
    for (int l = 0; l < 32; l += 3) m |= 1u << l;
    out[lane] = __shfl_sync(m, lane * 10, (lane + 3) % 33 == 32 ? 0 : (lane + 3) % 33);
  }
}

int main() {
  Out* d;
  CHECK(cudaMalloc(&d, 32 * sizeof(Out)));
  types<<<1, 32>>>(d);
  CHECK_KERNEL();
  std::vector<Out> h(32);
  CHECK(cudaMemcpy(h.data(), d, 32 * sizeof(Out), cudaMemcpyDeviceToHost));
  for (int l = 0; l < 32; ++l) {
    int s = (l * 11 + 5) % 32;
    EXPECT_EQ(h[l].i, -s * 3, "int", l);
    EXPECT_EQ(h[l].u, 0x80000000u + s, "unsigned", l);
    EXPECT_EQ(h[l].l, (long)(l ^ 5) << 33 | 1, "long", l);
    EXPECT_EQ(h[l].ul, ~0ul - (l ^ 17), "unsigned long", l);
    EXPECT_EQ(h[l].ll, (long long)(0x123456789abcLL * (s + 1)), "long long", l);
    int dn = l + 3 < 32 ? l + 3 : l;
    EXPECT_EQ(h[l].ull, 0xfedcba9876543210ull ^ ((unsigned long long)dn << 40), "unsigned long long", l);
    int up = l >= 2 ? l - 2 : l;
    EXPECT_EQ(h[l].f, up * 0.5f - 4.0f, "float", l);
    EXPECT_EQ(h[l].d, 1.0 / (s + 1) + s * 1e10, "double", l);
    EXPECT_EQ(h[l].h, (l ^ 1) * 0.25f, "half", l);
    EXPECT_EQ(h[l].h2a, (float)(31 - l), "half2 low", l);
    EXPECT_EQ(h[l].h2b, -(31 - l) * 2.0f, "half2 high", l);
  }
  int* di;
  CHECK(cudaMalloc(&di, 32 * sizeof(int)));
  subset<<<1, 32>>>(di);
  CHECK_KERNEL();
  int hi[32];
  CHECK(cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost));
  for (int l = 0; l < 32; ++l) {
    int want = -1;
    if (l % 3 == 0) { int s = (l + 3) % 33 == 32 ? 0 : (l + 3) % 33; want = s * 10; }
    EXPECT_EQ(hi[l], want, "subset shuffle", l);
  }
  return wf::finish();
}

// WF-CHAPTER: warp
// WF-FEATURES: warp.match.any, warp.match.all, warp.match.types
// WF-DESCRIPTION: __match_any_sync and __match_all_sync (compute capability 7.0+) on int, unsigned, long long, unsigned long long, float and double, with full and partial masks
#include "../common/check.h"
#include <vector>

struct R { unsigned any_i, any_u, any_ll, any_ull, any_f, any_d, all_same, all_diff, any_partial; int pred_same, pred_diff; };

__global__ void match(R* out) {
  int lane = threadIdx.x;
  R r;
  r.any_i = __match_any_sync(0xffffffffu, lane % 5);
  r.any_u = __match_any_sync(0xffffffffu, (unsigned)(lane / 8));
  r.any_ll = __match_any_sync(0xffffffffu, (long long)(lane % 3) << 40);       // differ only in the high word
  r.any_ull = __match_any_sync(0xffffffffu, 0xffffffff00000000ull | (lane & 6)); // differ only in the low word
  r.any_f = __match_any_sync(0xffffffffu, (lane & 1) ? 0.0f : -0.0f);           // bitwise: +0 and -0 differ
  r.any_d = __match_any_sync(0xffffffffu, (double)(lane < 10));
  int p1, p2;
  r.all_same = __match_all_sync(0xffffffffu, 42, &p1);
  r.all_diff = __match_all_sync(0xffffffffu, lane == 7 ? 1 : 0, &p2);
  r.pred_same = p1; r.pred_diff = p2;
  r.any_partial = 0;
  if (lane >= 16) r.any_partial = __match_any_sync(0xffff0000u, lane % 4);
  out[lane] = r;
}

int main() {
  R* d;
  CHECK(cudaMalloc(&d, 32 * sizeof(R)));
  match<<<1, 32>>>(d);
  CHECK_KERNEL();
  std::vector<R> h(32);
  CHECK(cudaMemcpy(h.data(), d, 32 * sizeof(R), cudaMemcpyDeviceToHost));
  auto mask_of = [](auto key, int lane) {
    unsigned m = 0;
    for (int l = 0; l < 32; ++l) if (key(l) == key(lane)) m |= 1u << l;
    return m;
  };
  for (int l = 0; l < 32; ++l) {
    EXPECT_EQ(h[l].any_i, mask_of([](int x) { return x % 5; }, l), "match_any int", l);
    EXPECT_EQ(h[l].any_u, mask_of([](int x) { return x / 8; }, l), "match_any unsigned", l);
    EXPECT_EQ(h[l].any_ll, mask_of([](int x) { return x % 3; }, l), "match_any long long", l);
    EXPECT_EQ(h[l].any_ull, mask_of([](int x) { return x & 6; }, l), "match_any ull", l);
    EXPECT_EQ(h[l].any_f, mask_of([](int x) { return x & 1; }, l), "match_any float (bitwise)", l);
    EXPECT_EQ(h[l].any_d, mask_of([](int x) { return x < 10; }, l), "match_any double", l);
    EXPECT_EQ(h[l].all_same, 0xffffffffu, "match_all same", l);
    EXPECT_EQ(h[l].pred_same, 1, "match_all pred same", l);
    EXPECT_EQ(h[l].all_diff, 0u, "match_all differ", l);
    EXPECT_EQ(h[l].pred_diff, 0, "match_all pred differ", l);
    unsigned want = 0;
    if (l >= 16) for (int k = 16; k < 32; ++k) if (k % 4 == l % 4) want |= 1u << k;
    EXPECT_EQ(h[l].any_partial, want, "match_any partial mask", l);
  }
  return wf::finish();
}

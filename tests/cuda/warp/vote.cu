// WF-CHAPTER: warp
// WF-FEATURES: warp.vote.all, warp.vote.any, warp.vote.ballot, warp.vote.partial_mask
// WF-DESCRIPTION: __all_sync/__any_sync/__ballot_sync over many predicate patterns, with the full mask and with partial masks inside divergent branches, and in a partially filled last warp
#include "../common/check.h"
#include <vector>

__device__ int pred_of(int pattern, int lane, int warp) {
  switch (pattern) {
    case 0: return 0;
    case 1: return 1;
    case 2: return lane == 31;
    case 3: return lane & 1;
    case 4: return (lane * 7 + warp) % 5 == 0;
    case 5: return lane != 13;
    case 6: return -lane;  // non-zero other than 1
    default: return (0x9e3779b9u >> lane) & 1;
  }
}

__global__ void votes(unsigned* out, int patterns) {
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int p = 0; p < patterns; ++p) {
    int v = pred_of(p, lane, warp);
    unsigned all = __all_sync(0xffffffffu, v), any = __any_sync(0xffffffffu, v), bal = __ballot_sync(0xffffffffu, v);
    unsigned* o = out + ((warp * patterns + p) * 32 + lane) * 6;
    o[0] = all != 0; o[1] = any != 0; o[2] = bal;
    // partial masks: lanes < 20 vote among themselves; the others among the upper lanes
    if (lane < 20) {
      o[3] = __ballot_sync(0x000fffffu, v); o[4] = __all_sync(0x000fffffu, v) != 0; o[5] = __any_sync(0x000fffffu, v) != 0;
    } else {
      o[3] = __ballot_sync(0xfff00000u, v); o[4] = __all_sync(0xfff00000u, v) != 0; o[5] = __any_sync(0xfff00000u, v) != 0;
    }
  }
}

// Block of 48 threads: the second warp has 16 lanes; exited/non-existent lanes never vote.
__global__ void partial_warp(unsigned* out) {
  int lane = threadIdx.x % 32;
  unsigned m = (threadIdx.x < 32) ? 0xffffffffu : 0x0000ffffu;
  out[threadIdx.x * 3 + 0] = __ballot_sync(m, 1);
  out[threadIdx.x * 3 + 1] = __all_sync(m, lane < 16) != 0;
  out[threadIdx.x * 3 + 2] = __any_sync(m, lane >= 16) != 0;
}

static int hpred(int pattern, int lane, int warp) {
  switch (pattern) {
    case 0: return 0; case 1: return 1; case 2: return lane == 31; case 3: return lane & 1;
    case 4: return (lane * 7 + warp) % 5 == 0; case 5: return lane != 13; case 6: return -lane;
    default: return (0x9e3779b9u >> lane) & 1;
  }
}

int main() {
  const int P = 8, warps = 4;
  unsigned* d;
  CHECK(cudaMalloc(&d, warps * P * 32 * 6 * sizeof(unsigned)));
  votes<<<1, warps * 32>>>(d, P);
  CHECK_KERNEL();
  std::vector<unsigned> h(warps * P * 32 * 6);
  CHECK(cudaMemcpy(h.data(), d, h.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
  for (int w = 0; w < warps; ++w)
    for (int p = 0; p < P; ++p) {
      unsigned bal = 0;
      for (int l = 0; l < 32; ++l) if (hpred(p, l, w)) bal |= 1u << l;
      for (int l = 0; l < 32; ++l) {
        const unsigned* o = &h[((w * P + p) * 32 + l) * 6];
        int idx = (w * P + p) * 32 + l;
        EXPECT_EQ(o[0], (unsigned)(bal == 0xffffffffu), "all", idx);
        EXPECT_EQ(o[1], (unsigned)(bal != 0), "any", idx);
        EXPECT_EQ(o[2], bal, "ballot", idx);
        unsigned m = l < 20 ? 0x000fffffu : 0xfff00000u;
        EXPECT_EQ(o[3], bal & m, "partial ballot", idx);
        EXPECT_EQ(o[4], (unsigned)((bal & m) == m), "partial all", idx);
        EXPECT_EQ(o[5], (unsigned)((bal & m) != 0), "partial any", idx);
      }
    }
  partial_warp<<<1, 48>>>(d);
  CHECK_KERNEL();
  CHECK(cudaMemcpy(h.data(), d, 48 * 3 * sizeof(unsigned), cudaMemcpyDeviceToHost));
  for (int t = 0; t < 48; ++t) {
    EXPECT_EQ(h[t * 3 + 0], t < 32 ? 0xffffffffu : 0x0000ffffu, "ballot in partial warp", t);
    EXPECT_EQ(h[t * 3 + 1], t < 32 ? 0u : 1u, "all in partial warp", t);
    EXPECT_EQ(h[t * 3 + 2], t < 32 ? 1u : 0u, "any in partial warp", t);
  }
  return wf::finish();
}

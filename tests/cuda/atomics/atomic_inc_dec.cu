// WF-CHAPTER: atomics
// WF-FEATURES: atomics.inc.global, atomics.inc.shared, atomics.dec.global, atomics.dec.shared, atomics.return_old
// WF-DESCRIPTION: atomicInc ((old >= val) ? 0 : old+1) and atomicDec ((old == 0 || old > val) ? val : old-1) with wraparound limits, in global and shared memory; single-thread sequences check the exact formula
#include "../common/check.h"
#include <algorithm>
#include <vector>

// One thread applies a fixed sequence so the exact semantics (including old > val) are visible.
__global__ void sequence(unsigned* g, unsigned* out) {
  __shared__ unsigned s;
  int k = 0;
  unsigned start[] = {0, 5, 9, 10, 11, 0xffffffffu};
  unsigned lim[] = {10, 10, 10, 10, 10, 0xffffffffu};
  for (int i = 0; i < 6; ++i) {
    *g = start[i]; s = start[i];
    out[k++] = atomicInc(g, lim[i]); out[k++] = *g;
    out[k++] = atomicInc(&s, lim[i]); out[k++] = s;
    *g = start[i]; s = start[i];
    out[k++] = atomicDec(g, lim[i]); out[k++] = *g;
    out[k++] = atomicDec(&s, lim[i]); out[k++] = s;
  }
}

// Contention: counters wrapping many times; the multiset of returned values is known.
__global__ void contended(unsigned* g, unsigned* ret_inc, unsigned* ret_dec, unsigned* shared_final, unsigned mod) {
  __shared__ unsigned si, sd;
  int t = threadIdx.x, gt = blockIdx.x * blockDim.x + t;
  if (t == 0) { si = 0; sd = 0; }
  __syncthreads();
  ret_inc[gt] = atomicInc(&g[0], mod - 1);  // cycles 0..mod-1
  ret_dec[gt] = atomicDec(&g[1], mod - 1);  // cycles 0, mod-1, ..., 1, 0, ...
  atomicInc(&si, 6);
  atomicDec(&sd, 6);
  __syncthreads();
  if (t == 0) { shared_final[blockIdx.x * 2] = si; shared_final[blockIdx.x * 2 + 1] = sd; }
}

int main() {
  unsigned *g, *out;
  CHECK(cudaMalloc(&g, 2 * sizeof(unsigned)));
  CHECK(cudaMalloc(&out, 48 * sizeof(unsigned)));
  sequence<<<1, 1>>>(g, out);
  CHECK_KERNEL();
  unsigned h[48];
  CHECK(cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost));
  unsigned start[] = {0, 5, 9, 10, 11, 0xffffffffu};
  unsigned lim[] = {10, 10, 10, 10, 10, 0xffffffffu};
  for (int i = 0; i < 6; ++i) {
    unsigned o = start[i], v = lim[i];
    unsigned inc = (o >= v) ? 0 : o + 1;
    unsigned dec = (o == 0 || o > v) ? v : o - 1;
    for (int sp = 0; sp < 2; ++sp) {
      EXPECT_EQ(h[i * 8 + sp * 2], o, "inc old", i * 2 + sp);
      EXPECT_EQ(h[i * 8 + sp * 2 + 1], inc, "inc new", i * 2 + sp);
      EXPECT_EQ(h[i * 8 + 4 + sp * 2], o, "dec old", i * 2 + sp);
      EXPECT_EQ(h[i * 8 + 4 + sp * 2 + 1], dec, "dec new", i * 2 + sp);
    }
  }
  const int blocks = 10, threads = 128, N = blocks * threads;
  const unsigned mod = 37;
  unsigned *ri, *rd, *sf;
  CHECK(cudaMalloc(&ri, N * 4)); CHECK(cudaMalloc(&rd, N * 4)); CHECK(cudaMalloc(&sf, blocks * 8));
  CHECK(cudaMemset(g, 0, 8));
  contended<<<blocks, threads>>>(g, ri, rd, sf, mod);
  CHECK_KERNEL();
  std::vector<unsigned> hi(N), hd(N), hs(blocks * 2);
  unsigned hg[2];
  CHECK(cudaMemcpy(hi.data(), ri, N * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hd.data(), rd, N * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hs.data(), sf, blocks * 8, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hg, g, 8, cudaMemcpyDeviceToHost));
  // reference: apply serially (the multiset of old values does not depend on the order)
  std::vector<unsigned> wi(N), wd(N);
  unsigned a = 0, b = 0;
  for (int i = 0; i < N; ++i) {
    wi[i] = a; a = (a >= mod - 1) ? 0 : a + 1;
    wd[i] = b; b = (b == 0 || b > mod - 1) ? mod - 1 : b - 1;
  }
  std::sort(hi.begin(), hi.end()); std::sort(hd.begin(), hd.end());
  std::sort(wi.begin(), wi.end()); std::sort(wd.begin(), wd.end());
  for (int i = 0; i < N; ++i) { EXPECT_EQ(hi[i], wi[i], "inc multiset", i); EXPECT_EQ(hd[i], wd[i], "dec multiset", i); }
  EXPECT_EQ(hg[0], a, "inc final", 0);
  EXPECT_EQ(hg[1], b, "dec final", 0);
  unsigned si = 0, sd = 0;
  for (int t = 0; t < threads; ++t) { si = (si >= 6) ? 0 : si + 1; sd = (sd == 0 || sd > 6) ? 6 : sd - 1; }
  for (int bl = 0; bl < blocks; ++bl) {
    EXPECT_EQ(hs[bl * 2], si, "shared inc final", bl);
    EXPECT_EQ(hs[bl * 2 + 1], sd, "shared dec final", bl);
  }
  return wf::finish();
}

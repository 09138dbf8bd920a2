// WF-CHAPTER: arithmetic
// WF-FEATURES: arith.int.popc, arith.int.clz, arith.int.ffs, arith.int.brev, arith.int.byte_perm, arith.int.funnelshift
// WF-DESCRIPTION: __popc/__popcll, __clz/__clzll, __ffs/__ffsll, __brev/__brevll, __byte_perm, __funnelshift_l/lc/r/rc on edge values (0, all ones, single bits) and random words
#include "../common/check.h"
#include <vector>

constexpr int NR = 14;
__global__ void bits(const unsigned long long* in, const unsigned* sel, unsigned long long* out, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  unsigned long long v = in[k];
  unsigned lo = (unsigned)v, hi = (unsigned)(v >> 32), s = sel[k];
  unsigned long long* o = out + k * NR;
  o[0] = __popc(lo); o[1] = __popcll(v); o[2] = __clz((int)lo); o[3] = __clzll((long long)v);
  o[4] = __ffs((int)lo); o[5] = __ffsll((long long)v); o[6] = __brev(lo); o[7] = __brevll(v);
  o[8] = __byte_perm(lo, hi, s & 0x7777);
  o[9] = __funnelshift_l(lo, hi, s); o[10] = __funnelshift_lc(lo, hi, s);
  o[11] = __funnelshift_r(lo, hi, s); o[12] = __funnelshift_rc(lo, hi, s);
  o[13] = __byte_perm(lo, hi, 0x3210) ^ ((unsigned long long)__byte_perm(lo, hi, 0x7654) << 32);  // identity selections
}

static int popc64(unsigned long long v) { int c = 0; while (v) { c += v & 1; v >>= 1; } return c; }
static int clz64(unsigned long long v, int w) { int c = 0; for (int b = w - 1; b >= 0 && !((v >> b) & 1); --b) ++c; return c; }
static int ffs64(unsigned long long v) { for (int b = 0; b < 64; ++b) if ((v >> b) & 1) return b + 1; return 0; }
static unsigned long long brev(unsigned long long v, int w) { unsigned long long r = 0; for (int b = 0; b < w; ++b) if ((v >> b) & 1) r |= 1ull << (w - 1 - b); return r; }

int main() {
  std::vector<unsigned long long> in = {0, ~0ull, 1, 0x8000000000000000ull, 0x80000000ull, 0x100000000ull, 0x00000000ffffffffull,
                                        0xffffffff00000000ull, 0x0123456789abcdefull, 0xfedcba9876543210ull, 0x5555555555555555ull};
  std::vector<unsigned> sel = {0, 31, 32, 33, 1, 63, 64, 100, 16, 0x3210, 0x7654};
  wf::Rng r(4);
  for (int b = 0; b < 64; ++b) { in.push_back(1ull << b); sel.push_back(b); }
  for (int k = 0; k < 600; ++k) {
    unsigned long long v = r.next64();
    if (k % 4 == 1) v >>= r.range(0, 63);
    if (k % 4 == 2) v <<= r.range(0, 63);
    in.push_back(v);
    sel.push_back(k % 3 ? r.next() % 70 : r.next());
  }
  int n = (int)in.size();
  unsigned long long *din, *dout; unsigned* ds;
  CHECK(cudaMalloc(&din, n * 8)); CHECK(cudaMalloc(&ds, n * 4)); CHECK(cudaMalloc(&dout, n * NR * 8));
  CHECK(cudaMemcpy(din, in.data(), n * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(ds, sel.data(), n * 4, cudaMemcpyHostToDevice));
  bits<<<(n + 127) / 128, 128>>>(din, ds, dout, n);
  CHECK_KERNEL();
  std::vector<unsigned long long> o(n * NR);
  CHECK(cudaMemcpy(o.data(), dout, o.size() * 8, cudaMemcpyDeviceToHost));
  for (int k = 0; k < n; ++k) {
    unsigned long long v = in[k];
    unsigned lo = (unsigned)v, hi = (unsigned)(v >> 32), s = sel[k];
    const unsigned long long* g = &o[k * NR];
    EXPECT_EQ(g[0], (unsigned long long)popc64(lo), "__popc", k);
    EXPECT_EQ(g[1], (unsigned long long)popc64(v), "__popcll", k);
    EXPECT_EQ(g[2], (unsigned long long)clz64(lo, 32), "__clz", k);
    EXPECT_EQ(g[3], (unsigned long long)clz64(v, 64), "__clzll", k);
    EXPECT_EQ(g[4], (unsigned long long)ffs64(lo), "__ffs", k);
    EXPECT_EQ(g[5], (unsigned long long)ffs64(v), "__ffsll", k);
    EXPECT_EQ(g[6], brev(lo, 32), "__brev", k);
    EXPECT_EQ(g[7], brev(v, 64), "__brevll", k);
    unsigned bp = 0, s7 = s & 0x7777;
    for (int b = 0; b < 4; ++b) { unsigned idx = (s7 >> (4 * b)) & 7; bp |= (unsigned)((v >> (8 * idx)) & 0xff) << (8 * b); }
    EXPECT_EQ(g[8], (unsigned long long)bp, "__byte_perm", k);
    unsigned sh = s & 31, shc = s < 32 ? s : 32;
    EXPECT_EQ(g[9], (unsigned long long)(unsigned)((v << sh) >> 32), "__funnelshift_l", k);
    EXPECT_EQ(g[10], (unsigned long long)(unsigned)(shc == 32 ? lo : (unsigned)((v << shc) >> 32)), "__funnelshift_lc", k);
    EXPECT_EQ(g[11], (unsigned long long)(unsigned)(v >> sh), "__funnelshift_r", k);
    EXPECT_EQ(g[12], (unsigned long long)(unsigned)(shc == 32 ? hi : (unsigned)(v >> shc)), "__funnelshift_rc", k);
    EXPECT_EQ(g[13], v, "__byte_perm identity", k);
  }
  return wf::finish();
}

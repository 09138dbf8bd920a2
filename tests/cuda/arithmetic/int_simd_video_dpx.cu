// WF-CHAPTER: arithmetic
// WF-FEATURES: arith.int.simd_video, arith.int.dpx
// WF-DESCRIPTION: SIMD-within-a-word intrinsics (guide B.22: __vadd2/4, __vsub2/4, __vaddss2, __vsubus4, __vabsdiffu4, __vabsdiffs2, __vavgu4, __vhaddu2, __vmaxu4, __vmins2, __vcmpeq4, __vcmpgtu2, __vsadu4, __vneg4, __vabs2) and DPX functions (__vimax3_s32, __vimin3_u32, __viaddmax_s32, __viaddmin_u32, __vimax_s32_relu, __vibmax_s32, __vimax3_s16x2_relu)
#include "../common/check.h"
#include <algorithm>
#include <vector>

constexpr int NR = 22;
__global__ void simd(const unsigned* a, const unsigned* b, const unsigned* c, unsigned* out, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  unsigned x = a[k], y = b[k], z = c[k];
  unsigned* o = out + k * NR;
  o[0] = __vadd2(x, y); o[1] = __vadd4(x, y); o[2] = __vsub2(x, y); o[3] = __vsub4(x, y);
  o[4] = __vaddss2(x, y); o[5] = __vsubus4(x, y); o[6] = __vabsdiffu4(x, y); o[7] = __vabsdiffs2(x, y);
  o[8] = __vavgu4(x, y); o[9] = __vhaddu2(x, y); o[10] = __vmaxu4(x, y); o[11] = __vmins2(x, y);
  o[12] = __vcmpeq4(x, x ^ (y & 0x01000100u)); o[13] = __vcmpgtu2(x, y); o[14] = __vsadu4(x, y); o[15] = __vneg4(x);
  o[16] = __vabs2(x);
  o[17] = (unsigned)__vimax3_s32((int)x, (int)y, (int)z);
  o[18] = __vimin3_u32(x, y, z);
  o[19] = (unsigned)__viaddmax_s32((int)x, (int)y, (int)z) ^ __viaddmin_u32(x, y, z);
  bool p;
  o[20] = (unsigned)__vimax_s32_relu((int)x, (int)y) + ((unsigned)__vibmax_s32((int)x, (int)z, &p) << 1) * 0 + (p ? 0x80000000u : 0);
  o[21] = __vimax3_s16x2_relu(x, y, z);
}

static unsigned lanes(unsigned x, unsigned y, int w, unsigned (*f)(unsigned, unsigned, int)) {
  unsigned r = 0, mask = w == 8 ? 0xff : 0xffff;
  for (int s = 0; s < 32; s += w) r |= (f((x >> s) & mask, (y >> s) & mask, w) & mask) << s;
  return r;
}
static int sx(unsigned v, int w) { return w == 8 ? (int)(signed char)v : (int)(short)v; }
static int sat(long long v, int w) { long long lo = -(1LL << (w - 1)), hi = (1LL << (w - 1)) - 1; return (int)(v < lo ? lo : v > hi ? hi : v); }

int main() {
  std::vector<unsigned> A = {0, 0xffffffffu, 0x80008000u, 0x7fff7fffu, 0x80808080u, 0x7f7f7f7fu, 0x01020304u},
                        B = {0, 0xffffffffu, 0x80008000u, 0x00010001u, 0x01010101u, 0x81818181u, 0x04030201u},
                        C = {0, 1, 2, 3, 4, 5, 6};
  wf::Rng r(17);
  for (int k = 0; k < 1000; ++k) { A.push_back(r.next()); B.push_back(r.next()); C.push_back(r.next()); }
  int n = (int)A.size();
  unsigned *da, *db, *dc, *dout;
  CHECK(cudaMalloc(&da, n * 4)); CHECK(cudaMalloc(&db, n * 4)); CHECK(cudaMalloc(&dc, n * 4)); CHECK(cudaMalloc(&dout, n * NR * 4));
  CHECK(cudaMemcpy(da, A.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, B.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc, C.data(), n * 4, cudaMemcpyHostToDevice));
  simd<<<(n + 127) / 128, 128>>>(da, db, dc, dout, n);
  CHECK_KERNEL();
  std::vector<unsigned> o(n * NR);
  CHECK(cudaMemcpy(o.data(), dout, o.size() * 4, cudaMemcpyDeviceToHost));
  for (int k = 0; k < n; ++k) {
    unsigned x = A[k], y = B[k], z = C[k];
    const unsigned* g = &o[k * NR];
    EXPECT_EQ(g[0], lanes(x, y, 16, [](unsigned a, unsigned b, int) { return a + b; }), "__vadd2", k);
    EXPECT_EQ(g[1], lanes(x, y, 8, [](unsigned a, unsigned b, int) { return a + b; }), "__vadd4", k);
    EXPECT_EQ(g[2], lanes(x, y, 16, [](unsigned a, unsigned b, int) { return a - b; }), "__vsub2", k);
    EXPECT_EQ(g[3], lanes(x, y, 8, [](unsigned a, unsigned b, int) { return a - b; }), "__vsub4", k);
    EXPECT_EQ(g[4], lanes(x, y, 16, [](unsigned a, unsigned b, int w) { return (unsigned)sat((long long)sx(a, w) + sx(b, w), w); }), "__vaddss2", k);
    EXPECT_EQ(g[5], lanes(x, y, 8, [](unsigned a, unsigned b, int) { return a > b ? a - b : 0u; }), "__vsubus4", k);
    EXPECT_EQ(g[6], lanes(x, y, 8, [](unsigned a, unsigned b, int) { return a > b ? a - b : b - a; }), "__vabsdiffu4", k);
    EXPECT_EQ(g[7], lanes(x, y, 16, [](unsigned a, unsigned b, int w) { return (unsigned)std::abs(sx(a, w) - sx(b, w)); }), "__vabsdiffs2", k);
    EXPECT_EQ(g[8], lanes(x, y, 8, [](unsigned a, unsigned b, int) { return (a + b + 1) / 2; }), "__vavgu4", k);
    EXPECT_EQ(g[9], lanes(x, y, 16, [](unsigned a, unsigned b, int) { return (a + b) / 2; }), "__vhaddu2", k);
    EXPECT_EQ(g[10], lanes(x, y, 8, [](unsigned a, unsigned b, int) { return a > b ? a : b; }), "__vmaxu4", k);
    EXPECT_EQ(g[11], lanes(x, y, 16, [](unsigned a, unsigned b, int w) { return (unsigned)std::min(sx(a, w), sx(b, w)); }), "__vmins2", k);
    EXPECT_EQ(g[12], lanes(x, x ^ (y & 0x01000100u), 8, [](unsigned a, unsigned b, int) { return a == b ? 0xffu : 0u; }), "__vcmpeq4", k);
    EXPECT_EQ(g[13], lanes(x, y, 16, [](unsigned a, unsigned b, int) { return a > b ? 0xffffu : 0u; }), "__vcmpgtu2", k);
    unsigned sad = 0;
    for (int s = 0; s < 32; s += 8) { unsigned a = (x >> s) & 0xff, b = (y >> s) & 0xff; sad += a > b ? a - b : b - a; }
    EXPECT_EQ(g[14], sad, "__vsadu4", k);
    EXPECT_EQ(g[15], lanes(x, 0, 8, [](unsigned a, unsigned, int) { return 0u - a; }), "__vneg4", k);
    EXPECT_EQ(g[16], lanes(x, 0, 16, [](unsigned a, unsigned, int w) { return (unsigned)std::abs(sx(a, w)); }), "__vabs2", k);
    int xi = (int)x, yi = (int)y, zi = (int)z;
    EXPECT_EQ((int)g[17], std::max(xi, std::max(yi, zi)), "__vimax3_s32", k);
    EXPECT_EQ(g[18], std::min(x, std::min(y, z)), "__vimin3_u32", k);
    int am = std::max((int)(x + y), zi);
    unsigned an = std::min(x + y, z);
    EXPECT_EQ(g[19], (unsigned)am ^ an, "__viaddmax_s32 ^ __viaddmin_u32", k);
    int relu = std::max(std::max(xi, yi), 0);
    bool p = xi >= zi;
    EXPECT_EQ(g[20], (unsigned)relu + (p ? 0x80000000u : 0u), "__vimax_s32_relu / __vibmax_s32 predicate", k);
    unsigned m3 = 0;
    for (int s = 0; s < 32; s += 16) {
      int v = std::max(std::max(sx((x >> s) & 0xffff, 16), sx((y >> s) & 0xffff, 16)), sx((z >> s) & 0xffff, 16));
      m3 |= ((unsigned)std::max(v, 0) & 0xffff) << s;
    }
    EXPECT_EQ(g[21], m3, "__vimax3_s16x2_relu", k);
  }
  return wf::finish();
}

// WF-CHAPTER: arithmetic
// WF-FEATURES: arith.half2.arith, arith.half2.compare, arith.half2.pack, arith.half.operators
// WF-DESCRIPTION: __half2 SIMD arithmetic (__hadd2/__hsub2/__hmul2/__hfma2/__h2div/__hneg2/__habs2/__hadd2_sat/__hmin2/__hmax2), lane-wise and whole-vector comparisons (__heq2/__hlt2/__hbeq2/__hblt2/__hisnan2), and packing (__halves2half2, __lows2half2, __highs2half2, __lowhigh2highlow, __low2half2, __high2half2, __half2half2)
#include "../common/check.h"
#include <cuda_fp16.h>
#include <vector>

static long double h2ld(unsigned short b) {
  int s = b >> 15, e = (b >> 10) & 31, m = b & 1023;
  long double v = e == 0 ? std::ldexp((long double)m, -24) : e == 31 ? (m ? NAN : INFINITY) : std::ldexp((long double)(1024 + m), e - 25);
  return s ? -v : v;
}
static unsigned short h_up(unsigned short b) { return (b & 0x8000) ? (b == 0x8000 ? 0x0001 : b - 1) : b + 1; }
static unsigned short h_down(unsigned short b) { return (b & 0x8000) ? b + 1 : (b == 0 ? 0x8001 : b - 1); }
template <class Cmp> static bool rn_ok(unsigned short got, Cmp cmp) {
  if (((got >> 10) & 31) == 31) return false;  // operands are moderate: no NaN or infinity expected
  return wf::rounded_ok(h2ld(got), h2ld(h_down(got)), h2ld(h_up(got)), (got & 1) == 0, wf::RN, cmp);
}

// round an exact long double to the nearest half (ties to even), as bits
static unsigned short ld2h_rn(long double v) {
  unsigned short sgn = std::signbit(v) ? 0x8000 : 0;
  long double a = std::fabs(v);
  if (a >= 65520.0L) return sgn | 0x7c00;
  if (a < 0x1p-14L) return sgn | (unsigned short)std::nearbyint(std::ldexp(a, 24));
  int e = std::ilogb(a);
  long double m = std::nearbyint(std::ldexp(a, 10 - e));
  if (m == 2048) { m = 1024; ++e; }
  if (e > 15) return sgn | 0x7c00;
  return sgn | (unsigned short)(((e + 15) << 10) | ((int)m - 1024));
}

struct In { unsigned a, b, c; };  // packed half2 operands (low half = .x)
constexpr int NR = 21;

__device__ unsigned pack(__half2 h) { return *reinterpret_cast<unsigned*>(&h); }
__device__ __half2 unpack(unsigned u) { return *reinterpret_cast<__half2*>(&u); }

__global__ void h2(const In* in, unsigned* out, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  __half2 x = unpack(in[k].a), y = unpack(in[k].b), z = unpack(in[k].c);
  unsigned* o = out + k * NR;
  o[0] = pack(__hadd2(x, y)); o[1] = pack(__hsub2(x, y)); o[2] = pack(__hmul2(x, y)); o[3] = pack(__hfma2(x, y, z));
  o[4] = pack(__h2div(x, y)); o[5] = pack(__hneg2(x)); o[6] = pack(__habs2(x)); o[7] = pack(__hadd2_sat(x, y));
  o[8] = pack(__hmin2(x, y)); o[9] = pack(__hmax2(x, y));
  o[10] = pack(__heq2(x, y)); o[11] = pack(__hlt2(x, y));
  o[12] = (unsigned)__hbeq2(x, y) | ((unsigned)__hblt2(x, y) << 1) | ((unsigned)__hbge2(x, y) << 2);
  o[13] = pack(__halves2half2(__high2half(x), __low2half(y)));
  o[14] = pack(__lows2half2(x, y)); o[15] = pack(__highs2half2(x, y));
  o[16] = pack(__lowhigh2highlow(x)); o[17] = pack(__low2half2(x));
  o[18] = pack(__half2half2(__high2half(y)));
  o[19] = pack(x + y * z);  // operators on __half2 (may contract; see checker)
  o[20] = pack(__high2half2(y));
}

int main() {
  wf::Rng r(31);
  auto moderate = [&]() {
    unsigned e = 15 + r.range(-5, 5), m = r.next() & 1023, s = r.next() & 1;
    return (unsigned short)((s << 15) | (e << 10) | m);
  };
  std::vector<In> in;
  for (int k = 0; k < 2000; ++k) {
    unsigned short v[6];
    for (auto& x : v) x = moderate();
    if (k % 10 == 0) v[1] = v[0];     // equal low lanes
    if (k % 7 == 0) v[4] = v[3];      // equal high lanes
    in.push_back({(unsigned)v[0] | ((unsigned)v[3] << 16), (unsigned)v[1] | ((unsigned)v[4] << 16), (unsigned)v[2] | ((unsigned)v[5] << 16)});
  }
  int n = (int)in.size();
  In* din; unsigned* dout;
  CHECK(cudaMalloc(&din, n * sizeof(In))); CHECK(cudaMalloc(&dout, n * NR * 4));
  CHECK(cudaMemcpy(din, in.data(), n * sizeof(In), cudaMemcpyHostToDevice));
  h2<<<(n + 127) / 128, 128>>>(din, dout, n);
  CHECK_KERNEL();
  std::vector<unsigned> o(n * NR);
  CHECK(cudaMemcpy(o.data(), dout, o.size() * 4, cudaMemcpyDeviceToHost));
  auto lane = [](unsigned v, int l) { return (unsigned short)(l ? v >> 16 : v & 0xffff); };
  for (int k = 0; k < n; ++k) {
    const unsigned* g = &o[k * NR];
    bool beq = true, blt = true, bge = true;
    for (int l = 0; l < 2; ++l) {
      unsigned short xa = lane(in[k].a, l), ya = lane(in[k].b, l), za = lane(in[k].c, l);
      long double x = h2ld(xa), y = h2ld(ya), z = h2ld(za);
      int idx = k * 2 + l;
      EXPECT_TRUE(rn_ok(lane(g[0], l), wf::cmp_exact(x + y)) || x + y == 0, "__hadd2");
      EXPECT_TRUE(rn_ok(lane(g[1], l), wf::cmp_exact(x - y)) || x - y == 0, "__hsub2");
      EXPECT_TRUE(rn_ok(lane(g[2], l), wf::cmp_exact(x * y)), "__hmul2");
      EXPECT_TRUE(rn_ok(lane(g[3], l), wf::cmp_exact(x * y + z)) || x * y + z == 0, "__hfma2");
      EXPECT_TRUE(rn_ok(lane(g[4], l), [=](long double q) { int s = wf::sign_of(std::fma(q, y, -x)); return y < 0 ? -s : s; }), "__h2div");
      EXPECT_EQ(lane(g[5], l), (unsigned short)(xa ^ 0x8000), "__hneg2", idx);
      EXPECT_EQ(lane(g[6], l), (unsigned short)(xa & 0x7fff), "__habs2", idx);
      long double s = x + y;
      unsigned short sat = lane(g[7], l);
      if (s <= 0) EXPECT_EQ(h2ld(sat), 0.0L, "__hadd2_sat low clamp", idx);
      else if (s >= 1) EXPECT_EQ(h2ld(sat), 1.0L, "__hadd2_sat high clamp", idx);
      else EXPECT_TRUE(rn_ok(sat, wf::cmp_exact(s)), "__hadd2_sat");
      EXPECT_EQ(h2ld(lane(g[8], l)), std::fmin(x, y), "__hmin2", idx);
      EXPECT_EQ(h2ld(lane(g[9], l)), std::fmax(x, y), "__hmax2", idx);
      EXPECT_EQ(h2ld(lane(g[10], l)), (long double)(x == y), "__heq2", idx);
      EXPECT_EQ(h2ld(lane(g[11], l)), (long double)(x < y), "__hlt2", idx);
      beq = beq && x == y; blt = blt && x < y; bge = bge && x >= y;
    }
    EXPECT_EQ(g[12], (unsigned)beq | ((unsigned)blt << 1) | ((unsigned)bge << 2), "__hbeq2/__hblt2/__hbge2", k);
    unsigned a = in[k].a, b = in[k].b;
    EXPECT_EQ(g[13], (a >> 16) | ((b & 0xffff) << 16), "__halves2half2(high(x), low(y))", k);
    EXPECT_EQ(g[14], (a & 0xffff) | ((b & 0xffff) << 16), "__lows2half2", k);
    EXPECT_EQ(g[15], (a >> 16) | (b & 0xffff0000u), "__highs2half2", k);
    EXPECT_EQ(g[16], (a >> 16) | (a << 16), "__lowhigh2highlow", k);
    EXPECT_EQ(g[17], (a & 0xffff) | (a << 16), "__low2half2", k);
    EXPECT_EQ(g[18], (b >> 16) | (b & 0xffff0000u), "__half2half2(high(y))", k);
    EXPECT_EQ(g[20], (b >> 16) | (b & 0xffff0000u), "__high2half2", k);
    // x + y*z through the operators: one fused rounding or two roundings are both acceptable
    for (int l = 0; l < 2; ++l) {
      long double x = h2ld(lane(a, l)), y = h2ld(lane(b, l)), z = h2ld(lane(in[k].c, l));
      unsigned short got = lane(g[19], l);
      bool ok = got == ld2h_rn(y * z + x) || got == ld2h_rn(x + h2ld(ld2h_rn(y * z)));
      if (!ok && wf::report(__FILE__, __LINE__, "operators on __half2", k * 2 + l))
        printf("got 0x%04x, fused 0x%04x, unfused 0x%04x\n", got, ld2h_rn(y * z + x), ld2h_rn(x + h2ld(ld2h_rn(y * z))));
    }
  }
  return wf::finish();
}

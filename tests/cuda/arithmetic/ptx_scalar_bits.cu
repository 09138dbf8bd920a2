// WF-CHAPTER: arithmetic
// WF-FEATURES: arith.int.bmsk_szext, arith.int.mad24_hi_sat, arith.int.slct, arith.int.cvt_pack, warp.elect_sync
// WF-DESCRIPTION: PTX scalar instructions through inline asm, against references written from the PTX ISA definitions: bmsk and szext (clamp and wrap), mul24/mad24 hi forms and mad24.hi.sat.s32, slct with s32 and f32 (ftz) selectors, cvt.pack.sat to u16/s16/u8/s8 (chained through c), and elect.sync (sm_90; an equivalent ballot below)
#include "../common/check.h"
#include <algorithm>
#include <vector>

constexpr int NR = 20;

__global__ void ops(const unsigned* a, const unsigned* b, const unsigned* c, unsigned* out, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  unsigned x = a[k], y = b[k], z = c[k];
  float zf = __uint_as_float(z);
  unsigned* o = out + k * NR;
  asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(o[0]) : "r"(x), "r"(y));
  asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(o[1]) : "r"(x), "r"(y));
  asm("szext.clamp.s32 %0, %1, %2;" : "=r"(o[2]) : "r"(x), "r"(y));
  asm("szext.wrap.s32 %0, %1, %2;" : "=r"(o[3]) : "r"(x), "r"(y));
  asm("szext.clamp.u32 %0, %1, %2;" : "=r"(o[4]) : "r"(x), "r"(y));
  asm("szext.wrap.u32 %0, %1, %2;" : "=r"(o[5]) : "r"(x), "r"(y));
  asm("mul24.hi.s32 %0, %1, %2;" : "=r"(o[6]) : "r"(x), "r"(y));
  asm("mul24.hi.u32 %0, %1, %2;" : "=r"(o[7]) : "r"(x), "r"(y));
  asm("mad24.lo.s32 %0, %1, %2, %3;" : "=r"(o[8]) : "r"(x), "r"(y), "r"(z));
  asm("mad24.hi.s32 %0, %1, %2, %3;" : "=r"(o[9]) : "r"(x), "r"(y), "r"(z));
  asm("mad24.hi.sat.s32 %0, %1, %2, %3;" : "=r"(o[10]) : "r"(x), "r"(y), "r"(z));
  asm("mad24.hi.u32 %0, %1, %2, %3;" : "=r"(o[11]) : "r"(x), "r"(y), "r"(z));
  asm("slct.u32.s32 %0, %1, %2, %3;" : "=r"(o[12]) : "r"(x), "r"(y), "r"(z));
  asm("slct.u32.f32 %0, %1, %2, %3;" : "=r"(o[13]) : "r"(x), "r"(y), "f"(zf));
  asm("slct.ftz.u32.f32 %0, %1, %2, %3;" : "=r"(o[14]) : "r"(x), "r"(y), "f"(zf));
  asm("cvt.pack.sat.u16.s32 %0, %1, %2;" : "=r"(o[15]) : "r"(x), "r"(y));
  asm("cvt.pack.sat.s16.s32 %0, %1, %2;" : "=r"(o[16]) : "r"(x), "r"(y));
  asm("cvt.pack.sat.u8.s32.b32 %0, %1, %2, %3;" : "=r"(o[17]) : "r"(x), "r"(y), "r"(z));
  unsigned lo;
  asm("cvt.pack.sat.s8.s32.b32 %0, %1, %2, 0;" : "=r"(lo) : "r"(z), "r"(y));
  asm("cvt.pack.sat.s8.s32.b32 %0, %1, %2, %3;" : "=r"(o[18]) : "r"(x), "r"(y), "r"(lo));
  asm("bmsk.wrap.b32 %0, 1, 2;" : "=r"(o[19]));
}

// Threads of the member mask elect a leader; the others skip.
__global__ void elect(unsigned mask, unsigned* out) {
  unsigned lane = threadIdx.x % 32, leader = 0xdead, is_leader = 7;
  if ((mask >> lane) & 1) {
#if __CUDA_ARCH__ >= 900
    asm volatile("{ .reg .pred p; elect.sync %0|p, %2; selp.u32 %1, 1, 0, p; }"
                 : "=r"(leader), "=r"(is_leader) : "r"(mask));
#else
    unsigned members = __ballot_sync(mask, 1);  // elect.sync needs sm_90: the same choice by hand
    leader = __ffs(members) - 1;
    is_leader = lane == leader;
#endif
  }
  out[2 * threadIdx.x] = leader;
  out[2 * threadIdx.x + 1] = is_leader;
}

// --- references, from the PTX ISA's definitions ---
static unsigned shl(unsigned v, unsigned n) { return n >= 32 ? 0u : v << n; }
static unsigned bmsk(unsigned a, unsigned b, bool clamp) {
  unsigned a1 = a & 0x1f, b1 = b & 0x1f, sum = a1 + b1, mask0 = shl(~0u, a1), mask1 = shl(~0u, sum);
  bool overflow = sum >= 32;
  if (clamp) {
    if (a >= 32) { overflow = true; mask0 = 0; }
    if (b >= 32) overflow = true;
  }
  if (overflow) mask1 = 0;
  else if (b1 == 0) mask1 = ~0u;
  return mask0 & ~mask1;
}
static unsigned szext(unsigned a, unsigned b, bool clamp, bool sign) {
  unsigned b1 = b & 0x1f;
  bool too_large = b >= 32 && clamp;
  unsigned mask = too_large ? 0 : ~0u << b1;
  bool sbit = (b1 == 0 || too_large || !sign) ? false : (a >> ((b1 - 1) & 0x1f)) & 1;
  return (a & ~mask) | (sbit ? mask : 0);
}
static long long sext24(unsigned v) { return (long long)((int)(v << 8) >> 8); }
static unsigned mul24(unsigned a, unsigned b, bool hi, bool sign) {
  unsigned long long t = sign ? (unsigned long long)(sext24(a) * sext24(b))
                              : (unsigned long long)(a & 0xffffff) * (b & 0xffffff);
  return hi ? (unsigned)(t >> 16) : (unsigned)t;
}
static unsigned mad24_hi_sat(unsigned a, unsigned b, unsigned c) {
  long long s = (long long)(int)mul24(a, b, true, true) + (int)c;
  return (unsigned)(int)std::min<long long>(std::max<long long>(s, INT32_MIN), INT32_MAX);
}
static unsigned slct_f32(unsigned a, unsigned b, unsigned c, bool ftz) {
  if (ftz && (c & 0x7f800000u) == 0) c &= 0x80000000u;
  float f;
  memcpy(&f, &c, 4);
  return f >= 0.0f ? a : b;
}
static unsigned pack(unsigned a, unsigned b, unsigned c, int bits, bool sign) {
  long long lo = sign ? -(1LL << (bits - 1)) : 0, hi = sign ? (1LL << (bits - 1)) - 1 : (1LL << bits) - 1;
  auto sat = [&](unsigned v) { return (unsigned)std::min(std::max((long long)(int)v, lo), hi) & ((1u << bits) - 1); };
  unsigned d = sat(b) | sat(a) << bits;
  return bits == 8 ? d | c << 16 : d;
}

int main() {
  const unsigned edge[] = {0, 1, 2, 5, 16, 24, 31, 32, 33, 64, 0x7fffff, 0x800000, 0xffffff, 0x1000000, 0x7fffffff,
                           0x80000000u, 0xffffffffu, 0x807fffffu, 0xdeadbeefu, 0x12345678, 0xff800000u, 0x7fc00000,
                           0x80, 0xffffff80u, 127, 128, 255, 256, 0xffff, 0x10000, 0xffff8000u};
  const int ne = sizeof(edge) / sizeof(edge[0]);
  std::vector<unsigned> A, B, C;
  for (int i = 0; i < ne * ne; ++i) { A.push_back(edge[i % ne]); B.push_back(edge[i / ne]); C.push_back(edge[(i * 7 + 3) % ne]); }
  wf::Rng r(21);
  for (int k = 0; k < 1000; ++k) { A.push_back(r.next()); B.push_back(k % 3 ? r.next() % 70 : r.next()); C.push_back(r.next()); }
  int n = (int)A.size();
  unsigned *da, *db, *dc, *dout;
  CHECK(cudaMalloc(&da, n * 4)); CHECK(cudaMalloc(&db, n * 4)); CHECK(cudaMalloc(&dc, n * 4)); CHECK(cudaMalloc(&dout, n * NR * 4));
  CHECK(cudaMemcpy(da, A.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, B.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc, C.data(), n * 4, cudaMemcpyHostToDevice));
  ops<<<(n + 127) / 128, 128>>>(da, db, dc, dout, n);
  CHECK_KERNEL();
  std::vector<unsigned> o(n * NR);
  CHECK(cudaMemcpy(o.data(), dout, o.size() * 4, cudaMemcpyDeviceToHost));
  for (int k = 0; k < n; ++k) {
    unsigned x = A[k], y = B[k], z = C[k];
    const unsigned* g = &o[k * NR];
    EXPECT_EQ(g[0], bmsk(x, y, true), "bmsk.clamp", k);
    EXPECT_EQ(g[1], bmsk(x, y, false), "bmsk.wrap", k);
    EXPECT_EQ(g[2], szext(x, y, true, true), "szext.clamp.s32", k);
    EXPECT_EQ(g[3], szext(x, y, false, true), "szext.wrap.s32", k);
    EXPECT_EQ(g[4], szext(x, y, true, false), "szext.clamp.u32", k);
    EXPECT_EQ(g[5], szext(x, y, false, false), "szext.wrap.u32", k);
    EXPECT_EQ(g[6], mul24(x, y, true, true), "mul24.hi.s32", k);
    EXPECT_EQ(g[7], mul24(x, y, true, false), "mul24.hi.u32", k);
    EXPECT_EQ(g[8], mul24(x, y, false, true) + z, "mad24.lo.s32", k);
    EXPECT_EQ(g[9], mul24(x, y, true, true) + z, "mad24.hi.s32", k);
    EXPECT_EQ(g[10], mad24_hi_sat(x, y, z), "mad24.hi.sat.s32", k);
    EXPECT_EQ(g[11], mul24(x, y, true, false) + z, "mad24.hi.u32", k);
    EXPECT_EQ(g[12], (int)z >= 0 ? x : y, "slct.s32", k);
    EXPECT_EQ(g[13], slct_f32(x, y, z, false), "slct.f32", k);
    EXPECT_EQ(g[14], slct_f32(x, y, z, true), "slct.ftz.f32", k);
    EXPECT_EQ(g[15], pack(x, y, 0, 16, false), "cvt.pack.sat.u16", k);
    EXPECT_EQ(g[16], pack(x, y, 0, 16, true), "cvt.pack.sat.s16", k);
    EXPECT_EQ(g[17], pack(x, y, z, 8, false), "cvt.pack.sat.u8", k);
    EXPECT_EQ(g[18], pack(x, y, pack(z, y, 0, 8, true), 8, true), "cvt.pack.sat.s8 chained", k);
    EXPECT_EQ(g[19], 6u, "bmsk.wrap 1, 2 (the PTX ISA's example)", k);
  }

  // elect.sync: one leader among the members, the same for all of them, and a member itself.
  unsigned* de;
  CHECK(cudaMalloc(&de, 64 * 2 * 4));
  for (unsigned mask : {0xffffffffu, 0xf0f0f0f0u, 0x80000000u, 0x00010000u, 0x0000fffeu}) {
    elect<<<1, 64>>>(mask, de);
    CHECK_KERNEL();
    std::vector<unsigned> e(128);
    CHECK(cudaMemcpy(e.data(), de, e.size() * 4, cudaMemcpyDeviceToHost));
    for (int w = 0; w < 2; ++w) {
      int leaders = 0;
      unsigned first = 0xffffffffu;
      for (unsigned lane = 0; lane < 32; ++lane) {
        unsigned t = w * 32 + lane, got = e[2 * t], is = e[2 * t + 1];
        if (!((mask >> lane) & 1)) {
          EXPECT_EQ(got, 0xdeadu, "non-member untouched", t);
          continue;
        }
        if (first == 0xffffffffu) first = got;
        EXPECT_EQ(got, first, "every member names the same leader", t);
        EXPECT_TRUE(got < 32 && ((mask >> got) & 1), "the leader is a member");
        EXPECT_EQ(is, (unsigned)(lane == got), "the predicate is set exactly for the leader", t);
        leaders += is == 1;
      }
      EXPECT_EQ(leaders, 1, "one leader a warp", (long)mask);
    }
  }
  CHECK(cudaFree(da)); CHECK(cudaFree(db)); CHECK(cudaFree(dc)); CHECK(cudaFree(dout)); CHECK(cudaFree(de));
  return wf::finish();
}

//===- tests/hls/fp32_test.cpp - f32 arithmetic against the host ----------===//
//
// Part of Warpforge. Every f32 operation of fp32.h is compared bit for bit with the host's IEEE
// arithmetic in all four rounding modes, with and without FTZ (reference: flush the inputs, host
// operation, flush the result). NaN results must be the canonical NaN 0x7fffffff.
//
//===----------------------------------------------------------------------===//

#include "test_util.h"

namespace wf::hls::test {
namespace {

enum class Bin { Add, Sub, Mul, Div };

const char *binName(Bin op) {
  switch (op) {
  case Bin::Add:
    return "add";
  case Bin::Sub:
    return "sub";
  case Bin::Mul:
    return "mul";
  case Bin::Div:
    return "div";
  }
  return "?";
}

uint32_t ours32(Bin op, uint32_t a, uint32_t b, RoundMode rm, bool ftz) {
  switch (op) {
  case Bin::Add:
    return fadd32(a, b, rm, ftz);
  case Bin::Sub:
    return fsub32(a, b, rm, ftz);
  case Bin::Mul:
    return fmul32(a, b, rm, ftz);
  case Bin::Div:
    return fdiv32(a, b, rm, ftz);
  }
  return 0;
}

/// Host reference; the caller has set the host rounding mode.
uint32_t host32(Bin op, uint32_t a, uint32_t b, bool ftz) {
  if (ftz) {
    a = flush32(a);
    b = flush32(b);
  }
  volatile float x = f32(a);
  volatile float y = f32(b);
  float r = 0;
  switch (op) {
  case Bin::Add:
    r = x + y;
    break;
  case Bin::Sub:
    r = x - y;
    break;
  case Bin::Mul:
    r = x * y;
    break;
  case Bin::Div:
    r = x / y;
    break;
  }
  const uint32_t rb = bits(r);
  return ftz ? flush32(rb) : rb;
}

/// Reference fma: a*b is exact in double; a*b + c is rounded toward zero in double with a sticky
/// bit (round to odd), then rounded to float in the mode (exact for 53 >= 24 + 2 bits).
uint32_t hostFma32(uint32_t a, uint32_t b, uint32_t c, RoundMode rm, bool ftz) {
  if (ftz) {
    a = flush32(a);
    b = flush32(b);
    c = flush32(c);
  }
  const double p = static_cast<double>(f32(a)) * static_cast<double>(f32(b)); // exact
  const double cd = f32(c);
  const double odd = roundToOddHost(
      [&] {
        volatile double x = p;
        volatile double y = cd;
        return x + y;
      },
      rm);
  uint32_t r;
  {
    HostRounding h(rm);
    volatile double o = odd;
    r = bits(static_cast<float>(o));
  }
  return ftz ? flush32(r) : r;
}

void expectSame(Mismatches &mm, uint32_t ours, uint32_t ref, const char *op, RoundMode rm, bool ftz,
                uint32_t a, uint32_t b, uint32_t c = 0) {
  const bool ok = isNaN32(ref) ? ours == kF32CanonicalNaN : ours == ref;
  if (!ok)
    mm.report("%s.%s%s a=%08x b=%08x c=%08x ours=%08x ref=%08x", op, modeName(rm),
              ftz ? ".ftz" : "", a, b, c, ours, ref);
}

TEST(Fp32, CanonicalNaNConstant) {
  EXPECT_EQ(kF32CanonicalNaN, 0x7fffffffu);
  EXPECT_EQ(fadd32(0x7f800000u, 0xff800000u, RoundMode::RN, false), 0x7fffffffu);
  EXPECT_EQ(fmul32(0xffc00001u, 0x3f800000u, RoundMode::RN, false), 0x7fffffffu);
}

TEST(Fp32, BinarySpecialPairs) {
  const std::vector<uint32_t> sp = f32Specials();
  for (Bin op : {Bin::Add, Bin::Sub, Bin::Mul, Bin::Div}) {
    Mismatches mm(binName(op));
    for (RoundMode rm : kModes) {
      HostRounding h(rm);
      for (bool ftz : {false, true})
        for (uint32_t a : sp)
          for (uint32_t b : sp)
            expectSame(mm, ours32(op, a, b, rm, ftz), host32(op, a, b, ftz), binName(op), rm, ftz,
                       a, b);
    }
  }
}

TEST(Fp32, BinaryRandom) {
  const uint64_t n = iterations();
  for (Bin op : {Bin::Add, Bin::Sub, Bin::Mul, Bin::Div}) {
    Mismatches mm(binName(op));
    Rng r(0x1234 + static_cast<uint64_t>(op));
    for (RoundMode rm : kModes) {
      HostRounding h(rm);
      for (bool ftz : {false, true})
        for (uint64_t i = 0; i < n; ++i) {
          const uint32_t a = randomF32(r);
          const uint32_t b =
              (i & 1) != 0 ? static_cast<uint32_t>(nearbyPartner(r, a, 8, 23)) : randomF32(r);
          expectSame(mm, ours32(op, a, b, rm, ftz), host32(op, a, b, ftz), binName(op), rm, ftz, a,
                     b);
        }
    }
  }
}

TEST(Fp32, RoundingTiesAndOverflow) {
  // Exact ties, near-ties, overflow on rounding and underflow into the subnormal range.
  const uint32_t pairs[][2] = {
      {0x3f800000, 0x33800000}, // 1 + 2^-24: tie, even stays
      {0x3f800001, 0x33800000}, // tie, odd rounds up
      {0x3f800000, 0xb3000000}, // 1 - 2^-25: tie below 1
      {0x3f800000, 0x33800001}, // just above a tie
      {0x7f7fffff, 0x73000000}, // max + half ulp: overflow in RN
      {0x7f7fffff, 0x72ffffff}, // max + just under half ulp
      {0xff7fffff, 0xf3000000}, // -max - half ulp
      {0x00800000, 0x80000001}, // min normal - min subnormal
      {0x00000001, 0x00000001}, // subnormal sum
      {0x007fffff, 0x00000001}, // largest subnormal + 1 ulp = min normal
      {0x3f800000, 0xbf800000}, // exact cancellation: +0 (or -0 in RM)
  };
  Mismatches mm("ties");
  for (RoundMode rm : kModes) {
    HostRounding h(rm);
    for (bool ftz : {false, true})
      for (auto &p : pairs) {
        expectSame(mm, fadd32(p[0], p[1], rm, ftz), host32(Bin::Add, p[0], p[1], ftz), "add", rm,
                   ftz, p[0], p[1]);
        expectSame(mm, fsub32(p[0], p[1], rm, ftz), host32(Bin::Sub, p[0], p[1], ftz), "sub", rm,
                   ftz, p[0], p[1]);
      }
  }
  // Products that round exactly to the smallest normal, or to a tie in the subnormal range.
  const uint32_t mulPairs[][2] = {{0x1f800000, 0x20000000}, {0x3f7fffff, 0x00800001},
                                  {0x3f000000, 0x00000003}, {0x3f000000, 0x00000001},
                                  {0x3fc00000, 0x00000001}, {0x3f7fffff, 0x00800000},
                                  {0x7f000000, 0x40000000}, {0x7f7fffff, 0x3f800001}};
  for (RoundMode rm : kModes) {
    HostRounding h(rm);
    for (bool ftz : {false, true})
      for (auto &p : mulPairs)
        expectSame(mm, fmul32(p[0], p[1], rm, ftz), host32(Bin::Mul, p[0], p[1], ftz), "mul", rm,
                   ftz, p[0], p[1]);
  }
  // Known results.
  EXPECT_EQ(fadd32(0x3f800000, 0xbf800000, RoundMode::RN, false), 0x00000000u);
  EXPECT_EQ(fadd32(0x3f800000, 0xbf800000, RoundMode::RM, false), 0x80000000u);
  EXPECT_EQ(fadd32(0x7f7fffff, 0x73000000, RoundMode::RN, false), 0x7f800000u);
  EXPECT_EQ(fadd32(0x7f7fffff, 0x73000000, RoundMode::RZ, false), 0x7f7fffffu);
  EXPECT_EQ(fadd32(0x3f800000, 0x33800000, RoundMode::RN, false), 0x3f800000u);
  EXPECT_EQ(fadd32(0x3f800001, 0x33800000, RoundMode::RN, false), 0x3f800002u);
}

TEST(Fp32, FtzSemantics) {
  // Subnormal inputs are zeros under FTZ.
  EXPECT_EQ(fadd32(0x00000001u, 0x00000001u, RoundMode::RN, true), 0x00000000u);
  EXPECT_EQ(fadd32(0x00000001u, 0x00000001u, RoundMode::RN, false), 0x00000002u);
  EXPECT_EQ(fmul32(0x80000005u, 0x3f800000u, RoundMode::RN, true), 0x80000000u);
  EXPECT_EQ(fdiv32(0x3f800000u, 0x00000001u, RoundMode::RN, true), 0x7f800000u);
  // Subnormal results are flushed after rounding, keeping the sign.
  EXPECT_EQ(fmul32(0x00800000u, 0xbf000000u, RoundMode::RN, true), 0x80000000u);
  EXPECT_EQ(fmul32(0x00800000u, 0xbf000000u, RoundMode::RN, false), 0x80400000u);
  // A result that rounds up to the smallest normal is kept (flush happens after rounding).
  EXPECT_EQ(fmul32(0x3f7fffffu, 0x00800001u, RoundMode::RN, true), 0x00800000u);
  // cmp/min/max flush their inputs.
  EXPECT_TRUE(fcmp32(0x00000001u, 0x80000000u, FCmp::EQ, true));
  EXPECT_FALSE(fcmp32(0x00000001u, 0x80000000u, FCmp::EQ, false));
  EXPECT_EQ(fmin32(0x80000001u, 0x00000000u, true, false), 0x80000000u);
}

TEST(Fp32, FmaSpecialTriples) {
  const uint32_t vals[] = {0x00000000, 0x80000000, 0x00000001, 0x807fffff, 0x00800000, 0x3f800000,
                           0xbf800000, 0x3f800001, 0x33800000, 0xb3800000, 0x7f7fffff, 0xff7fffff,
                           0x7f800000, 0xff800000, 0x7fc00000, 0x40000000, 0x3effffff, 0x5f800000,
                           0x1f800000, 0xa0000000, 0x00400000, 0x4b000001};
  Mismatches mm("fma specials");
  for (RoundMode rm : kModes)
    for (bool ftz : {false, true})
      for (uint32_t a : vals)
        for (uint32_t b : vals)
          for (uint32_t c : vals)
            expectSame(mm, ffma32(a, b, c, rm, ftz), hostFma32(a, b, c, rm, ftz), "fma", rm, ftz, a,
                       b, c);
}

TEST(Fp32, FmaRandom) {
  const uint64_t n = iterations();
  Mismatches mm("fma");
  Rng r(0x77);
  for (RoundMode rm : kModes)
    for (bool ftz : {false, true})
      for (uint64_t i = 0; i < n; ++i) {
        const uint32_t a = randomF32(r);
        const uint32_t b = randomF32(r);
        uint32_t c;
        switch (i % 3) {
        case 0:
          c = randomF32(r);
          break;
        case 1: { // c close to -(a*b): catastrophic cancellation
          uint32_t p;
          {
            HostRounding h(RoundMode::RN);
            volatile float x = f32(a);
            volatile float y = f32(b);
            p = bits(x * y);
          }
          c = (p ^ 0x80000000u) + static_cast<uint32_t>(r.below(7)) - 3u;
          break;
        }
        default:
          c = static_cast<uint32_t>(nearbyPartner(r, a, 8, 23));
          break;
        }
        expectSame(mm, ffma32(a, b, c, rm, ftz), hostFma32(a, b, c, rm, ftz), "fma", rm, ftz, a, b,
                   c);
      }
  // Single rounding: fma(1+2^-23, 1-2^-23, -1) = -2^-46 exactly (the separate product rounds to 1).
  EXPECT_EQ(ffma32(0x3f800001u, 0x3f7ffffeu, 0xbf800000u, RoundMode::RN, false), 0xa8800000u);
}

TEST(Fp32, SqrtAndRcp) {
  Mismatches mm("sqrt");
  const uint64_t n = iterations();
  Rng r(0x5157);
  const std::vector<uint32_t> sp = f32Specials();
  for (RoundMode rm : kModes) {
    HostRounding h(rm);
    for (bool ftz : {false, true}) {
      auto check = [&](uint32_t a) {
        const uint32_t in = ftz ? flush32(a) : a;
        volatile float x = f32(in);
        uint32_t ref = bits(std::sqrt(x));
        if (ftz)
          ref = flush32(ref);
        expectSame(mm, fsqrt32(a, rm, ftz), ref, "sqrt", rm, ftz, a, 0);
        volatile float one = 1.0f;
        uint32_t rref = bits(one / x);
        if (ftz)
          rref = flush32(rref);
        expectSame(mm, frcp32(a, rm, ftz), rref, "rcp", rm, ftz, a, 0);
      };
      for (uint32_t a : sp)
        check(a);
      for (uint64_t i = 0; i < n; ++i)
        check(randomF32(r) & 0x7fffffffu);
      // Strided sweep over all positive patterns.
      const uint64_t step = (1ull << 31) / n + 1;
      for (uint64_t v = r.below(step); v < 0x80000000ull; v += step)
        check(static_cast<uint32_t>(v));
    }
  }
  EXPECT_EQ(fsqrt32(0x80000000u, RoundMode::RN, false), 0x80000000u); // sqrt(-0) = -0
  EXPECT_EQ(fsqrt32(0xbf800000u, RoundMode::RN, false), 0x7fffffffu);
}

/// Reference min/max written with host comparisons.
uint32_t refMinMax(uint32_t a, uint32_t b, bool isMax, bool ftz, bool nanProp) {
  if (ftz) {
    a = flush32(a);
    b = flush32(b);
  }
  const float x = f32(a);
  const float y = f32(b);
  if (std::isnan(x) && std::isnan(y))
    return 0x7fffffffu;
  if (std::isnan(x) || std::isnan(y))
    return nanProp ? 0x7fffffffu : (std::isnan(x) ? b : a);
  if (x == y) { // equal values; only the zeros differ in sign
    const bool xNeg = std::signbit(x);
    return isMax ? (xNeg ? b : a) : (xNeg ? a : b);
  }
  return isMax ? (x > y ? a : b) : (x < y ? a : b);
}

TEST(Fp32, MinMax) {
  Mismatches mm("minmax");
  std::vector<uint32_t> vals = f32Specials();
  Rng r(0x3141);
  for (int i = 0; i < 20000; ++i)
    vals.push_back(randomF32(r));
  for (bool ftz : {false, true})
    for (bool nanProp : {false, true})
      for (size_t i = 0; i < vals.size(); ++i)
        for (size_t j = 0; j < vals.size(); j += (i < 92 ? 1 : 997)) {
          const uint32_t a = vals[i];
          const uint32_t b = vals[j];
          const uint32_t mn = fmin32(a, b, ftz, nanProp);
          const uint32_t mx = fmax32(a, b, ftz, nanProp);
          if (mn != refMinMax(a, b, false, ftz, nanProp))
            mm.report("min a=%08x b=%08x ftz=%d nan=%d ours=%08x", a, b, ftz, nanProp, mn);
          if (mx != refMinMax(a, b, true, ftz, nanProp))
            mm.report("max a=%08x b=%08x ftz=%d nan=%d ours=%08x", a, b, ftz, nanProp, mx);
        }
  EXPECT_EQ(fmin32(0x00000000u, 0x80000000u, false, false), 0x80000000u);
  EXPECT_EQ(fmax32(0x80000000u, 0x00000000u, false, false), 0x00000000u);
  EXPECT_EQ(fmin32(0x7fc00000u, 0x3f800000u, false, false), 0x3f800000u);
  EXPECT_EQ(fmin32(0x7fc00000u, 0x3f800000u, false, true), 0x7fffffffu);
  EXPECT_EQ(fmax32(0x7fa00000u, 0xffc00000u, false, false), 0x7fffffffu);
}

TEST(Fp32, Compare) {
  Mismatches mm("setp");
  std::vector<uint32_t> vals = f32Specials();
  Rng r(0x2718);
  for (int i = 0; i < 3000; ++i) {
    const uint32_t v = randomF32(r);
    vals.push_back(v);
    vals.push_back(v + 1);
  }
  for (bool ftz : {false, true})
    for (size_t i = 0; i < vals.size(); ++i)
      for (size_t j = 0; j < vals.size(); j += (i < 92 ? 1 : 101)) {
        const uint32_t a = vals[i];
        const uint32_t b = vals[j];
        const float x = f32(ftz ? flush32(a) : a);
        const float y = f32(ftz ? flush32(b) : b);
        const bool u = std::isnan(x) || std::isnan(y);
        const bool expect[14] = {
            x == y,     !u && x != y, x<y, x <= y, x> y, x >= y,      u || x == y, u || x != y,
            u || x < y, u || x <= y,  u || x > y,        u || x >= y, !u,          u};
        for (int c = 0; c < 14; ++c) {
          const bool got = fcmp32(a, b, static_cast<FCmp>(c), ftz);
          if (got != expect[c])
            mm.report("cmp%d a=%08x b=%08x ftz=%d ours=%d", c, a, b, ftz, got);
        }
      }
}

TEST(Fp32, SaturateAbsNegCopysign) {
  EXPECT_EQ(fsat32(0x7fc00000u), 0u);
  EXPECT_EQ(fsat32(0xffffffffu), 0u);
  EXPECT_EQ(fsat32(0x80000000u), 0u);
  EXPECT_EQ(fsat32(0xbf800000u), 0u);
  EXPECT_EQ(fsat32(0x3f800001u), 0x3f800000u);
  EXPECT_EQ(fsat32(0x7f800000u), 0x3f800000u);
  EXPECT_EQ(fsat32(0x3f7fffffu), 0x3f7fffffu);
  EXPECT_EQ(fsat32(0x00000001u), 0x00000001u);
  EXPECT_EQ(fabs32(0xbf800000u, false), 0x3f800000u);
  EXPECT_EQ(fabs32(0x80000001u, true), 0x00000000u);
  EXPECT_EQ(fabs32(0xffc00000u, false), 0x7fffffffu);
  EXPECT_EQ(fneg32(0x3f800000u, false), 0xbf800000u);
  EXPECT_EQ(fneg32(0x00000001u, true), 0x80000000u);
  EXPECT_EQ(fneg32(0x7fc00000u, false), 0x7fffffffu);
  EXPECT_EQ(fcopysign32(0x80000000u, 0x3f800000u), 0xbf800000u);
  EXPECT_EQ(fcopysign32(0x00000000u, 0xbf800000u), 0x3f800000u);
  Rng r(9);
  Mismatches mm("sat");
  for (int i = 0; i < 100000; ++i) {
    const uint32_t v = randomF32(r);
    const float x = f32(v);
    const uint32_t ref = std::isnan(x) || std::signbit(x) ? 0u : (x > 1.0f ? 0x3f800000u : v);
    if (fsat32(v) != ref)
      mm.report("sat %08x ours=%08x", v, fsat32(v));
  }
}

TEST(Fp32, Constexpr) {
  static_assert(fadd32(0x3f800000u, 0x40000000u, RoundMode::RN, false) == 0x40400000u);
  static_assert(ffma32(0x40000000u, 0x40400000u, 0x3f800000u, RoundMode::RN, false) == 0x40e00000u);
  static_assert(fdiv32(0x3f800000u, 0x40400000u, RoundMode::RN, false) == 0x3eaaaaabu);
  static_assert(fsqrt32(0x40800000u, RoundMode::RN, false) == 0x40000000u);
  EXPECT_EQ(fdiv32(0x3f800000u, 0x40400000u, RoundMode::RZ, false), 0x3eaaaaaau);
}

} // namespace
} // namespace wf::hls::test

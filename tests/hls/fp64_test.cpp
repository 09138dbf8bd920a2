//===- tests/hls/fp64_test.cpp - f64 arithmetic against the host ----------===//
//
// Part of Warpforge. Every f64 operation of fp64.h is compared bit for bit with the host's IEEE
// double arithmetic (std::fma for the fused multiply-add) in all four rounding modes. NaN results
// must be the canonical NaN 0x7fffffffffffffff.
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

uint64_t ours64(Bin op, uint64_t a, uint64_t b, RoundMode rm) {
  switch (op) {
  case Bin::Add:
    return fadd64(a, b, rm);
  case Bin::Sub:
    return fsub64(a, b, rm);
  case Bin::Mul:
    return fmul64(a, b, rm);
  case Bin::Div:
    return fdiv64(a, b, rm);
  }
  return 0;
}

/// Host reference; the caller has set the host rounding mode.
uint64_t host64(Bin op, uint64_t a, uint64_t b) {
  volatile double x = f64(a);
  volatile double y = f64(b);
  double r = 0;
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
  return bits(r);
}

uint64_t hostFma64(uint64_t a, uint64_t b, uint64_t c) {
  volatile double x = f64(a);
  volatile double y = f64(b);
  volatile double z = f64(c);
  return bits(std::fma(x, y, z));
}

void expectSame(Mismatches &mm, uint64_t ours, uint64_t ref, const char *op, RoundMode rm,
                uint64_t a, uint64_t b, uint64_t c = 0) {
  const bool ok = isNaN64(ref) ? ours == kF64CanonicalNaN : ours == ref;
  if (!ok)
    mm.report("%s.%s a=%016llx b=%016llx c=%016llx ours=%016llx ref=%016llx", op, modeName(rm),
              static_cast<unsigned long long>(a), static_cast<unsigned long long>(b),
              static_cast<unsigned long long>(c), static_cast<unsigned long long>(ours),
              static_cast<unsigned long long>(ref));
}

TEST(Fp64, BinarySpecialPairs) {
  const std::vector<uint64_t> sp = f64Specials();
  for (Bin op : {Bin::Add, Bin::Sub, Bin::Mul, Bin::Div}) {
    Mismatches mm(binName(op));
    for (RoundMode rm : kModes) {
      HostRounding h(rm);
      for (uint64_t a : sp)
        for (uint64_t b : sp)
          expectSame(mm, ours64(op, a, b, rm), host64(op, a, b), binName(op), rm, a, b);
    }
  }
}

TEST(Fp64, BinaryRandom) {
  const uint64_t n = iterations();
  for (Bin op : {Bin::Add, Bin::Sub, Bin::Mul, Bin::Div}) {
    Mismatches mm(binName(op));
    Rng r(0x6464 + static_cast<uint64_t>(op));
    for (RoundMode rm : kModes) {
      HostRounding h(rm);
      for (uint64_t i = 0; i < n; ++i) {
        const uint64_t a = randomF64(r);
        const uint64_t b = (i & 1) != 0 ? nearbyPartner(r, a, 11, 52) : randomF64(r);
        expectSame(mm, ours64(op, a, b, rm), host64(op, a, b), binName(op), rm, a, b);
      }
    }
  }
}

TEST(Fp64, RoundingTiesAndOverflow) {
  const uint64_t pairs[][2] = {
      {0x3ff0000000000000ull, 0x3ca0000000000000ull}, // 1 + 2^-53: tie
      {0x3ff0000000000001ull, 0x3ca0000000000000ull}, // tie, odd
      {0x7fefffffffffffffull, 0x7c90000000000000ull}, // max + half ulp
      {0x0010000000000000ull, 0x8000000000000001ull}, // min normal - min subnormal
      {0x000fffffffffffffull, 0x0000000000000001ull}, // largest subnormal + 1
      {0x3ff0000000000000ull, 0xbff0000000000000ull}, // exact cancellation
  };
  Mismatches mm("ties");
  for (RoundMode rm : kModes) {
    HostRounding h(rm);
    for (auto &p : pairs) {
      expectSame(mm, fadd64(p[0], p[1], rm), host64(Bin::Add, p[0], p[1]), "add", rm, p[0], p[1]);
      expectSame(mm, fmul64(p[0], p[1], rm), host64(Bin::Mul, p[0], p[1]), "mul", rm, p[0], p[1]);
      expectSame(mm, fdiv64(p[0], p[1], rm), host64(Bin::Div, p[0], p[1]), "div", rm, p[0], p[1]);
    }
  }
  EXPECT_EQ(fadd64(0x3ff0000000000000ull, 0xbff0000000000000ull, RoundMode::RM),
            0x8000000000000000ull);
  EXPECT_EQ(fadd64(0x7fefffffffffffffull, 0x7c90000000000000ull, RoundMode::RN),
            0x7ff0000000000000ull);
}

TEST(Fp64, FmaSpecialTriples) {
  const uint64_t vals[] = {
      0x0000000000000000ull, 0x8000000000000000ull, 0x0000000000000001ull, 0x800fffffffffffffull,
      0x0010000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull, 0x3ff0000000000001ull,
      0x3ca0000000000000ull, 0x7fefffffffffffffull, 0xffefffffffffffffull, 0x7ff0000000000000ull,
      0xfff0000000000000ull, 0x7ff8000000000000ull, 0x4000000000000000ull, 0x3fdfffffffffffffull,
      0x5ff0000000000000ull, 0x1ff0000000000000ull, 0xa000000000000000ull, 0x0008000000000000ull};
  Mismatches mm("fma specials");
  for (RoundMode rm : kModes) {
    HostRounding h(rm);
    for (uint64_t a : vals)
      for (uint64_t b : vals)
        for (uint64_t c : vals)
          expectSame(mm, ffma64(a, b, c, rm), hostFma64(a, b, c), "fma", rm, a, b, c);
  }
}

TEST(Fp64, FmaRandom) {
  const uint64_t n = iterations();
  Mismatches mm("fma");
  Rng r(0x99);
  for (RoundMode rm : kModes) {
    HostRounding h(rm);
    for (uint64_t i = 0; i < n; ++i) {
      const uint64_t a = randomF64(r);
      const uint64_t b = randomF64(r);
      uint64_t c;
      switch (i % 3) {
      case 0:
        c = randomF64(r);
        break;
      case 1: { // c close to -(a*b)
        volatile double x = f64(a);
        volatile double y = f64(b);
        c = (bits(x * y) ^ 0x8000000000000000ull) + r.below(7) - 3;
        break;
      }
      default:
        c = nearbyPartner(r, a, 11, 52);
        break;
      }
      expectSame(mm, ffma64(a, b, c, rm), hostFma64(a, b, c), "fma", rm, a, b, c);
    }
  }
}

TEST(Fp64, Sqrt) {
  Mismatches mm("sqrt");
  const uint64_t n = iterations();
  Rng r(0x5151);
  std::vector<uint64_t> vals = f64Specials();
  for (uint64_t i = 0; i < n; ++i)
    vals.push_back(randomF64(r) & 0x7fffffffffffffffull);
  // Perfect squares and neighbours (exact results and near-exact remainders).
  for (uint64_t i = 0; i < n / 4; ++i) {
    const uint64_t m = (r.next() >> 38) | 1; // up to 26 bits
    volatile double s = static_cast<double>(m) * static_cast<double>(m);
    const uint64_t sb = bits(static_cast<double>(s));
    vals.push_back(sb);
    vals.push_back(sb + 1);
    vals.push_back(sb - 1);
  }
  for (RoundMode rm : kModes) {
    HostRounding h(rm);
    for (uint64_t a : vals) {
      volatile double x = f64(a);
      expectSame(mm, fsqrt64(a, rm), bits(std::sqrt(x)), "sqrt", rm, a, 0);
      volatile double one = 1.0;
      expectSame(mm, frcp64(a, rm), bits(one / x), "rcp", rm, a, 0);
    }
  }
}

TEST(Fp64, MinMaxCompareAbsNeg) {
  Mismatches mm("minmax/cmp");
  std::vector<uint64_t> vals = f64Specials();
  Rng r(0x4141);
  for (int i = 0; i < 2000; ++i)
    vals.push_back(randomF64(r));
  for (uint64_t a : vals)
    for (uint64_t b : vals) {
      const double x = f64(a);
      const double y = f64(b);
      const bool u = std::isnan(x) || std::isnan(y);
      for (bool nanProp : {false, true}) {
        uint64_t refMin;
        uint64_t refMax;
        if (std::isnan(x) && std::isnan(y)) {
          refMin = refMax = kF64CanonicalNaN;
        } else if (u) {
          refMin = refMax = nanProp ? kF64CanonicalNaN : (std::isnan(x) ? b : a);
        } else if (x == y) {
          refMin = std::signbit(x) ? a : b;
          refMax = std::signbit(x) ? b : a;
        } else {
          refMin = x < y ? a : b;
          refMax = x > y ? a : b;
        }
        if (fmin64(a, b, nanProp) != refMin)
          mm.report("min %016llx %016llx", static_cast<unsigned long long>(a),
                    static_cast<unsigned long long>(b));
        if (fmax64(a, b, nanProp) != refMax)
          mm.report("max %016llx %016llx", static_cast<unsigned long long>(a),
                    static_cast<unsigned long long>(b));
      }
      const bool expect[14] = {
          x == y,     !u && x != y, x<y, x <= y, x> y, x >= y,      u || x == y, u || x != y,
          u || x < y, u || x <= y,  u || x > y,        u || x >= y, !u,          u};
      for (int c = 0; c < 14; ++c)
        if (fcmp64(a, b, static_cast<FCmp>(c)) != expect[c])
          mm.report("cmp%d %016llx %016llx", c, static_cast<unsigned long long>(a),
                    static_cast<unsigned long long>(b));
    }
  EXPECT_EQ(fabs64(0xfff8000000000001ull), 0x7ff8000000000001ull); // NaN passes through
  EXPECT_EQ(fneg64(0x7ff8000000000001ull), 0xfff8000000000001ull);
  EXPECT_EQ(fneg64(0x0000000000000000ull), 0x8000000000000000ull);
  EXPECT_EQ(fcopysign64(0x8000000000000000ull, 0x3ff0000000000000ull), 0xbff0000000000000ull);
  EXPECT_EQ(fsat64(0x4000000000000000ull), 0x3ff0000000000000ull);
  EXPECT_EQ(fsat64(0xfff8000000000000ull), 0u);
  EXPECT_EQ(fsat64(0x3fe0000000000000ull), 0x3fe0000000000000ull);
}

} // namespace
} // namespace wf::hls::test

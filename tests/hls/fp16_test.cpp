//===- tests/hls/fp16_test.cpp - f16 and bf16 arithmetic ------------------===//
//
// Part of Warpforge. f16/bf16 results are compared with an independent reference: the exact
// operation is done in double rounding toward zero with a sticky bit (round to odd, exact for
// 53 >= 11 + 2 bits), then rounded to the 16-bit format by refRound (test_util.h), which uses only
// exact scaling and an explicit rounding decision.
//
//===----------------------------------------------------------------------===//

#include "test_util.h"

namespace wf::hls::test {
namespace {

enum class Op { Add, Sub, Mul, Fma };

long double decodeBf16(uint16_t h) { return f32(static_cast<uint32_t>(h) << 16); }

/// Reference result bits of op on decoded operands, rounded to f16 (or bf16).
uint16_t ref16(Op op, long double x, long double y, long double z, RoundMode rm, bool bf) {
  if (std::isnan(x) || std::isnan(y) || (op == Op::Fma && std::isnan(z)))
    return 0x7fff;
  const double a = static_cast<double>(x);
  const double b = static_cast<double>(y);
  const double c = static_cast<double>(z);
  const double odd = roundToOddHost(
      [&]() -> double {
        volatile double va = a;
        volatile double vb = b;
        volatile double vc = c;
        switch (op) {
        case Op::Add:
          return va + vb;
        case Op::Sub:
          return va - vb;
        case Op::Mul:
          return va * vb;
        case Op::Fma:
          return std::fma(va, vb, vc);
        }
        return 0;
      },
      rm);
  if (std::isnan(odd))
    return 0x7fff;
  return bf ? refToBf16(odd, rm) : refToF16(odd, rm);
}

uint16_t ours16(Op op, uint16_t a, uint16_t b, uint16_t c, RoundMode rm, bool ftz) {
  switch (op) {
  case Op::Add:
    return fadd16(a, b, rm, ftz);
  case Op::Sub:
    return fsub16(a, b, rm, ftz);
  case Op::Mul:
    return fmul16(a, b, rm, ftz);
  case Op::Fma:
    return ffma16(a, b, c, rm, ftz);
  }
  return 0;
}

uint16_t oursBf16(Op op, uint16_t a, uint16_t b, uint16_t c, RoundMode rm) {
  switch (op) {
  case Op::Add:
    return faddBf16(a, b, rm);
  case Op::Sub:
    return fsubBf16(a, b, rm);
  case Op::Mul:
    return fmulBf16(a, b, rm);
  case Op::Fma:
    return ffmaBf16(a, b, c, rm);
  }
  return 0;
}

void check16(Mismatches &mm, Op op, uint16_t a, uint16_t b, uint16_t c, RoundMode rm, bool ftz) {
  const uint16_t fa = ftz ? flush16(a) : a;
  const uint16_t fb = ftz ? flush16(b) : b;
  const uint16_t fc = ftz ? flush16(c) : c;
  uint16_t ref = ref16(op, decodeF16(fa), decodeF16(fb), decodeF16(fc), rm, false);
  if (ftz)
    ref = flush16(ref);
  const uint16_t ours = ours16(op, a, b, c, rm, ftz);
  const bool ok = isNaN16(ref) ? ours == 0x7fff : ours == ref;
  if (!ok)
    mm.report("op%d.%s%s a=%04x b=%04x c=%04x ours=%04x ref=%04x", static_cast<int>(op),
              modeName(rm), ftz ? ".ftz" : "", a, b, c, ours, ref);
}

TEST(Fp16, ReferenceSelfCheck) {
  // The independent rounding reference agrees with known encodings.
  EXPECT_EQ(refToF16(1.0L, RoundMode::RN), 0x3c00);
  EXPECT_EQ(refToF16(65504.0L, RoundMode::RN), 0x7bff);
  EXPECT_EQ(refToF16(65520.0L, RoundMode::RN), 0x7c00);
  EXPECT_EQ(refToF16(65520.0L, RoundMode::RZ), 0x7bff);
  EXPECT_EQ(refToF16(0x1p-24L, RoundMode::RN), 0x0001);
  EXPECT_EQ(refToF16(0x1p-25L, RoundMode::RN), 0x0000);
  EXPECT_EQ(refToF16(0x1.8p-25L, RoundMode::RN), 0x0001);
  EXPECT_EQ(refToF16(-0x1p-30L, RoundMode::RM), 0x8001);
  for (uint32_t h = 0; h < 0x10000; ++h) {
    if (!isNaN16(static_cast<uint16_t>(h))) {
      ASSERT_EQ(encodeF16(decodeF16(static_cast<uint16_t>(h))), h);
    }
  }
}

TEST(Fp16, BinaryExhaustiveSlices) {
  // Every a against a strided set of b, all modes, with and without ftz.
  Rng r(0x1616);
  for (Op op : {Op::Add, Op::Sub, Op::Mul}) {
    Mismatches mm("f16 binary");
    const uint64_t bCount = scaled(12);
    for (uint64_t k = 0; k < bCount; ++k) {
      const uint16_t b = k < 8 ? f16Specials()[r.below(f16Specials().size())] : randomF16(r);
      for (uint32_t a = static_cast<uint32_t>(r.below(5)); a < 0x10000; a += 5)
        for (RoundMode rm : kModes)
          check16(mm, op, static_cast<uint16_t>(a), b, 0, rm, (a & 4) != 0);
    }
  }
}

TEST(Fp16, FmaRandom) {
  Mismatches mm("f16 fma");
  Rng r(0xf16a);
  const std::vector<uint16_t> sp = f16Specials();
  for (RoundMode rm : kModes)
    for (bool ftz : {false, true}) {
      for (uint16_t a : sp)
        for (uint16_t b : sp)
          for (size_t k = 0; k < sp.size(); k += 3)
            check16(mm, Op::Fma, a, b, sp[k], rm, ftz);
      for (uint64_t i = 0; i < iterations() / 4; ++i) {
        const uint16_t a = randomF16(r);
        const uint16_t b = randomF16(r);
        uint16_t c = randomF16(r);
        if ((i & 1) != 0) { // c near -(a*b)
          const long double p = decodeF16(a) * decodeF16(b);
          c = static_cast<uint16_t>(refToF16(-p, RoundMode::RN) + r.below(5) - 2);
        }
        check16(mm, Op::Fma, a, b, c, rm, ftz);
      }
    }
}

TEST(Fp16, MinMaxCompareSat) {
  Mismatches mm("f16 minmax/cmp");
  for (uint32_t i = 0; i < 0x10000; i += 7)
    for (uint32_t j = 0; j < 0x10000; j += 331) {
      const uint16_t a = static_cast<uint16_t>(i);
      const uint16_t b = static_cast<uint16_t>(j);
      for (bool ftz : {false, true}) {
        const long double x = decodeF16(ftz ? flush16(a) : a);
        const long double y = decodeF16(ftz ? flush16(b) : b);
        const uint16_t fa = ftz ? flush16(a) : a;
        const uint16_t fb = ftz ? flush16(b) : b;
        const bool u = std::isnan(x) || std::isnan(y);
        uint16_t refMin;
        uint16_t refMax;
        if (std::isnan(x) && std::isnan(y)) {
          refMin = refMax = 0x7fff;
        } else if (u) {
          refMin = refMax = std::isnan(x) ? fb : fa;
        } else if (x == y) {
          refMin = std::signbit(x) ? fa : fb;
          refMax = std::signbit(x) ? fb : fa;
        } else {
          refMin = x < y ? fa : fb;
          refMax = x > y ? fa : fb;
        }
        if (fmin16(a, b, ftz, false) != refMin || fmax16(a, b, ftz, false) != refMax)
          mm.report("minmax %04x %04x ftz=%d", a, b, ftz);
        if (u && (fmin16(a, b, ftz, true) != 0x7fff || fmax16(a, b, ftz, true) != 0x7fff))
          mm.report("minmax.NaN %04x %04x", a, b);
        const bool expect[14] = {
            x == y,     !u && x != y, x<y, x <= y, x> y, x >= y,      u || x == y, u || x != y,
            u || x < y, u || x <= y,  u || x > y,        u || x >= y, !u,          u};
        for (int c = 0; c < 14; ++c)
          if (fcmp16(a, b, static_cast<FCmp>(c), ftz) != expect[c])
            mm.report("cmp%d %04x %04x ftz=%d", c, a, b, ftz);
      }
    }
  for (uint32_t i = 0; i < 0x10000; ++i) {
    const uint16_t a = static_cast<uint16_t>(i);
    const long double x = decodeF16(a);
    const uint16_t ref = std::isnan(x) || std::signbit(x) ? 0 : (x > 1 ? 0x3c00 : a);
    if (fsat16(a) != ref)
      mm.report("sat %04x", a);
    const uint16_t absRef = isNaN16(a) ? 0x7fff : static_cast<uint16_t>(a & 0x7fff);
    const uint16_t negRef = isNaN16(a) ? 0x7fff : static_cast<uint16_t>(a ^ 0x8000);
    if (fabs16(a, false) != absRef || fneg16(a, false) != negRef)
      mm.report("abs/neg %04x", a);
    if (fabs16(a, true) != (isNaN16(a) ? 0x7fff : static_cast<uint16_t>(flush16(a) & 0x7fff)))
      mm.report("abs.ftz %04x", a);
  }
}

TEST(Bf16, ArithmeticRandom) {
  Mismatches mm("bf16");
  Rng r(0xbf16);
  const uint64_t n = iterations() / 4;
  for (Op op : {Op::Add, Op::Sub, Op::Mul, Op::Fma})
    for (RoundMode rm : kModes)
      for (uint64_t i = 0; i < n; ++i) {
        const uint16_t a = static_cast<uint16_t>(randomFloatBits(r, 8, 7));
        const uint16_t b = (i & 1) != 0 ? static_cast<uint16_t>(nearbyPartner(r, a, 8, 7))
                                        : static_cast<uint16_t>(randomFloatBits(r, 8, 7));
        const uint16_t c = static_cast<uint16_t>(randomFloatBits(r, 8, 7));
        const uint16_t ref = ref16(op, decodeBf16(a), decodeBf16(b), decodeBf16(c), rm, true);
        const uint16_t ours = oursBf16(op, a, b, c, rm);
        const bool ok = isNaN32(static_cast<uint32_t>(ref) << 16) ? ours == 0x7fff : ours == ref;
        if (!ok)
          mm.report("op%d.%s a=%04x b=%04x c=%04x ours=%04x ref=%04x", static_cast<int>(op),
                    modeName(rm), a, b, c, ours, ref);
      }
  EXPECT_EQ(fminBf16(0x7fc0, 0x3f80, false), 0x3f80);
  EXPECT_EQ(fmaxBf16(0x8000, 0x0000, false), 0x0000);
  EXPECT_TRUE(fcmpBf16(0x8000, 0x0000, FCmp::EQ));
}

} // namespace
} // namespace wf::hls::test

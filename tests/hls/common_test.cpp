//===- tests/hls/common_test.cpp - Shared rounding and wide helpers -------===//
//
// Part of Warpforge. The building blocks of fp_common.h: classification, unpack/round/pack round
// trips, rounding at the subnormal and overflow boundaries, sticky shifts, 128-bit leading zeros
// and the integer square root.
//
//===----------------------------------------------------------------------===//

#include "test_util.h"

namespace wf::hls::test {
namespace {

TEST(Common, Classification) {
  Mismatches mm("classify");
  std::vector<uint32_t> vals = f32Specials();
  Rng r(1);
  for (int i = 0; i < 100000; ++i)
    vals.push_back(randomF32(r));
  for (uint32_t x : vals) {
    const float f = f32(x);
    const int c = std::fpclassify(f);
    if (isNaN<F32>(x) != (c == FP_NAN) || isInf<F32>(x) != (c == FP_INFINITE) ||
        isZero<F32>(x) != (c == FP_ZERO) || isSubnormal<F32>(x) != (c == FP_SUBNORMAL) ||
        isNormal<F32>(x) != (c == FP_NORMAL) ||
        isFinite<F32>(x) != static_cast<bool>(std::isfinite(f)) ||
        signOf<F32>(x) != static_cast<bool>(std::signbit(f)))
      mm.report("x=%08x", x);
    if (flushSubnormal<F32>(x) != flush32(x))
      mm.report("flush x=%08x", x);
  }
  EXPECT_EQ(F32::kCanonicalNaN, 0x7fffffffu);
  EXPECT_EQ(F64::kCanonicalNaN, 0x7fffffffffffffffull);
  EXPECT_EQ(F16::kCanonicalNaN, 0x7fff);
  EXPECT_EQ(BF16::kCanonicalNaN, 0x7fff);
  EXPECT_EQ(F16::kMaxFinite, 0x7bff);
  EXPECT_EQ(F32::kOne, 0x3f800000u);
}

TEST(Common, UnpackPackRoundTrip) {
  Mismatches mm("round trip");
  Rng r(2);
  for (uint64_t i = 0; i < iterations(); ++i) {
    const uint32_t x = randomF32(r);
    const uint64_t d = randomF64(r);
    const uint16_t h = randomF16(r);
    for (RoundMode rm : kModes) {
      if (!isNaN32(x) && packUnpacked<F32>(unpack<F32>(x), rm) != x)
        mm.report("f32 %08x", x);
      if (!isNaN64(d) && packUnpacked<F64>(unpack<F64>(d), rm) != d)
        mm.report("f64 %016llx", static_cast<unsigned long long>(d));
      if (!isNaN16(h) && packUnpacked<F16>(unpack<F16>(h), rm) != h)
        mm.report("f16 %04x", h);
    }
    // The unpacked value is the value: sig * 2^(exp - 63).
    const Unpacked u = unpack<F32>(x);
    if (u.cls == FpClass::Finite) {
      const double v = std::ldexp(static_cast<double>(u.sig), u.exp - 63);
      if ((u.sig >> 63) == 0 || v != std::fabs(static_cast<double>(f32(x))))
        mm.report("unpack value %08x", x);
    }
  }
}

TEST(Common, RoundPackBoundaries) {
  const uint64_t one = 1ull << 63;
  // Exactly representable values.
  EXPECT_EQ(roundPack<F32>(false, 0, one, RoundMode::RN), 0x3f800000u);
  EXPECT_EQ(roundPack<F32>(true, -149, one, RoundMode::RN), 0x80000001u);
  EXPECT_EQ(roundPack<F32>(false, 127, ~0ull << 40, RoundMode::RN), 0x7f7fffffu);
  // Half of the smallest subnormal: tie to even (0) in RN, away in RP.
  EXPECT_EQ(roundPack<F32>(false, -150, one, RoundMode::RN), 0x00000000u);
  EXPECT_EQ(roundPack<F32>(false, -150, one, RoundMode::RP), 0x00000001u);
  EXPECT_EQ(roundPack<F32>(true, -150, one, RoundMode::RM), 0x80000001u);
  EXPECT_EQ(roundPack<F32>(false, -150, one | 1, RoundMode::RN), 0x00000001u);
  // Far below the subnormal range.
  EXPECT_EQ(roundPack<F32>(false, -100000, one, RoundMode::RN), 0x00000000u);
  EXPECT_EQ(roundPack<F32>(false, -100000, one, RoundMode::RP), 0x00000001u);
  EXPECT_EQ(roundPack<F32>(false, -100000, one, RoundMode::RZ), 0x00000000u);
  // Rounding up from the largest subnormal gives the smallest normal.
  EXPECT_EQ(roundPack<F32>(false, -127, ~0ull, RoundMode::RN), 0x00800000u);
  // Overflow by rounding and by exponent, per mode and sign.
  EXPECT_EQ(roundPack<F32>(false, 127, ~0ull, RoundMode::RN), 0x7f800000u);
  EXPECT_EQ(roundPack<F32>(false, 127, ~0ull, RoundMode::RZ), 0x7f7fffffu);
  EXPECT_EQ(roundPack<F32>(true, 128, one, RoundMode::RP), 0xff7fffffu);
  EXPECT_EQ(roundPack<F32>(true, 128, one, RoundMode::RM), 0xff800000u);
  EXPECT_EQ(roundPack<F32>(false, 100000, one, RoundMode::RM), 0x7f7fffffu);
  EXPECT_EQ(roundPack<F16>(false, 15, ~0ull, RoundMode::RN), 0x7c00);
  EXPECT_EQ(roundPack<F64>(false, -1075, one, RoundMode::RN), 0u);
  EXPECT_EQ(roundPack<F64>(false, -1074, one, RoundMode::RN), 1u);
  // packScaled with an arbitrary integer magnitude.
  EXPECT_EQ(packScaled<F32>(false, 3, -1, RoundMode::RN), 0x3fc00000u);
  EXPECT_EQ(packScaled<F32>(true, 0, 5, RoundMode::RN), 0x80000000u);
  EXPECT_EQ(packScaled128<F32>(false, static_cast<U128>(1) << 100, -100, RoundMode::RN),
            0x3f800000u);
}

TEST(Common, RoundPackAgainstHost) {
  // roundPack of a random 64-bit significand equals the host's rounding of the same long double.
  Mismatches mm("roundPack");
  Rng r(3);
  for (uint64_t i = 0; i < iterations(); ++i) {
    const uint64_t sig = r.next() | (1ull << 63);
    const int32_t e = static_cast<int32_t>(r.below(320)) - 170;
    const bool sign = (r.next() & 1) != 0;
    const long double v = std::ldexp(static_cast<long double>(sig), e - 63) * (sign ? -1 : 1);
    for (RoundMode rm : kModes) {
      const uint32_t want = bits(static_cast<float>(refRound(v, 24, -126, 0x1.fffffep127L, rm)));
      if (roundPack<F32>(sign, e, sig, rm) != want)
        mm.report("sig=%016llx e=%d %s", static_cast<unsigned long long>(sig), e, modeName(rm));
      // The same significand with exponent e/8 (within the f16 range), rounded to f16.
      if (roundPack<F16>(sign, e / 8, sig, rm) != refToF16(std::ldexp(v, e / 8 - e), rm))
        mm.report("f16 sig=%016llx e=%d %s", static_cast<unsigned long long>(sig), e / 8,
                  modeName(rm));
    }
  }
}

TEST(Common, WideHelpers) {
  EXPECT_EQ(clz128(static_cast<U128>(1)), 127);
  EXPECT_EQ(clz128(static_cast<U128>(1) << 64), 63);
  EXPECT_EQ(clz128(~static_cast<U128>(0)), 0);
  EXPECT_EQ(clz128(0), 128);
  EXPECT_EQ(shiftRightJam64(0x8000000000000001ull, 1), 0x4000000000000001ull);
  EXPECT_EQ(shiftRightJam64(0x8000000000000000ull, 1), 0x4000000000000000ull);
  EXPECT_EQ(shiftRightJam64(0x8000000000000000ull, 64), 1u);
  EXPECT_EQ(shiftRightJam64(0, 200), 0u);
  EXPECT_EQ(shiftRightJam64(5, 0), 5u);
  EXPECT_TRUE(shiftRightJam128(static_cast<U128>(3), 1) == static_cast<U128>(1));
  EXPECT_TRUE(shiftRightJam128(static_cast<U128>(1), 300) == static_cast<U128>(1));
  Rng r(4);
  Mismatches mm("jam");
  for (int i = 0; i < 100000; ++i) {
    const uint64_t v = r.next() >> r.below(64);
    const uint32_t n = static_cast<uint32_t>(r.below(70));
    const uint64_t plain = n >= 64 ? 0 : v >> n;
    const bool lost = n >= 64 ? v != 0 : (n > 0 && (v & ((1ull << n) - 1)) != 0);
    if (shiftRightJam64(v, n) != (plain | (lost ? 1 : 0)))
      mm.report("jam64 v=%016llx n=%u", static_cast<unsigned long long>(v), n);
    const U128 w = (static_cast<U128>(r.next()) << 64) | r.next();
    const uint32_t m = static_cast<uint32_t>(r.below(140));
    const U128 p = m >= 128 ? 0 : w >> m;
    const bool l = m >= 128 ? w != 0 : (m > 0 && (w << (128 - m)) != 0);
    if (shiftRightJam128(w, m) != (p | (l ? 1 : 0)))
      mm.report("jam128 n=%u", m);
    int lz = 0;
    for (int k = 127; k >= 0 && ((w >> k) & 1) == 0; --k)
      ++lz;
    if (clz128(w) != lz)
      mm.report("clz128");
  }
}

TEST(Common, IntegerSquareRoot) {
  Mismatches mm("isqrt");
  Rng r(5);
  for (uint64_t i = 0; i < iterations(); ++i) {
    const int bitsN = static_cast<int>(r.below(113));
    U128 n = (static_cast<U128>(r.next()) << 64) | r.next();
    n = bitsN == 0 ? 0 : n >> (128 - bitsN);
    if ((i & 3) == 0) { // squares and their neighbours
      const uint64_t q = r.next() >> (8 + r.below(56));
      n = static_cast<U128>(q) * q + static_cast<U128>(r.below(3)) - 1;
      if (q == 0)
        n = 0;
    }
    const uint64_t got = isqrt128(n);
    const U128 g = got;
    if (g * g > n || (g + 1) * (g + 1) <= n)
      mm.report("n=%016llx%016llx got=%016llx", static_cast<unsigned long long>(n >> 64),
                static_cast<unsigned long long>(n), static_cast<unsigned long long>(got));
  }
  for (int k = 0; k < 112; ++k) {
    const U128 n = static_cast<U128>(1) << k;
    EXPECT_EQ(static_cast<U128>(isqrt128(n)), isqrtExact(n)) << k;
    EXPECT_EQ(static_cast<U128>(isqrt128(n - 1)), isqrtExact(n - 1)) << k;
  }
  static_assert(isqrt128(static_cast<U128>(1) << 100) == (1ull << 50));
}

TEST(Common, TotalOrderKey) {
  Mismatches mm("order");
  Rng r(6);
  for (int i = 0; i < 200000; ++i) {
    const uint32_t a = randomF32(r);
    const uint32_t b = randomF32(r);
    if (isNaN32(a) || isNaN32(b))
      continue;
    const float x = f32(a);
    const float y = f32(b);
    const bool lt = x < y || (x == y && std::signbit(x) && !std::signbit(y));
    if ((totalOrderKey<F32>(a) < totalOrderKey<F32>(b)) != lt)
      mm.report("a=%08x b=%08x", a, b);
  }
}

} // namespace
} // namespace wf::hls::test

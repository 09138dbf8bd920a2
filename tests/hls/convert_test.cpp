//===- tests/hls/convert_test.cpp - Conversions (PTX cvt) -----------------===//
//
// Part of Warpforge. Conversions are checked against references built from exact long double
// arithmetic (64-bit significand: every f16/bf16/f32/f64 value and every 64-bit integer is exact)
// with explicit rounding decisions, and against the host's own conversions where those are exact
// IEEE operations (f64 -> f32 under fesetround, rint/trunc/floor/ceil).
//
//===----------------------------------------------------------------------===//

#include "test_util.h"

namespace wf::hls::test {
namespace {

constexpr IntType kIntTypes[8] = {IntType::U8,  IntType::S8,  IntType::U16, IntType::S16,
                                  IntType::U32, IntType::S32, IntType::U64, IntType::S64};

/// Round a long double to an integral value with the mode, using exact operations only.
long double roundIntegral(long double v, RoundMode rm) {
  if (std::isinf(v) || std::isnan(v))
    return v;
  const long double fl = std::floor(v);
  switch (rm) {
  case RoundMode::RN: {
    const long double d = v - fl;
    if (d > 0.5L || (d == 0.5L && std::fmod(fl, 2.0L) != 0))
      return fl + 1;
    return fl;
  }
  case RoundMode::RZ:
    return std::trunc(v);
  case RoundMode::RM:
    return fl;
  case RoundMode::RP:
    return std::ceil(v);
  }
  return v;
}

/// Reference float-to-integer: round, saturate, NaN -> 0, sign/zero-extended to 64 bits.
uint64_t refToInt(long double v, IntType t, RoundMode rm) {
  if (std::isnan(v))
    return 0;
  const long double r = roundIntegral(v, rm);
  const int n = static_cast<int>(intTypeBits(t));
  if (intTypeSigned(t)) {
    const long double lo = -std::ldexp(1.0L, n - 1);
    const long double hi = std::ldexp(1.0L, n - 1) - 1;
    const long double c = r < lo ? lo : (r > hi ? hi : r);
    return static_cast<uint64_t>(static_cast<int64_t>(c));
  }
  const long double hi = std::ldexp(1.0L, n) - 1;
  const long double c = r < 0 ? 0 : (r > hi ? hi : r);
  return static_cast<uint64_t>(c);
}

/// Interesting float values for integer conversion: near integers, halves and the type limits.
std::vector<long double> intBoundaryValues() {
  std::vector<long double> v;
  const long double base[] = {0, 0.25L, 0.5L, 0.75L, 1, 1.5L, 2, 2.5L, 3.5L, 1e-30L, 1e30L};
  for (long double b : base) {
    v.push_back(b);
    v.push_back(-b);
  }
  for (int n : {7, 8, 15, 16, 31, 32, 63, 64}) {
    const long double p = std::ldexp(1.0L, n);
    for (long double d : {-1.5L, -1.0L, -0.5L, 0.0L, 0.5L, 1.0L, 1.5L}) {
      v.push_back(p + d);
      v.push_back(-(p + d));
    }
  }
  return v;
}

TEST(Convert, F32ToInt) {
  Mismatches mm("cvt f32->int");
  std::vector<uint32_t> vals = f32Specials();
  for (long double b : intBoundaryValues()) {
    const float f = static_cast<float>(b);
    vals.push_back(bits(f));
    vals.push_back(bits(f) + 1);
    vals.push_back(bits(f) - 1);
  }
  Rng r(0xc0);
  for (uint64_t i = 0; i < iterations() / 4; ++i) {
    uint32_t x = randomF32(r);
    if ((i & 1) != 0) // magnitudes up to 2^70
      x = (x & 0x807fffffu) | static_cast<uint32_t>((0x70 + r.below(0x56)) << 23);
    vals.push_back(x);
  }
  for (uint32_t x : vals)
    for (bool ftz : {false, true}) {
      const long double v = f32(ftz ? flush32(x) : x);
      for (IntType t : kIntTypes)
        for (RoundMode rm : kModes) {
          const uint64_t ours = cvtF32ToInt(x, t, rm, ftz);
          const uint64_t ref = refToInt(v, t, rm);
          if (ours != ref)
            mm.report("x=%08x type=%d %s ftz=%d ours=%llx ref=%llx", x, static_cast<int>(t),
                      modeName(rm), ftz, static_cast<unsigned long long>(ours),
                      static_cast<unsigned long long>(ref));
        }
    }
  EXPECT_EQ(cvtF32ToInt(0x00000001u, IntType::S32, RoundMode::RP, false), 1u);
  EXPECT_EQ(cvtF32ToInt(0x00000001u, IntType::S32, RoundMode::RP, true), 0u);
  EXPECT_EQ(cvtF32ToInt(0x7fc00000u, IntType::S32, RoundMode::RN, false), 0u);
  EXPECT_EQ(cvtF32ToInt(0xcf000001u, IntType::S32, RoundMode::RZ, false), 0xffffffff80000000ull);
  EXPECT_EQ(cvtF32ToInt(0x7f800000u, IntType::U64, RoundMode::RZ, false), ~0ull);
  EXPECT_EQ(cvtF32ToInt(0xbf000000u, IntType::U32, RoundMode::RM, false), 0u); // -0.5 -> -1 -> 0
}

TEST(Convert, F64ToInt) {
  Mismatches mm("cvt f64->int");
  std::vector<uint64_t> vals = f64Specials();
  for (long double b : intBoundaryValues()) {
    const double d = static_cast<double>(b);
    vals.push_back(bits(d));
    vals.push_back(bits(d) + 1);
    vals.push_back(bits(d) - 1);
  }
  Rng r(0xc1);
  for (uint64_t i = 0; i < iterations() / 4; ++i) {
    uint64_t x = randomF64(r);
    if ((i & 1) != 0)
      x = (x & 0x800fffffffffffffull) | ((0x3c0 + r.below(0x86)) << 52);
    vals.push_back(x);
  }
  for (uint64_t x : vals) {
    const long double v = f64(x);
    for (IntType t : kIntTypes)
      for (RoundMode rm : kModes) {
        const uint64_t ours = cvtF64ToInt(x, t, rm);
        const uint64_t ref = refToInt(v, t, rm);
        if (ours != ref)
          mm.report("x=%016llx type=%d %s ours=%llx ref=%llx", static_cast<unsigned long long>(x),
                    static_cast<int>(t), modeName(rm), static_cast<unsigned long long>(ours),
                    static_cast<unsigned long long>(ref));
      }
  }
  EXPECT_EQ(cvtF64ToInt(0xc3e0000000000000ull, IntType::S64, RoundMode::RN), 1ull << 63);
  EXPECT_EQ(cvtF64ToInt(0x43f0000000000000ull, IntType::U64, RoundMode::RN), ~0ull);
  EXPECT_EQ(cvtF64ToInt(0xbff8000000000000ull, IntType::S8, RoundMode::RN), ~1ull); // -1.5 -> -2
}

TEST(Convert, F16AndBf16ToIntExhaustive) {
  Mismatches mm("cvt f16/bf16->int");
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const uint16_t x = static_cast<uint16_t>(h);
    const long double vh = decodeF16(x);
    const long double vb = f32(h << 16);
    for (IntType t : kIntTypes)
      for (RoundMode rm : kModes) {
        if (cvtF16ToInt(x, t, rm) != refToInt(vh, t, rm))
          mm.report("f16 x=%04x type=%d %s", x, static_cast<int>(t), modeName(rm));
        if (cvtBf16ToInt(x, t, rm) != refToInt(vb, t, rm))
          mm.report("bf16 x=%04x type=%d %s", x, static_cast<int>(t), modeName(rm));
      }
  }
}

TEST(Convert, IntToFloat) {
  Mismatches mm("cvt int->float");
  Rng r(0x1f);
  std::vector<uint64_t> vals = {0,
                                1,
                                2,
                                3,
                                0x7f,
                                0x80,
                                0xff,
                                0x7fff,
                                0x8000,
                                0xffff,
                                0xffe0,
                                0xfff0,
                                0x1000001,
                                0x1000003,
                                0x7fffffff,
                                0x80000000,
                                0xffffffff,
                                ~0ull,
                                1ull << 63,
                                (1ull << 63) - 1,
                                0x20000000000001ull,
                                0x20000000000003ull,
                                0xffffff8000000000ull};
  for (uint64_t i = 0; i < iterations() / 2; ++i) {
    const int len = static_cast<int>(r.below(65));
    uint64_t v = len == 64 ? r.next() : (r.next() & ((1ull << len) - 1));
    if ((i & 3) == 0) // runs of ones around rounding boundaries
      v = (~0ull >> r.below(64)) ^ (r.next() & 0xff);
    vals.push_back(v);
  }
  for (RoundMode rm : kModes) {
    HostRounding h(rm);
    for (uint64_t raw : vals)
      for (IntType t : kIntTypes) {
        const uint64_t ext = intTypeExtend(raw, t);
        const long double v = intTypeSigned(t) ? static_cast<long double>(static_cast<int64_t>(ext))
                                               : static_cast<long double>(ext);
        const uint32_t refF = bits(static_cast<float>(refRound(v, 24, -126, 0x1.fffffep127L, rm)));
        const uint64_t refD =
            bits(static_cast<double>(refRound(v, 53, -1022, 0x1.fffffffffffffp1023L, rm)));
        const uint16_t refH = refToF16(v, rm);
        const uint16_t refB = refToBf16(v, rm);
        if (cvtIntToF32(raw, t, rm) != refF || cvtIntToF64(raw, t, rm) != refD ||
            cvtIntToF16(raw, t, rm) != refH || cvtIntToBf16(raw, t, rm) != refB)
          mm.report("v=%llx type=%d %s f32=%08x/%08x f16=%04x/%04x",
                    static_cast<unsigned long long>(raw), static_cast<int>(t), modeName(rm),
                    cvtIntToF32(raw, t, rm), refF, cvtIntToF16(raw, t, rm), refH);
        // The host's own conversions (under the same rounding mode) agree for f32 and f64.
        const float hf = intTypeSigned(t) ? static_cast<float>(static_cast<int64_t>(ext))
                                          : static_cast<float>(ext);
        const double hd = intTypeSigned(t) ? static_cast<double>(static_cast<int64_t>(ext))
                                           : static_cast<double>(ext);
        if (bits(hf) != refF || bits(hd) != refD)
          mm.report("host disagrees v=%llx type=%d %s", static_cast<unsigned long long>(raw),
                    static_cast<int>(t), modeName(rm));
      }
  }
  EXPECT_EQ(cvtIntToF16(65520, IntType::U32, RoundMode::RN), 0x7c00); // overflow to inf
  EXPECT_EQ(cvtIntToF16(65520, IntType::U32, RoundMode::RZ), 0x7bff);
  EXPECT_EQ(cvtIntToF32(0xffffffffu, IntType::S32, RoundMode::RN), 0xbf800000u);
}

TEST(Convert, FloatToFloat) {
  Mismatches mm("cvt float->float");
  Rng r(0xff);
  std::vector<uint64_t> d = f64Specials();
  for (uint64_t i = 0; i < iterations(); ++i) {
    uint64_t x = randomF64(r);
    if ((i & 1) != 0) // exponents around the f32 and f16 ranges
      x = (x & 0x800fffffffffffffull) | ((0x340 + r.below(0x100)) << 52);
    d.push_back(x);
  }
  for (uint64_t x : d) {
    const long double v = f64(x);
    for (RoundMode rm : kModes) {
      uint32_t ref;
      {
        HostRounding h(rm);
        volatile double vd = f64(x);
        ref = bits(static_cast<float>(vd));
      }
      for (bool ftz : {false, true}) {
        const uint32_t want = isNaN32(ref) ? kF32CanonicalNaN : (ftz ? flush32(ref) : ref);
        if (cvtF64ToF32(x, rm, ftz) != want)
          mm.report("f64->f32 %016llx %s ftz=%d", static_cast<unsigned long long>(x), modeName(rm),
                    ftz);
      }
      if (cvtF64ToF16(x, rm) != refToF16(v, rm))
        mm.report("f64->f16 %016llx %s", static_cast<unsigned long long>(x), modeName(rm));
    }
  }
  std::vector<uint32_t> s = f32Specials();
  for (uint64_t i = 0; i < iterations(); ++i)
    s.push_back(randomF32(r));
  for (uint32_t x : s) {
    for (bool ftz : {false, true}) {
      const uint32_t in = ftz ? flush32(x) : x;
      const uint64_t wantD = isNaN32(x) ? kF64CanonicalNaN : bits(static_cast<double>(f32(in)));
      if (cvtF32ToF64(x, ftz) != wantD)
        mm.report("f32->f64 %08x ftz=%d", x, ftz);
      for (RoundMode rm : kModes) {
        if (cvtF32ToF16(x, rm, ftz) != refToF16(f32(in), rm))
          mm.report("f32->f16 %08x %s ftz=%d", x, modeName(rm), ftz);
        if (cvtF32ToBf16(x, rm, ftz) != refToBf16(f32(in), rm))
          mm.report("f32->bf16 %08x %s ftz=%d", x, modeName(rm), ftz);
      }
    }
  }
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const uint16_t x = static_cast<uint16_t>(h);
    const long double v = decodeF16(x);
    const uint32_t wantF = isNaN16(x) ? kF32CanonicalNaN : bits(static_cast<float>(v));
    const uint64_t wantD = isNaN16(x) ? kF64CanonicalNaN : bits(static_cast<double>(v));
    if (cvtF16ToF32(x) != wantF || cvtF16ToF64(x) != wantD)
      mm.report("f16->f32/f64 %04x", x);
    const uint32_t wantB = isNaN32(h << 16) ? kF32CanonicalNaN : (h << 16);
    if (cvtBf16ToF32(x) != wantB)
      mm.report("bf16->f32 %04x", x);
  }
  EXPECT_EQ(cvtF32ToF16(0x477ff000u, RoundMode::RN, false), 0x7c00); // 65520 -> inf
  EXPECT_EQ(cvtF32ToF16(0x33000000u, RoundMode::RN, false), 0x0000); // 2^-25 tie -> 0
  EXPECT_EQ(cvtF32ToF16(0x33000001u, RoundMode::RN, false), 0x0001);
  EXPECT_EQ(cvtF32ToBf16(0x3f808000u, RoundMode::RN, false), 0x3f80); // tie to even
  EXPECT_EQ(cvtF32ToBf16(0x3f818000u, RoundMode::RN, false), 0x3f82);
  EXPECT_EQ(cvtF64ToF32(0x36a0000000000000ull, RoundMode::RN, false), 0x00000001u);
  EXPECT_EQ(cvtF64ToF32(0x36a0000000000000ull, RoundMode::RN, true), 0x00000000u);
}

TEST(Convert, RoundToIntegral) {
  Mismatches mm("cvt.irnd");
  Rng r(0x1e);
  std::vector<uint32_t> s = f32Specials();
  for (long double b : intBoundaryValues())
    s.push_back(bits(static_cast<float>(b)));
  for (uint64_t i = 0; i < iterations(); ++i) {
    uint32_t x = randomF32(r);
    if ((i & 1) != 0)
      x = (x & 0x807fffffu) | static_cast<uint32_t>((0x7a + r.below(30)) << 23);
    s.push_back(x);
  }
  auto hostRound = [](long double v, RoundMode rm) { return roundIntegral(v, rm); };
  for (uint32_t x : s)
    for (bool ftz : {false, true}) {
      const uint32_t in = ftz ? flush32(x) : x;
      for (RoundMode rm : kModes) {
        uint32_t ref = bits(static_cast<float>(hostRound(f32(in), rm)));
        if (std::isnan(f32(in)))
          ref = kF32CanonicalNaN;
        else if (ref == 0 || ref == 0x80000000u) // zero results keep the input's sign
          ref = in & 0x80000000u;
        if (cvtRoundF32(x, rm, ftz) != ref)
          mm.report("f32 %08x %s ftz=%d ours=%08x ref=%08x", x, modeName(rm), ftz,
                    cvtRoundF32(x, rm, ftz), ref);
      }
    }
  std::vector<uint64_t> d = f64Specials();
  for (uint64_t i = 0; i < iterations(); ++i) {
    uint64_t x = randomF64(r);
    if ((i & 1) != 0)
      x = (x & 0x800fffffffffffffull) | ((0x3f0 + r.below(60)) << 52);
    d.push_back(x);
  }
  for (uint64_t x : d)
    for (RoundMode rm : kModes) {
      uint64_t ref = bits(static_cast<double>(hostRound(f64(x), rm)));
      if (std::isnan(f64(x)))
        ref = kF64CanonicalNaN;
      else if ((ref & 0x7fffffffffffffffull) == 0)
        ref = x & 0x8000000000000000ull;
      if (cvtRoundF64(x, rm) != ref)
        mm.report("f64 %016llx %s", static_cast<unsigned long long>(x), modeName(rm));
    }
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const uint16_t x = static_cast<uint16_t>(h);
    for (RoundMode rm : kModes) {
      uint16_t ref = encodeF16(hostRound(decodeF16(x), rm));
      if (isNaN16(x))
        ref = 0x7fff;
      else if ((ref & 0x7fff) == 0)
        ref = x & 0x8000;
      if (cvtRoundF16(x, rm) != ref)
        mm.report("f16 %04x %s", x, modeName(rm));
    }
  }
  EXPECT_EQ(cvtRoundF32(0xbe99999au, RoundMode::RN, false), 0x80000000u); // -0.3 -> -0
  EXPECT_EQ(cvtRoundF32(0x3f000000u, RoundMode::RN, false), 0x00000000u); // 0.5 -> 0
  EXPECT_EQ(cvtRoundF32(0x3fc00000u, RoundMode::RN, false), 0x40000000u); // 1.5 -> 2
  EXPECT_EQ(cvtRoundF32(0x00000001u, RoundMode::RP, false), 0x3f800000u);
  EXPECT_EQ(cvtRoundF32(0x00000001u, RoundMode::RP, true), 0x00000000u);
}

TEST(Convert, Dispatchers) {
  Mismatches mm("dispatch");
  Rng r(0xd15);
  for (uint64_t i = 0; i < iterations() / 8; ++i) {
    const uint64_t raw = r.next();
    const FloatType ft = static_cast<FloatType>(r.below(4));
    const IntType it = static_cast<IntType>(r.below(8));
    const RoundMode rm = static_cast<RoundMode>(r.below(4));
    const bool ftz = (r.next() & 1) != 0;
    uint64_t x = 0;
    uint64_t wantInt = 0;
    uint64_t wantFloat = 0;
    switch (ft) {
    case FloatType::F16:
      x = randomF16(r);
      wantInt = cvtF16ToInt(static_cast<uint16_t>(x), it, rm);
      wantFloat = cvtIntToF16(raw, it, rm);
      break;
    case FloatType::F32:
      x = randomF32(r);
      wantInt = cvtF32ToInt(static_cast<uint32_t>(x), it, rm, ftz);
      wantFloat = cvtIntToF32(raw, it, rm);
      break;
    case FloatType::F64:
      x = randomF64(r);
      wantInt = cvtF64ToInt(x, it, rm);
      wantFloat = cvtIntToF64(raw, it, rm);
      break;
    case FloatType::BF16:
      x = randomFloatBits(r, 8, 7);
      wantInt = cvtBf16ToInt(static_cast<uint16_t>(x), it, rm);
      wantFloat = cvtIntToBf16(raw, it, rm);
      break;
    }
    if (cvtFloatToInt(x, ft, it, rm, ftz) != wantInt)
      mm.report("cvtFloatToInt type %d", static_cast<int>(ft));
    if (cvtIntToFloat(raw, it, ft, rm) != wantFloat)
      mm.report("cvtIntToFloat type %d", static_cast<int>(ft));
  }
  // Float to float through the dispatcher equals the typed conversions.
  for (uint64_t i = 0; i < iterations() / 8; ++i) {
    const uint64_t x64 = randomF64(r);
    const uint32_t x32 = randomF32(r);
    const uint16_t x16 = randomF16(r);
    const RoundMode rm = static_cast<RoundMode>(r.below(4));
    const bool ftz = (r.next() & 1) != 0;
    if (cvtFloatToFloat(x64, FloatType::F64, FloatType::F32, rm, false, ftz, false) !=
        cvtF64ToF32(x64, rm, ftz))
      mm.report("f64->f32");
    if (cvtFloatToFloat(x32, FloatType::F32, FloatType::F64, rm, false, ftz, false) !=
        cvtF32ToF64(x32, ftz))
      mm.report("f32->f64");
    if (cvtFloatToFloat(x32, FloatType::F32, FloatType::F16, rm, false, ftz, false) !=
        cvtF32ToF16(x32, rm, ftz))
      mm.report("f32->f16");
    if (cvtFloatToFloat(x16, FloatType::F16, FloatType::F32, rm, false, ftz, false) !=
        cvtF16ToF32(x16))
      mm.report("f16->f32");
    if (cvtFloatToFloat(x32, FloatType::F32, FloatType::BF16, rm, false, ftz, false) !=
        cvtF32ToBf16(x32, rm, ftz))
      mm.report("f32->bf16");
    if (cvtFloatToFloat(x32, FloatType::F32, FloatType::F32, rm, true, ftz, false) !=
        cvtRoundF32(x32, rm, ftz))
      mm.report("f32 rni");
    if (cvtFloatToFloat(x64, FloatType::F64, FloatType::F64, rm, true, false, false) !=
        cvtRoundF64(x64, rm))
      mm.report("f64 rni");
    if (cvtFloatToFloat(x16, FloatType::F16, FloatType::F16, rm, true, false, false) !=
        cvtRoundF16(x16, rm))
      mm.report("f16 rni");
    if (cvtFloatToFloat(x32, FloatType::F32, FloatType::F32, rm, false, ftz, true) !=
            fsat32(maybeFlush<F32>(x32, ftz)) &&
        !isNaN32(x32))
      mm.report("f32 sat");
  }
  // Same-format conversion without integral rounding is the identity (NaN canonicalised).
  EXPECT_EQ(cvtFloatToFloat(0x3f800001u, FloatType::F32, FloatType::F32, RoundMode::RN, false,
                            false, false),
            0x3f800001u);
  EXPECT_EQ(cvtFloatToFloat(0x7fa00000u, FloatType::F32, FloatType::F32, RoundMode::RN, false,
                            false, false),
            0x7fffffffu);
  EXPECT_EQ(cvtFloatToFloat(0x40000000u, FloatType::F32, FloatType::F32, RoundMode::RN, false,
                            false, true),
            0x3f800000u);
  // f64 -> f32 with integral rounding: round in f64, then to nearest in f32.
  EXPECT_EQ(cvtFloatToFloat(0x4004000000000000ull, FloatType::F64, FloatType::F32, RoundMode::RM,
                            true, false, false),
            0x40000000u); // floor(2.5) = 2
}

TEST(Convert, IntToInt) {
  Mismatches mm("cvt int->int");
  Rng r(0x11);
  for (uint64_t i = 0; i < iterations(); ++i) {
    uint64_t v = r.next();
    if ((i & 3) == 0)
      v = static_cast<uint64_t>(static_cast<int64_t>(r.below(1024)) - 512);
    if ((i & 3) == 1)
      v ^= ~0ull << r.below(64);
    const IntType src = kIntTypes[r.below(8)];
    const IntType dst = kIntTypes[r.below(8)];
    // Reference with 128-bit arithmetic.
    const int sb = static_cast<int>(intTypeBits(src));
    const int db = static_cast<int>(intTypeBits(dst));
    S128 x = static_cast<S128>(sb == 64 ? v : (v & ((1ull << sb) - 1)));
    if (intTypeSigned(src) && (x >> (sb - 1)) != 0)
      x -= static_cast<S128>(1) << sb;
    const S128 lo = intTypeSigned(dst) ? -(static_cast<S128>(1) << (db - 1)) : 0;
    const S128 hi = intTypeSigned(dst) ? (static_cast<S128>(1) << (db - 1)) - 1
                                       : (static_cast<S128>(1) << db) - 1;
    const S128 clamped = x < lo ? lo : (x > hi ? hi : x);
    auto extendDst = [&](S128 val) {
      uint64_t u = static_cast<uint64_t>(val);
      if (db < 64) {
        u &= (1ull << db) - 1;
        if (intTypeSigned(dst) && ((u >> (db - 1)) & 1) != 0)
          u |= ~0ull << db;
      }
      return u;
    };
    if (cvtIntToInt(v, src, dst, true) != extendDst(clamped))
      mm.report("sat v=%llx src=%d dst=%d", static_cast<unsigned long long>(v),
                static_cast<int>(src), static_cast<int>(dst));
    if (cvtIntToInt(v, src, dst, false) != extendDst(x))
      mm.report("wrap v=%llx src=%d dst=%d", static_cast<unsigned long long>(v),
                static_cast<int>(src), static_cast<int>(dst));
  }
  EXPECT_EQ(cvtIntToInt(300, IntType::S32, IntType::S8, true), 127u);
  EXPECT_EQ(cvtIntToInt(0xffffff00u, IntType::S32, IntType::S8, true), ~0ull << 7);
  EXPECT_EQ(cvtIntToInt(0xffffffffu, IntType::S32, IntType::U16, true), 0u);
  EXPECT_EQ(cvtIntToInt(0x1ff, IntType::U32, IntType::S8, false), ~0ull);
}

} // namespace
} // namespace wf::hls::test

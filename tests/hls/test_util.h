//===- tests/hls/test_util.h - Shared helpers of the hls tests ------------===//
//
// Part of Warpforge. Random operand generators, host reference helpers (IEEE arithmetic of the
// host under std::fesetround, plus an independent rounding routine for f16/bf16), special-value
// lists and mismatch reporting.
//
// The test target is compiled with -frounding-math -ffp-contract=off so that the host reference
// honours the dynamic rounding mode and never fuses a multiply and an add.
//
//===----------------------------------------------------------------------===//

#ifndef WARPFORGE_TESTS_HLS_TEST_UTIL_H
#define WARPFORGE_TESTS_HLS_TEST_UTIL_H

#include "warpforge/hls/hls.h"

#include <gtest/gtest.h>

#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace wf::hls::test {

/// Random operand sets per op and rounding mode; WF_HLS_ITERS overrides (nightly runs).
inline uint64_t iterations(uint64_t defaultCount = 200000) {
  if (const char *s = std::getenv("WF_HLS_ITERS")) {
    const uint64_t v = std::strtoull(s, nullptr, 0);
    if (v != 0)
      return v;
  }
  return defaultCount;
}

/// Scales a default count by WF_HLS_ITERS relative to the default 200000.
inline uint64_t scaled(uint64_t defaultCount) {
  const uint64_t it = iterations();
  if (it == 200000)
    return defaultCount;
  const long double f = static_cast<long double>(it) / 200000.0L;
  const uint64_t v = static_cast<uint64_t>(static_cast<long double>(defaultCount) * f);
  return v == 0 ? 1 : v;
}

/// splitmix64: small, fast, good enough for operand generation.
class Rng {
public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  uint32_t next32() { return static_cast<uint32_t>(next() >> 32); }
  /// Uniform in [0, n).
  uint64_t below(uint64_t n) { return n == 0 ? 0 : next() % n; }
  /// Uniform double in [lo, hi).
  double uniform(double lo, double hi) {
    return lo + (hi - lo) * (static_cast<double>(next() >> 11) * 0x1p-53);
  }

private:
  uint64_t state_;
};

inline float f32(uint32_t b) { return std::bit_cast<float>(b); }
inline uint32_t bits(float f) { return std::bit_cast<uint32_t>(f); }
inline double f64(uint64_t b) { return std::bit_cast<double>(b); }
inline uint64_t bits(double d) { return std::bit_cast<uint64_t>(d); }

inline const char *modeName(RoundMode rm) {
  switch (rm) {
  case RoundMode::RN:
    return "RN";
  case RoundMode::RZ:
    return "RZ";
  case RoundMode::RM:
    return "RM";
  case RoundMode::RP:
    return "RP";
  }
  return "?";
}

inline constexpr RoundMode kModes[4] = {RoundMode::RN, RoundMode::RZ, RoundMode::RM, RoundMode::RP};

/// Sets the host rounding mode for the lifetime of the object.
class HostRounding {
public:
  explicit HostRounding(RoundMode rm) : saved_(std::fegetround()) {
    int m = FE_TONEAREST;
    switch (rm) {
    case RoundMode::RN:
      m = FE_TONEAREST;
      break;
    case RoundMode::RZ:
      m = FE_TOWARDZERO;
      break;
    case RoundMode::RM:
      m = FE_DOWNWARD;
      break;
    case RoundMode::RP:
      m = FE_UPWARD;
      break;
    }
    std::fesetround(m);
  }
  ~HostRounding() { std::fesetround(saved_); }
  HostRounding(const HostRounding &) = delete;
  HostRounding &operator=(const HostRounding &) = delete;

private:
  int saved_;
};

/// Host FTZ emulation on bit patterns.
inline uint32_t flush32(uint32_t x) { return (x & 0x7f800000u) == 0 ? (x & 0x80000000u) : x; }
inline uint16_t flush16(uint16_t x) {
  return (x & 0x7c00u) == 0 ? static_cast<uint16_t>(x & 0x8000u) : x;
}

inline bool isNaN32(uint32_t x) { return (x & 0x7fffffffu) > 0x7f800000u; }
inline bool isNaN64(uint64_t x) { return (x & 0x7fffffffffffffffull) > 0x7ff0000000000000ull; }
inline bool isNaN16(uint16_t x) { return (x & 0x7fffu) > 0x7c00u; }

/// Counts mismatches and reports the first few with their context.
class Mismatches {
public:
  explicit Mismatches(const char *what) : what_(what) {}
  ~Mismatches() { EXPECT_EQ(count_, 0u) << what_ << ": " << count_ << " mismatches"; }
  Mismatches(const Mismatches &) = delete;
  Mismatches &operator=(const Mismatches &) = delete;
  __attribute__((format(printf, 2, 3))) void report(const char *fmt, ...) {
    ++count_;
    if (count_ <= 10) {
      char buf[512];
      va_list ap;
      va_start(ap, fmt);
      std::vsnprintf(buf, sizeof(buf), fmt, ap);
      va_end(ap);
      ADD_FAILURE() << what_ << ": " << buf;
    }
  }
  uint64_t count() const { return count_; }

private:
  const char *what_;
  uint64_t count_ = 0;
};

//===----------------------------------------------------------------------===//
// Special values
//===----------------------------------------------------------------------===//

inline std::vector<uint32_t> f32Specials() {
  const uint32_t pos[] = {0x00000000, 0x00000001, 0x00000002, 0x00000003, 0x007fffff, 0x007ffffe,
                          0x00400000, 0x00800000, 0x00800001, 0x00ffffff, 0x01000000, 0x33800000,
                          0x33800001, 0x34000000, 0x3f000000, 0x3f7fffff, 0x3f800000, 0x3f800001,
                          0x3fc00000, 0x3fffffff, 0x40000000, 0x40400000, 0x40490fdb, 0x4b000000,
                          0x4b7fffff, 0x4b800000, 0x4f000000, 0x5f000000, 0x7e800000, 0x7effffff,
                          0x7f000000, 0x7f7ffffe, 0x7f7fffff, 0x7f800000, 0x7f800001, 0x7fc00000,
                          0x7fffffff, 0x7fa5a5a5, 0x0000ffff, 0x3effffff, 0x3f400000, 0x4effffff,
                          0x5effffff, 0x1f800000, 0x20000000, 0x60000000};
  std::vector<uint32_t> v;
  for (uint32_t p : pos) {
    v.push_back(p);
    v.push_back(p | 0x80000000u);
  }
  return v;
}

inline std::vector<uint64_t> f64Specials() {
  const uint64_t pos[] = {
      0x0000000000000000ull, 0x0000000000000001ull, 0x0000000000000002ull, 0x000fffffffffffffull,
      0x0008000000000000ull, 0x0010000000000000ull, 0x0010000000000001ull, 0x001fffffffffffffull,
      0x0020000000000000ull, 0x3ca0000000000000ull, 0x3cb0000000000000ull, 0x3fe0000000000000ull,
      0x3fefffffffffffffull, 0x3ff0000000000000ull, 0x3ff0000000000001ull, 0x3ff8000000000000ull,
      0x3fffffffffffffffull, 0x4000000000000000ull, 0x4008000000000000ull, 0x400921fb54442d18ull,
      0x4330000000000000ull, 0x433fffffffffffffull, 0x43e0000000000000ull, 0x7fd0000000000000ull,
      0x7fe0000000000000ull, 0x7feffffffffffffeull, 0x7fefffffffffffffull, 0x7ff0000000000000ull,
      0x7ff0000000000001ull, 0x7ff8000000000000ull, 0x7fffffffffffffffull, 0x1ff0000000000000ull,
      0x2000000000000000ull, 0x6000000000000000ull, 0x3fdfffffffffffffull, 0x47efffffe0000000ull,
      0x36a0000000000000ull, 0x3810000000000000ull};
  std::vector<uint64_t> v;
  for (uint64_t p : pos) {
    v.push_back(p);
    v.push_back(p | 0x8000000000000000ull);
  }
  return v;
}

inline std::vector<uint16_t> f16Specials() {
  const uint16_t pos[] = {0x0000, 0x0001, 0x0002, 0x03ff, 0x0200, 0x0400, 0x0401, 0x07ff, 0x1000,
                          0x3800, 0x3bff, 0x3c00, 0x3c01, 0x3e00, 0x4000, 0x4200, 0x5000, 0x6400,
                          0x7800, 0x7bfe, 0x7bff, 0x7c00, 0x7c01, 0x7e00, 0x7fff, 0x1400, 0x0800};
  std::vector<uint16_t> v;
  for (uint16_t p : pos) {
    v.push_back(p);
    v.push_back(static_cast<uint16_t>(p | 0x8000u));
  }
  return v;
}

//===----------------------------------------------------------------------===//
// Random operands
//===----------------------------------------------------------------------===//

/// A random bit pattern of a float format with exponent field width E and fraction width M,
/// biased toward the interesting regions (near 1, subnormals, near overflow, special mantissas).
inline uint64_t randomFloatBits(Rng &r, int expBits, int fracBits) {
  const uint64_t expMax = (1ull << expBits) - 1;
  const uint64_t bias = expMax >> 1;
  const uint64_t fracMask = (1ull << fracBits) - 1;
  const uint64_t sign = (r.next() & 1) << (expBits + fracBits);
  uint64_t e = 0;
  uint64_t f = r.next() & fracMask;
  switch (r.below(10)) {
  case 0:
  case 1: // anything
    return expBits + fracBits + 1 == 64 ? r.next()
                                        : r.next() & ((1ull << (expBits + fracBits + 1)) - 1);
  case 2:
  case 3: // near 1
    e = bias - 20 + r.below(41);
    break;
  case 4: // subnormal or smallest normals
    e = r.below(4);
    if (e > 0 && r.below(2) == 0)
      e = 0;
    break;
  case 5: // near overflow
    e = expMax - 1 - r.below(4);
    break;
  case 6: { // special mantissa patterns
    e = r.below(expMax);
    const int k = static_cast<int>(r.below(static_cast<uint64_t>(fracBits) + 1));
    switch (r.below(4)) {
    case 0:
      f = fracMask >> k;
      break;
    case 1:
      f = (fracMask << k) & fracMask;
      break;
    case 2:
      f = k < fracBits ? (1ull << k) : 0;
      break;
    default:
      f = (fracMask >> k) ^ (r.next() & 7);
      break;
    }
    break;
  }
  case 7: // small integers and simple fractions
    e = bias + r.below(12);
    f &= ~(fracMask >> 6);
    break;
  default: // any finite
    e = r.below(expMax);
    break;
  }
  return sign | (e << fracBits) | f;
}

inline uint32_t randomF32(Rng &r) { return static_cast<uint32_t>(randomFloatBits(r, 8, 23)); }
inline uint64_t randomF64(Rng &r) { return randomFloatBits(r, 11, 52); }
inline uint16_t randomF16(Rng &r) { return static_cast<uint16_t>(randomFloatBits(r, 5, 10)); }

/// A random partner for `a` with a nearby exponent (exercises alignment and cancellation).
inline uint64_t nearbyPartner(Rng &r, uint64_t a, int expBits, int fracBits) {
  const uint64_t expMax = (1ull << expBits) - 1;
  const int64_t ea = static_cast<int64_t>((a >> fracBits) & expMax);
  int64_t eb = ea + static_cast<int64_t>(r.below(2 * fracBits + 7)) - (fracBits + 3);
  if (eb < 0)
    eb = 0;
  if (eb >= static_cast<int64_t>(expMax))
    eb = static_cast<int64_t>(expMax) - 1;
  uint64_t f = r.next() & ((1ull << fracBits) - 1);
  if (r.below(4) == 0) // close mantissas: massive cancellation
    f = (a & ((1ull << fracBits) - 1)) ^ (r.next() & 3);
  const uint64_t sign = (r.next() & 1) << (expBits + fracBits);
  return sign | (static_cast<uint64_t>(eb) << fracBits) | f;
}

//===----------------------------------------------------------------------===//
// Independent rounding reference (long double, 64-bit significand)
//===----------------------------------------------------------------------===//

/// Rounds a finite value to a binary format with `prec` significand bits, minimum normal
/// exponent `emin` and largest finite value `maxFinite`, using only exact long double operations
/// (scaling by powers of two, floor) and an explicit rounding decision. Returns the rounded value
/// (possibly +-inf). Requires the input to be exactly representable in long double.
inline long double refRound(long double v, int prec, int emin, long double maxFinite,
                            RoundMode rm) {
  if (v == 0 || std::isnan(v) || std::isinf(v))
    return v;
  const bool neg = v < 0;
  const long double a = neg ? -v : v;
  int e = std::ilogb(a);
  if (e < emin)
    e = emin;
  const int q = e - (prec - 1); // exponent of one ulp
  const long double s = std::ldexp(a, -q);
  const long double fl = std::floor(s);
  const long double frac = s - fl;
  long double r = fl;
  bool up = false;
  switch (rm) {
  case RoundMode::RN:
    up = frac > 0.5L || (frac == 0.5L && std::fmod(fl, 2.0L) != 0);
    break;
  case RoundMode::RZ:
    up = false;
    break;
  case RoundMode::RM:
    up = neg && frac != 0;
    break;
  case RoundMode::RP:
    up = !neg && frac != 0;
    break;
  }
  if (up)
    r += 1;
  long double res = std::ldexp(r, q);
  if (res > maxFinite) {
    const bool toInf =
        rm == RoundMode::RN || (rm == RoundMode::RP && !neg) || (rm == RoundMode::RM && neg);
    res = toInf ? HUGE_VALL : maxFinite;
  }
  return neg ? -res : res;
}

/// Encodes an exactly representable value (or inf) as f16 bits; NaN gives 0x7fff.
inline uint16_t encodeF16(long double v) {
  if (std::isnan(v))
    return 0x7fff;
  const uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  const long double a = std::fabs(v);
  if (std::isinf(a))
    return sign | 0x7c00;
  if (a == 0)
    return sign;
  if (a < 0x1p-14L)
    return sign | static_cast<uint16_t>(std::ldexp(a, 24));
  const int e = std::ilogb(a);
  const uint32_t m = static_cast<uint32_t>(std::ldexp(a, 10 - e)) - 1024u;
  return static_cast<uint16_t>(sign | ((e + 15) << 10) | m);
}

/// Decodes f16 bits to long double, exactly (NaN -> NaN).
inline long double decodeF16(uint16_t h) {
  const bool neg = (h & 0x8000) != 0;
  const int e = (h >> 10) & 0x1f;
  const int m = h & 0x3ff;
  long double v;
  if (e == 31)
    v = m != 0 ? NAN : HUGE_VALL;
  else if (e == 0)
    v = std::ldexp(static_cast<long double>(m), -24);
  else
    v = std::ldexp(static_cast<long double>(m + 1024), e - 25);
  return neg ? -v : v;
}

/// Encodes an exactly representable value (or inf) as bf16 bits; NaN gives 0x7fff.
inline uint16_t encodeBf16(long double v) {
  if (std::isnan(v))
    return 0x7fff;
  return static_cast<uint16_t>(bits(static_cast<float>(v)) >> 16); // exact by precondition
}

/// Reference rounding of a long double to f16 / bf16 bits.
inline uint16_t refToF16(long double v, RoundMode rm) {
  return encodeF16(refRound(v, 11, -14, 65504.0L, rm));
}
inline uint16_t refToBf16(long double v, RoundMode rm) {
  return encodeBf16(refRound(v, 8, -126, 0x1.fep127L, rm));
}

/// Host op in double with a sticky (round-to-odd) result: the value rounded toward zero with its
/// lowest bit set when inexact. Rounding that to a format of at most 51 bits gives the correctly
/// rounded result of the exact operation. Exact zeros keep the sign the mode rm gives them.
template <class Op> double roundToOddHost(Op op, RoundMode rm) {
  double r;
  bool inexact;
  {
    HostRounding h(RoundMode::RZ);
    std::feclearexcept(FE_INEXACT);
    r = op();
    inexact = std::fetestexcept(FE_INEXACT) != 0;
  }
  if (r == 0 && !inexact) { // exact zero: its sign depends on the rounding mode
    HostRounding h(rm);
    return op();
  }
  if (inexact && !std::isinf(r) && !std::isnan(r))
    r = std::bit_cast<double>(std::bit_cast<uint64_t>(r) | 1u);
  return r;
}

} // namespace wf::hls::test

#endif // WARPFORGE_TESTS_HLS_TEST_UTIL_H

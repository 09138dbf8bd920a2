//===- warpforge/hls/fp_common.h - Formats, unpack, round and pack --------===//
//
// Part of Warpforge. The rounding logic of every floating-point result is written once here,
// generically over the format, and instantiated for f16, bf16, f32 and f64.
//
// Conventions used throughout hls/:
//  * Values are raw bit patterns (f16/bf16: uint16_t, f32: uint32_t, f64: uint64_t).
//  * Only integer arithmetic is used; the host FPU is never consulted, so results do not depend
//    on the host's rounding mode, denormal mode or excess precision.
//  * An unpacked finite nonzero value is (sign, exp, sig) with `sig` a 64-bit significand whose
//    bit 63 is set; the value is sig * 2^(exp - 63). Bits shifted out on the way are OR-ed into
//    bit 0 ("sticky jamming"), which is exact for rounding as long as the rounding position lies at
//    least two bits above bit 0 (true for every format here: at most 53 bits are kept).
//  * Every arithmetic result that is NaN is the canonical NaN: sign clear, exponent all ones,
//    fraction all ones (f32 0x7fffffff, f64 0x7fffffffffffffff, f16/bf16 0x7fff). This is the
//    NaN NVIDIA GPUs produce for f32 (CUDA C Programming Guide, "Floating-Point Standard"); we use
//    the same rule for every format so that all models agree bit for bit.
//
//===----------------------------------------------------------------------===//

#ifndef WARPFORGE_HLS_FP_COMMON_H
#define WARPFORGE_HLS_FP_COMMON_H

#include "warpforge/hls/types.h"

#include <bit>
#include <cstdint>

namespace wf::hls {

__extension__ typedef unsigned __int128 U128; ///< 128-bit unsigned (wide products).
__extension__ typedef __int128 S128;          ///< 128-bit signed.

/// Static description of a binary floating-point format.
template <int ExpBits, int FracBits, typename BitsT> struct FpFormat {
  using Bits = BitsT;
  static constexpr int kExpBits = ExpBits;
  static constexpr int kFracBits = FracBits;
  static constexpr int kPrec = FracBits + 1; ///< significand bits including the hidden one
  static constexpr int kWidth = 1 + ExpBits + FracBits;
  static constexpr int kBias = (1 << (ExpBits - 1)) - 1;
  static constexpr uint32_t kExpAllOnes = (1u << ExpBits) - 1;
  static constexpr int kEmin = 1 - kBias; ///< unbiased exponent of the smallest normal
  static constexpr int kEmax = kBias;     ///< unbiased exponent of the largest finite value
  static constexpr Bits kSignMask = static_cast<Bits>(Bits(1) << (kWidth - 1));
  static constexpr Bits kFracMask = static_cast<Bits>((Bits(1) << FracBits) - 1);
  static constexpr Bits kExpMask = static_cast<Bits>(Bits(kExpAllOnes) << FracBits);
  static constexpr Bits kInf = kExpMask;
  static constexpr Bits kMaxFinite = static_cast<Bits>(kInf - 1);
  static constexpr Bits kCanonicalNaN = static_cast<Bits>(kExpMask | kFracMask);
  static constexpr Bits kOne = static_cast<Bits>(Bits(kBias) << FracBits);
};

using F16 = FpFormat<5, 10, uint16_t>;  ///< IEEE binary16
using BF16 = FpFormat<8, 7, uint16_t>;  ///< bfloat16
using F32 = FpFormat<8, 23, uint32_t>;  ///< IEEE binary32
using F64 = FpFormat<11, 52, uint64_t>; ///< IEEE binary64

//===----------------------------------------------------------------------===//
// Classification
//===----------------------------------------------------------------------===//

/// Magnitude bits (sign cleared).
template <class F> constexpr typename F::Bits absBits(typename F::Bits x) {
  return static_cast<typename F::Bits>(x & static_cast<typename F::Bits>(~F::kSignMask));
}
/// Sign bit.
template <class F> constexpr bool signOf(typename F::Bits x) { return (x & F::kSignMask) != 0; }
/// True for any NaN (quiet or signaling).
template <class F> constexpr bool isNaN(typename F::Bits x) { return absBits<F>(x) > F::kInf; }
/// True for +-infinity.
template <class F> constexpr bool isInf(typename F::Bits x) { return absBits<F>(x) == F::kInf; }
/// True for +-0.
template <class F> constexpr bool isZero(typename F::Bits x) { return absBits<F>(x) == 0; }
/// True for nonzero subnormals.
template <class F> constexpr bool isSubnormal(typename F::Bits x) {
  return (x & F::kExpMask) == 0 && (x & F::kFracMask) != 0;
}
/// True for finite values (zero, subnormal, normal).
template <class F> constexpr bool isFinite(typename F::Bits x) { return absBits<F>(x) < F::kInf; }
/// True for normal values (not zero, subnormal, infinite or NaN).
template <class F> constexpr bool isNormal(typename F::Bits x) {
  return (x & F::kExpMask) != 0 && (x & F::kExpMask) != F::kExpMask;
}
/// Signed zero with the given sign.
template <class F> constexpr typename F::Bits signedZero(bool sign) {
  return sign ? F::kSignMask : typename F::Bits(0);
}
/// Signed infinity.
template <class F> constexpr typename F::Bits signedInf(bool sign) {
  return static_cast<typename F::Bits>(signedZero<F>(sign) | F::kInf);
}
/// FTZ: a subnormal becomes the zero of the same sign; everything else is unchanged.
template <class F> constexpr typename F::Bits flushSubnormal(typename F::Bits x) {
  return isSubnormal<F>(x) ? static_cast<typename F::Bits>(x & F::kSignMask) : x;
}
/// Applies flushSubnormal when `ftz` is set.
template <class F> constexpr typename F::Bits maybeFlush(typename F::Bits x, bool ftz) {
  return ftz ? flushSubnormal<F>(x) : x;
}

//===----------------------------------------------------------------------===//
// Wide-integer helpers
//===----------------------------------------------------------------------===//

/// Leading zeros of a 128-bit value (128 for zero).
constexpr int clz128(U128 v) {
  const uint64_t hi = static_cast<uint64_t>(v >> 64);
  return hi != 0 ? std::countl_zero(hi) : 64 + std::countl_zero(static_cast<uint64_t>(v));
}

/// v >> n with every shifted-out 1 OR-ed into bit 0.
constexpr uint64_t shiftRightJam64(uint64_t v, uint32_t n) {
  if (n >= 64)
    return static_cast<uint64_t>(v != 0);
  const uint64_t lost = v & ((static_cast<uint64_t>(1) << n) - 1);
  return (v >> n) | static_cast<uint64_t>(lost != 0);
}

/// 128-bit version of shiftRightJam64.
constexpr U128 shiftRightJam128(U128 v, uint32_t n) {
  if (n >= 128)
    return static_cast<U128>(v != 0);
  const U128 lost = v & ((static_cast<U128>(1) << n) - 1);
  return (v >> n) | static_cast<U128>(lost != 0);
}

/// Top 64 bits of a nonzero 128-bit value after normalisation, the rest jammed into bit 0.
/// Returns the left shift applied (the value is top * 2^(64 - shift) approximately).
struct Norm128 {
  uint64_t top;
  int shift;
};
constexpr Norm128 normalizeJam128(U128 v) {
  const int lz = clz128(v);
  const U128 n = v << lz;
  const uint64_t lo = static_cast<uint64_t>(n);
  return {static_cast<uint64_t>(n >> 64) | static_cast<uint64_t>(lo != 0), lz};
}

/// Integer square root by the exact bit-by-bit method. Used only to build constant tables at
/// compile time (it is slow: one step per result bit).
constexpr U128 isqrtExact(U128 n) {
  U128 res = 0;
  U128 bit = static_cast<U128>(1) << 126;
  while (bit > n)
    bit >>= 2;
  while (bit != 0) {
    if (n >= res + bit) {
      n -= res + bit;
      res = (res >> 1) + bit;
    } else {
      res >>= 1;
    }
    bit >>= 2;
  }
  return res;
}

namespace detail {
/// Seeds for the reciprocal square root: entry k - 64 approximates 2^16 / sqrt((k + 0.5) / 64) for
/// k in [64, 256), i.e. 1/sqrt(m) for m in [1, 4) indexed by the top 8 bits of a Q2.62 m.
struct RsqrtSeedTable {
  uint16_t v[192];
};
constexpr RsqrtSeedTable makeRsqrtSeedTable() {
  RsqrtSeedTable t{};
  for (int k = 64; k < 256; ++k) {
    // 2^16 * sqrt(128 / (2k + 1)) = sqrt(2^39 / (2k + 1))
    t.v[k - 64] = static_cast<uint16_t>(isqrtExact((static_cast<U128>(1) << 39) / (2 * k + 1)));
  }
  return t;
}
inline constexpr RsqrtSeedTable kRsqrtSeed = makeRsqrtSeedTable();
} // namespace detail

/// Integer square root with remainder information.
struct SqrtRem {
  uint64_t root; ///< floor(sqrt(n))
  bool exact;    ///< n == root * root
};

/// floor(sqrt(n)) for n < 2^112, by a table seed, three Newton steps for 1/sqrt in Q2.62 fixed
/// point, one multiply, and an exact correction with the remainder n - q^2 (at most a few +-1
/// steps, no further multiplies).
constexpr SqrtRem isqrtRem128(U128 n) {
  if (n == 0)
    return {0, true};
  const int j = clz128(n) >> 1;
  const U128 nn = n << (2 * j);                       // top bit at 127 or 126
  const uint64_t m = static_cast<uint64_t>(nn >> 64); // m / 2^62 in [1, 4)
  uint64_t y = static_cast<uint64_t>(detail::kRsqrtSeed.v[(m >> 56) - 64]) << 46; // Q2.62
  for (int i = 0; i < 3; ++i) {
    const uint64_t yy = static_cast<uint64_t>((static_cast<U128>(y) * y) >> 62);
    const uint64_t myy = static_cast<uint64_t>((static_cast<U128>(m) * yy) >> 62);
    const uint64_t f = (static_cast<uint64_t>(3) << 62) - myy; // 3 - m*y^2
    y = static_cast<uint64_t>((static_cast<U128>(y) * f) >> 63);
  }
  const uint64_t s = static_cast<uint64_t>((static_cast<U128>(m) * y) >> 62); // ~sqrt(m) * 2^62
  // sqrt(nn) ~ 2s, sqrt(n) = sqrt(nn) / 2^j.
  uint64_t q = j == 0 ? (s << 1) : (s >> (j - 1));
  S128 r = static_cast<S128>(n) - static_cast<S128>(static_cast<U128>(q) * q); // n - q^2
  for (int i = 0; i < 4; ++i) {
    if (r < 0) { // (q-1)^2 = q^2 - 2q + 1
      r += 2 * static_cast<S128>(q) - 1;
      --q;
    }
  }
  for (int i = 0; i < 4; ++i) {
    if (r > 2 * static_cast<S128>(q)) { // (q+1)^2 = q^2 + 2q + 1 <= n
      r -= 2 * static_cast<S128>(q) + 1;
      ++q;
    }
  }
  return {q, r == 0};
}

/// floor(sqrt(n)) for n < 2^112.
constexpr uint64_t isqrt128(U128 n) { return isqrtRem128(n).root; }

//===----------------------------------------------------------------------===//
// Unpack / round / pack
//===----------------------------------------------------------------------===//

enum class FpClass : uint8_t { Zero, Finite, Inf, NaN };

/// A decoded operand. For Finite: value = (-1)^sign * sig * 2^(exp - 63), bit 63 of sig set.
struct Unpacked {
  FpClass cls;
  bool sign;
  int32_t exp;
  uint64_t sig;
};

/// Decodes a bit pattern; subnormals are normalised.
template <class F> constexpr Unpacked unpack(typename F::Bits x) {
  Unpacked u{FpClass::Zero, signOf<F>(x), 0, 0};
  const uint32_t be = static_cast<uint32_t>(x >> F::kFracBits) & F::kExpAllOnes;
  const uint64_t frac = static_cast<uint64_t>(x & F::kFracMask);
  if (be == F::kExpAllOnes) {
    u.cls = frac != 0 ? FpClass::NaN : FpClass::Inf;
    return u;
  }
  if (be == 0) {
    if (frac == 0)
      return u;
    const int lz = std::countl_zero(frac);
    u.sig = frac << lz;
    u.exp = F::kEmin - F::kFracBits + 63 - lz;
  } else {
    u.sig = (frac | (static_cast<uint64_t>(1) << F::kFracBits)) << (63 - F::kFracBits);
    u.exp = static_cast<int32_t>(be) - F::kBias;
  }
  u.cls = FpClass::Finite;
  return u;
}

/// Whether to add one unit in the last place, given the kept lsb, the first dropped bit (guard)
/// and whether any later dropped bit is set (sticky). Non-short-circuit operators keep it free of
/// data-dependent branches.
constexpr bool roundIncrement(RoundMode rm, bool sign, bool lsb, bool guard, bool sticky) {
  switch (rm) {
  case RoundMode::RN:
    return guard & (sticky | lsb);
  case RoundMode::RZ:
    return false;
  case RoundMode::RM:
    return sign & (guard | sticky);
  case RoundMode::RP:
    return (!sign) & (guard | sticky);
  }
  return false;
}

/// Result of an overflow: infinity or the largest finite value, by rounding direction.
template <class F> constexpr typename F::Bits overflowResult(bool sign, RoundMode rm) {
  const bool toInf =
      rm == RoundMode::RN || (rm == RoundMode::RP && !sign) || (rm == RoundMode::RM && sign);
  return static_cast<typename F::Bits>(signedZero<F>(sign) | (toInf ? F::kInf : F::kMaxFinite));
}

/// Rounds sig * 2^(exp - 63) (bit 63 of sig set, sticky jammed into bit 0) to the format,
/// handling subnormal results (rounded on the subnormal grid, no flushing) and overflow.
template <class F>
constexpr typename F::Bits roundPack(bool sign, int32_t exp, uint64_t sig, RoundMode rm) {
  using Bits = typename F::Bits;
  if (exp > F::kEmax)
    return overflowResult<F>(sign, rm);
  constexpr int kShift = 64 - F::kPrec; // dropped bits of a normal result
  uint64_t mant;
  bool guard;
  bool sticky;
  uint64_t expField;
  if (exp >= F::kEmin) {
    mant = sig >> kShift;
    guard = ((sig >> (kShift - 1)) & 1) != 0;
    sticky = (sig & ((static_cast<uint64_t>(1) << (kShift - 1)) - 1)) != 0;
    expField = static_cast<uint64_t>(exp + F::kBias - 1);
  } else {
    // Subnormal result: rounded on the subnormal grid (never flushed here).
    const int32_t shift = F::kEmin - exp > 64 ? 65 : kShift + (F::kEmin - exp);
    if (shift >= 65) {
      mant = 0;
      guard = false;
      sticky = sig != 0;
    } else if (shift == 64) {
      mant = 0;
      guard = (sig >> 63) != 0;
      sticky = (sig << 1) != 0;
    } else {
      mant = sig >> shift;
      guard = ((sig >> (shift - 1)) & 1) != 0;
      sticky = (sig & ((static_cast<uint64_t>(1) << (shift - 1)) - 1)) != 0;
    }
    expField = 0;
  }
  mant += roundIncrement(rm, sign, (mant & 1) != 0, guard, sticky) ? 1 : 0;
  // The hidden bit of a normal mant adds one to the exponent field (hence exp + bias - 1), and a
  // carry out of the significand adds one more (up to infinity at the top of the range).
  const uint64_t bits = (expField << F::kFracBits) + mant;
  return static_cast<Bits>(signedZero<F>(sign) | static_cast<Bits>(bits));
}

/// Rounds mag * 2^scale (mag may be any nonzero 64-bit integer; zero gives a signed zero).
template <class F>
constexpr typename F::Bits packScaled(bool sign, uint64_t mag, int32_t scale, RoundMode rm) {
  if (mag == 0)
    return signedZero<F>(sign);
  const int lz = std::countl_zero(mag);
  return roundPack<F>(sign, scale + 63 - lz, mag << lz, rm);
}

/// Rounds mag * 2^scale for a 128-bit magnitude.
template <class F>
constexpr typename F::Bits packScaled128(bool sign, U128 mag, int32_t scale, RoundMode rm) {
  if (mag == 0)
    return signedZero<F>(sign);
  const Norm128 n = normalizeJam128(mag);
  return roundPack<F>(sign, scale + 127 - n.shift, n.top, rm);
}

/// Rounds a decoded value (of any format) to format F.
template <class F> constexpr typename F::Bits packUnpacked(const Unpacked &u, RoundMode rm) {
  switch (u.cls) {
  case FpClass::Zero:
    return signedZero<F>(u.sign);
  case FpClass::Inf:
    return signedInf<F>(u.sign);
  case FpClass::NaN:
    return F::kCanonicalNaN;
  case FpClass::Finite:
    break;
  }
  return roundPack<F>(u.sign, u.exp, u.sig, rm);
}

/// Integer rounding of sig * 2^(exp - 63) (sig normalised, value finite nonzero) with the rounding
/// direction. Returns the magnitude; `overflow` is set when it is 2^64 or more.
struct IntRound {
  uint64_t mag;
  bool overflow;
};
constexpr IntRound roundToIntegerMag(bool sign, int32_t exp, uint64_t sig, RoundMode rm) {
  if (exp >= 64)
    return {0, true};
  if (exp == 63)
    return {sig, false};
  const int32_t shift = 63 - exp; // >= 1
  uint64_t mag;
  bool guard;
  bool sticky;
  if (shift >= 65) {
    mag = 0;
    guard = false;
    sticky = true;
  } else if (shift == 64) {
    mag = 0;
    guard = (sig >> 63) != 0;
    sticky = (sig << 1) != 0;
  } else {
    mag = sig >> shift;
    guard = ((sig >> (shift - 1)) & 1) != 0;
    sticky = (sig & ((static_cast<uint64_t>(1) << (shift - 1)) - 1)) != 0;
  }
  mag += roundIncrement(rm, sign, (mag & 1) != 0, guard, sticky) ? 1 : 0;
  return {mag, false};
}

/// Maps a non-NaN value to an unsigned key that orders like the real numbers, with -0 < +0.
template <class F> constexpr typename F::Bits totalOrderKey(typename F::Bits x) {
  using Bits = typename F::Bits;
  return signOf<F>(x) ? static_cast<Bits>(~x) : static_cast<Bits>(x | F::kSignMask);
}

} // namespace wf::hls

#endif // WARPFORGE_HLS_FP_COMMON_H

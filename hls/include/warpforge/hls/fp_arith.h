//===- warpforge/hls/fp_arith.h - Generic IEEE-754 arithmetic -------------===//
//
// Part of Warpforge. Correctly rounded add, multiply, fused multiply-add, divide and square root,
// min/max, comparison and saturation, written once over the format F (see fp_common.h). The
// format wrappers in fp16.h, fp32.h and fp64.h add flush-to-zero where PTX has it.
//
// None of these functions flush subnormals; subnormal inputs and results are exact IEEE-754.
//
//===----------------------------------------------------------------------===//

#ifndef WARPFORGE_HLS_FP_ARITH_H
#define WARPFORGE_HLS_FP_ARITH_H

#include "warpforge/hls/fp_common.h"

namespace wf::hls {

namespace detail {

/// Sum of two finite nonzero decoded values.
template <class F>
constexpr typename F::Bits addFinite(const Unpacked &a, const Unpacked &b, RoundMode rm) {
  // Order by magnitude. The outcome is data dependent, so select with masks rather than branch.
  const bool swap = (a.exp < b.exp) | ((a.exp == b.exp) & (a.sig < b.sig));
  const uint64_t m = 0 - static_cast<uint64_t>(swap);
  const uint64_t bigSig = (b.sig & m) | (a.sig & ~m);
  const uint64_t smallSig = (a.sig & m) | (b.sig & ~m);
  const int32_t eBig =
      static_cast<int32_t>((static_cast<uint32_t>(b.exp) & static_cast<uint32_t>(m)) |
                           (static_cast<uint32_t>(a.exp) & ~static_cast<uint32_t>(m)));
  const int32_t eSmall = a.exp + b.exp - eBig;
  const bool sign = swap ? b.sign : a.sign;
  // One bit of headroom for the carry; the smaller operand is aligned with sticky jamming.
  const uint64_t x = bigSig >> 1;
  const uint64_t y = shiftRightJam64(smallSig >> 1, static_cast<uint32_t>(eBig - eSmall));
  const uint64_t s = a.sign == b.sign ? x + y : x - y;
  if (s == 0) // exact cancellation: +0, or -0 when rounding toward -inf
    return signedZero<F>(rm == RoundMode::RM);
  const int lz = std::countl_zero(s);
  return roundPack<F>(sign, eBig + 1 - lz, s << lz, rm);
}

/// Product of two finite nonzero decoded values.
template <class F>
constexpr typename F::Bits mulFinite(bool sign, const Unpacked &a, const Unpacked &b,
                                     RoundMode rm) {
  const U128 p = static_cast<U128>(a.sig) * b.sig; // in [2^126, 2^128)
  const uint32_t top = static_cast<uint32_t>(p >> 127);
  const U128 n = p << (1 - top); // normalised: bit 127 set
  const uint64_t lo = static_cast<uint64_t>(n);
  const uint64_t hi = static_cast<uint64_t>(n >> 64) | static_cast<uint64_t>(lo != 0);
  return roundPack<F>(sign, a.exp + b.exp + static_cast<int32_t>(top), hi, rm);
}

} // namespace detail

/// a + b, correctly rounded.
template <class F>
constexpr typename F::Bits fpAdd(typename F::Bits a, typename F::Bits b, RoundMode rm) {
  const Unpacked ua = unpack<F>(a);
  const Unpacked ub = unpack<F>(b);
  if (ua.cls == FpClass::NaN || ub.cls == FpClass::NaN)
    return F::kCanonicalNaN;
  if (ua.cls == FpClass::Inf) {
    if (ub.cls == FpClass::Inf && ua.sign != ub.sign)
      return F::kCanonicalNaN;
    return signedInf<F>(ua.sign);
  }
  if (ub.cls == FpClass::Inf)
    return signedInf<F>(ub.sign);
  if (ua.cls == FpClass::Zero && ub.cls == FpClass::Zero)
    return signedZero<F>(ua.sign == ub.sign ? ua.sign : rm == RoundMode::RM);
  if (ua.cls == FpClass::Zero)
    return b;
  if (ub.cls == FpClass::Zero)
    return a;
  return detail::addFinite<F>(ua, ub, rm);
}

/// a - b, correctly rounded (a + (-b); the sign flip of a NaN b does not matter).
template <class F>
constexpr typename F::Bits fpSub(typename F::Bits a, typename F::Bits b, RoundMode rm) {
  return fpAdd<F>(a, static_cast<typename F::Bits>(b ^ F::kSignMask), rm);
}

/// a * b, correctly rounded.
template <class F>
constexpr typename F::Bits fpMul(typename F::Bits a, typename F::Bits b, RoundMode rm) {
  const Unpacked ua = unpack<F>(a);
  const Unpacked ub = unpack<F>(b);
  const bool sign = ua.sign != ub.sign;
  if (ua.cls == FpClass::NaN || ub.cls == FpClass::NaN)
    return F::kCanonicalNaN;
  if (ua.cls == FpClass::Inf || ub.cls == FpClass::Inf) {
    if (ua.cls == FpClass::Zero || ub.cls == FpClass::Zero)
      return F::kCanonicalNaN;
    return signedInf<F>(sign);
  }
  if (ua.cls == FpClass::Zero || ub.cls == FpClass::Zero)
    return signedZero<F>(sign);
  return detail::mulFinite<F>(sign, ua, ub, rm);
}

/// a * b + c with a single rounding.
template <class F>
constexpr typename F::Bits fpFma(typename F::Bits a, typename F::Bits b, typename F::Bits c,
                                 RoundMode rm) {
  const Unpacked ua = unpack<F>(a);
  const Unpacked ub = unpack<F>(b);
  const Unpacked uc = unpack<F>(c);
  const bool sp = ua.sign != ub.sign;
  if (ua.cls == FpClass::NaN || ub.cls == FpClass::NaN || uc.cls == FpClass::NaN)
    return F::kCanonicalNaN;
  if (ua.cls == FpClass::Inf || ub.cls == FpClass::Inf) {
    if (ua.cls == FpClass::Zero || ub.cls == FpClass::Zero)
      return F::kCanonicalNaN; // inf * 0
    if (uc.cls == FpClass::Inf && uc.sign != sp)
      return F::kCanonicalNaN; // inf - inf
    return signedInf<F>(sp);
  }
  if (uc.cls == FpClass::Inf)
    return signedInf<F>(uc.sign);
  if (ua.cls == FpClass::Zero || ub.cls == FpClass::Zero) {
    if (uc.cls == FpClass::Zero)
      return signedZero<F>(sp == uc.sign ? sp : rm == RoundMode::RM);
    return c;
  }
  if (uc.cls == FpClass::Zero)
    return detail::mulFinite<F>(sp, ua, ub, rm);

  // Exact product: value = p * 2^(ep - 127) with bit 127 of p set.
  const U128 p0 = static_cast<U128>(ua.sig) * ub.sig;
  const uint32_t top = static_cast<uint32_t>(p0 >> 127);
  const U128 p = p0 << (1 - top);
  const int32_t ep = ua.exp + ub.exp + static_cast<int32_t>(top);
  // Addend in the same frame: value = q * 2^(ec - 127).
  const U128 q = static_cast<U128>(uc.sig) << 64;
  const int32_t ec = uc.exp;
  const bool prodBigger = (ep > ec) | ((ep == ec) & (p >= q));
  // Data-dependent choice: select with masks rather than branch.
  const U128 m = 0 - static_cast<U128>(prodBigger);
  const U128 big = (p & m) | (q & ~m);
  const U128 small = p ^ q ^ big;
  const uint32_t m32 = static_cast<uint32_t>(m);
  const int32_t eBig =
      static_cast<int32_t>((static_cast<uint32_t>(ep) & m32) | (static_cast<uint32_t>(ec) & ~m32));
  const int32_t eSmall = ep + ec - eBig;
  const bool sBig = prodBigger ? sp : uc.sign;
  const U128 x = big >> 1; // headroom for the carry (the dropped bit is always zero)
  const U128 y = shiftRightJam128(small >> 1, static_cast<uint32_t>(eBig - eSmall));
  // Effective addition or subtraction; y is negated with a mask (x - y = x + (~y + 1)).
  const U128 negMask = 0 - static_cast<U128>(sp != uc.sign);
  const U128 s = x + ((y ^ negMask) - negMask);
  if (s == 0) // exact cancellation
    return signedZero<F>(rm == RoundMode::RM);
  const Norm128 n = normalizeJam128(s);
  return roundPack<F>(sBig, eBig + 1 - n.shift, n.top, rm);
}

/// a / b, correctly rounded.
template <class F>
constexpr typename F::Bits fpDiv(typename F::Bits a, typename F::Bits b, RoundMode rm) {
  const Unpacked ua = unpack<F>(a);
  const Unpacked ub = unpack<F>(b);
  const bool sign = ua.sign != ub.sign;
  if (ua.cls == FpClass::NaN || ub.cls == FpClass::NaN)
    return F::kCanonicalNaN;
  if (ua.cls == FpClass::Inf)
    return ub.cls == FpClass::Inf ? F::kCanonicalNaN : signedInf<F>(sign);
  if (ub.cls == FpClass::Inf)
    return signedZero<F>(sign);
  if (ub.cls == FpClass::Zero)
    return ua.cls == FpClass::Zero ? F::kCanonicalNaN : signedInf<F>(sign);
  if (ua.cls == FpClass::Zero)
    return signedZero<F>(sign);
  if constexpr (F::kPrec <= 24) {
    // 24-bit significands: one 64-by-64-bit integer division gives >= 39 quotient bits.
    const uint64_t na = ua.sig >> 40;
    const uint64_t nb = ub.sig >> 40;
    const uint64_t num = na << 39;
    const uint64_t q = num / nb;
    const uint64_t r = num % nb;
    // a/b = q * 2^(ea - eb - 39) (+ remainder): jam the remainder below one extra bit.
    return packScaled<F>(sign, (q << 1) | static_cast<uint64_t>(r != 0), ua.exp - ub.exp - 40, rm);
  } else {
    // 53-bit significands: a 128-by-64-bit division gives 63 or 64 quotient bits.
    const U128 num = static_cast<U128>(ua.sig >> 1) << 64;
    const uint64_t q = static_cast<uint64_t>(num / ub.sig);
    const uint64_t r = static_cast<uint64_t>(num % ub.sig);
    return packScaled<F>(sign, q | static_cast<uint64_t>(r != 0), ua.exp - ub.exp - 63, rm);
  }
}

/// sqrt(a), correctly rounded (sqrt(-0) = -0, sqrt of a negative nonzero value = NaN).
template <class F> constexpr typename F::Bits fpSqrt(typename F::Bits a, RoundMode rm) {
  const Unpacked u = unpack<F>(a);
  switch (u.cls) {
  case FpClass::NaN:
    return F::kCanonicalNaN;
  case FpClass::Zero:
    return a;
  case FpClass::Inf:
    return u.sign ? F::kCanonicalNaN : a;
  case FpClass::Finite:
    break;
  }
  if (u.sign)
    return F::kCanonicalNaN;
  // value = m * 2^e2 with m a kPrec-bit integer. N = m << k has 2*(kPrec+2) or one bit fewer,
  // with (e2 - k) even, so Q = floor(sqrt(N)) has kPrec + 2 bits: the kept bits, a guard bit and
  // one more; the remainder N - Q^2 supplies the sticky bit exactly.
  const uint64_t m = u.sig >> (64 - F::kPrec);
  const int32_t e2 = u.exp - (F::kPrec - 1);
  const int32_t k = F::kPrec + 3 + ((e2 - (F::kPrec + 3)) & 1);
  const U128 n = static_cast<U128>(m) << k;
  const SqrtRem q = isqrtRem128(n);
  return packScaled<F>(false, (q.root << 1) | static_cast<uint64_t>(!q.exact), (e2 - k) / 2 - 1,
                       rm);
}

/// min(a, b): a NaN operand yields the other operand (canonical NaN if both are NaN, or if either
/// is NaN when propagateNaN, PTX min.NaN); -0 is less than +0.
template <class F>
constexpr typename F::Bits fpMin(typename F::Bits a, typename F::Bits b, bool propagateNaN) {
  const bool na = isNaN<F>(a);
  const bool nb = isNaN<F>(b);
  if (na || nb) {
    if (propagateNaN || (na && nb))
      return F::kCanonicalNaN;
    return na ? b : a;
  }
  return totalOrderKey<F>(b) < totalOrderKey<F>(a) ? b : a;
}

/// max(a, b) with the NaN rules of fpMin; +0 is greater than -0.
template <class F>
constexpr typename F::Bits fpMax(typename F::Bits a, typename F::Bits b, bool propagateNaN) {
  const bool na = isNaN<F>(a);
  const bool nb = isNaN<F>(b);
  if (na || nb) {
    if (propagateNaN || (na && nb))
      return F::kCanonicalNaN;
    return na ? b : a;
  }
  return totalOrderKey<F>(b) > totalOrderKey<F>(a) ? b : a;
}

/// PTX setp comparison (IEEE comparison: -0 == +0, NaN unordered).
template <class F> constexpr bool fpCompare(typename F::Bits a, typename F::Bits b, FCmp op) {
  const bool unordered = isNaN<F>(a) || isNaN<F>(b);
  const bool eq = !unordered && (a == b || (isZero<F>(a) && isZero<F>(b)));
  const bool lt = !unordered && !eq && totalOrderKey<F>(a) < totalOrderKey<F>(b);
  const bool gt = !unordered && !eq && !lt;
  return fcmpHolds(op, lt, eq, gt, unordered);
}

/// PTX .sat: clamp to [+0.0, 1.0]; NaN and every negative value (including -0.0) give +0.0.
template <class F> constexpr typename F::Bits fpSaturate(typename F::Bits x) {
  if (isNaN<F>(x) || signOf<F>(x))
    return 0;
  return x > F::kOne ? F::kOne : x;
}

/// Round to an integral value in the same format (PTX cvt.rni/rzi/rmi/rpi.fN.fN). Zero results
/// keep the sign of the input (rni(-0.3) = -0.0).
template <class F> constexpr typename F::Bits fpRoundToIntegral(typename F::Bits x, RoundMode rm) {
  const Unpacked u = unpack<F>(x);
  if (u.cls == FpClass::NaN)
    return F::kCanonicalNaN;
  if (u.cls != FpClass::Finite || u.exp >= F::kFracBits)
    return x; // zero, infinity, or already integral
  const IntRound r = roundToIntegerMag(u.sign, u.exp, u.sig, rm);
  return packScaled<F>(u.sign, r.mag, 0, RoundMode::RZ); // exact
}

} // namespace wf::hls

#endif // WARPFORGE_HLS_FP_ARITH_H

//===- warpforge/hls/convert.h - Conversions (PTX cvt) --------------------===//
//
// Part of Warpforge. Conversions between integers, f16, bf16, f32 and f64.
//
//  * float -> integer (cvt.{rni,rzi,rmi,rpi}.{s,u}{8,16,32,64}.{f16,f32,f64,bf16}): round to an
//    integral value with the mode, then saturate to the destination range; NaN gives 0; +-inf
//    saturate. The result is returned zero- or sign-extended to 64 bits. With ftz (f32 sources
//    only) a subnormal input is flushed to zero first, so cvt.rpi.ftz of a tiny positive is 0.
//  * integer -> float: correctly rounded with the mode (IEEE overflow: RN gives inf, RZ the
//    largest finite value, and so on; this is what matters for f16 where u16/s32 inputs can
//    overflow).
//  * float -> float: widening is exact, narrowing is correctly rounded with the mode. NaN gives the
//    canonical NaN of the destination (payloads are not kept). ftz applies to f32 operands and f32
//    results only, as in PTX. Same-format conversions with an integral rounding mode round to an
//    integral value (cvt.rni.f32.f32 ...).
//  * integer -> integer (cvt.{s,u}N.{s,u}M, optionally .sat): truncate or extend, or clamp.
//
//===----------------------------------------------------------------------===//

#ifndef WARPFORGE_HLS_CONVERT_H
#define WARPFORGE_HLS_CONVERT_H

#include "warpforge/hls/fp_arith.h"

namespace wf::hls {

//===----------------------------------------------------------------------===//
// Integer helpers
//===----------------------------------------------------------------------===//

/// Largest value of an integer type, as a uint64_t.
constexpr uint64_t intTypeMax(IntType t) {
  const unsigned bits = intTypeBits(t) - (intTypeSigned(t) ? 1u : 0u);
  return bits >= 64 ? ~static_cast<uint64_t>(0) : (static_cast<uint64_t>(1) << bits) - 1;
}

/// Smallest value of an integer type, sign-extended to 64 bits (0 for unsigned types).
constexpr uint64_t intTypeMin(IntType t) { return intTypeSigned(t) ? ~intTypeMax(t) : 0; }

/// The value's low intTypeBits(t) bits, zero- or sign-extended to 64 bits.
constexpr uint64_t intTypeExtend(uint64_t v, IntType t) {
  const unsigned bits = intTypeBits(t);
  if (bits == 64)
    return v;
  const uint64_t mask = (static_cast<uint64_t>(1) << bits) - 1;
  v &= mask;
  if (intTypeSigned(t) && ((v >> (bits - 1)) & 1) != 0)
    v |= ~mask;
  return v;
}

//===----------------------------------------------------------------------===//
// Generic conversions
//===----------------------------------------------------------------------===//

/// Float (format F) to integer: round with rm, saturate to t, NaN -> 0. Sign/zero-extended.
template <class F> constexpr uint64_t fpToInt(typename F::Bits x, IntType t, RoundMode rm) {
  const Unpacked u = unpack<F>(x);
  if (u.cls == FpClass::NaN || u.cls == FpClass::Zero)
    return 0;
  const bool sat = u.cls == FpClass::Inf;
  const IntRound r = sat ? IntRound{0, true} : roundToIntegerMag(u.sign, u.exp, u.sig, rm);
  const bool ovf = r.overflow;
  if (!u.sign)
    return (ovf || r.mag > intTypeMax(t)) ? intTypeMax(t) : r.mag;
  if (!intTypeSigned(t))
    return 0; // negative values saturate to 0 (after rounding, so -0.4 rni is 0 as well)
  const uint64_t minMag = intTypeMax(t) + 1; // magnitude of the most negative value
  if (ovf || r.mag > minMag)
    return intTypeMin(t);
  return 0 - r.mag;
}

/// Integer (type t, taken from the low bits of v) to float format F, correctly rounded.
template <class F> constexpr typename F::Bits intToFp(uint64_t v, IntType t, RoundMode rm) {
  const uint64_t ext = intTypeExtend(v, t);
  const bool sign = intTypeSigned(t) && (ext >> 63) != 0;
  const uint64_t mag = sign ? 0 - ext : ext;
  return packScaled<F>(sign, mag, 0, rm);
}

/// Float format Src to float format Dst (exact when widening, rounded with rm when narrowing).
template <class Dst, class Src>
constexpr typename Dst::Bits fpConvert(typename Src::Bits x, RoundMode rm) {
  return packUnpacked<Dst>(unpack<Src>(x), rm);
}

//===----------------------------------------------------------------------===//
// Typed conversions
//===----------------------------------------------------------------------===//

/// f32 to integer (PTX cvt.irnd{.ftz}{.sat}.{u,s}N.f32).
constexpr uint64_t cvtF32ToInt(uint32_t x, IntType t, RoundMode rm, bool ftz) {
  return fpToInt<F32>(maybeFlush<F32>(x, ftz), t, rm);
}
/// f64 to integer (PTX cvt.irnd.{u,s}N.f64).
constexpr uint64_t cvtF64ToInt(uint64_t x, IntType t, RoundMode rm) {
  return fpToInt<F64>(x, t, rm);
}
/// f16 to integer (PTX cvt.irnd.{u,s}N.f16).
constexpr uint64_t cvtF16ToInt(uint16_t x, IntType t, RoundMode rm) {
  return fpToInt<F16>(x, t, rm);
}
/// bf16 to integer (PTX cvt.irnd.{u,s}N.bf16).
constexpr uint64_t cvtBf16ToInt(uint16_t x, IntType t, RoundMode rm) {
  return fpToInt<BF16>(x, t, rm);
}

/// Integer to f32 (PTX cvt.rnd.f32.{u,s}N).
constexpr uint32_t cvtIntToF32(uint64_t v, IntType t, RoundMode rm) {
  return intToFp<F32>(v, t, rm);
}
/// Integer to f64 (PTX cvt.rnd.f64.{u,s}N).
constexpr uint64_t cvtIntToF64(uint64_t v, IntType t, RoundMode rm) {
  return intToFp<F64>(v, t, rm);
}
/// Integer to f16 (PTX cvt.rnd.f16.{u,s}N).
constexpr uint16_t cvtIntToF16(uint64_t v, IntType t, RoundMode rm) {
  return intToFp<F16>(v, t, rm);
}
/// Integer to bf16 (PTX cvt.rnd.bf16.{u,s}N).
constexpr uint16_t cvtIntToBf16(uint64_t v, IntType t, RoundMode rm) {
  return intToFp<BF16>(v, t, rm);
}

/// f32 to f64, exact (PTX cvt{.ftz}.f64.f32; ftz flushes a subnormal input).
constexpr uint64_t cvtF32ToF64(uint32_t x, bool ftz) {
  return fpConvert<F64, F32>(maybeFlush<F32>(x, ftz), RoundMode::RN);
}
/// f64 to f32, rounded (PTX cvt.rnd{.ftz}.f32.f64; ftz flushes a subnormal result).
constexpr uint32_t cvtF64ToF32(uint64_t x, RoundMode rm, bool ftz) {
  return maybeFlush<F32>(fpConvert<F32, F64>(x, rm), ftz);
}
/// f16 to f32, exact (PTX cvt.f32.f16).
constexpr uint32_t cvtF16ToF32(uint16_t x) { return fpConvert<F32, F16>(x, RoundMode::RN); }
/// f32 to f16, rounded (PTX cvt.rnd{.ftz}.f16.f32; ftz flushes a subnormal f32 input).
constexpr uint16_t cvtF32ToF16(uint32_t x, RoundMode rm, bool ftz) {
  return fpConvert<F16, F32>(maybeFlush<F32>(x, ftz), rm);
}
/// f16 to f64, exact (PTX cvt.f64.f16).
constexpr uint64_t cvtF16ToF64(uint16_t x) { return fpConvert<F64, F16>(x, RoundMode::RN); }
/// f64 to f16, rounded (PTX cvt.rnd.f16.f64).
constexpr uint16_t cvtF64ToF16(uint64_t x, RoundMode rm) { return fpConvert<F16, F64>(x, rm); }
/// bf16 to f32, exact (PTX cvt.f32.bf16).
constexpr uint32_t cvtBf16ToF32(uint16_t x) { return fpConvert<F32, BF16>(x, RoundMode::RN); }
/// f32 to bf16, rounded (PTX cvt.rn.bf16.f32; other modes available; ftz flushes the input).
constexpr uint16_t cvtF32ToBf16(uint32_t x, RoundMode rm, bool ftz) {
  return fpConvert<BF16, F32>(maybeFlush<F32>(x, ftz), rm);
}

/// Round to integral in f32 (PTX cvt.irnd{.ftz}.f32.f32).
constexpr uint32_t cvtRoundF32(uint32_t x, RoundMode rm, bool ftz) {
  return fpRoundToIntegral<F32>(maybeFlush<F32>(x, ftz), rm);
}
/// Round to integral in f64 (PTX cvt.irnd.f64.f64).
constexpr uint64_t cvtRoundF64(uint64_t x, RoundMode rm) { return fpRoundToIntegral<F64>(x, rm); }
/// Round to integral in f16 (PTX cvt.irnd.f16.f16).
constexpr uint16_t cvtRoundF16(uint16_t x, RoundMode rm) { return fpRoundToIntegral<F16>(x, rm); }

//===----------------------------------------------------------------------===//
// Dispatchers on the ISA's type fields (values right-aligned in a uint64_t)
//===----------------------------------------------------------------------===//

/// Any float type to integer: round with rm, saturate, NaN -> 0; ftz acts on f32 sources only.
constexpr uint64_t cvtFloatToInt(uint64_t x, FloatType src, IntType dst, RoundMode rm, bool ftz) {
  switch (src) {
  case FloatType::F16:
    return cvtF16ToInt(static_cast<uint16_t>(x), dst, rm);
  case FloatType::F32:
    return cvtF32ToInt(static_cast<uint32_t>(x), dst, rm, ftz);
  case FloatType::F64:
    return cvtF64ToInt(x, dst, rm);
  case FloatType::BF16:
    return cvtBf16ToInt(static_cast<uint16_t>(x), dst, rm);
  }
  return 0;
}

/// Integer to any float type, correctly rounded with rm.
constexpr uint64_t cvtIntToFloat(uint64_t v, IntType src, FloatType dst, RoundMode rm) {
  switch (dst) {
  case FloatType::F16:
    return cvtIntToF16(v, src, rm);
  case FloatType::F32:
    return cvtIntToF32(v, src, rm);
  case FloatType::F64:
    return cvtIntToF64(v, src, rm);
  case FloatType::BF16:
    return cvtIntToBf16(v, src, rm);
  }
  return 0;
}

namespace detail {
constexpr Unpacked unpackAny(uint64_t x, FloatType t, bool ftz) {
  switch (t) {
  case FloatType::F16:
    return unpack<F16>(static_cast<uint16_t>(x));
  case FloatType::F32:
    return unpack<F32>(maybeFlush<F32>(static_cast<uint32_t>(x), ftz));
  case FloatType::F64:
    return unpack<F64>(x);
  case FloatType::BF16:
    return unpack<BF16>(static_cast<uint16_t>(x));
  }
  return Unpacked{FpClass::NaN, false, 0, 0};
}
} // namespace detail

/// Float to float (PTX cvt.frnd/irnd{.ftz}{.sat}.dst.src). With `integral` the value is first
/// rounded to an integral value with rm (exact in the source format) and then converted to the
/// destination with round-to-nearest; otherwise it is converted with rm. ftz flushes an f32 input
/// and an f32 result; sat clamps the result to [0, 1] (NaN -> +0).
constexpr uint64_t cvtFloatToFloat(uint64_t x, FloatType src, FloatType dst, RoundMode rm,
                                   bool integral, bool ftz, bool sat) {
  Unpacked u = detail::unpackAny(x, src, ftz);
  RoundMode convRm = rm;
  if (integral && u.cls == FpClass::Finite && u.exp < 63) {
    const IntRound r = roundToIntegerMag(u.sign, u.exp, u.sig, rm);
    if (r.mag == 0) {
      u.cls = FpClass::Zero;
    } else {
      const int lz = std::countl_zero(r.mag);
      u.exp = 63 - lz;
      u.sig = r.mag << lz;
    }
    convRm = RoundMode::RN;
  } else if (integral) {
    convRm = RoundMode::RN;
  }
  switch (dst) {
  case FloatType::F16: {
    const uint16_t h = packUnpacked<F16>(u, convRm);
    return sat ? fpSaturate<F16>(h) : h;
  }
  case FloatType::F32: {
    const uint32_t f = maybeFlush<F32>(packUnpacked<F32>(u, convRm), ftz);
    return sat ? fpSaturate<F32>(f) : f;
  }
  case FloatType::F64: {
    const uint64_t d = packUnpacked<F64>(u, convRm);
    return sat ? fpSaturate<F64>(d) : d;
  }
  case FloatType::BF16: {
    const uint16_t b = packUnpacked<BF16>(u, convRm);
    return sat ? fpSaturate<BF16>(b) : b;
  }
  }
  return 0;
}

/// Integer to integer (PTX cvt{.sat}.dst.src): the source is taken from the low bits of v and
/// extended by its type; without sat the destination keeps its low bits (extended by its type),
/// with sat the value is clamped to the destination range.
constexpr uint64_t cvtIntToInt(uint64_t v, IntType src, IntType dst, bool sat) {
  const uint64_t x = intTypeExtend(v, src);
  if (!sat)
    return intTypeExtend(x, dst);
  const bool neg = intTypeSigned(src) && (x >> 63) != 0;
  if (neg) {
    if (!intTypeSigned(dst))
      return 0;
    const int64_t sx = static_cast<int64_t>(x);
    const int64_t lo = static_cast<int64_t>(intTypeMin(dst));
    return sx < lo ? intTypeMin(dst) : x;
  }
  return x > intTypeMax(dst) ? intTypeMax(dst) : x;
}

} // namespace wf::hls

#endif // WARPFORGE_HLS_CONVERT_H

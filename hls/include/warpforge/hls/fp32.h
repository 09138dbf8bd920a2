//===- warpforge/hls/fp32.h - Single-precision arithmetic ----------------===//
//
// Part of Warpforge. PTX f32 arithmetic on raw bit patterns.
//
// FTZ (PTX .ftz): subnormal inputs are flushed to the zero of the same sign before the operation
// and subnormal results are flushed to the zero of the same sign after rounding (a result that
// rounds up to the smallest normal is kept). NaN results are the canonical NaN 0x7fffffff.
//
//===----------------------------------------------------------------------===//

#ifndef WARPFORGE_HLS_FP32_H
#define WARPFORGE_HLS_FP32_H

#include "warpforge/hls/fp_arith.h"

namespace wf::hls {

/// The f32 canonical NaN produced by every f32 operation with a NaN result.
inline constexpr uint32_t kF32CanonicalNaN = F32::kCanonicalNaN;

/// a + b (PTX add{.rnd}{.ftz}.f32).
constexpr uint32_t fadd32(uint32_t a, uint32_t b, RoundMode rm, bool ftz) {
  return maybeFlush<F32>(fpAdd<F32>(maybeFlush<F32>(a, ftz), maybeFlush<F32>(b, ftz), rm), ftz);
}

/// a - b (PTX sub{.rnd}{.ftz}.f32).
constexpr uint32_t fsub32(uint32_t a, uint32_t b, RoundMode rm, bool ftz) {
  return maybeFlush<F32>(fpSub<F32>(maybeFlush<F32>(a, ftz), maybeFlush<F32>(b, ftz), rm), ftz);
}

/// a * b (PTX mul{.rnd}{.ftz}.f32).
constexpr uint32_t fmul32(uint32_t a, uint32_t b, RoundMode rm, bool ftz) {
  return maybeFlush<F32>(fpMul<F32>(maybeFlush<F32>(a, ftz), maybeFlush<F32>(b, ftz), rm), ftz);
}

/// a * b + c with a single rounding (PTX fma.rnd{.ftz}.f32, mad.rnd.f32).
constexpr uint32_t ffma32(uint32_t a, uint32_t b, uint32_t c, RoundMode rm, bool ftz) {
  return maybeFlush<F32>(
      fpFma<F32>(maybeFlush<F32>(a, ftz), maybeFlush<F32>(b, ftz), maybeFlush<F32>(c, ftz), rm),
      ftz);
}

/// a / b, correctly rounded (PTX div.rnd{.ftz}.f32).
constexpr uint32_t fdiv32(uint32_t a, uint32_t b, RoundMode rm, bool ftz) {
  return maybeFlush<F32>(fpDiv<F32>(maybeFlush<F32>(a, ftz), maybeFlush<F32>(b, ftz), rm), ftz);
}

/// 1 / a, correctly rounded (PTX rcp.rnd{.ftz}.f32).
constexpr uint32_t frcp32(uint32_t a, RoundMode rm, bool ftz) {
  return fdiv32(F32::kOne, a, rm, ftz);
}

/// sqrt(a), correctly rounded (PTX sqrt.rnd{.ftz}.f32).
constexpr uint32_t fsqrt32(uint32_t a, RoundMode rm, bool ftz) {
  return maybeFlush<F32>(fpSqrt<F32>(maybeFlush<F32>(a, ftz), rm), ftz);
}

/// PTX .sat: clamp to [0.0, 1.0]; NaN and negative values (including -0.0) give +0.0.
constexpr uint32_t fsat32(uint32_t x) { return fpSaturate<F32>(x); }

/// min(a, b) (PTX min{.ftz}{.NaN}.f32): a NaN operand yields the other operand unless
/// propagateNaN; two NaNs give the canonical NaN; -0.0 < +0.0.
constexpr uint32_t fmin32(uint32_t a, uint32_t b, bool ftz, bool propagateNaN) {
  return fpMin<F32>(maybeFlush<F32>(a, ftz), maybeFlush<F32>(b, ftz), propagateNaN);
}

/// max(a, b) (PTX max{.ftz}{.NaN}.f32), NaN rules as fmin32.
constexpr uint32_t fmax32(uint32_t a, uint32_t b, bool ftz, bool propagateNaN) {
  return fpMax<F32>(maybeFlush<F32>(a, ftz), maybeFlush<F32>(b, ftz), propagateNaN);
}

/// PTX setp.cmp{.ftz}.f32.
constexpr bool fcmp32(uint32_t a, uint32_t b, FCmp op, bool ftz) {
  return fpCompare<F32>(maybeFlush<F32>(a, ftz), maybeFlush<F32>(b, ftz), op);
}

/// |a| (PTX abs{.ftz}.f32): clears the sign bit; a NaN gives the canonical NaN.
constexpr uint32_t fabs32(uint32_t a, bool ftz) {
  if (isNaN<F32>(a))
    return F32::kCanonicalNaN;
  return maybeFlush<F32>(a, ftz) & 0x7fffffffu;
}

/// -a (PTX neg{.ftz}.f32): flips the sign bit; a NaN gives the canonical NaN.
constexpr uint32_t fneg32(uint32_t a, bool ftz) {
  if (isNaN<F32>(a))
    return F32::kCanonicalNaN;
  return maybeFlush<F32>(a, ftz) ^ 0x80000000u;
}

/// PTX copysign.f32 d, a, b: b with the sign of a (pure bit operation).
constexpr uint32_t fcopysign32(uint32_t a, uint32_t b) {
  return (b & 0x7fffffffu) | (a & 0x80000000u);
}

} // namespace wf::hls

#endif // WARPFORGE_HLS_FP32_H

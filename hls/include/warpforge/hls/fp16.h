//===- warpforge/hls/fp16.h - Half-precision and bfloat16 arithmetic -----===//
//
// Part of Warpforge. PTX f16 and bf16 arithmetic on raw 16-bit patterns. PTX allows only .rn for
// these, but every rounding direction is available here. FTZ (f16 only, PTX .ftz) has the same
// meaning as for f32. NaN results are the canonical NaN 0x7fff. Packed x2 forms are two
// independent calls, one per half (low half = bits 15:0).
//
//===----------------------------------------------------------------------===//

#ifndef WARPFORGE_HLS_FP16_H
#define WARPFORGE_HLS_FP16_H

#include "warpforge/hls/fp_arith.h"

namespace wf::hls {

/// a + b (PTX add{.rnd}{.ftz}.f16).
constexpr uint16_t fadd16(uint16_t a, uint16_t b, RoundMode rm, bool ftz) {
  return maybeFlush<F16>(fpAdd<F16>(maybeFlush<F16>(a, ftz), maybeFlush<F16>(b, ftz), rm), ftz);
}

/// a - b (PTX sub{.rnd}{.ftz}.f16).
constexpr uint16_t fsub16(uint16_t a, uint16_t b, RoundMode rm, bool ftz) {
  return maybeFlush<F16>(fpSub<F16>(maybeFlush<F16>(a, ftz), maybeFlush<F16>(b, ftz), rm), ftz);
}

/// a * b (PTX mul{.rnd}{.ftz}.f16).
constexpr uint16_t fmul16(uint16_t a, uint16_t b, RoundMode rm, bool ftz) {
  return maybeFlush<F16>(fpMul<F16>(maybeFlush<F16>(a, ftz), maybeFlush<F16>(b, ftz), rm), ftz);
}

/// a * b + c with a single rounding (PTX fma.rn{.ftz}.f16).
constexpr uint16_t ffma16(uint16_t a, uint16_t b, uint16_t c, RoundMode rm, bool ftz) {
  return maybeFlush<F16>(
      fpFma<F16>(maybeFlush<F16>(a, ftz), maybeFlush<F16>(b, ftz), maybeFlush<F16>(c, ftz), rm),
      ftz);
}

/// min(a, b) (PTX min{.ftz}{.NaN}.f16), NaN rules as fmin32.
constexpr uint16_t fmin16(uint16_t a, uint16_t b, bool ftz, bool propagateNaN) {
  return fpMin<F16>(maybeFlush<F16>(a, ftz), maybeFlush<F16>(b, ftz), propagateNaN);
}

/// max(a, b) (PTX max{.ftz}{.NaN}.f16), NaN rules as fmin32.
constexpr uint16_t fmax16(uint16_t a, uint16_t b, bool ftz, bool propagateNaN) {
  return fpMax<F16>(maybeFlush<F16>(a, ftz), maybeFlush<F16>(b, ftz), propagateNaN);
}

/// PTX setp.cmp{.ftz}.f16.
constexpr bool fcmp16(uint16_t a, uint16_t b, FCmp op, bool ftz) {
  return fpCompare<F16>(maybeFlush<F16>(a, ftz), maybeFlush<F16>(b, ftz), op);
}

/// Clamp to [0.0, 1.0] (PTX .sat on f16); NaN and negative values give +0.0.
constexpr uint16_t fsat16(uint16_t x) { return fpSaturate<F16>(x); }

/// |a| (PTX abs{.ftz}.f16); a NaN gives the canonical NaN.
constexpr uint16_t fabs16(uint16_t a, bool ftz) {
  if (isNaN<F16>(a))
    return F16::kCanonicalNaN;
  return static_cast<uint16_t>(maybeFlush<F16>(a, ftz) & 0x7fffu);
}

/// -a (PTX neg{.ftz}.f16); a NaN gives the canonical NaN.
constexpr uint16_t fneg16(uint16_t a, bool ftz) {
  if (isNaN<F16>(a))
    return F16::kCanonicalNaN;
  return static_cast<uint16_t>(maybeFlush<F16>(a, ftz) ^ 0x8000u);
}

/// a + b in bfloat16 (PTX add{.rn}.bf16).
constexpr uint16_t faddBf16(uint16_t a, uint16_t b, RoundMode rm) { return fpAdd<BF16>(a, b, rm); }

/// a - b in bfloat16 (PTX sub{.rn}.bf16).
constexpr uint16_t fsubBf16(uint16_t a, uint16_t b, RoundMode rm) { return fpSub<BF16>(a, b, rm); }

/// a * b in bfloat16 (PTX mul{.rn}.bf16).
constexpr uint16_t fmulBf16(uint16_t a, uint16_t b, RoundMode rm) { return fpMul<BF16>(a, b, rm); }

/// a * b + c in bfloat16 with a single rounding (PTX fma.rn.bf16).
constexpr uint16_t ffmaBf16(uint16_t a, uint16_t b, uint16_t c, RoundMode rm) {
  return fpFma<BF16>(a, b, c, rm);
}

/// min(a, b) in bfloat16 (PTX min{.NaN}.bf16).
constexpr uint16_t fminBf16(uint16_t a, uint16_t b, bool propagateNaN) {
  return fpMin<BF16>(a, b, propagateNaN);
}

/// max(a, b) in bfloat16 (PTX max{.NaN}.bf16).
constexpr uint16_t fmaxBf16(uint16_t a, uint16_t b, bool propagateNaN) {
  return fpMax<BF16>(a, b, propagateNaN);
}

/// setp on bfloat16 values.
constexpr bool fcmpBf16(uint16_t a, uint16_t b, FCmp op) { return fpCompare<BF16>(a, b, op); }

} // namespace wf::hls

#endif // WARPFORGE_HLS_FP16_H

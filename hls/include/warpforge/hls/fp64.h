//===- warpforge/hls/fp64.h - Double-precision arithmetic ----------------===//
//
// Part of Warpforge. PTX f64 arithmetic on raw bit patterns. f64 has no FTZ; subnormals are
// always exact. NaN results are the canonical NaN 0x7fffffffffffffff, except abs and neg, which
// (as on NVIDIA GPUs) only touch the sign bit and pass NaNs through.
//
//===----------------------------------------------------------------------===//

#ifndef WARPFORGE_HLS_FP64_H
#define WARPFORGE_HLS_FP64_H

#include "warpforge/hls/fp_arith.h"

namespace wf::hls {

/// The f64 canonical NaN produced by every f64 operation with a NaN result.
inline constexpr uint64_t kF64CanonicalNaN = F64::kCanonicalNaN;

/// a + b (PTX add.rnd.f64).
constexpr uint64_t fadd64(uint64_t a, uint64_t b, RoundMode rm) { return fpAdd<F64>(a, b, rm); }

/// a - b (PTX sub.rnd.f64).
constexpr uint64_t fsub64(uint64_t a, uint64_t b, RoundMode rm) { return fpSub<F64>(a, b, rm); }

/// a * b (PTX mul.rnd.f64).
constexpr uint64_t fmul64(uint64_t a, uint64_t b, RoundMode rm) { return fpMul<F64>(a, b, rm); }

/// a * b + c with a single rounding (PTX fma.rnd.f64).
constexpr uint64_t ffma64(uint64_t a, uint64_t b, uint64_t c, RoundMode rm) {
  return fpFma<F64>(a, b, c, rm);
}

/// a / b, correctly rounded (PTX div.rnd.f64).
constexpr uint64_t fdiv64(uint64_t a, uint64_t b, RoundMode rm) { return fpDiv<F64>(a, b, rm); }

/// 1 / a, correctly rounded (PTX rcp.rnd.f64).
constexpr uint64_t frcp64(uint64_t a, RoundMode rm) { return fpDiv<F64>(F64::kOne, a, rm); }

/// sqrt(a), correctly rounded (PTX sqrt.rnd.f64).
constexpr uint64_t fsqrt64(uint64_t a, RoundMode rm) { return fpSqrt<F64>(a, rm); }

/// Clamp to [0.0, 1.0] (cvt.sat.f64.f64); NaN and negative values give +0.0.
constexpr uint64_t fsat64(uint64_t x) { return fpSaturate<F64>(x); }

/// min(a, b) (PTX min{.NaN}.f64), NaN rules as fmin32.
constexpr uint64_t fmin64(uint64_t a, uint64_t b, bool propagateNaN) {
  return fpMin<F64>(a, b, propagateNaN);
}

/// max(a, b) (PTX max{.NaN}.f64), NaN rules as fmin32.
constexpr uint64_t fmax64(uint64_t a, uint64_t b, bool propagateNaN) {
  return fpMax<F64>(a, b, propagateNaN);
}

/// PTX setp.cmp.f64.
constexpr bool fcmp64(uint64_t a, uint64_t b, FCmp op) { return fpCompare<F64>(a, b, op); }

/// |a| (PTX abs.f64): clears the sign bit, NaNs pass through unchanged apart from the sign.
constexpr uint64_t fabs64(uint64_t a) { return a & ~F64::kSignMask; }

/// -a (PTX neg.f64): flips the sign bit, NaNs included.
constexpr uint64_t fneg64(uint64_t a) { return a ^ F64::kSignMask; }

/// PTX copysign.f64 d, a, b: b with the sign of a.
constexpr uint64_t fcopysign64(uint64_t a, uint64_t b) {
  return (b & ~F64::kSignMask) | (a & F64::kSignMask);
}

} // namespace wf::hls

#endif // WARPFORGE_HLS_FP64_H

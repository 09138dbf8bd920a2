//===- arith.h - The emulator's access to wf::hls arithmetic --------------------===//
//
// Every arithmetic result of the emulator is defined by wf::hls. Calling the integer-only hls
// functions for every lane of every FFMA would make the emulator ten times slower than its target,
// so the round-to-nearest forms of add, multiply, fused multiply-add, divide and square root use
// the host's IEEE-754 unit where IEEE-754 fixes the result bit for bit: the host computes the
// correctly rounded value, and the two places where hls chooses (the canonical NaN, and .ftz
// flushing of subnormal inputs and of subnormal results after rounding) are applied around it.
// The other rounding modes go to hls. tests/func/arith_test.cpp checks these paths against hls
// on random and special operands; defining WF_FUNC_HLS_ONLY sends everything to hls.
//
// Requires the host FPU in round-to-nearest with subnormals enabled (launch() sets MXCSR) and no
// contraction of a*b+c (the library builds with -ffp-contract=off).
//
//===----------------------------------------------------------------------===//

#pragma once

#include "warpforge/hls/convert.h"
#include "warpforge/hls/fp32.h"
#include "warpforge/hls/fp64.h"
#include "warpforge/hls/intops.h"
#include "warpforge/hls/sfu.h"

#include <bit>
#include <cmath>
#include <cstdint>

namespace wf::func::arith {

using hls::RoundMode;

#ifdef WF_FUNC_HLS_ONLY
inline constexpr bool kHostFastPath = false;
#else
inline constexpr bool kHostFastPath = true;
#endif

inline constexpr uint32_t kNaN32 = hls::F32::kCanonicalNaN;
inline constexpr uint64_t kNaN64 = hls::F64::kCanonicalNaN;

inline float asF32(uint32_t x) { return std::bit_cast<float>(x); }
inline double asF64(uint64_t x) { return std::bit_cast<double>(x); }

/// .ftz on one f32 value: a subnormal becomes the zero of its sign (branch-free).
inline uint32_t flush32(uint32_t x) {
  bool subnormal = (x & 0x7f800000u) == 0;
  return subnormal ? (x & 0x80000000u) : x;
}

/// Applies hls's result rules to a correctly rounded host f32 result.
inline uint32_t finish32(float r, bool ftz) {
  uint32_t bits = std::bit_cast<uint32_t>(r);
  bits = r != r ? kNaN32 : bits;
  return ftz ? flush32(bits) : bits;
}

inline uint64_t finish64(double r) {
  uint64_t bits = std::bit_cast<uint64_t>(r);
  return r != r ? kNaN64 : bits;
}

// Round-to-nearest forms, bit-identical to the hls functions of the same name with RoundMode::RN.
inline uint32_t fadd32RN(uint32_t a, uint32_t b, bool ftz) {
  if (ftz) {
    a = flush32(a);
    b = flush32(b);
  }
  return finish32(asF32(a) + asF32(b), ftz);
}
inline uint32_t fmul32RN(uint32_t a, uint32_t b, bool ftz) {
  if (ftz) {
    a = flush32(a);
    b = flush32(b);
  }
  return finish32(asF32(a) * asF32(b), ftz);
}
inline uint32_t ffma32RN(uint32_t a, uint32_t b, uint32_t c, bool ftz) {
  if (ftz) {
    a = flush32(a);
    b = flush32(b);
    c = flush32(c);
  }
  return finish32(std::fma(asF32(a), asF32(b), asF32(c)), ftz);
}
inline uint32_t fdiv32RN(uint32_t a, uint32_t b, bool ftz) {
  if (ftz) {
    a = flush32(a);
    b = flush32(b);
  }
  return finish32(asF32(a) / asF32(b), ftz);
}
inline uint32_t fsqrt32RN(uint32_t a, bool ftz) {
  if (ftz)
    a = flush32(a);
  return finish32(std::sqrt(asF32(a)), ftz);
}
inline uint64_t fadd64RN(uint64_t a, uint64_t b) { return finish64(asF64(a) + asF64(b)); }
inline uint64_t fmul64RN(uint64_t a, uint64_t b) { return finish64(asF64(a) * asF64(b)); }
inline uint64_t ffma64RN(uint64_t a, uint64_t b, uint64_t c) {
  return finish64(std::fma(asF64(a), asF64(b), asF64(c)));
}
inline uint64_t fdiv64RN(uint64_t a, uint64_t b) { return finish64(asF64(a) / asF64(b)); }
inline uint64_t fsqrt64RN(uint64_t a) { return finish64(std::sqrt(asF64(a))); }

// The full operations: the fast path for RN, hls otherwise.
inline uint32_t fadd32(uint32_t a, uint32_t b, RoundMode rm, bool ftz) {
  return kHostFastPath && rm == RoundMode::RN ? fadd32RN(a, b, ftz) : hls::fadd32(a, b, rm, ftz);
}
inline uint32_t fmul32(uint32_t a, uint32_t b, RoundMode rm, bool ftz) {
  return kHostFastPath && rm == RoundMode::RN ? fmul32RN(a, b, ftz) : hls::fmul32(a, b, rm, ftz);
}
inline uint32_t ffma32(uint32_t a, uint32_t b, uint32_t c, RoundMode rm, bool ftz) {
  return kHostFastPath && rm == RoundMode::RN ? ffma32RN(a, b, c, ftz)
                                              : hls::ffma32(a, b, c, rm, ftz);
}
inline uint32_t fdiv32(uint32_t a, uint32_t b, RoundMode rm, bool ftz) {
  return kHostFastPath && rm == RoundMode::RN ? fdiv32RN(a, b, ftz) : hls::fdiv32(a, b, rm, ftz);
}
inline uint32_t fsqrt32(uint32_t a, RoundMode rm, bool ftz) {
  return kHostFastPath && rm == RoundMode::RN ? fsqrt32RN(a, ftz) : hls::fsqrt32(a, rm, ftz);
}
inline uint64_t fadd64(uint64_t a, uint64_t b, RoundMode rm) {
  return kHostFastPath && rm == RoundMode::RN ? fadd64RN(a, b) : hls::fadd64(a, b, rm);
}
inline uint64_t fmul64(uint64_t a, uint64_t b, RoundMode rm) {
  return kHostFastPath && rm == RoundMode::RN ? fmul64RN(a, b) : hls::fmul64(a, b, rm);
}
inline uint64_t ffma64(uint64_t a, uint64_t b, uint64_t c, RoundMode rm) {
  return kHostFastPath && rm == RoundMode::RN ? ffma64RN(a, b, c) : hls::ffma64(a, b, c, rm);
}
inline uint64_t fdiv64(uint64_t a, uint64_t b, RoundMode rm) {
  return kHostFastPath && rm == RoundMode::RN ? fdiv64RN(a, b) : hls::fdiv64(a, b, rm);
}
inline uint64_t fsqrt64(uint64_t a, RoundMode rm) {
  return kHostFastPath && rm == RoundMode::RN ? fsqrt64RN(a) : hls::fsqrt64(a, rm);
}

} // namespace wf::func::arith

//===- warpforge/hls/types.h - Shared enums of the arithmetic units -------===//
//
// Part of Warpforge. The numeric values of these enums are encoded by the ISA
// (isa/isa.toml); do not renumber them.
//
//===----------------------------------------------------------------------===//

#ifndef WARPFORGE_HLS_TYPES_H
#define WARPFORGE_HLS_TYPES_H

#include <cstdint>

namespace wf::hls {

/// IEEE-754 rounding direction: nearest-even, toward zero, toward -inf, toward +inf. For the
/// round-to-integral conversions (PTX .rni/.rzi/.rmi/.rpi) the same four values are used.
enum class RoundMode : uint8_t { RN = 0, RZ = 1, RM = 2, RP = 3 };

/// PTX setp floating-point comparisons. Ordered forms are false when either operand is NaN, the
/// U forms are true then; NUM = neither operand is NaN, NAN_ = at least one is NaN.
enum class FCmp : uint8_t {
  EQ = 0,
  NE = 1,
  LT = 2,
  LE = 3,
  GT = 4,
  GE = 5,
  EQU = 6,
  NEU = 7,
  LTU = 8,
  LEU = 9,
  GTU = 10,
  GEU = 11,
  NUM = 12,
  NAN_ = 13
};

/// Integer comparisons; signedness is a separate argument.
enum class ICmp : uint8_t { EQ = 0, NE = 1, LT = 2, LE = 3, GT = 4, GE = 5 };

/// Special-function-unit operations (PTX *.approx.f32).
enum class SfuOp : uint8_t {
  RCP = 0,
  RSQ = 1,
  SQRT = 2,
  EX2 = 3,
  LG2 = 4,
  SIN = 5,
  COS = 6,
  TANH = 7
};

/// Integer operand types of conversions. Bit 0 = signed, bits 2:1 = log2(bytes).
enum class IntType : uint8_t {
  U8 = 0,
  S8 = 1,
  U16 = 2,
  S16 = 3,
  U32 = 4,
  S32 = 5,
  U64 = 6,
  S64 = 7
};

/// Floating-point operand types of conversions (same order as the ISA's FltType).
enum class FloatType : uint8_t { F16 = 0, F32 = 1, F64 = 2, BF16 = 3 };

/// Width in bits of an integer type.
constexpr unsigned intTypeBits(IntType t) { return 8u << (static_cast<unsigned>(t) >> 1); }

/// True for the signed integer types.
constexpr bool intTypeSigned(IntType t) { return (static_cast<unsigned>(t) & 1u) != 0; }

} // namespace wf::hls

#endif // WARPFORGE_HLS_TYPES_H

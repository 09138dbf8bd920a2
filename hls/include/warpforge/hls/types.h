//===- warpforge/hls/types.h - Shared enums of the arithmetic units -------===//
//
// Part of Warpforge. The enums are generated from isa/isa.toml (isa_enums.gen.h), so the models
// pass instruction fields to the units as they are encoded.
//
//===----------------------------------------------------------------------===//

#ifndef WARPFORGE_HLS_TYPES_H
#define WARPFORGE_HLS_TYPES_H

#include "warpforge/hls/isa_enums.gen.h"

#include <cstdint>

namespace wf::hls {

// RoundMode (also the four round-to-integral modes, PTX .rni/.rzi/.rmi/.rpi, in the same order),
// FCmp with its outcome table fcmpHolds, ICmp (signedness is a separate argument), SfuOp,
// IntType (bit 0 = signed, bits 2:1 = log2(bytes)), FloatType and PrmtMode are the ISA's enums,
// generated from isa/isa.toml with its encodings.

/// Width in bits of an integer type.
constexpr unsigned intTypeBits(IntType t) { return 8u << (static_cast<unsigned>(t) >> 1); }

/// True for the signed integer types.
constexpr bool intTypeSigned(IntType t) { return (static_cast<unsigned>(t) & 1u) != 0; }

} // namespace wf::hls

#endif // WARPFORGE_HLS_TYPES_H

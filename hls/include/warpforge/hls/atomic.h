//===- warpforge/hls/atomic.h - The value an atomic writes -------------------===//
//
// Part of Warpforge. ATOM's read-modify-write, written once: the new value from the old one, the
// operand b and CAS's c (PTX atom semantics: INC wraps to 0 at b, DEC wraps to b at 0 or above b;
// float ADD rounds to nearest, no flush). The emulator calls it for shared and global atomics; the
// L2 bank's wf_l2_atomic is checked against it (tests/rtl/tb_l2_atomic.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef WARPFORGE_HLS_ATOMIC_H
#define WARPFORGE_HLS_ATOMIC_H

#include "warpforge/hls/fp32.h"
#include "warpforge/hls/fp64.h"
#include "warpforge/hls/intops.h"
#include "warpforge/hls/isa_enums.gen.h"

#include <cstdint>

namespace wf::hls {

/// T is uint32_t for the 32-bit types, uint64_t for the 64-bit ones.
template <class T> constexpr T atomNew(AtomOp fn, AtomType ty, T old, T b, T c) {
  const bool isSigned = ty == AtomType::S32 || ty == AtomType::S64;
  constexpr bool wide = sizeof(T) == 8;
  switch (fn) {
  case AtomOp::ADD:
    if (ty == AtomType::F32)
      return T(fadd32(uint32_t(old), uint32_t(b), RoundMode::RN, false));
    if (ty == AtomType::F64)
      return T(fadd64(uint64_t(old), uint64_t(b), RoundMode::RN));
    if constexpr (wide)
      return addc64(old, b, false).value;
    else
      return addc32(old, b, false).value;
  case AtomOp::MIN:
    if constexpr (wide)
      return imin64(old, b, isSigned);
    else
      return imin32(old, b, isSigned);
  case AtomOp::MAX:
    if constexpr (wide)
      return imax64(old, b, isSigned);
    else
      return imax32(old, b, isSigned);
  case AtomOp::INC:
    return old >= b ? T(0) : T(addc32(uint32_t(old), 1, false).value);
  case AtomOp::DEC:
    return (old == 0 || old > b) ? b : T(subc32(uint32_t(old), 1, false).value);
  case AtomOp::AND:
    return old & b;
  case AtomOp::OR:
    return old | b;
  case AtomOp::XOR:
    return old ^ b;
  case AtomOp::EXCH:
    return b;
  case AtomOp::CAS:
    return old == b ? c : old;
  }
  return old;
}

} // namespace wf::hls

#endif

//===- warpforge/hls/intops.h - Integer and bit operations ----------------===//
//
// Part of Warpforge. PTX integer arithmetic, logic, shift and bit-field operations on fixed-width
// unsigned values (signed operands are passed as their two's-complement bit patterns).
//
// Integer division (PTX leaves division by zero unspecified; these are Warpforge's rules, shared
// with the ISA): x / 0 = all ones (-1 for signed types) and x % 0 = x, for signed and unsigned
// types; INT_MIN / -1 = INT_MIN and INT_MIN % -1 = 0 (no trap). Quotients truncate toward zero and
// remainders take the sign of the dividend.
//
//===----------------------------------------------------------------------===//

#ifndef WARPFORGE_HLS_INTOPS_H
#define WARPFORGE_HLS_INTOPS_H

#include "warpforge/hls/fp_common.h" // U128, S128
#include "warpforge/hls/types.h"

#include <bit>
#include <cstdint>

namespace wf::hls {

/// Value and carry (or borrow) out of an extended-precision add or subtract.
struct CarryResult32 {
  uint32_t value;
  bool carry;
};
struct CarryResult64 {
  uint64_t value;
  bool carry;
};

//===----------------------------------------------------------------------===//
// Add, subtract, multiply
//===----------------------------------------------------------------------===//

/// a + b + carryIn with carry out (PTX add.cc / addc.cc .u32).
constexpr CarryResult32 addc32(uint32_t a, uint32_t b, bool carryIn) {
  const uint64_t s = static_cast<uint64_t>(a) + b + (carryIn ? 1u : 0u);
  return {static_cast<uint32_t>(s), (s >> 32) != 0};
}
/// a + b + carryIn with carry out, 64-bit (PTX add.cc / addc.cc .u64).
constexpr CarryResult64 addc64(uint64_t a, uint64_t b, bool carryIn) {
  const U128 s = static_cast<U128>(a) + b + (carryIn ? 1u : 0u);
  return {static_cast<uint64_t>(s), (s >> 64) != 0};
}
/// a - b - borrowIn with borrow out (PTX sub.cc / subc.cc: the carry flag holds the borrow).
constexpr CarryResult32 subc32(uint32_t a, uint32_t b, bool borrowIn) {
  const uint64_t d = static_cast<uint64_t>(a) - b - (borrowIn ? 1u : 0u);
  return {static_cast<uint32_t>(d), (d >> 32) != 0};
}
/// a - b - borrowIn with borrow out, 64-bit.
constexpr CarryResult64 subc64(uint64_t a, uint64_t b, bool borrowIn) {
  const U128 d = static_cast<U128>(a) - b - (borrowIn ? 1u : 0u);
  return {static_cast<uint64_t>(d), (d >> 64) != 0};
}

/// Signed saturating add (PTX add.sat.s32).
constexpr uint32_t addSatS32(uint32_t a, uint32_t b) {
  const int64_t s = static_cast<int64_t>(static_cast<int32_t>(a)) + static_cast<int32_t>(b);
  if (s > INT32_MAX)
    return static_cast<uint32_t>(INT32_MAX);
  if (s < INT32_MIN)
    return static_cast<uint32_t>(INT32_MIN);
  return static_cast<uint32_t>(s);
}
/// Signed saturating subtract (PTX sub.sat.s32).
constexpr uint32_t subSatS32(uint32_t a, uint32_t b) {
  const int64_t s = static_cast<int64_t>(static_cast<int32_t>(a)) - static_cast<int32_t>(b);
  if (s > INT32_MAX)
    return static_cast<uint32_t>(INT32_MAX);
  if (s < INT32_MIN)
    return static_cast<uint32_t>(INT32_MIN);
  return static_cast<uint32_t>(s);
}

/// Low 32 bits of a * b (PTX mul.lo, signed and unsigned alike).
constexpr uint32_t mulLo32(uint32_t a, uint32_t b) { return a * b; }
/// High 32 bits of the 64-bit product (PTX mul.hi.{u32,s32}).
constexpr uint32_t mulHi32(uint32_t a, uint32_t b, bool isSigned) {
  if (isSigned)
    return static_cast<uint32_t>(
        static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(a)) *
                              static_cast<int32_t>(b)) >>
        32);
  return static_cast<uint32_t>((static_cast<uint64_t>(a) * b) >> 32);
}
/// Full 64-bit product (PTX mul.wide.{u32,s32}); signed results as two's complement.
constexpr uint64_t mulWide32(uint32_t a, uint32_t b, bool isSigned) {
  if (isSigned)
    return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(a)) *
                                 static_cast<int32_t>(b));
  return static_cast<uint64_t>(a) * b;
}
/// Low 64 bits of a * b (PTX mul.lo.{u64,s64}).
constexpr uint64_t mulLo64(uint64_t a, uint64_t b) { return a * b; }
/// High 64 bits of the 128-bit product (PTX mul.hi.{u64,s64}).
constexpr uint64_t mulHi64(uint64_t a, uint64_t b, bool isSigned) {
  if (isSigned)
    return static_cast<uint64_t>(
        static_cast<U128>(static_cast<S128>(static_cast<int64_t>(a)) * static_cast<int64_t>(b)) >>
        64);
  return static_cast<uint64_t>((static_cast<U128>(a) * b) >> 64);
}
/// PTX mul24.lo: low 32 bits of the 48-bit product of the low 24 bits (sign-extended if signed).
constexpr uint32_t mul24Lo(uint32_t a, uint32_t b, bool isSigned) {
  return static_cast<uint32_t>(mulWide32(a << 8, b << 8, isSigned) >> 16);
}
/// PTX mul24.hi: bits 47:16 of the 48-bit product of the low 24 bits.
constexpr uint32_t mul24Hi(uint32_t a, uint32_t b, bool isSigned) {
  const uint64_t p =
      isSigned ? static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(a << 8) >> 8) *
                                       (static_cast<int32_t>(b << 8) >> 8))
               : static_cast<uint64_t>(a & 0xffffffu) * (b & 0xffffffu);
  return static_cast<uint32_t>(p >> 16);
}

//===----------------------------------------------------------------------===//
// Min, max, abs, sad, dot products
//===----------------------------------------------------------------------===//

/// min (PTX min.{u32,s32}).
constexpr uint32_t imin32(uint32_t a, uint32_t b, bool isSigned) {
  if (isSigned)
    return static_cast<int32_t>(a) < static_cast<int32_t>(b) ? a : b;
  return a < b ? a : b;
}
/// max (PTX max.{u32,s32}).
constexpr uint32_t imax32(uint32_t a, uint32_t b, bool isSigned) {
  if (isSigned)
    return static_cast<int32_t>(a) > static_cast<int32_t>(b) ? a : b;
  return a > b ? a : b;
}
/// min, 64-bit (PTX min.{u64,s64}).
constexpr uint64_t imin64(uint64_t a, uint64_t b, bool isSigned) {
  if (isSigned)
    return static_cast<int64_t>(a) < static_cast<int64_t>(b) ? a : b;
  return a < b ? a : b;
}
/// max, 64-bit (PTX max.{u64,s64}).
constexpr uint64_t imax64(uint64_t a, uint64_t b, bool isSigned) {
  if (isSigned)
    return static_cast<int64_t>(a) > static_cast<int64_t>(b) ? a : b;
  return a > b ? a : b;
}
/// |a| in two's complement (PTX abs.s32); INT_MIN stays INT_MIN.
constexpr uint32_t iabs32(uint32_t a) { return (a >> 31) != 0 ? 0u - a : a; }
/// |a|, 64-bit (PTX abs.s64); INT64_MIN stays INT64_MIN.
constexpr uint64_t iabs64(uint64_t a) { return (a >> 63) != 0 ? 0u - a : a; }
/// PTX sad.{u32,s32}: c + |a - b|.
constexpr uint32_t sad32(uint32_t a, uint32_t b, uint32_t c, bool isSigned) {
  const bool aLess = isSigned ? static_cast<int32_t>(a) < static_cast<int32_t>(b) : a < b;
  return c + (aLess ? b - a : a - b);
}
/// PTX sad.{u64,s64}: c + |a - b|.
constexpr uint64_t sad64(uint64_t a, uint64_t b, uint64_t c, bool isSigned) {
  const bool aLess = isSigned ? static_cast<int64_t>(a) < static_cast<int64_t>(b) : a < b;
  return c + (aLess ? b - a : a - b);
}
/// PTX dp4a.{atype}.{btype}: c + sum of the four byte products (bytes sign- or zero-extended).
constexpr uint32_t dp4a(uint32_t a, uint32_t b, uint32_t c, bool aSigned, bool bSigned) {
  uint32_t acc = c;
  for (int i = 0; i < 4; ++i) {
    const uint32_t ab = (a >> (8 * i)) & 0xffu;
    const uint32_t bb = (b >> (8 * i)) & 0xffu;
    const int32_t av = aSigned ? static_cast<int8_t>(ab) : static_cast<int32_t>(ab);
    const int32_t bv = bSigned ? static_cast<int8_t>(bb) : static_cast<int32_t>(bb);
    acc += static_cast<uint32_t>(av * bv);
  }
  return acc;
}
/// PTX dp2a.{lo,hi}.{atype}.{btype}: c + a.h0 * b.byte(k) + a.h1 * b.byte(k+1), k = hi ? 2 : 0.
constexpr uint32_t dp2a(uint32_t a, uint32_t b, uint32_t c, bool aSigned, bool bSigned, bool hi) {
  uint32_t acc = c;
  for (int i = 0; i < 2; ++i) {
    const uint32_t ah = (a >> (16 * i)) & 0xffffu;
    const uint32_t bb = (b >> (8 * (i + (hi ? 2 : 0)))) & 0xffu;
    const int32_t av = aSigned ? static_cast<int16_t>(ah) : static_cast<int32_t>(ah);
    const int32_t bv = bSigned ? static_cast<int8_t>(bb) : static_cast<int32_t>(bb);
    acc += static_cast<uint32_t>(av * bv);
  }
  return acc;
}

//===----------------------------------------------------------------------===//
// Division
//===----------------------------------------------------------------------===//

/// a / b (PTX div.{u32,s32}); see the file comment for b = 0 and INT_MIN / -1.
constexpr uint32_t idiv32(uint32_t a, uint32_t b, bool isSigned) {
  if (b == 0)
    return 0xffffffffu;
  if (!isSigned)
    return a / b;
  if (a == 0x80000000u && b == 0xffffffffu)
    return 0x80000000u;
  return static_cast<uint32_t>(static_cast<int32_t>(a) / static_cast<int32_t>(b));
}
/// a % b (PTX rem.{u32,s32}); see the file comment for b = 0 and INT_MIN % -1.
constexpr uint32_t irem32(uint32_t a, uint32_t b, bool isSigned) {
  if (b == 0)
    return a;
  if (!isSigned)
    return a % b;
  if (a == 0x80000000u && b == 0xffffffffu)
    return 0;
  return static_cast<uint32_t>(static_cast<int32_t>(a) % static_cast<int32_t>(b));
}
/// a / b (PTX div.{u64,s64}).
constexpr uint64_t idiv64(uint64_t a, uint64_t b, bool isSigned) {
  if (b == 0)
    return ~static_cast<uint64_t>(0);
  if (!isSigned)
    return a / b;
  if (a == (static_cast<uint64_t>(1) << 63) && b == ~static_cast<uint64_t>(0))
    return a;
  return static_cast<uint64_t>(static_cast<int64_t>(a) / static_cast<int64_t>(b));
}
/// a % b (PTX rem.{u64,s64}).
constexpr uint64_t irem64(uint64_t a, uint64_t b, bool isSigned) {
  if (b == 0)
    return a;
  if (!isSigned)
    return a % b;
  if (a == (static_cast<uint64_t>(1) << 63) && b == ~static_cast<uint64_t>(0))
    return 0;
  return static_cast<uint64_t>(static_cast<int64_t>(a) % static_cast<int64_t>(b));
}

/// a / b on the low `bits` (32 or 64) bits of the operands; the quotient is returned in the low
/// `bits` bits, zero-extended (the form the ISA's IDIV uses for both widths).
constexpr uint64_t idiv(uint64_t a, uint64_t b, bool isSigned, unsigned bits) {
  return bits == 64 ? idiv64(a, b, isSigned)
                    : idiv32(static_cast<uint32_t>(a), static_cast<uint32_t>(b), isSigned);
}
/// a % b on the low `bits` (32 or 64) bits; the remainder is returned zero-extended.
constexpr uint64_t irem(uint64_t a, uint64_t b, bool isSigned, unsigned bits) {
  return bits == 64 ? irem64(a, b, isSigned)
                    : irem32(static_cast<uint32_t>(a), static_cast<uint32_t>(b), isSigned);
}

//===----------------------------------------------------------------------===//
// Compare
//===----------------------------------------------------------------------===//

/// PTX setp.cmp.{u32,s32}.
constexpr bool icmp32(uint32_t a, uint32_t b, ICmp op, bool isSigned) {
  const bool lt = isSigned ? static_cast<int32_t>(a) < static_cast<int32_t>(b) : a < b;
  const bool eq = a == b;
  switch (op) {
  case ICmp::EQ:
    return eq;
  case ICmp::NE:
    return !eq;
  case ICmp::LT:
    return lt;
  case ICmp::LE:
    return lt || eq;
  case ICmp::GT:
    return !lt && !eq;
  case ICmp::GE:
    return !lt;
  }
  return false;
}
/// PTX setp.cmp.{u64,s64}.
constexpr bool icmp64(uint64_t a, uint64_t b, ICmp op, bool isSigned) {
  const bool lt = isSigned ? static_cast<int64_t>(a) < static_cast<int64_t>(b) : a < b;
  const bool eq = a == b;
  switch (op) {
  case ICmp::EQ:
    return eq;
  case ICmp::NE:
    return !eq;
  case ICmp::LT:
    return lt;
  case ICmp::LE:
    return lt || eq;
  case ICmp::GT:
    return !lt && !eq;
  case ICmp::GE:
    return !lt;
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Shifts and logic
//===----------------------------------------------------------------------===//

/// a << n, n unsigned; n >= 16 gives 0 (PTX shl.b16).
constexpr uint16_t shl16(uint16_t a, uint32_t n) {
  return n >= 16 ? 0 : static_cast<uint16_t>(a << n);
}
/// a >> n (PTX shr.{u16,s16}); n >= 16 gives 0 or the sign fill.
constexpr uint16_t shr16(uint16_t a, uint32_t n, bool isSigned) {
  if (isSigned)
    return static_cast<uint16_t>(static_cast<int16_t>(a) >> (n >= 16 ? 15 : n));
  return n >= 16 ? 0 : static_cast<uint16_t>(a >> n);
}
/// a << n, n unsigned; n >= 32 gives 0 (PTX shl.b32).
constexpr uint32_t shl32(uint32_t a, uint32_t n) { return n >= 32 ? 0 : a << n; }
/// a >> n (PTX shr.{u32,s32}); n >= 32 gives 0 or the sign fill.
constexpr uint32_t shr32(uint32_t a, uint32_t n, bool isSigned) {
  if (isSigned)
    return static_cast<uint32_t>(static_cast<int32_t>(a) >> (n >= 32 ? 31 : n));
  return n >= 32 ? 0 : a >> n;
}
/// a << n; n >= 64 gives 0 (PTX shl.b64; the amount is a u32).
constexpr uint64_t shl64(uint64_t a, uint32_t n) { return n >= 64 ? 0 : a << n; }
/// a >> n (PTX shr.{u64,s64}); n >= 64 gives 0 or the sign fill.
constexpr uint64_t shr64(uint64_t a, uint32_t n, bool isSigned) {
  if (isSigned)
    return static_cast<uint64_t>(static_cast<int64_t>(a) >> (n >= 64 ? 63 : n));
  return n >= 64 ? 0 : a >> n;
}

/// PTX shf.{l,r}.{clamp,wrap}.b32 d, a, b, c: funnel shift of the 64-bit value b:a (b high) by
/// n = wrap ? c & 31 : min(c, 32); left (right = false) gives the high word, right the low word.
/// The two flags follow the ISA's encoding (ShfDir L = 0 / R = 1, ShfMode CLAMP = 0 / WRAP = 1).
constexpr uint32_t shf32(uint32_t a, uint32_t b, uint32_t c, bool right, bool wrap) {
  const uint32_t n = wrap ? (c & 31u) : (c > 32 ? 32 : c);
  const uint64_t v = (static_cast<uint64_t>(b) << 32) | a;
  return right ? static_cast<uint32_t>(v >> n) : static_cast<uint32_t>((v << n) >> 32);
}

/// PTX lop3.b32: each result bit is lut[(a << 2) | (b << 1) | c] of the input bits (so a is
/// 0xF0, b is 0xCC and c is 0xAA as truth tables).
constexpr uint32_t lop3(uint32_t a, uint32_t b, uint32_t c, uint8_t lut) {
  uint32_t r = 0;
  for (int i = 0; i < 8; ++i) {
    if (((lut >> i) & 1u) == 0)
      continue;
    const uint32_t ma = (i & 4) != 0 ? a : ~a;
    const uint32_t mb = (i & 2) != 0 ? b : ~b;
    const uint32_t mc = (i & 1) != 0 ? c : ~c;
    r |= ma & mb & mc;
  }
  return r;
}

//===----------------------------------------------------------------------===//
// Bit counting and bit fields
//===----------------------------------------------------------------------===//

/// Number of set bits (PTX popc.b32).
constexpr uint32_t popc32(uint32_t a) { return static_cast<uint32_t>(std::popcount(a)); }
/// Number of set bits (PTX popc.b64; result is a u32).
constexpr uint32_t popc64(uint64_t a) { return static_cast<uint32_t>(std::popcount(a)); }
/// Leading zeros, 32 for 0 (PTX clz.b32).
constexpr uint32_t clz32(uint32_t a) { return static_cast<uint32_t>(std::countl_zero(a)); }
/// Leading zeros, 64 for 0 (PTX clz.b64; result is a u32).
constexpr uint32_t clz64(uint64_t a) { return static_cast<uint32_t>(std::countl_zero(a)); }

/// Bit reversal (PTX brev.b32).
constexpr uint32_t brev32(uint32_t a) {
  a = ((a >> 1) & 0x55555555u) | ((a & 0x55555555u) << 1);
  a = ((a >> 2) & 0x33333333u) | ((a & 0x33333333u) << 2);
  a = ((a >> 4) & 0x0f0f0f0fu) | ((a & 0x0f0f0f0fu) << 4);
  a = ((a >> 8) & 0x00ff00ffu) | ((a & 0x00ff00ffu) << 8);
  return (a >> 16) | (a << 16);
}
/// Bit reversal (PTX brev.b64).
constexpr uint64_t brev64(uint64_t a) {
  return (static_cast<uint64_t>(brev32(static_cast<uint32_t>(a))) << 32) |
         brev32(static_cast<uint32_t>(a >> 32));
}

/// PTX bfind.{u32,s32}{.shiftamt}: position of the most significant non-sign bit (for negative
/// signed values the most significant 0), or msb - position with shiftAmt; 0xffffffff if none.
constexpr uint32_t bfind32(uint32_t a, bool isSigned, bool shiftAmt) {
  if (isSigned && (a >> 31) != 0)
    a = ~a;
  if (a == 0)
    return 0xffffffffu;
  const uint32_t pos = 31u - static_cast<uint32_t>(std::countl_zero(a));
  return shiftAmt ? 31u - pos : pos;
}
/// PTX bfind.{u64,s64}{.shiftamt}.
constexpr uint32_t bfind64(uint64_t a, bool isSigned, bool shiftAmt) {
  if (isSigned && (a >> 63) != 0)
    a = ~a;
  if (a == 0)
    return 0xffffffffu;
  const uint32_t pos = 63u - static_cast<uint32_t>(std::countl_zero(a));
  return shiftAmt ? 63u - pos : pos;
}

/// PTX bfe.{u32,s32}: the field of `len` bits at `pos` (both taken mod 256) of a, zero-extended,
/// or extended with its top bit (clamped to bit 31) for signed; len 0 gives 0; a field beyond
/// bit 31 is filled with the sign bit.
constexpr uint32_t bfe32(uint32_t a, uint32_t pos, uint32_t len, bool isSigned) {
  pos &= 0xffu;
  len &= 0xffu;
  if (len == 0)
    return 0;
  const uint32_t top = pos + len - 1 > 31 ? 31 : pos + len - 1;
  const bool sbit = isSigned && ((a >> top) & 1u) != 0;
  if (pos > 31)
    return sbit ? 0xffffffffu : 0u;
  const uint32_t keep = len < 32 - pos ? len : 32 - pos; // 1..32
  const uint32_t mask = keep == 32 ? 0xffffffffu : ((1u << keep) - 1);
  return ((a >> pos) & mask) | (sbit ? ~mask : 0u);
}
/// PTX bfe.{u64,s64}.
constexpr uint64_t bfe64(uint64_t a, uint32_t pos, uint32_t len, bool isSigned) {
  pos &= 0xffu;
  len &= 0xffu;
  if (len == 0)
    return 0;
  const uint32_t top = pos + len - 1 > 63 ? 63 : pos + len - 1;
  const bool sbit = isSigned && ((a >> top) & 1u) != 0;
  if (pos > 63)
    return sbit ? ~static_cast<uint64_t>(0) : 0u;
  const uint32_t keep = len < 64 - pos ? len : 64 - pos; // 1..64
  const uint64_t mask =
      keep == 64 ? ~static_cast<uint64_t>(0) : ((static_cast<uint64_t>(1) << keep) - 1);
  return ((a >> pos) & mask) | (sbit ? ~mask : 0u);
}

/// PTX bfi.b32 f, a, b, pos, len: b with its bits pos.. replaced by the low `len` bits of a
/// (pos, len mod 256; bits beyond bit 31 are dropped).
constexpr uint32_t bfi32(uint32_t a, uint32_t b, uint32_t pos, uint32_t len) {
  pos &= 0xffu;
  len &= 0xffu;
  if (len == 0 || pos > 31)
    return b;
  const uint32_t keep = len < 32 - pos ? len : 32 - pos;
  const uint32_t mask = (keep == 32 ? 0xffffffffu : ((1u << keep) - 1)) << pos;
  return (b & ~mask) | ((a << pos) & mask);
}
/// PTX bfi.b64.
constexpr uint64_t bfi64(uint64_t a, uint64_t b, uint32_t pos, uint32_t len) {
  pos &= 0xffu;
  len &= 0xffu;
  if (len == 0 || pos > 63)
    return b;
  const uint32_t keep = len < 64 - pos ? len : 64 - pos;
  const uint64_t mask =
      (keep == 64 ? ~static_cast<uint64_t>(0) : ((static_cast<uint64_t>(1) << keep) - 1)) << pos;
  return (b & ~mask) | ((a << pos) & mask);
}

/// PTX szext.{clamp,wrap}.{u32,s32} d, a, b: the low N = b bits of a, zero- or sign-extended.
/// N = 0 gives 0; N >= 32 gives a in clamp mode and uses N & 31 in wrap mode.
constexpr uint32_t szext32(uint32_t a, uint32_t b, bool isSigned, bool clamp) {
  const uint32_t n = b & 31u;
  if (clamp && b >= 32)
    return a;
  if (n == 0)
    return 0;
  const uint32_t keep = (1u << n) - 1; // n in 1..31
  const bool sign = isSigned && ((a >> (n - 1)) & 1u) != 0;
  return (a & keep) | (sign ? ~keep : 0u);
}

/// PTX bmsk.{clamp,wrap}.b32 d, a, b: a mask of b ones starting at bit a. In clamp mode a >= 32
/// gives 0 and b >= 32 reaches bit 31; in wrap mode both are taken mod 32. Width 0 gives 0.
constexpr uint32_t bmsk32(uint32_t a, uint32_t b, bool clamp) {
  if (clamp && a >= 32)
    return 0;
  const uint32_t pos = a & 31u;
  const uint32_t width = (clamp && b >= 32) ? 32u : (b & 31u);
  if (width == 0)
    return 0;
  const uint32_t end = pos + width; // first bit above the mask
  const uint32_t upper = end >= 32 ? 0u : (0xffffffffu << end);
  return (0xffffffffu << pos) & ~upper;
}

/// PTX prmt.b32{.mode} d, a, b, c: bytes of b:a (b high, bytes 7..4) selected by c. IDX uses four
/// 4-bit selectors (bit 3 of a selector replicates the byte's sign); the other modes use c[1:0].
constexpr uint32_t prmt32(uint32_t a, uint32_t b, uint32_t c, PrmtMode mode) {
  const uint64_t src = (static_cast<uint64_t>(b) << 32) | a;
  const uint32_t ctl = c & 3u;
  uint32_t d = 0;
  for (uint32_t k = 0; k < 4; ++k) {
    uint32_t sel = 0;
    bool signRep = false;
    switch (mode) {
    case PrmtMode::IDX:
      sel = (c >> (4 * k)) & 7u;
      signRep = ((c >> (4 * k + 3)) & 1u) != 0;
      break;
    case PrmtMode::F4E:
      sel = (ctl + k) & 7u;
      break;
    case PrmtMode::B4E:
      sel = (ctl - k) & 7u;
      break;
    case PrmtMode::RC8:
      sel = ctl;
      break;
    case PrmtMode::ECL:
      sel = k > ctl ? k : ctl;
      break;
    case PrmtMode::ECR:
      sel = k < ctl ? k : ctl;
      break;
    case PrmtMode::RC16:
      sel = ((ctl & 1u) << 1) | (k & 1u);
      break;
    }
    uint32_t byte = static_cast<uint32_t>(src >> (8 * sel)) & 0xffu;
    if (signRep)
      byte = (byte & 0x80u) != 0 ? 0xffu : 0u;
    d |= byte << (8 * k);
  }
  return d;
}

} // namespace wf::hls

#endif // WARPFORGE_HLS_INTOPS_H

//===- tests/hls/intops_test.cpp - Integer and bit operations -------------===//
//
// Part of Warpforge. Each operation of intops.h is compared with a deliberately different,
// straightforward reference written here (bit-by-bit loops following the PTX pseudo-code, 128-bit
// arithmetic, schoolbook multiplication).
//
//===----------------------------------------------------------------------===//

#include "test_util.h"

namespace wf::hls::test {
namespace {

/// Operands biased toward edge values.
uint32_t edge32(Rng &r) {
  static const uint32_t kEdges[] = {0,           1,           2,           0x7fffffffu, 0x80000000u,
                                    0x80000001u, 0xffffffffu, 0xfffffffeu, 0x0000ffffu, 0x00010000u,
                                    0x7f,        0x80,        0xff,        31,          32,
                                    33,          63,          64,          255,         256};
  switch (r.below(4)) {
  case 0:
    return kEdges[r.below(sizeof(kEdges) / sizeof(kEdges[0]))];
  case 1:
    return static_cast<uint32_t>(r.below(300));
  default:
    return r.next32();
  }
}

uint64_t edge64(Rng &r) {
  switch (r.below(4)) {
  case 0: {
    static const uint64_t kEdges[] = {0,
                                      1,
                                      ~0ull,
                                      1ull << 63,
                                      (1ull << 63) - 1,
                                      (1ull << 63) + 1,
                                      0xffffffffull,
                                      0x100000000ull,
                                      63,
                                      64,
                                      65,
                                      127,
                                      128,
                                      255};
    return kEdges[r.below(sizeof(kEdges) / sizeof(kEdges[0]))];
  }
  case 1:
    return r.below(300);
  case 2:
    return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(r.next32())));
  default:
    return r.next();
  }
}

TEST(IntOps, AddSubCarry) {
  Mismatches mm("addc/subc");
  Rng r(1);
  for (uint64_t i = 0; i < iterations(); ++i) {
    const uint32_t a = edge32(r);
    const uint32_t b = edge32(r);
    const bool cin = (r.next() & 1) != 0;
    const uint32_t sum = a + b + (cin ? 1 : 0);
    const bool carry = sum < a || (sum == a && (b != 0 || cin));
    const CarryResult32 s = addc32(a, b, cin);
    if (s.value != sum || s.carry != carry)
      mm.report("addc32 %08x %08x %d", a, b, cin);
    const uint32_t diff = a - b - (cin ? 1 : 0);
    const bool borrow = static_cast<uint64_t>(b) + (cin ? 1 : 0) > a;
    const CarryResult32 d = subc32(a, b, cin);
    if (d.value != diff || d.carry != borrow)
      mm.report("subc32 %08x %08x %d", a, b, cin);
    const uint64_t a64 = edge64(r);
    const uint64_t b64 = edge64(r);
    uint64_t s64;
    bool c1 = __builtin_add_overflow(a64, b64, &s64);
    const bool c2 = __builtin_add_overflow(s64, cin ? 1ull : 0ull, &s64);
    const CarryResult64 s6 = addc64(a64, b64, cin);
    if (s6.value != s64 || s6.carry != (c1 || c2))
      mm.report("addc64");
    uint64_t d64;
    c1 = __builtin_sub_overflow(a64, b64, &d64);
    const bool c3 = __builtin_sub_overflow(d64, cin ? 1ull : 0ull, &d64);
    const CarryResult64 d6 = subc64(a64, b64, cin);
    if (d6.value != d64 || d6.carry != (c1 || c3))
      mm.report("subc64");
    int32_t sat;
    if (__builtin_add_overflow(static_cast<int32_t>(a), static_cast<int32_t>(b), &sat))
      sat = static_cast<int32_t>(a) < 0 ? INT32_MIN : INT32_MAX;
    if (addSatS32(a, b) != static_cast<uint32_t>(sat))
      mm.report("add.sat %08x %08x", a, b);
    if (__builtin_sub_overflow(static_cast<int32_t>(a), static_cast<int32_t>(b), &sat))
      sat = static_cast<int32_t>(a) < 0 ? INT32_MIN : INT32_MAX;
    if (subSatS32(a, b) != static_cast<uint32_t>(sat))
      mm.report("sub.sat %08x %08x", a, b);
  }
}

/// Schoolbook 64x64 -> 128-bit unsigned product from 32-bit halves.
void mulSchool(uint64_t a, uint64_t b, uint64_t &hi, uint64_t &lo) {
  const uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
  const uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  const uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
  lo = (p00 & 0xffffffffu) | (mid << 32);
  hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

TEST(IntOps, Multiply) {
  Mismatches mm("mul");
  Rng r(2);
  for (uint64_t i = 0; i < iterations(); ++i) {
    const uint32_t a = edge32(r);
    const uint32_t b = edge32(r);
    const int64_t sp = static_cast<int64_t>(static_cast<int32_t>(a)) * static_cast<int32_t>(b);
    const uint64_t up = static_cast<uint64_t>(a) * b;
    if (mulLo32(a, b) != static_cast<uint32_t>(up) ||
        mulHi32(a, b, false) != static_cast<uint32_t>(up >> 32) ||
        mulHi32(a, b, true) != static_cast<uint32_t>(static_cast<uint64_t>(sp) >> 32) ||
        mulWide32(a, b, false) != up || mulWide32(a, b, true) != static_cast<uint64_t>(sp))
      mm.report("mul32 %08x %08x", a, b);
    // mul24: the low 24 bits, sign-extended for the signed form.
    const int64_t sa = static_cast<int64_t>(a & 0xffffffu) - ((a & 0x800000u) != 0 ? 0x1000000 : 0);
    const int64_t sb = static_cast<int64_t>(b & 0xffffffu) - ((b & 0x800000u) != 0 ? 0x1000000 : 0);
    const uint64_t p24s = static_cast<uint64_t>(sa * sb);
    const uint64_t p24u = static_cast<uint64_t>(a & 0xffffffu) * (b & 0xffffffu);
    if (mul24Lo(a, b, true) != static_cast<uint32_t>(p24s) ||
        mul24Lo(a, b, false) != static_cast<uint32_t>(p24u) ||
        mul24Hi(a, b, true) != static_cast<uint32_t>(p24s >> 16) ||
        mul24Hi(a, b, false) != static_cast<uint32_t>(p24u >> 16))
      mm.report("mul24 %08x %08x", a, b);
    const uint64_t a64 = edge64(r);
    const uint64_t b64 = edge64(r);
    uint64_t hi;
    uint64_t lo;
    mulSchool(a64, b64, hi, lo);
    // Signed high part: subtract b when a < 0 and a when b < 0 (two's complement correction).
    uint64_t shi = hi;
    if (static_cast<int64_t>(a64) < 0)
      shi -= b64;
    if (static_cast<int64_t>(b64) < 0)
      shi -= a64;
    if (mulLo64(a64, b64) != lo || mulHi64(a64, b64, false) != hi || mulHi64(a64, b64, true) != shi)
      mm.report("mul64 %016llx %016llx", static_cast<unsigned long long>(a64),
                static_cast<unsigned long long>(b64));
  }
}

TEST(IntOps, MinMaxAbsSadDot) {
  Mismatches mm("minmax/abs/sad/dp");
  Rng r(3);
  for (uint64_t i = 0; i < iterations(); ++i) {
    const uint32_t a = edge32(r);
    const uint32_t b = edge32(r);
    const uint32_t c = edge32(r);
    const int32_t sa = static_cast<int32_t>(a);
    const int32_t sb = static_cast<int32_t>(b);
    if (imin32(a, b, false) != std::min(a, b) || imax32(a, b, false) != std::max(a, b) ||
        imin32(a, b, true) != static_cast<uint32_t>(std::min(sa, sb)) ||
        imax32(a, b, true) != static_cast<uint32_t>(std::max(sa, sb)))
      mm.report("minmax32 %08x %08x", a, b);
    const uint32_t absRef = sa == INT32_MIN ? a : static_cast<uint32_t>(sa < 0 ? -sa : sa);
    if (iabs32(a) != absRef)
      mm.report("abs32 %08x", a);
    const int64_t sd = static_cast<int64_t>(sa) - sb;
    const uint32_t sadS = c + static_cast<uint32_t>(sd < 0 ? -sd : sd);
    const uint32_t sadU = c + static_cast<uint32_t>(a > b ? a - b : b - a);
    if (sad32(a, b, c, true) != sadS || sad32(a, b, c, false) != sadU)
      mm.report("sad32 %08x %08x %08x", a, b, c);
    const uint64_t a64 = edge64(r);
    const uint64_t b64 = edge64(r);
    const int64_t s64a = static_cast<int64_t>(a64);
    const int64_t s64b = static_cast<int64_t>(b64);
    if (imin64(a64, b64, false) != std::min(a64, b64) ||
        imax64(a64, b64, true) != static_cast<uint64_t>(std::max(s64a, s64b)) ||
        imin64(a64, b64, true) != static_cast<uint64_t>(std::min(s64a, s64b)) ||
        imax64(a64, b64, false) != std::max(a64, b64))
      mm.report("minmax64");
    const uint64_t abs64Ref =
        s64a == INT64_MIN ? a64 : static_cast<uint64_t>(s64a < 0 ? -s64a : s64a);
    if (iabs64(a64) != abs64Ref)
      mm.report("abs64");
    const S128 d128 = static_cast<S128>(s64a) - s64b;
    const uint64_t sad64Ref = c + static_cast<uint64_t>(d128 < 0 ? -d128 : d128);
    if (sad64(a64, b64, c, true) != sad64Ref)
      mm.report("sad64");
    // dp4a / dp2a
    for (int m = 0; m < 4; ++m) {
      const bool as = (m & 1) != 0;
      const bool bs = (m & 2) != 0;
      int64_t acc4 = static_cast<int32_t>(c);
      for (int k = 0; k < 4; ++k) {
        const int64_t x =
            as ? static_cast<int8_t>(a >> (8 * k)) : static_cast<uint8_t>(a >> (8 * k));
        const int64_t y =
            bs ? static_cast<int8_t>(b >> (8 * k)) : static_cast<uint8_t>(b >> (8 * k));
        acc4 += x * y;
      }
      if (dp4a(a, b, c, as, bs) != static_cast<uint32_t>(acc4))
        mm.report("dp4a %08x %08x %08x mode %d", a, b, c, m);
      for (bool hi : {false, true}) {
        int64_t acc2 = static_cast<int32_t>(c);
        for (int k = 0; k < 2; ++k) {
          const int64_t x =
              as ? static_cast<int16_t>(a >> (16 * k)) : static_cast<uint16_t>(a >> (16 * k));
          const int sh = 8 * (k + (hi ? 2 : 0));
          const int64_t y = bs ? static_cast<int8_t>(b >> sh) : static_cast<uint8_t>(b >> sh);
          acc2 += x * y;
        }
        if (dp2a(a, b, c, as, bs, hi) != static_cast<uint32_t>(acc2))
          mm.report("dp2a %08x %08x %08x mode %d hi %d", a, b, c, m, hi);
      }
    }
  }
}

TEST(IntOps, DivRem) {
  Mismatches mm("div/rem");
  Rng r(4);
  for (uint64_t i = 0; i < iterations(); ++i) {
    const uint32_t a = edge32(r);
    uint32_t b = edge32(r);
    if ((i & 7) == 0)
      b = 0;
    if ((i & 15) == 1)
      b = 0xffffffffu;
    // Reference: 128-bit division, then the documented rules for b = 0.
    uint32_t qu, ru, qs, rs;
    if (b == 0) {
      qu = qs = 0xffffffffu;
      ru = rs = a;
    } else {
      qu = static_cast<uint32_t>(static_cast<S128>(a) / b);
      ru = static_cast<uint32_t>(static_cast<S128>(a) % b);
      qs = static_cast<uint32_t>(static_cast<S128>(static_cast<int32_t>(a)) /
                                 static_cast<int32_t>(b));
      rs = static_cast<uint32_t>(static_cast<S128>(static_cast<int32_t>(a)) %
                                 static_cast<int32_t>(b));
    }
    if (idiv32(a, b, false) != qu || irem32(a, b, false) != ru || idiv32(a, b, true) != qs ||
        irem32(a, b, true) != rs)
      mm.report("div32 %08x / %08x", a, b);
    const uint64_t a64 = edge64(r);
    uint64_t b64 = (i & 7) == 0 ? 0 : edge64(r);
    if ((i & 15) == 1)
      b64 = ~0ull;
    uint64_t qu64, ru64, qs64, rs64;
    if (b64 == 0) {
      qu64 = qs64 = ~0ull;
      ru64 = rs64 = a64;
    } else {
      qu64 = static_cast<uint64_t>(static_cast<S128>(a64) / static_cast<S128>(b64));
      ru64 = static_cast<uint64_t>(static_cast<S128>(a64) % static_cast<S128>(b64));
      qs64 = static_cast<uint64_t>(static_cast<S128>(static_cast<int64_t>(a64)) /
                                   static_cast<int64_t>(b64));
      rs64 = static_cast<uint64_t>(static_cast<S128>(static_cast<int64_t>(a64)) %
                                   static_cast<int64_t>(b64));
    }
    if (idiv64(a64, b64, false) != qu64 || irem64(a64, b64, false) != ru64 ||
        idiv64(a64, b64, true) != qs64 || irem64(a64, b64, true) != rs64)
      mm.report("div64 %016llx / %016llx", static_cast<unsigned long long>(a64),
                static_cast<unsigned long long>(b64));
    // Width-generic forms: the low bits of the operands, the result zero-extended.
    const uint64_t hiJunk = r.next() << 32;
    if (idiv(a | hiJunk, b | hiJunk, true, 32) != qs || irem(a | hiJunk, b, false, 32) != ru ||
        idiv(a64, b64, false, 64) != qu64 || irem(a64, b64, true, 64) != rs64)
      mm.report("idiv/irem generic %08x %08x", a, b);
  }
  EXPECT_EQ(idiv32(0x80000000u, 0xffffffffu, true), 0x80000000u);
  EXPECT_EQ(irem32(0x80000000u, 0xffffffffu, true), 0u);
  EXPECT_EQ(idiv32(5, 0, true), 0xffffffffu);
  EXPECT_EQ(irem32(0xfffffff9u, 0, true), 0xfffffff9u);
  EXPECT_EQ(irem32(0xfffffff9u, 2, true), 0xffffffffu); // -7 % 2 = -1
  EXPECT_EQ(idiv32(0xfffffff9u, 2, true), 0xfffffffdu); // -7 / 2 = -3
}

TEST(IntOps, Compare) {
  Mismatches mm("setp int");
  Rng r(5);
  for (uint64_t i = 0; i < iterations(); ++i) {
    const uint32_t a = edge32(r);
    const uint32_t b = (i & 3) == 0 ? a : edge32(r);
    const int32_t x = static_cast<int32_t>(a);
    const int32_t y = static_cast<int32_t>(b);
    const bool su[6] = {a == b, a != b, a<b, a <= b, a> b, a >= b};
    const bool ss[6] = {x == y, x != y, x<y, x <= y, x> y, x >= y};
    const uint64_t a64 = edge64(r);
    const uint64_t b64 = (i & 3) == 0 ? a64 : edge64(r);
    const int64_t x64 = static_cast<int64_t>(a64);
    const int64_t y64 = static_cast<int64_t>(b64);
    const bool su64[6] = {a64 == b64, a64 != b64, a64<b64, a64 <= b64, a64> b64, a64 >= b64};
    const bool ss64[6] = {x64 == y64, x64 != y64, x64<y64, x64 <= y64, x64> y64, x64 >= y64};
    for (int c = 0; c < 6; ++c) {
      const ICmp op = static_cast<ICmp>(c);
      if (icmp32(a, b, op, false) != su[c] || icmp32(a, b, op, true) != ss[c] ||
          icmp64(a64, b64, op, false) != su64[c] || icmp64(a64, b64, op, true) != ss64[c])
        mm.report("cmp%d %08x %08x", c, a, b);
    }
  }
}

template <class T> T shiftLoopLeft(T a, uint32_t n) {
  for (uint32_t k = 0; k < n && k < 80; ++k)
    a = static_cast<T>(a << 1);
  return a;
}
template <class T> T shiftLoopRight(T a, uint32_t n, bool sign) {
  constexpr int kBits = sizeof(T) * 8;
  const T msb = static_cast<T>(static_cast<T>(1) << (kBits - 1));
  for (uint32_t k = 0; k < n && k < 80; ++k) {
    const bool fill = sign && (a & msb) != 0;
    a = static_cast<T>(a >> 1);
    if (fill)
      a = static_cast<T>(a | msb);
  }
  return a;
}

TEST(IntOps, Shifts) {
  Mismatches mm("shifts");
  Rng r(6);
  for (uint64_t i = 0; i < iterations(); ++i) {
    const uint32_t a = edge32(r);
    const uint64_t a64 = edge64(r);
    const uint16_t a16 = static_cast<uint16_t>(edge32(r));
    const uint32_t n = (i & 3) == 0 ? r.next32() : static_cast<uint32_t>(r.below(70));
    if (shl32(a, n) != shiftLoopLeft(a, n) || shr32(a, n, false) != shiftLoopRight(a, n, false) ||
        shr32(a, n, true) != shiftLoopRight(a, n, true))
      mm.report("shift32 %08x by %u", a, n);
    if (shl64(a64, n) != shiftLoopLeft(a64, n) ||
        shr64(a64, n, false) != shiftLoopRight(a64, n, false) ||
        shr64(a64, n, true) != shiftLoopRight(a64, n, true))
      mm.report("shift64 by %u", n);
    if (shl16(a16, n) != shiftLoopLeft(a16, n) ||
        shr16(a16, n, false) != shiftLoopRight(a16, n, false) ||
        shr16(a16, n, true) != shiftLoopRight(a16, n, true))
      mm.report("shift16 %04x by %u", a16, n);
    // shf per the PTX pseudo-code, written with 32-bit operations only.
    const uint32_t b = edge32(r);
    for (bool clamp : {false, true}) {
      const uint32_t s = clamp ? std::min<uint32_t>(n, 32) : (n & 31);
      const uint32_t left = s == 0 ? b : (s == 32 ? a : (b << s) | (a >> (32 - s)));
      const uint32_t right = s == 0 ? a : (s == 32 ? b : (b << (32 - s)) | (a >> s));
      // Flags as in the ISA: right = dir R, wrap = mode WRAP.
      if (shf32(a, b, n, false, !clamp) != left || shf32(a, b, n, true, !clamp) != right)
        mm.report("shf a=%08x b=%08x n=%u clamp=%d", a, b, n, clamp);
    }
  }
}

TEST(IntOps, Lop3) {
  Mismatches mm("lop3");
  Rng r(7);
  for (uint32_t lut = 0; lut < 256; ++lut)
    for (int i = 0; i < 200; ++i) {
      const uint32_t a = r.next32();
      const uint32_t b = r.next32();
      const uint32_t c = r.next32();
      uint32_t ref = 0;
      for (int k = 0; k < 32; ++k) {
        const uint32_t idx = (((a >> k) & 1) << 2) | (((b >> k) & 1) << 1) | ((c >> k) & 1);
        ref |= ((lut >> idx) & 1u) << k;
      }
      if (lop3(a, b, c, static_cast<uint8_t>(lut)) != ref)
        mm.report("lut=%02x", lut);
    }
  const uint32_t a = 0x12345678u, b = 0x9abcdef0u, c = 0x0f0f00ffu;
  EXPECT_EQ(lop3(a, b, c, 0xF0), a);
  EXPECT_EQ(lop3(a, b, c, 0xCC), b);
  EXPECT_EQ(lop3(a, b, c, 0xAA), c);
  EXPECT_EQ(lop3(a, b, c, 0xF0 & 0xCC & 0xAA), a & b & c);
  EXPECT_EQ(lop3(a, b, c, 0xF0 ^ 0xCC ^ 0xAA), a ^ b ^ c);
  EXPECT_EQ(lop3(a, b, c, (0xF0 | 0xCC) & static_cast<uint8_t>(~0xAA)), (a | b) & ~c);
}

TEST(IntOps, BitCounts) {
  Mismatches mm("popc/clz/brev/bfind");
  Rng r(8);
  for (uint64_t i = 0; i < iterations(); ++i) {
    const uint32_t a = edge32(r);
    const uint64_t a64 = edge64(r);
    uint32_t pop = 0, lz = 0, rev = 0;
    bool seen = false;
    for (int k = 31; k >= 0; --k) {
      const uint32_t bit = (a >> k) & 1;
      pop += bit;
      seen = seen || bit != 0;
      lz += seen ? 0 : 1;
      rev |= bit << (31 - k);
    }
    if (popc32(a) != pop || clz32(a) != lz || brev32(a) != rev)
      mm.report("bits32 %08x", a);
    uint32_t pop64 = 0, lz64 = 0;
    uint64_t rev64 = 0;
    seen = false;
    for (int k = 63; k >= 0; --k) {
      const uint64_t bit = (a64 >> k) & 1;
      pop64 += static_cast<uint32_t>(bit);
      seen = seen || bit != 0;
      lz64 += seen ? 0 : 1;
      rev64 |= bit << (63 - k);
    }
    if (popc64(a64) != pop64 || clz64(a64) != lz64 || brev64(a64) != rev64)
      mm.report("bits64");
    // bfind per the PTX pseudo-code.
    for (int m = 0; m < 4; ++m) {
      const bool isSigned = (m & 1) != 0;
      const bool shiftAmt = (m & 2) != 0;
      uint32_t v = a;
      if (isSigned && (v & 0x80000000u) != 0)
        v = ~v;
      uint32_t d = 0xffffffffu;
      for (int k = 31; k >= 0; --k)
        if ((v >> k) & 1) {
          d = static_cast<uint32_t>(k);
          break;
        }
      if (shiftAmt && d != 0xffffffffu)
        d = 31 - d;
      if (bfind32(a, isSigned, shiftAmt) != d)
        mm.report("bfind32 %08x mode %d", a, m);
      uint64_t v64 = a64;
      if (isSigned && (v64 >> 63) != 0)
        v64 = ~v64;
      uint32_t d64 = 0xffffffffu;
      for (int k = 63; k >= 0; --k)
        if ((v64 >> k) & 1) {
          d64 = static_cast<uint32_t>(k);
          break;
        }
      if (shiftAmt && d64 != 0xffffffffu)
        d64 = 63 - d64;
      if (bfind64(a64, isSigned, shiftAmt) != d64)
        mm.report("bfind64 mode %d", m);
    }
  }
}

/// bfe per the PTX pseudo-code (one bit at a time).
template <class T> T refBfe(T a, uint32_t b, uint32_t c, bool isSigned) {
  constexpr uint32_t msb = sizeof(T) * 8 - 1;
  const uint32_t pos = b & 0xff;
  const uint32_t len = c & 0xff;
  T sbit = 0;
  if (isSigned && len != 0)
    sbit = (a >> std::min(pos + len - 1, msb)) & 1;
  T d = 0;
  for (uint32_t i = 0; i <= msb; ++i) {
    const T bit = (i < len && pos + i <= msb) ? ((a >> (pos + i)) & 1) : sbit;
    d |= bit << i;
  }
  return d;
}

/// bfi per the PTX pseudo-code.
template <class T> T refBfi(T a, T b, uint32_t c, uint32_t dd) {
  constexpr uint32_t msb = sizeof(T) * 8 - 1;
  const uint32_t pos = c & 0xff;
  const uint32_t len = dd & 0xff;
  T f = b;
  for (uint32_t i = 0; i < len && pos + i <= msb; ++i) {
    const T bit = (a >> i) & 1;
    f = static_cast<T>((f & ~(static_cast<T>(1) << (pos + i))) | (bit << (pos + i)));
  }
  return f;
}

TEST(IntOps, BitFields) {
  Mismatches mm("bfe/bfi");
  Rng r(9);
  for (uint64_t i = 0; i < iterations(); ++i) {
    const uint32_t a = edge32(r);
    const uint32_t b = edge32(r);
    const uint64_t a64 = edge64(r);
    const uint64_t b64 = edge64(r);
    // Positions and lengths across the whole 0..255 range (and beyond, masked).
    uint32_t pos = static_cast<uint32_t>(r.below(4) == 0 ? r.next32() : r.below(80));
    uint32_t len = static_cast<uint32_t>(r.below(4) == 0 ? r.next32() : r.below(80));
    if ((i & 7) == 0)
      len = 0;
    for (bool s : {false, true}) {
      if (bfe32(a, pos, len, s) != refBfe<uint32_t>(a, pos, len, s))
        mm.report("bfe32 a=%08x pos=%u len=%u s=%d", a, pos, len, s);
      if (bfe64(a64, pos, len, s) != refBfe<uint64_t>(a64, pos, len, s))
        mm.report("bfe64 pos=%u len=%u s=%d", pos, len, s);
    }
    if (bfi32(a, b, pos, len) != refBfi<uint32_t>(a, b, pos, len))
      mm.report("bfi32 a=%08x b=%08x pos=%u len=%u", a, b, pos, len);
    if (bfi64(a64, b64, pos, len) != refBfi<uint64_t>(a64, b64, pos, len))
      mm.report("bfi64 pos=%u len=%u", pos, len);
  }
  EXPECT_EQ(bfe32(0x000000f0u, 4, 4, true), 0xffffffffu);
  EXPECT_EQ(bfe32(0x000000f0u, 4, 4, false), 0x0000000fu);
  EXPECT_EQ(bfe32(0x80000000u, 40, 8, true), 0xffffffffu); // beyond msb: sign fill
  EXPECT_EQ(bfe32(0x80000000u, 40, 8, false), 0u);
  EXPECT_EQ(bfi32(0xffu, 0u, 28, 8), 0xf0000000u);
}

TEST(IntOps, SzextBmsk) {
  // References transcribed from the PTX pseudo-code (mask arithmetic on 32-bit values).
  Mismatches mm("szext/bmsk");
  Rng r(11);
  for (uint64_t i = 0; i < iterations(); ++i) {
    const uint32_t a = edge32(r);
    const uint32_t b = (i & 1) != 0 ? static_cast<uint32_t>(r.below(70)) : edge32(r);
    for (bool clamp : {false, true}) {
      const uint32_t b1 = b & 0x1f;
      const bool tooLarge = b >= 32 && clamp;
      const uint32_t mask = tooLarge ? 0 : (~0u << b1);
      const uint32_t signPos = (b1 - 1) & 0x1f;
      for (bool s : {false, true}) {
        const bool signBit = !(b1 == 0 || tooLarge || !s) && ((a >> signPos) & 1) != 0;
        uint32_t want = (a & ~mask) | (signBit ? mask : 0);
        if (b1 == 0 && !tooLarge)
          want = 0;
        if (szext32(a, b, s, clamp) != want)
          mm.report("szext a=%08x b=%u s=%d clamp=%d", a, b, s, clamp);
      }
      const uint32_t pa = static_cast<uint32_t>(r.below(4) == 0 ? r.next32() : r.below(40));
      const uint32_t a1 = pa & 0x1f;
      uint32_t mask0 = ~0u << a1;
      const uint32_t sum = a1 + b1;
      uint32_t mask1 = sum >= 32 ? 0u : (~0u << sum);
      bool overflow = sum >= 32;
      if (clamp) {
        if (pa >= 32) {
          overflow = true;
          mask0 = 0;
        }
        if (b >= 32)
          overflow = true;
      }
      if (overflow)
        mask1 = 0;
      else if (b1 == 0)
        mask1 = ~0u;
      if (bmsk32(pa, b, clamp) != (mask0 & ~mask1))
        mm.report("bmsk a=%u b=%u clamp=%d", pa, b, clamp);
    }
  }
  EXPECT_EQ(bmsk32(1, 2, false), 0x00000006u);
  EXPECT_EQ(szext32(0xffffffffu, 0, false, false), 0u);
  EXPECT_EQ(szext32(0x000000f0u, 8, true, true), 0xfffffff0u);
}

TEST(IntOps, Prmt) {
  // Byte selectors of the specialised modes from the PTX table: nibble k = source byte of output
  // byte k, for c[1:0] = 0..3.
  static const uint16_t kModeSel[6][4] = {
      {0x3210, 0x4321, 0x5432, 0x6543}, // f4e
      {0x5670, 0x6701, 0x7012, 0x0123}, // b4e
      {0x0000, 0x1111, 0x2222, 0x3333}, // rc8
      {0x3210, 0x3211, 0x3222, 0x3333}, // ecl
      {0x0000, 0x1110, 0x2210, 0x3210}, // ecr
      {0x1010, 0x3232, 0x1010, 0x3232}, // rc16
  };
  Mismatches mm("prmt");
  Rng r(10);
  for (uint64_t i = 0; i < iterations(); ++i) {
    const uint32_t a = r.next32();
    const uint32_t b = r.next32();
    const uint32_t c = r.next32();
    uint8_t src[8];
    for (int k = 0; k < 4; ++k) {
      src[k] = static_cast<uint8_t>(a >> (8 * k));
      src[k + 4] = static_cast<uint8_t>(b >> (8 * k));
    }
    uint32_t ref = 0;
    for (int k = 0; k < 4; ++k) {
      const uint32_t sel = (c >> (4 * k)) & 0xf;
      uint8_t byte = src[sel & 7];
      if (sel & 8)
        byte = (byte & 0x80) != 0 ? 0xff : 0x00;
      ref |= static_cast<uint32_t>(byte) << (8 * k);
    }
    if (prmt32(a, b, c, PrmtMode::IDX) != ref)
      mm.report("prmt a=%08x b=%08x c=%08x", a, b, c);
    for (int m = 0; m < 6; ++m) {
      const uint16_t sel = kModeSel[m][c & 3];
      uint32_t refm = 0;
      for (int k = 0; k < 4; ++k)
        refm |= static_cast<uint32_t>(src[(sel >> (4 * k)) & 7]) << (8 * k);
      if (prmt32(a, b, c, static_cast<PrmtMode>(m + 1)) != refm)
        mm.report("prmt mode %d c=%x", m + 1, c & 3);
    }
  }
  EXPECT_EQ(prmt32(0x33221100u, 0x77665544u, 0x5410, PrmtMode::IDX), 0x55441100u);
  EXPECT_EQ(prmt32(0x00000080u, 0u, 0x8888, PrmtMode::IDX), 0xffffffffu);
}

} // namespace
} // namespace wf::hls::test

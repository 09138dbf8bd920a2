//===- warpforge/hls/sfu_tables.h - Constant tables of the SFU ------------===//
//
// Part of Warpforge. The lookup tables of the special function unit, computed at compile time
// with integer arithmetic only (so they are reproducible bit for bit and can be dumped for the
// RTL). Each table has 64 segments indexed by the top six fraction bits of the argument; each
// segment holds the Taylor coefficients of the function about the segment's midpoint (or start),
// in fixed point. The few irrational constants are given as integers, computed with exact integer
// arithmetic (Machin's formula for pi, the series sum 1/(k 2^k) for ln 2).
//
//===----------------------------------------------------------------------===//

#ifndef WARPFORGE_HLS_SFU_TABLES_H
#define WARPFORGE_HLS_SFU_TABLES_H

#include "warpforge/hls/fp_common.h"

namespace wf::hls::sfu {

/// floor(pi * 2^62); also 2*pi in Q3.61.
inline constexpr uint64_t kPiQ62 = 0xc90fdaa22168c234ull;
/// floor(ln(2) * 2^64).
inline constexpr uint64_t kLn2Q64 = 0xb17217f7d1cf79abull;
/// floor(2^63 / ln(2)), i.e. log2(e) in Q1.63.
inline constexpr uint64_t kInvLn2Q63 = 0xb8aa3b295c17f0bbull;
/// floor(2^62 / ln(2)), i.e. 2 / ln(2) in Q3.61.
inline constexpr uint64_t kTwoInvLn2Q61 = 0x5c551d94ae0bf85dull;
/// floor(2^256 / (2 pi)), least significant 64-bit word first.
inline constexpr uint64_t kInv2PiQ256[4] = {0x7f9458eaf7aef158ull, 0x36d8a5664f10e410ull,
                                            0x7f09d5f47d4d3770ull, 0x28be60db9391054aull};

/// Four coefficients of one segment, signed fixed point (the scale depends on the table).
struct Seg4 {
  int64_t c[4];
};
/// Five coefficients (lg2: value at the segment start, then four Taylor coefficients).
struct Seg5 {
  int64_t c[5];
};
struct Table4 {
  Seg4 s[64];
};
struct Table5 {
  Seg5 s[64];
};
/// tanh on [2^-12, 10): binade 2^e (e = kTanhMinExp..kTanhMaxExp) is cut into 2^kTanhSegLog2[e -
/// kTanhMinExp] equal segments (more where the higher derivatives are large), kTanhSegments in
/// all, binade after binade. Each segment holds the quartic Taylor coefficients about its
/// midpoint (see makeTanhTable).
inline constexpr int kTanhMinExp = -12;
inline constexpr int kTanhMaxExp = 3;
inline constexpr int kTanhSegLog2[kTanhMaxExp - kTanhMinExp + 1] = {0, 0, 0, 0, 0, 0, 0, 1,
                                                                    1, 2, 3, 3, 4, 5, 5, 3};
/// Index of the first segment of binade 2^e.
constexpr int tanhSegBase(int e) {
  int base = 0;
  for (int b = kTanhMinExp; b < e; ++b)
    base += 1 << kTanhSegLog2[b - kTanhMinExp];
  return base;
}
inline constexpr int kTanhSegments = tanhSegBase(kTanhMaxExp + 1);
struct TanhTable {
  Seg5 s[kTanhSegments];
};
/// sin and cos at the midpoints of the 64 segments of the first quadrant, Q2.62.
struct SinCosTable {
  int64_t sinv[64];
  int64_t cosv[64];
};

namespace detail {

constexpr uint64_t mulQ62(uint64_t a, uint64_t b) {
  return static_cast<uint64_t>((static_cast<U128>(a) * b) >> 62);
}
constexpr uint64_t mulQ60(uint64_t a, uint64_t b) {
  return static_cast<uint64_t>((static_cast<U128>(a) * b) >> 60);
}
/// Rounds a nonnegative fixed-point value to `drop` fewer fraction bits (to nearest).
constexpr int64_t roundDrop(uint64_t v, int drop) {
  return static_cast<int64_t>((v + (static_cast<uint64_t>(1) << (drop - 1))) >> drop);
}

/// 1/x on [1, 2): Taylor coefficients of 1/(mid + t) = c0 - c1 t + c2 t^2 - c3 t^3 about
/// mid = 1 + (2i + 1)/128; c_k = 1/mid^(k+1), Q1.40.
constexpr Table4 makeRcpTable() {
  Table4 t{};
  for (int i = 0; i < 64; ++i) {
    const uint64_t inv = static_cast<uint64_t>((static_cast<U128>(128) << 62) / (129 + 2 * i));
    uint64_t p = inv;
    for (int k = 0; k < 4; ++k) {
      t.s[i].c[k] = roundDrop(p, 22);
      p = mulQ62(p, inv);
    }
  }
  return t;
}

/// 1/sqrt(x) on [1, 2) (odd = false) or 1/sqrt(2x) (odd = true): Taylor coefficients about
/// mid = 1 + (2i + 1)/128 of s - (1/2)s^3 t + (3/8)s^5 t^2 - (5/16)s^7 t^3, s = 1/sqrt(mid),
/// all divided by sqrt(2) for odd; Q1.40 magnitudes.
constexpr Table4 makeRsqrtTable(bool odd) {
  Table4 t{};
  const uint64_t invSqrt2 = static_cast<uint64_t>(isqrtExact(static_cast<U128>(1) << 119)); // Q.60
  for (int i = 0; i < 64; ++i) {
    const uint64_t s =
        static_cast<uint64_t>(isqrtExact((static_cast<U128>(1) << 127) / (129 + 2 * i)));
    const uint64_t s2 = mulQ60(s, s);
    const uint64_t s3 = mulQ60(s2, s);
    const uint64_t s5 = mulQ60(s3, s2);
    const uint64_t s7 = mulQ60(s5, s2);
    uint64_t c[4] = {s, s3 / 2, 3 * (s5 / 8), 5 * (s7 / 16)};
    for (int k = 0; k < 4; ++k) {
      if (odd)
        c[k] = mulQ60(c[k], invSqrt2);
      t.s[i].c[k] = roundDrop(c[k], 20);
    }
  }
  return t;
}

/// 2^x on [0, 1): Taylor coefficients about mid = (2i + 1)/128 of
/// 2^(mid + t) = M (1 + (t ln2) + (t ln2)^2/2 + (t ln2)^3/6), M = 2^mid; Q2.34.
constexpr Table4 makeEx2Table() {
  Table4 t{};
  uint64_t v = static_cast<uint64_t>(1) << 63; // 2.0 in Q2.62
  for (int k = 0; k < 7; ++k)
    v = static_cast<uint64_t>(isqrtExact(static_cast<U128>(v) << 62)); // 2^(1/128) at the end
  const uint64_t step = mulQ62(v, v);                                  // 2^(1/64)
  const uint64_t ln2 = kLn2Q64 >> 2;                                   // Q.62
  uint64_t m = v;
  for (int i = 0; i < 64; ++i) {
    const uint64_t c1 = mulQ62(m, ln2);
    const uint64_t c2 = mulQ62(c1, ln2) / 2;
    const uint64_t c3 = mulQ62(c2, ln2) / 3;
    t.s[i].c[0] = roundDrop(m, 28);
    t.s[i].c[1] = roundDrop(c1, 28);
    t.s[i].c[2] = roundDrop(c2, 28);
    t.s[i].c[3] = roundDrop(c3, 28);
    m = mulQ62(m, step);
  }
  return t;
}

/// log2 of a Q2.62 value in [1, 2), Q.62, by repeated squaring (one result bit per step).
constexpr uint64_t log2Q62(uint64_t y) {
  uint64_t r = 0;
  for (int b = 61; b >= 0; --b) {
    y = mulQ62(y, y);
    if ((y >> 63) != 0) {
      r |= static_cast<uint64_t>(1) << b;
      y >>= 1;
    }
  }
  return r;
}

/// log2(x) on [1, 2): per segment a = 1 + i/64, c0 = log2(a) and the coefficients of
/// log2(1 + d/a) = d (k1 + d (k2 + d (k3 + d k4))), k_j = (-1)^(j+1) / (j ln2 a^j); Q1.40.
constexpr Table5 makeLg2Table() {
  Table5 t{};
  const uint64_t invLn2 = kInvLn2Q63 >> 1; // Q.62
  for (int i = 0; i < 64; ++i) {
    const uint64_t a = static_cast<uint64_t>(64 + i) << 56; // Q.62
    const uint64_t invA = static_cast<uint64_t>((static_cast<U128>(64) << 62) / (64 + i));
    const uint64_t p1 = mulQ62(invA, invLn2);
    const uint64_t p2 = mulQ62(p1, invA);
    const uint64_t p3 = mulQ62(p2, invA);
    const uint64_t p4 = mulQ62(p3, invA);
    t.s[i].c[0] = roundDrop(log2Q62(a), 22);
    t.s[i].c[1] = roundDrop(p1, 22);
    t.s[i].c[2] = -roundDrop(p2 / 2, 22);
    t.s[i].c[3] = roundDrop(p3 / 3, 22);
    t.s[i].c[4] = -roundDrop(p4 / 4, 22);
  }
  return t;
}

/// sin and cos of phi (Q2.62, 0 <= phi < 2) by their Taylor series.
constexpr int64_t sinQ62(uint64_t phi) {
  const uint64_t phi2 = mulQ62(phi, phi);
  uint64_t term = phi;
  int64_t sum = static_cast<int64_t>(phi);
  for (int k = 1; k < 16; ++k) {
    term = mulQ62(term, phi2) / static_cast<uint64_t>((2 * k) * (2 * k + 1));
    sum += (k & 1) != 0 ? -static_cast<int64_t>(term) : static_cast<int64_t>(term);
  }
  return sum;
}
constexpr int64_t cosQ62(uint64_t phi) {
  const uint64_t phi2 = mulQ62(phi, phi);
  uint64_t term = static_cast<uint64_t>(1) << 62;
  int64_t sum = static_cast<int64_t>(term);
  for (int k = 1; k < 16; ++k) {
    term = mulQ62(term, phi2) / static_cast<uint64_t>((2 * k - 1) * (2 * k));
    sum += (k & 1) != 0 ? -static_cast<int64_t>(term) : static_cast<int64_t>(term);
  }
  return sum;
}

/// sin/cos at phi_j = 2 pi (j + 1/2) / 256, the midpoints of the first-quadrant segments.
constexpr SinCosTable makeSinCosTable() {
  SinCosTable t{};
  for (int j = 0; j < 64; ++j) {
    const uint64_t phi = static_cast<uint64_t>((static_cast<U128>(kPiQ62) * (2 * j + 1)) >> 8);
    t.sinv[j] = sinQ62(phi);
    t.cosv[j] = cosQ62(phi);
  }
  return t;
}

/// tanh(a * 2^p) in Q.62 for a * 2^p < 16: the odd series on the argument halved k times (to
/// below 2^-6, where the first omitted term is under 2^-68), then k doublings
/// tanh(2x) = 2 tanh(x) / (1 + tanh(x)^2).
constexpr uint64_t tanhQ62(uint64_t a, int p) {
  int k = 0;
  while (static_cast<int>(std::bit_width(a)) + p - k > -6)
    ++k; // until a * 2^(p - k) < 2^-6
  const uint64_t x = a << (62 + p - k);
  const uint64_t x2 = mulQ62(x, x);
  const uint64_t x3 = mulQ62(x2, x);
  const uint64_t x5 = mulQ62(x3, x2);
  const uint64_t x7 = mulQ62(x5, x2);
  const uint64_t x9 = mulQ62(x7, x2);
  uint64_t t = x - x3 / 3 + 2 * x5 / 15 - 17 * x7 / 315 + 62 * x9 / 2835;
  for (int i = 0; i < k; ++i)
    t = static_cast<uint64_t>((static_cast<U128>(t) << 63) /
                              ((static_cast<uint64_t>(1) << 62) + mulQ62(t, t)));
  return t;
}

/// Signed Q.62 product.
constexpr int64_t mulQ62s(int64_t a, int64_t b) {
  return static_cast<int64_t>((static_cast<S128>(a) * b) >> 62);
}

/// Rounds a signed fixed-point value to `drop` fewer fraction bits (to nearest, ties up).
constexpr int64_t roundDropSigned(int64_t v, int drop) {
  return static_cast<int64_t>((static_cast<S128>(v) + (static_cast<S128>(1) << (drop - 1))) >>
                              drop);
}

/// tanh on [2^-12, 10): with a the midpoint of a segment of binade 2^e, T = tanh(a) and
/// S = 1 - T^2, the Taylor coefficients of tanh(a + h) are T, S, -T S, -S (1 - 3T^2) / 3 and
/// T S (2 - 3T^2) / 3. The table holds them for h = 2^e u and divided by 2^e,
/// C_k = c_k 2^((k - 1) e) in Q.40, so that tanh(a + 2^e u) = 2^e (C0 + u (C1 + u (C2 +
/// u (C3 + u C4)))) keeps the same relative precision in every binade.
constexpr TanhTable makeTanhTable() {
  TanhTable t{};
  constexpr int64_t kOne = static_cast<int64_t>(1) << 62;
  for (int e = kTanhMinExp; e <= kTanhMaxExp; ++e) {
    const int sb = kTanhSegLog2[e - kTanhMinExp];
    for (int j = 0; j < (1 << sb); ++j) {
      // a = 2^e (1 + (j + 1/2) / 2^sb) = (2^(sb+1) + 2j + 1) * 2^(e - sb - 1)
      const int64_t tv = static_cast<int64_t>(
          tanhQ62((static_cast<uint64_t>(2) << sb) + 2 * static_cast<uint64_t>(j) + 1, e - sb - 1));
      const int64_t t2 = mulQ62s(tv, tv);
      const int64_t sv = kOne - t2;
      const int64_t ts = mulQ62s(tv, sv);
      const S128 oneMinus3T2 = static_cast<S128>(kOne) - 3 * static_cast<S128>(t2);
      const S128 twoMinus3T2 = oneMinus3T2 + kOne;
      const int64_t c[5] = {tv, sv, -ts, static_cast<int64_t>(-((sv * oneMinus3T2) >> 62) / 3),
                            static_cast<int64_t>(((ts * twoMinus3T2) >> 62) / 3)};
      Seg5 &seg = t.s[tanhSegBase(e) + j];
      for (int k = 0; k < 5; ++k)
        seg.c[k] = roundDropSigned(c[k], 22 - (k - 1) * e);
    }
  }
  return t;
}

} // namespace detail

inline constexpr Table4 kRcpTable = detail::makeRcpTable();
inline constexpr Table4 kRsqrtEvenTable = detail::makeRsqrtTable(false);
inline constexpr Table4 kRsqrtOddTable = detail::makeRsqrtTable(true);
inline constexpr Table4 kEx2Table = detail::makeEx2Table();
inline constexpr Table5 kLg2Table = detail::makeLg2Table();
inline constexpr SinCosTable kSinCosTable = detail::makeSinCosTable();
inline constexpr TanhTable kTanhTable = detail::makeTanhTable();

} // namespace wf::hls::sfu

#endif // WARPFORGE_HLS_SFU_TABLES_H

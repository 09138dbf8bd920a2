//===- warpforge/hls/sfu.h - Special function unit (PTX *.approx.f32) ----===//
//
// Part of Warpforge. The approximate transcendental functions, f32 in and out, built from a
// 64-segment table (sfu_tables.h) and a cubic polynomial in fixed point, then one rounding to
// nearest. Everything is integer arithmetic; the results are the bit-exact definition that the
// emulator, the cycle model and the RTL share.
//
// Accuracy: PTX ISA 9.x bound -> design bound of this implementation (both checked by the tests;
// "e" is the exact result, "ulp" one unit in the last place of e):
//   rcp   1 ulp                                      -> |err| <= 0.57 ulp (measured 0.557)
//   rsqrt rel. 2^-22.9                               -> rel. <= 2^-23.8 (measured 2^-24.0)
//   sqrt  rel. 2^-23                                 -> correctly rounded (it is fsqrt32 RN)
//   ex2   2 ulp                                      -> |err| <= 0.51 ulp (measured 0.503)
//   lg2   abs. 2^-22 on (0.5, 2), rel. 2^-22 outside -> |err| <= 0.5 ulp + 2^-31
//   sin   abs. 2^-20.5 on [-2pi, 2pi], 2^-14.7 on [-100pi, 100pi], best effort beyond
//         -> |err| <= 0.5 ulp + 2^-33 |e| + 2^-60 for every f32 argument (exact argument
//            reduction with 256 bits of 1/(2pi)); |x| < 2^-12 returns x
//   cos   as sin                                     -> as sin; |x| < 2^-30 returns 1
//   tanh  rel. 2^-11                                 -> |err| <= 0.5 ulp + 2^-26 |e|
//         (measured 0.5 ulp + 2^-28.2 |e|; quartic segments, no division: the RTL pipelines
//         it like lg2)
//
// Special values follow the PTX tables: rcp(+-0) = +-inf, rcp(+-inf) = +-0; rsqrt(+-0) = +-inf,
// rsqrt(+inf) = +0, rsqrt(negative) = NaN; ex2(-inf) = +0, ex2(+-0) = 1, ex2(+inf) = +inf;
// lg2(+-0) = -inf, lg2(negative) = NaN, lg2(+inf) = +inf; sin(+-0) = +-0, cos(+-0) = 1,
// sin/cos(+-inf) = NaN; tanh(+-0) = +-0, tanh(+-inf) = +-1; NaN gives the canonical NaN.
//
// ftz flushes subnormal inputs and results to signed zero. tanh has no .ftz in PTX (subnormals
// pass through): it ignores the flag.
//
//===----------------------------------------------------------------------===//

#ifndef WARPFORGE_HLS_SFU_H
#define WARPFORGE_HLS_SFU_H

#include "warpforge/hls/fp32.h"
#include "warpforge/hls/sfu_tables.h"

namespace wf::hls {

namespace sfu {

/// Evaluates c0 - c1 t + c2 t^2 - c3 t^3 with t = T * 2^-23 (|T| <= 2^16), coefficients Q1.40.
constexpr int64_t evalAlternating(const Seg4 &s, int64_t t) {
  int64_t acc = s.c[2] - ((s.c[3] * t) >> 23);
  acc = -s.c[1] + ((acc * t) >> 23);
  return s.c[0] + ((acc * t) >> 23);
}

/// 2^(X * 2^-32) for X in (-2^40, 2^40): returns y in Q2.34 (y in [1, 2)) and n, with
/// 2^(X*2^-32) ~ y * 2^n.
struct Ex2Result {
  int64_t y;
  int32_t n;
};
constexpr Ex2Result ex2Kernel(int64_t xq32) {
  const int32_t n = static_cast<int32_t>(xq32 >> 32);
  const uint64_t f = static_cast<uint64_t>(xq32) & 0xffffffffu;
  const Seg4 &s = kEx2Table.s[f >> 26];
  const int64_t t = static_cast<int64_t>(f & 0x3ffffffu) - (static_cast<int64_t>(1) << 25);
  int64_t acc = s.c[2] + ((s.c[3] * t) >> 32);
  acc = s.c[1] + ((acc * t) >> 32);
  return {s.c[0] + ((acc * t) >> 32), n};
}

/// sin(2 pi r) for r in [0, 2^62] (Q0.64 turns, at most a quarter turn), as mag * 2^scale.
struct Fixed128 {
  U128 mag;
  int32_t scale;
};
constexpr Fixed128 sinTurnsKernel(uint64_t r) {
  constexpr uint64_t kQuarter = static_cast<uint64_t>(1) << 62;
  if (r >= kQuarter)
    return {static_cast<U128>(1), 0};
  if (r == 0)
    return {0, 0};
  const uint32_t j = static_cast<uint32_t>(r >> 56);
  if (j == 0) {
    // Odd series about 0 (keeps the relative accuracy of tiny results):
    // sin(d) = d (1 - d^2/6 + d^4/120), d = 2 pi r < 0.0246.
    const U128 dFull = static_cast<U128>(r) * kPiQ62;      // d in Q.125
    const uint64_t d = static_cast<uint64_t>(dFull >> 61); // d in Q.64
    const uint64_t d2 = static_cast<uint64_t>((static_cast<U128>(d) * d) >> 64);
    const uint64_t d4 = static_cast<uint64_t>((static_cast<U128>(d2) * d2) >> 64);
    const uint64_t g =
        (static_cast<uint64_t>(1) << 63) - ((d2 / 6) >> 1) + ((d4 / 120) >> 1); // Q.63
    const Norm128 dn = normalizeJam128(dFull);
    return {static_cast<U128>(dn.top) * g, -124 - dn.shift};
  }
  // sin(phi_j + u) = S_j cos(u) + C_j sin(u) about the segment midpoint, |u| <= pi/256.
  const int64_t ut = static_cast<int64_t>(r - (static_cast<uint64_t>(j) << 56)) -
                     (static_cast<int64_t>(1) << 55); // turns, Q.64
  const int64_t u = static_cast<int64_t>((static_cast<S128>(ut) * static_cast<S128>(kPiQ62)) >> 61);
  const int64_t u2 = static_cast<int64_t>((static_cast<S128>(u) * u) >> 64);
  const int64_t u4 = static_cast<int64_t>((static_cast<S128>(u2) * u2) >> 64);
  const int64_t u3 = static_cast<int64_t>((static_cast<S128>(u2) * u) >> 64);
  const int64_t cu = (static_cast<int64_t>(1) << 62) - (u2 >> 3) + ((u4 / 24) >> 2); // Q.62
  const int64_t su = (u - u3 / 6) >> 2;                                              // Q.62
  const S128 acc =
      static_cast<S128>(kSinCosTable.sinv[j]) * cu + static_cast<S128>(kSinCosTable.cosv[j]) * su;
  return {static_cast<U128>(acc >> 62), -62};
}

/// frac(m * 2^(e - 23) / (2 pi)) in Q0.64 for a 24-bit m and e in [-30, 127], using 256 bits of
/// 1/(2 pi): exact to 2^-64 turns for every f32 argument.
constexpr uint64_t reduceTurns(uint64_t m, int32_t e) {
  uint64_t p[6] = {0, 0, 0, 0, 0, 0};
  U128 acc = 0;
  for (int k = 0; k < 4; ++k) {
    acc += static_cast<U128>(m) * kInv2PiQ256[k];
    p[k] = static_cast<uint64_t>(acc);
    acc >>= 64;
  }
  p[4] = static_cast<uint64_t>(acc);
  // Bit b of p weighs 2^(b + e - 279); the 2^-1 bit is b = 278 - e.
  const int32_t lo = 215 - e;
  const int32_t w = lo >> 6;
  const int32_t off = lo & 63;
  uint64_t t = p[w] >> off;
  if (off != 0)
    t |= p[w + 1] << (64 - off);
  return t;
}

} // namespace sfu

/// rcp.approx{.ftz}.f32: 1/x.
constexpr uint32_t frcpApprox32(uint32_t x, bool ftz) {
  x = maybeFlush<F32>(x, ftz);
  const Unpacked u = unpack<F32>(x);
  switch (u.cls) {
  case FpClass::NaN:
    return F32::kCanonicalNaN;
  case FpClass::Zero:
    return signedInf<F32>(u.sign);
  case FpClass::Inf:
    return signedZero<F32>(u.sign);
  case FpClass::Finite:
    break;
  }
  const uint32_t f = static_cast<uint32_t>(u.sig >> 40) & 0x7fffffu;
  const int64_t t = static_cast<int64_t>(f & 0x1ffffu) - (1 << 16);
  const int64_t y = sfu::evalAlternating(sfu::kRcpTable.s[f >> 17], t); // 1/m, Q1.40
  return maybeFlush<F32>(
      packScaled<F32>(u.sign, static_cast<uint64_t>(y), -40 - u.exp, RoundMode::RN), ftz);
}

/// rsqrt.approx{.ftz}.f32: 1/sqrt(x).
constexpr uint32_t frsqrtApprox32(uint32_t x, bool ftz) {
  x = maybeFlush<F32>(x, ftz);
  const Unpacked u = unpack<F32>(x);
  switch (u.cls) {
  case FpClass::NaN:
    return F32::kCanonicalNaN;
  case FpClass::Zero:
    return signedInf<F32>(u.sign);
  case FpClass::Inf:
    return u.sign ? F32::kCanonicalNaN : 0u;
  case FpClass::Finite:
    break;
  }
  if (u.sign)
    return F32::kCanonicalNaN;
  const bool odd = (u.exp & 1) != 0;
  const int32_t evenExp = u.exp - (odd ? 1 : 0); // x = (odd ? 2m : m) * 2^evenExp
  const uint32_t f = static_cast<uint32_t>(u.sig >> 40) & 0x7fffffu;
  const int64_t t = static_cast<int64_t>(f & 0x1ffffu) - (1 << 16);
  const sfu::Table4 &tbl = odd ? sfu::kRsqrtOddTable : sfu::kRsqrtEvenTable;
  const int64_t y = sfu::evalAlternating(tbl.s[f >> 17], t);
  return maybeFlush<F32>(
      packScaled<F32>(false, static_cast<uint64_t>(y), -40 - evenExp / 2, RoundMode::RN), ftz);
}

/// sqrt.approx{.ftz}.f32: defined as the correctly rounded square root (round to nearest).
constexpr uint32_t fsqrtApprox32(uint32_t x, bool ftz) { return fsqrt32(x, RoundMode::RN, ftz); }

/// ex2.approx{.ftz}.f32: 2^x.
constexpr uint32_t fex2Approx32(uint32_t x, bool ftz) {
  x = maybeFlush<F32>(x, ftz);
  const Unpacked u = unpack<F32>(x);
  switch (u.cls) {
  case FpClass::NaN:
    return F32::kCanonicalNaN;
  case FpClass::Zero:
    return F32::kOne;
  case FpClass::Inf:
    return u.sign ? 0u : F32::kInf;
  case FpClass::Finite:
    break;
  }
  const uint32_t ax = x & 0x7fffffffu;
  if (!u.sign && ax >= 0x43000000u) // x >= 128
    return F32::kInf;
  if (u.sign && ax >= 0x43480000u) // x <= -200
    return 0;
  if (u.exp < -40)
    return F32::kOne;
  // x * 2^32, truncated toward zero (|x| < 256, so it fits in 41 bits).
  const uint64_t m = u.sig >> 40;
  const int32_t sh = u.exp + 9;
  const uint64_t mag = sh >= 0 ? (m << sh) : (m >> -sh);
  const int64_t xq = u.sign ? -static_cast<int64_t>(mag) : static_cast<int64_t>(mag);
  const sfu::Ex2Result r = sfu::ex2Kernel(xq);
  return maybeFlush<F32>(
      packScaled<F32>(false, static_cast<uint64_t>(r.y), r.n - 34, RoundMode::RN), ftz);
}

/// lg2.approx{.ftz}.f32: log2(x).
constexpr uint32_t flg2Approx32(uint32_t x, bool ftz) {
  x = maybeFlush<F32>(x, ftz);
  const Unpacked u = unpack<F32>(x);
  switch (u.cls) {
  case FpClass::NaN:
    return F32::kCanonicalNaN;
  case FpClass::Zero:
    return signedInf<F32>(true);
  case FpClass::Inf:
    return u.sign ? F32::kCanonicalNaN : F32::kInf;
  case FpClass::Finite:
    break;
  }
  if (u.sign)
    return F32::kCanonicalNaN;
  const uint32_t f = static_cast<uint32_t>(u.sig >> 40) & 0x7fffffu;
  const int64_t d = static_cast<int64_t>(f & 0x1ffffu);
  const sfu::Seg5 &s = sfu::kLg2Table.s[f >> 17];
  int64_t acc = s.c[3] + ((s.c[4] * d) >> 23);
  acc = s.c[2] + ((acc * d) >> 23);
  acc = s.c[1] + ((acc * d) >> 23);
  const int64_t frac = s.c[0] + ((acc * d) >> 23); // log2(m), Q.40
  const int64_t r = static_cast<int64_t>(u.exp) * (static_cast<int64_t>(1) << 40) + frac;
  const bool neg = r < 0;
  const uint64_t mag = neg ? 0 - static_cast<uint64_t>(r) : static_cast<uint64_t>(r);
  return maybeFlush<F32>(packScaled<F32>(neg, mag, -40, RoundMode::RN), ftz);
}

namespace sfu {
/// Shared body of sin and cos.
constexpr uint32_t sinCos32(uint32_t x, bool isCos, bool ftz) {
  x = maybeFlush<F32>(x, ftz);
  const Unpacked u = unpack<F32>(x);
  switch (u.cls) {
  case FpClass::NaN:
  case FpClass::Inf:
    return F32::kCanonicalNaN;
  case FpClass::Zero:
    return isCos ? F32::kOne : x;
  case FpClass::Finite:
    break;
  }
  if (!isCos && u.exp < -12)
    return x; // |sin(x) - x| < 2^-25.5 |x|
  if (isCos && u.exp < -30)
    return F32::kOne;
  const uint64_t t = reduceTurns(u.sig >> 40, u.exp);
  uint32_t q = static_cast<uint32_t>(t >> 62);
  uint64_t r = t & ((static_cast<uint64_t>(1) << 62) - 1);
  if (isCos)
    q = (q + 1) & 3; // cos(2 pi t) = sin(2 pi (t + 1/4))
  if ((q & 1) != 0)
    r = (static_cast<uint64_t>(1) << 62) - r; // sin(pi/2 + a) = sin(pi/2 - a)
  const bool neg = (q >= 2) != (!isCos && u.sign);
  const Fixed128 v = sinTurnsKernel(r);
  return maybeFlush<F32>(packScaled128<F32>(neg, v.mag, v.scale, RoundMode::RN), ftz);
}
} // namespace sfu

/// sin.approx{.ftz}.f32: sin(x), x in radians.
constexpr uint32_t fsinApprox32(uint32_t x, bool ftz) { return sfu::sinCos32(x, false, ftz); }

/// cos.approx{.ftz}.f32: cos(x), x in radians.
constexpr uint32_t fcosApprox32(uint32_t x, bool ftz) { return sfu::sinCos32(x, true, ftz); }

/// tanh.approx.f32: tanh(x). Subnormals pass through (no ftz in PTX). Below 2^-12 the result
/// rounds to x; from 9.5 on it rounds to 1; in between, a quartic about the midpoint of the
/// argument's segment (sfu_tables.h, kTanhTable: each binade cut into 1 to 32 segments), with
/// the coefficients scaled by the binade so that one datapath serves every binade.
constexpr uint32_t ftanhApprox32(uint32_t x) {
  const Unpacked u = unpack<F32>(x);
  switch (u.cls) {
  case FpClass::NaN:
    return F32::kCanonicalNaN;
  case FpClass::Zero:
    return x;
  case FpClass::Inf:
    return static_cast<uint32_t>(signedZero<F32>(u.sign) | F32::kOne);
  case FpClass::Finite:
    break;
  }
  if ((x & 0x7fffffffu) >= 0x41180000u) // |x| >= 9.5: tanh rounds to +-1
    return static_cast<uint32_t>(signedZero<F32>(u.sign) | F32::kOne);
  if (u.exp < sfu::kTanhMinExp) // |tanh(x) - x| < |x|^3 / 3, under half an ulp of x
    return x;
  // |x| = 2^e (1 + f 2^-23); segment j of the binade's 2^sb holds f's top sb bits; t is f
  // relative to the segment's midpoint.
  const int32_t e = u.exp;
  const int32_t sb = sfu::kTanhSegLog2[e - sfu::kTanhMinExp];
  const uint32_t f = static_cast<uint32_t>(u.sig >> 40) & 0x7fffffu;
  const sfu::Seg5 &s =
      sfu::kTanhTable.s[sfu::tanhSegBase(e) + static_cast<int32_t>(f >> (23 - sb))];
  const int64_t t =
      static_cast<int64_t>(f & ((1u << (23 - sb)) - 1)) - (static_cast<int64_t>(1) << (22 - sb));
  int64_t acc = s.c[3] + ((s.c[4] * t) >> 23);
  acc = s.c[2] + ((acc * t) >> 23);
  acc = s.c[1] + ((acc * t) >> 23);
  acc = s.c[0] + ((acc * t) >> 23); // tanh(|x|) / 2^e, Q.40
  return packScaled<F32>(u.sign, static_cast<uint64_t>(acc), e - 40, RoundMode::RN);
}

/// Dispatch on the SFU operation (the ISA's MUFU).
constexpr uint32_t sfu32(SfuOp op, uint32_t x, bool ftz) {
  switch (op) {
  case SfuOp::RCP:
    return frcpApprox32(x, ftz);
  case SfuOp::RSQ:
    return frsqrtApprox32(x, ftz);
  case SfuOp::SQRT:
    return fsqrtApprox32(x, ftz);
  case SfuOp::EX2:
    return fex2Approx32(x, ftz);
  case SfuOp::LG2:
    return flg2Approx32(x, ftz);
  case SfuOp::SIN:
    return fsinApprox32(x, ftz);
  case SfuOp::COS:
    return fcosApprox32(x, ftz);
  case SfuOp::TANH:
    return ftanhApprox32(x);
  }
  return F32::kCanonicalNaN;
}

} // namespace wf::hls

#endif // WARPFORGE_HLS_SFU_H

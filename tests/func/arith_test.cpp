//===- arith_test.cpp - The emulator's host fast path equals wf::hls -----------===//
//
// sim/func/lib/arith.h computes round-to-nearest add, multiply, FMA, divide and square root with
// the host FPU and applies hls's NaN and flush rules around it. These tests compare it with the
// wf::hls functions (the definition) bit for bit on special and random operands.
//
//===----------------------------------------------------------------------===//

#include "arith.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace wf::func {
namespace {

using hls::RoundMode;

std::vector<uint32_t> operands32(size_t n, uint32_t seed) {
  std::vector<uint32_t> v = {0,          0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001,
                             0x7f800001, 0x00000001, 0x80000001, 0x007fffff, 0x00800000, 0x80800000,
                             0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000, 0x00400000, 0x0c000000,
                             0x33800000, 0x4b800000, 0x3f7fffff, 0x3f800001};
  std::mt19937 rng(seed);
  while (v.size() < n) {
    uint32_t x = rng();
    switch (rng() % 4) {
    case 0: // near-subnormal exponents, where flushing and rounding interact
      x = (x & 0x807fffff) | ((rng() % 4) << 23);
      break;
    case 1: // exponents close together, so that sums cancel
      x = (x & 0x80ffffff) | (0x3f000000);
      break;
    default:
      break;
    }
    v.push_back(x);
  }
  return v;
}

std::vector<uint64_t> operands64(size_t n, uint32_t seed) {
  std::vector<uint64_t> v = {0,
                             0x8000000000000000ull,
                             0x7ff0000000000000ull,
                             0xfff0000000000000ull,
                             0x7ff8000000000000ull,
                             0x7ff0000000000001ull,
                             1,
                             0x000fffffffffffffull,
                             0x0010000000000000ull,
                             0x7fefffffffffffffull,
                             0x3ff0000000000000ull,
                             0xbff0000000000000ull};
  std::mt19937_64 rng(seed);
  while (v.size() < n) {
    uint64_t x = rng();
    if (rng() % 3 == 0)
      x = (x & 0x800fffffffffffffull) | ((rng() % 4) << 52);
    v.push_back(x);
  }
  return v;
}

TEST(HostFastPath, Fp32MatchesHls) {
  auto a = operands32(20000, 1), b = operands32(20000, 2), c = operands32(20000, 3);
  for (size_t i = 0; i < a.size(); ++i)
    for (bool ftz : {false, true}) {
      ASSERT_EQ(arith::fadd32RN(a[i], b[i], ftz), hls::fadd32(a[i], b[i], RoundMode::RN, ftz))
          << std::hex << a[i] << " " << b[i] << " ftz " << ftz;
      ASSERT_EQ(arith::fmul32RN(a[i], b[i], ftz), hls::fmul32(a[i], b[i], RoundMode::RN, ftz))
          << std::hex << a[i] << " " << b[i] << " ftz " << ftz;
      ASSERT_EQ(arith::ffma32RN(a[i], b[i], c[i], ftz),
                hls::ffma32(a[i], b[i], c[i], RoundMode::RN, ftz))
          << std::hex << a[i] << " " << b[i] << " " << c[i] << " ftz " << ftz;
      ASSERT_EQ(arith::fdiv32RN(a[i], b[i], ftz), hls::fdiv32(a[i], b[i], RoundMode::RN, ftz))
          << std::hex << a[i] << " " << b[i] << " ftz " << ftz;
      ASSERT_EQ(arith::fsqrt32RN(a[i], ftz), hls::fsqrt32(a[i], RoundMode::RN, ftz))
          << std::hex << a[i] << " ftz " << ftz;
    }
}

TEST(HostFastPath, Fp32FmaNearCancellation) {
  // a*b + c with c close to -a*b: the single rounding matters.
  std::mt19937 rng(4);
  for (int i = 0; i < 20000; ++i) {
    uint32_t a = (rng() & 0x807fffff) | ((100 + rng() % 60) << 23);
    uint32_t b = (rng() & 0x807fffff) | ((100 + rng() % 60) << 23);
    float p = std::bit_cast<float>(a) * std::bit_cast<float>(b);
    uint32_t c = std::bit_cast<uint32_t>(-p) ^ (rng() % 4);
    for (bool ftz : {false, true})
      ASSERT_EQ(arith::ffma32RN(a, b, c, ftz), hls::ffma32(a, b, c, RoundMode::RN, ftz))
          << std::hex << a << " " << b << " " << c;
  }
}

TEST(HostFastPath, Fp64MatchesHls) {
  auto a = operands64(20000, 5), b = operands64(20000, 6), c = operands64(20000, 7);
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(arith::fadd64RN(a[i], b[i]), hls::fadd64(a[i], b[i], RoundMode::RN))
        << std::hex << a[i] << " " << b[i];
    ASSERT_EQ(arith::fmul64RN(a[i], b[i]), hls::fmul64(a[i], b[i], RoundMode::RN))
        << std::hex << a[i] << " " << b[i];
    ASSERT_EQ(arith::ffma64RN(a[i], b[i], c[i]), hls::ffma64(a[i], b[i], c[i], RoundMode::RN))
        << std::hex << a[i] << " " << b[i] << " " << c[i];
    ASSERT_EQ(arith::fdiv64RN(a[i], b[i]), hls::fdiv64(a[i], b[i], RoundMode::RN))
        << std::hex << a[i] << " " << b[i];
    ASSERT_EQ(arith::fsqrt64RN(a[i]), hls::fsqrt64(a[i], RoundMode::RN)) << std::hex << a[i];
  }
}

TEST(HostFastPath, OtherRoundingModesGoToHls) {
  auto a = operands32(2000, 8), b = operands32(2000, 9);
  for (size_t i = 0; i < a.size(); ++i)
    for (RoundMode rm : {RoundMode::RZ, RoundMode::RM, RoundMode::RP})
      ASSERT_EQ(arith::fadd32(a[i], b[i], rm, false), hls::fadd32(a[i], b[i], rm, false));
}

} // namespace
} // namespace wf::func

//===- fp_test.cpp - Floating-point, conversion and special-function instructions ===//
//
// References are the host's IEEE-754 arithmetic (directed rounding through fesetround; this file
// builds with -frounding-math) plus the PTX rules the host does not have: the canonical NaN
// 0x7fffffff, .ftz flushing and .sat clamping. MUFU's reference is wf::hls::sfu32 itself (the
// definition of the approximations), checked loosely against libm.
//
//===----------------------------------------------------------------------===//

#include "harness.h"

#include "warpforge/hls/sfu.h"

#include <bit>
#include <cfenv>
#include <cmath>
#include <functional>
#include <limits>

namespace wf::test {
namespace {

constexpr size_t kLanes = 96;

uint32_t bitsOf(float f) { return std::bit_cast<uint32_t>(f); }
float floatOf(uint32_t u) { return std::bit_cast<float>(u); }
uint64_t bitsOf(double d) { return std::bit_cast<uint64_t>(d); }
double doubleOf(uint64_t u) { return std::bit_cast<double>(u); }

constexpr uint32_t kNaN32 = 0x7fffffffu;
constexpr uint64_t kNaN64 = 0x7fffffffffffffffull;

uint32_t canon(float f) { return std::isnan(f) ? kNaN32 : bitsOf(f); }
uint64_t canon(double d) { return std::isnan(d) ? kNaN64 : bitsOf(d); }
bool subnormal(uint32_t x) { return (x & 0x7f800000u) == 0 && (x & 0x7fffffu) != 0; }
uint32_t flush(uint32_t x) { return subnormal(x) ? x & 0x80000000u : x; }

/// Random floats: ordinary values, specials, subnormals.
std::vector<LaneInput> floatInputs(size_t n, uint32_t seed, bool wide = false) {
  std::mt19937 rng(seed);
  static const uint32_t kSpecial32[] = {0,          0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
                                        0x7f800001, 0x00000001, 0x807fffff, 0x00800000, 0x7f7fffff,
                                        0x3f800000, 0xbf800000, 0x4b000000, 0x3f000000};
  static const uint64_t kSpecial64[] = {0,
                                        0x8000000000000000ull,
                                        0x7ff0000000000000ull,
                                        0xfff0000000000000ull,
                                        0x7ff8000000000000ull,
                                        0x0000000000000001ull,
                                        0x000fffffffffffffull,
                                        0x7fefffffffffffffull,
                                        0x3ff0000000000000ull,
                                        0xbff8000000000000ull};
  std::uniform_real_distribution<float> uf(-1000.0f, 1000.0f);
  std::uniform_real_distribution<double> ud(-1e6, 1e6);
  std::vector<LaneInput> v(n);
  for (auto &lane : v) {
    if (!wide) {
      for (unsigned k = 0; k < 8; ++k) {
        unsigned pick = rng() % 8;
        lane[k] = pick == 0   ? kSpecial32[rng() % std::size(kSpecial32)]
                  : pick == 1 ? uint32_t(rng()) // any bit pattern
                              : bitsOf(uf(rng));
      }
    } else {
      for (unsigned k = 0; k < 8; k += 2) {
        unsigned pick = rng() % 8;
        uint64_t x = pick == 0   ? kSpecial64[rng() % std::size(kSpecial64)]
                     : pick == 1 ? (uint64_t(rng()) << 32 | rng())
                                 : bitsOf(ud(rng));
        lane[k] = uint32_t(x);
        lane[k + 1] = uint32_t(x >> 32);
      }
    }
  }
  return v;
}

/// Runs fn under a host rounding mode.
template <class F> auto withRounding(const char *rnd, F fn) {
  int mode = rnd[1] == 'N'   ? FE_TONEAREST
             : rnd[1] == 'Z' ? FE_TOWARDZERO
             : rnd[1] == 'M' ? FE_DOWNWARD
                             : FE_UPWARD;
  int saved = std::fegetround();
  std::fesetround(mode);
  // A volatile result keeps the computation from moving past the restore.
  volatile decltype(fn()) r = fn();
  std::fesetround(saved);
  return decltype(fn())(r);
}

const char *kRounds[] = {"RN", "RZ", "RM", "RP"};

void expectLanes32(const std::vector<LaneInput> &in, const std::vector<LaneResult> &out,
                   const std::function<uint32_t(const LaneInput &)> &ref, const std::string &what) {
  for (size_t k = 0; k < in.size(); ++k)
    ASSERT_EQ(out[k].r[0], ref(in[k])) << what << " lane " << k << std::hex << " a=" << in[k][0]
                                       << " b=" << in[k][1] << " c=" << in[k][2];
}

void expectLanes64(const std::vector<LaneInput> &in, const std::vector<LaneResult> &out,
                   const std::function<uint64_t(const LaneInput &)> &ref, const std::string &what) {
  for (size_t k = 0; k < in.size(); ++k)
    ASSERT_EQ(resultPair(out[k]), ref(in[k]))
        << what << " lane " << k << std::hex << " a=" << pairOf(in[k], 0)
        << " b=" << pairOf(in[k], 2);
}

TEST(Fp32, AddMulWithRoundingFtzAndOperandModifiers) {
  auto in = floatInputs(kLanes, 1);
  for (Opcode op : {Opcode::FADD, Opcode::FMUL})
    for (const char *rnd : kRounds)
      for (unsigned ftz : {0u, 1u})
        for (unsigned mods : {0u, 1u, 2u, 3u}) {
          bool neg = mods & 1, abs = mods & 2;
          Inst inst = Inst(op)
                          .rd(12)
                          .ra(4)
                          .rb(5)
                          .mod("rnd", rnd)
                          .mod("ftz", ftz)
                          .mod("nega", neg)
                          .mod("absb", abs);
          auto out = elementwise({inst}, in);
          expectLanes32(
              in, out,
              [&](const LaneInput &i) {
                uint32_t a = i[0] ^ (neg ? 0x80000000u : 0), b = abs ? i[1] & 0x7fffffffu : i[1];
                if (ftz) {
                  a = flush(a);
                  b = flush(b);
                }
                float r = withRounding(rnd, [&] {
                  volatile float x = floatOf(a), y = floatOf(b);
                  return op == Opcode::FADD ? x + y : x * y;
                });
                uint32_t bits = canon(r);
                return ftz ? flush(bits) : bits;
              },
              std::string(isa::opInfo(op).name) + "." + rnd);
        }
}

TEST(Fp32, Saturate) {
  auto in = floatInputs(kLanes, 2);
  auto out = elementwise({Inst(Opcode::FADD).rd(12).ra(4).rb(5).mod("sat", 1)}, in);
  expectLanes32(
      in, out,
      [](const LaneInput &i) {
        float r = floatOf(i[0]) + floatOf(i[1]);
        if (std::isnan(r) || r <= 0.0f)
          return 0u;
        return r >= 1.0f ? bitsOf(1.0f) : bitsOf(r);
      },
      "FADD.SAT");
}

TEST(Fp32, Immediates) {
  auto in = floatInputs(kLanes, 3);
  auto out = elementwise({Inst(Opcode::FADD_I).rd(12).ra(4).immF(1.5f),
                          Inst(Opcode::FMUL_I).rd(13).ra(4).immF(-0.25f)},
                         in);
  for (size_t k = 0; k < in.size(); ++k) {
    EXPECT_EQ(out[k].r[0], canon(floatOf(in[k][0]) + 1.5f)) << k;
    EXPECT_EQ(out[k].r[1], canon(floatOf(in[k][0]) * -0.25f)) << k;
  }
}

TEST(Fp32, FusedMultiplyAdd) {
  auto in = floatInputs(kLanes, 4);
  for (const char *rnd : kRounds)
    for (unsigned ftz : {0u, 1u})
      for (unsigned negs : {0u, 5u, 2u}) {
        Inst inst = Inst(Opcode::FFMA)
                        .rd(12)
                        .ra(4)
                        .rb(5)
                        .rc(6)
                        .mod("rnd", rnd)
                        .mod("ftz", ftz)
                        .mod("nega", negs & 1)
                        .mod("negb", (negs >> 1) & 1)
                        .mod("negc", (negs >> 2) & 1);
        auto out = elementwise({inst}, in);
        expectLanes32(
            in, out,
            [&](const LaneInput &i) {
              uint32_t a = i[0] ^ ((negs & 1) << 31), b = i[1] ^ (((negs >> 1) & 1) << 31),
                       c = i[2] ^ (((negs >> 2) & 1) << 31);
              if (ftz) {
                a = flush(a);
                b = flush(b);
                c = flush(c);
              }
              float r = withRounding(rnd, [&] {
                volatile float x = floatOf(a), y = floatOf(b), z = floatOf(c);
                return std::fma(float(x), float(y), float(z));
              });
              uint32_t bits = canon(r);
              return ftz ? flush(bits) : bits;
            },
            std::string("FFMA.") + rnd);
      }
}

uint32_t refMinMax32(uint32_t a, uint32_t b, bool isMax, bool nanMode) {
  bool an = std::isnan(floatOf(a)), bn = std::isnan(floatOf(b));
  if (an || bn) {
    if (nanMode || (an && bn))
      return kNaN32;
    return an ? b : a;
  }
  float x = floatOf(a), y = floatOf(b);
  if (x == y) { // -0 < +0
    bool aNeg = a >> 31;
    if (isMax)
      return aNeg ? b : a;
    return aNeg ? a : b;
  }
  return (isMax ? x > y : x < y) ? a : b;
}

TEST(Fp32, MinMax) {
  auto in = floatInputs(kLanes, 5);
  in[0][0] = 0x80000000;
  in[0][1] = 0;
  in[1][0] = 0;
  in[1][1] = 0x80000000;
  for (const char *fn : {"MIN", "MAX"})
    for (unsigned nan : {0u, 1u}) {
      auto out =
          elementwise({Inst(Opcode::FMNMX).rd(12).ra(4).rb(5).mod("fn", fn).mod("nan", nan)}, in);
      expectLanes32(
          in, out, [&](const LaneInput &i) { return refMinMax32(i[0], i[1], fn[1] == 'A', nan); },
          std::string("FMNMX.") + fn);
    }
}

bool refFcmp(unsigned cmp, double a, double b) {
  bool unord = std::isnan(a) || std::isnan(b);
  switch (cmp) {
  case 0:
    return !unord && a == b;
  case 1:
    return !unord && a != b;
  case 2:
    return !unord && a < b;
  case 3:
    return !unord && a <= b;
  case 4:
    return !unord && a > b;
  case 5:
    return !unord && a >= b;
  case 6:
    return unord || a == b;
  case 7:
    return unord || a != b;
  case 8:
    return unord || a < b;
  case 9:
    return unord || a <= b;
  case 10:
    return unord || a > b;
  case 11:
    return unord || a >= b;
  case 12:
    return !unord;
  default:
    return unord;
  }
}

TEST(Fp32, SetPredicateAllCompares) {
  auto in = floatInputs(kLanes, 6);
  for (size_t k = 0; k < in.size(); k += 4)
    in[k][1] = in[k][0];
  for (unsigned cmp = 0; cmp < 14; ++cmp) {
    auto out = elementwise({Inst(Opcode::FSETP).pd(0).ra(4).rb(5).mod("cmp", cmp)}, in);
    for (size_t k = 0; k < in.size(); ++k)
      ASSERT_EQ(out[k].p0, uint32_t(refFcmp(cmp, floatOf(in[k][0]), floatOf(in[k][1]))))
          << "cmp " << cmp << " lane " << k;
  }
  // FTZ: a subnormal compares equal to zero.
  std::vector<LaneInput> sub(32);
  for (auto &l : sub) {
    l[0] = 0x00000005;
    l[1] = 0;
  }
  auto out = elementwise({Inst(Opcode::FSETP).pd(0).ra(4).rb(5).mod("cmp", "EQ").mod("ftz", 1),
                          Inst(Opcode::FSETP).pd(1).ra(4).rb(5).mod("cmp", "EQ")},
                         sub);
  EXPECT_EQ(out[0].p0, 1u);
  EXPECT_EQ(out[0].p1, 0u);
}

TEST(Fp32, DivideAndSquareRoot) {
  auto in = floatInputs(kLanes, 7);
  for (const char *rnd : kRounds)
    for (unsigned ftz : {0u, 1u}) {
      auto out = elementwise({Inst(Opcode::FDIV).rd(12).ra(4).rb(5).mod("rnd", rnd).mod("ftz", ftz),
                              Inst(Opcode::FSQRT).rd(13).ra(4).mod("rnd", rnd).mod("ftz", ftz)},
                             in);
      for (size_t k = 0; k < in.size(); ++k) {
        uint32_t a = ftz ? flush(in[k][0]) : in[k][0], b = ftz ? flush(in[k][1]) : in[k][1];
        float q = withRounding(rnd, [&] {
          volatile float x = floatOf(a), y = floatOf(b);
          return x / y;
        });
        float s = withRounding(rnd, [&] {
          volatile float x = floatOf(a);
          return std::sqrt(float(x));
        });
        uint32_t qb = canon(q), sb = canon(s);
        ASSERT_EQ(out[k].r[0], ftz ? flush(qb) : qb) << "FDIV." << rnd << " lane " << k;
        ASSERT_EQ(out[k].r[1], ftz ? flush(sb) : sb) << "FSQRT." << rnd << " lane " << k;
      }
    }
}

TEST(Fp64, ArithmeticWithRounding) {
  auto in = floatInputs(kLanes, 8, true);
  for (const char *rnd : kRounds) {
    auto run = [&](Inst inst) { return elementwise({inst}, in); };
    auto add = run(Inst(Opcode::DADD).rd(12).ra(4).rb(6).mod("rnd", rnd).mod("negb", 1));
    auto mul = run(Inst(Opcode::DMUL).rd(12).ra(4).rb(6).mod("rnd", rnd).mod("absa", 1));
    auto fma = run(Inst(Opcode::DFMA).rd(12).ra(4).rb(6).rc(8).mod("rnd", rnd).mod("negc", 1));
    auto div = run(Inst(Opcode::DDIV).rd(12).ra(4).rb(6).mod("rnd", rnd));
    auto sqr = run(Inst(Opcode::DSQRT).rd(12).ra(4).mod("rnd", rnd));
    auto ref = [&](auto fn) {
      return [&, fn](const LaneInput &i) {
        double r = withRounding(rnd, [&] {
          volatile double a = doubleOf(pairOf(i, 0)), b = doubleOf(pairOf(i, 2)),
                          c = doubleOf(pairOf(i, 4));
          return fn(double(a), double(b), double(c));
        });
        return canon(r);
      };
    };
    expectLanes64(in, add, ref([](double a, double b, double) { return a - b; }), "DADD");
    expectLanes64(in, mul, ref([](double a, double b, double) { return std::fabs(a) * b; }),
                  "DMUL");
    expectLanes64(in, fma, ref([](double a, double b, double c) { return std::fma(a, b, -c); }),
                  "DFMA");
    expectLanes64(in, div, ref([](double a, double b, double) { return a / b; }), "DDIV");
    expectLanes64(in, sqr, ref([](double a, double, double) { return std::sqrt(a); }), "DSQRT");
  }
}

TEST(Fp64, MinMaxAndCompare) {
  auto in = floatInputs(kLanes, 9, true);
  for (size_t k = 0; k < in.size(); k += 4) {
    in[k][2] = in[k][0];
    in[k][3] = in[k][1];
  }
  for (const char *fn : {"MIN", "MAX"})
    for (unsigned nan : {0u, 1u}) {
      auto out =
          elementwise({Inst(Opcode::DMNMX).rd(12).ra(4).rb(6).mod("fn", fn).mod("nan", nan)}, in);
      expectLanes64(
          in, out,
          [&](const LaneInput &i) {
            uint64_t a = pairOf(i, 0), b = pairOf(i, 2);
            bool an = std::isnan(doubleOf(a)), bn = std::isnan(doubleOf(b));
            if (an || bn)
              return (nan || (an && bn)) ? kNaN64 : (an ? b : a);
            double x = doubleOf(a), y = doubleOf(b);
            bool isMax = fn[1] == 'A';
            if (x == y)
              return isMax ? ((a >> 63) ? b : a) : ((a >> 63) ? a : b);
            return (isMax ? x > y : x < y) ? a : b;
          },
          "DMNMX");
    }
  for (unsigned cmp = 0; cmp < 14; ++cmp) {
    auto out = elementwise({Inst(Opcode::DSETP).pd(0).ra(4).rb(6).mod("cmp", cmp)}, in);
    for (size_t k = 0; k < in.size(); ++k)
      ASSERT_EQ(out[k].p0,
                uint32_t(refFcmp(cmp, doubleOf(pairOf(in[k], 0)), doubleOf(pairOf(in[k], 2)))))
          << "cmp " << cmp << " lane " << k;
  }
}

uint16_t refBf16(uint32_t f) {
  if (std::isnan(floatOf(f)))
    return 0x7fff;
  uint32_t r = f + 0x7fff + ((f >> 16) & 1);
  return uint16_t(r >> 16);
}

TEST(Convert, FloatToFloat) {
  auto in = floatInputs(kLanes, 10);
  // F32 -> F64 (exact) and F64 -> F32 (round to nearest).
  auto out = elementwise({Inst(Opcode::F2F).rd(12).ra(4).mod("dst", "F64").mod("src", "F32")}, in);
  expectLanes64(
      in, out, [](const LaneInput &i) { return canon(double(floatOf(i[0]))); }, "F2F.F64.F32");
  auto in64 = floatInputs(kLanes, 11, true);
  for (const char *rnd : kRounds) {
    out = elementwise(
        {Inst(Opcode::F2F).rd(12).ra(4).mod("dst", "F32").mod("src", "F64").mod("rnd", rnd)}, in64);
    expectLanes32(
        in64, out,
        [&](const LaneInput &i) {
          return canon(withRounding(rnd, [&] {
            volatile double d = doubleOf(pairOf(i, 0));
            return float(d);
          }));
        },
        std::string("F2F.F32.F64.") + rnd);
  }
  // F32 -> F16 and back, F32 -> BF16 (round to nearest even).
  out = elementwise({Inst(Opcode::F2F).rd(12).ra(4).mod("dst", "F16").mod("src", "F32"),
                     Inst(Opcode::F2F).rd(13).ra(12).mod("dst", "F32").mod("src", "F16"),
                     Inst(Opcode::F2F).rd(14).ra(4).mod("dst", "BF16").mod("src", "F32")},
                    in);
  for (size_t k = 0; k < in.size(); ++k) {
    _Float16 h = _Float16(floatOf(in[k][0]));
    uint16_t hb = std::bit_cast<uint16_t>(h);
    if (std::isnan(floatOf(in[k][0])))
      hb = 0x7fff;
    EXPECT_EQ(out[k].r[0], hb) << k;
    EXPECT_EQ(out[k].r[1], std::isnan(float(h)) ? kNaN32 : bitsOf(float(h))) << k;
    EXPECT_EQ(out[k].r[2], refBf16(in[k][0])) << k;
  }
  // Round to integral values in F32.
  const char *irnds[] = {"RNI", "RZI", "RMI", "RPI"};
  for (unsigned m = 0; m < 4; ++m) {
    out = elementwise(
        {Inst(Opcode::F2F).rd(12).ra(4).mod("dst", "F32").mod("src", "F32").mod("rnd", irnds[m])},
        in);
    expectLanes32(
        in, out,
        [&](const LaneInput &i) {
          float x = floatOf(i[0]);
          float r = m == 0   ? std::nearbyint(x)
                    : m == 1 ? std::trunc(x)
                    : m == 2 ? std::floor(x)
                             : std::ceil(x);
          return canon(r);
        },
        irnds[m]);
  }
  // SAT clamps to [0, 1].
  out = elementwise(
      {Inst(Opcode::F2F).rd(12).ra(4).mod("dst", "F32").mod("src", "F64").mod("sat", 1)}, in64);
  expectLanes32(
      in64, out,
      [](const LaneInput &i) {
        double d = doubleOf(pairOf(i, 0));
        if (std::isnan(d) || d <= 0)
          return 0u;
        return d >= 1 ? bitsOf(1.0f) : bitsOf(float(d));
      },
      "F2F.SAT");
}

template <class T> uint64_t satConvert(double x, int rounding) {
  if (std::isnan(x))
    return 0;
  double r = rounding == 0   ? std::nearbyint(x)
             : rounding == 1 ? std::trunc(x)
             : rounding == 2 ? std::floor(x)
                             : std::ceil(x);
  if (r <= double(std::numeric_limits<T>::min()))
    return uint64_t(int64_t(std::numeric_limits<T>::min()));
  if (r >= double(std::numeric_limits<T>::max()))
    return uint64_t(std::numeric_limits<T>::max());
  return uint64_t(int64_t(T(r)));
}

TEST(Convert, FloatToInteger) {
  auto in = floatInputs(kLanes, 12);
  const char *irnds[] = {"RNI", "RZI", "RMI", "RPI"};
  for (unsigned m = 0; m < 4; ++m) {
    auto s32 = elementwise(
        {Inst(Opcode::F2I).rd(12).ra(4).mod("dst", "S32").mod("src", "F32").mod("rnd", irnds[m])},
        in);
    auto u32 = elementwise(
        {Inst(Opcode::F2I).rd(12).ra(4).mod("dst", "U32").mod("src", "F32").mod("rnd", irnds[m])},
        in);
    auto s64 = elementwise(
        {Inst(Opcode::F2I).rd(12).ra(4).mod("dst", "S64").mod("src", "F32").mod("rnd", irnds[m])},
        in);
    auto s8 = elementwise(
        {Inst(Opcode::F2I).rd(12).ra(4).mod("dst", "S8").mod("src", "F32").mod("rnd", irnds[m])},
        in);
    for (size_t k = 0; k < in.size(); ++k) {
      double x = floatOf(in[k][0]);
      ASSERT_EQ(s32[k].r[0], uint32_t(satConvert<int32_t>(x, m))) << irnds[m] << " " << k;
      ASSERT_EQ(u32[k].r[0], uint32_t(satConvert<uint32_t>(x, m))) << irnds[m] << " " << k;
      ASSERT_EQ(resultPair(s64[k]), satConvert<int64_t>(x, m)) << irnds[m] << " " << k;
      ASSERT_EQ(s8[k].r[0], uint32_t(satConvert<int8_t>(x, m))) << irnds[m] << " " << k;
    }
  }
  auto in64 = floatInputs(kLanes, 13, true);
  auto u64 = elementwise(
      {Inst(Opcode::F2I).rd(12).ra(4).mod("dst", "U64").mod("src", "F64").mod("rnd", "RZI")}, in64);
  for (size_t k = 0; k < in64.size(); ++k)
    ASSERT_EQ(resultPair(u64[k]), satConvert<uint64_t>(doubleOf(pairOf(in64[k], 0)), 1)) << k;
}

TEST(Convert, IntegerToFloat) {
  auto in = randomInputs(kLanes, 14);
  for (const char *rnd : kRounds) {
    auto f32s = elementwise(
        {Inst(Opcode::I2F).rd(12).ra(4).mod("dst", "F32").mod("src", "S32").mod("rnd", rnd)}, in);
    auto f32u = elementwise(
        {Inst(Opcode::I2F).rd(12).ra(4).mod("dst", "F32").mod("src", "U32").mod("rnd", rnd)}, in);
    auto f64s = elementwise(
        {Inst(Opcode::I2F).rd(12).ra(4).mod("dst", "F64").mod("src", "S64").mod("rnd", rnd)}, in);
    auto f32u64 = elementwise(
        {Inst(Opcode::I2F).rd(12).ra(4).mod("dst", "F32").mod("src", "U64").mod("rnd", rnd)}, in);
    auto f32s16 = elementwise(
        {Inst(Opcode::I2F).rd(12).ra(4).mod("dst", "F32").mod("src", "S16").mod("rnd", rnd)}, in);
    for (size_t k = 0; k < in.size(); ++k) {
      auto conv = [&](auto v, auto target) {
        return withRounding(rnd, [&] {
          volatile auto x = v;
          return decltype(target)(x);
        });
      };
      ASSERT_EQ(f32s[k].r[0], bitsOf(conv(int32_t(in[k][0]), 0.0f))) << rnd << k;
      ASSERT_EQ(f32u[k].r[0], bitsOf(conv(in[k][0], 0.0f))) << rnd << k;
      ASSERT_EQ(resultPair(f64s[k]), bitsOf(conv(int64_t(pairOf(in[k], 0)), 0.0))) << rnd << k;
      ASSERT_EQ(f32u64[k].r[0], bitsOf(conv(pairOf(in[k], 0), 0.0f))) << rnd << k;
      ASSERT_EQ(f32s16[k].r[0], bitsOf(float(int16_t(in[k][0])))) << rnd << k;
    }
  }
}

TEST(Convert, IntegerToInteger) {
  auto in = randomInputs(kLanes, 15);
  auto out = elementwise(
      {Inst(Opcode::I2I).rd(12).ra(4).mod("dst", "S32").mod("src", "S8"),
       Inst(Opcode::I2I).rd(13).ra(4).mod("dst", "U32").mod("src", "U16"),
       Inst(Opcode::I2I).rd(14).ra(4).mod("dst", "U8").mod("src", "S32").mod("sat", 1),
       Inst(Opcode::I2I).rd(15).ra(4).mod("dst", "S16").mod("src", "U32").mod("sat", 1)},
      in);
  for (size_t k = 0; k < in.size(); ++k) {
    int32_t s = int32_t(in[k][0]);
    EXPECT_EQ(out[k].r[0], uint32_t(int32_t(int8_t(in[k][0])))) << k;
    EXPECT_EQ(out[k].r[1], in[k][0] & 0xffff) << k;
    EXPECT_EQ(out[k].r[2], uint32_t(std::clamp(s, 0, 255))) << k;
    EXPECT_EQ(out[k].r[3], uint32_t(int32_t(int16_t(std::min<uint32_t>(in[k][0], 32767))))) << k;
  }
  auto wide = elementwise({Inst(Opcode::I2I).rd(12).ra(4).mod("dst", "S64").mod("src", "S32")}, in);
  for (size_t k = 0; k < in.size(); ++k)
    EXPECT_EQ(resultPair(wide[k]), uint64_t(int64_t(int32_t(in[k][0])))) << k;
  auto narrow = elementwise(
      {Inst(Opcode::I2I).rd(12).ra(4).mod("dst", "S32").mod("src", "S64").mod("sat", 1)}, in);
  for (size_t k = 0; k < in.size(); ++k)
    EXPECT_EQ(narrow[k].r[0],
              uint32_t(std::clamp<int64_t>(int64_t(pairOf(in[k], 0)), INT32_MIN, INT32_MAX)))
        << k;
}

TEST(SpecialFunctions, MufuMatchesHlsAndLibm) {
  std::mt19937 rng(16);
  std::uniform_real_distribution<float> u(0.01f, 20.0f);
  std::vector<LaneInput> in(kLanes);
  for (auto &l : in)
    for (auto &w : l)
      w = bitsOf(rng() % 2 ? u(rng) : -u(rng));
  const char *fns[] = {"RCP", "RSQ", "SQRT", "EX2", "LG2", "SIN", "COS", "TANH"};
  for (unsigned f = 0; f < 8; ++f) {
    auto out = elementwise({Inst(Opcode::MUFU).rd(12).ra(4).mod("fn", fns[f])}, in);
    for (size_t k = 0; k < in.size(); ++k) {
      uint32_t x = in[k][0];
      ASSERT_EQ(out[k].r[0], hls::sfu32(hls::SfuOp(f), x, false)) << fns[f] << " " << k;
      double v = floatOf(x), ref;
      switch (f) {
      case 0:
        ref = 1 / v;
        break;
      case 1:
        ref = 1 / std::sqrt(v);
        break;
      case 2:
        ref = std::sqrt(v);
        break;
      case 3:
        ref = std::exp2(v);
        break;
      case 4:
        ref = std::log2(v);
        break;
      case 5:
        ref = std::sin(v);
        break;
      case 6:
        ref = std::cos(v);
        break;
      default:
        ref = std::tanh(v);
        break;
      }
      float got = floatOf(out[k].r[0]);
      if (std::isnan(ref))
        EXPECT_TRUE(std::isnan(got)) << fns[f];
      else
        EXPECT_NEAR(got, ref, 1e-5 * std::max(1.0, std::fabs(ref))) << fns[f] << " x=" << v;
    }
  }
}

} // namespace
} // namespace wf::test

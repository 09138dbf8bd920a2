// wf_sfu against hls/ (sfu32: rcp, rsqrt, sqrt, ex2, lg2, sin, cos, tanh approximations), bit for
// bit: every implemented MUFU function with and without .FTZ on directed operands (every IEEE
// class, each function's range boundaries and special thresholds, table segment boundaries, exact
// cases, and a sweep of every exponent with edge significands), then --vectors random operands
// per function drawn mostly from the function's interesting range; random bubbles and
// back-to-back issue; latency from the ISA table.
#include "Vwf_sfu.h"
#include "common/tb_op_bench.h"
#include "warpforge/hls/sfu.h"

#include <array>
#include <iterator>
#include <string>
#include <vector>

namespace {

using wf::isa::Opcode;
using namespace wf::rtl::tb;
namespace hls = wf::hls;

constexpr unsigned kLanes = WF_LANES;

// Every MUFU function.
constexpr hls::SfuOp kFns[] = {hls::SfuOp::RCP, hls::SfuOp::RSQ, hls::SfuOp::SQRT,
                               hls::SfuOp::EX2, hls::SfuOp::LG2, hls::SfuOp::SIN,
                               hls::SfuOp::COS, hls::SfuOp::TANH};
constexpr const char *kFnNames[] = {"RCP", "RSQ", "SQRT", "EX2", "LG2", "SIN", "COS", "TANH"};

struct Txn {
  Inst inst{Opcode::MUFU};
  std::array<uint32_t, kLanes> a{};
  std::array<uint32_t, kLanes> res{};
};

hls::SfuOp fnOf(const Inst &inst) { return static_cast<hls::SfuOp>(inst.get_mod("fn")); }

uint32_t bitsOf(bool sign, int biasedExp, uint32_t frac) {
  return (sign ? 0x80000000u : 0u) | (static_cast<uint32_t>(biasedExp) << 23) | frac;
}

// The f32 of a small integer (exact).
uint32_t f32OfInt(int i) {
  if (i == 0)
    return 0;
  const uint32_t mag = static_cast<uint32_t>(i < 0 ? -i : i);
  const int lz = __builtin_clz(mag);
  return bitsOf(i < 0, 127 + 31 - lz, (mag << (lz + 1)) >> 9);
}

// Operands every function sees: IEEE classes and boundaries.
std::vector<uint32_t> commonEdges() {
  std::vector<uint32_t> v;
  static constexpr uint32_t kMag[] = {
      0x00000000u, 0x00000001u, 0x00000002u, 0x00000003u, 0x00400000u, 0x007fffffu,
      0x00800000u, 0x00800001u, 0x00ffffffu, 0x3f800000u, 0x3f800001u, 0x3f7fffffu,
      0x3fc00000u, 0x40000000u, 0x40490fdbu, 0x3fc90fdbu, 0x7f7fffffu, 0x7f7ffffeu,
      0x7f000000u, 0x7e800000u, 0x7f800000u, 0x7f800001u, 0x7fc00000u, 0x7fffffffu,
      0x7fbfffffu, 0x33800000u, 0x34000000u, 0x39800000u, 0x2f800000u, 0x30800000u};
  for (uint32_t m : kMag) {
    v.push_back(m);
    v.push_back(m | 0x80000000u);
  }
  return v;
}

// Per-function boundaries.
std::vector<uint32_t> fnEdges(hls::SfuOp fn) {
  std::vector<uint32_t> v;
  auto both = [&](uint32_t x) {
    v.push_back(x);
    v.push_back(x ^ 0x80000000u);
  };
  auto around = [&](uint32_t x) {
    for (int d = -2; d <= 2; ++d)
      both(x + static_cast<uint32_t>(d));
  };
  switch (fn) {
  case hls::SfuOp::RCP:
  case hls::SfuOp::RSQ:
  case hls::SfuOp::SQRT:
    // Results at the overflow and subnormal edges, odd and even exponents.
    for (int e : {1, 2, 3, 124, 125, 126, 127, 128, 129, 130, 252, 253, 254})
      around(bitsOf(false, e, 0));
    for (uint32_t k = 1; k < 64; k += 7) // segment boundaries
      around(bitsOf(false, 127, k << 17));
    for (int n = 1; n < 4096; n += 97) { // perfect squares (exact square roots)
      const uint32_t sq = f32OfInt(n * n);
      both(sq);
      both(sq - (1u << 23)); // n^2 / 2: odd exponent
    }
    break;
  case hls::SfuOp::EX2:
    around(0x43000000u);                       // 128
    around(0xc3480000u);                       // -200
    around(0xc3160000u);                       // -150
    around(0xc2fc0000u);                       // -126
    around(0xc3150000u);                       // -149
    for (int e = 127 - 42; e <= 127 - 38; ++e) // |x| about 2^-40
      around(bitsOf(false, e, 0));
    for (int i = -150; i <= 127; i += 7) // integers: exact powers of two
      v.push_back(f32OfInt(i));
    for (uint32_t k = 1; k < 64; k += 5) // segment boundaries of the fraction: x = k/64
      around(bitsOf(false, 126, k << 17));
    break;
  case hls::SfuOp::LG2:
    around(0x3f800000u); // 1
    around(0x3f000000u); // 0.5
    around(0x40000000u); // 2
    for (int e = 1; e < 255; e += 11)
      around(bitsOf(false, e, 0));
    for (uint32_t k = 1; k < 64; k += 3)
      around(bitsOf(false, 127, k << 17));
    for (uint32_t k = 1; k < 64; k += 3)
      around(bitsOf(false, 126, k << 17));
    break;
  case hls::SfuOp::SIN:
  case hls::SfuOp::COS:
    for (int e = 127 - 32; e <= 127 - 10; ++e) // small-argument thresholds (2^-12, 2^-30)
      around(bitsOf(false, e, 0));
    // Nearest floats to multiples of pi/4 and pi/2 (quadrant and octant boundaries).
    for (uint32_t x : {0x3f490fdbu, 0x3fc90fdbu, 0x40490fdbu, 0x4096cbe4u, 0x40c90fdbu, 0x40fb53d1u,
                       0x41490fdbu, 0x42c90fdbu, 0x43c90fdbu, 0x44c90fdbu, 0x46c90fdbu, 0x4b490fdbu,
                       0x4cc90fdbu, 0x5e490fdbu, 0x7e490fdbu})
      around(x);
    // Segment boundaries of the first quadrant: x = 2 pi j / 256.
    for (uint32_t x : {0x3cc90fdbu, 0x3d490fdbu, 0x3d96cbe4u, 0x3dc90fdbu, 0x3e490fdbu})
      around(x);
    for (int e = 127 - 12; e < 255; e += 9)
      around(bitsOf(false, e, 0x123456u));
    break;
  case hls::SfuOp::TANH:
    around(0x41180000u); // 9.5: rounds to 1 from here on
    // Every binade of the table (2^-12 to 8) and its neighbours, at each segment boundary of
    // the finest cut (32 segments a binade) and the binade's ends.
    for (int e = 127 + hls::sfu::kTanhMinExp - 2; e <= 127 + hls::sfu::kTanhMaxExp + 1; ++e) {
      for (uint32_t k = 0; k < 32; ++k)
        around(bitsOf(false, e, k << 18));
      around(bitsOf(false, e, 0x7fffffu));
    }
    break;
  default:
    break;
  }
  return v;
}

// Every exponent with edge significands (zero, one, all ones, top bit, top six bits set).
std::vector<uint32_t> sweep() {
  std::vector<uint32_t> v;
  static constexpr uint32_t kFrac[] = {0x000000u, 0x000001u, 0x7fffffu, 0x400000u,
                                       0x7e0000u, 0x01ffffu, 0x020000u, 0x555555u};
  for (int e = 0; e < 256; ++e) {
    for (uint32_t f : kFrac) {
      v.push_back(bitsOf(false, e, f));
      v.push_back(bitsOf(true, e, f));
    }
  }
  return v;
}

// A random operand, mostly from the range where `fn` computes (not a special result).
uint32_t randomOperand(Rng &rng, hls::SfuOp fn) {
  if (rng.chance(25))
    return rng.f32();
  const uint32_t frac = rng.u32() & 0x7fffffu;
  const bool sign = rng.chance(50);
  switch (fn) {
  case hls::SfuOp::EX2:
    if (rng.chance(20)) // subnormal and underflowing results
      return bitsOf(true, 127 + 7, rng.u32() & 0x7fffffu);
    return bitsOf(sign, 127 - 41 + static_cast<int>(rng.below(49)), frac);
  case hls::SfuOp::LG2:
    if (rng.chance(30)) // near 1
      return bitsOf(false, 126 + static_cast<int>(rng.below(2)),
                    rng.chance(50) ? (rng.u32() & 0x3ffu) : (0x7fffffu - (rng.u32() & 0x3ffu)));
    return rng.chance(10) ? (rng.u32() & 0x7fffffu) : (rng.u32() & 0x7fffffffu);
  case hls::SfuOp::TANH: // the table's range, 2^-12 <= |x| < 16, and a little below
    if (rng.chance(5))
      return (sign ? 0x80000000u : 0u) | frac; // subnormal: passes through
    return bitsOf(sign, 127 + hls::sfu::kTanhMinExp - 2 + static_cast<int>(rng.below(18)), frac);
  case hls::SfuOp::SIN:
  case hls::SfuOp::COS:
    if (rng.chance(60))
      return bitsOf(sign, 127 - 31 + static_cast<int>(rng.below(40)), frac);
    return bitsOf(sign, 127 + static_cast<int>(rng.below(128)), frac);
  default: // rcp, rsq, sqrt: any finite value, subnormals often
    if (rng.chance(15))
      return (sign ? 0x80000000u : 0u) | frac;
    return (rng.u32() & 0x7fffffffu) |
           (rng.chance(fn == hls::SfuOp::RCP ? 50 : 10) ? 0x80000000u : 0u);
  }
}

class SfuBench : public OpBench<Vwf_sfu, Txn> {
public:
  SfuBench(Vwf_sfu &top, const wf::rtl::SimOptions &o)
      : OpBench(top, "wf_sfu", o, kLanes, std::size(kFns)) {
    std::vector<uint32_t> common = commonEdges();
    const std::vector<uint32_t> sw = sweep();
    common.insert(common.end(), sw.begin(), sw.end());
    for (hls::SfuOp fn : kFns) {
      std::vector<uint32_t> ops = common;
      const std::vector<uint32_t> own = fnEdges(fn);
      ops.insert(ops.end(), own.begin(), own.end());
      for (unsigned ftz = 0; ftz < 2; ++ftz) {
        Txn t;
        t.inst = Inst(Opcode::MUFU).mod("fn", static_cast<uint64_t>(fn)).mod("ftz", ftz);
        // Rotate the operands over the lanes so that each lane sees every value.
        add_directed(t, ops.size(),
                     [&](Txn &t, unsigned l, size_t i) { t.a[l] = ops[(i + ftz) % ops.size()]; });
      }
    }
  }

protected:
  Txn random_txn(unsigned k) override {
    Txn t;
    const hls::SfuOp fn = kFns[k];
    t.inst = Inst(Opcode::MUFU).mod("fn", static_cast<uint64_t>(fn)).mod("ftz", rng_.below(2));
    for (unsigned l = 0; l < kLanes; ++l)
      t.a[l] = randomOperand(rng_, fn);
    return t;
  }

  void expect(Txn &t) const override {
    const bool ftz = t.inst.get_mod("ftz") != 0;
    for (unsigned l = 0; l < kLanes; ++l)
      t.res[l] = hls::sfu32(fnOf(t.inst), t.a[l], ftz);
  }

  void apply_lane(Vwf_sfu &top, const Txn &t, unsigned l) override {
    set_lane32(top.a_i, l, t.a[l]);
  }

  bool check_lane(const Vwf_sfu &top, const Txn &t, unsigned l) override {
    const uint32_t res = get_lane32(top.res_o, l);
    if (res == t.res[l])
      return true;
    log_.report("wf_sfu: MUFU.%s%s lane %u a=%08x: %08x, expected %08x\n",
                kFnNames[static_cast<unsigned>(fnOf(t.inst))], t.inst.get_mod("ftz") ? ".FTZ" : "",
                l, t.a[l], res, t.res[l]);
    return false;
  }

  std::string key(const Txn &t) const override {
    return std::string(kFnNames[static_cast<unsigned>(fnOf(t.inst))]);
  }
};

} // namespace

int main(int argc, char **argv) { return run_bench<Vwf_sfu, SfuBench>(argc, argv, "wf_sfu"); }

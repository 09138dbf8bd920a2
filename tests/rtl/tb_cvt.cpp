// wf_cvt against hls/ (cvtFloatToFloat, cvtFloatToInt, cvtIntToFloat, cvtIntToInt), bit for bit
// on all 64 result bits: every CVT opcode with every combination of its types, rounding modes and
// flags on the edge values of the source type (zeros, subnormals, the normal edge, one, the
// largest finite value, infinities, NaNs, halves for rounding ties, integer saturation bounds),
// then --vectors random operand sets per opcode aimed at the boundaries of the destination
// (overflow and subnormal range of a narrower format, integer ranges) as well as uniform bits.
// The bits of ra/ra+1 above the source type are random: the unit must ignore them. Random
// bubbles and back-to-back issue; latency from the ISA table.
#include "Vwf_cvt.h"
#include "common/tb_op_bench.h"
#include "warpforge/hls/convert.h"

#include <array>
#include <iterator>
#include <string>
#include <vector>

namespace {

using wf::isa::Opcode;
using namespace wf::rtl::tb;
namespace hls = wf::hls;

constexpr unsigned kLanes = WF_LANES;

struct Txn {
  Inst inst{Opcode::F2F};
  std::array<uint64_t, kLanes> a{};
  std::array<uint64_t, kLanes> res{};
};

const Opcode kOps[] = {Opcode::F2F, Opcode::F2I, Opcode::I2F, Opcode::I2I};

// Float formats by the ISA's FltType encoding (F16, F32, F64, BF16).
struct Fmt {
  unsigned exp_bits, frac_bits, width;
  int bias;
};
constexpr Fmt kFmt[] = {{5, 10, 16, 15}, {8, 23, 32, 127}, {11, 52, 64, 1023}, {8, 7, 16, 127}};

unsigned int_bits(unsigned t) { return 8u << (t >> 1); }

uint64_t reference(const Inst &inst, uint64_t a) {
  switch (inst.op()) {
  case Opcode::F2F: {
    const auto src = static_cast<hls::FloatType>(inst.get_mod("src"));
    const auto dst = static_cast<hls::FloatType>(inst.get_mod("dst"));
    const unsigned r = static_cast<unsigned>(inst.get_mod("rnd"));
    uint64_t x = src == hls::FloatType::F64 ? a : (a & 0xffffffffull);
    if (src == hls::FloatType::F16 || src == hls::FloatType::BF16)
      x &= 0xffff;
    return hls::cvtFloatToFloat(x, src, dst, static_cast<hls::RoundMode>(r & 3), r >= 4,
                                inst.get_mod("ftz"), inst.get_mod("sat"));
  }
  case Opcode::F2I: {
    const auto src = static_cast<hls::FloatType>(inst.get_mod("src"));
    const auto dst = static_cast<hls::IntType>(inst.get_mod("dst"));
    uint64_t x = src == hls::FloatType::F64 ? a : (a & 0xffffffffull);
    if (src == hls::FloatType::F16 || src == hls::FloatType::BF16)
      x &= 0xffff;
    return hls::cvtFloatToInt(x, src, dst, static_cast<hls::RoundMode>(inst.get_mod("rnd")),
                              inst.get_mod("ftz"));
  }
  case Opcode::I2F: {
    const auto src = static_cast<hls::IntType>(inst.get_mod("src"));
    const uint64_t x = hls::intTypeBits(src) == 64 ? a : (a & 0xffffffffull);
    return hls::cvtIntToFloat(x, src, static_cast<hls::FloatType>(inst.get_mod("dst")),
                              static_cast<hls::RoundMode>(inst.get_mod("rnd")));
  }
  case Opcode::I2I: {
    const auto src = static_cast<hls::IntType>(inst.get_mod("src"));
    const uint64_t x = hls::intTypeBits(src) == 64 ? a : (a & 0xffffffffull);
    return hls::cvtIntToInt(x, src, static_cast<hls::IntType>(inst.get_mod("dst")),
                            inst.get_mod("sat"));
  }
  default:
    return 0;
  }
}

// Edge values of a float format: signed zeros, smallest/largest subnormals, the normal edge,
// one and its neighbours, halves (ties for integral rounding), the largest finite value,
// infinities, quiet and signaling NaNs, and values at the 8/16/32/64-bit integer bounds.
std::vector<uint64_t> float_edges(const Fmt &f) {
  const uint64_t frac_mask = (1ull << f.frac_bits) - 1;
  const uint64_t exp_all = (1ull << f.exp_bits) - 1;
  auto make = [&](uint64_t e, uint64_t frac) { return (e << f.frac_bits) | (frac & frac_mask); };
  const uint64_t one = static_cast<uint64_t>(f.bias);
  const uint64_t top = 1ull << (f.frac_bits - 1); // the fraction's msb
  std::vector<uint64_t> v = {
      make(0, 0),           make(0, 1),          make(0, frac_mask),   make(0, top),
      make(1, 0),           make(1, 1),          make(one, 0),         make(one, 1),
      make(one - 1, frac_mask), make(one - 1, 0), make(one - 2, 0),   make(one - 1, top | 1),
      make(one, top),       make(one + 1, top),  make(one + 1, top >> 1),
      make(exp_all - 1, frac_mask), make(exp_all - 1, 0), make(exp_all, 0), make(exp_all, top),
      make(exp_all, 1),     make(exp_all, frac_mask)};
  for (unsigned b : {7u, 8u, 15u, 16u, 31u, 32u, 63u, 64u}) {
    const uint64_t e = one + b;
    if (e < exp_all) {
      v.push_back(make(e, 0));
      v.push_back(make(e - 1, frac_mask));
      v.push_back(make(e - 1, frac_mask & ~1ull));
    }
  }
  const size_t n = v.size();
  const uint64_t sign = 1ull << (f.width - 1);
  for (size_t i = 0; i < n; ++i)
    v.push_back(v[i] | sign);
  return v;
}

std::vector<uint64_t> int_edges() {
  std::vector<uint64_t> v = {0, 1, 2, 3, ~0ull, ~1ull};
  for (unsigned b : {7u, 8u, 11u, 15u, 16u, 24u, 25u, 31u, 32u, 53u, 54u, 63u}) {
    const uint64_t p = 1ull << b;
    v.insert(v.end(), {p, p - 1, p + 1, 0 - p, 0 - p - 1, 0 - p + 1});
  }
  // Ties and near-ties for rounding to 11, 24 and 53 bits.
  v.insert(v.end(), {0x1001ull, 0x1003ull, 0x1000001ull, 0x1000003ull, 0x20000000000001ull,
                     0x20000000000003ull, 0xfffffffffffff800ull, 0x7ffffffffffffc00ull,
                     0x7ffffe00ull, 0xfff0ull});
  return v;
}

class CvtBench : public OpBench<Vwf_cvt, Txn> {
public:
  CvtBench(Vwf_cvt &top, const wf::rtl::SimOptions &o)
      : OpBench(top, "wf_cvt", o, kLanes, std::size(kOps)) {
    // Every combination of each opcode's modifiers.
    for (Opcode op : kOps)
      variants_.push_back(mod_variants({Inst(op)}));
    std::vector<uint64_t> fedge[4];
    for (unsigned f = 0; f < 4; ++f)
      fedge[f] = float_edges(kFmt[f]);
    const std::vector<uint64_t> iedge = int_edges();
    // Directed: every modifier combination on every edge value of its source type.
    for (size_t k = 0; k < variants_.size(); ++k) {
      for (const Inst &inst : variants_[k]) {
        const bool float_src = kOps[k] == Opcode::F2F || kOps[k] == Opcode::F2I;
        const auto &edges = float_src ? fedge[inst.get_mod("src")] : iedge;
        Txn t;
        t.inst = inst;
        add_directed(t, edges.size(), [&](Txn &t, unsigned l, size_t i) { t.a[l] = edges[i]; });
      }
    }
  }

protected:
  // A float of format f: edges, subnormals, values in [2^-8, 2^72) (integral rounding, integer
  // conversions; sparse fractions make exact ties), values near the range limits of format d,
  // and uniform bits.
  uint64_t gen_float(const Fmt &f, const Fmt &d) {
    const uint64_t frac_mask = (1ull << f.frac_bits) - 1;
    const uint64_t exp_all = (1ull << f.exp_bits) - 1;
    const uint64_t sign = rng_.chance(50) ? 1ull << (f.width - 1) : 0;
    uint64_t frac = rng_.u64() & frac_mask;
    if (rng_.chance(40)) { // sparse: a few bits, often a tie at some rounding position
      frac = 0;
      for (unsigned i = rng_.below(4); i > 0; --i)
        frac |= 1ull << rng_.below(f.frac_bits);
    }
    auto clamp_exp = [&](long e) {
      return static_cast<uint64_t>(e < 0 ? 0 : (e >= static_cast<long>(exp_all) ? exp_all - 1 : e));
    };
    switch (rng_.below(8)) {
    case 0: {
      const auto v = float_edges(f);
      return v[rng_.below(static_cast<uint32_t>(v.size()))];
    }
    case 1:
      return sign | frac; // subnormal (or zero)
    case 2:
    case 3:
      return sign | (clamp_exp(f.bias - 8 + static_cast<long>(rng_.below(80))) << f.frac_bits) |
             frac;
    case 4: // around the largest exponent of d
      return sign |
             (clamp_exp(f.bias + d.bias - 3 + static_cast<long>(rng_.below(6))) << f.frac_bits) |
             frac;
    case 5: // around and below the smallest normal exponent of d
      return sign |
             (clamp_exp(f.bias + 1 - d.bias - static_cast<long>(d.frac_bits) - 3 +
                        static_cast<long>(rng_.below(d.frac_bits + 8)))
              << f.frac_bits) |
             frac;
    default:
      return rng_.u64() & (f.width == 64 ? ~0ull : (1ull << f.width) - 1);
    }
  }

  // An integer: edges, small and sign-extended values, sparse bit patterns (rounding ties), or
  // uniform bits.
  uint64_t gen_int() {
    switch (rng_.below(5)) {
    case 0: {
      static const std::vector<uint64_t> v = int_edges();
      return v[rng_.below(static_cast<uint32_t>(v.size()))];
    }
    case 1: {
      uint64_t x = 0;
      for (unsigned i = 1 + rng_.below(3); i > 0; --i)
        x |= 1ull << rng_.below(64);
      return rng_.chance(50) ? x : 0 - x;
    }
    default:
      return rng_.int64();
    }
  }

  Txn random_txn(unsigned k) override {
    Txn t;
    const auto &v = variants_[k];
    t.inst = v[rng_.below(static_cast<uint32_t>(v.size()))];
    for (unsigned l = 0; l < kLanes; ++l) {
      const uint64_t junk = rng_.u64();
      switch (kOps[k]) {
      case Opcode::F2F:
      case Opcode::F2I: {
        const Fmt &src = kFmt[t.inst.get_mod("src")];
        // Destination range for F2F; for F2I aim at 2^(width) as the "overflow" edge.
        const Fmt dst = kOps[k] == Opcode::F2F
                            ? kFmt[t.inst.get_mod("dst")]
                            : Fmt{0, 0, 0, static_cast<int>(int_bits(t.inst.get_mod("dst")))};
        const uint64_t x = gen_float(src, dst);
        const uint64_t keep = src.width == 64 ? ~0ull : (1ull << src.width) - 1;
        t.a[l] = (x & keep) | (junk & ~keep);
        break;
      }
      default: {
        const unsigned bits = int_bits(t.inst.get_mod("src"));
        const uint64_t keep = bits == 64 ? ~0ull : (1ull << bits) - 1;
        t.a[l] = (gen_int() & keep) | (junk & ~keep);
        break;
      }
      }
    }
    return t;
  }

  void expect(Txn &t) const override {
    for (unsigned l = 0; l < kLanes; ++l)
      t.res[l] = reference(t.inst, t.a[l]);
  }

  void apply_lane(Vwf_cvt &top, const Txn &t, unsigned l) override {
    set_lane32(top.a_i, l, static_cast<uint32_t>(t.a[l]));
    set_lane32(top.a_hi_i, l, static_cast<uint32_t>(t.a[l] >> 32));
  }

  bool check_lane(const Vwf_cvt &top, const Txn &t, unsigned l) override {
    const uint64_t res =
        get_lane32(top.res_o, l) | (static_cast<uint64_t>(get_lane32(top.res_hi_o, l)) << 32);
    if (res == t.res[l])
      return true;
    log_.report("wf_cvt: %s inst=%016llx lane %u a=%016llx: %016llx, expected %016llx\n",
                std::string(t.inst.name()).c_str(), static_cast<unsigned long long>(t.inst.word()),
                l, static_cast<unsigned long long>(t.a[l]), static_cast<unsigned long long>(res),
                static_cast<unsigned long long>(t.res[l]));
    return false;
  }

private:
  std::vector<std::vector<Inst>> variants_;
};

} // namespace

int main(int argc, char **argv) { return run_bench<Vwf_cvt, CvtBench>(argc, argv, "wf_cvt"); }

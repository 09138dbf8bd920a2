// wf_dfma against hls/ (fadd64, fmul64, ffma64, fmin64/fmax64, fcmp64), bit for bit: every
// FP64-unit opcode with every modifier combination on the IEEE edge classes (directed), then
// --vectors random operand sets per opcode with edge classes, sparse significands (exact ties),
// products near the underflow and overflow edges and near-cancelling addends; random bubbles,
// back-to-back issue and, for the Iterative form, stalls while ready_o is low; latency from the
// ISA table.
#include "Vwf_dfma.h"
#include "common/tb_op_bench.h"
#include "warpforge/hls/fp64.h"

#include <array>
#include <iterator>
#include <string>
#include <vector>

namespace {

using wf::isa::Opcode;
using namespace wf::rtl::tb;
namespace hls = wf::hls;

constexpr unsigned kLanes = WF_LANES;
constexpr uint64_t kSign = 0x8000000000000000ull;

struct Txn {
  Inst inst{Opcode::DFMA};
  std::array<uint64_t, kLanes> a{}, b{}, c{};
  std::array<bool, kLanes> pc{};
  std::array<uint64_t, kLanes> res{};
  std::array<bool, kLanes> pred{};
};

const Opcode kOps[] = {Opcode::DADD, Opcode::DMUL, Opcode::DFMA, Opcode::DMNMX, Opcode::DSETP};

uint64_t mods(const Inst &inst, uint64_t x, const char *neg, const char *abs) {
  if (abs && inst.has_mod(abs) && inst.get_mod(abs))
    x &= ~kSign;
  if (neg && inst.has_mod(neg) && inst.get_mod(neg))
    x ^= kSign;
  return x;
}

void reference(const Inst &inst, uint64_t a, uint64_t b, uint64_t c, bool pc, uint64_t &res,
               bool &pred) {
  const auto rm =
      inst.has_mod("rnd") ? static_cast<hls::RoundMode>(inst.get_mod("rnd")) : hls::RoundMode::RN;
  res = 0;
  pred = false;
  switch (inst.op()) {
  case Opcode::DADD:
    res = hls::fadd64(mods(inst, a, "nega", "absa"), mods(inst, b, "negb", "absb"), rm);
    break;
  case Opcode::DMUL:
    res = hls::fmul64(mods(inst, a, "nega", "absa"), mods(inst, b, "negb", "absb"), rm);
    break;
  case Opcode::DFMA:
    res = hls::ffma64(mods(inst, a, "nega", nullptr), mods(inst, b, "negb", nullptr),
                      mods(inst, c, "negc", nullptr), rm);
    break;
  case Opcode::DMNMX: {
    const bool nan = inst.get_mod("nan");
    res = inst.get_mod("fn") ? hls::fmax64(a, b, nan) : hls::fmin64(a, b, nan);
    break;
  }
  case Opcode::DSETP: {
    const bool neg = (inst.get_operand("pc") >> 4) & 1;
    const bool cmp = hls::fcmp64(a, b, static_cast<hls::FCmp>(inst.get_mod("cmp")));
    const bool p = pc ^ neg;
    switch (inst.get_mod("bop")) {
    case 0:
      pred = cmp && p;
      break;
    case 1:
      pred = cmp || p;
      break;
    default:
      pred = cmp != p;
      break;
    }
    break;
  }
  default:
    break;
  }
}

// Every combination of the opcode's modifiers; DSETP also with its pc operand plain and negated.
std::vector<Inst> variants(Opcode op) {
  std::vector<Inst> bases{Inst(op)};
  if (op == Opcode::DSETP)
    bases.push_back(Inst(op).operand("pc", 0x10 | 3));
  return mod_variants(std::move(bases));
}

class DfmaBench : public OpBench<Vwf_dfma, Txn> {
public:
  DfmaBench(Vwf_dfma &top, const wf::rtl::SimOptions &o)
      : OpBench(top, "wf_dfma", o, kLanes, std::size(kOps)) {
    for (Opcode op : kOps)
      variants_.push_back(variants(op));
    // Directed: each modifier combination on pairs of the edge classes (zeros, the smallest and
    // largest subnormals, the smallest normal, one and its neighbours, the largest finite value,
    // infinities, quiet and signaling NaNs, 2^-53 and an odd integer for rounding ties).
    static constexpr uint64_t kEdge[] = {
        0x0000000000000000ull, 0x8000000000000000ull, 0x0000000000000001ull,
        0x800fffffffffffffull, 0x0010000000000000ull, 0x3ff0000000000000ull,
        0xbff0000000000000ull, 0x7fefffffffffffffull, 0xfff0000000000000ull,
        0x7ff0000000000000ull, 0x7ff8000000000001ull, 0xfff0000000000001ull,
        0x3ca0000000000000ull, 0x4330000000000001ull, 0x3ff0000000000001ull,
        0x0360000000000000ull, 0x2000000000000000ull, 0x5fe0000000000001ull};
    for (size_t k = 0; k < variants_.size(); ++k) {
      for (const Inst &inst : variants_[k]) {
        // All (a, b) edge pairs for the default modifiers; every seventh of them for the other
        // modifier sets.
        add_edge_pairs(inst, kEdge, inst.word() == Inst(kOps[k]).word() ? 1 : 7);
      }
    }
  }

protected:
  Txn random_txn(unsigned k) override {
    Txn t;
    const auto &v = variants_[k];
    t.inst = v[rng_.below(static_cast<uint32_t>(v.size()))];
    for (unsigned l = 0; l < kLanes; ++l) {
      t.a[l] = rng_.f64();
      t.b[l] = rng_.chance(15) ? rng_.f64_near(t.a[l]) : rng_.f64();
      t.c[l] = rng_.f64();
      t.pc[l] = rng_.chance(50);
      if (kOps[k] == Opcode::DFMA && rng_.chance(30)) {
        // An addend that (nearly) cancels the product.
        t.c[l] = rng_.f64_near(hls::fmul64(t.a[l], t.b[l], hls::RoundMode::RZ));
      }
    }
    return t;
  }

  void expect(Txn &t) const override {
    for (unsigned l = 0; l < kLanes; ++l)
      reference(t.inst, t.a[l], t.b[l], t.c[l], t.pc[l], t.res[l], t.pred[l]);
  }

  void apply_lane(Vwf_dfma &top, const Txn &t, unsigned l) override {
    set_lane32(top.a_i, l, static_cast<uint32_t>(t.a[l]));
    set_lane32(top.a_hi_i, l, static_cast<uint32_t>(t.a[l] >> 32));
    set_lane32(top.b_i, l, static_cast<uint32_t>(t.b[l]));
    set_lane32(top.b_hi_i, l, static_cast<uint32_t>(t.b[l] >> 32));
    set_lane32(top.c_i, l, static_cast<uint32_t>(t.c[l]));
    set_lane32(top.c_hi_i, l, static_cast<uint32_t>(t.c[l] >> 32));
    set_bit(top.pc_i, l, t.pc[l]);
  }

  bool check_lane(const Vwf_dfma &top, const Txn &t, unsigned l) override {
    const uint64_t res =
        get_lane32(top.res_o, l) | (static_cast<uint64_t>(get_lane32(top.res_hi_o, l)) << 32);
    const bool pred = get_bit(top.pred_o, l);
    if (t.inst.op() == Opcode::DSETP ? pred == t.pred[l] : res == t.res[l])
      return true;
    log_.report("wf_dfma: %s inst=%016llx lane %u a=%016llx b=%016llx c=%016llx pc=%d: "
                "%016llx/%d, expected %016llx/%d\n",
                std::string(t.inst.name()).c_str(), static_cast<unsigned long long>(t.inst.word()),
                l, static_cast<unsigned long long>(t.a[l]), static_cast<unsigned long long>(t.b[l]),
                static_cast<unsigned long long>(t.c[l]), t.pc[l],
                static_cast<unsigned long long>(res), pred,
                static_cast<unsigned long long>(t.res[l]), t.pred[l]);
    return false;
  }

  // The Iterative form accepts an operation only while ready_o is high.
  bool can_issue() const override { return top_.ready_o != 0; }

private:
  std::vector<std::vector<Inst>> variants_;
};

} // namespace

int main(int argc, char **argv) { return run_bench<Vwf_dfma, DfmaBench>(argc, argv, "wf_dfma"); }

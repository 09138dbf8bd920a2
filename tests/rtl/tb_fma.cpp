// wf_fma against hls/ (ffma32, fadd32, fmul32, fsat32, fmin32/fmax32, fcmp32), bit for bit:
// every FMA-unit opcode with every modifier combination on the IEEE edge classes (directed), then
// --vectors random operand sets per opcode with edge classes, sparse significands (exact ties)
// and near-cancelling addends; random bubbles and back-to-back issue; latency from the ISA table.
#include "Vwf_fma.h"
#include "common/tb_op_bench.h"
#include "warpforge/hls/fp32.h"

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
  Inst inst{Opcode::FFMA};
  std::array<uint32_t, kLanes> a{}, b{}, c{};
  std::array<bool, kLanes> pc{};
  std::array<uint32_t, kLanes> res{};
  std::array<bool, kLanes> pred{};
};

const Opcode kOps[] = {Opcode::FADD, Opcode::FADD_I, Opcode::FMUL, Opcode::FMUL_I,
                       Opcode::FFMA, Opcode::FMNMX,  Opcode::FSETP};

uint32_t mods(const Inst &inst, uint32_t x, const char *neg, const char *abs) {
  if (abs && inst.has_mod(abs) && inst.get_mod(abs))
    x &= 0x7fffffffu;
  if (neg && inst.has_mod(neg) && inst.get_mod(neg))
    x ^= 0x80000000u;
  return x;
}

void reference(const Inst &inst, uint32_t a, uint32_t b, uint32_t c, bool pc, uint32_t &res,
               bool &pred) {
  const auto rm =
      inst.has_mod("rnd") ? static_cast<hls::RoundMode>(inst.get_mod("rnd")) : hls::RoundMode::RN;
  const bool ftz = inst.has_mod("ftz") && inst.get_mod("ftz");
  const bool sat = inst.has_mod("sat") && inst.get_mod("sat");
  res = 0;
  pred = false;
  switch (inst.op()) {
  case Opcode::FADD:
  case Opcode::FADD_I:
    res = hls::fadd32(mods(inst, a, "nega", "absa"), mods(inst, b, "negb", "absb"), rm, ftz);
    break;
  case Opcode::FMUL:
  case Opcode::FMUL_I:
    res = hls::fmul32(mods(inst, a, "nega", "absa"), mods(inst, b, "negb", "absb"), rm, ftz);
    break;
  case Opcode::FFMA:
    res = hls::ffma32(mods(inst, a, "nega", nullptr), mods(inst, b, "negb", nullptr),
                      mods(inst, c, "negc", nullptr), rm, ftz);
    break;
  case Opcode::FMNMX: {
    const bool nan = inst.get_mod("nan");
    res = inst.get_mod("fn") ? hls::fmax32(a, b, ftz, nan) : hls::fmin32(a, b, ftz, nan);
    break;
  }
  case Opcode::FSETP: {
    const bool neg = (inst.get_operand("pc") >> 4) & 1;
    const bool cmp = hls::fcmp32(a, b, static_cast<hls::FCmp>(inst.get_mod("cmp")), ftz);
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
  if (sat)
    res = hls::fsat32(res);
}

class FmaBench : public OpBench<Vwf_fma, Txn> {
public:
  FmaBench(Vwf_fma &top, const wf::rtl::SimOptions &o)
      : OpBench(top, "wf_fma", o, kLanes, std::size(kOps)) {
    // Every combination of each opcode's modifiers.
    for (Opcode op : kOps)
      variants_.push_back(mod_variants({Inst(op)}));
    // Directed: each modifier combination on pairs of the edge classes.
    static constexpr uint32_t kEdge[] = {0x00000000u, 0x80000000u, 0x00000001u, 0x807fffffu,
                                         0x00800000u, 0x3f800000u, 0xbf800000u, 0x7f7fffffu,
                                         0xff800000u, 0x7f800000u, 0x7fc00001u, 0xff800001u,
                                         0x33800000u, 0x4b000001u, 0x3f800001u, 0x0c800000u};
    for (size_t k = 0; k < variants_.size(); ++k) {
      for (const Inst &inst : variants_[k]) {
        // Every (a, b) edge pair for two-operand forms is too many for FSETP x 14 x 3 x 2 and
        // the FMA forms' 2^7 modifier sets; cover all pairs for the default modifiers and every
        // seventh pair for the others.
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
      t.a[l] = rng_.f32();
      t.b[l] = rng_.chance(15) ? rng_.f32_near(t.a[l]) : rng_.f32();
      t.c[l] = rng_.f32();
      t.pc[l] = rng_.chance(50);
      if (kOps[k] == Opcode::FFMA && rng_.chance(30)) {
        // An addend that (nearly) cancels the product.
        t.c[l] = rng_.f32_near(hls::fmul32(t.a[l], t.b[l], hls::RoundMode::RZ, false));
      }
    }
    return t;
  }

  void expect(Txn &t) const override {
    for (unsigned l = 0; l < kLanes; ++l)
      reference(t.inst, t.a[l], t.b[l], t.c[l], t.pc[l], t.res[l], t.pred[l]);
  }

  void apply_lane(Vwf_fma &top, const Txn &t, unsigned l) override {
    set_lane32(top.a_i, l, t.a[l]);
    set_lane32(top.b_i, l, t.b[l]);
    set_lane32(top.c_i, l, t.c[l]);
    set_bit(top.pc_i, l, t.pc[l]);
  }

  bool check_lane(const Vwf_fma &top, const Txn &t, unsigned l) override {
    const uint32_t res = get_lane32(top.res_o, l);
    const bool pred = get_bit(top.pred_o, l);
    if (t.inst.op() == Opcode::FSETP ? pred == t.pred[l] : res == t.res[l])
      return true;
    log_.report("wf_fma: %s inst=%016llx lane %u a=%08x b=%08x c=%08x pc=%d: %08x/%d, "
                "expected %08x/%d\n",
                std::string(t.inst.name()).c_str(), static_cast<unsigned long long>(t.inst.word()),
                l, t.a[l], t.b[l], t.c[l], t.pc[l], res, pred, t.res[l], t.pred[l]);
    return false;
  }

private:
  std::vector<std::vector<Inst>> variants_;
};

} // namespace

int main(int argc, char **argv) { return run_bench<Vwf_fma, FmaBench>(argc, argv, "wf_fma"); }

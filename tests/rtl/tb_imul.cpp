// wf_imul against the multiply reference: every IMUL-unit opcode and type on edge operands, then
// --vectors random operand sets per opcode; latency checked against the ISA table.
#include "Vwf_imul.h"
#include "common/tb_op_bench.h"
#include "warpforge/hls/intops.h"

#include <array>
#include <iterator>
#include <string>
#include <vector>

namespace {

using wf::isa::Opcode;
using namespace wf::rtl::tb;

constexpr unsigned kLanes = WF_LANES;

struct Txn {
  Inst inst{Opcode::IMUL};
  std::array<uint32_t, kLanes> a{}, b{}, c{}, c_hi{};
  std::array<uint64_t, kLanes> expect{};
  bool wide = false;
};

const Opcode kOps[] = {Opcode::IMUL, Opcode::IMUL_I, Opcode::IMULHI,  Opcode::IMULWIDE,
                       Opcode::IMAD, Opcode::IMADHI, Opcode::IMADWIDE};

// Reference: hls/intops.h (mulLo32, mulHi32, mulWide32); the multiply-adds add in the ISA's
// width (IMADHI: high word + rc, mod 2^32; IMADWIDE: 64-bit product + the pair rc).
uint64_t reference(const Inst &inst, uint32_t a, uint32_t b, uint32_t c, uint32_t c_hi) {
  namespace hls = wf::hls;
  const bool is_signed = inst.has_mod("ty") ? inst.get_mod("ty") == 0 : false;
  switch (inst.op()) {
  case Opcode::IMUL:
  case Opcode::IMUL_I:
    return hls::mulLo32(a, b);
  case Opcode::IMULHI:
    return hls::mulHi32(a, b, is_signed);
  case Opcode::IMULWIDE:
    return hls::mulWide32(a, b, is_signed);
  case Opcode::IMAD:
    return hls::addc32(hls::mulLo32(a, b), c, false).value;
  case Opcode::IMADHI:
    return hls::addc32(hls::mulHi32(a, b, is_signed), c, false).value;
  case Opcode::IMADWIDE:
    return hls::addc64(hls::mulWide32(a, b, is_signed), (static_cast<uint64_t>(c_hi) << 32) | c,
                       false)
        .value;
  default:
    return 0;
  }
}

class ImulBench : public OpBench<Vwf_imul, Txn> {
public:
  ImulBench(Vwf_imul &top, const wf::rtl::SimOptions &o)
      : OpBench(top, "wf_imul", o, kLanes, std::size(kOps)) {
    static constexpr uint32_t kEdge[] = {0u,          1u,          2u,          0xffffffffu,
                                         0x7fffffffu, 0x80000000u, 0x80000001u, 0x0001ffffu,
                                         0x00020000u, 0xfffe0000u, 0x12345678u, 0xdeadbeefu};
    for (Opcode op : kOps) {
      for (unsigned ty = 0; ty < 2; ++ty) {
        Inst inst(op);
        if (inst.has_mod("ty"))
          inst.mod("ty", ty);
        else if (ty)
          continue;
        std::vector<std::array<uint32_t, 4>> sets;
        for (uint32_t x : kEdge) {
          for (uint32_t y : kEdge)
            sets.push_back({x, y, x ^ y, ~x});
        }
        // Whole transactions only: the last one wraps around to the first sets.
        Txn t;
        t.inst = inst;
        add_directed(t, (sets.size() + kLanes - 1) / kLanes * kLanes,
                     [&](Txn &t, unsigned l, size_t i) {
                       const auto &s = sets[i % sets.size()];
                       t.a[l] = s[0], t.b[l] = s[1], t.c[l] = s[2], t.c_hi[l] = s[3];
                     });
      }
    }
  }

protected:
  Txn random_txn(unsigned k) override {
    Txn t;
    t.inst = Inst(kOps[k]);
    if (t.inst.has_mod("ty"))
      t.inst.mod("ty", rng_.below(2));
    for (unsigned l = 0; l < kLanes; ++l) {
      t.a[l] = rng_.int32();
      t.b[l] = rng_.int32();
      t.c[l] = rng_.int32();
      t.c_hi[l] = rng_.int32();
    }
    return t;
  }

  void expect(Txn &t) const override {
    t.wide = t.inst.op() == Opcode::IMULWIDE || t.inst.op() == Opcode::IMADWIDE;
    for (unsigned l = 0; l < kLanes; ++l)
      t.expect[l] = reference(t.inst, t.a[l], t.b[l], t.c[l], t.c_hi[l]);
  }

  void apply_lane(Vwf_imul &top, const Txn &t, unsigned l) override {
    set_lane32(top.a_i, l, t.a[l]);
    set_lane32(top.b_i, l, t.b[l]);
    set_lane32(top.c_i, l, t.c[l]);
    set_lane32(top.c_hi_i, l, t.c_hi[l]);
  }

  bool check_lane(const Vwf_imul &top, const Txn &t, unsigned l) override {
    const uint64_t got = get_lane32(top.res_o, l) |
                         (t.wide ? static_cast<uint64_t>(get_lane32(top.res_hi_o, l)) << 32 : 0);
    if (got == t.expect[l])
      return true;
    log_.report("wf_imul: %s inst=%016llx lane %u a=%08x b=%08x c=%08x chi=%08x: %016llx, "
                "expected %016llx\n",
                std::string(t.inst.name()).c_str(), static_cast<unsigned long long>(t.inst.word()),
                l, t.a[l], t.b[l], t.c[l], t.c_hi[l], static_cast<unsigned long long>(got),
                static_cast<unsigned long long>(t.expect[l]));
    return false;
  }
};

} // namespace

int main(int argc, char **argv) { return run_bench<Vwf_imul, ImulBench>(argc, argv, "wf_imul"); }

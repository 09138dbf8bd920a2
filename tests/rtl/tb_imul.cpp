// wf_imul against the multiply reference: every IMUL-unit opcode and type on edge operands, then
// --vectors random operand sets per opcode; latency checked against the ISA table.
#include "Vwf_imul.h"
#include "common/tb_util.h"
#include "warpforge/hls/intops.h"

#include <array>
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

class ImulBench : public FixedLatencyBench<Vwf_imul, Txn> {
public:
  ImulBench(Vwf_imul &top, const wf::rtl::SimOptions &o)
      : FixedLatencyBench(top, "wf_imul", o.seed, kLanes), vectors_(o.vectors) {
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
        for (size_t i = 0; i < sets.size(); i += kLanes) {
          Txn t;
          t.inst = inst;
          for (unsigned l = 0; l < kLanes; ++l) {
            const auto &s = sets[(i + l) % sets.size()];
            t.a[l] = s[0], t.b[l] = s[1], t.c[l] = s[2], t.c_hi[l] = s[3];
          }
          directed_.push_back(finish(t));
        }
      }
    }
  }

protected:
  bool next(Txn &t) override {
    if (pos_ < directed_.size()) {
      t = directed_[pos_++];
      return true;
    }
    const uint64_t per_op = (vectors_ + kLanes - 1) / kLanes;
    const uint64_t nops = sizeof(kOps) / sizeof(kOps[0]);
    if (random_ >= per_op * nops)
      return false;
    Inst inst(kOps[random_ % nops]);
    ++random_;
    if (inst.has_mod("ty"))
      inst.mod("ty", rng_.below(2));
    t.inst = inst;
    for (unsigned l = 0; l < kLanes; ++l) {
      t.a[l] = rng_.int32();
      t.b[l] = rng_.int32();
      t.c[l] = rng_.int32();
      t.c_hi[l] = rng_.int32();
    }
    t = finish(t);
    return true;
  }

  void apply(Vwf_imul &top, const Txn &t) override {
    top.inst_i = t.inst.word();
    for (unsigned l = 0; l < kLanes; ++l) {
      set_lane32(top.a_i, l, t.a[l]);
      set_lane32(top.b_i, l, t.b[l]);
      set_lane32(top.c_i, l, t.c[l]);
      set_lane32(top.c_hi_i, l, t.c_hi[l]);
    }
  }

  bool check(const Vwf_imul &top, const Txn &t) override {
    bool ok = true;
    for (unsigned l = 0; l < kLanes; ++l) {
      const uint64_t got = get_lane32(top.res_o, l) |
                           (t.wide ? static_cast<uint64_t>(get_lane32(top.res_hi_o, l)) << 32 : 0);
      if (got != t.expect[l]) {
        ok = false;
        log_.report("wf_imul: %s inst=%016llx lane %u a=%08x b=%08x c=%08x chi=%08x: %016llx, "
                    "expected %016llx\n",
                    std::string(t.inst.name()).c_str(),
                    static_cast<unsigned long long>(t.inst.word()), l, t.a[l], t.b[l], t.c[l],
                    t.c_hi[l], static_cast<unsigned long long>(got),
                    static_cast<unsigned long long>(t.expect[l]));
      }
    }
    return ok;
  }

  unsigned latency(const Txn &t) const override { return latency_of(t.inst.op()); }
  std::string key(const Txn &t) const override { return std::string(t.inst.name()); }

private:
  static Txn finish(Txn t) {
    t.wide = t.inst.op() == Opcode::IMULWIDE || t.inst.op() == Opcode::IMADWIDE;
    for (unsigned l = 0; l < kLanes; ++l) {
      t.expect[l] = reference(t.inst, t.a[l], t.b[l], t.c[l], t.c_hi[l]);
    }
    return t;
  }

  uint64_t vectors_;
  std::vector<Txn> directed_;
  size_t pos_ = 0;
  uint64_t random_ = 0;
};

} // namespace

int main(int argc, char **argv) { return run_bench<Vwf_imul, ImulBench>(argc, argv, "wf_imul"); }

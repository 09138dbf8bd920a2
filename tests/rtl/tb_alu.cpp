// wf_alu and wf_bmu against the integer reference: every opcode of the bench's unit (from the ISA
// table) with every modifier combination on edge operands (directed phase), then --vectors random
// operand sets per opcode, issued with random bubbles and back-to-back bursts; the latency is
// checked to be the ISA table's. Built twice: WF_BENCH_BMU selects the bit-manipulation unit.
#if defined(WF_BENCH_BMU)
#include "Vwf_bmu.h"
#else
#include "Vwf_alu.h"
#endif
#include "common/tb_op_bench.h"
#include "warpforge/hls/intops.h"

#include <array>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace {

using wf::isa::Opcode;
using wf::rtl::SimExtension;
using namespace wf::rtl::tb;
namespace hls = wf::hls;

constexpr unsigned kLanes = WF_LANES;

struct LaneIn {
  uint32_t a = 0, b = 0, c = 0, a_hi = 0, b_hi = 0;
  bool pa = false, pb = false, pc = false;
};

struct Expect {
  Inst inst{Opcode::NOP};
  std::array<LaneIn, kLanes> in{};
  std::array<uint32_t, kLanes> res{};
  std::array<bool, kLanes> pred{};
  bool check_res = true;
  bool check_pred = false;
};

#if defined(WF_BENCH_BMU)
using Top = Vwf_bmu;
constexpr wf::isa::Unit kUnit = wf::isa::Unit::BMU;
constexpr const char *kName = "wf_bmu";
#else
using Top = Vwf_alu;
constexpr wf::isa::Unit kUnit = wf::isa::Unit::ALU;
constexpr const char *kName = "wf_alu";
#endif

// Every opcode the ISA table gives the unit, except those the unit does not execute yet (NOP has
// no result; CVTA and ISSPACEP are not implemented in the RTL ALU: it returns 0 for them).
std::vector<Opcode> unit_ops() {
  std::vector<Opcode> ops;
  for (unsigned code = 0; code < wf::isa::kOps.size(); ++code) {
    const auto &info = wf::isa::kOps[code];
    const auto op = static_cast<Opcode>(code);
    if (!info.valid || info.unit != kUnit)
      continue;
    if (op == Opcode::NOP || op == Opcode::CVTA || op == Opcode::ISSPACEP)
      continue;
    ops.push_back(op);
  }
  return ops;
}

const std::vector<Opcode> kOps = unit_ops();

bool is_pn_operand(Opcode op, const char *name) {
  const auto &info = wf::isa::opInfo(op);
  for (unsigned i = 0; i < info.numOperands; ++i) {
    if (info.operands[i].name == name)
      return info.operands[i].kind == wf::isa::OperandKind::PN;
  }
  return false;
}

// Negation bit of a PN operand (the field's top bit), 0 when the opcode has no such operand.
bool pn_neg(const Inst &inst, const char *name) {
  if (!is_pn_operand(inst.op(), name))
    return false;
  const auto &info = wf::isa::opInfo(inst.op());
  for (unsigned i = 0; i < info.numOperands; ++i) {
    if (info.operands[i].name == name) {
      return (inst.get_operand(name) >> (info.operands[i].field.width - 1)) & 1;
    }
  }
  return false;
}

// The reference (hls/intops.h): one lane of one instruction.
void reference(const Inst &inst, const LaneIn &in, uint32_t &res, bool &pred, bool &check_res,
               bool &check_pred) {
  const uint32_t a = in.a, b = in.b, c = in.c;
  const bool pa = in.pa ^ pn_neg(inst, "pa");
  const bool pb = in.pb ^ pn_neg(inst, "pb");
  const bool pc = in.pc ^ pn_neg(inst, inst.op() == Opcode::IADD ? "pci" : "pc");
  check_res = true;
  check_pred = false;
  res = 0;
  pred = false;
  const bool s32 = inst.has_mod("ty") && inst.get_mod("ty") == 0; // ITy32 S32 (or ITy S32)
  switch (inst.op()) {
  case Opcode::MOV:
  case Opcode::S2R:
    res = a;
    break;
  case Opcode::MOV32I:
  case Opcode::LEAPC:
    res = b;
    break;
  case Opcode::SEL:
    res = pc ? a : b;
    break;
  case Opcode::IADD: {
    // rd = ra + (INVB ? ~rb : rb) + cin, cin = X ? pci : INVB; pco = carry out.
    const bool invb = inst.get_mod("invb");
    const bool x = inst.get_mod("x");
    const hls::CarryResult32 r = hls::addc32(a, invb ? ~b : b, x ? pc : invb);
    res = r.value;
    pred = r.carry;
    check_pred = true;
    break;
  }
  case Opcode::IADD_I:
    res = hls::addc32(a, b, false).value;
    break;
  case Opcode::IMNMX:
  case Opcode::IMNMX_I:
    res = inst.get_mod("fn") == 1 ? hls::imax32(a, b, s32) : hls::imin32(a, b, s32);
    break;
  case Opcode::IABS:
    res = hls::iabs32(a);
    break;
  case Opcode::SHL:
  case Opcode::SHL_I:
    res = hls::shl32(a, b);
    break;
  case Opcode::SHR:
  case Opcode::SHR_I:
    res = hls::shr32(a, b, s32);
    break;
  case Opcode::SHF:
    res = hls::shf32(a, b, c, inst.get_mod("dir") == 1, inst.get_mod("mode") == 1);
    break;
  case Opcode::LOP3:
    res = hls::lop3(a, b, c, static_cast<uint8_t>(inst.get_operand("lut")));
    break;
  case Opcode::LOP_I:
    // AND / OR / XOR as truth tables of (a, b).
    switch (inst.get_mod("fn")) {
    case 0:
      res = hls::lop3(a, b, 0, 0xC0);
      break;
    case 1:
      res = hls::lop3(a, b, 0, 0xFC);
      break;
    case 2:
      res = hls::lop3(a, b, 0, 0x3C);
      break;
    default:
      check_res = false;
      break;
    }
    break;
  case Opcode::POPC:
    res = hls::popc32(a);
    break;
  case Opcode::CLZ:
    res = hls::clz32(a);
    break;
  case Opcode::BREV:
    res = hls::brev32(a);
    break;
  case Opcode::BFIND:
    res = hls::bfind32(a, s32, inst.get_mod("shiftamt"));
    break;
  case Opcode::BFE:
    res = hls::bfe32(a, b & 0xff, (b >> 8) & 0xff, s32);
    break;
  case Opcode::BFI:
    res = hls::bfi32(a, b, c & 0xff, (c >> 8) & 0xff);
    break;
  case Opcode::PRMT: {
    const unsigned mode = static_cast<unsigned>(inst.get_mod("mode"));
    if (mode > 6) {
      check_res = false;
    } else {
      res = hls::prmt32(a, b, c, static_cast<hls::PrmtMode>(mode));
    }
    break;
  }
  case Opcode::ISETP: {
    const unsigned ty = static_cast<unsigned>(inst.get_mod("ty"));
    const bool is_signed = ty == 0 || ty == 2;
    const unsigned cmp = static_cast<unsigned>(inst.get_mod("cmp"));
    const unsigned bop = static_cast<unsigned>(inst.get_mod("bop"));
    check_res = false;
    check_pred = cmp <= 5 && bop <= 2;
    if (!check_pred)
      break;
    bool r;
    if (ty >= 2) {
      const uint64_t x = (static_cast<uint64_t>(in.a_hi) << 32) | a;
      const uint64_t y = (static_cast<uint64_t>(in.b_hi) << 32) | b;
      r = hls::icmp64(x, y, static_cast<hls::ICmp>(cmp), is_signed);
    } else {
      r = hls::icmp32(a, b, static_cast<hls::ICmp>(cmp), is_signed);
    }
    pred = bop == 0 ? (r && pc) : bop == 1 ? (r || pc) : (r != pc);
    break;
  }
  case Opcode::ISETP_I: {
    const unsigned cmp = static_cast<unsigned>(inst.get_mod("cmp"));
    check_res = false;
    check_pred = cmp <= 5;
    if (check_pred)
      pred = hls::icmp32(a, b, static_cast<hls::ICmp>(cmp), s32);
    break;
  }
  case Opcode::PLOP3: {
    // The predicate truth table is LOP3 on one bit.
    const uint8_t lut = static_cast<uint8_t>(inst.get_operand("lut"));
    check_res = false;
    check_pred = true;
    pred = hls::lop3(pa, pb, pc, lut) & 1u;
    break;
  }
  case Opcode::P2R:
    res = pa ? 1 : 0;
    break;
  default:
    check_res = false;
    break;
  }
}

// Modifier combinations of an opcode: every encoding of every enumerated modifier (flags: 0/1).
std::vector<Inst> modifier_variants(Opcode op, Rng &rng) {
  std::vector<Inst> out = mod_variants({Inst(op)});
  const auto &info = wf::isa::opInfo(op);
  // Operand fields that act as modifiers: truth tables and predicate negations.
  for (auto &inst : out) {
    for (unsigned o = 0; o < info.numOperands; ++o) {
      const auto &opd = info.operands[o];
      if (opd.kind == wf::isa::OperandKind::U8)
        inst.operand(opd.name, rng.below(256));
      if (opd.kind == wf::isa::OperandKind::PN)
        inst.operand(opd.name, rng.below(32));
    }
  }
  return out;
}

// Operands for one lane; `op` shapes them (bit-field positions and lengths, shift amounts).
LaneIn random_lane(Opcode op, Rng &rng) {
  LaneIn in;
  in.a = rng.int32();
  in.b = rng.int32();
  in.c = rng.int32();
  in.a_hi = rng.chance(30) ? (rng.chance(50) ? 0u : 0xffffffffu) : rng.int32();
  in.b_hi = rng.chance(30) ? in.a_hi : rng.int32();
  if (rng.chance(20))
    in.b = in.a;
  in.pa = rng.chance(50);
  in.pb = rng.chance(50);
  in.pc = rng.chance(50);
  auto field = [&]() -> uint32_t {
    const uint32_t pos = rng.chance(80) ? rng.below(40) : rng.below(256);
    const uint32_t len = rng.chance(80) ? rng.below(40) : rng.below(256);
    const uint32_t high = rng.chance(50) ? 0u : rng.u32() & 0xffff0000u;
    return high | (len << 8) | pos;
  };
  if (op == Opcode::BFE)
    in.b = field();
  if (op == Opcode::BFI)
    in.c = field();
  if ((op == Opcode::SHL || op == Opcode::SHR || op == Opcode::SHL_I || op == Opcode::SHR_I) &&
      rng.chance(60)) {
    in.b = rng.below(40);
  }
  if (op == Opcode::SHF && rng.chance(60))
    in.c = rng.below(70);
  return in;
}

class AluBench : public SimExtension {
public:
  AluBench(Top &top, const wf::rtl::SimOptions &opts)
      : top_(top), rng_(opts.seed), sb_(kName), vectors_(opts.vectors) {
    build_directed();
  }

  void on_reset() override { top_.valid_i = 0; }

  void drive(uint64_t cycle) override {
    top_.valid_i = 0;
    if (finished_issuing())
      return;
    if (!rng_.chance(75)) {
      // A bubble: garbage on the operand ports must not matter.
      set_lane32(top_.a_i, 0, rng_.u32());
      return;
    }
    Expect e = next_txn();
    top_.valid_i = 1;
    top_.inst_i = e.inst.word();
    for (unsigned l = 0; l < kLanes; ++l) {
      set_lane32(top_.a_i, l, e.in[l].a);
      set_lane32(top_.b_i, l, e.in[l].b);
      set_lane32(top_.c_i, l, e.in[l].c);
#if !defined(WF_BENCH_BMU)
      set_lane32(top_.a_hi_i, l, e.in[l].a_hi);
      set_lane32(top_.b_hi_i, l, e.in[l].b_hi);
      set_bit(top_.pa_i, l, e.in[l].pa);
      set_bit(top_.pb_i, l, e.in[l].pb);
      set_bit(top_.pc_i, l, e.in[l].pc);
#endif
    }
    sb_.expect(cycle + latency_of(e.inst.op()), e);
    ++issued_[std::string(e.inst.name())];
  }

  void sample(uint64_t cycle) override {
    sb_.observe(cycle, top_.valid_o, [&](const Expect &e, uint64_t) {
      bool ok = true;
      for (unsigned l = 0; l < kLanes; ++l) {
        const uint32_t res = get_lane32(top_.res_o, l);
#if defined(WF_BENCH_BMU)
        const bool pred = false;
#else
        const bool pred = get_bit(top_.pred_o, l);
#endif
        const bool bad = (e.check_res && res != e.res[l]) || (e.check_pred && pred != e.pred[l]);
        if (bad) {
          ok = false;
          log_.report(
              "%s: %s inst=%016llx lane %u a=%08x b=%08x c=%08x ahi=%08x bhi=%08x p=%d%d%d: "
              "res %08x pred %d, expected %08x pred %d\n",
              kName, std::string(e.inst.name()).c_str(), static_cast<unsigned long long>(e.inst.word()), l,
              e.in[l].a, e.in[l].b, e.in[l].c, e.in[l].a_hi, e.in[l].b_hi, e.in[l].pa, e.in[l].pb,
              e.in[l].pc, res, pred, e.res[l], e.pred[l]);
        }
      }
      return ok;
    });
  }

  bool finished() const override { return finished_issuing() && sb_.empty(); }
  bool passed() const override { return sb_.errors() == 0; }
  void report() const override {
    std::printf("%s: %llu transactions x %u lanes checked, %llu errors\n", kName,
                static_cast<unsigned long long>(sb_.checked()), kLanes,
                static_cast<unsigned long long>(sb_.errors()));
    for (const auto &[name, n] : issued_) {
      std::printf("  %-8s %llu operand sets\n", name.c_str(),
                  static_cast<unsigned long long>(n * kLanes));
    }
  }

private:
  bool finished_issuing() const {
    return directed_pos_ >= directed_.size() && random_done_ >= random_total();
  }
  uint64_t random_total() const {
    return ((vectors_ + kLanes - 1) / kLanes) * kOps.size();
  }

  Expect make(const Inst &inst, const std::array<LaneIn, kLanes> &in) {
    Expect e;
    e.inst = inst;
    e.in = in;
    bool cr = false, cp = false;
    for (unsigned l = 0; l < kLanes; ++l)
      reference(inst, in[l], e.res[l], e.pred[l], cr, cp);
    e.check_res = cr;
    e.check_pred = cp;
    return e;
  }

  // Every modifier combination on edge operand pairs.
  void build_directed() {
    static constexpr uint32_t kEdge[] = {0u,          1u,          31u,         32u,
                                         0x7fffffffu, 0x80000000u, 0xffffffffu, 0x0000ffffu,
                                         0x1f05u,     0x0820u,     0x2010u};
    constexpr unsigned n = sizeof(kEdge) / sizeof(kEdge[0]);
    for (Opcode op : kOps) {
      for (const Inst &inst : modifier_variants(op, rng_)) {
        pack_lanes(
            std::array<LaneIn, kLanes>{}, kLanes, n * n,
            [&](std::array<LaneIn, kLanes> &lanes, unsigned l, size_t k) {
              const unsigned i = static_cast<unsigned>(k) / n, j = static_cast<unsigned>(k) % n;
              LaneIn &in = lanes[l];
              in.a = kEdge[i];
              in.b = kEdge[j];
              in.c = kEdge[(i + j) % n];
              in.a_hi = kEdge[(i * 3 + j) % n];
              in.b_hi = (i + j) % 3 == 0 ? in.a_hi : kEdge[(j * 5 + i) % n];
              in.pa = (i ^ j) & 1;
              in.pb = (i >> 1) & 1;
              in.pc = j & 1;
            },
            [&](const std::array<LaneIn, kLanes> &lanes) {
              directed_.push_back(make(inst, lanes));
            });
      }
    }
  }

  Expect next_txn() {
    if (directed_pos_ < directed_.size())
      return directed_[directed_pos_++];
    const Opcode op = kOps[random_done_ % kOps.size()];
    ++random_done_;
    auto variants = modifier_variants(op, rng_);
    const Inst inst = variants[rng_.below(static_cast<uint32_t>(variants.size()))];
    std::array<LaneIn, kLanes> lanes{};
    for (auto &l : lanes)
      l = random_lane(op, rng_);
    return make(inst, lanes);
  }

  Top &top_;
  Rng rng_;
  LatencyScoreboard<Expect> sb_;
  MismatchLog log_;
  uint64_t vectors_;
  std::vector<Expect> directed_;
  size_t directed_pos_ = 0;
  uint64_t random_done_ = 0;
  std::map<std::string, uint64_t> issued_;
};

} // namespace

int main(int argc, char **argv) { return run_bench<Top, AluBench>(argc, argv, kName); }

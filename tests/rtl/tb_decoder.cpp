// wf_decoder against the generated C++ ISA tables (isa.gen.h): legality, format, unit, latency,
// field extraction, and register / predicate reads and writes from each opcode's operand roles
// (isa.toml's def/use, through isa::operandRole, including roles that hold only for some modifier
// values) and widths (isa::operandRegs: counts that follow a modifier or a special register). RZ
// and PT are neither read nor written; a width modifier with no valid value names no register.
// Predicate uses appear on pu0..pu2 in operand order. The decoder is combinational: this bench
// evaluates the model directly, without a clock. Every role of every opcode must be seen active.
#include "Vwf_decoder.h"
#include "common/tb_util.h"

#include <array>
#include <cstdio>
#include <memory>
#include <string>

namespace {

using namespace wf::isa;
using wf::rtl::tb::Rng;

struct Pred {
  bool live = false;
  unsigned num = 0;
  bool neg = false;
};

struct Expect {
  bool legal = false;
  bool b_imm = false;
  bool rd_we = false, rd_re = false, ra_re = false, rb_re = false, rc_re = false;
  unsigned rd_cnt = 0, ra_cnt = 0, rb_cnt = 0, rc_cnt = 0;
  Pred pd;
  std::array<Pred, 3> pu;
};

bool isRegister(OperandKind k) {
  return k == OperandKind::R || k == OperandKind::R64 || k == OperandKind::R128 ||
         k == OperandKind::ADDR || k == OperandKind::ADDR64;
}

// Operand roles seen active, per opcode and operand (coverage: the bench must exercise each).
std::array<std::array<uint64_t, kMaxOperands>, 256> seen{};

Expect expect(uint64_t w) {
  const auto code = static_cast<unsigned>(getField(w, FormatR::op));
  const OpInfo &info = kOps[code];
  Expect e;
  e.legal = info.valid;
  if (!info.valid)
    return e;
  e.b_imm = info.format == Format::I &&
            (info.unit == Unit::ALU || info.unit == Unit::IMUL || info.unit == Unit::FMA);
  unsigned uses = 0;
  for (unsigned i = 0; i < info.numOperands; ++i) {
    const OperandInfo &o = info.operands[i];
    const Role role = operandRole(info, i, w);
    const uint64_t v = getField(w, o.field);
    if (role != Role::None)
      ++seen[code][i];
    if (isRegister(o.kind)) {
      const unsigned cnt = operandRegs(info, i, w);
      const bool live = cnt != 0 && v != kZeroReg;
      if (o.field.lo == FormatR::rd.lo) {
        if (isDef(role)) {
          e.rd_we = live;
          e.rd_cnt = cnt;
        }
        if (isUse(role)) {
          e.rd_re = live;
          e.rd_cnt = cnt;
        }
      } else if (isUse(role) && o.field.lo == FormatR::ra.lo) {
        e.ra_re = live;
        e.ra_cnt = cnt;
      } else if (isUse(role) && o.field.lo == FormatR::rb.lo) {
        e.rb_re = live;
        e.rb_cnt = cnt;
      } else if (isUse(role) && o.field.lo == FormatR::rc.lo) {
        e.rc_re = live;
        e.rc_cnt = cnt;
      }
    } else if (o.kind == OperandKind::P || o.kind == OperandKind::PN) {
      const Pred p{(v & 15) != kTruePred, unsigned(v & 15),
                   o.kind == OperandKind::PN && ((v >> 4) & 1) != 0};
      if (isDef(role))
        e.pd = p;
      // A conditional use keeps its slot (operand order) whether or not it holds.
      if (isUse(o.role) && uses < e.pu.size()) {
        if (isUse(role))
          e.pu[uses] = p;
        ++uses;
      }
    }
  }
  return e;
}

bool samePred(bool re, unsigned num, bool neg, const Pred &p) {
  return re == p.live && (!p.live || (num == p.num && neg == p.neg));
}

} // namespace

int main(int argc, char **argv) {
  const auto opts = wf::rtl::SimOptions::parse(argc, argv, "wf_decoder");
  const std::unique_ptr<VerilatedContext> ctx{new VerilatedContext};
  ctx->commandArgs(argc, argv);
  const std::unique_ptr<Vwf_decoder> top{new Vwf_decoder{ctx.get(), "TOP"}};
  Rng rng(opts.seed);
  wf::rtl::tb::MismatchLog log;
  uint64_t errors = 0;
  const uint64_t count = opts.vectors * 16;
  for (uint64_t n = 0; n < count; ++n) {
    uint64_t w = rng.u64();
    w = setField(w, FormatR::op, n < 256 * 64 ? (n & 255) : rng.below(256));
    if (rng.chance(20))
      w = setField(w, FormatR::ra, kZeroReg);
    if (rng.chance(20))
      w = setField(w, FormatR::rd, kZeroReg);
    top->inst_i = w;
    top->eval();
    const auto op = static_cast<Opcode>(getField(w, FormatR::op));
    const OpInfo &info = opInfo(op);
    const Expect e = expect(w);
    bool ok = top->legal_o == e.legal;
    if (e.legal) {
      ok = ok && top->op_o == static_cast<unsigned>(op);
      ok = ok && top->unit_o == static_cast<unsigned>(info.unit);
      ok = ok && top->latency_o == info.latency;
      ok = ok && top->format_i_o == (info.format == Format::I);
      ok = ok && top->pg_o == getField(w, FormatR::pg) && top->pgn_o == getField(w, FormatR::pgn);
      ok = ok && top->imm_o == getField(w, FormatI::imm);
      ok = ok && top->rd_o == getField(w, FormatR::rd) && top->ra_o == getField(w, FormatR::ra);
      ok = ok && top->rb_o == getField(w, FormatR::rb) && top->rc_o == getField(w, FormatR::rc);
      ok = ok && top->b_is_imm_o == e.b_imm;
      ok = ok && top->rd_we_o == e.rd_we && top->rd_re_o == e.rd_re;
      ok = ok && top->ra_re_o == e.ra_re && top->rb_re_o == e.rb_re && top->rc_re_o == e.rc_re;
      ok = ok && (!(e.rd_we || e.rd_re) || top->rd_cnt_o == e.rd_cnt);
      ok = ok && (!e.ra_re || top->ra_cnt_o == e.ra_cnt);
      ok = ok && (!e.rb_re || top->rb_cnt_o == e.rb_cnt);
      ok = ok && (!e.rc_re || top->rc_cnt_o == e.rc_cnt);
      ok = ok && top->pd_we_o == e.pd.live && (!e.pd.live || top->pd_o == e.pd.num);
      ok = ok && samePred(top->pu0_re_o, top->pu0_o, top->pu0_neg_o, e.pu[0]);
      ok = ok && samePred(top->pu1_re_o, top->pu1_o, top->pu1_neg_o, e.pu[1]);
      ok = ok && samePred(top->pu2_re_o, top->pu2_o, top->pu2_neg_o, e.pu[2]);
    } else {
      ok = ok && !top->rd_we_o && !top->rd_re_o && !top->ra_re_o && !top->rb_re_o &&
           !top->rc_re_o && !top->pd_we_o && !top->pu0_re_o && !top->pu1_re_o && !top->pu2_re_o;
    }
    if (!ok) {
      ++errors;
      log.report("wf_decoder: %s word %016llx: legal %d unit %d lat %d rd %d/%d(%d) ra %d(%d) "
                 "rb %d(%d) rc %d(%d) pd %d:%d pu %d:%d %d:%d %d:%d; expected rd %d/%d(%u) "
                 "ra %d(%u) rb %d(%u) rc %d(%u) pd %d:%u pu %d:%u %d:%u %d:%u\n",
                 std::string(info.name).c_str(), static_cast<unsigned long long>(w), top->legal_o,
                 top->unit_o, top->latency_o, top->rd_we_o, top->rd_re_o, top->rd_cnt_o,
                 top->ra_re_o, top->ra_cnt_o, top->rb_re_o, top->rb_cnt_o, top->rc_re_o,
                 top->rc_cnt_o, top->pd_we_o, top->pd_o, top->pu0_re_o, top->pu0_o, top->pu1_re_o,
                 top->pu1_o, top->pu2_re_o, top->pu2_o, e.rd_we, e.rd_re, e.rd_cnt, e.ra_re,
                 e.ra_cnt, e.rb_re, e.rb_cnt, e.rc_re, e.rc_cnt, e.pd.live, e.pd.num, e.pu[0].live,
                 e.pu[0].num, e.pu[1].live, e.pu[1].num, e.pu[2].live, e.pu[2].num);
    }
  }
  top->final();
  // Coverage: every operand that has a role was seen with the role active.
  for (unsigned code = 0; code < 256; ++code) {
    const OpInfo &info = kOps[code];
    for (unsigned i = 0; info.valid && i < info.numOperands; ++i) {
      if (info.operands[i].role != Role::None && seen[code][i] == 0) {
        ++errors;
        std::printf("wf_decoder: %s operand %s: role never exercised\n",
                    std::string(info.name).c_str(), std::string(info.operands[i].name).c_str());
      }
    }
  }
  std::printf("wf_decoder: %llu instruction words checked, %llu errors\n",
              static_cast<unsigned long long>(count), static_cast<unsigned long long>(errors));
  std::printf("wf_decoder: %s\n", errors == 0 ? "PASS" : "FAIL");
  return errors == 0 ? 0 : 1;
}

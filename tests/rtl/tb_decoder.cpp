// wf_decoder against the generated C++ ISA tables (isa.gen.h): legality, format, unit, latency,
// field extraction, and register / predicate reads and writes derived from each opcode's operand
// list (registers with their counts, including the counts that follow a modifier or a special
// register; P: predicate written, PN: predicate read; RZ and PT are neither read nor written).
// Two rules the table does not carry are written below (ATOM reads rc only for CAS, BAR writes rd
// only in its reduction forms). The decoder is combinational: this bench evaluates the model
// directly, without a clock.
#include "Vwf_decoder.h"
#include "common/tb_util.h"

#include <cstdio>
#include <memory>
#include <string>

namespace {

using namespace wf::isa;
using wf::rtl::tb::Rng;

struct Expect {
  bool legal;
  bool rd_we = false, rd_re = false, ra_re = false, rb_re = false, rc_re = false;
  unsigned rd_cnt = 0, ra_cnt = 0, rb_cnt = 0, rc_cnt = 0;
  bool check_counts = true;
  bool pd_we = false, pa_re = false, pb_re = false, pc_re = false;
  unsigned pd = 0, pa = 0, pb = 0, pc = 0;
  bool check_preds = true;
};

// Registers named by operand i: its fixed count, or the count its width modifier (or special
// register operand) selects (the generated table's R{mod} widths).
unsigned reg_count(const OpInfo &info, const OperandInfo &o, uint64_t w) {
  if (o.widthMod >= 0) {
    return o.widthRegs[getField(w, info.mods[static_cast<unsigned>(o.widthMod)].field) & 31];
  }
  if (o.widthOperand >= 0) {
    const uint64_t sr = getField(w, info.operands[static_cast<unsigned>(o.widthOperand)].field);
    return sr < kNumSRegs ? o.widthRegs[sr] : 0;
  }
  return o.regs;
}

Expect expect(uint64_t w) {
  const auto op = static_cast<Opcode>(getField(w, FormatR::op));
  const OpInfo &info = opInfo(op);
  Expect e;
  e.legal = info.valid;
  if (!info.valid)
    return e;
  e.check_counts = true;
  e.check_preds = op != Opcode::IADD; // pci is read only with .X
  for (unsigned i = 0; i < info.numOperands; ++i) {
    const OperandInfo &o = info.operands[i];
    const uint64_t v = getField(w, o.field);
    const unsigned cnt = reg_count(info, o, w);
    const bool reg = o.kind == OperandKind::R || o.kind == OperandKind::R64 ||
                     o.kind == OperandKind::R128 || o.kind == OperandKind::ADDR ||
                     o.kind == OperandKind::ADDR64;
    if (reg) {
      const bool live = v != kZeroReg;
      if (o.name == "rd") {
        if (i == 0) {
          e.rd_we = live;
          e.rd_cnt = cnt;
        } else {
          e.rd_re = live; // store data
          e.rd_cnt = cnt;
        }
      } else if (o.field.lo == FormatR::ra.lo) {
        e.ra_re = live;
        e.ra_cnt = cnt;
      } else if (o.field.lo == FormatR::rb.lo) {
        e.rb_re = live;
        e.rb_cnt = cnt;
      } else if (o.field.lo == FormatR::rc.lo) {
        e.rc_re = live;
        e.rc_cnt = cnt;
      }
    } else if (o.kind == OperandKind::P) {
      e.pd_we = (v & 15) != kTruePred;
      e.pd = v & 15;
    } else if (o.kind == OperandKind::PN) {
      const bool live = (v & 15) != kTruePred;
      if (o.name == "pa") {
        e.pa_re = live;
        e.pa = v & 15;
      }
      if (o.name == "pb") {
        e.pb_re = live;
        e.pb = v & 15;
      }
      if (o.name == "pc" || o.name == "pci") {
        e.pc_re = live;
        e.pc = v & 15;
      }
    }
  }
  // ATOM reads rc only for CAS (the operand list names it for every form).
  if (op == Opcode::ATOM) {
    for (unsigned m = 0; m < info.numMods; ++m) {
      if (info.mods[m].name == "fn" &&
          getField(w, info.mods[m].field) != static_cast<uint64_t>(AtomOp::CAS)) {
        e.rc_re = false;
      }
    }
  }
  // BAR writes rd only in its reduction forms.
  if (op == Opcode::BAR)
    e.rd_we = e.rd_we && getField(w, info.mods[0].field) >= static_cast<uint64_t>(BarOp::RED_POPC);
  return e;
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
      ok = ok && top->rd_we_o == e.rd_we && top->rd_re_o == e.rd_re;
      ok = ok && top->ra_re_o == e.ra_re && top->rc_re_o == e.rc_re;
      // Format I opcodes take the immediate as operand b.
      ok = ok && top->rb_re_o == (e.rb_re && info.format == Format::R);
      // A count of 0: the modifier selecting it has no valid encoding here; not checked.
      if (e.check_counts) {
        if ((e.rd_we || e.rd_re) && e.rd_cnt != 0)
          ok = ok && top->rd_cnt_o == e.rd_cnt;
        if (e.ra_re && e.ra_cnt != 0)
          ok = ok && top->ra_cnt_o == e.ra_cnt;
        if (e.rb_re && e.rb_cnt != 0)
          ok = ok && top->rb_cnt_o == e.rb_cnt;
        if (e.rc_re && e.rc_cnt != 0)
          ok = ok && top->rc_cnt_o == e.rc_cnt;
      }
      ok = ok && top->pd_we_o == e.pd_we && (!e.pd_we || top->pd_o == e.pd);
      ok = ok && top->pa_re_o == e.pa_re && (!e.pa_re || top->pa_o == e.pa);
      ok = ok && top->pb_re_o == e.pb_re && (!e.pb_re || top->pb_o == e.pb);
      if (e.check_preds)
        ok = ok && top->pc_re_o == e.pc_re && (!e.pc_re || top->pc_o == e.pc);
    }
    if (!ok) {
      ++errors;
      log.report("wf_decoder: %s word %016llx: legal %d unit %d lat %d rd %d/%d(%d) ra %d(%d) "
                 "rb %d(%d) rc %d(%d) pd %d:%d pa %d pb %d pc %d; expected rd %d/%d(%u) ra %d(%u) "
                 "rb %d(%u) rc %d(%u)\n",
                 std::string(info.name).c_str(), static_cast<unsigned long long>(w), top->legal_o,
                 top->unit_o, top->latency_o, top->rd_we_o, top->rd_re_o, top->rd_cnt_o,
                 top->ra_re_o, top->ra_cnt_o, top->rb_re_o, top->rb_cnt_o, top->rc_re_o,
                 top->rc_cnt_o, top->pd_we_o, top->pd_o, top->pa_re_o, top->pb_re_o, top->pc_re_o,
                 e.rd_we, e.rd_re, e.rd_cnt, e.ra_re, e.ra_cnt, e.rb_re, e.rb_cnt, e.rc_re,
                 e.rc_cnt);
    }
  }
  top->final();
  std::printf("wf_decoder: %llu instruction words checked, %llu errors\n",
              static_cast<unsigned long long>(count), static_cast<unsigned long long>(errors));
  std::printf("wf_decoder: %s\n", errors == 0 ? "PASS" : "FAIL");
  return errors == 0 ? 0 : 1;
}

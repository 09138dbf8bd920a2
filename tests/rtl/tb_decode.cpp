// wf_decode (the decode stage) and wf_core_pkg's record functions against the generated C++ ISA
// tables: the record rebuilds the word bit for bit (dec_word), carries legality, unit, format and
// the fetch-stop flag (isa::stopsFetch, isa.toml's fetch_stop), the guard, and the register and
// predicate operands wf_decoder produced (their own reference is tb_decoder); a fetch marker
// (fetch_bad) makes a record that reads and writes nothing. The CTRL and LSU operation structs
// (ctrl_op, lsu_op) are checked field by field against the operand and modifier positions of the
// tables, looked up by name. Combinational: evaluated without a clock. --vectors x 16 words.
#include "Vtb_decode_top.h"
#include "common/tb_util.h"

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace {

using namespace wf::isa;
using wf::rtl::tb::Rng;

std::optional<Field> modField(const OpInfo &info, std::string_view name) {
  for (unsigned i = 0; i < info.numMods; ++i)
    if (info.mods[i].name == name)
      return info.mods[i].field;
  return std::nullopt;
}

std::optional<Field> operandField(const OpInfo &info, std::string_view name) {
  for (unsigned i = 0; i < info.numOperands; ++i)
    if (info.operands[i].name == name)
      return info.operands[i].field;
  return std::nullopt;
}

std::optional<Field> operandOfKind(const OpInfo &info, OperandKind kind) {
  for (unsigned i = 0; i < info.numOperands; ++i)
    if (info.operands[i].kind == kind)
      return info.operands[i].field;
  return std::nullopt;
}

uint64_t fieldOr0(uint64_t w, std::optional<Field> f) { return f ? getField(w, *f) : 0; }

// The memory space an LSU opcode names (the letter after LD/ST), as wf_isa_pkg::space_e.
unsigned opcodeSpace(std::string_view name) {
  if (name == "LDS" || name == "STS")
    return static_cast<unsigned>(Space::SHARED);
  if (name == "LDL" || name == "STL")
    return static_cast<unsigned>(Space::LOCAL);
  if (name == "LDC")
    return static_cast<unsigned>(Space::CONST);
  if (name == "LDP")
    return static_cast<unsigned>(Space::PARAM);
  return static_cast<unsigned>(Space::GLOBAL);
}

} // namespace

int main(int argc, char **argv) {
  const auto opts = wf::rtl::SimOptions::parse(argc, argv, "wf_decode");
  const std::unique_ptr<VerilatedContext> ctx{new VerilatedContext};
  ctx->commandArgs(argc, argv);
  const std::unique_ptr<Vtb_decode_top> top{new Vtb_decode_top{ctx.get(), "TOP"}};
  Rng rng(opts.seed);
  wf::rtl::tb::MismatchLog log;
  uint64_t errors = 0, stops = 0, bad = 0;
  const uint64_t count = opts.vectors * 16;
  for (uint64_t n = 0; n < count; ++n) {
    uint64_t w = rng.u64();
    w = setField(w, FormatR::op, n < 256 * 64 ? (n & 255) : rng.below(256));
    const bool fetchBad = rng.chance(5);
    top->inst_i = w;
    top->fetch_bad_i = fetchBad;
    top->eval();
    const auto op = static_cast<Opcode>(getField(w, FormatR::op));
    const OpInfo &info = opInfo(op);
    const bool legal = info.valid && !fetchBad;
    std::string what;
    auto check = [&](bool ok, const char *field) {
      if (!ok)
        what += std::string(" ") + field;
    };
    check(top->word_o == w, "word");
    check(top->legal_o == legal, "legal");
    check(top->fetch_bad_o == fetchBad, "fetch_bad");
    check(top->fetch_stop_o == (legal && stopsFetch(op)), "fetch_stop");
    check(top->pg_o == getField(w, FormatR::pg) && top->pgn_o == getField(w, FormatR::pgn),
          "guard");
    check(top->pg_always_o == (getField(w, FormatR::pg) == kTruePred && !getField(w, FormatR::pgn)),
          "pg_always");
    stops += top->fetch_stop_o;
    bad += fetchBad;
    if (fetchBad || !info.valid) {
      // Nothing read or written: the scoreboard and collectors see no operands.
      const bool none = !((top->rd_o >> 3) & 3) && !((top->ra_o >> 4) & 1) &&
                        !((top->rb_o >> 4) & 1) && !((top->rc_o >> 4) & 1) && !top->pd_we_o &&
                        !(top->pu0_o >> 5) && !(top->pu1_o >> 5) && !(top->pu2_o >> 5) &&
                        !top->b_is_imm_o && !top->fetch_stop_o;
      check(none, "operands-of-a-non-instruction");
    } else {
      check(top->op_o == static_cast<unsigned>(op), "op");
      check(top->unit_o == static_cast<unsigned>(info.unit), "unit");
      check(top->format_i_o == (info.format == Format::I), "format");
      check(top->lat_o == info.latency, "lat");
      check(top->share_o == kUnits[static_cast<unsigned>(info.unit)].laneShare, "share");
      check((top->rd_o >> 5) == getField(w, FormatR::rd), "rd.num");
      check((top->ra_o >> 5) == getField(w, FormatR::ra), "ra.num");
      check((top->rb_o >> 5) == getField(w, FormatR::rb), "rb.num");
      check((top->rc_o >> 5) == getField(w, FormatR::rc), "rc.num");
      if (info.unit == Unit::CTRL) {
        check(top->ctrl_imm_o == (info.format == Format::I ? getField(w, FormatI::imm) : 0),
              "ctrl.imm");
        check(top->ctrl_breg_o == fieldOr0(w, operandOfKind(info, OperandKind::B)), "ctrl.breg");
        check(top->ctrl_fn_o == fieldOr0(w, modField(info, "fn")), "ctrl.fn");
        if (op == Opcode::BAR)
          check(top->ctrl_bar_id_o == fieldOr0(w, operandField(info, "id")), "ctrl.bar_id");
        if (op == Opcode::MEMBAR)
          check(top->ctrl_scope_o == fieldOr0(w, modField(info, "scope")), "ctrl.scope");
        if (op == Opcode::MATCH)
          check(top->ctrl_match_b64_o == fieldOr0(w, modField(info, "ty")), "ctrl.match_b64");
      }
      if (info.access != MemAccess::None) {
        check(top->lsu_access_o == static_cast<unsigned>(info.access), "lsu.access");
        const std::optional<Field> space = modField(info, "space");
        const bool generic = op == Opcode::LD || op == Opcode::ST ||
                             (op == Opcode::ATOM && getField(w, *space) ==
                                                        static_cast<unsigned>(AtomSpace::GENERIC));
        check(top->lsu_generic_o == generic, "lsu.generic");
        const bool addr64 = operandOfKind(info, OperandKind::ADDR64).has_value() ||
                            (op == Opcode::ATOM && operandRegs(info, 1, w) == 2);
        check(top->lsu_addr64_o == addr64, "lsu.addr64");
        if (!generic) {
          unsigned want = opcodeSpace(info.name);
          if (op == Opcode::ATOM)
            want = getField(w, *space) == static_cast<unsigned>(AtomSpace::SHARED)
                       ? static_cast<unsigned>(Space::SHARED)
                       : static_cast<unsigned>(Space::GLOBAL);
          check(top->lsu_space_o == want, "lsu.space");
        }
        if (op == Opcode::ATOM) {
          check(top->lsu_atom_fn_o == fieldOr0(w, modField(info, "fn")), "lsu.atom_fn");
          check(top->lsu_atom_ty_o == fieldOr0(w, modField(info, "ty")), "lsu.atom_ty");
          // Bytes of the access: the destination width of the type (1 or 2 registers).
          const unsigned regs = operandRegs(info, 0, w);
          if (regs != 0)
            check(top->lsu_size_o == (regs == 2 ? static_cast<unsigned>(MemSize::B64)
                                                : static_cast<unsigned>(MemSize::B32)),
                  "lsu.size");
        } else {
          check(top->lsu_size_o == fieldOr0(w, modField(info, "size")), "lsu.size");
        }
        check(top->lsu_offset_o == (info.format == Format::I ? getField(w, FormatI::imm) : 0),
              "lsu.offset");
      }
    }
    if (!what.empty()) {
      ++errors;
      log.report("wf_decode: %s word %016llx fetch_bad %d:%s\n", std::string(info.name).c_str(),
                 static_cast<unsigned long long>(w), fetchBad, what.c_str());
    }
  }
  top->final();
  // Coverage: the fetch-stop set is not empty and was seen, and so were fetch markers.
  if (stops == 0 || bad == 0) {
    ++errors;
    std::printf("wf_decode: coverage: %llu fetch stops, %llu fetch markers\n",
                static_cast<unsigned long long>(stops), static_cast<unsigned long long>(bad));
  }
  std::printf("wf_decode: %llu words checked (%llu fetch stops, %llu fetch markers), %llu "
              "errors\n",
              static_cast<unsigned long long>(count), static_cast<unsigned long long>(stops),
              static_cast<unsigned long long>(bad), static_cast<unsigned long long>(errors));
  std::printf("wf_decode: %s\n", errors == 0 ? "PASS" : "FAIL");
  return errors == 0 ? 0 : 1;
}

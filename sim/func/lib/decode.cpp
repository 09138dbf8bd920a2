//===- decode.cpp - Pre-decoding the code segment ------------------------------===//

#include "decode.h"

#include <fmt/format.h>

#include <cstring>

namespace wf::func {

using isa::Opcode;
namespace fld = isa::fields;

namespace {

/// How an instruction uses one of its four register fields.
struct RegUse {
  bool used = false;
  bool dest = false;
  uint8_t width = 1; ///< registers: 1, a pair (2) or a quad (4)
};

enum RegField { kRd, kRa, kRb, kRc };

int regFieldOf(std::string_view name) {
  if (name == "rd")
    return kRd;
  if (name == "ra" || name == "addr")
    return kRa;
  if (name == "rb")
    return kRb;
  if (name == "rc")
    return kRc;
  return -1;
}

/// Whether ATOM supports operation `fn` on type `ty` (PTX atom's combinations).
bool atomSupported(isa::AtomOp fn, isa::AtomType ty) {
  using isa::AtomOp;
  using isa::AtomType;
  bool isFloat = ty == AtomType::F32 || ty == AtomType::F64;
  switch (fn) {
  case AtomOp::ADD:
  case AtomOp::EXCH:
  case AtomOp::CAS:
    return true;
  case AtomOp::INC:
  case AtomOp::DEC:
    return ty == AtomType::U32;
  default: // MIN MAX AND OR XOR
    return !isFloat;
  }
}

/// The rules modifiers add beyond the generated operand widths: access sizes, supported atomic
/// combinations, existing special registers, and CVTA on the global space, which is the identity
/// on a 64-bit address. Returns an error message, or an empty string.
FaultDetail applyModifierRules(Opcode op, uint64_t w, std::array<RegUse, 4> &use,
                               DecodedInst &in) {
  using D = isa::dev::FaultDetail;
  auto get = [w](isa::Field f) { return isa::getField(w, f); };
  if (isa::isLoadStore(op)) {
    // A plain load or store moves what its MemSize modifier says (isa.toml's `bytes`).
    const isa::OpInfo &info = isa::opInfo(op);
    for (unsigned i = 0; i < info.numMods; ++i)
      if (info.mods[i].enumId == isa::EnumId::MemSize)
        in.memBytes = uint8_t(isa::memSizeBytes(isa::MemSize(get(info.mods[i].field))));
    if (in.memBytes == 0)
      return {D::NoAccessSize, uint64_t(op)};
  }
  switch (op) {
  case Opcode::S2R: {
    unsigned sr = unsigned(get(fld::S2R::sr));
    if (sr >= isa::kNumSRegs)
      return {D::InvalidSpecialRegister, sr};
    break;
  }
  case Opcode::CVTA:
    if (isa::Space(get(fld::CVTA::space)) == isa::Space::GLOBAL)
      use[kRd].width = use[kRa].width = 2;
    break;
  case Opcode::ATOM: {
    auto fn = isa::AtomOp(get(fld::ATOM::fn));
    auto ty = isa::AtomType(get(fld::ATOM::ty));
    if (!atomSupported(fn, ty))
      return {D::UnsupportedAtomic, uint64_t(fn), uint64_t(ty)};
    in.memBytes = uint8_t(use[kRd].width * 4);
    break;
  }
  default:
    break;
  }
  return {};
}

/// Decodes one instruction word at byte offset `pc`; returns an error message or "".
FaultDetail decodeOne(uint64_t w, uint32_t pc, const Program &prog, DecodedInst &in) {
  using D = isa::dev::FaultDetail;
  in.word = w;
  unsigned opValue = unsigned(isa::getField(w, isa::FormatR::op));
  const isa::OpInfo &info = isa::kOps[opValue];
  if (!info.valid)
    return {D::InvalidOpcode, opValue};
  auto op = Opcode(opValue);

  for (unsigned i = 0; i < info.numMods; ++i) {
    const isa::ModInfo &mod = info.mods[i];
    if (mod.enumId == isa::EnumId::None)
      continue;
    const isa::EnumInfo &e = isa::kEnums[size_t(mod.enumId)];
    uint64_t value = isa::getField(w, mod.field);
    if (value >= e.count)
      return {D::InvalidModifier, opValue, i, value};
  }

  unsigned pg = unsigned(isa::getField(w, isa::FormatR::pg));
  in.guard = uint8_t(pg);
  in.guardXor = isa::getField(w, isa::FormatR::pgn) ? ~0u : 0u;

  std::array<RegUse, 4> use{};
  for (unsigned i = 0; i < info.numOperands; ++i) {
    const isa::OperandInfo &opd = info.operands[i];
    uint64_t value = isa::getField(w, opd.field);
    switch (opd.kind) {
    case isa::OperandKind::R:
    case isa::OperandKind::R64:
    case isa::OperandKind::R128:
    case isa::OperandKind::ADDR:
    case isa::OperandKind::ADDR64: {
      int f = regFieldOf(opd.name);
      if (f < 0)
        return {D::UnknownOperand, opValue, i};
      use[f].used = true;
      use[f].dest = f == kRd && !isa::isStore(op);
      // Pairs and quads, also those a modifier selects, come from the generated tables.
      use[f].width = uint8_t(isa::operandRegs(info, i, w));
      if (opd.imm.width != 0)
        in.imm = uint32_t(isa::getField(w, opd.imm));
      break;
    }
    case isa::OperandKind::P: {
      in.pd = uint8_t(value == isa::kTruePred ? kPredDiscard : value);
      in.writesPred = value != isa::kTruePred;
      break;
    }
    case isa::OperandKind::PN: {
      uint8_t slot = uint8_t(value & 15);
      uint32_t negate = (value >> 4) & 1 ? ~0u : 0u;
      if (opd.name == "pa") {
        in.pa = slot;
        in.paXor = negate;
      } else if (opd.name == "pb") {
        in.pb = slot;
        in.pbXor = negate;
      } else { // pc, pci
        in.pc = slot;
        in.pcXor = negate;
      }
      break;
    }
    case isa::OperandKind::REL: {
      uint32_t target = pc + isa::kInstBytes + uint32_t(value);
      in.imm = target;
      in.badTarget = (target % isa::kInstBytes) != 0 || target >= prog.codeSize;
      break;
    }
    case isa::OperandKind::I32:
    case isa::OperandKind::U32:
    case isa::OperandKind::F32:
      in.imm = uint32_t(value);
      break;
    default: // B, U4, U8, SR: read through isa::fields by the executor
      break;
    }
  }

  if (FaultDetail err = applyModifierRules(op, w, use, in))
    return err;

  static constexpr isa::Field kRegFields[4] = {isa::FormatR::rd, isa::FormatR::ra, isa::FormatR::rb,
                                               isa::FormatR::rc};
  uint16_t *rows[4] = {&in.rd, &in.ra, &in.rb, &in.rc};
  for (unsigned f = 0; f < 4; ++f) {
    *rows[f] = prog.zeroRow;
    if (!use[f].used)
      continue;
    unsigned reg = unsigned(isa::getField(w, kRegFields[f]));
    unsigned width = use[f].width;
    if (reg == isa::kZeroReg) {
      *rows[f] = use[f].dest ? prog.discardRow : prog.zeroRow;
      continue;
    }
    if (reg % width != 0)
      return {width == 2 ? D::MisalignedPair : D::MisalignedQuad, reg};
    if (reg + width > prog.regsPerThread)
      return {D::RegisterNotAllocated, reg + width - 1, prog.regsPerThread};
    *rows[f] = uint16_t(reg);
  }
  bool rdWritten = use[kRd].used && use[kRd].dest && in.rd != prog.discardRow;
  // BAR writes rd when the barrier releases, not when the instruction issues.
  if (op == Opcode::BAR)
    rdWritten = false;
  in.dstWidth = rdWritten ? use[kRd].width : 0;
  in.op = uint8_t(opValue);
  return {};
}

} // namespace

Program decodeProgram(const uint8_t *code, uint32_t codeSize, uint32_t regsPerThread) {
  Program prog;
  prog.codeSize = codeSize;
  prog.regsPerThread = regsPerThread;
  prog.zeroRow = uint16_t(regsPerThread);
  prog.discardRow = uint16_t(regsPerThread + 4);
  prog.rows = regsPerThread + kExtraRows;
  prog.messages.emplace_back(); // index 0: no message
  uint32_t count = codeSize / isa::kInstBytes;
  prog.insts.resize(count + 1);
  for (uint32_t i = 0; i < count; ++i) {
    uint64_t word;
    std::memcpy(&word, code + uint64_t(i) * isa::kInstBytes, sizeof word); // little-endian host
    DecodedInst &in = prog.insts[i];
    FaultDetail err = decodeOne(word, i * isa::kInstBytes, prog, in);
    if (err) {
      in = DecodedInst{};
      in.word = word;
      in.op = kIllegalOp;
      // Code segments full of data could run out of message numbers: the last one is shared.
      if (prog.messages.size() < 0xfffe)
        prog.messages.push_back(err);
      else
        prog.messages.back() = isa::dev::FaultDetail::Undecodable;
      in.message = uint16_t(prog.messages.size() - 1);
    }
  }
  DecodedInst &end = prog.insts[count];
  end.op = kIllegalOp;
  end.message = uint16_t(prog.messages.size());
  prog.messages.push_back(isa::dev::FaultDetail::PastCodeEnd);
  return prog;
}

} // namespace wf::func

//===- Emit.cpp - Encoding allocated WIR into native instruction words ----===//
//
// Part of Warpforge. Every field is set from the generated operand tables
// through the assembler's mc::Inst (no field positions here).
//
//===----------------------------------------------------------------------===//

#include "EmitImpl.h"

#include "warpforge/asm/inst.h"

#include <fmt/format.h>

namespace wf::codegen {

using isa::OperandKind;

Expected<uint64_t> encodeInst(const Function &F, const Inst &I, uint32_t Pc,
                              const std::vector<uint32_t> &BlockAddr,
                              const std::vector<uint32_t> &FuncAddr, PendingReloc *Reloc) {
  mc::Inst M;
  M.opcode = uint8_t(I.op);
  const isa::OpInfo &Info = I.info();
  if (I.guard.kind != OpndKind::PhysPred)
    return Error(fmt::format("{}: unallocated guard in {}", F.name, print(F, I)));
  M.guard = uint8_t(I.guard.reg);
  M.guardNegated = I.guard.neg;
  for (unsigned K = 0; K < Info.numOperands; ++K) {
    const isa::OperandInfo &OI = Info.operands[K];
    const Opnd &O = I.ops[K];
    auto Bad = [&]() {
      return Error(
          fmt::format("{}: operand {} of '{}' cannot be encoded", F.name, OI.name, print(F, I)));
    };
    switch (OI.kind) {
    case OperandKind::R:
    case OperandKind::R64:
    case OperandKind::R128:
      if (O.kind != OpndKind::Phys)
        return Bad();
      M.operands[K] = O.reg;
      break;
    case OperandKind::ADDR:
    case OperandKind::ADDR64:
      if (O.kind != OpndKind::Phys)
        return Bad();
      M.operands[K] = O.reg;
      M.offsets[K] = uint32_t(int32_t(O.imm));
      break;
    case OperandKind::P:
    case OperandKind::PN:
      if (O.kind != OpndKind::PhysPred)
        return Bad();
      M.operands[K] =
          O.reg | (OI.kind == OperandKind::PN && O.neg ? mc::predicateNegateBit(OI) : 0);
      break;
    case OperandKind::B:
      if (O.kind != OpndKind::PhysBar)
        return Bad();
      M.operands[K] = O.reg;
      break;
    case OperandKind::REL: {
      uint32_t Target;
      if (O.kind == OpndKind::Block)
        Target = BlockAddr.at(O.target);
      else if (O.kind == OpndKind::Func)
        Target = FuncAddr.at(O.target);
      else
        return Bad();
      M.operands[K] = uint32_t(int64_t(Target) - int64_t(Pc + isa::kInstBytes));
      break;
    }
    case OperandKind::I32:
    case OperandKind::U32:
    case OperandKind::F32:
    case OperandKind::U4:
    case OperandKind::U8:
    case OperandKind::SR:
      if (O.kind == OpndKind::SymLo || O.kind == OpndKind::SymHi) {
        if (Reloc) {
          Reloc->valid = true;
          Reloc->hi = O.kind == OpndKind::SymHi;
          Reloc->symbol = O.target;
          Reloc->addend = O.imm;
          Reloc->fieldByte = OI.field.lo / 8;
        }
        M.operands[K] = 0;
      } else if (O.kind == OpndKind::Imm) {
        M.operands[K] = uint32_t(O.imm);
      } else {
        return Bad();
      }
      break;
    }
  }
  for (unsigned K = 0; K < Info.numMods; ++K)
    M.mods[K] = I.mods[K];
  auto W = mc::encode(M);
  if (!W)
    return Error(fmt::format("{}: cannot encode '{}': {}", F.name, print(F, I), W.error().message));
  return *W;
}

} // namespace wf::codegen

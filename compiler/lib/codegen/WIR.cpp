//===- WIR.cpp - Machine IR: operand roles, CFG, verifier, printer ---------===//

#include "warpforge/codegen/WIR.h"

#include <fmt/format.h>

namespace wf::codegen {

using isa::Opcode;
using isa::OperandKind;

unsigned classWords(RegClass C) {
  switch (C) {
  case RegClass::R64:
    return 2;
  case RegClass::R128:
    return 4;
  default:
    return 1;
  }
}

const char *className(RegClass C) {
  switch (C) {
  case RegClass::R32:
    return "r32";
  case RegClass::R64:
    return "r64";
  case RegClass::R128:
    return "r128";
  case RegClass::Pred:
    return "pred";
  case RegClass::Barrier:
    return "bar";
  }
  return "?";
}

bool isDefOperand(const Inst &I, unsigned Idx) {
  // The generated role (isa.toml's def/use), under the modifier value it may depend on.
  const isa::OperandInfo &O = I.info().operands[Idx];
  uint32_t ModValue = O.roleMod < 0 ? 0 : I.mods[unsigned(O.roleMod)];
  return isa::isDef(isa::activeRole(O, ModValue));
}

unsigned operandWords(const Inst &I, unsigned Idx) {
  // The generated widths (isa.toml's R64, R{mod}, R{sr}) read the modifier or special-register
  // field that selects them from an instruction word: build one that holds just those fields.
  const isa::OpInfo &Info = I.info();
  const isa::OperandInfo &O = Info.operands[Idx];
  uint64_t Word = 0;
  if (O.widthMod >= 0)
    Word = isa::setField(Word, Info.mods[unsigned(O.widthMod)].field,
                         I.mods[unsigned(O.widthMod)]);
  if (O.widthOperand >= 0) {
    const Opnd &Sel = I.ops[unsigned(O.widthOperand)];
    if (Sel.kind != OpndKind::Imm || Sel.imm < 0 || uint64_t(Sel.imm) >= isa::kNumSRegs)
      return 0; // no such special register: no width (the verifier reports it)
    Word = isa::setField(Word, Info.operands[unsigned(O.widthOperand)].field, uint64_t(Sel.imm));
  }
  return isa::operandRegs(Info, Idx, Word);
}

bool isTerminator(const Inst &I) {
  switch (I.op) {
  case Opcode::BRX:
  case Opcode::RET:
    return true;
  case Opcode::BRA:
  case Opcode::EXIT:
    return !I.isGuarded();
  default:
    return false;
  }
}

bool hasSideEffects(const Inst &I) {
  if (isa::isLoadStore(I.op))
    return isa::isStore(I.op);
  switch (isa::opInfo(I.op).unit) {
  case isa::Unit::CTRL:
  case isa::Unit::LSU:
    return true;
  default:
    break;
  }
  return false;
}

void computeCFG(Function &F) {
  for (Block &B : F.blocks) {
    B.succs.clear();
    B.preds.clear();
  }
  for (uint32_t BI = 0; BI < F.blocks.size(); ++BI) {
    Block &B = F.blocks[BI];
    bool FallsThrough = true;
    auto Add = [&](uint32_t S) {
      for (uint32_t X : B.succs)
        if (X == S)
          return;
      B.succs.push_back(S);
    };
    for (const Inst &I : B.insts) {
      if (I.op == Opcode::BRA)
        Add(I.ops[0].target);
      if (I.op == Opcode::BRX)
        for (uint32_t T : B.jumpTargets)
          Add(T);
      if (isTerminator(I))
        FallsThrough = false;
    }
    if (FallsThrough && BI + 1 < F.blocks.size())
      Add(BI + 1);
  }
  for (uint32_t BI = 0; BI < F.blocks.size(); ++BI)
    for (uint32_t S : F.blocks[BI].succs)
      F.blocks[S].preds.push_back(BI);
}

//===----------------------------------------------------------------------===//
// Verifier
//===----------------------------------------------------------------------===//

static bool isPredKind(OperandKind K) { return K == OperandKind::P || K == OperandKind::PN; }

std::vector<std::string> verify(const Function &F) {
  std::vector<std::string> Errs;
  auto Err = [&](uint32_t B, size_t Idx, const std::string &Msg) {
    Errs.push_back(fmt::format("{}: block {} inst {}: {}", F.name, B, Idx, Msg));
  };
  if (F.blocks.empty())
    Errs.push_back(F.name + ": no blocks");
  for (uint32_t BI = 0; BI < F.blocks.size(); ++BI) {
    const Block &B = F.blocks[BI];
    bool SeenTerm = false;
    for (size_t II = 0; II < B.insts.size(); ++II) {
      const Inst &I = B.insts[II];
      const isa::OpInfo &Info = I.info();
      if (!Info.valid) {
        Err(BI, II, "invalid opcode");
        continue;
      }
      if (SeenTerm)
        Err(BI, II, "instruction after a terminator");
      if (isTerminator(I))
        SeenTerm = true;
      // Guard.
      if (I.guard.kind == OpndKind::VReg) {
        if (I.guard.reg >= F.vregs.size() || F.regClass(I.guard.reg) != RegClass::Pred)
          Err(BI, II, "guard is not a predicate register");
        if (F.allocated)
          Err(BI, II, "virtual guard after register allocation");
      } else if (I.guard.kind != OpndKind::PhysPred) {
        Err(BI, II, "guard is not a predicate");
      }
      for (unsigned K = 0; K < Info.numOperands; ++K) {
        const isa::OperandInfo &OI = Info.operands[K];
        const Opnd &O = I.ops[K];
        std::string Name(OI.name);
        switch (OI.kind) {
        case OperandKind::R:
        case OperandKind::R64:
        case OperandKind::ADDR:
        case OperandKind::ADDR64: {
          if (O.kind == OpndKind::Phys)
            break;
          if (O.kind != OpndKind::VReg) {
            Err(BI, II, "operand " + Name + " must be a register");
            break;
          }
          if (F.allocated) {
            Err(BI, II, "virtual operand " + Name + " after register allocation");
            break;
          }
          if (O.reg >= F.vregs.size()) {
            Err(BI, II, "operand " + Name + ": unknown register");
            break;
          }
          RegClass C = F.regClass(O.reg);
          if (C == RegClass::Pred || C == RegClass::Barrier) {
            Err(BI, II, "operand " + Name + " must be a general register, is " + className(C));
            break;
          }
          unsigned W = operandWords(I, K);
          if (O.sub == kWhole) {
            if (classWords(C) != W)
              Err(BI, II,
                  fmt::format("operand {} needs {} words, register %{} is {}", Name, W, O.reg,
                              className(C)));
          } else {
            if (W != 1 || O.sub >= classWords(C))
              Err(BI, II, "operand " + Name + ": bad word selection");
          }
          break;
        }
        case OperandKind::P:
        case OperandKind::PN:
          if (O.kind == OpndKind::PhysPred)
            break;
          if (O.kind != OpndKind::VReg || O.reg >= F.vregs.size() ||
              F.regClass(O.reg) != RegClass::Pred)
            Err(BI, II, "operand " + Name + " must be a predicate");
          else if (F.allocated)
            Err(BI, II, "virtual predicate after register allocation");
          if (OI.kind == OperandKind::P && O.neg)
            Err(BI, II, "operand " + Name + " cannot be negated");
          break;
        case OperandKind::B:
          if (O.kind == OpndKind::PhysBar)
            break;
          if (O.kind != OpndKind::VReg || O.reg >= F.vregs.size() ||
              F.regClass(O.reg) != RegClass::Barrier)
            Err(BI, II, "operand " + Name + " must be a convergence barrier");
          break;
        case OperandKind::REL:
          if (O.kind == OpndKind::Block) {
            if (O.target >= F.blocks.size())
              Err(BI, II, "branch to a missing block");
          } else if (O.kind != OpndKind::Func) {
            Err(BI, II, "operand " + Name + " must be a code target");
          }
          break;
        case OperandKind::I32:
        case OperandKind::U32:
        case OperandKind::F32:
          if (O.kind != OpndKind::Imm && O.kind != OpndKind::SymLo && O.kind != OpndKind::SymHi)
            Err(BI, II, "operand " + Name + " must be an immediate");
          break;
        case OperandKind::U4:
        case OperandKind::U8:
        case OperandKind::SR:
          if (O.kind != OpndKind::Imm)
            Err(BI, II, "operand " + Name + " must be an immediate");
          break;
        }
        (void)isPredKind;
      }
    }
  }
  return Errs;
}

//===----------------------------------------------------------------------===//
// Printer
//===----------------------------------------------------------------------===//

static std::string opndText(const Function &F, const Opnd &O) {
  switch (O.kind) {
  case OpndKind::None:
    return "_";
  case OpndKind::VReg: {
    std::string S = (O.neg ? "!" : "") + std::string("%") +
                    (O.reg < F.vregs.size() ? className(F.regClass(O.reg)) : "?") +
                    std::to_string(O.reg);
    if (O.sub != kWhole)
      S += "." + std::to_string(O.sub);
    return S;
  }
  case OpndKind::Phys:
    return O.reg == isa::kZeroReg ? "RZ" : "R" + std::to_string(O.reg);
  case OpndKind::PhysPred:
    return std::string(O.neg ? "!" : "") +
           (O.reg == isa::kTruePred ? "PT" : "P" + std::to_string(O.reg));
  case OpndKind::PhysBar:
    return "B" + std::to_string(O.reg);
  case OpndKind::Imm:
    return fmt::format("{:#x}", uint32_t(O.imm));
  case OpndKind::Block:
    return "bb" + std::to_string(O.target);
  case OpndKind::Func:
    return "func" + std::to_string(O.target);
  case OpndKind::SymLo:
    return fmt::format("lo(sym{}+{})", O.target, O.imm);
  case OpndKind::SymHi:
    return fmt::format("hi(sym{}+{})", O.target, O.imm);
  }
  return "?";
}

std::string print(const Function &F, const Inst &I) {
  const isa::OpInfo &Info = I.info();
  std::string S;
  if (I.isGuarded())
    S += "@" + opndText(F, I.guard) + " ";
  S += std::string(Info.name);
  for (unsigned M = 0; M < Info.numMods; ++M) {
    const isa::ModInfo &MI = Info.mods[M];
    if (MI.enumId == isa::EnumId::None) {
      if (I.mods[M])
        S += "." + std::string(MI.name);
    } else {
      const isa::EnumInfo &E = isa::kEnums[unsigned(MI.enumId)];
      if (I.mods[M] < E.count && int(I.mods[M]) != E.omit)
        S += "." + std::string(E.values[I.mods[M]]);
    }
  }
  for (unsigned K = 0; K < Info.numOperands; ++K) {
    S += K ? ", " : " ";
    const isa::OperandInfo &OI = Info.operands[K];
    if (OI.kind == OperandKind::ADDR || OI.kind == OperandKind::ADDR64) {
      S += "[" + opndText(F, I.ops[K]);
      if (I.ops[K].imm || I.ops[K].frame != FrameRel::None)
        S += fmt::format("+{}{}", I.ops[K].imm,
                         I.ops[K].frame == FrameRel::Incoming ? "+frame" : "");
      S += "]";
    } else if (OI.kind == OperandKind::SR && I.ops[K].kind == OpndKind::Imm &&
               unsigned(I.ops[K].imm) < isa::kNumSRegs) {
      S += "SR_" + std::string(isa::kSRegs[unsigned(I.ops[K].imm)].name);
    } else {
      S += opndText(F, I.ops[K]);
    }
  }
  return S;
}

std::string print(const Function &F) {
  std::string S = fmt::format("function {}{}:\n", F.name, F.isKernel ? " (kernel)" : "");
  for (uint32_t BI = 0; BI < F.blocks.size(); ++BI) {
    S += fmt::format("bb{}:  ; {}\n", BI, F.blocks[BI].name);
    for (const Inst &I : F.blocks[BI].insts)
      S += "  " + print(F, I) + "\n";
  }
  return S;
}

} // namespace wf::codegen

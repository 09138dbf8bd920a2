//===- Optimize.cpp - Constant folding, copy propagation, DCE --------------===//
//
// Part of Warpforge. Local (per block) constant and copy propagation on the
// non-SSA WIR, immediate-form selection, and global dead code elimination
// from liveness. PTX semantics are kept exactly: nothing is fused or
// reassociated here (mul/add fusion is only what PTX states with fma/mad).
//
//===----------------------------------------------------------------------===//

#include "warpforge/codegen/Passes.h"

#include "LowerImpl.h"

#include <map>
#include <optional>

namespace wf::codegen {

using isa::Opcode;

static uint64_t key(const Opnd &O) { return uint64_t(O.reg) * 8 + (O.sub == kWhole ? 7 : O.sub); }

static bool isPT(const Opnd &O) {
  return O.kind == OpndKind::PhysPred && O.reg == isa::kTruePred && !O.neg;
}

/// Invalidates facts about every register I writes.
template <class MapT> static void killDefs(const Inst &I, MapT &Map) {
  for (unsigned K = 0; K < I.numOps(); ++K) {
    const Opnd &O = I.ops[K];
    if (O.kind != OpndKind::VReg || !isDefOperand(I, K))
      continue;
    for (auto It = Map.begin(); It != Map.end();) {
      if (It->first / 8 == O.reg)
        It = Map.erase(It);
      else
        ++It;
    }
  }
}

unsigned foldConstants(Function &F) {
  unsigned N = 0;
  for (Block &B : F.blocks) {
    std::map<uint64_t, uint32_t> Const;
    for (Inst &I : B.insts) {
      auto C = [&](const Opnd &O) -> std::optional<uint32_t> {
        if (O.kind == OpndKind::Phys && O.reg == isa::kZeroReg)
          return 0u;
        if (O.kind != OpndKind::VReg)
          return std::nullopt;
        auto It = Const.find(key(O));
        if (It == Const.end())
          return std::nullopt;
        return It->second;
      };
      bool Plain = !I.isGuarded();
      // Immediate forms.
      switch (I.op) {
      case Opcode::IADD:
        if (isPT(I.ops[3]) && isPT(I.ops[4]) && !getMod(I, "x")) {
          if (auto V = C(I.ops[2])) {
            int64_t Imm = getMod(I, "invb") ? -int64_t(int32_t(*V)) : int64_t(int32_t(*V));
            I.op = Opcode::IADD_I;
            I.ops[2] = Opnd::imm32(Imm);
            I.ops[3] = I.ops[4] = Opnd();
            I.mods = {};
            ++N;
          } else if (auto V2 = C(I.ops[1]); V2 && !getMod(I, "invb")) {
            I.op = Opcode::IADD_I;
            I.ops[1] = I.ops[2];
            I.ops[2] = Opnd::imm32(int32_t(*V2));
            I.ops[3] = I.ops[4] = Opnd();
            I.mods = {};
            ++N;
          }
        }
        break;
      case Opcode::IMUL:
        if (auto V = C(I.ops[2])) {
          I.op = Opcode::IMUL_I;
          I.ops[2] = Opnd::imm32(int32_t(*V));
          ++N;
        } else if (auto V2 = C(I.ops[1])) {
          I.op = Opcode::IMUL_I;
          I.ops[1] = I.ops[2];
          I.ops[2] = Opnd::imm32(int32_t(*V2));
          ++N;
        }
        break;
      case Opcode::ISETP:
        if (isPT(I.ops[3]) && getMod(I, "bop") == 0 && getMod(I, "ty") < 2) {
          if (auto V = C(I.ops[2])) {
            uint32_t Cmp = getMod(I, "cmp"), Ty = getMod(I, "ty");
            I.op = Opcode::ISETP_I;
            I.ops[2] = Opnd::imm32(int32_t(*V));
            I.ops[3] = Opnd();
            I.mods = {};
            setMod(I, "cmp", Cmp);
            setMod(I, "ty", Ty);
            ++N;
          }
        }
        break;
      case Opcode::SHL:
      case Opcode::SHR:
        if (auto V = C(I.ops[2]); V && *V < 64) {
          uint32_t Ty = I.op == Opcode::SHR ? getMod(I, "ty") : 0;
          I.op = I.op == Opcode::SHL ? Opcode::SHL_I : Opcode::SHR_I;
          I.ops[2] = Opnd::imm32(std::min<uint32_t>(*V, 32));
          I.mods = {};
          if (I.op == Opcode::SHR_I)
            setMod(I, "ty", Ty);
          ++N;
        }
        break;
      case Opcode::LOP3: {
        uint32_t Lut = uint32_t(I.ops[4].imm);
        if (I.ops[3].kind == OpndKind::Phys && I.ops[3].reg == isa::kZeroReg &&
            (Lut == 0xC0 || Lut == 0xFC || Lut == 0x3C)) {
          if (auto V = C(I.ops[2])) {
            I.op = Opcode::LOP_I;
            I.ops[2] = Opnd::imm32(int64_t(*V));
            I.ops[3] = I.ops[4] = Opnd();
            I.mods = {};
            setMod(I, "fn",
                   uint32_t(Lut == 0xC0   ? isa::LogicOp::AND
                            : Lut == 0xFC ? isa::LogicOp::OR
                                          : isa::LogicOp::XOR));
            ++N;
          }
        }
        break;
      }
      case Opcode::MOV:
        if (auto V = C(I.ops[1]); V && !(I.ops[1].kind == OpndKind::Phys)) {
          I.op = Opcode::MOV32I;
          I.ops[1] = Opnd::imm32(int64_t(*V));
          ++N;
        }
        break;
      default:
        break;
      }
      killDefs(I, Const);
      if (Plain && I.op == Opcode::MOV32I && I.ops[0].kind == OpndKind::VReg &&
          I.ops[1].kind == OpndKind::Imm)
        Const[key(I.ops[0])] = uint32_t(I.ops[1].imm);
      if (Plain && I.op == Opcode::MOV && I.ops[0].kind == OpndKind::VReg && C(I.ops[1]))
        Const[key(I.ops[0])] = *C(I.ops[1]);
    }
  }
  return N;
}

unsigned propagateCopies(Function &F) {
  unsigned N = 0;
  for (Block &B : F.blocks) {
    std::map<uint64_t, Opnd> Copy; // destination word -> source word
    for (Inst &I : B.insts) {
      // Rewrite uses (never definitions).
      for (unsigned K = 0; K < I.numOps(); ++K) {
        Opnd &O = I.ops[K];
        if (O.kind != OpndKind::VReg || isDefOperand(I, K))
          continue;
        if (O.sub == kWhole && F.regClass(O.reg) != RegClass::R32)
          continue;
        auto It = Copy.find(key(O));
        if (It == Copy.end())
          continue;
        int64_t Off = O.imm;
        FrameRel FR = O.frame;
        O = It->second;
        O.imm = Off;
        O.frame = FR;
        ++N;
      }
      // Kill facts about written registers, as destination or as source.
      for (unsigned K = 0; K < I.numOps(); ++K) {
        const Opnd &O = I.ops[K];
        if (O.kind != OpndKind::VReg || !isDefOperand(I, K))
          continue;
        for (auto It = Copy.begin(); It != Copy.end();) {
          if (It->first / 8 == O.reg ||
              (It->second.kind == OpndKind::VReg && It->second.reg == O.reg))
            It = Copy.erase(It);
          else
            ++It;
        }
      }
      if (!I.isGuarded() && I.op == Opcode::MOV && I.ops[0].kind == OpndKind::VReg &&
          (I.ops[1].kind == OpndKind::VReg ||
           (I.ops[1].kind == OpndKind::Phys && I.ops[1].reg == isa::kZeroReg))) {
        const Opnd &D = I.ops[0];
        if (D.sub != kWhole || F.regClass(D.reg) == RegClass::R32) {
          Opnd S = I.ops[1];
          S.imm = 0;
          S.frame = FrameRel::None;
          if (!(S.kind == OpndKind::VReg && S.reg == D.reg))
            Copy[key(D)] = S;
        }
      }
    }
  }
  return N;
}

unsigned eliminateDeadCode(Function &F) {
  unsigned Removed = 0;
  computeCFG(F);
  Liveness L = computeLiveness(F);
  std::vector<uint32_t> U, D;
  for (uint32_t BI = 0; BI < F.blocks.size(); ++BI) {
    Block &B = F.blocks[BI];
    std::vector<bool> Live = L.liveOut[BI];
    std::vector<bool> Keep(B.insts.size(), true);
    for (size_t K = B.insts.size(); K-- > 0;) {
      const Inst &I = B.insts[K];
      bool Partial;
      instDefs(I, D, Partial);
      bool HasPhysDef = false;
      for (unsigned J = 0; J < I.numOps(); ++J)
        if (isDefOperand(I, J) &&
            (I.ops[J].kind == OpndKind::Phys ||
             (I.ops[J].kind == OpndKind::PhysPred && I.ops[J].reg != isa::kTruePred)))
          HasPhysDef = I.ops[J].reg != isa::kZeroReg;
      bool Dead = !hasSideEffects(I) && !HasPhysDef && !D.empty() && !isTerminator(I);
      if (Dead)
        for (uint32_t R : D)
          if (Live[R])
            Dead = false;
      // Loads can fault: keep them only if used (C semantics allow dropping dead loads).
      if (Dead) {
        Keep[K] = false;
        ++Removed;
        continue;
      }
      if (!Partial)
        for (uint32_t R : D)
          Live[R] = false;
      instUses(I, U);
      for (uint32_t R : U)
        Live[R] = true;
    }
    std::vector<Inst> Out;
    Out.reserve(B.insts.size());
    for (size_t K = 0; K < B.insts.size(); ++K)
      if (Keep[K])
        Out.push_back(std::move(B.insts[K]));
    B.insts = std::move(Out);
  }
  return Removed;
}

void optimize(Function &F) {
  for (int Round = 0; Round < 3; ++Round) {
    unsigned N = propagateCopies(F);
    N += foldConstants(F);
    N += eliminateDeadCode(F);
    if (!N)
      break;
  }
}

} // namespace wf::codegen

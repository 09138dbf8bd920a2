//===- RegAlloc.cpp - Linear-scan register allocation, frames, calls ------===//
//
// Part of Warpforge. Convergence barriers B0..B15 are colored first, by the
// points each one occupies (assignBarriers). Live intervals (the hull of each
// virtual register's live positions over the linear block order) are then
// allocated by linear scan: general registers R1..R{max-1} (R0 is the stack
// pointer) with pair and quad alignment, predicates P0..P14. A register that
// does not fit is spilled, a general one to a 4/8/16-byte slot of the frame's
// spill area, a predicate to a general register: each use reloads it into a
// fresh short-lived register (LDL, ISETP) and each definition stores it back
// (STL, P2R); then allocation starts again. After
// allocation, registers live across a call are saved around it (all registers
// are caller-saved), and the prologue and epilogue are added.
//
//===----------------------------------------------------------------------===//

#include "warpforge/codegen/Passes.h"

#include "LowerImpl.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace wf::codegen {

using isa::Opcode;

namespace {

struct Interval {
  uint32_t reg;
  uint32_t start = ~0u, end = 0;
};

uint32_t align(uint32_t V, uint32_t A) { return (V + A - 1) / A * A; }

Inst mkInst(Opcode Op) {
  Inst I;
  I.op = Op;
  return I;
}

Inst memInst(Opcode Op, Opnd Reg, uint32_t Base, int64_t Off, isa::MemSize Sz) {
  Inst I = mkInst(Op);
  Opnd A = Opnd::phys(Base);
  A.imm = Off;
  if (isa::isStore(Op)) {
    I.ops[0] = A;
    I.ops[1] = Reg;
  } else {
    I.ops[0] = Reg;
    I.ops[1] = A;
  }
  setMod(I, "size", uint32_t(Sz));
  return I;
}

isa::MemSize sizeFor(RegClass C) {
  return C == RegClass::R64    ? isa::MemSize::B64
         : C == RegClass::R128 ? isa::MemSize::B128
                               : isa::MemSize::B32;
}

using Bits = std::vector<uint64_t>;
bool testBit(const Bits &B, uint32_t I) { return (B[I / 64] >> (I % 64)) & 1; }
void setBit(Bits &B, uint32_t I) { B[I / 64] |= uint64_t(1) << (I % 64); }
void resetBit(Bits &B, uint32_t I) { B[I / 64] &= ~(uint64_t(1) << (I % 64)); }

/// The convergence barrier (virtual register) an instruction sets, waits on or writes; ~0u: none.
uint32_t barrierOperand(const Function &F, const Inst &I) {
  for (unsigned K = 0; K < I.numOps(); ++K)
    if (I.ops[K].kind == OpndKind::VReg && F.regClass(I.ops[K].reg) == RegClass::Barrier)
      return I.ops[K].reg;
  return ~0u;
}

/// Assigns physical convergence barriers (vreg -> B number, ~0u: none). A barrier's register is
/// warp-wide state that must stay untouched from its BSSY until its BSYNC releases the threads,
/// and groups of its threads wait at the BSYNC while the others run anywhere in the region, also
/// around loop back edges through the BSSY again. So a barrier *occupies* every point that is
/// reachable from its BSSY (not through its clearing R2B) and that can still reach its BSYNC (a
/// thread that ends on the way, EXIT, counts as going on to the return block). Two barriers
/// interfere when both occupy, or one occupies and the other is touched, at one instruction;
/// this is exact where the hull of positions over the block order is not (a region with a block
/// laid out far away held its barrier over everything in between). The barriers are colored in
/// order of first occupation, B{barrierBase}.. first; then one occupying no call may take any
/// lower free register, and one occupying calls any above the ranges of the functions called
/// there.
///
/// A region that finds no register at all (more than 16 nested regions, each of which may have
/// threads waiting at its BSYNC while the innermost runs) loses its BSSY/BSYNC: its threads meet
/// again at the enclosing BSYNC. Spilling instead (B2R/R2B through a general register) cannot
/// work: the BSYNC wait state belongs to the physical barrier, so a group waiting at a reloaded
/// barrier would be released by a nested region's BSYNC on the same register, and the next
/// reload would reinstate its departed threads in the mask: barrier deadlock.
std::vector<uint32_t> assignBarriers(Function &F) {
  std::vector<uint32_t> Assign(F.vregs.size(), ~0u);
  std::vector<uint32_t> Index(F.vregs.size(), ~0u), Bars;
  for (const Block &B : F.blocks)
    for (const Inst &I : B.insts)
      if (uint32_t V = barrierOperand(F, I); V != ~0u && Index[V] == ~0u) {
        Index[V] = uint32_t(Bars.size());
        Bars.push_back(V);
      }
  F.droppedBarriers = 0;
  if (Bars.empty())
    return Assign;
  const size_t NB = F.blocks.size(), NX = Bars.size(), W = (NX + 63) / 64;
  const uint32_t Ret = uint32_t(NB - 1);
  auto BarOf = [&](const Inst &I) {
    uint32_t V = barrierOperand(F, I);
    return V == ~0u ? ~0u : Index[V];
  };
  // Forward: set by a BSSY and not cleared since. Backward: may still reach the BSYNC.
  auto Forward = [&](const Inst &I, Bits &S) {
    if (uint32_t X = BarOf(I); X != ~0u && I.op == Opcode::BSSY)
      setBit(S, X);
    else if (X != ~0u && I.op != Opcode::BSYNC)
      resetBit(S, X);
  };
  auto Backward = [&](const Inst &I, Bits &S) {
    if (uint32_t X = BarOf(I); X != ~0u && I.op == Opcode::BSYNC)
      setBit(S, X);
    else if (X != ~0u && I.op != Opcode::BSSY)
      resetBit(S, X);
  };
  std::vector<std::vector<uint32_t>> Succs(NB);
  for (uint32_t B = 0; B < NB; ++B) {
    Succs[B] = F.blocks[B].succs;
    if (Succs[B].empty() && B != Ret)
      Succs[B].push_back(Ret);
  }
  std::vector<Bits> FIn(NB, Bits(W)), FOut(NB, Bits(W)), BIn(NB, Bits(W)), BOut(NB, Bits(W));
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t B = 0; B < NB; ++B) {
      Bits S(W);
      for (uint32_t P : F.blocks[B].preds)
        for (size_t K = 0; K < W; ++K)
          S[K] |= FOut[P][K];
      FIn[B] = S;
      for (const Inst &I : F.blocks[B].insts)
        Forward(I, S);
      Changed |= S != FOut[B];
      FOut[B] = std::move(S);
    }
    for (size_t B = NB; B-- > 0;) {
      Bits S(W);
      for (uint32_t Su : Succs[B])
        for (size_t K = 0; K < W; ++K)
          S[K] |= BIn[Su][K];
      BOut[B] = S;
      for (size_t K = F.blocks[B].insts.size(); K-- > 0;)
        Backward(F.blocks[B].insts[K], S);
      Changed |= S != BIn[B];
      BIn[B] = std::move(S);
    }
  }
  // Occupied or touched barriers at each instruction: interference, first positions, and the
  // lowest register each may take (above the barriers of the functions called where it is set).
  std::vector<Bits> Adj(NX, Bits(W));
  std::vector<uint32_t> First(NX, ~0u), Last(NX, 0), CallFloor(NX, 0);
  uint32_t Pos = 0;
  for (size_t B = 0; B < NB; ++B) {
    const auto &Insts = F.blocks[B].insts;
    std::vector<Bits> BackBefore(Insts.size() + 1); // [K]: before instruction K
    BackBefore.back() = BOut[B];
    for (size_t K = Insts.size(); K-- > 0;) {
      BackBefore[K] = BackBefore[K + 1];
      Backward(Insts[K], BackBefore[K]);
    }
    Bits Fwd = FIn[B], Prev(W);
    std::vector<uint32_t> Members;
    for (size_t K = 0; K < Insts.size(); ++K, ++Pos) {
      const Inst &I = Insts[K];
      Bits Here(W);
      for (size_t J = 0; J < W; ++J)
        Here[J] = Fwd[J] & BackBefore[K][J];
      Forward(I, Fwd);
      for (size_t J = 0; J < W; ++J)
        Here[J] |= Fwd[J] & BackBefore[K + 1][J];
      if (uint32_t X = BarOf(I); X != ~0u)
        setBit(Here, X);
      if (I.op == Opcode::CALL || I.op == Opcode::CALLR) {
        uint32_t Top = F.indirectBarrierTop;
        if (I.op == Opcode::CALL && I.ops[1].kind == OpndKind::Func)
          Top =
              I.ops[1].target < F.calleeBarrierTop.size() ? F.calleeBarrierTop[I.ops[1].target] : 0;
        for (uint32_t Y = 0; Y < NX; ++Y)
          if (testBit(Here, Y))
            CallFloor[Y] = std::max(CallFloor[Y], Top);
      }
      if (Here != Prev) {
        Prev = Here;
        Members.clear();
        for (uint32_t Y = 0; Y < NX; ++Y)
          if (testBit(Here, Y))
            Members.push_back(Y);
        for (uint32_t A : Members)
          for (uint32_t C : Members)
            if (A != C)
              setBit(Adj[A], C);
      }
      for (uint32_t Y : Members) {
        First[Y] = std::min(First[Y], Pos);
        Last[Y] = Pos;
      }
    }
  }
  std::vector<uint32_t> Order(NX);
  for (uint32_t X = 0; X < NX; ++X)
    Order[X] = X;
  std::stable_sort(Order.begin(), Order.end(),
                   [&](uint32_t A, uint32_t B) { return First[A] < First[B]; });
  const uint32_t NumRegs = isa::kNumBarrierRegs;
  const uint32_t Base = std::min(F.barrierBase, NumRegs);
  // Greedy coloring. Where registers are to spare (below Limit), a barrier also avoids those of
  // barriers whose span over the block order overlaps its own: sibling regions (the two sides of
  // an if/else) then rarely share one, which would rely on the scheduler running one side's region
  // to its join before the other side sets the register.
  auto Colors = [&](uint32_t Limit, std::vector<uint32_t> &Color) {
    Color.assign(NX, ~0u);
    uint32_t Top = Base;
    for (uint32_t X : Order) {
      std::vector<bool> Taken(NumRegs, false), Near(NumRegs, false);
      for (uint32_t Y = 0; Y < NX; ++Y) {
        if (Color[Y] == ~0u)
          continue;
        if (testBit(Adj[X], Y))
          Taken[Color[Y]] = Near[Color[Y]] = true;
        else if (First[Y] <= Last[X] && First[X] <= Last[Y])
          Near[Color[Y]] = true;
      }
      auto Pick = [&](uint32_t Lo, uint32_t Hi, const std::vector<bool> &Used) {
        for (uint32_t R = Lo; R < Hi && Color[X] == ~0u; ++R)
          if (!Used[R])
            Color[X] = R;
      };
      Pick(Base, Limit, Near);
      Pick(Base, NumRegs, Taken);
      Pick(CallFloor[X], Base, Taken);
      if (Color[X] != ~0u)
        Top = std::max(Top, Color[X] + 1);
    }
    return Top;
  };
  // The spread-out coloring is kept unless it leaves more regions without a barrier, or, in a
  // device function, needs more registers (its callers' barriers set across calls to it go above
  // its range).
  std::vector<uint32_t> Color, Spread;
  auto Missing = [&](const std::vector<uint32_t> &C) {
    return std::count(C.begin(), C.end(), ~0u);
  };
  uint32_t Top = Colors(Base, Color);
  uint32_t Limit = F.isKernel ? NumRegs : Top;
  if (Limit > Base) {
    uint32_t SpreadTop = Colors(Limit, Spread);
    if (Missing(Spread) <= Missing(Color) && (F.isKernel || SpreadTop <= Top))
      Color = std::move(Spread);
  }
  std::vector<bool> Dropped(NX, false);
  for (uint32_t X = 0; X < NX; ++X) {
    if (Color[X] == ~0u) {
      Dropped[X] = true;
      ++F.droppedBarriers;
    } else {
      Assign[Bars[X]] = Color[X];
    }
  }
  if (F.droppedBarriers)
    for (Block &B : F.blocks)
      B.insts.erase(std::remove_if(B.insts.begin(), B.insts.end(),
                                   [&](const Inst &I) {
                                     uint32_t X = BarOf(I);
                                     return X != ~0u && Dropped[X];
                                   }),
                    B.insts.end());
  return Assign;
}

} // namespace

Status<> allocateRegisters(Function &F, uint32_t MaxRegs) {
  MaxRegs = std::min<uint32_t>(MaxRegs, isa::kNumRegs);
  std::vector<bool> IsTemp(F.vregs.size(), false);
  std::map<uint32_t, uint32_t> SpillSlot; // vreg -> frame offset (in the spill area)
  std::map<uint32_t, uint32_t> PredHome;  // spilled predicate -> general register holding it
  uint32_t SpillBytes = 0;
  std::vector<uint32_t> Assign;
  computeCFG(F);
  const std::vector<uint32_t> BarrierReg = assignBarriers(F);

  for (int Round = 0;; ++Round) {
    if (Round > 12)
      return Error(fmt::format("{}: register allocation did not converge", F.name));
    computeCFG(F);
    Liveness L = computeLiveness(F);
    std::vector<bool> Multi = multiDefs(F);
    size_t NV = F.vregs.size();
    IsTemp.resize(NV, false);
    std::vector<Interval> Iv(NV);
    for (uint32_t V = 0; V < NV; ++V)
      Iv[V].reg = V;
    uint32_t Pos = 0;
    std::vector<uint32_t> U, D;
    auto Touch = [&](uint32_t V, uint32_t P) {
      Iv[V].start = std::min(Iv[V].start, P);
      Iv[V].end = std::max(Iv[V].end, P);
    };
    for (uint32_t B = 0; B < F.blocks.size(); ++B) {
      uint32_t BStart = Pos;
      for (uint32_t V = 0; V < NV; ++V)
        if (L.liveIn[B][V])
          Touch(V, BStart);
      for (const Inst &I : F.blocks[B].insts) {
        Pos += 2;
        instUses(I, U, &Multi);
        for (uint32_t V : U)
          Touch(V, Pos - 1);
        bool Partial;
        instDefs(I, D, Partial);
        for (uint32_t V : D)
          Touch(V, Pos);
      }
      Pos += 2;
      for (uint32_t V = 0; V < NV; ++V)
        if (L.liveOut[B][V])
          Touch(V, Pos);
    }
    std::vector<uint32_t> Order;
    for (uint32_t V = 0; V < NV; ++V)
      if (Iv[V].start != ~0u && F.regClass(V) != RegClass::Barrier)
        Order.push_back(V);
    std::sort(Order.begin(), Order.end(), [&](uint32_t A, uint32_t B) {
      return Iv[A].start != Iv[B].start ? Iv[A].start < Iv[B].start : A < B;
    });
    Assign.assign(NV, ~0u);
    for (uint32_t V = 0; V < BarrierReg.size(); ++V)
      if (F.regClass(V) == RegClass::Barrier)
        Assign[V] = BarrierReg[V];
    std::vector<uint32_t> GprOwner(MaxRegs, ~0u), PredOwner(isa::kNumPreds, ~0u);
    std::vector<uint32_t> Active;
    std::set<uint32_t> ToSpill;
    for (uint32_t V : Order) {
      // Expire.
      for (size_t K = 0; K < Active.size();) {
        uint32_t A = Active[K];
        if (Iv[A].end < Iv[V].start) {
          RegClass C = F.regClass(A);
          uint32_t R = Assign[A];
          if (C == RegClass::Pred)
            PredOwner[R] = ~0u;
          else
            for (unsigned W = 0; W < classWords(C); ++W)
              GprOwner[R + W] = ~0u;
          Active.erase(Active.begin() + long(K));
        } else {
          ++K;
        }
      }
      RegClass C = F.regClass(V);
      if (C == RegClass::Pred) {
        uint32_t R = 0;
        while (R < PredOwner.size() && PredOwner[R] != ~0u)
          ++R;
        if (R == PredOwner.size()) {
          // Spill the active non-temporary predicate ending last, or V, to a general register.
          uint32_t Victim = ~0u;
          for (uint32_t A : Active)
            if (F.regClass(A) == RegClass::Pred && !IsTemp[A] &&
                (Victim == ~0u || Iv[A].end > Iv[Victim].end))
              Victim = A;
          if (Victim != ~0u && (Iv[Victim].end > Iv[V].end || IsTemp[V])) {
            ToSpill.insert(Victim);
            R = Assign[Victim];
            Active.erase(std::find(Active.begin(), Active.end(), Victim));
          } else if (!IsTemp[V]) {
            ToSpill.insert(V);
            continue;
          } else {
            return Error(fmt::format("{}: more than {} predicates used by one instruction", F.name,
                                     PredOwner.size()));
          }
        }
        PredOwner[R] = V;
        Assign[V] = R;
        Active.push_back(V);
        continue;
      }
      unsigned W = classWords(C);
      uint32_t Found = ~0u;
      for (uint32_t R = align(kFirstAllocReg, W); R + W <= MaxRegs; R += W) {
        if (R == kSPReg)
          continue;
        bool Free = true;
        for (unsigned K = 0; K < W; ++K)
          if (GprOwner[R + K] != ~0u)
            Free = false;
        if (Free) {
          Found = R;
          break;
        }
      }
      if (Found == ~0u) {
        // Spill the active non-temporary interval ending last whose slot can take V, or V.
        uint32_t Victim = ~0u;
        for (uint32_t A : Active) {
          RegClass AC = F.regClass(A);
          if (AC == RegClass::Pred || IsTemp[A])
            continue;
          if (classWords(AC) < W || Assign[A] % W)
            continue;
          if (Victim == ~0u || Iv[A].end > Iv[Victim].end)
            Victim = A;
        }
        if (Victim != ~0u && (Iv[Victim].end > Iv[V].end || IsTemp[V])) {
          ToSpill.insert(Victim);
          uint32_t R = Assign[Victim];
          for (unsigned K = 0; K < classWords(F.regClass(Victim)); ++K)
            GprOwner[R + K] = ~0u;
          Active.erase(std::find(Active.begin(), Active.end(), Victim));
          Found = R;
        } else if (!IsTemp[V]) {
          ToSpill.insert(V);
          continue;
        } else {
          return Error(
              fmt::format("{}: cannot allocate registers within a budget of {}", F.name, MaxRegs));
        }
      }
      for (unsigned K = 0; K < W; ++K)
        GprOwner[Found + K] = V;
      Assign[V] = Found;
      Active.push_back(V);
    }
    if (ToSpill.empty())
      break;
    // Rewrite spilled registers: a reload before each use, a store after each definition. A
    // predicate lives in a general register (P2R / ISETP), which may itself be spilled later.
    for (uint32_t V : ToSpill) {
      if (F.regClass(V) == RegClass::Pred) {
        if (!PredHome.count(V))
          PredHome[V] = F.newVReg(RegClass::R32);
        continue;
      }
      unsigned W = classWords(F.regClass(V));
      SpillBytes = align(SpillBytes, 4 * W);
      SpillSlot[V] = SpillBytes;
      SpillBytes += 4 * W;
    }
    IsTemp.resize(F.vregs.size(), false);
    auto Reload = [&](uint32_t V, uint32_t T) {
      if (F.regClass(V) != RegClass::Pred)
        return memInst(Opcode::LDL, Opnd::vreg(T), kSPReg, -1 - int64_t(SpillSlot[V]),
                       sizeFor(F.regClass(V)));
      Inst Set = mkInst(Opcode::ISETP_I);
      Set.ops[0] = Opnd::pred(T);
      Set.ops[1] = Opnd::vreg(PredHome[V]);
      Set.ops[2] = Opnd::imm32(0);
      setMod(Set, "cmp", uint32_t(isa::ICmp::NE));
      return Set;
    };
    auto Store = [&](uint32_t V, uint32_t T) {
      if (F.regClass(V) != RegClass::Pred)
        return memInst(Opcode::STL, Opnd::vreg(T), kSPReg, -1 - int64_t(SpillSlot[V]),
                       sizeFor(F.regClass(V)));
      Inst P2R = mkInst(Opcode::P2R);
      P2R.ops[0] = Opnd::vreg(PredHome[V]);
      P2R.ops[1] = Opnd::pred(T);
      return P2R;
    };
    for (Block &B : F.blocks) {
      std::vector<Inst> Out;
      for (Inst I : B.insts) {
        std::map<uint32_t, uint32_t> Tmp;
        std::vector<uint32_t> After; // spilled registers the instruction defines
        auto TempFor = [&](uint32_t V) {
          auto It = Tmp.find(V);
          if (It != Tmp.end())
            return It->second;
          uint32_t T = F.newVReg(F.regClass(V));
          IsTemp.resize(F.vregs.size(), false);
          IsTemp[T] = true;
          Tmp[V] = T;
          return T;
        };
        std::vector<uint32_t> Uses;
        instUses(I, Uses);
        for (uint32_t V : Uses)
          if (ToSpill.count(V) && !Tmp.count(V))
            Out.push_back(Reload(V, TempFor(V)));
        if (I.guard.kind == OpndKind::VReg && ToSpill.count(I.guard.reg))
          I.guard.reg = TempFor(I.guard.reg);
        for (unsigned K = 0; K < I.numOps(); ++K) {
          Opnd &O = I.ops[K];
          if (O.kind != OpndKind::VReg || !ToSpill.count(O.reg))
            continue;
          uint32_t V = O.reg;
          O.reg = TempFor(V);
          if (isDefOperand(I, K) && std::find(After.begin(), After.end(), V) == After.end())
            After.push_back(V);
        }
        Out.push_back(I);
        for (uint32_t V : After) // one store per spilled register
          Out.push_back(Store(V, Tmp[V]));
      }
      B.insts = std::move(Out);
    }
  }

  // Registers live across calls (computed on virtual registers, before the rewrite).
  computeCFG(F);
  Liveness L = computeLiveness(F);
  std::map<std::pair<uint32_t, size_t>, std::vector<uint32_t>> LiveAcross;
  {
    std::vector<uint32_t> U, D;
    for (uint32_t B = 0; B < F.blocks.size(); ++B) {
      std::vector<bool> Live = L.liveOut[B];
      auto &Insts = F.blocks[B].insts;
      for (size_t K = Insts.size(); K-- > 0;) {
        const Inst &I = Insts[K];
        if (I.op == Opcode::CALL || I.op == Opcode::CALLR) {
          std::vector<uint32_t> Vs;
          for (uint32_t V = 0; V < Live.size(); ++V)
            if (Live[V])
              Vs.push_back(V);
          LiveAcross[{B, K}] = Vs;
        }
        bool Partial;
        instDefs(I, D, Partial);
        if (!Partial)
          for (uint32_t V : D)
            Live[V] = false;
        instUses(I, U);
        for (uint32_t V : U)
          Live[V] = true;
      }
    }
  }

  // Rewrite to physical registers.
  uint32_t MaxGpr = 0, MaxBar = 0;
  bool UsesSP = F.hasCalls;
  auto Phys = [&](Opnd &O) {
    if (O.kind == OpndKind::Phys && O.reg != isa::kZeroReg) {
      MaxGpr = std::max(MaxGpr, O.reg + 1);
      if (O.reg == kSPReg)
        UsesSP = true;
    }
    if (O.kind != OpndKind::VReg)
      return;
    RegClass C = F.regClass(O.reg);
    uint32_t R = Assign[O.reg];
    if (R == ~0u)
      R = 0; // never live: any register will do
    if (C == RegClass::Pred) {
      O.kind = OpndKind::PhysPred;
      O.reg = R == ~0u ? 0 : R;
      return;
    }
    if (C == RegClass::Barrier) {
      O.kind = OpndKind::PhysBar;
      O.reg = R;
      MaxBar = std::max(MaxBar, R + 1);
      return;
    }
    if (Assign[O.reg] == ~0u)
      R = kFirstAllocReg + 3; // dead definition: a harmless aligned register
    R = align(R, O.sub == kWhole ? classWords(C) : 1);
    uint32_t P = R + (O.sub == kWhole ? 0 : O.sub);
    O.kind = OpndKind::Phys;
    O.reg = P;
    O.sub = kWhole;
  };
  // Dead definitions got no register: give them a scratch one that is aligned for any class.
  for (uint32_t V = 0; V < F.vregs.size(); ++V)
    if (Assign[V] == ~0u) {
      RegClass C = F.regClass(V);
      Assign[V] = C == RegClass::Pred ? 0 : C == RegClass::Barrier ? F.barrierBase % 16 : 4;
    }
  for (Block &B : F.blocks)
    for (Inst &I : B.insts) {
      Phys(I.guard);
      for (unsigned K = 0; K < I.numOps(); ++K) {
        Opnd &O = I.ops[K];
        bool WasWhole = O.kind == OpndKind::VReg && O.sub == kWhole;
        uint32_t Words = WasWhole ? classWords(F.regClass(O.reg)) : 1;
        Phys(O);
        if (O.kind == OpndKind::Phys && O.reg != isa::kZeroReg)
          MaxGpr = std::max(MaxGpr, O.reg + Words);
      }
    }
  F.allocated = true;

  // Frame layout.
  FrameInfo &Fr = F.frame;
  Fr.spillBase = align(Fr.localsBase + Fr.localsSize, 16);
  Fr.spillSize = align(SpillBytes, 16);
  Fr.saveBase = Fr.spillBase + Fr.spillSize;
  Fr.saveSize = LiveAcross.empty() ? 0 : align(4 * (MaxGpr + isa::kNumPreds), 16);
  Fr.linkSlot = Fr.saveBase + Fr.saveSize;
  uint32_t LinkBytes = F.isKernel ? 0 : 4;
  Fr.size = align(Fr.linkSlot + LinkBytes, 16);
  if (Fr.size || SpillBytes || !F.isKernel)
    UsesSP = true;

  // Resolve spill slots (marked with negative offsets) and frame-relative offsets.
  for (Block &B : F.blocks)
    for (Inst &I : B.insts)
      for (unsigned K = 0; K < I.numOps(); ++K) {
        const auto Kd = I.info().operands[K].kind;
        if (Kd != isa::OperandKind::ADDR && Kd != isa::OperandKind::ADDR64)
          continue;
        Opnd &O = I.ops[K];
        if (O.kind == OpndKind::Phys && O.reg == kSPReg && O.imm < 0 &&
            (I.op == Opcode::LDL || I.op == Opcode::STL) && O.frame == FrameRel::None)
          O.imm = int64_t(Fr.spillBase) + (-1 - O.imm);
        if (O.frame == FrameRel::Incoming) {
          O.imm += Fr.size;
          O.frame = FrameRel::None;
        }
      }

  // Caller-saved registers around calls: GPRs first, then predicates through R2 (the link
  // register, clobbered by the call anyway); restored in the opposite order.
  for (auto It = LiveAcross.rbegin(); It != LiveAcross.rend(); ++It) {
    auto [B, K] = It->first;
    std::set<uint32_t> Gprs, Preds;
    for (uint32_t V : It->second) {
      RegClass C = F.regClass(V);
      if (C == RegClass::Pred)
        Preds.insert(Assign[V]);
      else if (C == RegClass::Barrier)
        continue; // callees preserve the barriers they use
      else
        for (unsigned W = 0; W < classWords(C); ++W)
          Gprs.insert(Assign[V] + W);
    }
    std::vector<Inst> Before, After;
    for (uint32_t R : Gprs)
      Before.push_back(
          memInst(Opcode::STL, Opnd::phys(R), kSPReg, Fr.saveBase + 4 * R, isa::MemSize::B32));
    for (uint32_t P : Preds) {
      Inst P2R = mkInst(Opcode::P2R);
      P2R.ops[0] = Opnd::phys(kLinkReg);
      P2R.ops[1] = Opnd::pt();
      P2R.ops[1].reg = P;
      Before.push_back(P2R);
      Before.push_back(memInst(Opcode::STL, Opnd::phys(kLinkReg), kSPReg,
                               Fr.saveBase + 4 * (MaxGpr + P), isa::MemSize::B32));
      After.push_back(memInst(Opcode::LDL, Opnd::phys(kLinkReg), kSPReg,
                              Fr.saveBase + 4 * (MaxGpr + P), isa::MemSize::B32));
      Inst Set = mkInst(Opcode::ISETP_I);
      Set.ops[0] = Opnd::pt();
      Set.ops[0].reg = P;
      Set.ops[1] = Opnd::phys(kLinkReg);
      Set.ops[2] = Opnd::imm32(0);
      setMod(Set, "cmp", uint32_t(isa::ICmp::NE));
      After.push_back(Set);
    }
    // An indirect call whose target was allocated to R2: the predicate saves above used R2 as
    // their scratch, so reload the target from its save slot.
    const Inst &Call = F.blocks[B].insts[K];
    if (!Preds.empty() && Call.op == Opcode::CALLR && Call.ops[1].kind == OpndKind::Phys &&
        Call.ops[1].reg == kLinkReg) {
      if (!Gprs.count(kLinkReg))
        Before.insert(Before.begin(), memInst(Opcode::STL, Opnd::phys(kLinkReg), kSPReg,
                                              Fr.saveBase + 4 * kLinkReg, isa::MemSize::B32));
      Before.push_back(memInst(Opcode::LDL, Opnd::phys(kLinkReg), kSPReg,
                               Fr.saveBase + 4 * kLinkReg, isa::MemSize::B32));
    }
    for (uint32_t R : Gprs)
      After.push_back(
          memInst(Opcode::LDL, Opnd::phys(R), kSPReg, Fr.saveBase + 4 * R, isa::MemSize::B32));
    auto &Insts = F.blocks[B].insts;
    InstLoc Lc = Insts[K].loc;
    for (Inst &X : Before)
      X.loc = Lc;
    for (Inst &X : After)
      X.loc = Lc;
    Insts.insert(Insts.begin() + long(K) + 1, After.begin(), After.end());
    Insts.insert(Insts.begin() + long(K), Before.begin(), Before.end());
  }

  // Prologue and epilogue.
  std::vector<Inst> Pro, Epi;
  if (F.isKernel) {
    if (UsesSP) {
      Inst S = mkInst(Opcode::S2R);
      S.ops[0] = Opnd::phys(kSPReg);
      S.ops[1] = Opnd::imm32(int64_t(isa::SReg::LOCALSIZE));
      Pro.push_back(S);
      if (Fr.size) {
        Inst A = mkInst(Opcode::IADD_I);
        A.ops[0] = A.ops[1] = Opnd::phys(kSPReg);
        A.ops[2] = Opnd::imm32(-int64_t(Fr.size));
        Pro.push_back(A);
      }
    }
  } else {
    if (Fr.size) {
      Inst A = mkInst(Opcode::IADD_I);
      A.ops[0] = A.ops[1] = Opnd::phys(kSPReg);
      A.ops[2] = Opnd::imm32(-int64_t(Fr.size));
      Pro.push_back(A);
    }
    Pro.push_back(
        memInst(Opcode::STL, Opnd::phys(kLinkReg), kSPReg, Fr.linkSlot, isa::MemSize::B32));
    Epi.push_back(
        memInst(Opcode::LDL, Opnd::phys(kLinkReg), kSPReg, Fr.linkSlot, isa::MemSize::B32));
    if (Fr.size) {
      Inst A = mkInst(Opcode::IADD_I);
      A.ops[0] = A.ops[1] = Opnd::phys(kSPReg);
      A.ops[2] = Opnd::imm32(int64_t(Fr.size));
      Epi.push_back(A);
    }
    // Before the RET of the return block (the last block).
    auto &Ret = F.blocks.back().insts;
    size_t P = Ret.size();
    while (P > 0 && Ret[P - 1].op != Opcode::RET)
      --P;
    if (P > 0)
      Ret.insert(Ret.begin() + long(P - 1), Epi.begin(), Epi.end());
  }
  auto &Entry = F.blocks.front().insts;
  Entry.insert(Entry.begin(), Pro.begin(), Pro.end());
  if (UsesSP || F.hasCalls)
    MaxGpr = std::max<uint32_t>(MaxGpr, F.isKernel && !F.hasCalls ? 1 : 3);
  F.numGprs = std::max<uint32_t>(MaxGpr, 1);
  F.numBarriers = MaxBar;
  return {};
}

} // namespace wf::codegen

//===- Schedule.cpp - List scheduling inside basic blocks ------------------===//
//
// Part of Warpforge. After register allocation every operand is physical, so
// dependences are on register numbers: read-after-write edges carry the
// producer's latency from the ISA table (kOps[op].latency), write-after-read
// and write-after-write edges order only. Memory operations keep their order
// relative to stores; control, synchronization and warp-level instructions
// (unit CTRL) are barriers nothing moves across. Among ready instructions the
// one on the longest latency path goes first.
//
//===----------------------------------------------------------------------===//

#include "warpforge/codegen/Passes.h"

#include <algorithm>

namespace wf::codegen {

using isa::Opcode;

namespace {

/// Resources an instruction reads and writes: GPRs 0..254, predicates 256..270, barriers
/// 272..287 (each physical word separately).
void resources(const Function &F, const Inst &I, std::vector<uint32_t> &R,
               std::vector<uint32_t> &W) {
  (void)F;
  R.clear();
  W.clear();
  auto Add = [&](const Opnd &O, unsigned Words, bool Def) {
    std::vector<uint32_t> &V = Def ? W : R;
    if (O.kind == OpndKind::Phys && O.reg != isa::kZeroReg)
      for (unsigned K = 0; K < Words; ++K)
        V.push_back(O.reg + K);
    else if (O.kind == OpndKind::PhysPred && O.reg != isa::kTruePred)
      V.push_back(256 + O.reg);
    else if (O.kind == OpndKind::PhysBar)
      V.push_back(272 + O.reg);
  };
  Add(I.guard, 1, false);
  for (unsigned K = 0; K < I.numOps(); ++K) {
    bool Def = isDefOperand(I, K);
    unsigned Words = operandWords(I, K);
    Add(I.ops[K], Words, Def);
    if (Def && I.isGuarded())
      Add(I.ops[K], Words, false);
  }
}

bool isMem(Opcode Op) {
  auto U = isa::opInfo(Op).unit;
  return U == isa::Unit::LSU || U == isa::Unit::TEX;
}

bool isLoad(Opcode Op) {
  switch (Op) {
  case Opcode::LDG:
  case Opcode::LDS:
  case Opcode::LDL:
  case Opcode::LDC:
  case Opcode::LDP:
  case Opcode::LD:
    return true;
  default:
    return false;
  }
}

} // namespace

void scheduleBlocks(Function &F) {
  std::vector<uint32_t> R, W;
  for (Block &B : F.blocks) {
    size_t N = B.insts.size();
    if (N < 3)
      continue;
    // Keep trailing terminators/branches in place.
    size_t End = N;
    while (End > 0 && (B.insts[End - 1].op == Opcode::BRA || B.insts[End - 1].op == Opcode::BRX ||
                       isTerminator(B.insts[End - 1])))
      --End;
    std::vector<std::vector<std::pair<size_t, unsigned>>> Succ(End);
    std::vector<unsigned> NPred(End, 0);
    std::vector<std::vector<uint32_t>> Reads(End), Writes(End);
    for (size_t K = 0; K < End; ++K) {
      resources(F, B.insts[K], Reads[K], Writes[K]);
    }
    auto AddEdge = [&](size_t A, size_t Bx, unsigned Lat) {
      Succ[A].push_back({Bx, Lat});
      ++NPred[Bx];
    };
    for (size_t J = 0; J < End; ++J) {
      const Inst &IJ = B.insts[J];
      bool JBarrier = isa::opInfo(IJ.op).unit == isa::Unit::CTRL;
      for (size_t K = 0; K < J; ++K) {
        const Inst &IK = B.insts[K];
        bool KBarrier = isa::opInfo(IK.op).unit == isa::Unit::CTRL;
        unsigned Lat = 0;
        bool Dep = JBarrier || KBarrier;
        for (uint32_t X : Writes[K]) {
          if (std::find(Reads[J].begin(), Reads[J].end(), X) != Reads[J].end()) {
            Dep = true;
            Lat = std::max<unsigned>(Lat, isa::opInfo(IK.op).latency);
          }
          if (std::find(Writes[J].begin(), Writes[J].end(), X) != Writes[J].end())
            Dep = true;
        }
        for (uint32_t X : Reads[K])
          if (std::find(Writes[J].begin(), Writes[J].end(), X) != Writes[J].end())
            Dep = true;
        if (isMem(IK.op) && isMem(IJ.op) && !(isLoad(IK.op) && isLoad(IJ.op)))
          Dep = true;
        if (Dep)
          AddEdge(K, J, Lat);
      }
    }
    // Priority: longest latency path to the end.
    std::vector<unsigned> Prio(End, 0);
    for (size_t K = End; K-- > 0;) {
      unsigned P = isa::opInfo(B.insts[K].op).latency;
      for (auto [S, L] : Succ[K])
        P = std::max(P, Prio[S] + std::max(L, 1u));
      Prio[K] = P;
    }
    std::vector<unsigned> Ready(End, 0); // earliest cycle
    std::vector<size_t> Order;
    std::vector<bool> Done(End, false);
    unsigned Cycle = 0;
    while (Order.size() < End) {
      size_t Best = End;
      for (size_t K = 0; K < End; ++K) {
        if (Done[K] || NPred[K])
          continue;
        if (Best == End) {
          Best = K;
          continue;
        }
        bool KReady = Ready[K] <= Cycle, BReady = Ready[Best] <= Cycle;
        if (KReady != BReady ? KReady : (Prio[K] != Prio[Best] ? Prio[K] > Prio[Best] : K < Best))
          Best = K;
      }
      Done[Best] = true;
      Order.push_back(Best);
      Cycle = std::max(Cycle, Ready[Best]) + 1;
      for (auto [S, L] : Succ[Best]) {
        --NPred[S];
        Ready[S] = std::max(Ready[S], Cycle - 1 + L);
      }
    }
    std::vector<Inst> Out;
    for (size_t K : Order)
      Out.push_back(B.insts[K]);
    for (size_t K = End; K < N; ++K)
      Out.push_back(B.insts[K]);
    B.insts = std::move(Out);
  }
}

} // namespace wf::codegen

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
    // Dependences from the last writer and the readers since of each resource (linear in the
    // block; the orderings they imply transitively need no edges of their own).
    constexpr size_t kNone = ~size_t(0);
    constexpr unsigned kResources = 288;
    std::vector<size_t> LastWriter(kResources, kNone);
    std::vector<std::vector<size_t>> ReadersSince(kResources);
    size_t LastStore = kNone, LastBarrier = kNone;
    std::vector<size_t> LoadsSinceStore, SinceBarrier;
    for (size_t J = 0; J < End; ++J) {
      const Inst &IJ = B.insts[J];
      if (isa::opInfo(IJ.op).unit == isa::Unit::CTRL) {
        // Nothing moves across a barrier: it follows everything since the previous one.
        for (size_t K : SinceBarrier)
          AddEdge(K, J, 0);
        SinceBarrier.clear();
        if (LastBarrier != kNone)
          AddEdge(LastBarrier, J, 0);
        LastBarrier = J;
      } else {
        if (LastBarrier != kNone)
          AddEdge(LastBarrier, J, 0);
        SinceBarrier.push_back(J);
      }
      for (uint32_t X : Reads[J])
        if (LastWriter[X] != kNone)
          AddEdge(LastWriter[X], J, isa::opInfo(B.insts[LastWriter[X]].op).latency);
      for (uint32_t X : Writes[J]) {
        if (LastWriter[X] != kNone)
          AddEdge(LastWriter[X], J, 0);
        for (size_t K : ReadersSince[X])
          if (K != J)
            AddEdge(K, J, 0);
      }
      for (uint32_t X : Reads[J])
        ReadersSince[X].push_back(J);
      for (uint32_t X : Writes[J]) {
        LastWriter[X] = J;
        ReadersSince[X].clear();
      }
      // Memory: loads keep their order relative to stores (loads may pass loads).
      if (isMem(IJ.op)) {
        if (LastStore != kNone)
          AddEdge(LastStore, J, 0);
        if (isa::isLoad(IJ.op)) {
          LoadsSinceStore.push_back(J);
        } else {
          for (size_t K : LoadsSinceStore)
            AddEdge(K, J, 0);
          LoadsSinceStore.clear();
          LastStore = J;
        }
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
    unsigned Cycle = 0;
    std::vector<size_t> Available;
    for (size_t K = 0; K < End; ++K)
      if (!NPred[K])
        Available.push_back(K);
    while (Order.size() < End) {
      size_t Best = End, BestAt = 0;
      for (size_t At = 0; At < Available.size(); ++At) {
        size_t K = Available[At];
        if (Best == End) {
          BestAt = At;
          Best = K;
          continue;
        }
        bool KReady = Ready[K] <= Cycle, BReady = Ready[Best] <= Cycle;
        if (KReady != BReady ? KReady : (Prio[K] != Prio[Best] ? Prio[K] > Prio[Best] : K < Best)) {
          Best = K;
          BestAt = At;
        }
      }
      Available[BestAt] = Available.back();
      Available.pop_back();
      Order.push_back(Best);
      Cycle = std::max(Cycle, Ready[Best]) + 1;
      for (auto [S, L] : Succ[Best]) {
        Ready[S] = std::max(Ready[S], Cycle - 1 + L);
        if (--NPred[S] == 0)
          Available.push_back(S);
      }
    }
    std::vector<Inst> Out;
    Out.reserve(N);
    for (size_t K : Order)
      Out.push_back(std::move(B.insts[K]));
    for (size_t K = End; K < N; ++K)
      Out.push_back(std::move(B.insts[K]));
    B.insts = std::move(Out);
  }
}

} // namespace wf::codegen

//===- Analysis.cpp - Liveness and post-dominators -------------------------===//

#include "warpforge/codegen/Passes.h"

#include <algorithm>
#include <functional>
#include <map>

namespace wf::codegen {

std::vector<bool> multiDefs(const Function &F) {
  std::vector<uint8_t> Count(F.vregs.size() * 4, 0);
  std::vector<bool> Multi(F.vregs.size(), false);
  for (const Block &B : F.blocks)
    for (const Inst &I : B.insts)
      for (unsigned K = 0; K < I.numOps(); ++K) {
        const Opnd &O = I.ops[K];
        if (O.kind != OpndKind::VReg || !isDefOperand(I, K))
          continue;
        unsigned W = classWords(F.regClass(O.reg));
        for (unsigned X = 0; X < W; ++X)
          if (O.sub == kWhole || O.sub == X)
            if (++Count[O.reg * 4 + X] > 1)
              Multi[O.reg] = true;
      }
  return Multi;
}

void instUses(const Inst &I, std::vector<uint32_t> &Uses, const std::vector<bool> *MultiDef) {
  Uses.clear();
  if (I.guard.kind == OpndKind::VReg)
    Uses.push_back(I.guard.reg);
  for (unsigned K = 0; K < I.numOps(); ++K) {
    const Opnd &O = I.ops[K];
    if (O.kind != OpndKind::VReg)
      continue;
    if (!isDefOperand(I, K) || (I.isGuarded() && (!MultiDef || (*MultiDef)[O.reg])))
      Uses.push_back(O.reg);
  }
}

void instDefs(const Inst &I, std::vector<uint32_t> &Defs, bool &Partial) {
  Defs.clear();
  Partial = I.isGuarded();
  for (unsigned K = 0; K < I.numOps(); ++K) {
    const Opnd &O = I.ops[K];
    if (O.kind != OpndKind::VReg || !isDefOperand(I, K))
      continue;
    if (O.sub != kWhole)
      Partial = true;
    Defs.push_back(O.reg);
  }
}

Liveness computeLiveness(const Function &F) {
  size_t NB = F.blocks.size(), NV = F.vregs.size();
  Liveness L;
  L.liveIn.assign(NB, std::vector<bool>(NV));
  L.liveOut.assign(NB, std::vector<bool>(NV));
  std::vector<std::vector<bool>> Gen(NB, std::vector<bool>(NV)), Kill(NB, std::vector<bool>(NV));
  std::vector<uint32_t> U, D;
  std::vector<bool> Multi = multiDefs(F);
  for (size_t B = 0; B < NB; ++B) {
    std::map<uint32_t, unsigned> Mask; // words defined so far by sub-word definitions
    for (const Inst &I : F.blocks[B].insts) {
      instUses(I, U, &Multi);
      for (uint32_t R : U)
        if (!Kill[B][R])
          Gen[B][R] = true;
      bool Guarded = I.isGuarded();
      for (unsigned K = 0; K < I.numOps(); ++K) {
        const Opnd &O = I.ops[K];
        if (O.kind != OpndKind::VReg || !isDefOperand(I, K))
          continue;
        if (Guarded && Multi[O.reg])
          continue;
        if (O.sub == kWhole) {
          Kill[B][O.reg] = true;
          continue;
        }
        unsigned All = (1u << classWords(F.regClass(O.reg))) - 1;
        if ((Mask[O.reg] |= 1u << O.sub) == All)
          Kill[B][O.reg] = true;
      }
    }
    for (auto [R, M] : Mask)
      if (!Kill[B][R])
        Gen[B][R] = true;
  }
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (size_t BI = NB; BI-- > 0;) {
      std::vector<bool> Out(NV);
      for (uint32_t S : F.blocks[BI].succs)
        for (size_t R = 0; R < NV; ++R)
          if (L.liveIn[S][R])
            Out[R] = true;
      std::vector<bool> In(NV);
      for (size_t R = 0; R < NV; ++R)
        In[R] = Gen[BI][R] || (Out[R] && !Kill[BI][R]);
      if (In != L.liveIn[BI] || Out != L.liveOut[BI]) {
        L.liveIn[BI] = std::move(In);
        L.liveOut[BI] = std::move(Out);
        Changed = true;
      }
    }
  }
  return L;
}

/// Immediate (post-)dominators by the Cooper-Harvey-Kennedy iteration. `Next(b)` lists the
/// successors in the direction of the analysis; `Roots` start the traversal.
static std::vector<uint32_t>
dominators(size_t N, uint32_t Root, const std::function<std::vector<uint32_t>(uint32_t)> &Next,
           const std::function<std::vector<uint32_t>(uint32_t)> &Prev) {
  const uint32_t Undef = kVirtualExit;
  std::vector<uint32_t> Order; // postorder
  std::vector<int> Num(N, -1);
  std::vector<char> Seen(N, 0);
  std::vector<std::pair<uint32_t, size_t>> Stack{{Root, 0}};
  Seen[Root] = 1;
  while (!Stack.empty()) {
    auto &[B, Idx] = Stack.back();
    std::vector<uint32_t> Ss = Next(B);
    if (Idx < Ss.size()) {
      uint32_t S = Ss[Idx++];
      if (!Seen[S]) {
        Seen[S] = 1;
        Stack.push_back({S, 0});
      }
      continue;
    }
    Num[B] = int(Order.size());
    Order.push_back(B);
    Stack.pop_back();
  }
  std::vector<uint32_t> Idom(N, Undef);
  Idom[Root] = Root;
  auto Intersect = [&](uint32_t A, uint32_t B) {
    while (A != B) {
      while (Num[A] < Num[B])
        A = Idom[A];
      while (Num[B] < Num[A])
        B = Idom[B];
    }
    return A;
  };
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (size_t K = Order.size(); K-- > 0;) {
      uint32_t B = Order[K];
      if (B == Root)
        continue;
      uint32_t New = Undef;
      for (uint32_t P : Prev(B)) {
        if (Num[P] < 0 || Idom[P] == Undef)
          continue;
        New = New == Undef ? P : Intersect(P, New);
      }
      if (New != Idom[B]) {
        Idom[B] = New;
        Changed = true;
      }
    }
  }
  return Idom;
}

/// Successors for reconvergence purposes: blocks that end the thread (EXIT) continue, in the
/// analysis, to the function's return block (the last block), so the immediate post-dominator of
/// a branch whose paths may exit is where the surviving threads meet.
static std::vector<std::vector<uint32_t>> reconvergenceSuccs(const Function &F) {
  size_t N = F.blocks.size();
  uint32_t Ret = uint32_t(N - 1);
  std::vector<std::vector<uint32_t>> S(N + 1);
  for (uint32_t B = 0; B < N; ++B) {
    S[B] = F.blocks[B].succs;
    if (S[B].empty())
      S[B].push_back(B == Ret ? uint32_t(N) : Ret);
  }
  return S;
}

std::vector<uint32_t> computePostDominators(const Function &F) {
  size_t N = F.blocks.size();
  auto Succ = reconvergenceSuccs(F);
  std::vector<std::vector<uint32_t>> Pred(N + 1);
  for (uint32_t B = 0; B <= N; ++B)
    for (uint32_t S : Succ[B])
      Pred[S].push_back(B);
  // Post-dominators: dominators of the reverse graph rooted at the virtual exit N.
  auto Idom = dominators(
      N + 1, uint32_t(N), [&](uint32_t B) { return Pred[B]; }, [&](uint32_t B) { return Succ[B]; });
  std::vector<uint32_t> R(N);
  for (uint32_t B = 0; B < N; ++B)
    R[B] = (Idom[B] == uint32_t(N)) ? kVirtualExit : Idom[B];
  return R;
}

std::vector<uint32_t> computeDominators(const Function &F) {
  size_t N = F.blocks.size();
  return dominators(
      N, 0, [&](uint32_t B) { return F.blocks[B].succs; },
      [&](uint32_t B) { return F.blocks[B].preds; });
}

} // namespace wf::codegen

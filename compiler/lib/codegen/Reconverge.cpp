//===- Reconverge.cpp - BSSY/BSYNC insertion at immediate post-dominators -===//
//
// Part of Warpforge. For every block ending in a branch that may diverge
// (a guarded BRA, or BRX), a convergence barrier is set (BSSY) just before the
// branch and waited on (BSYNC) at the block's immediate post-dominator, where
// it is then cleared (R2B b, RZ) so that a thread reaching that point later
// on another path never waits on a stale mask. Several barriers waited on at
// one block are ordered innermost first (the deeper branch in the dominator
// tree). Docs: docs/compiler.md, "Reconvergence".
//
//===----------------------------------------------------------------------===//

#include "warpforge/codegen/Passes.h"

#include <algorithm>
#include <map>

namespace wf::codegen {

using isa::Opcode;

Status<> insertReconvergence(Function &F) {
  computeCFG(F);
  std::vector<uint32_t> Ipdom = computePostDominators(F);
  std::vector<uint32_t> Idom = computeDominators(F);
  auto Depth = [&](uint32_t B) {
    unsigned D = 0;
    while (B != 0 && B < Idom.size() && Idom[B] != kVirtualExit && Idom[B] != B && D < 100000) {
      B = Idom[B];
      ++D;
    }
    return D;
  };
  // Divergent branch blocks that reconverge somewhere.
  std::vector<bool> Branches(F.blocks.size(), false);
  for (uint32_t B = 0; B < F.blocks.size(); ++B) {
    if (F.blocks[B].succs.size() < 2)
      continue;
    if (B < Idom.size() && Idom[B] == kVirtualExit && B != 0)
      continue; // unreachable
    if (Ipdom[B] == kVirtualExit)
      continue; // the paths never meet again: threads end separately
    Branches[B] = true;
  }
  // A branch dominated by another branch that reconverges at the same block needs no barrier of
  // its own: every thread that reaches it is in the outer barrier's mask and waits at the same
  // BSYNC. (A chain of compares for a switch, `a && b`, several breaks out of one loop.) This
  // keeps the number of barriers live at once down to the nesting depth of reconvergence points.
  auto Redundant = [&](uint32_t B) {
    uint32_t P = Ipdom[B];
    unsigned Steps = 0;
    for (uint32_t A = B; A != 0 && A < Idom.size() && Steps < 100000; ++Steps) {
      uint32_t Up = Idom[A];
      if (Up == kVirtualExit || Up == A || Up >= F.blocks.size())
        break;
      if (Branches[Up] && Ipdom[Up] == P)
        return true;
      A = Up;
    }
    return false;
  };
  std::map<uint32_t, std::vector<std::pair<unsigned, uint32_t>>> Syncs; // P -> (depth, barrier)
  for (uint32_t B = 0; B < F.blocks.size(); ++B) {
    Block &Blk = F.blocks[B];
    if (!Branches[B] || Redundant(B))
      continue;
    uint32_t P = Ipdom[B];
    // Position: before the trailing branch instructions.
    size_t Pos = Blk.insts.size();
    while (Pos > 0) {
      const Inst &I = Blk.insts[Pos - 1];
      if (I.op == Opcode::BRA || I.op == Opcode::BRX)
        --Pos;
      else
        break;
    }
    uint32_t Bar = F.newVReg(RegClass::Barrier);
    Inst S;
    S.op = Opcode::BSSY;
    S.ops[0] = Opnd::vreg(Bar);
    S.ops[1] = Opnd::block(P);
    if (Pos < Blk.insts.size())
      S.loc = Blk.insts[Pos].loc;
    Blk.insts.insert(Blk.insts.begin() + long(Pos), S);
    Syncs[P].push_back({Depth(B), Bar});
  }
  for (auto &[P, List] : Syncs) {
    std::stable_sort(List.begin(), List.end(),
                     [](const auto &A, const auto &B) { return A.first > B.first; });
    std::vector<Inst> Seq;
    for (auto &[D, Bar] : List) {
      Inst S;
      S.op = Opcode::BSYNC;
      S.ops[0] = Opnd::vreg(Bar);
      Seq.push_back(S);
      Inst R;
      R.op = Opcode::R2B;
      R.ops[0] = Opnd::vreg(Bar);
      R.ops[1] = Opnd::rz();
      Seq.push_back(R);
    }
    auto &Insts = F.blocks[P].insts;
    Insts.insert(Insts.begin(), Seq.begin(), Seq.end());
  }
  return {};
}

} // namespace wf::codegen

//===- Passes.h - WIR analyses and transformations ---------------*- C++ -*-===//
//
// Part of Warpforge. The passes of the back end, in pipeline order
// (docs/compiler.md). Each works on one Function.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "warpforge/codegen/WIR.h"
#include "warpforge/support/error.h"

#include <cstdint>
#include <vector>

namespace wf::codegen {

//===--- Analyses ---------------------------------------------------------===//

/// Post-dominator tree: ipdom[b] is the immediate post-dominator of block b, or
/// kVirtualExit when only the virtual exit (after every EXIT/RET/TRAP) post-dominates it.
inline constexpr uint32_t kVirtualExit = 0xffffffff;
std::vector<uint32_t> computePostDominators(const Function &F);
/// Immediate dominators (entry: itself; unreachable blocks: kVirtualExit).
std::vector<uint32_t> computeDominators(const Function &F);

/// Per-block virtual-register liveness (bit vectors indexed by vreg).
struct Liveness {
  std::vector<std::vector<bool>> liveIn, liveOut;
};
Liveness computeLiveness(const Function &F);

/// Virtual registers with more than one definition (a guarded definition of such a register
/// keeps its old value where the guard is false, so it also reads it).
std::vector<bool> multiDefs(const Function &F);

/// Registers (vreg ids) an instruction reads and writes. Sub-word definitions are not reads
/// (liveness tracks which words a block defines); a guarded definition of a register with
/// several definitions is (MultiDef null: every register counts as multiply defined).
void instUses(const Inst &I, std::vector<uint32_t> &Uses,
              const std::vector<bool> *MultiDef = nullptr);
void instDefs(const Inst &I, std::vector<uint32_t> &Defs, bool &Partial);

//===--- Transformations --------------------------------------------------===//

/// Inserts BSSY/BSYNC around every conditional or indirect branch that may diverge, with the
/// BSYNC at the branch block's immediate post-dominator. Needs a single return block.
Status<> insertReconvergence(Function &F);

/// Constant folding, immediate forms, copy propagation and dead code elimination.
void optimize(Function &F);
unsigned foldConstants(Function &F);
unsigned propagateCopies(Function &F);
unsigned eliminateDeadCode(Function &F);

/// Linear-scan register allocation with spilling to the frame; then caller-save code around
/// calls, prologue and epilogue. `MaxRegs` limits R0..R{MaxRegs-1}.
Status<> allocateRegisters(Function &F, uint32_t MaxRegs);

/// List scheduling inside basic blocks with the latencies of the ISA table.
void scheduleBlocks(Function &F);

} // namespace wf::codegen

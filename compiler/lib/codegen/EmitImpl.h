//===- EmitImpl.h - Instruction encoding (private) ---------------*- C++ -*-===//
#pragma once

#include "warpforge/codegen/WIR.h"
#include "warpforge/support/error.h"

#include <cstdint>
#include <vector>

namespace wf::codegen {

/// A relocation an instruction needs: its 32-bit immediate holds half of a symbol's address.
struct PendingReloc {
  bool valid = false;
  bool hi = false;
  uint32_t symbol = 0;
  int64_t addend = 0;
  uint32_t fieldByte = 4; ///< byte offset of the immediate in the instruction word
};

Expected<uint64_t> encodeInst(const Function &F, const Inst &I, uint32_t Pc,
                              const std::vector<uint32_t> &BlockAddr,
                              const std::vector<uint32_t> &FuncAddr, PendingReloc *Reloc);

} // namespace wf::codegen

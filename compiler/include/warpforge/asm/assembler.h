// The native assembler: assembly text to a .wfx module. The syntax is described in docs/wfx.md
// ("Assembly language").
#pragma once

#include "warpforge/module/wfx.h"
#include "warpforge/support/error.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace wf::mc {

struct AsmOptions {
  std::string fileName = "<input>"; ///< names the source in errors and in the line table
  bool lineTable = true;            ///< record each instruction's source line (LINES)
};

/// Assembles a whole source file. On failure, every error found (each with file, line, column and
/// the offending text), in source order.
Expected<wfx::Module, ErrorList> assemble(std::string_view source, const AsmOptions &options = {});

/// Assembles one instruction (or `.word 0x...`, a raw 64-bit word) at code address `pc`. Operands
/// are numbers only: REL targets are code addresses. Errors carry a column.
Expected<uint64_t> assembleInst(std::string_view text, uint32_t pc = 0);

} // namespace wf::mc

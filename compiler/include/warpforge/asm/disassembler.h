// The native disassembler: instruction words and whole modules to assembly text.
#pragma once

#include "warpforge/asm/inst.h"
#include "warpforge/module/wfx.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace wf::mc {

struct WordText {
  std::string text; ///< the instruction, or ".word 0x..." when the word is not one
  std::string note; ///< why the word is not an instruction; empty when it is
  bool valid() const { return note.empty(); }
};

/// Never fails: a word that is not a valid instruction prints as `.word 0x...` with a note, and
/// reassembles to the same word.
WordText disassembleWord(uint64_t word, const PrintOptions &options = {});

struct ListingOptions {
  bool addresses = true;   ///< code address of each instruction
  bool encodings = true;   ///< the 64-bit word of each instruction
  bool sourceLines = true; ///< source locations from the line table
  /// Text of `line` of source `file` when it can be had (the driver reads files); else the listing
  /// shows only file:line.
  std::function<std::optional<std::string>(const std::string &file, uint32_t line)> sourceText;
};

/// The whole module: kernels with their metadata, code with labels, relocation expressions in
/// place of the immediates they patch, source lines, and the data segments' symbols.
std::string listModule(const wfx::Module &module, const ListingOptions &options = {});

} // namespace wf::mc

//===- Coverage.h - The PTX coverage page -----------------------*- C++ -*-===//
//
// Part of Warpforge. Generates docs/ptx-coverage.md from the instruction table.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "warpforge/ptx/InstrTable.h"

#include <array>
#include <ostream>

namespace wf::ptx {

/// How many table entries have each status.
struct CoverageCounts {
  std::array<unsigned, 4> instrs{};    ///< indexed by Status
  std::array<unsigned, 4> modRows{};   ///< modifier rows
  std::array<unsigned, 4> modifiers{}; ///< (instruction, modifier) pairs
  std::array<unsigned, 4> sregs{};
};

CoverageCounts coverageCounts();
void writeCoverageMarkdown(std::ostream &OS);

} // namespace wf::ptx

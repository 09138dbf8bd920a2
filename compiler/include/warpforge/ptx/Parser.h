//===- Parser.h - PTX parser entry points -----------------------*- C++ -*-===//
//
// Part of Warpforge. Turns PTX text into a Module, or into an Error naming
// file, line, column and the offending text. Never throws, never aborts.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "warpforge/ptx/Diagnostic.h"
#include "warpforge/ptx/Module.h"

#include <string>
#include <string_view>

namespace wf::ptx {

struct ParseOptions {
  /// Name used in diagnostics.
  std::string fileName = "<input>";
  /// Check every instruction against the instruction table (operands,
  /// modifiers) and report instructions or modifiers the table rejects.
  bool validate = true;
  /// Accept instructions and modifiers whose status is Later.
  bool allowLater = false;
  /// Stop after this many errors (syntax errors always stop at the first).
  unsigned maxErrors = 20;
};

Expected<Module> parseModule(std::string_view Text, const ParseOptions &Opts = {});

/// Reads the file and parses it; the file name defaults to Path.
Expected<Module> parseFile(const std::string &Path, ParseOptions Opts = {});

} // namespace wf::ptx

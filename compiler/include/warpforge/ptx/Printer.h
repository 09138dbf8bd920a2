//===- Printer.h - Print a Module back as PTX --------------------*- C++ -*-===//
//
// Part of Warpforge. Writes a parsed Module as PTX text with the resolved,
// unique names. Parsing the output gives the same Module (tests rely on it).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "warpforge/ptx/Module.h"

#include <ostream>
#include <string>

namespace wf::ptx {

void printModule(std::ostream &OS, const Module &M);
std::string toString(const Module &M);
/// One instruction without the trailing newline: "@%p1 bra $L__BB0_2;".
std::string toString(const Function &F, const Instruction &I);

} // namespace wf::ptx

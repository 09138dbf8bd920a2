// A module that uses every part of the .wfx format, built without the assembler (the sanitized
// reader test links only the module library).
#pragma once

#include "warpforge/isa/isa.gen.h"
#include "warpforge/module/wfx.h"

#include <optional>

namespace wf::wfx::testing {

/// A valid instruction word with a 32-bit immediate at byte 4 (what code relocations patch),
/// found in the table: the first format-I opcode with a 32-bit integer operand there.
inline uint64_t immInstructionWord() {
  for (unsigned code = 0; code < isa::kOps.size(); ++code) {
    const isa::OpInfo &info = isa::kOps[code];
    if (!info.valid || info.format != isa::Format::I)
      continue;
    for (unsigned i = 0; i < info.numOperands; ++i)
      if ((info.operands[i].kind == isa::OperandKind::I32 ||
           info.operands[i].kind == isa::OperandKind::U32) &&
          info.operands[i].field.lo == 32 && info.operands[i].field.width == 32) {
        uint64_t word = isa::setField(0, isa::FormatI::op, code);
        return isa::setField(word, isa::FormatI::pg, isa::kTruePred);
      }
  }
  return 0;
}

inline void putWord(std::vector<uint8_t> &code, uint64_t word) {
  for (unsigned b = 0; b < 8; ++b)
    code.push_back(uint8_t(word >> (8 * b)));
}

inline Module sampleModule() {
  Module m;
  uint64_t word = immInstructionWord();
  for (int i = 0; i < 8; ++i)
    putWord(m.code, word);
  m.constant.image = {1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0, 0, 0, 0, 0};
  m.constant.zeroFill = 16;
  m.constant.align = 16;
  m.global.image.assign(24, 0);
  m.global.image[0] = 0xaa;
  m.global.zeroFill = 1000;
  m.global.align = 8;

  Kernel k1;
  k1.name = "first";
  k1.entry = 0;
  k1.codeSize = 40;
  k1.regsPerThread = 12;
  k1.sharedBytes = 256;
  k1.localBytes = 64;
  k1.paramBytes = 16;
  k1.params = {{0, 8, 8}, {8, 4, 4}, {12, 4, 4}};
  k1.maxntid = {256, 1, 1};
  k1.minCtasPerSm = 2;
  Kernel k2;
  k2.name = "second";
  k2.entry = 40;
  k2.codeSize = 24;
  k2.regsPerThread = 3;
  k2.reqntid = {8, 8, 2};
  m.kernels = {k1, k2};

  m.symbols = {
      {"first", Segment::Code, 0, 40},
      {"table", Segment::Const, 0, 8},
      {"counter", Segment::Global, 0, 8},
      {"buffer", Segment::Global, 24, 1000},
  };
  m.relocs = {
      {Segment::Code, 8 + 4, RelocKind::AbsLo32, Segment::Global, 2, 0},
      {Segment::Code, 16 + 4, RelocKind::AbsHi32, Segment::Global, 2, 0},
      {Segment::Code, 24 + 4, RelocKind::AbsLo32, Segment::Const, kNoSymbol, 4},
      {Segment::Global, 8, RelocKind::AbsLo32, Segment::Global, 3, 16},
      {Segment::Global, 12, RelocKind::AbsHi32, Segment::Global, 3, 16},
      {Segment::Global, 40, RelocKind::AbsLo32, Segment::Code, 0, 8},
  };
  m.files = {"kernel.ptx", "helpers.h"};
  m.lines = {{0, 0, 10, 3}, {16, 1, 200, 0}, {24, 0, 11, 5}, {56, 0, 30, 1}};
  return m;
}

} // namespace wf::wfx::testing

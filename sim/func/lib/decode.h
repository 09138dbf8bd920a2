//===- decode.h - Pre-decoded instructions -----------------------------------===//
//
// A launch decodes its code segment once into DecodedInst records: register operands become row
// indices into the warp register file (RZ reads a row of zeros and writes a discard row),
// predicates become slots of the warp's predicate masks (PT reads all ones, writes a discard slot),
// pc-relative targets become absolute. Everything that makes an instruction illegal (invalid
// opcode or modifier, a register beyond the allocation, a misaligned pair or quad) is found here
// and turns the record into kIllegalOp with a fault detail; it faults when it issues.
//
//===----------------------------------------------------------------------===//

#pragma once

#include "warpforge/func/device.h"
#include "warpforge/isa/isa.gen.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wf::func {

/// Opcode value of records that fault with an illegal instruction when they issue.
inline constexpr uint8_t kIllegalOp = 0xFF;
static_assert(!isa::kOps[kIllegalOp].valid, "kIllegalOp must not be a real opcode");

/// Predicate slots of a warp: P0..P14, then PT (all ones), then the slot that swallows writes to
/// PT.
inline constexpr unsigned kPredTrue = isa::kTruePred;
inline constexpr unsigned kPredDiscard = isa::kTruePred + 1;
inline constexpr unsigned kPredSlots = isa::kTruePred + 2;

/// Rows of zeros (read by RZ, as a quad at most) and discard rows (written through RZ) follow
/// the thread's registers in the warp register file.
inline constexpr unsigned kExtraRows = 8;

struct DecodedInst {
  uint64_t word = 0; ///< the raw word: modifiers are read through isa::fields
  uint32_t imm = 0;  ///< immediate, memory offset, or absolute target of a pc-relative operand
  uint16_t rd = 0, ra = 0, rb = 0, rc = 0;                ///< register rows
  uint8_t op = kIllegalOp;                                ///< isa::Opcode value, or kIllegalOp
  uint8_t guard = kPredTrue;                              ///< predicate slot of the guard
  uint8_t pd = kPredDiscard;                              ///< predicate slot written
  uint8_t pa = kPredTrue, pb = kPredTrue, pc = kPredTrue; ///< predicate source slots
  uint8_t dstWidth = 0;   ///< registers written at rd by the instruction itself (trace)
  uint8_t writesPred = 0; ///< 1 when pd is written (trace)
  uint8_t badTarget = 0;  ///< 1 when the pc-relative target lies outside the code segment
  uint8_t memBytes = 0;   ///< access size of loads and stores
  uint16_t message = 0;   ///< illegal instructions: index into Program::messages
  uint32_t guardXor = 0;  ///< ~0u for a negated guard
  uint32_t paXor = 0, pbXor = 0, pcXor = 0; ///< ~0u for negated predicate sources
};

/// The decoded code segment of one launch.
struct Program {
  std::vector<DecodedInst> insts; ///< one per instruction, plus a final "outside the code" record
  std::vector<FaultDetail> messages;
  uint32_t codeSize = 0;
  uint32_t regsPerThread = 0;
  uint32_t rows = 0;       ///< register rows per warp (registers + kExtraRows)
  uint16_t zeroRow = 0;    ///< first of four rows of zeros
  uint16_t discardRow = 0; ///< first of four rows that absorb writes to RZ
};

/// Decode `codeSize` bytes of little-endian instruction words for threads of `regsPerThread`
/// registers.
Program decodeProgram(const uint8_t *code, uint32_t codeSize, uint32_t regsPerThread);

} // namespace wf::func

//===- InstrTable.h - The PTX instruction table -----------------*- C++ -*-===//
//
// Part of Warpforge. Typed access to InstrTable.def and SpecialRegs.def: what
// each PTX instruction accepts and what the compiler does with it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "warpforge/ptx/Types.h"

#include <array>
#include <bitset>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace wf::ptx {

/// What the compiler does with an instruction or a modifier.
enum class Status : uint8_t {
  Supported, ///< one native instruction does it
  Lowered,   ///< a sequence of native instructions (or nothing, for hints)
  Later,     ///< waits for hardware support; the parser reports it unless allowed
  Rejected,  ///< not done, with the reason
};

std::string_view statusName(Status S);

enum class Category : uint8_t {
#define PTX_CATEGORY(Id, Title) Id,
#include "warpforge/ptx/InstrTable.def"
  NumCategories,
};

enum class ModGroup : uint8_t {
#define PTX_GROUP(Id, Title, Exclusive) Id,
#include "warpforge/ptx/InstrTable.def"
  NumGroups,
};

/// A PTX instruction (opcode) of the table.
enum class Op : uint16_t {
#define PTX_INSTR(Id, Spelling, Category, Syntax, Operands, MinOperands, Status, How) Id,
#include "warpforge/ptx/InstrTable.def"
  NumOps,
};

inline constexpr unsigned kNumOps = static_cast<unsigned>(Op::NumOps);
/// Most modifiers one instruction may carry.
inline constexpr unsigned kMaxInstrMods = 16;

/// Modifiers an instruction accepts in one group, with their status.
struct ModRule {
  Op op;
  ModGroup group;
  bool required;
  Status status;
  std::string_view modifiers; ///< space-separated spellings
  std::string_view how;
  std::bitset<kNumMods> set; ///< the modifiers as a set
};

struct InstrInfo {
  Op op;
  std::string_view spelling; ///< "add", "bar.warp.sync"
  Category category;
  std::string_view syntax;   ///< operand syntax, for documentation
  std::string_view operands; ///< one letter per operand position, see InstrTable.def
  uint8_t minOperands;
  Status status;
  std::string_view how;
  std::span<const ModRule> rules; ///< in table order
};

std::span<const InstrInfo> allInstrs();
const InstrInfo &instrInfo(Op O);
std::string_view categoryTitle(Category C);
std::string_view groupTitle(ModGroup G);
bool isExclusive(ModGroup G);

/// The instruction an opcode word names. Segments are the word split at dots
/// ("ld", "global", "v4", "f32"). The instruction with the longest spelling
/// whose first segment is Segments[0] and whose other segments all occur among
/// the rest wins. NameSegments has bit i set for each segment that belongs to
/// the spelling rather than being a modifier.
struct OpcodeMatch {
  Op op;
  uint64_t nameSegments;
};
std::optional<OpcodeMatch> matchOpcode(std::span<const std::string_view> Segments);

/// The result of checking an instruction's modifiers against the table.
struct ModCheck {
  /// Empty when the modifiers are valid; else why not.
  std::string error;
  /// Index into the checked modifiers of the offending one, or -1.
  int badIndex = -1;
  /// The most severe status among the instruction and the rules used.
  Status status = Status::Supported;
  /// The rule that gave that status (null: the instruction's own status).
  const ModRule *statusRule = nullptr;
  /// The rule each modifier was matched to.
  std::array<const ModRule *, kMaxInstrMods> ruleOf{};
};
ModCheck checkModifiers(Op O, std::span<const Mod> Mods);

/// Problems in the table itself (unknown modifier spellings, a modifier in two
/// groups of one instruction where that is ambiguous, bad operand strings).
/// Empty for a consistent table; a unit test keeps it so.
std::vector<std::string> checkTableConsistency();

//===----------------------------------------------------------------------===//
// Special registers
//===----------------------------------------------------------------------===//

enum class SReg : uint8_t {
#define PTX_SREG(Id, Name, Count, Suffix, Components, Bits, Status, How) Id,
#include "warpforge/ptx/SpecialRegs.def"
  NumSRegs,
};

struct SRegInfo {
  SReg id;
  std::string_view name;
  uint8_t count; ///< 0: single; N: indexed family name0..name{N-1}
  std::string_view suffix;
  std::string_view components; ///< "xyz" or ""
  uint8_t bits;
  Status status;
  std::string_view how;
};

std::span<const SRegInfo> allSRegs();
const SRegInfo &sregInfo(SReg R);

/// A special register reference: %tid.y is {Tid, 0, 1}; %envreg3 is {Envreg, 3, -1}.
struct SRegRef {
  SReg reg;
  uint8_t index;    ///< family index (0 for single registers)
  int8_t component; ///< 0..2 for .x/.y/.z, -1 if none
};

/// Parses "%tid", "%envreg7", "%pm3_64" (without component). Components are
/// checked by the caller against SRegInfo::components.
std::optional<SRegRef> lookupSReg(std::string_view Name);

} // namespace wf::ptx

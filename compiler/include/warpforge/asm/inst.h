// A native instruction as field values, and its encoding, decoding and text form. Everything here
// is driven by the generated tables (isa::kOps, isa::kEnums, isa::kSRegs): no opcode is named.
#pragma once

#include "warpforge/isa/isa.gen.h"
#include "warpforge/support/error.h"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace wf::mc {

/// One instruction: the opcode, the guard and the value of every field the opcode defines, in the
/// order of its operand and modifier tables. Operand values are raw field values: a register number
/// (kZeroReg is RZ), a predicate (kTruePred is PT; kind PN adds the negation as the top bit), an
/// immediate's 32 bits (REL: the pc-relative byte offset). Address operands keep the register in
/// `operands` and the offset field in `offsets`.
struct Inst {
  uint8_t opcode = 0;
  uint8_t guard = isa::kTruePred;
  bool guardNegated = false;
  std::array<uint32_t, isa::kMaxOperands> operands{};
  std::array<uint32_t, isa::kMaxOperands> offsets{};
  std::array<uint32_t, isa::kMaxMods> mods{};

  const isa::OpInfo &info() const { return isa::kOps[opcode]; }
  bool operator==(const Inst &) const = default;
};

/// The opcode whose name is `name` (any letter case).
std::optional<uint8_t> findOpcode(std::string_view name);

/// Bits of the instruction word that the opcode's fields cover: opcode, guard, operands and
/// modifiers. Any other bit must be zero.
uint64_t definedBits(const isa::OpInfo &info);

/// Whether modifier `index` shares its enum with another modifier of the same opcode (F2F's dst
/// and src): such modifiers are positional, always written, in table order.
bool isPositionalMod(const isa::OpInfo &info, unsigned index);

/// The value a modifier takes when the text does not name it: 0 for a flag, the enum's omit value;
/// nullopt when it must be written (positional, or an enum without an omit value).
std::optional<uint32_t> defaultModValue(const isa::OpInfo &info, unsigned index);

/// Why `value` is not a legal value of `operand`'s field, or nullopt when it is.
std::optional<std::string> checkOperand(const isa::OperandInfo &operand, uint64_t value);
/// Why `value` is not a legal value of modifier `mod`, or nullopt when it is.
std::optional<std::string> checkMod(const isa::ModInfo &mod, uint64_t value);

/// The 64-bit word; an error when a value does not fit its field or is not legal.
Expected<uint64_t> encode(const Inst &inst);
/// The instruction in `word`; an error naming why the word is not a valid instruction (unknown
/// opcode, bits set outside the opcode's fields, an illegal field value).
Expected<Inst> decode(uint64_t word);

// --- Text ------------------------------------------------------------------------------------

struct PrintOptions {
  uint32_t pc = 0; ///< code address of the instruction, for pc-relative targets
  /// A label for a code address named by a REL operand; empty result: print the address.
  std::function<std::string(uint32_t target)> labelFor;
  /// Replaces the text of the operand that holds the 32-bit immediate (a relocation expression).
  std::string immText;
};

/// Assembly text of `inst` (assumed valid, as from decode()).
std::string print(const Inst &inst, const PrintOptions &options = {});

/// Kind PN carries its negation in the field's top bit (isa.gen.h).
inline uint32_t predicateNegateBit(const isa::OperandInfo &operand) {
  return 1u << (operand.field.width - 1);
}

std::string registerName(uint32_t reg);   ///< "R7", "RZ"
std::string predicateName(uint32_t pred); ///< "P3", "PT"
/// Shortest text that reads back to the same bits: "1.5", "-0", "inf", "nan", else "0f7fc00001".
std::string formatF32(uint32_t bits);
std::string formatF64(uint64_t bits); ///< the same for doubles, with "0d" hex-bit form

} // namespace wf::mc

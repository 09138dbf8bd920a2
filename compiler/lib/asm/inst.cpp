// Encoding and decoding of native instructions, from the generated tables.
#include "warpforge/asm/inst.h"

#include <fmt/format.h>

namespace wf::mc {
namespace {

/// Opcode and guard fields of a format. The formats share their low bits, which is what lets a
/// decoder read the opcode before it knows the format.
struct CommonFields {
  isa::Field op, pg, pgn;
};

CommonFields commonFields(isa::Format format) {
  switch (format) {
  case isa::Format::R:
    return {isa::FormatR::op, isa::FormatR::pg, isa::FormatR::pgn};
  case isa::Format::I:
    return {isa::FormatI::op, isa::FormatI::pg, isa::FormatI::pgn};
  }
  return {isa::FormatR::op, isa::FormatR::pg, isa::FormatR::pgn};
}

uint64_t mask(isa::Field field) {
  if (field.width == 0)
    return 0;
  uint64_t ones = field.width >= 64 ? ~uint64_t(0) : (uint64_t(1) << field.width) - 1;
  return ones << field.lo;
}

bool fits(uint64_t value, isa::Field field) {
  return field.width >= 64 || (value >> field.width) == 0;
}

char upper(char c) { return c >= 'a' && c <= 'z' ? char(c - 'a' + 'A') : c; }

bool equalsUpper(std::string_view text, std::string_view upperName) {
  if (text.size() != upperName.size())
    return false;
  for (size_t i = 0; i < text.size(); ++i)
    if (upper(text[i]) != upperName[i])
      return false;
  return true;
}

} // namespace

std::optional<uint8_t> findOpcode(std::string_view name) {
  for (unsigned code = 0; code < isa::kOps.size(); ++code)
    if (isa::kOps[code].valid && equalsUpper(name, isa::kOps[code].name))
      return uint8_t(code);
  return std::nullopt;
}

uint64_t definedBits(const isa::OpInfo &info) {
  CommonFields common = commonFields(info.format);
  uint64_t bits = mask(common.op) | mask(common.pg) | mask(common.pgn);
  for (unsigned i = 0; i < info.numOperands; ++i)
    bits |= mask(info.operands[i].field) | mask(info.operands[i].imm);
  for (unsigned i = 0; i < info.numMods; ++i)
    bits |= mask(info.mods[i].field);
  return bits;
}

bool isPositionalMod(const isa::OpInfo &info, unsigned index) {
  isa::EnumId id = info.mods[index].enumId;
  if (id == isa::EnumId::None)
    return false;
  for (unsigned i = 0; i < info.numMods; ++i)
    if (i != index && info.mods[i].enumId == id)
      return true;
  return false;
}

std::optional<uint32_t> defaultModValue(const isa::OpInfo &info, unsigned index) {
  const isa::ModInfo &mod = info.mods[index];
  if (mod.enumId == isa::EnumId::None)
    return 0;
  int omit = isa::kEnums[size_t(mod.enumId)].omit;
  if (isPositionalMod(info, index) || omit < 0)
    return std::nullopt;
  return uint32_t(omit);
}

std::optional<std::string> checkOperand(const isa::OperandInfo &operand, uint64_t value) {
  if (!fits(value, operand.field))
    return fmt::format("value {} does not fit the {}-bit field of operand {}", value,
                       operand.field.width, operand.name);
  if (operand.kind == isa::OperandKind::SR && value >= isa::kNumSRegs)
    return fmt::format("special register {} does not exist", value);
  return std::nullopt;
}

/// A register group (pair, quad, or a width a modifier selects) must be aligned and end at or
/// below the last register; RZ stands for any width.
std::optional<std::string> checkRegisterGroup(const isa::OpInfo &info, unsigned index,
                                              uint64_t word) {
  unsigned regs = isa::operandRegs(info, index, word);
  uint64_t reg = isa::getField(word, info.operands[index].field);
  if (regs <= 1 || reg == isa::kZeroReg)
    return std::nullopt;
  if (reg % regs != 0 || reg + regs - 1 >= isa::kZeroReg)
    return fmt::format("misaligned register group: operand {} is {} registers and needs a "
                       "multiple of {} (R{} given)",
                       info.operands[index].name, regs, regs, reg);
  return std::nullopt;
}

std::optional<std::string> checkMod(const isa::ModInfo &mod, uint64_t value) {
  if (!fits(value, mod.field))
    return fmt::format("value {} does not fit the {}-bit field of modifier {}", value,
                       mod.field.width, mod.name);
  if (mod.enumId != isa::EnumId::None) {
    const isa::EnumInfo &values = isa::kEnums[size_t(mod.enumId)];
    if (value >= values.count)
      return fmt::format("value {} of modifier {} is not one of the {} values of {}", value,
                         mod.name, values.count, values.name);
  }
  return std::nullopt;
}

Expected<uint64_t> encode(const Inst &inst) {
  const isa::OpInfo &info = inst.info();
  if (!info.valid)
    return Error(fmt::format("opcode 0x{:02x} does not exist", inst.opcode));
  CommonFields common = commonFields(info.format);
  if (!fits(inst.guard, common.pg))
    return Error(fmt::format("guard predicate {} does not exist", inst.guard));
  uint64_t word = isa::setField(0, common.op, inst.opcode);
  word = isa::setField(word, common.pg, inst.guard);
  word = isa::setField(word, common.pgn, inst.guardNegated ? 1 : 0);
  for (unsigned i = 0; i < info.numOperands; ++i) {
    const isa::OperandInfo &operand = info.operands[i];
    if (auto why = checkOperand(operand, inst.operands[i]))
      return Error(fmt::format("{}: {}", info.name, *why));
    word = isa::setField(word, operand.field, inst.operands[i]);
    if (!fits(inst.offsets[i], operand.imm))
      return Error(fmt::format("{}: address offset {} does not fit ({} bits)", info.name,
                               inst.offsets[i], operand.imm.width));
    if (operand.imm.width != 0)
      word = isa::setField(word, operand.imm, inst.offsets[i]);
  }
  for (unsigned i = 0; i < info.numMods; ++i) {
    if (auto why = checkMod(info.mods[i], inst.mods[i]))
      return Error(fmt::format("{}: {}", info.name, *why));
    word = isa::setField(word, info.mods[i].field, inst.mods[i]);
  }
  for (unsigned i = 0; i < info.numOperands; ++i)
    if (auto why = checkRegisterGroup(info, i, word))
      return Error(fmt::format("{}: {}", info.name, *why));
  return word;
}

Expected<Inst> decode(uint64_t word) {
  Inst inst;
  inst.opcode = uint8_t(isa::getField(word, isa::FormatR::op));
  const isa::OpInfo &info = inst.info();
  if (!info.valid)
    return Error(fmt::format("invalid opcode 0x{:02x}", inst.opcode));
  if (uint64_t stray = word & ~definedBits(info))
    return Error(fmt::format("bits 0x{:x} are set outside the fields of {}", stray, info.name));
  CommonFields common = commonFields(info.format);
  inst.guard = uint8_t(isa::getField(word, common.pg));
  inst.guardNegated = isa::getField(word, common.pgn) != 0;
  for (unsigned i = 0; i < info.numOperands; ++i) {
    const isa::OperandInfo &operand = info.operands[i];
    uint64_t value = isa::getField(word, operand.field);
    if (auto why = checkOperand(operand, value))
      return Error(fmt::format("{}: {}", info.name, *why));
    inst.operands[i] = uint32_t(value);
    if (operand.imm.width != 0)
      inst.offsets[i] = uint32_t(isa::getField(word, operand.imm));
  }
  for (unsigned i = 0; i < info.numMods; ++i) {
    uint64_t value = isa::getField(word, info.mods[i].field);
    if (auto why = checkMod(info.mods[i], value))
      return Error(fmt::format("{}: {}", info.name, *why));
    inst.mods[i] = uint32_t(value);
  }
  for (unsigned i = 0; i < info.numOperands; ++i)
    if (auto why = checkRegisterGroup(info, i, word))
      return Error(fmt::format("{}: {}", info.name, *why));
  return inst;
}

} // namespace wf::mc

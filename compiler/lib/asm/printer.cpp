// Assembly text of an instruction. The assembler reads back exactly what this prints.
#include "warpforge/asm/inst.h"

#include <bit>
#include <charconv>
#include <fmt/format.h>

namespace wf::mc {
namespace {

/// Integers print in decimal while small, in hex when large (addresses, masks).
std::string formatSigned(int64_t value) {
  if (value > -65536 && value < 65536)
    return fmt::format("{}", value);
  return value < 0 ? fmt::format("-0x{:x}", uint64_t(-value)) : fmt::format("0x{:x}", value);
}

std::string formatUnsigned(uint64_t value) {
  return value < 65536 ? fmt::format("{}", value) : fmt::format("0x{:x}", value);
}

std::string formatOperand(const isa::OperandInfo &operand, uint32_t value, uint32_t offset,
                          const PrintOptions &options) {
  switch (operand.kind) {
  case isa::OperandKind::R:
  case isa::OperandKind::R64:
  case isa::OperandKind::R128:
    return registerName(value);
  case isa::OperandKind::P:
    return predicateName(value);
  case isa::OperandKind::PN: {
    uint32_t negateBit = predicateNegateBit(operand);
    return (value & negateBit ? "!" : "") + predicateName(value & (negateBit - 1));
  }
  case isa::OperandKind::B:
    return fmt::format("B{}", value);
  case isa::OperandKind::SR:
    return fmt::format("SR_{}", isa::kSRegs[value].name);
  case isa::OperandKind::U4:
    return fmt::format("{}", value);
  case isa::OperandKind::U8:
    return fmt::format("0x{:02x}", value);
  case isa::OperandKind::I32:
    // Small values read best signed; large ones are bit patterns (masks, addresses).
    if (int32_t signedValue = int32_t(value); signedValue > -65536 && signedValue < 65536)
      return fmt::format("{}", signedValue);
    return fmt::format("0x{:x}", value);
  case isa::OperandKind::U32:
    return formatUnsigned(value);
  case isa::OperandKind::F32:
    return formatF32(value);
  case isa::OperandKind::REL: {
    uint32_t target = options.pc + isa::kInstBytes + value; // wraps like the hardware's adder
    if (options.labelFor)
      if (std::string label = options.labelFor(target); !label.empty())
        return label;
    return fmt::format("0x{:x}", target);
  }
  case isa::OperandKind::ADDR:
  case isa::OperandKind::ADDR64: {
    std::string text = "[" + registerName(value);
    if (!options.immText.empty() && operand.imm.width == 32)
      text += "+" + options.immText;
    else if (int32_t signedOffset = int32_t(offset); signedOffset > 0)
      text += "+" + formatSigned(signedOffset);
    else if (signedOffset < 0)
      text += "-" + formatSigned(-int64_t(signedOffset));
    return text + "]";
  }
  }
  return "?";
}

/// Whether the operand's text is the 32-bit immediate a relocation replaces.
bool holdsImm32(const isa::OperandInfo &operand) {
  return operand.field.width == 32 && operand.kind != isa::OperandKind::ADDR &&
         operand.kind != isa::OperandKind::ADDR64;
}

} // namespace

std::string registerName(uint32_t reg) {
  return reg == isa::kZeroReg ? "RZ" : fmt::format("R{}", reg);
}

std::string predicateName(uint32_t pred) {
  return pred == isa::kTruePred ? "PT" : fmt::format("P{}", pred);
}

std::string formatF32(uint32_t bits) {
  float value = std::bit_cast<float>(bits);
  if ((bits & 0x7f800000u) == 0x7f800000u) {
    if ((bits & 0x007fffffu) == 0)
      return bits >> 31 ? "-inf" : "inf";
    if (bits == 0x7fc00000u)
      return "nan";
    return fmt::format("0f{:08x}", bits);
  }
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

std::string formatF64(uint64_t bits) {
  double value = std::bit_cast<double>(bits);
  if ((bits & 0x7ff0000000000000ull) == 0x7ff0000000000000ull) {
    if ((bits & 0x000fffffffffffffull) == 0)
      return bits >> 63 ? "-inf" : "inf";
    if (bits == 0x7ff8000000000000ull)
      return "nan";
    return fmt::format("0d{:016x}", bits);
  }
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

std::string print(const Inst &inst, const PrintOptions &options) {
  const isa::OpInfo &info = inst.info();
  std::string text;
  if (inst.guard != isa::kTruePred || inst.guardNegated)
    text += fmt::format("@{}{} ", inst.guardNegated ? "!" : "", predicateName(inst.guard));
  text += info.name;
  for (unsigned i = 0; i < info.numMods; ++i) {
    const isa::ModInfo &mod = info.mods[i];
    uint32_t value = inst.mods[i];
    if (mod.enumId == isa::EnumId::None) {
      if (value != 0) {
        text += '.';
        for (char c : mod.name)
          text += char(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
      }
      continue;
    }
    const isa::EnumInfo &values = isa::kEnums[size_t(mod.enumId)];
    if (isPositionalMod(info, i) || int(value) != values.omit)
      text += fmt::format(".{}", values.values[value]);
  }
  for (unsigned i = 0; i < info.numOperands; ++i) {
    const isa::OperandInfo &operand = info.operands[i];
    text += i == 0 ? " " : ", ";
    if (!options.immText.empty() && holdsImm32(operand))
      text += options.immText;
    else
      text += formatOperand(operand, inst.operands[i], inst.offsets[i], options);
  }
  return text;
}

} // namespace wf::mc

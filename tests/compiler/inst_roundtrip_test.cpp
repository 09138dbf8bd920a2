// Disassemble -> assemble -> same word, for every opcode in the generated table: every operand
// form, every modifier value, every guard, and random valid words built from the tables. Also
// words that are not instructions: printed as .word, never a crash, and reassembled bit-exactly.
#include "warpforge/asm/assembler.h"
#include "warpforge/asm/disassembler.h"
#include "warpforge/asm/inst.h"

#include <bit>
#include <climits>
#include <gtest/gtest.h>
#include <random>
#include <vector>

namespace wf::mc {
namespace {

/// Field values that exercise every way an operand of `operand`'s kind can be written.
std::vector<uint32_t> operandForms(const isa::OperandInfo &operand) {
  std::vector<uint32_t> all;
  auto range = [&](uint32_t count) {
    for (uint32_t v = 0; v < count; ++v)
      all.push_back(v);
  };
  switch (operand.kind) {
  case isa::OperandKind::R:
  case isa::OperandKind::ADDR:
    return {0, 1, 7, 128, isa::kNumRegs - 1, isa::kZeroReg};
  case isa::OperandKind::R64:
  case isa::OperandKind::ADDR64:
    return {0, 2, 100, isa::kNumRegs - 3, isa::kZeroReg};
  case isa::OperandKind::R128:
    return {0, 4, 100, isa::kNumRegs - 7, isa::kZeroReg};
  case isa::OperandKind::P:
  case isa::OperandKind::PN:
  case isa::OperandKind::B:
  case isa::OperandKind::U4:
    range(1u << operand.field.width);
    return all;
  case isa::OperandKind::SR:
    range(isa::kNumSRegs);
    return all;
  case isa::OperandKind::U8:
    return {0, 1, 0x96, 0xff};
  case isa::OperandKind::I32:
    return {0,
            1,
            uint32_t(-1),
            12345,
            uint32_t(-65535),
            65535,
            65536,
            uint32_t(INT_MIN),
            uint32_t(INT_MAX),
            0xdeadbeef};
  case isa::OperandKind::U32:
    return {0, 31, 65535, 65536, 0xffffffff};
  case isa::OperandKind::F32:
    return {std::bit_cast<uint32_t>(1.5f),
            std::bit_cast<uint32_t>(-0.25f),
            0,
            0x80000000u, // -0
            0x7f800000u, // inf
            0xff800000u, // -inf
            0x7fc00000u, // canonical NaN
            0x7fc00001u, // NaN with payload
            0xffc00000u, // negative NaN
            0x00000001u, // smallest denormal
            0x7f7fffffu, // largest finite
            std::bit_cast<uint32_t>(3.14159f),
            std::bit_cast<uint32_t>(1e-3f),
            std::bit_cast<uint32_t>(16777216.0f)};
  case isa::OperandKind::REL:
    return {0, 8, uint32_t(-8), uint32_t(-16), 0x7ffffff8, 0x80000000, 3};
  }
  return {0};
}

std::vector<uint32_t> offsetForms(const isa::OperandInfo &operand) {
  if (operand.imm.width == 0)
    return {0};
  return {0, 16, uint32_t(-8), 0x100, uint32_t(INT_MIN), uint32_t(INT_MAX), 0xfffffff0, 65536};
}

/// Whether `value` is a legal register for operand `index` of `inst`, whose modifiers may make
/// it a pair or quad.
bool registerFits(const Inst &inst, unsigned index, uint32_t value) {
  const isa::OpInfo &info = inst.info();
  uint64_t word = 0;
  for (unsigned i = 0; i < info.numOperands; ++i)
    word = isa::setField(word, info.operands[i].field, inst.operands[i]);
  for (unsigned i = 0; i < info.numMods; ++i)
    word = isa::setField(word, info.mods[i].field, inst.mods[i]);
  unsigned regs = isa::operandRegs(info, index, word);
  return regs <= 1 || value == isa::kZeroReg ||
         (value % regs == 0 && value + regs - 1 < isa::kZeroReg);
}

/// An instruction of `opcode` with every field at its first legal value.
Inst baseInst(uint8_t opcode) {
  Inst inst;
  inst.opcode = opcode;
  return inst;
}

void expectRoundTrip(const Inst &inst, uint32_t pc) {
  auto word = encode(inst);
  ASSERT_TRUE(word) << word.error().str();
  auto decoded = decode(*word);
  ASSERT_TRUE(decoded) << decoded.error().str();
  EXPECT_EQ(*decoded, inst);
  PrintOptions options;
  options.pc = pc;
  WordText text = disassembleWord(*word, options);
  ASSERT_TRUE(text.valid()) << text.note;
  auto again = assembleInst(text.text, pc);
  ASSERT_TRUE(again) << "'" << text.text << "': " << again.error().str();
  EXPECT_EQ(*again, *word) << "'" << text.text << "' at pc " << pc;
}

std::vector<uint8_t> validOpcodes() {
  std::vector<uint8_t> codes;
  for (unsigned code = 0; code < isa::kOps.size(); ++code)
    if (isa::kOps[code].valid)
      codes.push_back(uint8_t(code));
  return codes;
}

class EveryOpcode : public testing::TestWithParam<uint8_t> {};

TEST_P(EveryOpcode, GuardsRoundTrip) {
  for (uint32_t guard = 0; guard <= isa::kTruePred; ++guard)
    for (bool negated : {false, true}) {
      Inst inst = baseInst(GetParam());
      inst.guard = uint8_t(guard);
      inst.guardNegated = negated;
      expectRoundTrip(inst, 0x40);
    }
}

TEST_P(EveryOpcode, OperandFormsRoundTrip) {
  const isa::OpInfo &info = isa::kOps[GetParam()];
  for (unsigned i = 0; i < info.numOperands; ++i)
    for (uint32_t value : operandForms(info.operands[i]))
      for (uint32_t offset : offsetForms(info.operands[i]))
        for (uint32_t pc : {0u, 0x100u, 0xfffffff8u}) {
          Inst inst = baseInst(GetParam());
          if (!registerFits(inst, i, value))
            continue;
          inst.operands[i] = value;
          inst.offsets[i] = offset;
          SCOPED_TRACE(testing::Message() << info.name << " operand " << info.operands[i].name
                                          << " = " << value << " offset " << offset);
          expectRoundTrip(inst, pc);
        }
}

TEST_P(EveryOpcode, ModifierValuesRoundTrip) {
  const isa::OpInfo &info = isa::kOps[GetParam()];
  for (unsigned i = 0; i < info.numMods; ++i) {
    const isa::ModInfo &mod = info.mods[i];
    uint32_t count = mod.enumId == isa::EnumId::None ? 2 : isa::kEnums[size_t(mod.enumId)].count;
    for (uint32_t value = 0; value < count; ++value) {
      Inst inst = baseInst(GetParam());
      inst.mods[i] = value;
      SCOPED_TRACE(testing::Message() << info.name << " modifier " << mod.name << " = " << value);
      expectRoundTrip(inst, 0);
    }
  }
}

TEST_P(EveryOpcode, RandomValidWordsRoundTrip) {
  const isa::OpInfo &info = isa::kOps[GetParam()];
  std::mt19937_64 rng(0x5eed0000u + GetParam());
  auto random = [&](unsigned width) {
    return width >= 32 ? uint32_t(rng()) : uint32_t(rng() & ((uint64_t(1) << width) - 1));
  };
  for (int n = 0; n < 300; ++n) {
    Inst inst = baseInst(GetParam());
    inst.guard = uint8_t(random(4));
    inst.guardNegated = rng() & 1;
    for (unsigned i = 0; i < info.numOperands; ++i) {
      const isa::OperandInfo &operand = info.operands[i];
      uint32_t value = random(operand.field.width);
      if (operand.kind == isa::OperandKind::SR)
        value %= isa::kNumSRegs;
      inst.operands[i] = value;
      inst.offsets[i] = random(operand.imm.width);
    }
    for (unsigned i = 0; i < info.numMods; ++i) {
      const isa::ModInfo &mod = info.mods[i];
      inst.mods[i] = mod.enumId == isa::EnumId::None
                         ? random(1)
                         : uint32_t(rng() % isa::kEnums[size_t(mod.enumId)].count);
    }
    // Register groups whose width the modifiers just chose must be aligned; RZ fits any.
    for (unsigned i = 0; i < info.numOperands; ++i)
      if (!registerFits(inst, i, inst.operands[i]))
        inst.operands[i] = isa::kZeroReg;
    uint32_t pc = uint32_t(rng()) & ~7u;
    SCOPED_TRACE(testing::Message() << info.name << " sample " << n);
    expectRoundTrip(inst, pc);
    if (testing::Test::HasFatalFailure())
      return;
  }
}

/// Every bit outside the opcode's fields makes the word invalid; it prints as .word and the
/// assembler gives the same word back.
TEST_P(EveryOpcode, StrayBitsPrintAsWord) {
  const isa::OpInfo &info = isa::kOps[GetParam()];
  uint64_t base = *encode(baseInst(GetParam()));
  uint64_t defined = definedBits(info);
  for (unsigned bit = 0; bit < 64; ++bit) {
    if (defined >> bit & 1)
      continue;
    uint64_t word = base | uint64_t(1) << bit;
    WordText text = disassembleWord(word);
    EXPECT_FALSE(text.valid()) << info.name << " bit " << bit;
    EXPECT_EQ(text.text.rfind(".word 0x", 0), 0u) << text.text;
    auto again = assembleInst(text.text);
    ASSERT_TRUE(again) << again.error().str();
    EXPECT_EQ(*again, word);
  }
}

/// Field values the tables rule out: enum values past the enum, missing special registers, odd
/// register pairs.
TEST_P(EveryOpcode, IllegalFieldValuesPrintAsWord) {
  const isa::OpInfo &info = isa::kOps[GetParam()];
  uint64_t base = *encode(baseInst(GetParam()));
  std::vector<uint64_t> words;
  for (unsigned i = 0; i < info.numMods; ++i) {
    const isa::ModInfo &mod = info.mods[i];
    if (mod.enumId == isa::EnumId::None)
      continue;
    for (uint64_t v = isa::kEnums[size_t(mod.enumId)].count; v < (1u << mod.field.width); ++v)
      words.push_back(isa::setField(base, mod.field, v));
  }
  for (unsigned i = 0; i < info.numOperands; ++i) {
    const isa::OperandInfo &operand = info.operands[i];
    if (operand.kind == isa::OperandKind::SR)
      for (uint64_t v = isa::kNumSRegs; v < (1u << operand.field.width); ++v)
        words.push_back(isa::setField(base, operand.field, v));
    if (operand.kind == isa::OperandKind::R64 || operand.kind == isa::OperandKind::ADDR64)
      words.push_back(isa::setField(base, operand.field, 3));
    if (operand.kind == isa::OperandKind::R128)
      words.push_back(isa::setField(base, operand.field, 2));
  }
  for (uint64_t word : words) {
    WordText text = disassembleWord(word);
    EXPECT_FALSE(text.valid()) << info.name << ": " << text.text;
    auto again = assembleInst(text.text);
    ASSERT_TRUE(again);
    EXPECT_EQ(*again, word);
  }
}

INSTANTIATE_TEST_SUITE_P(Isa, EveryOpcode, testing::ValuesIn(validOpcodes()),
                         [](const testing::TestParamInfo<uint8_t> &param) {
                           return std::string(isa::kOps[param.param].name);
                         });

TEST(InvalidWords, UnknownOpcodesPrintAsWordWithNote) {
  for (unsigned code = 0; code < isa::kOps.size(); ++code) {
    if (isa::kOps[code].valid)
      continue;
    uint64_t word = 0x0123456789abcd00ull | code;
    WordText text = disassembleWord(word);
    EXPECT_FALSE(text.valid());
    EXPECT_NE(text.note.find("invalid opcode"), std::string::npos) << text.note;
    auto again = assembleInst(text.text);
    ASSERT_TRUE(again);
    EXPECT_EQ(*again, word);
  }
}

TEST(InvalidWords, RandomWordsNeverCrashAndReassemble) {
  std::mt19937_64 rng(42);
  for (int n = 0; n < 20000; ++n) {
    uint64_t word = rng();
    uint32_t pc = uint32_t(rng()) & ~7u;
    PrintOptions options;
    options.pc = pc;
    WordText text = disassembleWord(word, options);
    auto again = assembleInst(text.text, pc);
    ASSERT_TRUE(again) << text.text << ": " << again.error().str();
    EXPECT_EQ(*again, word) << text.text;
  }
}

} // namespace
} // namespace wf::mc

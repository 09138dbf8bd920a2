// The assembly syntax: spellings that mean the same word, and how words print.
#include "warpforge/asm/assembler.h"
#include "warpforge/asm/disassembler.h"
#include "warpforge/asm/inst.h"

#include <bit>
#include <gtest/gtest.h>

namespace wf::mc {
namespace {

uint64_t assembled(std::string_view text, uint32_t pc = 0) {
  auto word = assembleInst(text, pc);
  EXPECT_TRUE(word) << text << ": " << (word ? "" : word.error().str());
  return word ? *word : 0;
}

std::string printed(uint64_t word, uint32_t pc = 0) {
  PrintOptions options;
  options.pc = pc;
  WordText text = disassembleWord(word, options);
  EXPECT_TRUE(text.valid()) << text.note;
  return text.text;
}

/// Operand `name` of the decoded word.
uint32_t operand(uint64_t word, std::string_view name) {
  auto inst = decode(word);
  EXPECT_TRUE(inst);
  const isa::OpInfo &info = inst->info();
  for (unsigned i = 0; i < info.numOperands; ++i)
    if (info.operands[i].name == name)
      return inst->operands[i];
  ADD_FAILURE() << "no operand " << name;
  return 0;
}

uint32_t offset(uint64_t word) {
  auto inst = decode(word);
  for (unsigned i = 0; i < inst->info().numOperands; ++i)
    if (inst->info().operands[i].name == "addr")
      return inst->offsets[i];
  ADD_FAILURE() << "no address";
  return 0;
}

uint32_t mod(uint64_t word, std::string_view name) {
  auto inst = decode(word);
  const isa::OpInfo &info = inst->info();
  for (unsigned i = 0; i < info.numMods; ++i)
    if (info.mods[i].name == name)
      return inst->mods[i];
  ADD_FAILURE() << "no modifier " << name;
  return 0;
}

TEST(AsmSyntax, CanonicalTextPrintsBackUnchanged) {
  for (const char *text : {
           "IADD R0, R1, R2, PT, PT",
           "@!P3 EXIT",
           "@P0 IADD.X R4, R5, RZ, P1, !P2",
           "FADD.RZ.FTZ R0, R1, R2",
           "F2F.F32.F16 R0, R1",
           "F2F.F16.F32.RZ R0, R1",
           "ISETP.LT.U64.OR P1, R2, R4, !P0",
           "LDG R0, [R2]",
           "LDG.U8 R0, [R2+16]",
           "STS [R1-8], R4",
           "LDC R0, [RZ+0x10000]",
           "S2R R0, SR_TID_X",
           "MOV32I R0, -1",
           "MOV32I R0, 0xdeadbeef",
           "FADD_I R0, R1, 1.5",
           "FMUL_I R0, R1, -inf",
           "FMUL_I R0, R1, 0f7fc00001",
           "LOP3 R0, R1, R2, R3, 0x96",
           "BAR.RED_POPC R0, RZ, RZ, !PT, 3",
           "TEX.2D.CS32.U32 R0, R4, R6",
           "ATOM.CAS.U64.GLOBAL R0, [R2], R4, R6",
           "BSSY B3, 0x40",
       }) {
    EXPECT_EQ(printed(assembled(text)), text);
  }
}

TEST(AsmSyntax, LetterCaseAndSpacingDoNotMatter) {
  EXPECT_EQ(assembled("iadd r0, r1, r2, pt, pt"), assembled("IADD R0,R1,R2,PT,PT"));
  EXPECT_EQ(assembled("  fadd.ftz.rz   r0 ,  r1 , r2  "), assembled("FADD.RZ.FTZ R0, R1, R2"));
  EXPECT_EQ(assembled("s2r r3, sr_laneid"), assembled("S2R R3, SR_LANEID"));
}

TEST(AsmSyntax, ModifiersInAnyOrderPositionalOnesInOrder) {
  EXPECT_EQ(assembled("FADD.FTZ.RZ.SAT R0, R1, R2"), assembled("FADD.SAT.RZ.FTZ R0, R1, R2"));
  uint64_t f32FromF16 = assembled("F2F.F32.F16 R0, R1");
  uint64_t f16FromF32 = assembled("F2F.F16.F32 R0, R1");
  EXPECT_NE(f32FromF16, f16FromF32);
  EXPECT_EQ(mod(f32FromF16, "dst"), 1u); // FltType: F16, F32, F64, BF16
  EXPECT_EQ(mod(f32FromF16, "src"), 0u);
  // Non-positional modifiers may sit between positional ones.
  EXPECT_EQ(assembled("F2F.F32.RZ.F16 R0, R1"), assembled("F2F.F32.F16.RZ R0, R1"));
}

TEST(AsmSyntax, OmittedEnumValuesAreTheDefault) {
  EXPECT_EQ(assembled("LDG.B32 R0, [R2]"), assembled("LDG R0, [R2]"));
  EXPECT_EQ(printed(assembled("LDG.B32 R0, [R2]")), "LDG R0, [R2]");
  EXPECT_EQ(assembled("FADD.RN R0, R1, R2"), assembled("FADD R0, R1, R2"));
}

TEST(AsmSyntax, AddressForms) {
  EXPECT_EQ(offset(assembled("LDS R0, [R4+16]")), 16u);
  EXPECT_EQ(offset(assembled("LDS R0, [R4-8]")), uint32_t(-8));
  EXPECT_EQ(offset(assembled("LDS R0, [R4]")), 0u);
  EXPECT_EQ(assembled("LDS R0, [0x100]"), assembled("LDS R0, [RZ+0x100]"));
  EXPECT_EQ(assembled("LDS R0, [ R4 + 0x10 ]"), assembled("LDS R0, [R4+16]"));
  EXPECT_EQ(operand(assembled("LDG R0, [RZ+8]"), "addr"), isa::kZeroReg);
}

TEST(AsmSyntax, Immediates) {
  EXPECT_EQ(operand(assembled("MOV32I R0, -1"), "imm"), 0xffffffffu);
  EXPECT_EQ(operand(assembled("MOV32I R0, 0xffffffff"), "imm"), 0xffffffffu);
  EXPECT_EQ(operand(assembled("MOV32I R0, 0b101"), "imm"), 5u);
  EXPECT_EQ(operand(assembled("MOV32I R0, 10+0x10-3"), "imm"), 23u);
  EXPECT_EQ(operand(assembled("MOV32I R0, %hi(0x123456789)"), "imm"), 1u);
  EXPECT_EQ(operand(assembled("MOV32I R0, %lo(0x123456789)"), "imm"), 0x23456789u);
}

TEST(AsmSyntax, FloatImmediates) {
  auto bits = [](std::string_view value) {
    return operand(assembled("FADD_I R0, R1, " + std::string(value)), "imm");
  };
  EXPECT_EQ(bits("1.5"), std::bit_cast<uint32_t>(1.5f));
  EXPECT_EQ(bits("0f3fc00000"), std::bit_cast<uint32_t>(1.5f));
  EXPECT_EQ(bits("-0.25"), std::bit_cast<uint32_t>(-0.25f));
  EXPECT_EQ(bits("2"), std::bit_cast<uint32_t>(2.0f));
  EXPECT_EQ(bits("1e-3"), std::bit_cast<uint32_t>(1e-3f));
  EXPECT_EQ(bits("inf"), 0x7f800000u);
  EXPECT_EQ(bits("-inf"), 0xff800000u);
  EXPECT_EQ(bits("nan"), 0x7fc00000u);
  EXPECT_EQ(bits("-0"), 0x80000000u);
  EXPECT_EQ(bits("1e-45"), 1u); // the smallest denormal
}

TEST(AsmSyntax, PcRelativeTargets) {
  // imm = target - (pc + 8)
  EXPECT_EQ(operand(assembled("BRA 0x40", 0), "imm"), 0x38u);
  EXPECT_EQ(operand(assembled("BRA 0x40", 0x40), "imm"), uint32_t(-8));
  EXPECT_EQ(printed(assembled("BRA 0x40", 0x100), 0x100), "BRA 0x40");
}

TEST(AsmSyntax, PredicatesAndPairs) {
  uint64_t word = assembled("SEL R0, R1, R2, !P5");
  EXPECT_EQ(operand(word, "pc"), 5u | 16u); // negation is the top bit of the 5-bit field
  EXPECT_EQ(operand(assembled("SEL R0, R1, R2, PT"), "pc"), isa::kTruePred);
  EXPECT_EQ(operand(assembled("DADD R2, R4, RZ"), "rb"), isa::kZeroReg); // RZ as a pair
}

TEST(AsmSyntax, CommentsAreIgnored) {
  EXPECT_EQ(assembled("EXIT // bye"), assembled("EXIT"));
  EXPECT_EQ(assembled("EXIT # bye"), assembled("EXIT"));
}

} // namespace
} // namespace wf::mc

// Every kind of assembly error: reported with its line, column and the offending text, never a
// crash; and every bad line is reported, not only the first.
#include "warpforge/asm/assembler.h"

#include <gtest/gtest.h>

namespace wf::mc {
namespace {

struct Expected1 {
  uint32_t line;
  uint32_t column;
  std::string snippet;
  std::string message; ///< a part of the message
};

ErrorList errorsOf(std::string_view source) {
  AsmOptions options;
  options.fileName = "test.s";
  auto module = assemble(source, options);
  EXPECT_FALSE(module) << "assembled without errors:\n" << source;
  return module ? ErrorList{} : module.error();
}

void expectError(std::string_view source, const Expected1 &want) {
  ErrorList errors = errorsOf(source);
  ASSERT_FALSE(errors.empty());
  const Error &error = errors.front();
  SCOPED_TRACE(error.str());
  EXPECT_EQ(error.loc.file, "test.s");
  EXPECT_EQ(error.loc.line, want.line);
  EXPECT_EQ(error.loc.column, want.column);
  EXPECT_EQ(error.snippet, want.snippet);
  EXPECT_NE(error.message.find(want.message), std::string::npos) << error.message;
}

TEST(AsmErrors, UnknownOpcode) {
  expectError("EXIT\n  FROB R1, R2\n", {2, 3, "FROB", "unknown opcode"});
}

TEST(AsmErrors, UnknownModifier) {
  expectError("IADD.BOGUS R0, R1, R2, PT, PT", {1, 5, ".BOGUS", "unknown modifier"});
  // A value of another opcode's enum is unknown here.
  expectError("FADD.U32 R0, R1, R2", {1, 5, ".U32", "unknown modifier"});
}

TEST(AsmErrors, DuplicateOrMissingModifier) {
  expectError("FADD.FTZ.FTZ R0, R1, R2", {1, 9, ".FTZ", "given twice"});
  expectError("FADD.RZ.RM R0, R1, R2", {1, 8, ".RM", "given twice"});
  expectError("ISETP P0, R1, R2, PT", {1, 1, "ISETP", "needs its cmp modifier"});
  expectError("F2F.F32 R0, R1", {1, 1, "F2F", "needs its src modifier"});
  expectError("F2F.F32.F16.F64 R0, R1", {1, 12, ".F64", "unknown modifier"});
}

TEST(AsmErrors, WrongOperandCount) {
  expectError("MOV R0", {1, 5, "R0", "takes 2 operands"});
  expectError("EXIT R0", {1, 6, "R0", "takes 0 operands"});
  expectError("MOV R0, R1, R2", {1, 5, "R0, R1, R2", "not 3"});
  expectError("MOV", {1, 1, "MOV", "not 0"});
  expectError("MOV R0,", {1, 8, "", "operand ra of MOV is empty"});
}

TEST(AsmErrors, WrongOperandKind) {
  expectError("MOV R0, P1", {1, 9, "P1", "must be a register"});
  expectError("SEL R0, R1, R2, R3", {1, 17, "R3", "must be a predicate"});
  expectError("MOV32I R0, R1", {1, 12, "R1", "must be an integer"});
  expectError("S2R R0, SR_NOPE", {1, 9, "SR_NOPE", "unknown special register"});
  expectError("BSYNC R0", {1, 7, "R0", "convergence barrier"});
  expectError("LDG R0, R2", {1, 9, "R2", "must be an address"});
  expectError("FADD_I R0, R1, one", {1, 16, "one", "expected a float"});
  expectError("ISETP.EQ !P0, R1, R2, PT", {1, 10, "!P0", "cannot be negated"});
  expectError("@R1 EXIT", {1, 2, "R1", "guard predicate"});
}

TEST(AsmErrors, OutOfRange) {
  expectError("MOV R255, R0", {1, 5, "R255", "register out of range"});
  expectError("SEL R0, R1, R2, P15", {1, 17, "P15", "predicate out of range"});
  expectError("BSYNC B16", {1, 7, "B16", "out of range"});
  expectError("MOV32I R0, 0x100000000", {1, 12, "0x100000000", "out of range"});
  expectError("MOV32I R0, -2147483649", {1, 12, "-2147483649", "out of range"});
  expectError("SHL_I R0, R1, -1", {1, 15, "-1", "out of range"});
  expectError("BAR R0, R1, R2, PT, 16", {1, 21, "16", "out of range [0, 15]"});
  expectError("LOP3 R0, R1, R2, R3, 256", {1, 22, "256", "out of range"});
  expectError("FADD_I R0, R1, 1e39", {1, 16, "1e39", "out of range"});
  expectError("MOV32I R0, 99999999999999999999999",
              {1, 12, "99999999999999999999999", "too large"});
  expectError("ATOM.ADD R0, [R2+4], R4, R5", {1, 17, "+4", "takes no offset"});
}

TEST(AsmErrors, Labels) {
  expectError("BRA nowhere\n", {1, 5, "nowhere", "undefined label"});
  expectError("a:\nEXIT\n  a: EXIT\n", {3, 3, "a", "duplicate label (first defined on line 1)"});
  expectError(".global\nx: .word 1\n.text\nBRA x\n", {4, 5, "x", "not a code label"});
  expectError("R1: EXIT", {1, 1, "R1", "named like a register"});
  expectError(".global\nx: .word 1\n.text\nMOV32I R0, x\n", {4, 12, "x", "use %lo(x) and %hi(x)"});
  expectError(".global\np: .word y\n", {2, 10, "y", "undefined symbol"});
}

TEST(AsmErrors, MisalignedPair) {
  expectError("DADD R1, R2, R4", {1, 6, "R1", "misaligned register pair"});
  expectError("LDG R0, [R3+4]", {1, 10, "R3", "misaligned register pair"});
}

TEST(AsmErrors, Directives) {
  expectError(".frobnicate 3", {1, 1, ".frobnicate", "unknown directive"});
  expectError(".regs 8", {1, 1, ".regs", "outside a .kernel"});
  expectError(".kernel k\n.regs 300\nEXIT", {2, 7, "300", "out of range"});
  expectError(".kernel k\n.regs 2\nIADD R0, R1, R7, PT, PT\nEXIT",
              {2, 0, "", "uses R7 but .regs gives only 2"});
  expectError(".kernel k\n", {1, 0, "", "has no instructions"});
  expectError(".align 3", {1, 8, "", "power of two"});
  expectError(".global\n.byte 256", {2, 7, "256", "out of range"});
  expectError(".global\n.word sym\nsym:", {2, 7, "sym", "needs .quad"});
  expectError(".zero 4", {1, 1, "", ".zero in .text"});
  expectError(".global\nEXIT", {2, 1, "EXIT", "outside .text"});
  expectError(".loc 3 10", {1, 6, "", "no .file declared"});
  expectError(".file 1 foo.ptx", {1, 9, "foo.ptx", "quoted file name"});
  expectError(".text extra", {1, 7, "extra", "unexpected text"});
}

TEST(AsmErrors, EveryBadLineIsReported) {
  ErrorList errors = errorsOf("FROB\nEXIT\nMOV R0\nBRA nowhere\nDADD R1, R2, R4\n");
  ASSERT_EQ(errors.size(), 4u) << str(errors);
  EXPECT_EQ(errors[0].loc.line, 1u);
  EXPECT_EQ(errors[1].loc.line, 3u);
  EXPECT_EQ(errors[2].loc.line, 5u); // pass 1 errors first, in line order
  EXPECT_EQ(errors[3].loc.line, 4u); // then the unresolved label
  EXPECT_EQ(errors[0].str(), "test.s:1:1: error: unknown opcode ('FROB')");
}

TEST(AsmErrors, SingleInstructionErrorsHaveColumns) {
  auto word = assembleInst("IADD R0, R1, Q2, PT, PT");
  ASSERT_FALSE(word);
  EXPECT_EQ(word.error().loc.column, 14u);
  EXPECT_EQ(word.error().snippet, "Q2");
  EXPECT_FALSE(assembleInst("BRA label")); // no symbols in a single instruction
  EXPECT_FALSE(assembleInst(""));
}

TEST(AsmErrors, GarbageNeverCrashes) {
  for (const char *source : {"[",
                             "]",
                             "@",
                             "@!",
                             ".",
                             ":",
                             "%lo(",
                             "IADD [[[",
                             "MOV R0, [R1+",
                             "LDG R0, [R2+%lo(x)",
                             "MOV32I R0, %lo(",
                             "MOV32I R0, %xx(1)",
                             "MOV32I R0, 1+",
                             "MOV32I R0, --1",
                             "\"",
                             ".file 1 \"",
                             ".kernel",
                             ".maxntid 1,",
                             ".param 0",
                             ".word 1,,2",
                             "FADD_I R0, R1, 0f",
                             "FADD_I R0, R1, 0f123456789",
                             ".global\n.float",
                             ".global\n.double 0dzz",
                             "BRA 0x100000000",
                             "BRA -8",
                             "MOV32I R0, 0xffffffffffffffffff"}) {
    auto module = assemble(source);
    EXPECT_FALSE(module) << source;
  }
}

} // namespace
} // namespace wf::mc

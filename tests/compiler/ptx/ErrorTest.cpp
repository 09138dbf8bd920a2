//===- ErrorTest.cpp - Diagnostics of the PTX parser ----------------------===//
//
// Part of Warpforge. Every malformed or unsupported input must give an error
// value with the file, line, column and offending text.
//
//===----------------------------------------------------------------------===//

#include "warpforge/ptx/Parser.h"

#include <gtest/gtest.h>

using namespace wf::ptx;

namespace {

constexpr const char *kHeader = ".version 7.8\n.target sm_75\n.address_size 64\n";

struct ErrorCase {
  const char *name;
  std::string text;      ///< the whole module
  uint32_t line, col;    ///< expected position of the first diagnostic
  const char *message;   ///< substring of its message
  const char *offending; ///< substring of its text
};

void PrintTo(const ErrorCase &C, std::ostream *OS) { *OS << C.name; }

/// Wraps Body in a kernel; the body starts on line 6.
std::string kernel(const std::string &Body) {
  return std::string(kHeader) + ".entry k ()\n{\n" + Body + "\n}\n";
}

class PtxErrors : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(PtxErrors, ReportsPositionAndText) {
  const ErrorCase &C = GetParam();
  ParseOptions Opts;
  Opts.fileName = "test.ptx";
  auto M = parseModule(C.text, Opts);
  ASSERT_FALSE(M) << "parsed without error: " << C.name;
  const Diagnostic &D = M.error().primary();
  EXPECT_EQ(D.file, "test.ptx");
  EXPECT_EQ(D.loc.line, C.line) << D.str();
  EXPECT_EQ(D.loc.col, C.col) << D.str();
  EXPECT_NE(D.message.find(C.message), std::string::npos) << D.str();
  EXPECT_NE(D.text.find(C.offending), std::string::npos) << D.str();
  EXPECT_NE(D.str().find("test.ptx:" + std::to_string(C.line) + ":" + std::to_string(C.col)),
            std::string::npos);
}

const ErrorCase kCases[] = {
    {"NoVersion", ".target sm_75\n", 1, 1, "must start with .version", ".target"},
    {"BadVersion", ".version 12.0\n", 1, 10, "unsupported PTX ISA version", "12.0"},
    {"MalformedVersion", ".version 7\n", 1, 10, "malformed .version", "7"},
    {"BadTarget", ".version 7.0\n.target gfx90a\n", 2, 9, "unknown target", "gfx90a"},
    {"BadAddressSize", ".version 7.0\n.address_size 48\n", 2, 15, "32 or 64", "48"},
    {"StrayToken", std::string(kHeader) + "add.s32 %r1, %r2, %r3;\n", 4, 1, "expected a directive",
     "add.s32"},
    {"UnterminatedComment", std::string(kHeader) + "/* forever\n", 4, 1, "unterminated comment",
     "/*"},
    {"BadCharacter", std::string(kHeader) + "#include <x>\n", 4, 1, "unexpected character", "#"},
    {"UnknownInstruction", kernel("frobnicate.u32 %r1;"), 6, 1, "unknown PTX instruction",
     "frobnicate"},
    {"UnknownModifier", kernel(".reg .b32 %r<3>;\nadd.q32 %r1, %r1, %r2;"), 7, 1,
     "unknown modifier '.q32'", "add.q32"},
    {"InvalidModifierForInstruction", kernel(".reg .b32 %r<3>;\nadd.global.s32 %r1, %r1, %r2;"), 7,
     1, "'.global' is not valid for 'add'", "add.global.s32"},
    {"ConflictingModifiers", kernel(".reg .f32 %f<3>;\nadd.rn.rz.f32 %f1, %f1, %f2;"), 7, 1,
     "'.rz' conflicts with '.rn'", "add.rn.rz.f32"},
    {"RepeatedModifier", kernel(".reg .f32 %f<3>;\nadd.ftz.ftz.f32 %f1, %f1, %f2;"), 7, 1,
     "repeated modifier", "add.ftz.ftz.f32"},
    {"MissingType", kernel(".reg .b32 %r<3>;\nadd %r1, %r1, %r2;"), 7, 1, "needs a type modifier",
     "add"},
    {"MissingRounding", kernel(".reg .f32 %f<3>;\nfma.f32 %f1, %f1, %f2, %f2;"), 7, 1,
     "needs a rounding modifier", "fma.f32"},
    {"IntegerMulWithoutMode", kernel(".reg .b32 %r<3>;\nmul.s32 %r1, %r1, %r2;"), 7, 1,
     "needs .lo, .hi or .wide", "mul.s32"},
    {"FloatMadWithMode", kernel(".reg .f32 %f<3>;\nmad.lo.f32 %f1, %f1, %f2, %f2;"), 7, 1,
     "'.lo' is not valid for floating-point 'mad'", "mad.lo.f32"},
    {"TooFewOperands", kernel(".reg .b32 %r<3>;\nadd.s32 %r1, %r2;"), 7, 1,
     "takes 3 operands, found 2", "add.s32"},
    {"TooManyOperands", kernel(".reg .b32 %r<3>;\nnot.b32 %r1, %r2, %r2;"), 7, 1,
     "takes 2 operands, found 3", "not.b32"},
    {"DestinationIsConstant", kernel(".reg .b32 %r<3>;\nadd.s32 5, %r1, %r2;"), 7, 9,
     "must be a destination register", "add.s32"},
    {"LoadWithoutAddress", kernel(".reg .b32 %r<3>;\nld.global.u32 %r1, %r2;"), 7, 20,
     "must be a memory operand", "ld.global.u32"},
    {"RejectedInstruction",
     kernel(".reg .b32 %r<9>;\nmma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
            "{%r1,%r2,%r3,%r4}, {%r5,%r6}, {%r7}, {%r8};"),
     7, 1, "'mma' is not supported: tensor cores", "mma.sync"},
    {"RejectedModifier",
     kernel(".reg .b16 %h; .reg .f32 %f<2>;\ncvt.rn.satfinite.e4m3x2.f32 %h, %f0, %f1;"), 7, 1,
     "is not supported", "cvt.rn.satfinite.e4m3x2.f32"},
    {"LaterModifier",
     kernel(".reg .f32 %f<6>; .reg .b64 %rd;\ntex.grad.2d.v4.f32.f32 {%f0,%f1,%f2,%f3}, [%rd, "
            "{%f4,%f5}], {%f4,%f5}, {%f4,%f5};"),
     7, 1, "not supported yet", "tex.grad"},
    {"UndeclaredRegister", kernel("mov.u32 %r1, 0;"), 6, 9, "undeclared register", "%r1"},
    {"UnknownSpecialRegister", kernel(".reg .b32 %r;\nmov.u32 %r, %tidd.x;"), 7, 13,
     "undeclared register", "%tidd.x"},
    {"SpecialRegisterWithoutComponent", kernel(".reg .b32 %r;\nmov.u32 %r, %tid;"), 7, 13,
     "needs a component", "%tid"},
    {"RangeOutOfBounds", kernel(".reg .b32 %r<4>;\nmov.u32 %r4, 0;"), 7, 9, "undeclared register",
     "%r4"},
    {"Redeclaration", kernel(".reg .b32 %x;\n.reg .b32 %x;"), 7, 11, "redeclaration", "%x"},
    {"GuardNotPredicate", kernel(".reg .b32 %r;\n@%r bra L;\nL: ret;"), 7, 2,
     "must be a .pred register", "%r"},
    {"UndefinedLabel", kernel("bra nowhere;"), 6, 5, "undefined symbol", "nowhere"},
    {"LabelOutOfScope", kernel("{\nin: ret;\n}\nbra in;"), 9, 5, "undefined symbol", "in"},
    {"BranchToVariable", std::string(kHeader) + ".global .u32 g;\n.entry k ()\n{\nbra g;\n}\n", 7,
     5, "expected a label", "g"},
    {"DuplicateLabel", kernel("L: ret;\nL: ret;"), 7, 1, "redefinition of label", "L"},
    {"MissingSemicolon", kernel(".reg .b32 %r;\nmov.u32 %r, 1\nret;"), 8, 1, "expected ';'", "ret"},
    {"MissingBrace", std::string(kHeader) + ".entry k ()\n{\nret;\n", 7, 1, "missing '}'",
     "end of file"},
    {"UnbalancedAddress", kernel(".reg .b64 %rd; .reg .b32 %r;\nld.global.u32 %r, [%rd+4;"), 7, 25,
     "expected ']'", ";"},
    {"FloatAddressOffset", kernel(".reg .b64 %rd; .reg .b32 %r;\nld.global.u32 %r, [%rd+1.5];"), 7,
     24, "must be an integer", "1.5"},
    {"DivisionByZero", std::string(kHeader) + ".global .u32 x = 1 / 0;\n", 4, 20,
     "division by zero", "/"},
    {"UndefinedInitializerSymbol", std::string(kHeader) + ".global .u64 p = generic(nope);\n", 4,
     18, "undefined symbol", "nope"},
    {"TooManyInitializers", std::string(kHeader) + ".global .u32 a[2] = {1, 2, 3};\n", 4, 14,
     "too many initializers", "a"},
    {"UnsizedWithoutInit", std::string(kHeader) + ".global .u32 a[];\n", 4, 14, "unsized array",
     "a"},
    {"SharedInitializer", std::string(kHeader) + ".shared .u32 s = 1;\n", 4, 14,
     "cannot have initializers", "s"},
    {"BadAlignment", std::string(kHeader) + ".global .align 3 .u32 a;\n", 4, 16, "power of two",
     "3"},
    {"Redefinition", std::string(kHeader) + ".entry k () { ret; }\n.entry k () { ret; }\n", 5, 8,
     "redefinition", "k"},
    {"DuplicateParameter",
     std::string(kHeader) + ".entry k (.param .u32 a, .param .u32 a) { ret; }\n", 4, 26,
     "duplicate parameter name", "a"},
    {"IndirectCallWithoutPrototype", kernel(".reg .b64 %rd;\n.param .b32 a;\ncall %rd, (a);"), 8, 6,
     "needs a prototype", "call"},
    {"CallNonFunction", std::string(kHeader) + ".global .u32 g;\n.entry k ()\n{\ncall g;\n}\n", 7,
     6, "expected a function", "g"},
    {"UnterminatedSection", std::string(kHeader) + ".section .debug_info {\n.b8 1\n", 4, 1,
     "unterminated .section", ".section"},
    {"BadBranchTargets", kernel(".reg .b32 %r;\nts: .branchtargets A, B;\nA: brx.idx %r, ts;"), 7,
     23, "unknown label in .branchtargets", "B"},
    {"NegatedNonPredicate", kernel(".reg .b32 %r<3>;\nadd.s32 %r1, !%r2, %r2;"), 7, 14,
     "applies to predicate registers", "!"},
    {"VectorComponentOnScalar", kernel(".reg .f32 %f;\nmov.f32 %f.x, 0f00000000;"), 7, 9,
     "invalid register component", "%f.x"},
    {"ZeroRegisterCount", kernel(".reg .b32 %r<0>;"), 6, 14, "register count out of range", "0"},
    {"HugeRegisterCount", kernel(".reg .b32 %r<4000000000>;"), 6, 14, "register count out of range",
     "4000000000"},
    {"NestingTooDeep", kernel(std::string(100, '{') + std::string(100, '}')), 6, 66,
     "nested too deeply", "{"},
    {"ExpressionTooDeep",
     std::string(kHeader) + ".global .u32 x = " + std::string(100, '(') + "1" +
         std::string(100, ')') + ";\n",
     4, 83, "nested too deeply", "("},
};

INSTANTIATE_TEST_SUITE_P(All, PtxErrors, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<ErrorCase> &I) {
                           return std::string(I.param.name);
                         });

TEST(PtxErrorsMore, SeveralValidationErrorsAreCollected) {
  auto M = parseModule(kernel(".reg .b32 %r<3>;\nadd.q32 %r1, %r1, %r2;\nmma.sync %r1;\n"
                              "add %r1, %r1, %r2;\nret;"));
  ASSERT_FALSE(M);
  const auto &Ds = M.error().diagnostics();
  ASSERT_EQ(Ds.size(), 3u);
  EXPECT_EQ(Ds[0].loc.line, 7u);
  EXPECT_EQ(Ds[1].loc.line, 8u);
  EXPECT_EQ(Ds[2].loc.line, 9u);
}

TEST(PtxErrorsMore, MaxErrorsStopsEarly) {
  std::string Body = ".reg .b32 %r;\n";
  for (int I = 0; I < 50; ++I)
    Body += "frob.u32 %r;\n";
  ParseOptions Opts;
  Opts.maxErrors = 5;
  auto M = parseModule(kernel(Body), Opts);
  ASSERT_FALSE(M);
  EXPECT_LE(M.error().diagnostics().size(), 5u);
}

TEST(PtxErrorsMore, MissingFile) {
  auto M = parseFile("/nonexistent/dir/x.ptx");
  ASSERT_FALSE(M);
  EXPECT_EQ(M.error().primary().file, "/nonexistent/dir/x.ptx");
  EXPECT_NE(M.error().str().find("cannot open file"), std::string::npos);
}

TEST(PtxErrorsMore, EmptyInput) {
  auto M = parseModule("");
  ASSERT_FALSE(M);
  EXPECT_EQ(M.error().primary().loc.line, 1u);
}

TEST(PtxErrorsMore, LongTextIsTruncated) {
  auto M = parseModule(kernel(std::string(500, 'x') + ";"));
  ASSERT_FALSE(M);
  EXPECT_LE(M.error().primary().text.size(), 60u);
}

} // namespace

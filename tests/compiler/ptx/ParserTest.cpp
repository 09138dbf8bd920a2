//===- ParserTest.cpp - Tests of the PTX parser and module ----------------===//
//
// Part of Warpforge.
//
//===----------------------------------------------------------------------===//

#include "warpforge/ptx/Parser.h"
#include "warpforge/ptx/Printer.h"

#include <gtest/gtest.h>

#include <bit>

using namespace wf::ptx;

namespace {

constexpr const char *kHeader = ".version 7.8\n.target sm_75\n.address_size 64\n";

Module parseOk(const std::string &Text, ParseOptions Opts = {}) {
  auto M = parseModule(Text, Opts);
  EXPECT_TRUE(static_cast<bool>(M)) << (M ? "" : M.error().str());
  if (!M)
    return Module();
  return M.take();
}

/// Parses a kernel whose body is Body.
Module parseBody(const std::string &Body, const std::string &Params = "") {
  return parseOk(std::string(kHeader) + ".visible .entry k(" + Params + ")\n{\n" + Body + "\n}\n");
}

std::vector<const Instruction *> instrs(const Function &F) {
  std::vector<const Instruction *> V;
  for (const Statement &S : F.body)
    if (S.kind == StmtKind::Instr)
      V.push_back(&S.inst);
  return V;
}

TEST(PtxParser, ModuleDirectives) {
  Module M = parseOk(".version 9.0\n.target sm_80, texmode_independent, debug\n"
                     ".address_size 32\n.file 1 \"a.cu\", 123, 456\n.file 7 \"dir/b.h\"\n"
                     ".pragma \"global pragma\";\n");
  EXPECT_EQ(M.versionMajor, 9u);
  EXPECT_EQ(M.versionMinor, 0u);
  EXPECT_EQ(M.target, "sm_80");
  ASSERT_EQ(M.targetOptions.size(), 2u);
  EXPECT_EQ(M.targetOptions[0], "texmode_independent");
  EXPECT_EQ(M.addressSize, 32u);
  ASSERT_EQ(M.files.size(), 2u);
  EXPECT_EQ(M.files.at(1), "a.cu");
  EXPECT_EQ(M.files.at(7), "dir/b.h");
  ASSERT_EQ(M.pragmas.size(), 1u);
  EXPECT_EQ(M.pragmas[0], "global pragma");
}

TEST(PtxParser, OldAndNewVersions) {
  for (const char *V : {"6.3", "7.0", "7.5", "8.5", "9.0"}) {
    Module M = parseOk(std::string(".version ") + V + "\n.target sm_75\n");
    EXPECT_EQ(std::to_string(M.versionMajor) + "." + std::to_string(M.versionMinor), V);
  }
}

TEST(PtxParser, GlobalVariables) {
  Module M =
      parseOk(std::string(kHeader) + ".global .align 16 .v4 .f32 gv = {0f3F800000, 1.5, -2.0, 0};\n"
                                     ".visible .const .align 4 .b8 tbl[8] = {1, 2, 3};\n"
                                     ".global .u32 a = 1 + 2 * 3, b, c = 0x10;\n"
                                     ".global .s16 neg = -3;\n"
                                     ".global .f64 d = 0d4000000000000000;\n"
                                     ".global .align 8 .u64 ptrs[2] = {generic(tbl)+4, a};\n"
                                     ".global .align 1 .b8 str[] = {104, 105, 0};\n"
                                     ".extern .shared .align 16 .b8 dyn[];\n"
                                     ".shared .align 4 .b8 grid[2][3];\n"
                                     ".global .attribute(.managed) .u32 mg;\n");
  ASSERT_EQ(M.globals.size(), 12u);
  const Variable &GV = M.globals[0];
  EXPECT_EQ(GV.name, "gv");
  EXPECT_EQ(GV.space, Space::Global);
  EXPECT_EQ(GV.type, Type::F32);
  EXPECT_EQ(GV.vecWidth, 4);
  EXPECT_EQ(GV.align, 16u);
  EXPECT_EQ(GV.sizeInBytes(), 16u);
  ASSERT_EQ(GV.init.size(), 4u);
  EXPECT_EQ(GV.init[0].kind, InitElem::Kind::Float);
  EXPECT_EQ(GV.init[0].value, 0x3F800000u);
  EXPECT_EQ(GV.init[1].value, std::bit_cast<uint32_t>(1.5f));
  EXPECT_EQ(GV.init[2].value, std::bit_cast<uint32_t>(-2.0f));
  EXPECT_EQ(GV.init[3].value, 0u);

  const Variable &Tbl = M.globals[1];
  EXPECT_EQ(Tbl.linkage, Linkage::Visible);
  EXPECT_EQ(Tbl.space, Space::Const);
  EXPECT_EQ(Tbl.sizeInBytes(), 8u);
  EXPECT_EQ(Tbl.init.size(), 3u); // the rest is zero

  EXPECT_EQ(M.globals[2].name, "a");
  EXPECT_EQ(M.globals[2].init[0].value, 7u);
  EXPECT_EQ(M.globals[3].name, "b");
  EXPECT_FALSE(M.globals[3].hasInit);
  EXPECT_EQ(M.globals[4].init[0].value, 16u);
  EXPECT_EQ(M.globals[5].init[0].value, 0xfffdu); // -3 as 16 bits
  EXPECT_EQ(M.globals[6].init[0].value, 0x4000000000000000u);

  const Variable &Ptrs = M.globals[7];
  ASSERT_EQ(Ptrs.init.size(), 2u);
  EXPECT_EQ(Ptrs.init[0].kind, InitElem::Kind::Address);
  EXPECT_TRUE(Ptrs.init[0].generic);
  EXPECT_EQ(Ptrs.init[0].symbol, "tbl");
  EXPECT_EQ(Ptrs.init[0].value, 4u);
  EXPECT_FALSE(Ptrs.init[1].generic);
  EXPECT_EQ(Ptrs.init[1].symbol, "a");

  EXPECT_EQ(M.globals[8].dims, std::vector<uint64_t>{3});
  const Variable &Dyn = M.globals[9];
  EXPECT_EQ(Dyn.linkage, Linkage::Extern);
  EXPECT_EQ(Dyn.space, Space::Shared);
  EXPECT_EQ(Dyn.dims, std::vector<uint64_t>{0});
  EXPECT_EQ(Dyn.sizeInBytes(), 0u);
  EXPECT_EQ(M.globals[10].sizeInBytes(), 6u);
  EXPECT_TRUE(M.findGlobal("mg")->managed);
}

TEST(PtxParser, ExternThenDefinition) {
  Module M = parseOk(std::string(kHeader) + ".extern .global .u32 x;\n.global .u32 x = 5;\n");
  ASSERT_EQ(M.globals.size(), 1u);
  EXPECT_TRUE(M.globals[0].hasInit);
}

TEST(PtxParser, KernelParameters) {
  Module M = parseOk(std::string(kHeader) +
                     ".visible .entry k(.param .u64 .ptr .global .align 16 p,\n"
                     "  .param .align 8 .b8 agg[24], .param .f32 f, .param .v2 .u32 v)\n"
                     ".maxntid 128, 2 .minnctapersm 4 .maxnreg 32\n{\n ret;\n}\n");
  ASSERT_EQ(M.functions.size(), 1u);
  const Function &F = M.functions[0];
  EXPECT_TRUE(F.isKernel);
  EXPECT_EQ(F.linkage, Linkage::Visible);
  ASSERT_EQ(F.params.size(), 4u);
  EXPECT_TRUE(F.params[0].isPtr);
  EXPECT_EQ(F.params[0].ptrSpace, Space::Global);
  EXPECT_EQ(F.params[0].ptrAlign, 16u);
  EXPECT_EQ(F.params[0].sizeInBytes(), 8u);
  EXPECT_TRUE(F.params[1].isArray);
  EXPECT_EQ(F.params[1].sizeInBytes(), 24u);
  EXPECT_EQ(F.params[1].alignment(), 8u);
  EXPECT_EQ(F.params[2].type, Type::F32);
  EXPECT_EQ(F.params[3].sizeInBytes(), 8u);
  EXPECT_EQ(F.perf.maxntid, (std::array<uint32_t, 3>{128, 2, 1}));
  EXPECT_EQ(F.perf.minnctapersm, 4u);
  EXPECT_EQ(F.perf.maxnreg, 32u);
  EXPECT_EQ(M.kernels().size(), 1u);
}

TEST(PtxParser, FunctionsReturnsAndDeclarations) {
  Module M = parseOk(std::string(kHeader) +
                     ".extern .func (.param .b32 r) vprintf (.param .b64 a, .param .b64 b);\n"
                     ".func (.param .b64 r) f (.param .b32 x);\n"
                     ".func (.param .b64 r) f (.param .b32 x)\n{\n"
                     " .reg .b32 %r1; .reg .b64 %rd1;\n"
                     " ld.param.b32 %r1, [x];\n cvt.u64.u32 %rd1, %r1;\n st.param.b64 [r], %rd1;\n"
                     " ret;\n}\n"
                     ".func nothing () .noreturn { trap; }\n"
                     ".entry e () .reqntid 64 { exit; }\n");
  ASSERT_EQ(M.functions.size(), 4u);
  const Function &VP = M.functions[0];
  EXPECT_EQ(VP.name, "vprintf");
  EXPECT_FALSE(VP.hasBody);
  EXPECT_EQ(VP.linkage, Linkage::Extern);
  const Function &F = M.functions[1];
  EXPECT_TRUE(F.hasBody);
  ASSERT_EQ(F.returns.size(), 1u);
  EXPECT_EQ(F.returns[0].type, Type::B64);
  auto I = instrs(F);
  ASSERT_EQ(I.size(), 4u);
  const Operand &RetAddr = I[2]->operands[0];
  ASSERT_EQ(RetAddr.kind, OperandKind::Address);
  EXPECT_EQ(RetAddr.elems[0].symKind, SymbolKind::Return);
  EXPECT_EQ(I[0]->operands[1].elems[0].symKind, SymbolKind::Param);
  EXPECT_TRUE(M.functions[2].perf.noReturn);
  EXPECT_EQ(M.functions[3].perf.reqntid, (std::array<uint32_t, 3>{64, 1, 1}));
}

TEST(PtxParser, RegParametersAreRegisters) {
  Module M = parseOk(std::string(kHeader) +
                     ".func (.reg .b32 r) inc (.reg .b32 a)\n{\n add.s32 r, a, 1;\n ret;\n}\n");
  const Function &F = M.functions[0];
  ASSERT_EQ(F.params.size(), 1u);
  EXPECT_EQ(F.params[0].space, Space::Reg);
  auto I = instrs(F);
  ASSERT_EQ(I[0]->operands[0].kind, OperandKind::Reg);
  EXPECT_EQ(I[0]->operands[0].reg, F.returns[0].reg);
  EXPECT_EQ(I[0]->operands[1].reg, F.params[0].reg);
  std::string Once = toString(M);
  Module M2 = parseOk(Once);
  EXPECT_EQ(toString(M2), Once);
}

TEST(PtxParser, RegisterRangesAndIds) {
  Module M = parseBody(".reg .pred %p<3>;\n.reg .b32 %r<10>, %single;\n.reg .b64 %rd<4>;\n"
                       ".reg .v2 .f32 %v;\n"
                       "mov.u32 %r9, %single;\nmov.b64 %rd3, 0;\nmov.f32 %v.y, 0f00000000;\n");
  const Function &F = M.functions[0];
  ASSERT_EQ(F.regDecls.size(), 5u);
  EXPECT_EQ(F.numRegs, 3u + 10u + 1u + 4u + 1u);
  auto I = instrs(F);
  const Operand &R9 = I[0]->operands[0];
  ASSERT_EQ(R9.kind, OperandKind::Reg);
  EXPECT_EQ(F.regName(R9.reg), "%r9");
  EXPECT_EQ(F.regType(R9.reg), Type::B32);
  EXPECT_EQ(F.regName(I[0]->operands[1].reg), "%single");
  EXPECT_EQ(F.regType(I[1]->operands[0].reg), Type::B64);
  EXPECT_EQ(I[2]->operands[0].component, 1);
  EXPECT_EQ(F.regDecl(I[2]->operands[0].reg).vecWidth, 2);
}

TEST(PtxParser, InstructionModifiersAndTypes) {
  Module M = parseBody(".reg .b64 %rd<3>; .reg .f32 %f<5>;\n"
                       "ld.global.nc.L1::no_allocate.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+16];\n"
                       "cvt.rn.f32.f64 %f1, %rd2;\n");
  auto I = instrs(M.functions[0]);
  ASSERT_EQ(I.size(), 2u);
  EXPECT_EQ(I[0]->op, Op::Ld);
  EXPECT_EQ(I[0]->opcode, "ld.global.nc.L1::no_allocate.v4.f32");
  ASSERT_EQ(I[0]->numMods, 5u);
  EXPECT_EQ(I[0]->mods[0], Mod::Global);
  EXPECT_EQ(I[0]->mods[2], Mod::L1NoAllocate);
  EXPECT_EQ(I[0]->space(), Space::Global);
  EXPECT_EQ(I[0]->vecWidth(), 4u);
  EXPECT_EQ(I[0]->type(), Type::F32);
  EXPECT_TRUE(I[0]->has(Mod::Nc));
  EXPECT_EQ(I[0]->status, Status::Supported);
  const Operand &Dst = I[0]->operands[0];
  ASSERT_EQ(Dst.kind, OperandKind::Vector);
  EXPECT_EQ(Dst.elems.size(), 4u);
  const Operand &Addr = I[0]->operands[1];
  ASSERT_EQ(Addr.kind, OperandKind::Address);
  EXPECT_EQ(Addr.imm, 16);
  EXPECT_EQ(I[1]->type(0), Type::F32);
  EXPECT_EQ(I[1]->type(1), Type::F64);
}

TEST(PtxParser, MultiSegmentOpcodes) {
  Module M = parseBody(".reg .b32 %r<4>;\n"
                       "add.cc.u32 %r1, %r2, %r3;\naddc.u32 %r1, %r2, %r3;\n"
                       "mad.lo.cc.u32 %r1, %r2, %r3, %r1;\nbar.warp.sync -1;\n"
                       "cvt.pack.sat.u8.s32.b32 %r1, %r2, %r3, %r1;\nbar.sync 0;\n");
  auto I = instrs(M.functions[0]);
  ASSERT_EQ(I.size(), 6u);
  EXPECT_EQ(I[0]->op, Op::AddCc);
  EXPECT_EQ(I[0]->numMods, 1u);
  EXPECT_EQ(I[1]->op, Op::Addc);
  EXPECT_EQ(I[2]->op, Op::MadCc);
  ASSERT_EQ(I[2]->numMods, 2u);
  EXPECT_EQ(I[2]->mods[0], Mod::Lo);
  EXPECT_EQ(I[2]->mods[1], Mod::U32);
  EXPECT_EQ(I[3]->op, Op::BarWarpSync);
  EXPECT_EQ(I[3]->numMods, 0u);
  EXPECT_EQ(I[4]->op, Op::CvtPack);
  EXPECT_EQ(I[5]->op, Op::Bar);
  EXPECT_EQ(I[5]->mods[0], Mod::Sync);
}

TEST(PtxParser, Immediates) {
  Module M =
      parseBody(".reg .b32 %r; .reg .f32 %f; .reg .f64 %d;\n"
                "mov.u32 %r, 0x7fffffff;\nmov.u32 %r, -1;\nmov.u32 %r, 017;\n"
                "mov.u32 %r, 0b101;\nmov.u32 %r, (1 << 3) | 1;\nmov.f32 %f, 0fBF800000;\n"
                "mov.f64 %d, 0d3FF0000000000000;\nmov.f64 %d, 2.5;\nmov.f32 %f, -0f3F800000;\n");
  auto I = instrs(M.functions[0]);
  ASSERT_EQ(I.size(), 9u);
  EXPECT_EQ(I[0]->operands[1].imm, 0x7fffffff);
  EXPECT_EQ(I[1]->operands[1].imm, -1);
  EXPECT_EQ(I[2]->operands[1].imm, 15);
  EXPECT_EQ(I[3]->operands[1].imm, 5);
  EXPECT_EQ(I[4]->operands[1].imm, 9);
  EXPECT_EQ(I[5]->operands[1].kind, OperandKind::FImm);
  EXPECT_EQ(I[5]->operands[1].fwidth, 32);
  EXPECT_EQ(I[5]->operands[1].fbits, 0xBF800000u);
  EXPECT_EQ(I[6]->operands[1].fwidth, 64);
  EXPECT_EQ(I[7]->operands[1].fbits, std::bit_cast<uint64_t>(2.5));
  EXPECT_EQ(I[8]->operands[1].fbits, 0xBF800000u);
}

TEST(PtxParser, GuardsPairsSinksAndNegation) {
  Module M = parseBody(".reg .pred %p<3>; .reg .b32 %r<4>;\n"
                       "setp.lt.and.s32 %p1|%p2, %r1, %r2, !%p0;\n"
                       "@!%p1 shfl.sync.down.b32 %r3|_, %r1, 1, 31, -1;\n"
                       "@%p2 bra L;\nL:\n ret;\n");
  auto I = instrs(M.functions[0]);
  ASSERT_EQ(I.size(), 4u);
  const Operand &Pair = I[0]->operands[0];
  ASSERT_EQ(Pair.kind, OperandKind::Pair);
  EXPECT_EQ(Pair.elems[1].kind, OperandKind::Reg);
  EXPECT_TRUE(I[0]->operands[3].negated);
  EXPECT_TRUE(I[1]->hasGuard);
  EXPECT_TRUE(I[1]->guardNegated);
  EXPECT_EQ(I[1]->operands[0].elems[1].kind, OperandKind::Sink);
  EXPECT_FALSE(I[2]->guardNegated);
  const Operand &Target = I[2]->operands[0];
  EXPECT_EQ(Target.symKind, SymbolKind::Label);
  const Function &F = M.functions[0];
  EXPECT_EQ(F.labels[Target.index].name, "L");
  EXPECT_EQ(F.body[F.labels[Target.index].stmt].kind, StmtKind::Label);
}

TEST(PtxParser, SpecialRegisters) {
  Module M = parseBody(".reg .b32 %r; .reg .b64 %rd;\n"
                       "mov.u32 %r, %tid.z;\nmov.u32 %r, %nctaid.x;\nmov.u32 %r, %laneid;\n"
                       "mov.u64 %rd, %globaltimer;\nmov.u32 %r, %envreg31;\nmov.u64 %rd, %pm7_64;\n"
                       "mov.u32 %r, %dynamic_smem_size;\n");
  auto I = instrs(M.functions[0]);
  ASSERT_EQ(I.size(), 7u);
  const SRegRef &Tid = I[0]->operands[1].sreg;
  EXPECT_EQ(Tid.reg, SReg::Tid);
  EXPECT_EQ(Tid.component, 2);
  EXPECT_EQ(I[1]->operands[1].sreg.reg, SReg::Nctaid);
  EXPECT_EQ(I[2]->operands[1].sreg.reg, SReg::Laneid);
  EXPECT_EQ(I[3]->operands[1].sreg.reg, SReg::Globaltimer);
  EXPECT_EQ(I[4]->operands[1].sreg.reg, SReg::Envreg);
  EXPECT_EQ(I[4]->operands[1].sreg.index, 31);
  EXPECT_EQ(I[5]->operands[1].sreg.reg, SReg::Pm64);
  EXPECT_EQ(I[5]->operands[1].sreg.index, 7);
  EXPECT_EQ(I[6]->operands[1].sreg.reg, SReg::DynamicSmemSize);
}

// WARP_SZ is a predefined identifier (cuda_fp16.hpp's __shfl_*_sync for __half use it).
TEST(PtxParser, WarpSizeConstant) {
  Module M = parseBody(".reg .b32 %r;\nmov.u32 %r, WARP_SZ;\nshl.b32 %r, %r, WARP_SZ;\n");
  auto I = instrs(M.functions[0]);
  ASSERT_EQ(I.size(), 2u);
  EXPECT_EQ(I[0]->operands[1].kind, OperandKind::Imm);
  EXPECT_EQ(I[0]->operands[1].imm, 32);
  EXPECT_EQ(I[1]->operands[2].kind, OperandKind::Imm);
  EXPECT_EQ(I[1]->operands[2].imm, 32);
}

TEST(PtxParser, NestedBlocksShadowAndRename) {
  Module M =
      parseBody(".reg .b32 t, %r<3>;\n"
                "{\n .reg .b32 t;\n .reg .pred p;\n mov.u32 t, 1;\n"
                "  {\n  .reg .b32 t;\n  mov.u32 t, 2;\n  @p bra L;\n  mov.u32 %r1, t;\n L:\n }\n"
                " mov.u32 %r2, t;\n}\n"
                "mov.u32 %r0, t;\n"
                "{\n .reg .b32 %r<2>;\n mov.u32 %r1, 5;\n}\n"
                "mov.u32 %r1, 6;\n"
                "L:\n ret;\n");
  const Function &F = M.functions[0];
  auto I = instrs(F);
  ASSERT_EQ(I.size(), 9u);
  // Three distinct registers called t, with distinct printed names.
  uint32_t T0 = I[5]->operands[1].reg; // outer t
  uint32_t T1 = I[0]->operands[0].reg; // first block
  uint32_t T2 = I[1]->operands[0].reg; // inner block
  EXPECT_NE(T0, T1);
  EXPECT_NE(T1, T2);
  EXPECT_NE(T0, T2);
  EXPECT_EQ(I[3]->operands[1].reg, T2); // mov %r1, t inside the inner block
  EXPECT_EQ(I[4]->operands[1].reg, T1); // back in the first block
  EXPECT_EQ(F.regName(T0), "t");
  EXPECT_NE(F.regName(T1), "t");
  EXPECT_NE(F.regName(T2), F.regName(T1));
  // The inner %r<2> shadows the outer range.
  uint32_t Inner = I[6]->operands[0].reg;
  uint32_t Outer = I[7]->operands[0].reg;
  EXPECT_NE(Inner, Outer);
  EXPECT_EQ(F.regName(Outer), "%r1");
  EXPECT_NE(F.regName(Inner), "%r1");
  // Both labels L exist, the branch goes to the inner one.
  ASSERT_EQ(F.labels.size(), 2u);
  const Operand &Target = I[2]->operands[0];
  EXPECT_EQ(Target.symKind, SymbolKind::Label);
  EXPECT_EQ(Target.index, 0u);
  EXPECT_NE(F.labels[0].name, F.labels[1].name);
}

TEST(PtxParser, CallSequences) {
  Module M = parseOk(std::string(kHeader) +
                     ".func (.param .b32 r) f (.param .b32 a, .param .b32 b) { ret; }\n"
                     ".func g () { ret; }\n"
                     ".entry k () {\n .reg .b32 %r<3>; .reg .b64 %rd1;\n"
                     " { .param .b32 param0; .param .b32 param1; .param .b32 retval0;\n"
                     "   st.param.b32 [param0+0], %r1;\n   st.param.b32 [param1+0], %r2;\n"
                     "   call.uni (retval0), \n f, \n (\n param0, \n param1\n );\n"
                     "   ld.param.b32 %r0, [retval0+0];\n }\n"
                     " { .param .b32 param0; .param .b32 retval0;\n"
                     "   prototype_1 : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
                     "   mov.u64 %rd1, f;\n"
                     "   call (retval0), %rd1, (param0), prototype_1;\n }\n"
                     " call.uni g;\n"
                     " ret;\n}\n");
  const Function &K = *M.findFunction("k");
  auto I = instrs(K);
  ASSERT_EQ(I.size(), 8u);
  const Instruction &Direct = *I[2];
  EXPECT_EQ(Direct.op, Op::Call);
  ASSERT_EQ(Direct.operands.size(), 3u);
  EXPECT_EQ(Direct.operands[0].kind, OperandKind::List);
  ASSERT_EQ(Direct.operands[0].elems.size(), 1u);
  EXPECT_EQ(Direct.operands[0].elems[0].symKind, SymbolKind::Local);
  EXPECT_EQ(Direct.operands[1].symKind, SymbolKind::Function);
  EXPECT_EQ(M.functions[Direct.operands[1].index].name, "f");
  EXPECT_EQ(Direct.operands[2].elems.size(), 2u);
  const Instruction &Indirect = *I[5];
  ASSERT_EQ(Indirect.operands.size(), 4u);
  EXPECT_EQ(Indirect.operands[1].kind, OperandKind::Reg);
  EXPECT_EQ(Indirect.operands[3].symKind, SymbolKind::Prototype);
  ASSERT_EQ(K.prototypes.size(), 1u);
  EXPECT_EQ(K.prototypes[0].params.size(), 1u);
  EXPECT_EQ(K.prototypes[0].returns.size(), 1u);
  // The two blocks' param0 are different locals with different names.
  ASSERT_EQ(K.locals.size(), 5u);
  EXPECT_NE(K.locals[0].name, K.locals[3].name);
  EXPECT_NE(I[0]->operands[0].elems[0].index, I[4]->operands.size());
  const Instruction &NoArgs = *I[6];
  EXPECT_TRUE(NoArgs.operands[0].elems.empty());
  EXPECT_TRUE(NoArgs.operands[2].elems.empty());
  EXPECT_EQ(M.functions[NoArgs.operands[1].index].name, "g");
}

TEST(PtxParser, RecursionAndForwardCalls) {
  Module M =
      parseOk(std::string(kHeader) + ".func (.param .b32 r) fib (.param .b32 n) {\n"
                                     " .param .b32 p; .param .b32 q;\n call.uni (q), fib, (p);\n"
                                     " call.uni (q), later, (p);\n ret;\n}\n"
                                     ".func (.param .b32 r) later (.param .b32 n) { ret; }\n");
  auto I = instrs(*M.findFunction("fib"));
  EXPECT_EQ(M.functions[I[0]->operands[1].index].name, "fib");
  EXPECT_EQ(M.functions[I[1]->operands[1].index].name, "later");
}

TEST(PtxParser, BranchTargets) {
  Module M = parseBody(".reg .b32 %r; .reg .pred %p;\n"
                       "A: add.u32 %r, %r, 1;\nB: add.u32 %r, %r, 2;\n"
                       "ts: .branchtargets A, B, C;\n@%p brx.idx %r, ts;\nC: ret;\n");
  const Function &F = M.functions[0];
  ASSERT_EQ(F.branchTargets.size(), 1u);
  EXPECT_EQ(F.branchTargets[0].labels.size(), 3u);
  EXPECT_EQ(F.labels[F.branchTargets[0].labels[2]].name, "C");
  auto I = instrs(F);
  EXPECT_EQ(I[2]->op, Op::BrxIdx);
  EXPECT_EQ(I[2]->operands[1].symKind, SymbolKind::BranchTargets);
  EXPECT_EQ(I[2]->status, Status::Lowered);
}

TEST(PtxParser, AddressForms) {
  Module M =
      parseOk(std::string(kHeader) + ".global .b32 g[4];\n"
                                     ".entry k (.param .u64 p) {\n .reg .b32 %r; .reg .b64 %rd;\n"
                                     " .local .align 4 .b8 depot[16];\n"
                                     " ld.param.u64 %rd, [p];\n ld.global.u32 %r, [g+8];\n"
                                     " ld.global.u32 %r, [%rd+-4];\n ld.global.u32 %r, [%rd-4];\n"
                                     " st.local.u32 [depot+4], %r;\n ld.u32 %r, [0x1000];\n"
                                     " mov.u64 %rd, g+4;\n ret;\n}\n");
  auto I = instrs(M.functions[0]);
  ASSERT_EQ(I.size(), 8u);
  EXPECT_EQ(I[0]->operands[1].elems[0].symKind, SymbolKind::Param);
  const Operand &G = I[1]->operands[1];
  EXPECT_EQ(G.elems[0].symKind, SymbolKind::Global);
  EXPECT_EQ(G.imm, 8);
  EXPECT_EQ(I[2]->operands[1].imm, -4);
  EXPECT_EQ(I[3]->operands[1].imm, -4);
  EXPECT_EQ(I[4]->operands[0].elems[0].symKind, SymbolKind::Local);
  EXPECT_TRUE(I[5]->operands[1].elems.empty());
  EXPECT_EQ(I[5]->operands[1].imm, 0x1000);
  EXPECT_EQ(I[5]->space(), Space::None);
  EXPECT_EQ(I[6]->operands[1].kind, OperandKind::Symbol);
  EXPECT_EQ(I[6]->operands[1].imm, 4);
}

TEST(PtxParser, TextureOperands) {
  Module M = parseBody(".reg .f32 %f<6>; .reg .b64 %rd;\n"
                       "tex.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [%rd, {%f4, %f5}];\n");
  auto I = instrs(M.functions[0]);
  const Operand &A = I[0]->operands[1];
  ASSERT_EQ(A.kind, OperandKind::TexAddress);
  ASSERT_EQ(A.elems.size(), 2u);
  EXPECT_EQ(A.elems[1].kind, OperandKind::Vector);
  EXPECT_EQ(I[0]->status, Status::Supported);
}

TEST(PtxParser, DebugLocations) {
  Module M = parseOk(std::string(kHeader) +
                     ".file 1 \"k.cu\"\n.entry k () {\n"
                     ".reg .b32 %r;\n.loc 1 10 3\nmov.u32 %r, 1;\nadd.u32 %r, %r, 1;\n"
                     ".loc 1 12 5, function_name $L__info_string0, inlined_at 1 20 7\n"
                     "mov.u32 %r, 2;\n ret;\n}\n");
  auto I = instrs(M.functions[0]);
  ASSERT_EQ(I.size(), 4u);
  EXPECT_EQ(I[0]->dbg.file, 1u);
  EXPECT_EQ(I[0]->dbg.line, 10u);
  EXPECT_EQ(I[0]->dbg.col, 3u);
  EXPECT_EQ(I[1]->dbg.line, 10u);
  EXPECT_EQ(I[2]->dbg.line, 12u);
  EXPECT_EQ(I[2]->dbg.inlinedAtLine, 20u);
  EXPECT_EQ(I[2]->dbg.inlinedAtCol, 7u);
  // PTX source positions too.
  EXPECT_EQ(I[0]->loc.line, 8u);
  EXPECT_EQ(I[0]->loc.col, 1u);
}

TEST(PtxParser, PragmasAndSections) {
  Module M =
      parseOk(std::string(kHeader) + ".entry k () {\n.pragma \"nounroll\";\nret;\n}\n"
                                     ".section .debug_info\n{\n.b32 1199\n.b8 2, 0 // {\n"
                                     ".b32 .debug_abbrev\n$L__info_string0:\n.b8 0x66 /* } */\n}\n"
                                     ".section .debug_loc { }\n");
  const Function &F = M.functions[0];
  ASSERT_EQ(F.body.size(), 2u);
  EXPECT_EQ(F.body[0].kind, StmtKind::Pragma);
  EXPECT_EQ(F.body[0].pragma, "nounroll");
  ASSERT_EQ(M.sections.size(), 2u);
  EXPECT_EQ(M.sections[0], ".debug_info");
}

TEST(PtxParser, StatusFromTable) {
  Module M =
      parseBody(".reg .b32 %r<3>; .reg .b64 %rd<3>; .reg .f32 %f<3>;\n"
                "add.s32 %r1, %r2, 3;\nadd.s64 %rd1, %rd2, %rd2;\ndiv.full.f32 %f1, %f1, %f2;\n"
                "prefetch.global.L2 [%rd1];\n");
  auto I = instrs(M.functions[0]);
  EXPECT_EQ(I[0]->status, Status::Supported);
  EXPECT_EQ(I[1]->status, Status::Lowered);
  EXPECT_EQ(I[2]->status, Status::Lowered);
  EXPECT_EQ(I[3]->status, Status::Lowered);
}

TEST(PtxParser, LaterNeedsOption) {
  std::string Text = std::string(kHeader) +
                     ".entry k () {\n .reg .f32 %f<6>; .reg .b64 %rd;\n"
                     " tex.level.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [%rd, {%f4, %f5}], %f4;\n"
                     " ret;\n}\n";
  EXPECT_FALSE(parseModule(Text));
  ParseOptions Opts;
  Opts.allowLater = true;
  Module M = parseOk(Text, Opts);
  EXPECT_EQ(instrs(M.functions[0])[0]->status, Status::Later);
}

TEST(PtxParser, ValidationCanBeOff) {
  ParseOptions Opts;
  Opts.validate = false;
  Module M = parseOk(std::string(kHeader) +
                         ".entry k () {\n .reg .b32 %r<4>;\n mma.sync.aligned %r1, %r2;\n"
                         " add.s32 %r1;\n ret;\n}\n",
                     Opts);
  auto I = instrs(M.functions[0]);
  ASSERT_EQ(I.size(), 3u);
  EXPECT_EQ(I[0]->op, Op::Mma);
}

TEST(PtxParser, RoundTripIsStable) {
  std::string Text = std::string(kHeader) +
                     ".global .align 4 .b32 g[2] = {1, -1};\n"
                     ".func (.param .b32 r) f (.param .b32 a) { .reg .b32 %r; ld.param.b32 %r, [a];"
                     " st.param.b32 [r], %r; ret; }\n"
                     ".entry k (.param .u64 p) .maxntid 64, 1, 1 {\n"
                     " .reg .b32 %r<3>; .reg .pred %p;\n"
                     " { .reg .b32 %r<2>; mov.u32 %r1, 1; }\n"
                     " { .param .b32 a; .param .b32 r; call.uni (r), f, (a); }\n"
                     " setp.eq.s32 %p, %r1, 0; @!%p bra X; X: ret;\n}\n";
  Module M = parseOk(Text);
  std::string Once = toString(M);
  Module M2 = parseOk(Once);
  EXPECT_EQ(toString(M2), Once);
}

TEST(PtxParser, ModuleMovesKeepNames) {
  Module M = parseOk(std::string(kHeader) + ".global .u32 x;\n.entry k () { ret; }\n");
  Module Moved = std::move(M);
  Module Again;
  Again = std::move(Moved);
  EXPECT_EQ(Again.globals[0].name, "x");
  EXPECT_EQ(Again.functions[0].name, "k");
}

} // namespace

namespace {

/// One instruction per entry, each parsed alone in a kernel with registers of
/// every kind declared. These are forms nvcc, clang and the CUDA headers emit.
const char *kCommonForms[] = {
    "add.s32 %r1, %r2, -1;",
    "add.u64 %rd1, %SPL, 0;",
    "add.rn.ftz.f32 %f1, %f2, 0f3F800000;",
    "add.f64 %fd1, %fd2, %fd3;",
    "add.f16x2 %r1, %r2, %r3;",
    "add.sat.s32 %r1, %r2, %r3;",
    "sub.s64 %rd1, %rd2, %rd3;",
    "mul.lo.s32 %r1, %r2, 3;",
    "mul.hi.u64 %rd1, %rd2, %rd3;",
    "mul.wide.s32 %rd1, %r1, 4;",
    "mul.rn.f64 %fd1, %fd2, %fd3;",
    "mad.lo.s32 %r1, %r2, %r3, %r4;",
    "mad.wide.u32 %rd1, %r1, %r2, %rd2;",
    "mad.rn.f32 %f1, %f2, %f3, %f4;",
    "mul24.lo.s32 %r1, %r2, %r3;",
    "mad24.hi.u32 %r1, %r2, %r3, %r4;",
    "sad.u32 %r1, %r2, %r3, %r4;",
    "div.s32 %r1, %r2, %r3;",
    "div.u64 %rd1, %rd2, %rd3;",
    "div.rn.f32 %f1, %f2, %f3;",
    "div.full.f32 %f1, %f2, %f3;",
    "div.approx.ftz.f32 %f1, %f2, %f3;",
    "div.rn.f64 %fd1, %fd2, %fd3;",
    "rem.s32 %r1, %r2, %r3;",
    "rem.u64 %rd1, %rd2, %rd3;",
    "abs.s32 %r1, %r2;",
    "abs.f32 %f1, %f2;",
    "abs.ftz.f32 %f1, %f2;",
    "abs.bf16x2 %r1, %r2;",
    "neg.s32 %r1, %r2;",
    "neg.f64 %fd1, %fd2;",
    "min.s32 %r1, %r2, %r3;",
    "min.u64 %rd1, %rd2, %rd3;",
    "min.ftz.NaN.f32 %f1, %f2, %f3;",
    "max.f64 %fd1, %fd2, %fd3;",
    "max.xorsign.abs.f16 %rs1, %rs2, %rs3;",
    "min.relu.s32 %r1, %r2, %r3;",
    "popc.b32 %r1, %r2;",
    "popc.b64 %r1, %rd1;",
    "clz.b32 %r1, %r2;",
    "clz.b64 %r1, %rd1;",
    "bfind.u32 %r1, %r2;",
    "bfind.shiftamt.s64 %r1, %rd1;",
    "fns.b32 %r1, %r2, %r3, 1;",
    "brev.b32 %r1, %r2;",
    "brev.b64 %rd1, %rd2;",
    "bfe.u32 %r1, %r2, 8, 4;",
    "bfe.s64 %rd1, %rd2, %r1, %r2;",
    "bfi.b32 %r1, %r2, %r3, 8, 4;",
    "bmsk.clamp.b32 %r1, %r2, %r3;",
    "szext.wrap.s32 %r1, %r2, %r3;",
    "dp4a.u32.u32 %r1, %r2, %r3, %r4;",
    "dp2a.lo.s32.s32 %r1, %r2, %r3, %r4;",
    "add.cc.u32 %r1, %r2, %r3;",
    "addc.cc.u32 %r1, %r2, %r3;",
    "sub.cc.u32 %r1, %r2, %r3;",
    "subc.u32 %r1, %r2, %r3;",
    "mad.lo.cc.u32 %r1, %r2, %r3, %r4;",
    "madc.hi.cc.u32 %r1, %r2, %r3, %r4;",
    "and.b32 %r1, %r2, 255;",
    "and.pred %p1, %p2, %p3;",
    "or.b64 %rd1, %rd2, %rd3;",
    "xor.pred %p1, %p2, %p3;",
    "not.b32 %r1, %r2;",
    "not.pred %p1, %p2;",
    "cnot.b32 %r1, %r2;",
    "lop3.b32 %r1, %r2, %r3, %r4, 0x96;",
    "shl.b32 %r1, %r2, 3;",
    "shl.b64 %rd1, %rd2, %r1;",
    "shr.u32 %r1, %r2, %r3;",
    "shr.s64 %rd1, %rd2, 63;",
    "shf.l.wrap.b32 %r1, %r2, %r3, %r4;",
    "shf.r.clamp.b32 %r1, %r2, %r3, 7;",
    "prmt.b32 %r1, %r2, %r3, 0x3210;",
    "prmt.b32.rc16 %r1, %r2, %r3, %r4;",
    "fma.rn.f32 %f1, %f2, %f3, %f4;",
    "fma.rn.ftz.sat.f32 %f1, %f2, %f3, %f4;",
    "fma.rz.f64 %fd1, %fd2, %fd3, %fd4;",
    "fma.rn.f16x2 %r1, %r2, %r3, %r4;",
    "fma.rn.relu.bf16 %rs1, %rs2, %rs3, %rs1;",
    "rcp.rn.f32 %f1, %f2;",
    "rcp.approx.ftz.f32 %f1, %f2;",
    "rcp.rn.f64 %fd1, %fd2;",
    "rcp.approx.ftz.f64 %fd1, %fd2;",
    "sqrt.rn.f32 %f1, %f2;",
    "sqrt.approx.ftz.f32 %f1, %f2;",
    "sqrt.rn.f64 %fd1, %fd2;",
    "rsqrt.approx.f32 %f1, %f2;",
    "rsqrt.approx.ftz.f64 %fd1, %fd2;",
    "sin.approx.ftz.f32 %f1, %f2;",
    "cos.approx.f32 %f1, %f2;",
    "lg2.approx.ftz.f32 %f1, %f2;",
    "ex2.approx.f32 %f1, %f2;",
    "ex2.approx.f16x2 %r1, %r2;",
    "tanh.approx.f32 %f1, %f2;",
    "copysign.f32 %f1, %f2, %f3;",
    "copysign.f64 %fd1, %fd2, %fd3;",
    "testp.infinite.f64 %p1, %fd1;",
    "testp.notanumber.f32 %p1, %f1;",
    "setp.ne.s32 %p1, %r1, 0;",
    "setp.lt.u64 %p1, %rd1, %rd2;",
    "setp.gtu.ftz.f32 %p1, %f1, %f2;",
    "setp.num.f64 %p1, %fd1, %fd1;",
    "setp.eq.or.b32 %p1, %r1, %r2, %p2;",
    "setp.lt.f16x2 %p1|%p2, %r1, %r2;",
    "set.eq.u32.s32 %r1, %r2, %r3;",
    "set.lt.and.f32.f32 %f1, %f2, %f3, !%p1;",
    "selp.b32 %r1, 1, 0, %p1;",
    "selp.f64 %fd1, %fd2, %fd3, %p1;",
    "slct.s32.f32 %r1, %r2, %r3, %f1;",
    "cvt.u32.u64 %r1, %rd1;",
    "cvt.s64.s32 %rd1, %r1;",
    "cvt.rn.f32.s32 %f1, %r1;",
    "cvt.rzi.s32.f32 %r1, %f1;",
    "cvt.rni.f32.f32 %f1, %f2;",
    "cvt.rmi.ftz.f32.f32 %f1, %f2;",
    "cvt.rn.f32.f64 %f1, %fd1;",
    "cvt.f64.f32 %fd1, %f1;",
    "cvt.rn.f16.f32 %rs1, %f1;",
    "cvt.f32.f16 %f1, %rs1;",
    "cvt.rn.bf16.f32 %rs1, %f1;",
    "cvt.rn.f16x2.f32 %r1, %f1, %f2;",
    "cvt.rn.relu.bf16x2.f32 %r1, %f1, %f2;",
    "cvt.rna.tf32.f32 %r1, %f1;",
    "cvt.sat.u8.s32 %rs1, %r1;",
    "cvt.u16.u32 %rs1, %r1;",
    "cvt.s8.s32 %r1, %r2;",
    "cvt.rzi.u64.f64 %rd1, %fd1;",
    "cvt.rn.f64.u64 %fd1, %rd1;",
    "cvt.pack.sat.u8.s32.b32 %r1, %r2, %r3, %r4;",
    "cvt.pack.sat.s16.s32 %r1, %r2, %r3;",
    "cvta.to.global.u64 %rd1, %rd2;",
    "cvta.shared.u64 %rd1, %rd2;",
    "cvta.local.u64 %SP, %SPL;",
    "cvta.to.shared.u32 %r1, %rd1;",
    "isspacep.global %p1, %rd1;",
    "mov.u32 %r1, %tid.x;",
    "mov.b32 %r1, %envreg0;",
    "mov.u64 %rd1, %clock64;",
    "mov.pred %p1, 1;",
    "mov.b32 %r1, {%rs1, %rs2};",
    "mov.b32 {%rs1, %rs2}, %r1;",
    "mov.b64 {%r1, %r2}, %fd1;",
    "mov.b64 %rd1, {%r1, %r2};",
    "mov.b16 %rs1, 0x3C00;",
    "mov.f32 %f1, 0f7FC00000;",
    "mov.u64 %rd1, sh;",
    "mov.u64 %rd1, sh+8;",
    "ld.param.u64 %rd1, [p0];",
    "ld.param.v2.u32 {%r1, %r2}, [p0+8];",
    "ld.global.f32 %f1, [%rd1+4];",
    "ld.global.nc.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];",
    "ld.global.nc.L1::no_allocate.f32 %f1, [%rd1];",
    "ld.global.L2::cache_hint.u32 %r1, [%rd1], %rd2;",
    "ld.shared.u32 %r1, [sh+4];",
    "ld.shared::cta.b32 %r1, [%r2];",
    "ld.local.v2.f64 {%fd1, %fd2}, [%rd1];",
    "ld.const.u8 %rs1, [%rd1];",
    "ld.u32 %r1, [%rd1];",
    "ld.volatile.global.u32 %r1, [%rd1];",
    "ld.acquire.gpu.global.u32 %r1, [%rd1];",
    "ld.relaxed.sys.global.u64 %rd1, [%rd2];",
    "ldu.global.f32 %f1, [%rd1];",
    "st.global.v2.f32 [%rd1], {%f1, %f2};",
    "st.shared.u32 [%r1+-4], %r2;",
    "st.local.u8 [%rd1], %rs1;",
    "st.param.b32 [p0], %r1;",
    "st.release.gpu.global.u32 [%rd1], %r1;",
    "st.volatile.shared.u32 [sh], %r1;",
    "st.global.wt.u32 [%rd1], %r1;",
    "prefetch.global.L2 [%rd1];",
    "prefetch.global.L2::evict_last [%rd1];",
    "prefetchu.L1 [%rd1];",
    "applypriority.global.L2::evict_normal [%rd1], 128;",
    "discard.global.L2 [%rd1], 128;",
    "createpolicy.fractional.L2::evict_last.b64 %rd1, 0f3F800000;",
    "createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64 %rd1, 0f3F000000;",
    "atom.global.add.u32 %r1, [%rd1], 1;",
    "atom.shared.cas.b32 %r1, [%r2], %r3, %r4;",
    "atom.add.f32 %f1, [%rd1], %f2;",
    "atom.global.add.f64 %fd1, [%rd1], %fd2;",
    "atom.global.exch.b64 %rd1, [%rd2], %rd3;",
    "atom.global.inc.u32 %r1, [%rd1], 100;",
    "atom.global.max.s32 %r1, [%rd1], %r2;",
    "atom.sys.global.add.u32 %r1, [%rd1], 1;",
    "atom.release.gpu.global.add.u32 %r1, [%rd1], 1;",
    "atom.cta.shared.and.b32 %r1, [%r2], %r3;",
    "atom.global.add.noftz.f16 %rs1, [%rd1], %rs2;",
    "atom.global.add.noftz.bf16x2 %r1, [%rd1], %r2;",
    "red.global.add.u32 [%rd1], %r1;",
    "red.shared.add.u64 [%r1], %rd1;",
    "red.release.gpu.global.add.f32 [%rd1], %f1;",
    "bar.sync 0;",
    "bar.sync %r1, %r2;",
    "bar.arrive 1, 64;",
    "bar.red.popc.u32 %r1, 0, %p1;",
    "bar.red.and.pred %p1, 0, !%p2;",
    "barrier.sync 0;",
    "barrier.sync.aligned 0;",
    "barrier.arrive 1, 32;",
    "bar.warp.sync -1;",
    "membar.gl;",
    "membar.cta;",
    "membar.sys;",
    "fence.acq_rel.gpu;",
    "fence.sc.cta;",
    "fence.proxy.alias;",
    "fence.proxy.async.shared::cta;",
    "griddepcontrol.wait;",
    "vote.sync.ballot.b32 %r1, %p1, -1;",
    "vote.sync.any.pred %p1, !%p2, %r1;",
    "vote.ballot.b32 %r1, %p1;",
    "vote.uni.pred %p1, %p2;",
    "activemask.b32 %r1;",
    "shfl.sync.down.b32 %r1|%p1, %r2, 1, 31, -1;",
    "shfl.sync.idx.b32 %r1, %r2, 0, 31, -1;",
    "shfl.sync.up.b32 %r1, %r2, 1, 0, %r3;",
    "shfl.bfly.b32 %r1, %r2, 1, 31;",
    "match.any.sync.b32 %r1, %r2, -1;",
    "match.all.sync.b64 %r1|%p1, %rd1, -1;",
    "redux.sync.add.u32 %r1, %r2, -1;",
    "redux.sync.min.s32 %r1, %r2, -1;",
    "redux.sync.or.b32 %r1, %r2, %r3;",
    "elect.sync %r1|%p1, -1;",
    "bra L;",
    "bra.uni L;",
    "ret;",
    "ret.uni;",
    "exit;",
    "trap;",
    "brkpt;",
    "nanosleep.u32 100;",
    "nanosleep.u32 %r1;",
    "pmevent 1;",
    "pmevent.mask 0xff;",
    "stacksave.u64 %rd1;",
    "bmsk.clamp.b32 %r1, %r2, %r3;",
    "szext.wrap.s32 %r1, %r2, 8;",
    "elect.sync %r1|%p1, -1;",
    "elect.sync _|%p1, %r2;",
    "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];",
    "tex.1d.v4.s32.s32 {%r1, %r2, %r3, %r4}, [%rd1, {%r5}];",
    "tex.a2d.v4.u32.f32 {%r1, %r2, %r3, %r4}, [%rd1, {%r5, %f1, %f2, %f3}];",
    "tld4.g.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];",
    "suld.b.2d.b32.trap {%r1}, [%rd1, {%r2, %r3}];",
    "suld.b.a2d.v4.b8.zero {%rs1, %rs2, %rs3, %rs3}, [%rd1, {%r1, %r2, %r3, %r3}];",
    "sust.b.1d.v2.b32.clamp [%rd1, {%r1}], {%r2, %r3};",
    "cp.async.ca.shared.global [%r1], [%rd1], 4;",
    "cp.async.cg.shared.global.L2::128B [%r1], [%rd1], 16;",
    "cp.async.commit_group;",
    "cp.async.wait_group 0;",
    "cp.async.wait_all;",
    "cp.async.ca.shared.global [%r1], [%rd1], 16, %r2;",
    "cp.async.ca.shared.global [%r1], [%rd1], 8, %p1;",
    "cp.async.mbarrier.arrive.noinc.shared.b64 [%r1];",
    "mbarrier.init.shared.b64 [sh], 32;",
    "mbarrier.init.b64 [%rd1], %r1;",
    "mbarrier.arrive.shared.b64 %rd1, [%r1];",
    "mbarrier.arrive.release.cta.shared::cta.b64 _, [%r1], 2;",
    "mbarrier.arrive.expect_tx.shared.b64 %rd1, [%r1], 128;",
    "mbarrier.arrive_drop.shared.b64 %rd1, [%r1];",
    "mbarrier.expect_tx.relaxed.cta.shared.b64 [%r1], 64;",
    "mbarrier.complete_tx.shared.b64 [%r1], 64;",
    "mbarrier.test_wait.shared.b64 %p1, [%r1], %rd1;",
    "mbarrier.test_wait.parity.shared.b64 %p1, [%r1], %r2;",
    "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 %p1, [%r1], 1, 1000;",
    "mbarrier.pending_count.b64 %r1, %rd1;",
    "mapa.shared::cluster.u32 %r1, %r2, 0;",
    "getctarank.shared::cluster.u32 %r1, %r2;",
    "setmaxnreg.inc.sync.aligned.u32 240;",
    "mov.u32 %r1, %cluster_ctarank;",
    "mov.u32 %r1, %clusterid.x;",
};

TEST(PtxParser, AcceptsCommonInstructionForms) {
  const std::string Decls = ".reg .pred %p<4>; .reg .b16 %rs<4>; .reg .b32 %r<10>;"
                            " .reg .b64 %rd<10>, %SP, %SPL; .reg .f32 %f<10>; .reg .f64 %fd<10>;"
                            " .shared .align 4 .b32 sh[4];\n";
  for (const char *Form : kCommonForms) {
    std::string Text =
        std::string(kHeader) + ".entry k (.param .u64 p0)\n{\n" + Decls + Form + "\nL: ret;\n}\n";
    auto M = parseModule(Text);
    EXPECT_TRUE(static_cast<bool>(M)) << Form << "\n  " << (M ? "" : M.error().str());
    if (!M)
      continue;
    auto I = instrs(M->functions[0]);
    ASSERT_EQ(I.size(), 2u) << Form;
    EXPECT_NE(I[0]->status, Status::Rejected) << Form;
    EXPECT_NE(I[0]->status, Status::Later) << Form;
  }
}

} // namespace

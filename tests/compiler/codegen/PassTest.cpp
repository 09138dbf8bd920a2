//===- PassTest.cpp - Constant folding and register allocation -----------===//

#include "Harness.h"
#include "warpforge/codegen/Passes.h"

using namespace wf;
using namespace wf::cgtest;
using isa::Opcode;

namespace {

const char *kLoopPtx = R"(
.version 7.0
.target sm_75
.address_size 64
.visible .entry loop(.param .u64 out, .param .u32 n)
{
  .reg .pred %p<4>;
  .reg .b32 %r<40>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, 0;
  mov.u32 %r4, 0;
  add.s32 %r10, %r2, 1;
  add.s32 %r11, %r2, 2;
  add.s32 %r12, %r2, 3;
  add.s32 %r13, %r2, 4;
  add.s32 %r14, %r2, 5;
  add.s32 %r15, %r2, 6;
  add.s32 %r16, %r2, 7;
  add.s32 %r17, %r2, 8;
L1:
  setp.ge.u32 %p1, %r4, %r1;
  @%p1 bra DONE;
  and.b32 %r5, %r4, 1;
  setp.eq.s32 %p2, %r5, 0;
  @%p2 bra NEXT;          // continue for even i
  setp.gt.u32 %p3, %r4, %r2;
  @%p3 bra DONE;          // break when i > tid
  add.s32 %r3, %r3, %r4;
NEXT:
  add.s32 %r4, %r4, 1;
  bra L1;
DONE:
  add.s32 %r3, %r3, %r10;
  add.s32 %r3, %r3, %r11;
  add.s32 %r3, %r3, %r12;
  add.s32 %r3, %r3, %r13;
  add.s32 %r3, %r3, %r14;
  add.s32 %r3, %r3, %r15;
  add.s32 %r3, %r3, %r16;
  add.s32 %r3, %r3, %r17;
  mul.wide.u32 %rd2, %r2, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  ret;
}
)";

int expectLoop(int Tid, int N) {
  int S = 0;
  for (int I = 0; I < N; ++I) {
    if ((I & 1) == 0)
      continue;
    if (I > Tid)
      break;
    S += I;
  }
  for (int K = 1; K <= 8; ++K)
    S += Tid + K;
  return S;
}

void runLoop(codegen::CodegenOptions Opts) {
  Runner R;
  ASSERT_TRUE(R.compile(kLoopPtx, Opts));
  uint64_t Out = R.alloc(64 * 4);
  auto Res = R.launch("loop", {1, 1, 1}, {64, 1, 1}, Params().u64(Out).u32(40));
  ASSERT_FALSE(Res.fault) << faultText(Res);
  auto V = R.download<int>(Out, 64);
  for (int T = 0; T < 64; ++T)
    EXPECT_EQ(V[T], expectLoop(T, 40)) << T;
}

TEST(EndToEnd, DivergentLoopBreakContinue) { runLoop({}); }

TEST(EndToEnd, DivergentLoopUnoptimized) {
  codegen::CodegenOptions O;
  O.optLevel = 0;
  runLoop(O);
}

TEST(RegAlloc, SpillsUnderTinyBudget) {
  codegen::CodegenOptions O;
  O.maxRegs = 8;
  Runner R;
  ASSERT_TRUE(R.compile(kLoopPtx, O));
  EXPECT_LE(R.Mod.findKernel("loop")->regsPerThread, 8u);
  EXPECT_GT(R.Mod.findKernel("loop")->localBytes, 0u); // spill slots in the frame
  runLoop(O);
}

TEST(Optimize, ImmediateForms) {
  ptx::ParseOptions PO;
  auto M = ptx::parseModule(kLoopPtx, PO);
  ASSERT_TRUE(bool(M));
  codegen::CodegenOptions Opts;
  auto W = codegen::lowerModule(*M, Opts);
  ASSERT_TRUE(bool(W));
  codegen::Function F = W->functions[0];
  codegen::computeCFG(F);
  codegen::optimize(F);
  unsigned Iadd = 0, IaddI = 0;
  for (auto &B : F.blocks)
    for (auto &I : B.insts) {
      Iadd += I.op == Opcode::IADD && !I.ops[3].isReg();
      IaddI += I.op == Opcode::IADD_I;
    }
  EXPECT_GE(IaddI, 9u);
  EXPECT_TRUE(codegen::verify(F).empty());
  (void)Iadd;
}

TEST(Errors, UnsupportedNamesInstructionAndLocation) {
  const char *Ptx = R"(
.version 7.0
.target sm_75
.address_size 64
.visible .entry k(.param .u64 p)
{
  .reg .b32 %r<4>;
  ld.param.u32 %r1, [p];
  lop3.b32 %r2, %r1, %r1, %r1, %r1;
  ret;
}
)";
  // A truth table in a register parses, but the native LOP3 takes it as an immediate only.
  auto M = ptx::parseModule(Ptx, {});
  ASSERT_TRUE(bool(M));
  auto W = codegen::compilePtx(*M, {});
  ASSERT_FALSE(bool(W));
  EXPECT_EQ(W.error().loc.line, 9u);
  EXPECT_NE(W.error().str().find("lop3.b32"), std::string::npos) << W.error().str();
}

} // namespace

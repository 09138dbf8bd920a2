//===- IRTest.cpp - WIR verifier, liveness, post-dominators ---------------===//

#include "warpforge/codegen/Passes.h"
#include "warpforge/codegen/WIR.h"

#include <gtest/gtest.h>

#include <string_view>
#include <utility>

using namespace wf;
using namespace wf::codegen;
using isa::Opcode;

namespace {

Inst mk(Opcode Op, std::initializer_list<Opnd> Ops) {
  Inst I;
  I.op = Op;
  unsigned K = 0;
  for (const Opnd &O : Ops)
    I.ops[K++] = O;
  return I;
}

/// entry: p = r0 < 5; @p bra then; else: r1 = 1; bra join; then: r1 = 2; join: ret-block
Function diamond() {
  Function F;
  F.name = "diamond";
  F.isKernel = true;
  uint32_t R0 = F.newVReg(RegClass::R32), R1 = F.newVReg(RegClass::R32);
  uint32_t P = F.newVReg(RegClass::Pred);
  for (const char *N : {"entry", "else", "then", "join"})
    F.addBlock(N);
  F.blocks[0].insts.push_back(mk(Opcode::S2R, {Opnd::vreg(R0), Opnd::imm32(0)}));
  F.blocks[0].insts.push_back(mk(Opcode::ISETP_I, {Opnd::pred(P), Opnd::vreg(R0), Opnd::imm32(5)}));
  Inst Br = mk(Opcode::BRA, {Opnd::block(2)});
  Br.guard = Opnd::pred(P);
  F.blocks[0].insts.push_back(Br);
  F.blocks[1].insts.push_back(mk(Opcode::MOV32I, {Opnd::vreg(R1), Opnd::imm32(1)}));
  F.blocks[1].insts.push_back(mk(Opcode::BRA, {Opnd::block(3)}));
  F.blocks[2].insts.push_back(mk(Opcode::MOV32I, {Opnd::vreg(R1), Opnd::imm32(2)}));
  Opnd A = Opnd::phys(isa::kZeroReg);
  F.blocks[3].insts.push_back(mk(Opcode::STS, {A, Opnd::vreg(R1)}));
  F.blocks[3].insts.push_back(mk(Opcode::EXIT, {}));
  F.blocks[3].insts.back().mods[0] = 0;
  F.blocks[3].insts[0].mods[0] = uint32_t(isa::MemSize::B32);
  computeCFG(F);
  return F;
}

TEST(WIR, VerifierAcceptsWellFormed) {
  Function F = diamond();
  EXPECT_TRUE(verify(F).empty()) << verify(F).front();
}

TEST(WIR, VerifierRejectsWrongClass) {
  Function F = diamond();
  uint32_t Pair = F.newVReg(RegClass::R64);
  F.blocks[1].insts[0].ops[0] = Opnd::vreg(Pair); // MOV32I into a whole pair
  auto E = verify(F);
  ASSERT_FALSE(E.empty());
  EXPECT_NE(E.front().find("needs 1 words"), std::string::npos) << E.front();
}

TEST(WIR, VerifierRejectsPredicateAsRegister) {
  Function F = diamond();
  F.blocks[0].insts[1].ops[1] = Opnd::pred(2); // ISETP_I ra = a predicate
  EXPECT_FALSE(verify(F).empty());
}

TEST(WIR, VerifierRejectsMissingBlock) {
  Function F = diamond();
  F.blocks[1].insts[1].ops[0] = Opnd::block(42);
  EXPECT_FALSE(verify(F).empty());
}

/// Inst of opcode Op with modifier values by name (isa.toml's modifier names).
Inst withMods(Opcode Op, std::initializer_list<std::pair<std::string_view, uint32_t>> Mods) {
  Inst I;
  I.op = Op;
  for (auto [Name, Value] : Mods) {
    unsigned K = 0;
    while (K < I.info().numMods && I.info().mods[K].name != Name)
      ++K;
    EXPECT_LT(K, I.info().numMods) << "no modifier " << Name;
    if (K < I.info().numMods)
      I.mods[K] = Value;
  }
  return I;
}

TEST(WIR, OperandWordsFollowTheGeneratedWidths) {
  // LDG rd, [ra:R64+imm]: rd's registers follow the access size.
  Inst Ld = withMods(Opcode::LDG, {{"size", uint32_t(isa::MemSize::B128)}});
  EXPECT_EQ(operandWords(Ld, 0), 4u);
  EXPECT_EQ(operandWords(Ld, 1), 2u);
  Ld = withMods(Opcode::LDG, {{"size", uint32_t(isa::MemSize::U8)}});
  EXPECT_EQ(operandWords(Ld, 0), 1u);
  // STS [ra:R+imm], rd: the stored value is the second operand.
  Inst St = withMods(Opcode::STS, {{"size", uint32_t(isa::MemSize::B64)}});
  EXPECT_EQ(operandWords(St, 0), 1u);
  EXPECT_EQ(operandWords(St, 1), 2u);
  // ATOM: the value width follows the type, the address width the space.
  Inst At = withMods(Opcode::ATOM, {{"ty", uint32_t(isa::AtomType::U64)},
                                    {"space", uint32_t(isa::AtomSpace::SHARED)}});
  EXPECT_EQ(operandWords(At, 0), 2u);
  EXPECT_EQ(operandWords(At, 1), 1u);
  At = withMods(Opcode::ATOM, {{"ty", uint32_t(isa::AtomType::F32)},
                               {"space", uint32_t(isa::AtomSpace::GLOBAL)}});
  EXPECT_EQ(operandWords(At, 0), 1u);
  EXPECT_EQ(operandWords(At, 1), 2u);
  // CVTA.TOGEN widens a 32-bit window offset to a 64-bit generic address.
  Inst Cv = withMods(Opcode::CVTA, {{"dir", uint32_t(isa::CvtaDir::TOGEN)}});
  EXPECT_EQ(operandWords(Cv, 0), 2u);
  EXPECT_EQ(operandWords(Cv, 1), 1u);
  // S2R: the special register's width; none for a special register that does not exist.
  Inst Sr = mk(Opcode::S2R, {Opnd::vreg(0), Opnd::imm32(int32_t(isa::SReg::CLOCK64))});
  EXPECT_EQ(operandWords(Sr, 0), 2u);
  Sr.ops[1] = Opnd::imm32(int32_t(isa::SReg::TID_X));
  EXPECT_EQ(operandWords(Sr, 0), 1u);
  Sr.ops[1] = Opnd::imm32(int32_t(isa::kNumSRegs));
  EXPECT_EQ(operandWords(Sr, 0), 0u);
  // An immediate names no register.
  EXPECT_EQ(operandWords(mk(Opcode::MOV32I, {Opnd::vreg(0), Opnd::imm32(7)}), 1), 0u);
}

TEST(WIR, SideEffectsFollowTheGeneratedAccessClass) {
  EXPECT_FALSE(hasSideEffects(withMods(Opcode::LDG, {})));
  EXPECT_FALSE(hasSideEffects(withMods(Opcode::LDS, {})));
  EXPECT_TRUE(hasSideEffects(withMods(Opcode::STG, {})));
  EXPECT_TRUE(hasSideEffects(withMods(Opcode::STL, {})));
  EXPECT_TRUE(hasSideEffects(withMods(Opcode::ATOM, {})));
  EXPECT_FALSE(hasSideEffects(withMods(Opcode::IADD, {})));
}

TEST(Analysis, Liveness) {
  Function F = diamond();
  Liveness L = computeLiveness(F);
  // r1 (vreg 1) is live into the join block and out of both arms, not into the entry.
  EXPECT_TRUE(L.liveIn[3][1]);
  EXPECT_TRUE(L.liveOut[1][1]);
  EXPECT_TRUE(L.liveOut[2][1]);
  EXPECT_FALSE(L.liveIn[0][1]);
  EXPECT_FALSE(L.liveIn[1][1]);
}

TEST(Analysis, PostDominators) {
  Function F = diamond();
  auto Ipdom = computePostDominators(F);
  EXPECT_EQ(Ipdom[0], 3u);
  EXPECT_EQ(Ipdom[1], 3u);
  EXPECT_EQ(Ipdom[2], 3u);
  EXPECT_EQ(Ipdom[3], kVirtualExit);
}

TEST(Reconvergence, BssyAtBranchBsyncAtIpdom) {
  Function F = diamond();
  ASSERT_TRUE(insertReconvergence(F));
  const auto &E = F.blocks[0].insts;
  ASSERT_GE(E.size(), 2u);
  EXPECT_EQ(E[E.size() - 2].op, Opcode::BSSY);
  EXPECT_EQ(E[E.size() - 2].ops[1].target, 3u);
  EXPECT_EQ(F.blocks[3].insts[0].op, Opcode::BSYNC);
  EXPECT_EQ(F.blocks[3].insts[1].op, Opcode::R2B);
  EXPECT_EQ(F.blocks[3].insts[0].ops[0].reg, E[E.size() - 2].ops[0].reg);
  EXPECT_TRUE(verify(F).empty());
}

TEST(Reconvergence, ExitingPathMeetsAtReturnBlock) {
  // entry: @p bra exitblk; body; bra ret ; exitblk: EXIT ; ret: EXIT
  Function F;
  F.name = "f";
  F.isKernel = true;
  uint32_t P = F.newVReg(RegClass::Pred);
  for (const char *N : {"entry", "body", "exit", "ret"})
    F.addBlock(N);
  F.blocks[0].insts.push_back(mk(Opcode::ISETP_I, {Opnd::pred(P), Opnd::rz(), Opnd::imm32(1)}));
  Inst Br = mk(Opcode::BRA, {Opnd::block(2)});
  Br.guard = Opnd::pred(P);
  F.blocks[0].insts.push_back(Br);
  F.blocks[1].insts.push_back(mk(Opcode::BRA, {Opnd::block(3)}));
  F.blocks[2].insts.push_back(mk(Opcode::EXIT, {}));
  F.blocks[3].insts.push_back(mk(Opcode::EXIT, {}));
  computeCFG(F);
  auto Ipdom = computePostDominators(F);
  EXPECT_EQ(Ipdom[0], 3u);
}

} // namespace

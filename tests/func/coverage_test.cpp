//===- coverage_test.cpp - Every opcode of the ISA has a semantic test ---------===//
//
// The list below names, for each opcode, the test that checks its results. A new opcode in
// isa/isa.toml fails this test until someone writes its test and adds it here.
//
//===----------------------------------------------------------------------===//

#include "warpforge/isa/isa.gen.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace wf::test {
namespace {

const std::map<std::string, std::string> kTestedBy = {
    {"NOP", "Alu.NopChangesNothing"},
    {"MOV", "Alu.MovAndMov32i"},
    {"MOV32I", "Alu.MovAndMov32i"},
    {"SEL", "Alu.Sel"},
    {"IADD", "Alu.IaddForms"},
    {"IADD_I", "Alu.IaddForms"},
    {"IMNMX", "Alu.MinMax"},
    {"IMNMX_I", "Alu.MinMax"},
    {"IABS", "Alu.Iabs"},
    {"SHL", "Alu.Shifts"},
    {"SHL_I", "Alu.Shifts"},
    {"SHR", "Alu.Shifts"},
    {"SHR_I", "Alu.Shifts"},
    {"SHF", "Alu.FunnelShift"},
    {"LOP3", "Alu.Lop3AndLopI"},
    {"LOP_I", "Alu.Lop3AndLopI"},
    {"POPC", "Alu.BitCounting"},
    {"CLZ", "Alu.BitCounting"},
    {"BREV", "Alu.BitCounting"},
    {"BFIND", "Alu.BitCounting"},
    {"BFE", "Alu.BitFields"},
    {"BFI", "Alu.BitFields"},
    {"PRMT", "Alu.Prmt"},
    {"ISETP", "Alu.IsetpAllComparesAndTypes"},
    {"ISETP_I", "Alu.IsetpAllComparesAndTypes"},
    {"PLOP3", "Alu.PredicateLogic"},
    {"P2R", "Alu.PredicateLogic"},
    {"LEAPC", "Alu.Leapc"},
    {"S2R", "SpecialRegisters.EveryRegister"},
    {"CVTA", "Memory.GenericWindowsReachEverySpace"},
    {"ISSPACEP", "Memory.GenericWindowsReachEverySpace"},
    {"IMUL", "Alu.IntegerMultiply"},
    {"IMUL_I", "Alu.IntegerMultiply"},
    {"IMULHI", "Alu.IntegerMultiply"},
    {"IMULWIDE", "Alu.IntegerMultiply"},
    {"IMAD", "Alu.IntegerMultiply"},
    {"IMADHI", "Alu.IntegerMultiply"},
    {"IMADWIDE", "Alu.IntegerMultiply"},
    {"IDIV", "Alu.IntegerDivide"},
    {"IREM", "Alu.IntegerDivide"},
    {"FADD", "Fp32.AddMulWithRoundingFtzAndOperandModifiers"},
    {"FADD_I", "Fp32.Immediates"},
    {"FMUL", "Fp32.AddMulWithRoundingFtzAndOperandModifiers"},
    {"FMUL_I", "Fp32.Immediates"},
    {"FFMA", "Fp32.FusedMultiplyAdd"},
    {"FMNMX", "Fp32.MinMax"},
    {"FSETP", "Fp32.SetPredicateAllCompares"},
    {"F2F", "Convert.FloatToFloat"},
    {"F2I", "Convert.FloatToInteger"},
    {"I2F", "Convert.IntegerToFloat"},
    {"I2I", "Convert.IntegerToInteger"},
    {"DADD", "Fp64.ArithmeticWithRounding"},
    {"DMUL", "Fp64.ArithmeticWithRounding"},
    {"DFMA", "Fp64.ArithmeticWithRounding"},
    {"DMNMX", "Fp64.MinMaxAndCompare"},
    {"DSETP", "Fp64.MinMaxAndCompare"},
    {"FDIV", "Fp32.DivideAndSquareRoot"},
    {"FSQRT", "Fp32.DivideAndSquareRoot"},
    {"DDIV", "Fp64.ArithmeticWithRounding"},
    {"DSQRT", "Fp64.ArithmeticWithRounding"},
    {"MUFU", "SpecialFunctions.MufuMatchesHlsAndLibm"},
    {"LDG", "Memory.GlobalLoadsAndStoresOfEverySize"},
    {"STG", "Memory.GlobalLoadsAndStoresOfEverySize"},
    {"LDS", "Memory.SharedMemoryExchangeAcrossWarps"},
    {"STS", "Memory.SharedMemoryExchangeAcrossWarps"},
    {"LDL", "Memory.LocalMemoryIsPerThread"},
    {"STL", "Memory.LocalMemoryIsPerThread"},
    {"LDC", "Memory.ConstantAndParameterSpaces"},
    {"LDP", "Memory.ConstantAndParameterSpaces"},
    {"LD", "Memory.GenericWindowsReachEverySpace"},
    {"ST", "Memory.GenericWindowsReachEverySpace"},
    {"ATOM", "Atomics.EveryOperationAndTypeInEverySpace"},
    {"BRA", "Divergence.IfElseReconvergesAtBsync"},
    {"BRX", "Control.IndirectBranchThroughAJumpTable"},
    {"CALL", "Control.CallsReturnsAndFunctionPointers"},
    {"CALLR", "Control.CallsReturnsAndFunctionPointers"},
    {"RET", "Control.CallsReturnsAndFunctionPointers"},
    {"EXIT", "Divergence.EarlyExitThenBarrierAndReconvergence"},
    {"BSSY", "Divergence.NestedRegionsAndLowerPcFirst"},
    {"BSYNC", "Divergence.NestedRegionsAndLowerPcFirst"},
    {"B2R", "Control.BarrierRegisterSpillAndRestore"},
    {"R2B", "Control.BarrierRegisterSpillAndRestore"},
    {"WARPSYNC", "WarpSync.ReconvergesDivergedHalves"},
    {"BAR", "Barriers.ArriveAndSyncWithCountsAndIds"},
    {"MEMBAR", "Control.MembarAndNanosleep"},
    {"TRAP", "Faults.TrapAssertBreakpoint"},
    {"BPT", "Faults.TrapAssertBreakpoint"},
    {"NANOSLEEP", "Control.MembarAndNanosleep"},
    {"VOTE", "WarpOps.VoteOverTheActiveGroup"},
    {"SHFL", "WarpOps.ShuffleAllModesAndWidths"},
    {"MATCH", "WarpOps.MatchAnyAndAll"},
    {"REDUX", "WarpOps.ReduxAllOperations"},
    {"TEX", "Texture.FetchesFilterAndGather"},
    {"SULD", "Texture.SurfaceLoadsAndStoresWithBoundaryModes"},
    {"SUST", "Texture.SurfaceLoadsAndStoresWithBoundaryModes"},
};

TEST(Coverage, EveryOpcodeHasASemanticTest) {
  for (const isa::OpInfo &op : isa::kOps) {
    if (!op.valid)
      continue;
    EXPECT_TRUE(kTestedBy.count(std::string(op.name)))
        << op.name << " has no semantic test in tests/func (add one and list it here)";
  }
  // Every listed test exists.
  const ::testing::UnitTest &unit = *::testing::UnitTest::GetInstance();
  for (const auto &[op, test] : kTestedBy) {
    bool found = false;
    for (int s = 0; s < unit.total_test_suite_count() && !found; ++s) {
      const ::testing::TestSuite &suite = *unit.GetTestSuite(s);
      for (int t = 0; t < suite.total_test_count() && !found; ++t)
        found = std::string(suite.name()) + "." + suite.GetTestInfo(t)->name() == test;
    }
    EXPECT_TRUE(found) << op << ": no test named " << test;
  }
}

} // namespace
} // namespace wf::test

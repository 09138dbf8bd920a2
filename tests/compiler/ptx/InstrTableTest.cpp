//===- InstrTableTest.cpp - Tests of the PTX instruction table ------------===//
//
// Part of Warpforge. The table must be consistent, cover the PTX that CUDA
// code produces, and name only native opcodes that exist in the ISA.
//
//===----------------------------------------------------------------------===//

#include "warpforge/ptx/InstrTable.h"
#include "warpforge/ptx/Coverage.h"

#include "warpforge/isa/isa.gen.h"

#include <gtest/gtest.h>

#include <set>
#include <sstream>

using namespace wf::ptx;

namespace {

TEST(PtxInstrTable, IsConsistent) {
  std::vector<std::string> Problems = checkTableConsistency();
  std::string All;
  for (const std::string &P : Problems)
    All += P + "\n";
  EXPECT_TRUE(Problems.empty()) << All;
}

TEST(PtxInstrTable, ModifierSpellingsAreUniqueAndRoundTrip) {
  std::set<std::string_view> Seen;
  for (unsigned I = 0; I < kNumMods; ++I) {
    Mod M = static_cast<Mod>(I);
    std::string_view S = spelling(M);
    EXPECT_TRUE(Seen.insert(S).second) << "duplicate spelling " << S;
    ASSERT_TRUE(lookupMod(S).has_value()) << S;
    EXPECT_EQ(*lookupMod(S), M) << S;
  }
  EXPECT_EQ(lookupType("b32"), Type::B32);
  EXPECT_FALSE(lookupType("rn").has_value());
  EXPECT_EQ(bitWidth(Type::F16x2), 32u);
  EXPECT_EQ(byteSize(Type::Pred), 1u);
}

/// The native opcode names a Supported row's "how" text starts with.
std::vector<std::string> nativeNames(std::string_view How) {
  std::string_view Head = How.substr(0, How.find(':'));
  std::vector<std::string> Names;
  size_t I = 0;
  while (I < Head.size()) {
    size_t J = Head.find(", ", I);
    std::string_view Part = Head.substr(I, J == std::string_view::npos ? J : J - I);
    Part = Part.substr(0, Part.find('.')); // IADD.X -> IADD
    Names.emplace_back(Part);
    if (J == std::string_view::npos)
      break;
    I = J + 2;
  }
  return Names;
}

bool isNativeOpcode(std::string_view Name) {
  for (const auto &Op : wf::isa::kOps)
    if (Op.valid && Op.name == Name)
      return true;
  return false;
}

TEST(PtxInstrTable, SupportedRowsNameRealNativeOpcodes) {
  for (const InstrInfo &I : allInstrs()) {
    if (I.status == Status::Supported) {
      for (const std::string &N : nativeNames(I.how)) {
        EXPECT_TRUE(isNativeOpcode(N)) << I.spelling << ": '" << N << "' in \"" << I.how << "\"";
      }
    }
    for (const ModRule &R : I.rules) {
      if (R.status != Status::Supported)
        continue;
      for (const std::string &N : nativeNames(R.how)) {
        EXPECT_TRUE(isNativeOpcode(N) || N == "hint")
            << I.spelling << " " << R.modifiers << ": '" << N << "' in \"" << R.how << "\"";
      }
    }
  }
}

TEST(PtxInstrTable, SupportedSpecialRegistersExistInTheIsa) {
  for (const SRegInfo &R : allSRegs()) {
    if (R.status != Status::Supported)
      continue;
    std::string_view How = R.how;
    ASSERT_EQ(How.substr(0, 5), "S2R: ") << R.name;
    std::string_view List = How.substr(5);
    size_t I = 0;
    while (I < List.size()) {
      size_t J = List.find(", ", I);
      std::string_view Name = List.substr(I, J == std::string_view::npos ? J : J - I);
      ASSERT_EQ(Name.substr(0, 3), "SR_") << R.name;
      bool Found = false;
      for (const auto &S : wf::isa::kSRegs)
        if (S.name == Name.substr(3))
          Found = true;
      EXPECT_TRUE(Found) << R.name << ": " << Name;
      if (J == std::string_view::npos)
        break;
      I = J + 2;
    }
  }
}

TEST(PtxInstrTable, CoversWhatCudaCodeEmits) {
  const char *Required[] = {
      "add",   "sub",     "mul",           "mad",       "mul24",    "mad24",    "sad",
      "div",   "rem",     "abs",           "neg",       "min",      "max",      "popc",
      "clz",   "bfind",   "fns",           "brev",      "bfe",      "bfi",      "dp4a",
      "dp2a",  "add.cc",  "addc",          "sub.cc",    "subc",     "mad.cc",   "madc",
      "and",   "or",      "xor",           "not",       "cnot",     "lop3",     "shf",
      "shl",   "shr",     "fma",           "rcp",       "sqrt",     "rsqrt",    "sin",
      "cos",   "lg2",     "ex2",           "tanh",      "copysign", "testp",    "set",
      "setp",  "selp",    "slct",          "cvt",       "cvta",     "cvt.pack", "mov",
      "ld",    "st",      "ldu",           "prefetch",  "isspacep", "atom",     "red",
      "bar",   "barrier", "bar.warp.sync", "membar",    "fence",    "vote",     "shfl",
      "match", "redux",   "activemask",    "bra",       "brx.idx",  "call",     "ret",
      "exit",  "trap",    "brkpt",         "nanosleep", "tex",      "tld4",     "suld",
      "sust",  "txq",     "suq",           "prmt"};
  std::set<std::string_view> Have;
  for (const InstrInfo &I : allInstrs())
    Have.insert(I.spelling);
  for (const char *R : Required)
    EXPECT_TRUE(Have.count(R)) << R;
  const char *SRegs[] = {"%tid",
                         "%ntid",
                         "%ctaid",
                         "%nctaid",
                         "%laneid",
                         "%warpid",
                         "%nwarpid",
                         "%smid",
                         "%nsmid",
                         "%gridid",
                         "%clock",
                         "%clock64",
                         "%globaltimer",
                         "%lanemask_eq",
                         "%lanemask_lt",
                         "%lanemask_le",
                         "%lanemask_gt",
                         "%lanemask_ge",
                         "%dynamic_smem_size",
                         "%total_smem_size",
                         "%envreg0"};
  for (const char *S : SRegs)
    EXPECT_TRUE(lookupSReg(S).has_value()) << S;
  EXPECT_FALSE(lookupSReg("%envreg32").has_value());
  EXPECT_FALSE(lookupSReg("%envreg01").has_value());
}

TEST(PtxInstrTable, MatchOpcode) {
  auto Match = [](std::initializer_list<std::string_view> Segs) {
    std::vector<std::string_view> V(Segs);
    return matchOpcode(V);
  };
  auto A = Match({"add", "s32"});
  ASSERT_TRUE(A);
  EXPECT_EQ(A->op, Op::Add);
  EXPECT_EQ(A->nameSegments, 1u);
  auto B = Match({"mad", "lo", "cc", "u32"});
  ASSERT_TRUE(B);
  EXPECT_EQ(B->op, Op::MadCc);
  EXPECT_EQ(B->nameSegments, 0b101u);
  auto C = Match({"bar", "warp", "sync"});
  ASSERT_TRUE(C);
  EXPECT_EQ(C->op, Op::BarWarpSync);
  auto D = Match({"bar", "sync"});
  ASSERT_TRUE(D);
  EXPECT_EQ(D->op, Op::Bar);
  auto E = Match({"cp", "async", "wait_group"});
  ASSERT_TRUE(E);
  EXPECT_EQ(E->op, Op::CpAsyncWaitGroup);
  auto F = Match({"cp", "async", "ca", "shared", "global"});
  ASSERT_TRUE(F);
  EXPECT_EQ(F->op, Op::CpAsync);
  EXPECT_FALSE(Match({"frob"}));
  EXPECT_FALSE(Match({"cp"}));
}

TEST(PtxInstrTable, CheckModifiers) {
  auto Check = [](Op O, std::initializer_list<Mod> Ms) {
    std::vector<Mod> V(Ms);
    return checkModifiers(O, V);
  };
  EXPECT_TRUE(Check(Op::Add, {Mod::S32}).error.empty());
  EXPECT_EQ(Check(Op::Add, {Mod::S32}).status, Status::Supported);
  EXPECT_EQ(Check(Op::Add, {Mod::S64}).status, Status::Lowered);
  EXPECT_FALSE(Check(Op::Add, {}).error.empty());
  EXPECT_FALSE(Check(Op::Add, {Mod::S32, Mod::U32}).error.empty());
  // cvt takes two types; the same one twice is fine.
  ModCheck Cvt = Check(Op::Cvt, {Mod::Rni, Mod::F32, Mod::F32});
  EXPECT_TRUE(Cvt.error.empty()) << Cvt.error;
  EXPECT_EQ(Cvt.ruleOf[1]->group, ModGroup::Type);
  EXPECT_EQ(Cvt.ruleOf[2]->group, ModGroup::SrcType);
  // Flags may not repeat.
  EXPECT_FALSE(Check(Op::Min, {Mod::NaN, Mod::NaN, Mod::F32}).error.empty());
  // Rejected modifiers carry their rule.
  ModCheck Fp8 = Check(Op::Cvt, {Mod::Rn, Mod::E4M3x2, Mod::F32});
  EXPECT_EQ(Fp8.status, Status::Rejected);
  ASSERT_NE(Fp8.statusRule, nullptr);
  EXPECT_NE(Fp8.statusRule->how.find("FP8"), std::string_view::npos);
  EXPECT_EQ(Check(Op::Mma, {}).status, Status::Rejected);
}

TEST(PtxInstrTable, CoverageCountsAndPage) {
  CoverageCounts C = coverageCounts();
  unsigned Total = 0;
  for (unsigned N : C.instrs)
    Total += N;
  EXPECT_EQ(Total, kNumOps);
  EXPECT_GT(C.instrs[static_cast<unsigned>(Status::Supported)], 40u);
  EXPECT_GT(C.instrs[static_cast<unsigned>(Status::Lowered)], 20u);
  EXPECT_GT(C.instrs[static_cast<unsigned>(Status::Rejected)], 0u);
  std::ostringstream Page;
  writeCoverageMarkdown(Page);
  std::string S = Page.str();
  EXPECT_EQ(S.rfind("<!-- GENERATED", 0), 0u);
  EXPECT_NE(S.find("### `cvt`"), std::string::npos);
  EXPECT_NE(S.find("`%tid.x/.y/.z`"), std::string::npos);
}

} // namespace

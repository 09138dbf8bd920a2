//===- CorpusTest.cpp - Real PTX and fuzzing regressions ------------------===//
//
// Part of Warpforge. Parses the committed PTX that nvcc 13 and clang 14 made
// from inputs/*.cu and checks structural facts; replays every file of the
// fuzzing corpus (seeds and the crashes found) expecting no crash.
//
//===----------------------------------------------------------------------===//

#include "warpforge/ptx/Parser.h"
#include "warpforge/ptx/Printer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

using namespace wf::ptx;
namespace fs = std::filesystem;

namespace {

const fs::path kDir = WF_PTX_TEST_DIR;

std::string readFile(const fs::path &P) {
  std::ifstream In(P, std::ios::binary);
  std::ostringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

std::vector<fs::path> filesUnder(const fs::path &Dir, const std::string &Ext = "") {
  std::vector<fs::path> Files;
  if (!fs::exists(Dir))
    return Files;
  for (const auto &E : fs::recursive_directory_iterator(Dir))
    if (E.is_regular_file() && (Ext.empty() || E.path().extension() == Ext))
      Files.push_back(E.path());
  std::sort(Files.begin(), Files.end());
  return Files;
}

/// Kernels each input defines, with their parameter counts.
const std::map<std::string, std::vector<std::pair<std::string, size_t>>> kKernels = {
    {"vector_add", {{"vecAdd", 4}, {"saxpy4", 4}, {"addU64", 3}}},
    {"reduction", {{"reduceSum", 3}, {"countPositive", 2}, {"transpose", 4}}},
    {"warp", {{"warpReduce", 2}, {"votes", 2}, {"timing", 1}}},
    {"warp_sm80", {{"matchReduce", 2}}},
    {"atomics", {{"atomics", 5}, {"lockedIncrement", 2}}},
    {"functions", {{"callKernel", 4}, {"switchKernel", 2}}},
    {"functions_debug", {{"callKernel", 4}, {"switchKernel", 2}}},
    {"printf", {{"hello", 4}, {"checked", 1}}},
    {"locals", {{"localArray", 4}, {"localPassedDown", 1}}},
    {"dynshared", {{"dynShared", 3}, {"dynSharedTwo", 2}}},
    {"math", {{"mathF32", 2}, {"mathF64", 3}, {"intOps", 3}}},
    {"half", {{"halfOps", 6}}},
    {"globals", {{"useGlobals", 2}}},
    {"inline_asm", {{"inlineAsm", 3}}},
    {"features", {{"features", 3}, {"reqKernel", 0}}},
};

bool anyInstr(const Module &M, Op O) {
  for (const Function &F : M.functions)
    for (const Statement &S : F.body)
      if (S.kind == StmtKind::Instr && S.inst.op == O)
        return true;
  return false;
}

TEST(PtxCorpus, CommittedPtxParses) {
  std::vector<fs::path> Files;
  for (const char *Sub : {"nvcc", "clang", "handwritten"}) {
    auto More = filesUnder(kDir / "inputs" / Sub, ".ptx");
    EXPECT_FALSE(More.empty()) << Sub;
    Files.insert(Files.end(), More.begin(), More.end());
  }
  ASSERT_GE(Files.size(), 25u);
  for (const fs::path &P : Files) {
    SCOPED_TRACE(P.string());
    auto M = parseFile(P.string());
    ASSERT_TRUE(static_cast<bool>(M)) << M.error().str();
    std::string Stem = P.stem().string();
    auto It = kKernels.find(Stem);
    ASSERT_NE(It, kKernels.end()) << "no expectations for " << Stem;
    for (const auto &[Name, NumParams] : It->second) {
      const Function *K = M->findFunction(Name);
      ASSERT_NE(K, nullptr) << Name;
      EXPECT_TRUE(K->isKernel);
      EXPECT_TRUE(K->hasBody);
      EXPECT_EQ(K->params.size(), NumParams) << Name;
      EXPECT_GT(K->numInstructions(), 0u) << Name;
    }
    size_t Kernels = M->kernels().size();
    EXPECT_EQ(Kernels, It->second.size());
    EXPECT_GE(M->versionMajor, 7u);
    EXPECT_EQ(M->addressSize, 64u);
    // Every instruction is known, and every operand resolved.
    for (const Function &F : M->functions)
      for (const Statement &S : F.body) {
        if (S.kind != StmtKind::Instr)
          continue;
        EXPECT_NE(S.inst.op, Op::NumOps);
        EXPECT_NE(S.inst.status, Status::Rejected);
      }
    // Printing and reparsing gives the same text again.
    std::string Once = toString(*M);
    auto M2 = parseModule(Once);
    ASSERT_TRUE(static_cast<bool>(M2)) << M2.error().str();
    EXPECT_EQ(toString(*M2), Once);
  }
}

TEST(PtxCorpus, FeatureSpecificFacts) {
  for (const char *Compiler : {"nvcc", "clang"}) {
    SCOPED_TRACE(Compiler);
    fs::path Base = kDir / "inputs" / Compiler;
    auto Fn = parseFile((Base / "functions.ptx").string());
    ASSERT_TRUE(static_cast<bool>(Fn)) << Fn.error().str();
    // Recursion: fib calls fib.
    const Function *Fib = Fn->findFunction("_Z3fibi");
    ASSERT_NE(Fib, nullptr);
    EXPECT_FALSE(Fib->isKernel);
    bool SelfCall = false;
    bool Indirect = false;
    for (const Function &F : Fn->functions)
      for (const Statement &S : F.body)
        if (S.kind == StmtKind::Instr && S.inst.op == Op::Call) {
          const Operand &T = S.inst.operands[1];
          if (&F == Fib && T.symKind == SymbolKind::Function &&
              Fn->functions[T.index].name == F.name)
            SelfCall = true;
          if (T.kind == OperandKind::Reg && S.inst.operands.size() == 4 &&
              S.inst.operands[3].symKind == SymbolKind::Prototype)
            Indirect = true;
        }
    EXPECT_TRUE(SelfCall);
    EXPECT_TRUE(Indirect);
    // The function table is initialized with function addresses.
    const Variable *Table = Fn->findGlobal("gTable");
    ASSERT_NE(Table, nullptr);
    ASSERT_EQ(Table->init.size(), 3u);
    EXPECT_EQ(Table->init[0].kind, InitElem::Kind::Address);

    auto Dyn = parseFile((Base / "dynshared.ptx").string());
    ASSERT_TRUE(static_cast<bool>(Dyn));
    const Variable *Buf = Dyn->findGlobal("dynBuf");
    ASSERT_NE(Buf, nullptr);
    EXPECT_EQ(Buf->linkage, Linkage::Extern);
    EXPECT_EQ(Buf->space, Space::Shared);
    EXPECT_EQ(Buf->sizeInBytes(), 0u);

    auto Red = parseFile((Base / "reduction.ptx").string());
    ASSERT_TRUE(static_cast<bool>(Red));
    EXPECT_TRUE(anyInstr(*Red, Op::Bar) || anyInstr(*Red, Op::Barrier));

    auto Warp = parseFile((Base / "warp.ptx").string());
    ASSERT_TRUE(static_cast<bool>(Warp));
    EXPECT_TRUE(anyInstr(*Warp, Op::Shfl));
    EXPECT_TRUE(anyInstr(*Warp, Op::Vote));

    auto W80 = parseFile((Base / "warp_sm80.ptx").string());
    ASSERT_TRUE(static_cast<bool>(W80));
    EXPECT_TRUE(anyInstr(*W80, Op::Match));
    EXPECT_TRUE(anyInstr(*W80, Op::Redux));

    auto At = parseFile((Base / "atomics.ptx").string());
    ASSERT_TRUE(static_cast<bool>(At));
    EXPECT_TRUE(anyInstr(*At, Op::Atom));

    auto Pf = parseFile((Base / "printf.ptx").string());
    ASSERT_TRUE(static_cast<bool>(Pf));
    const Function *Vp = Pf->findFunction("vprintf");
    ASSERT_NE(Vp, nullptr);
    EXPECT_FALSE(Vp->hasBody);
    EXPECT_TRUE(anyInstr(*Pf, Op::Trap));

    auto Loc = parseFile((Base / "locals.ptx").string());
    ASSERT_TRUE(static_cast<bool>(Loc));
    const Function *LA = Loc->findFunction("localArray");
    ASSERT_NE(LA, nullptr);
    EXPECT_TRUE(LA->params[2].isArray); // struct Params by value
    EXPECT_GE(LA->params[2].sizeInBytes(), 32u);
    bool LocalVar = false;
    for (const Function &F : Loc->functions)
      for (const Variable &V : F.locals)
        LocalVar |= V.space == Space::Local;
    EXPECT_TRUE(LocalVar);

    auto Asm = parseFile((Base / "inline_asm.ptx").string());
    ASSERT_TRUE(static_cast<bool>(Asm));
    EXPECT_TRUE(anyInstr(*Asm, Op::AddCc));
    EXPECT_TRUE(anyInstr(*Asm, Op::Addc));
    EXPECT_TRUE(anyInstr(*Asm, Op::Nanosleep));
  }
  // nvcc -lineinfo output carries debug lines; nvcc -G output has debug sections.
  auto Lines = parseFile((kDir / "inputs/nvcc/functions.ptx").string());
  ASSERT_TRUE(static_cast<bool>(Lines));
  ASSERT_FALSE(Lines->files.empty());
  const Function *CK = Lines->findFunction("callKernel");
  bool HasDbg = false;
  for (const Statement &S : CK->body)
    HasDbg |= S.kind == StmtKind::Instr && S.inst.dbg.isValid();
  EXPECT_TRUE(HasDbg);
  auto Debug = parseFile((kDir / "inputs/nvcc/functions_debug.ptx").string());
  ASSERT_TRUE(static_cast<bool>(Debug));
  EXPECT_FALSE(Debug->sections.empty());
  auto Globals = parseFile((kDir / "inputs/nvcc/globals.ptx").string());
  ASSERT_TRUE(static_cast<bool>(Globals));
  const Variable *Ptr = Globals->findGlobal("gPtr");
  ASSERT_NE(Ptr, nullptr);
  ASSERT_EQ(Ptr->init.size(), 1u);
  EXPECT_TRUE(Ptr->init[0].generic);
  EXPECT_EQ(Ptr->init[0].symbol, "gArray");
  EXPECT_EQ(Ptr->init[0].value, 64u);
}

/// Every file in corpus/ (fuzzing seeds and the crashes and hangs the fuzzer
/// found) goes through the parser, and the printer when it parses. Failing to
/// parse is fine; crashing or hanging is not.
TEST(PtxCorpus, FuzzCorpusReplaysWithoutCrashing) {
  auto Files = filesUnder(kDir / "corpus");
  ASSERT_FALSE(Files.empty());
  size_t Parsed = 0;
  for (const fs::path &P : Files) {
    SCOPED_TRACE(P.string());
    std::string Text = readFile(P);
    for (bool Validate : {true, false}) {
      ParseOptions Opts;
      Opts.validate = Validate;
      auto M = parseModule(Text, Opts);
      if (!M) {
        EXPECT_FALSE(M.error().diagnostics().empty());
        EXPECT_FALSE(M.error().str().empty());
        continue;
      }
      ++Parsed;
      std::string Once = toString(*M);
      auto M2 = parseModule(Once, Opts);
      EXPECT_TRUE(static_cast<bool>(M2)) << M2.error().str();
    }
  }
  EXPECT_GT(Parsed, 0u);
}

} // namespace

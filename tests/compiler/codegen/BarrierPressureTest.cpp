//===- BarrierPressureTest.cpp - Many reconvergence regions, many predicates ===//
//
// Convergence barriers are colored by the points each one occupies (docs/compiler.md, "Register
// allocation"), and predicates that do not fit P0..P14 are spilled to general registers. Before,
// barriers took the hull of their positions over the block order, so a region with a block laid
// out far away (nvcc puts rarely taken paths at the end) held its barrier over everything in
// between, and more than 16 (or 15 predicates) live at once was an error: "more than 16
// convergence barriers live at once (spilling them is not implemented)". The kernels here are
// generated PTX, run on the emulator and checked against a host model of the same arithmetic.
//
//===----------------------------------------------------------------------===//

#include "Harness.h"

#include <fmt/format.h>

#include <set>

using namespace wf;
using namespace wf::cgtest;

namespace {

const char *kHeader = R"PTX(
.version 7.0
.target sm_80
.address_size 64
)PTX";

/// Convergence barrier registers that BSSY instructions of the module's code name.
std::set<uint32_t> bssyBarriers(const wfx::Module &M) {
  std::set<uint32_t> Bars;
  for (size_t At = 0; At + isa::kInstBytes <= M.code.size(); At += isa::kInstBytes) {
    uint64_t Word = 0;
    for (unsigned K = 0; K < 8; ++K)
      Word |= uint64_t(M.code[At + K]) << (8 * K);
    if ((Word & 0xff) == uint64_t(isa::Opcode::BSSY))
      Bars.insert(uint32_t(Word >> 16) & 0xf); // b = rd[3:0]
  }
  return Bars;
}

// --- Nesting deeper than the 16 barrier registers ---------------------------------------------
//
// Level k computes x = x * 3 + k; lane k leaves there (a divergent branch around the deeper
// levels); every fourth level runs the deeper levels in a loop of (lane + k) % 3 + 1 iterations
// (a divergent loop exit); after the join x ^= C_k and x += lane. 24 levels and 6 loops are 30
// regions nested at once, so the innermost ones cannot have a barrier of their own; the outer
// ones must still reconverge the warp (activemask after the nest is the whole warp).
constexpr unsigned kDepth = 24;

bool isLoopLevel(unsigned K) { return K % 4 == 3; }
uint32_t joinConstant(unsigned K) { return (K * 0x9e37u + 0x51u) & 0xffffu; }

void emitLevel(std::string &S, unsigned K) {
  if (K == kDepth) {
    S += "  mad.lo.u32 %x, %x, 5, 1;\n";
    return;
  }
  S += fmt::format("  mad.lo.u32 %x, %x, 3, {};\n", K);
  S += fmt::format("  setp.eq.u32 %p, %lane, {};\n", K);
  S += fmt::format("  @%p bra SKIP{};\n", K);
  if (isLoopLevel(K)) {
    S += fmt::format("  mov.u32 %i{}, 0;\n", K);
    S += fmt::format("  add.u32 %n{0}, %lane, {0};\n", K);
    S += fmt::format("  rem.u32 %n{0}, %n{0}, 3;\n", K);
    S += fmt::format("  add.u32 %n{0}, %n{0}, 1;\n", K);
    S += fmt::format("LOOP{}:\n", K);
    emitLevel(S, K + 1);
    S += fmt::format("  add.u32 %x, %x, %i{};\n", K);
    S += fmt::format("  add.u32 %i{0}, %i{0}, 1;\n", K);
    S += fmt::format("  setp.lt.u32 %q, %i{0}, %n{0};\n", K);
    S += fmt::format("  @%q bra LOOP{};\n", K);
  } else {
    emitLevel(S, K + 1);
  }
  S += fmt::format("SKIP{}:\n", K);
  S += fmt::format("  xor.b32 %x, %x, {};\n", joinConstant(K));
  S += "  add.u32 %x, %x, %lane;\n";
}

void modelLevel(uint32_t Lane, unsigned K, uint32_t &X) {
  if (K == kDepth) {
    X = X * 5 + 1;
    return;
  }
  X = X * 3 + K;
  if (Lane != K) {
    if (isLoopLevel(K)) {
      uint32_t N = (Lane + K) % 3 + 1;
      for (uint32_t I = 0; I < N; ++I) {
        modelLevel(Lane, K + 1, X);
        X += I;
      }
    } else {
      modelLevel(Lane, K + 1, X);
    }
  }
  X ^= joinConstant(K);
  X += Lane;
}

std::string deepNestPtx() {
  std::string S = kHeader;
  S += ".visible .entry deep(.param .u64 out, .param .u64 mask, .param .u64 in)\n{\n";
  S += "  .reg .pred %p, %q;\n  .reg .b32 %x, %lane, %m;\n  .reg .b64 %rd<8>;\n";
  for (unsigned K = 0; K < kDepth; ++K)
    if (isLoopLevel(K))
      S += fmt::format("  .reg .b32 %i{0}, %n{0};\n", K);
  S += "  mov.u32 %lane, %tid.x;\n"
       "  mul.wide.u32 %rd1, %lane, 4;\n"
       "  ld.param.u64 %rd2, [in];\n"
       "  add.s64 %rd3, %rd2, %rd1;\n"
       "  ld.global.u32 %x, [%rd3];\n";
  emitLevel(S, 0);
  S += "  activemask.b32 %m;\n"
       "  ld.param.u64 %rd4, [out];\n"
       "  add.s64 %rd5, %rd4, %rd1;\n"
       "  st.global.u32 [%rd5], %x;\n"
       "  ld.param.u64 %rd6, [mask];\n"
       "  add.s64 %rd7, %rd6, %rd1;\n"
       "  st.global.u32 [%rd7], %m;\n"
       "  ret;\n}\n";
  return S;
}

TEST(BarrierPressure, NestingDeeperThanTheBarrierRegisters) {
  Runner R("default");
  ASSERT_TRUE(R.compile(deepNestPtx()));
  EXPECT_FALSE(bssyBarriers(R.Mod).empty());
  std::vector<uint32_t> In(32);
  for (uint32_t L = 0; L < 32; ++L)
    In[L] = L * 2654435761u + 12345u;
  uint64_t InA = R.upload(In), OutA = R.alloc(32 * 4), MaskA = R.alloc(32 * 4);
  auto Res = R.launch("deep", {1, 1, 1}, {32, 1, 1}, Params().u64(OutA).u64(MaskA).u64(InA));
  ASSERT_FALSE(Res.fault) << faultText(Res);
  auto Out = R.download<uint32_t>(OutA, 32);
  auto Mask = R.download<uint32_t>(MaskA, 32);
  for (uint32_t L = 0; L < 32; ++L) {
    uint32_t X = In[L];
    modelLevel(L, 0, X);
    EXPECT_EQ(Out[L], X) << "lane " << L;
    EXPECT_EQ(Mask[L], 0xffffffffu) << "lane " << L << ": the warp did not reconverge";
  }
}

// --- Many regions one after another, each with a block laid out at the end --------------------
//
// Region k: lanes whose bit k % 5 is set jump to a block at the end of the function (FARk) and
// back to the join (JOINk), where every lane records activemask. A barrier held over the hull of
// its positions spanned from its branch to the end of the function, so all 40 were live at once.
// Each region must still have its barrier: without one, the lanes that fall through would record
// activemask at the join before the others come back.
constexpr unsigned kRegions = 40;

std::string farBlocksPtx() {
  std::string S = kHeader;
  S += ".visible .entry far(.param .u64 out, .param .u64 mask)\n{\n";
  S += "  .reg .pred %p;\n  .reg .b32 %x, %lane, %m, %bit;\n  .reg .b64 %rd<8>;\n";
  S += "  mov.u32 %lane, %tid.x;\n"
       "  mov.u32 %x, %lane;\n"
       "  ld.param.u64 %rd1, [mask];\n"
       "  mul.wide.u32 %rd2, %lane, 4;\n"
       "  add.s64 %rd3, %rd1, %rd2;\n";
  for (unsigned K = 0; K < kRegions; ++K) {
    S += fmt::format("  shr.u32 %bit, %lane, {};\n", K % 5);
    S += "  and.b32 %bit, %bit, 1;\n";
    S += "  setp.ne.u32 %p, %bit, 0;\n";
    S += fmt::format("  @%p bra FAR{};\n", K);
    S += fmt::format("  add.u32 %x, %x, {};\n", K + 1);
    S += fmt::format("JOIN{}:\n", K);
    S += "  activemask.b32 %m;\n";
    S += fmt::format("  st.global.u32 [%rd3+{}], %m;\n", K * 128);
    S += "  mul.lo.u32 %x, %x, 3;\n";
  }
  S += "  ld.param.u64 %rd4, [out];\n"
       "  add.s64 %rd5, %rd4, %rd2;\n"
       "  st.global.u32 [%rd5], %x;\n"
       "  ret;\n";
  for (unsigned K = 0; K < kRegions; ++K) {
    S += fmt::format("FAR{}:\n", K);
    S += fmt::format("  xor.b32 %x, %x, {};\n", 0x55 * (K + 1));
    S += fmt::format("  bra.uni JOIN{};\n", K);
  }
  S += "}\n";
  return S;
}

TEST(BarrierPressure, RegionsWithFarAwayBlocksShareBarriers) {
  Runner R("default");
  ASSERT_TRUE(R.compile(farBlocksPtx()));
  uint64_t OutA = R.alloc(32 * 4), MaskA = R.alloc(kRegions * 32 * 4);
  auto Res = R.launch("far", {1, 1, 1}, {32, 1, 1}, Params().u64(OutA).u64(MaskA));
  ASSERT_FALSE(Res.fault) << faultText(Res);
  auto Out = R.download<uint32_t>(OutA, 32);
  auto Mask = R.download<uint32_t>(MaskA, kRegions * 32);
  for (uint32_t L = 0; L < 32; ++L) {
    uint32_t X = L;
    for (unsigned K = 0; K < kRegions; ++K) {
      if ((L >> (K % 5)) & 1)
        X ^= 0x55 * (K + 1);
      else
        X += K + 1;
      X *= 3;
      EXPECT_EQ(Mask[K * 32 + L], 0xffffffffu) << "region " << K << " lane " << L;
    }
    EXPECT_EQ(Out[L], X) << "lane " << L;
  }
}

// --- More predicates live at once than P0..P14 -----------------------------------------------
//
// 24 comparisons of one input against constants, all live until a chain of selp at the end
// (some also as guards and negated guards), so 9 or more predicates live in general registers.
constexpr unsigned kPreds = 24;

std::string manyPredicatesPtx() {
  std::string S = kHeader;
  S += ".visible .entry preds(.param .u64 out, .param .u64 in)\n{\n";
  S += fmt::format("  .reg .pred %p<{}>;\n", kPreds);
  S += "  .reg .b32 %v, %x, %lane;\n  .reg .b64 %rd<8>;\n";
  S += "  mov.u32 %lane, %tid.x;\n"
       "  mul.wide.u32 %rd1, %lane, 4;\n"
       "  ld.param.u64 %rd2, [in];\n"
       "  add.s64 %rd3, %rd2, %rd1;\n"
       "  ld.global.u32 %v, [%rd3];\n"
       "  mov.u32 %x, 0;\n";
  for (unsigned K = 0; K < kPreds; ++K)
    S += fmt::format("  setp.gt.u32 %p{}, %v, {};\n", K, K * 10);
  for (unsigned K = 0; K < kPreds; ++K) {
    S += "  shl.b32 %x, %x, 1;\n";
    if (K % 3 == 0)
      S += fmt::format("  @%p{} add.u32 %x, %x, 1;\n", K);
    else if (K % 3 == 1)
      S += fmt::format("  @!%p{} xor.b32 %x, %x, 3;\n", K);
    else
      S += fmt::format("  selp.u32 %x, %x, 7, %p{};\n", K);
  }
  S += "  ld.param.u64 %rd4, [out];\n"
       "  add.s64 %rd5, %rd4, %rd1;\n"
       "  st.global.u32 [%rd5], %x;\n"
       "  ret;\n}\n";
  return S;
}

TEST(BarrierPressure, PredicatesSpillToGeneralRegisters) {
  Runner R("default");
  ASSERT_TRUE(R.compile(manyPredicatesPtx()));
  std::vector<uint32_t> In(32);
  for (uint32_t L = 0; L < 32; ++L)
    In[L] = L * 8;
  uint64_t InA = R.upload(In), OutA = R.alloc(32 * 4);
  auto Res = R.launch("preds", {1, 1, 1}, {32, 1, 1}, Params().u64(OutA).u64(InA));
  ASSERT_FALSE(Res.fault) << faultText(Res);
  auto Out = R.download<uint32_t>(OutA, 32);
  for (uint32_t L = 0; L < 32; ++L) {
    uint32_t X = 0;
    for (unsigned K = 0; K < kPreds; ++K) {
      bool P = In[L] > K * 10;
      X <<= 1;
      if (K % 3 == 0 && P)
        X += 1;
      else if (K % 3 == 1 && !P)
        X ^= 3;
      else if (K % 3 == 2 && !P)
        X = 7;
    }
    EXPECT_EQ(Out[L], X) << "lane " << L;
  }
}

} // namespace

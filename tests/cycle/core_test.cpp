// The cycle model's GPU (sim/cycle gpu.h, simt_core.h): timing rules of docs/microarchitecture.md
// checked on small kernels, and kernels whose results the emulator computes through the model.
#include "warpforge/cycle/gpu.h"

#include "../func/harness.h"

#include <gtest/gtest.h>

#include <map>

using namespace wf;
using namespace wf::test;
using isa::Opcode;
using isa::SReg;

namespace {

struct Issue {
  unsigned core, slot;
  uint32_t pc;
  uint64_t cycle;
};

cycle::Gpu &gpuFor(const char *config) {
  static std::unique_ptr<cycle::Gpu> gpu;
  if (!gpu) {
    auto params = cycle::GpuParams::fromConfig(*isa::findConfig(config));
    EXPECT_TRUE(params) << params.error;
    gpu = std::make_unique<cycle::Gpu>("gpu", *params.value);
  }
  return *gpu;
}

Inst ffma(unsigned rd, unsigned ra, unsigned rb, unsigned rc) {
  return Inst(Opcode::FFMA).rd(rd).ra(ra).rb(rb).rc(rc);
}

} // namespace

// docs/microarchitecture.md, "Dispatch and write-back": in `default` (P = 2) an FFMA issued in t
// with its sources in three banks writes in t + 7 and t + 9, and a dependent issues in t + 10.
TEST(CycleCore, DependentFfmaIssuesTenCyclesLater) {
  Harness h("default");
  cycle::Gpu &gpu = gpuFor("default");
  std::vector<Issue> issues;
  gpu.issueObserver = [&](unsigned c, unsigned s, uint32_t pc, uint64_t at) {
    issues.push_back({c, s, pc, at});
  };
  Code code;
  code << ffma(4, 1, 2, 3) << ffma(5, 4, 1, 2) << ffma(6, 1, 2, 3) << exitInst();
  func::LaunchDesc d = h.describe(code, {1, 1, 1}, {32, 1, 1});
  func::LaunchResult r = gpu.launch(h.dev, d, {});
  ASSERT_FALSE(r.fault) << r.fault->describe();
  ASSERT_EQ(issues.size(), 4u);
  EXPECT_EQ(issues[0].pc, 0u);
  EXPECT_EQ(issues[1].pc, 8u);
  EXPECT_EQ(issues[1].cycle - issues[0].cycle, 10u);
  // The independent FFMA behind it waits for it (in order), then issues the next cycle.
  EXPECT_EQ(issues[2].cycle, issues[1].cycle + 1);
  EXPECT_EQ(r.warpInsts, 4u);
  EXPECT_GT(r.cycles, issues[3].cycle);
}

// Independent instructions of one warp issue back to back once fetched (fetch: every other cycle
// per warp, so a lone warp with D = 2 issues at most every other cycle).
TEST(CycleCore, LoneWarpIssuesEveryOtherCycle) {
  Harness h("default");
  cycle::Gpu &gpu = gpuFor("default");
  std::vector<Issue> issues;
  gpu.issueObserver = [&](unsigned c, unsigned s, uint32_t pc, uint64_t at) {
    issues.push_back({c, s, pc, at});
  };
  Code code;
  for (unsigned i = 0; i < 8; ++i)
    code << mov32(8 + i, i);
  code << exitInst();
  func::LaunchResult r = gpu.launch(h.dev, h.describe(code, {1, 1, 1}, {32, 1, 1}), {});
  ASSERT_FALSE(r.fault) << r.fault->describe();
  ASSERT_EQ(issues.size(), 9u);
  for (unsigned i = 1; i < 8; ++i)
    EXPECT_EQ(issues[i].cycle - issues[i - 1].cycle, 2u) << "instruction " << i;
}

// A grid of many blocks: every element is computed (by the emulator, when the model issues), the
// blocks spread over the cores, and the L2 and DRAM see the traffic.
TEST(CycleCore, SaxpyGridComputesEveryElement) {
  Harness h("default");
  cycle::Gpu &gpu = gpuFor("default");
  gpu.issueObserver = nullptr;
  const unsigned n = 64 * 128;
  std::vector<float> x(n), y(n);
  for (unsigned i = 0; i < n; ++i) {
    x[i] = float(i);
    y[i] = float(3 * i + 1);
  }
  uint64_t xa = h.upload(x), ya = h.upload(y);
  Code c;
  emitGlobalIndex(c, 0);                  // R0 = i
  emitElementAddress(c, 4, 0, 0, 4, 3);   // R4:R5 = &x[i]
  emitElementAddress(c, 6, 8, 0, 4, 3);   // R6:R7 = &y[i]
  c << ldg(8, 4) << ldg(9, 6) << mov32(10, 0x40000000) // 2.0f
    << ffma(9, 10, 8, 9) << stg(6, 9) << exitInst();
  Params p;
  p.u64(xa).u64(ya);
  func::LaunchResult r = gpu.launch(h.dev, h.describe(c, {n / 128, 1, 1}, {128, 1, 1}, p), {});
  ASSERT_FALSE(r.fault) << r.fault->describe();
  std::vector<float> out = h.download<float>(ya, n);
  for (unsigned i = 0; i < n; ++i)
    ASSERT_EQ(out[i], 2.0f * float(i) + float(3 * i + 1)) << "element " << i;
  EXPECT_EQ(r.blocks, n / 128);
  stats::Group g("gpu");
  gpu.registerStats(g);
  std::ostringstream json;
  stats::writeJson(g, json);
  EXPECT_NE(json.str().find("\"gpu.l2.misses\""), std::string::npos);
  EXPECT_NE(json.str().find("\"gpu.core0.stall_dependency\""), std::string::npos);
  // Every core got blocks, and the loads reached DRAM.
  for (unsigned core = 0; core < gpu.params().cores; ++core)
    EXPECT_NE(json.str().find("\"gpu.core" + std::to_string(core) + ".blocks\""),
              std::string::npos);
  EXPECT_GT(gpu.platform.dram.totalCounters().reads, 0u);
  EXPECT_GT(r.cycles, 0u);
}

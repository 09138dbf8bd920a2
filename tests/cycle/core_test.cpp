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

/// Runs `desc` on the cycle model with the harness's device memory as the golden model's (the
/// emulator's plugin, loaded by name as the cycle device loads it).
isa::LaunchResult launchOn(cycle::Gpu &gpu, Harness &h, const isa::LaunchDesc &desc) {
  func::Memory &mem = h.dev.memory();
  std::string error;
  std::unique_ptr<isa::GoldenModel> model =
      isa::GoldenModel::open("func", std::string(h.dev.config().name), error, mem.host(mem.base()));
  if (!model) {
    ADD_FAILURE() << error;
    return {};
  }
  return gpu.launch(*model, desc);
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
  func::LaunchResult r = launchOn(gpu, h, d);
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
  func::LaunchResult r = launchOn(gpu, h, h.describe(code, {1, 1, 1}, {32, 1, 1}));
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
  func::LaunchResult r = launchOn(gpu, h, h.describe(c, {n / 128, 1, 1}, {128, 1, 1}, p));
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

// Barriers and shared memory through the model: 4 warps publish to shared memory and read a
// neighbour's value between two BARs, 10 times. The values are the emulator's; the model must
// count barrier stalls and the bank conflicts the bank arbiter gives (thread t at word t: with
// 16 banks, lanes l and l + 16 share a bank, so every warp access takes two passes).
TEST(CycleCore, SharedExchangeWithBarriers) {
  Harness h("default");
  cycle::Gpu &gpu = gpuFor("default");
  gpu.issueObserver = nullptr;
  const uint32_t n = 128, rounds = 10;
  std::vector<uint32_t> zeros(n, 0);
  const uint64_t out = h.upload(zeros);
  Code c;
  c << s2r(0, SReg::TID_X);
  emitElementAddress(c, 2, 0, 0, 4, 9);
  c << Inst(Opcode::MOV).rd(4).ra(0) << mov32(5, 0) << Inst(Opcode::SHL_I).rd(6).ra(0).imm(2)
    << iaddI(7, 0, 1) << Inst(Opcode::LOP_I).rd(7).ra(7).imm(n - 1).mod("fn", "AND")
    << Inst(Opcode::SHL_I).rd(7).ra(7).imm(2);
  c.label("loop");
  c << Inst(Opcode::STS).ra(6).rd(4) << Inst(Opcode::BAR) << Inst(Opcode::LDS).rd(8).ra(7)
    << Inst(Opcode::BAR) << Inst(Opcode::IADD).rd(4).ra(4).rb(8) << iaddI(5, 5, 1)
    << isetpI(0, 5, rounds, "LT") << bra("loop").guard(0);
  c << stg(2, 4) << exitInst();
  Params p;
  p.u64(out);
  func::LaunchDesc d = h.describe(c, {1, 1, 1}, {n, 1, 1}, p);
  d.sharedStatic = n * 4;
  func::LaunchResult r = launchOn(gpu, h, d);
  ASSERT_FALSE(r.fault) << r.fault->describe();
  std::vector<uint32_t> x(n);
  for (uint32_t t = 0; t < n; ++t)
    x[t] = t;
  for (uint32_t round = 0; round < rounds; ++round) {
    std::vector<uint32_t> next(n);
    for (uint32_t t = 0; t < n; ++t)
      next[t] = x[t] + x[(t + 1) % n];
    x = next;
  }
  std::vector<uint32_t> v = h.download<uint32_t>(out, n);
  for (uint32_t t = 0; t < n; ++t)
    ASSERT_EQ(v[t], x[t]) << "thread " << t;
  const cycle::CoreCounters &k = gpu.core(0).counters();
  const uint64_t accesses = uint64_t(n / 32) * rounds * 2;
  const unsigned banks = isa::findConfig("default")->sharedBanks;
  EXPECT_EQ(k.sharedAccesses, accesses);
  EXPECT_EQ(k.sharedBankConflicts, accesses * (32 / banks - 1));
  EXPECT_GT(k.stallBarrier, 0u);
  EXPECT_EQ(k.warpInsts, r.warpInsts);
}

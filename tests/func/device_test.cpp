//===- device_test.cpp - Memory API, host threads, cycles and the commit trace ===//

#include "harness.h"

#include <sstream>

namespace wf::test {
namespace {

TEST(DeviceMemory, HostAccessAndBounds) {
  Harness h;
  func::Memory &m = h.dev.memory();
  EXPECT_EQ(m.base(), isa::kGlobalBase);
  EXPECT_EQ(m.size(), uint64_t(h.dev.config().globalMemMib) << 20);
  EXPECT_TRUE(m.contains(m.base(), m.size()));
  EXPECT_FALSE(m.contains(m.base() - 1, 1));
  EXPECT_FALSE(m.contains(m.base() + m.size() - 3, 4));
  EXPECT_FALSE(m.contains(~0ull - 2, 8));
  uint32_t v = 0x12345678, r = 0;
  EXPECT_TRUE(m.write(m.base() + 100, &v, 4));
  EXPECT_TRUE(m.read(m.base() + 100, &r, 4));
  EXPECT_EQ(r, v);
  EXPECT_TRUE(m.fill(m.base() + 100, 0xab, 2));
  EXPECT_TRUE(m.read(m.base() + 100, &r, 4));
  EXPECT_EQ(r, 0x1234abab);
  EXPECT_FALSE(m.write(m.base() + m.size() - 2, &v, 4));
  EXPECT_EQ(*m.host(m.base() + 100), 0xab);
  EXPECT_EQ(uint64_t(0), [&] {
    uint64_t z;
    m.read(m.base() + (100 << 20), &z, 8); // untouched memory reads as zero
    return z;
  }());
}

/// A kernel that mixes divergence, a block barrier with a shared exchange, loops and atomics on
/// per-block counters, so its results depend on nothing but the program.
Code mixedKernel() {
  Code c;
  emitGlobalIndex(c, 0);
  c << s2r(20, SReg::TID_X) << Inst(Opcode::SHL_I).rd(21).ra(20).imm(2) << mov32(4, 0)
    << mov32(5, 0) << mov32(6, 11) << Inst(Opcode::IREM).rd(7).ra(0).rb(6).mod("ty", "U32")
    << Inst(Opcode::BSSY).bar(0).target("done");
  c.label("loop");
  c << Inst(Opcode::IMAD).rd(4).ra(4).rb(6).rc(5) << iaddI(5, 5, 1)
    << Inst(Opcode::ISETP).pd(0).ra(5).rb(7).mod("cmp", "LE").mod("ty", "U32")
    << bra("loop").guard(0);
  c.label("done");
  c << Inst(Opcode::BSYNC).bar(0) << Inst(Opcode::STS).ra(21).rd(4) << Inst(Opcode::BAR)
    << Inst(Opcode::LOP_I).rd(22).ra(21).imm(0x7c).mod("fn", "XOR")
    << Inst(Opcode::LDS).rd(8).ra(22) << Inst(Opcode::IADD).rd(4).ra(4).rb(8);
  emitElementAddress(c, 2, 0, 0, 4, 1);
  c << stg(2, 4) << s2r(9, SReg::CTAID_X);
  emitElementAddress(c, 10, 8, 9, 4, 1);
  c << Inst(Opcode::ATOM).rd(12).ra(10).rb(4).mod("fn", "XOR") << exitInst();
  return c;
}

TEST(HostThreads, ResultsAndCountsDoNotDependOnThem) {
  std::vector<uint32_t> reference;
  LaunchResult first;
  for (unsigned threads : {1u, 2u, 4u, 16u}) {
    Harness h("default");
    const uint32_t blocks = 37, n = blocks * 128;
    uint64_t out = h.alloc(n * 4), perBlock = h.alloc(blocks * 4);
    func::RunOptions opts;
    opts.hostThreads = threads;
    auto desc =
        h.describe(mixedKernel(), {blocks, 1, 1}, {128, 1, 1}, Params().u64(out).u64(perBlock), 24);
    desc.sharedStatic = 128 * 4;
    auto r = h.dev.launch(desc, opts);
    ASSERT_FALSE(r.fault) << r.fault->describe();
    auto v = h.download<uint32_t>(out, n);
    auto pb = h.download<uint32_t>(perBlock, blocks);
    v.insert(v.end(), pb.begin(), pb.end());
    if (reference.empty()) {
      reference = v;
      first = r;
      EXPECT_EQ(r.blocks, blocks);
      continue;
    }
    EXPECT_EQ(v, reference) << threads << " host threads";
    EXPECT_EQ(r.warpInsts, first.warpInsts);
    EXPECT_EQ(r.threadInsts, first.threadInsts);
    EXPECT_EQ(r.cycles, first.cycles); // each core's schedule is its own
  }
}

TEST(Cycles, CounterAdvancesWithEveryLaunch) {
  Harness h;
  Code c;
  for (int i = 0; i < 10; ++i)
    c << Inst(Opcode::NOP);
  c << exitInst();
  EXPECT_EQ(h.dev.cycles(), 0u);
  auto r1 = h.run(c, {1, 1, 1}, {32, 1, 1});
  // tiny: 8 lanes, so each warp instruction takes 4 cycles; 11 instructions.
  EXPECT_EQ(r1.cycles, 11u * 4);
  EXPECT_EQ(r1.warpInsts, 11u);
  EXPECT_EQ(r1.threadInsts, 11u * 32);
  EXPECT_EQ(h.dev.cycles(), r1.cycles);
  auto r2 = h.run(c, {2, 1, 1}, {64, 1, 1}); // four warps share the one core
  EXPECT_EQ(r2.cycles, 4 * 11u * 4);
  EXPECT_EQ(h.dev.cycles(), r1.cycles + r2.cycles);
  // CLOCK64 continues from the device counter.
  Code clk;
  clk << s2r(4, SReg::CLOCK64) << ldp64(2, 0) << stg(2, 4, 0, "B64") << exitInst();
  uint64_t out = h.alloc(8);
  h.run(clk, {1, 1, 1}, {1, 1, 1}, Params().u64(out));
  EXPECT_GE(h.read<uint64_t>(out), r1.cycles + r2.cycles);
}

TEST(Trace, FormatOfEveryKindOfLine) {
  Harness h;
  uint64_t out = h.alloc(256);
  Code c;
  c << s2r(4, SReg::LANEID) << isetpI(0, 4, 2, "LT", true) << bra("skip").guard(0, true)
    << Inst(Opcode::IADD_I).rd(5).ra(4).imm(0x10) << ldp64(2, 0)
    << Inst(Opcode::SHL_I).rd(6).ra(4).imm(2) << Inst(Opcode::IADD).rd(2).ra(2).rb(6) << stg(2, 5)
    << Inst(Opcode::BAR).rd(7).pc(0).mod("fn", "RED_POPC");
  c.label("skip");
  c << exitInst();
  std::ostringstream trace;
  func::RunOptions opts;
  opts.trace = &trace;
  opts.hostThreads = 4; // tracing runs on one host thread anyway
  auto r = h.run(c, {1, 1, 1}, {4, 1, 1}, Params().u64(out), 32, opts);
  ASSERT_FALSE(r.fault) << r.fault->describe();
  std::string expected =
      "0,0,0 0 0:0 00000000 0000000f 0000000f S2R R4=00000000,00000001,00000002,00000003\n"
      "0,0,0 0 0:0 00000008 0000000f 0000000f ISETP_I P0=00000003\n"
      "0,0,0 0 0:0 00000010 0000000f 0000000c BRA\n"
      "0,0,0 0 0:0 00000018 00000003 00000003 IADD_I R5=00000010,00000011\n"
      "0,0,0 0 0:0 00000020 00000003 00000003 LDP R2=00010000,00010000 R3=00000001,00000001 "
      "L0:P0/8=0000000100010000 L1:P0/8=0000000100010000\n"
      "0,0,0 0 0:0 00000028 00000003 00000003 SHL_I R6=00000000,00000004\n"
      "0,0,0 0 0:0 00000030 00000003 00000003 IADD R2=00010000,00010004\n"
      "0,0,0 0 0:0 00000038 00000003 00000003 STG M0:G100010000/4=00000010 "
      "M1:G100010004/4=00000011\n"
      "0,0,0 0 0:0 00000040 00000003 00000003 BAR\n"
      "0,0,0 0 0:0 00000048 0000000c 0000000c EXIT\n"
      "0,0,0 0 0:0 00000040 00000003 00000003 BAR.RELEASE R7=00000002,00000002\n"
      "0,0,0 0 0:0 00000048 00000003 00000003 EXIT\n";
  EXPECT_EQ(trace.str(), expected);
}

TEST(Trace, SameWithOneOrManyHostThreadsRequested) {
  std::string traces[2];
  for (unsigned i = 0; i < 2; ++i) {
    Harness h("default");
    uint64_t out = h.alloc(37 * 128 * 4), perBlock = h.alloc(37 * 4);
    std::ostringstream t;
    func::RunOptions opts;
    opts.trace = &t;
    opts.hostThreads = i ? 4 : 1;
    auto desc =
        h.describe(mixedKernel(), {37, 1, 1}, {128, 1, 1}, Params().u64(out).u64(perBlock), 24);
    desc.sharedStatic = 128 * 4;
    ASSERT_FALSE(h.dev.launch(desc, opts).fault);
    traces[i] = t.str();
  }
  EXPECT_EQ(traces[0], traces[1]);
  EXPECT_GT(traces[0].size(), 1000u);
  // Every line is an instruction of a non-empty group: block warp core:slot pc active exec op.
  std::istringstream lines(traces[0]);
  std::string line;
  size_t count = 0;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string block, warp, slot, pc, active;
    fields >> block >> warp >> slot >> pc >> active;
    ASSERT_NE(active, "00000000") << line;
    ++count;
  }
  EXPECT_GT(count, 37u * 4 * 20);
}

} // namespace
} // namespace wf::test

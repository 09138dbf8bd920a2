//===- fault_test.cpp - Every fault kind, its report, and recovery -------------===//

#include "harness.h"

#include <fmt/format.h>

#include <functional>

namespace wf::test {
namespace {

constexpr unsigned kZ = isa::kZeroReg;

/// Runs a kernel whose only job is to fault; checks the kind and returns the report.
func::Fault expectFault(Harness &h, const Code &c, FaultKind kind, Dim3 grid = {1, 1, 1},
                        Dim3 block = {32, 1, 1}, const Params &p = {}, uint32_t regs = 32,
                        const func::RunOptions &opts = {},
                        std::function<void(func::LaunchDesc &)> adjust = {}) {
  func::LaunchDesc d = h.describe(c, grid, block, p, regs);
  if (adjust)
    adjust(d);
  LaunchResult r = h.dev.launch(d, opts);
  EXPECT_TRUE(r.fault.has_value());
  if (!r.fault)
    return {};
  EXPECT_EQ(r.fault->kind, kind) << r.fault->describe();
  return *r.fault;
}

/// A kernel in which only thread (lane 5 of warp 1, block 2) reaches `inst`.
Code onlyOneThread(const std::vector<Inst> &insts) {
  Code c;
  c << s2r(4, SReg::TID_X) << s2r(5, SReg::CTAID_X) << isetpI(0, 4, 37, "EQ")
    << isetpI(1, 5, 2, "EQ") << Inst(Opcode::PLOP3).pd(0).pa(0).pb(1).pc(isa::kTruePred).lut(0xc0)
    << bra("out").guard(0, true);
  for (const Inst &i : insts)
    c << i;
  c.label("out");
  c << exitInst();
  return c;
}

TEST(Faults, OutOfBoundsGlobalReportsKernelBlockThreadPcAddress) {
  Harness h;
  uint64_t bad = isa::kGlobalBase + h.dev.memory().size(); // one past the end
  Code c = onlyOneThread({mov32(8, uint32_t(bad)), mov32(9, uint32_t(bad >> 32)), ldg(10, 8)});
  auto f = expectFault(h, c, FaultKind::OutOfBounds, {4, 1, 1}, {64, 1, 1});
  EXPECT_EQ(f.kernel, "test_kernel");
  EXPECT_EQ(f.block.x, 2u);
  EXPECT_EQ(f.thread.x, 37u);
  EXPECT_EQ(f.pc, 8u * 8);
  EXPECT_EQ(f.address, bad);
  std::string text = f.describe();
  EXPECT_NE(text.find("kernel 'test_kernel' block (2,0,0) thread (37,0,0) pc 0x40"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("out-of-bounds"), std::string::npos) << text;
  EXPECT_NE(text.find(fmt::format("0x{:x}", bad)), std::string::npos) << text;
}

TEST(Faults, OutOfBoundsInEverySpace) {
  Harness h;
  auto withSpaces = [](func::LaunchDesc &d) {
    d.sharedStatic = 64;
    d.localBytes = 16;
    d.constSize = 16;
    d.constBase = isa::kGlobalBase;
  };
  expectFault(h, onlyOneThread({mov32(8, 64), Inst(Opcode::LDS).rd(9).ra(8)}),
              FaultKind::OutOfBounds, {4, 1, 1}, {64, 1, 1}, {}, 32, {}, withSpaces);
  expectFault(h,
              onlyOneThread({mov32(8, 62), Inst(Opcode::STS).ra(8).rd(9).mod("size", "U16"),
                             mov32(8, 63), Inst(Opcode::STS).ra(8).rd(9).mod("size", "U16")}),
              FaultKind::Misaligned, {4, 1, 1}, {64, 1, 1}, {}, 32, {}, withSpaces);
  expectFault(h, onlyOneThread({Inst(Opcode::STL).ra(kZ).rd(9).imm(16)}), FaultKind::OutOfBounds,
              {4, 1, 1}, {64, 1, 1}, {}, 32, {}, withSpaces);
  expectFault(h, onlyOneThread({Inst(Opcode::LDC).rd(9).ra(kZ).imm(16)}), FaultKind::OutOfBounds,
              {4, 1, 1}, {64, 1, 1}, {}, 32, {}, withSpaces);
  expectFault(h, onlyOneThread({Inst(Opcode::LDP).rd(9).ra(kZ).imm(8)}), FaultKind::OutOfBounds,
              {4, 1, 1}, {64, 1, 1}, Params().u64(1), 32, {}, withSpaces);
  // Generic: an offset past the shared window's size.
  auto f = expectFault(
      h,
      onlyOneThread({mov32(8, 4096),
                     Inst(Opcode::CVTA).rd(10).ra(8).mod("dir", "TOGEN").mod("space", "SHARED"),
                     Inst(Opcode::LD).rd(12).ra(10)}),
      FaultKind::OutOfBounds, {4, 1, 1}, {64, 1, 1}, {}, 32, {}, withSpaces);
  EXPECT_EQ(f.address, isa::kSharedWindow + 4096);
}

TEST(Faults, MisalignedAccesses) {
  Harness h;
  uint64_t buf = h.alloc(64);
  expectFault(h, onlyOneThread({ldp64(8, 0), ldg(10, 8, 2)}), FaultKind::Misaligned, {4, 1, 1},
              {64, 1, 1}, Params().u64(buf));
  expectFault(h, onlyOneThread({ldp64(8, 0), stg(8, 10, 4, "B64")}), FaultKind::Misaligned,
              {4, 1, 1}, {64, 1, 1}, Params().u64(buf));
  expectFault(h,
              onlyOneThread({ldp64(8, 0), iaddI(8, 8, 1),
                             Inst(Opcode::ATOM).rd(10).ra(8).rb(11).mod("fn", "ADD")}),
              FaultKind::Misaligned, {4, 1, 1}, {64, 1, 1}, Params().u64(buf));
}

TEST(Faults, IllegalInstructions) {
  Harness h;
  auto illegal = [&](Code c, const std::string &what, uint32_t regs = 32) {
    auto f = expectFault(h, c, FaultKind::IllegalInstruction, {1, 1, 1}, {32, 1, 1}, {}, regs);
    EXPECT_NE(f.message().find(what), std::string::npos) << f.describe();
    return f;
  };
  Code invalidOpcode;
  invalidOpcode << mov32(4, 1);
  invalidOpcode.word(isa::setField(0, isa::FormatR::op, 0x1f));
  auto f = illegal(invalidOpcode, "invalid opcode 0x1f");
  EXPECT_EQ(f.pc, 8u);

  Code beyond;
  beyond << Inst(Opcode::MOV).rd(40).ra(1) << exitInst();
  illegal(beyond, "R40 is beyond the 32 registers");

  Code pair;
  pair << Inst(Opcode::IMULWIDE).rd(13).ra(4).rb(5) << exitInst();
  illegal(pair, "misaligned register pair R13");

  Code quad;
  quad << ldg(6, 4, 0, "B128") << exitInst();
  illegal(quad, "misaligned register quad R6");

  Code badModifier;
  badModifier << Inst(Opcode::ISETP).pd(0).ra(4).rb(5).mod("cmp", 7) << exitInst();
  illegal(badModifier, "invalid ISETP.cmp value 7");

  Code badSreg;
  badSreg << Inst(Opcode::S2R).rd(4).set("sr", 200) << exitInst();
  illegal(badSreg, "invalid special register 200");

  Code badAtom;
  badAtom << Inst(Opcode::ATOM).rd(4).ra(6).rb(5).mod("fn", "INC").mod("ty", "F32") << exitInst();
  illegal(badAtom, "ATOM.INC.F32");

  Code fallOff;
  fallOff << mov32(4, 1) << mov32(5, 2);
  f = illegal(fallOff, "past the end of the code segment");
  EXPECT_EQ(f.pc, 16u);

  Code badTarget;
  badTarget << Inst(Opcode::BRA).imm(0x1000) << exitInst();
  illegal(badTarget, "jump to 0x1008");

  Code badIndirect;
  badIndirect << mov32(4, 12) << Inst(Opcode::BRX).ra(4) << exitInst();
  illegal(badIndirect, "jump to 0xc");

  Code badBarrier;
  badBarrier << mov32(4, 15) << Inst(Opcode::BAR).ra(4).set("id", 3) << exitInst();
  illegal(badBarrier, "barrier number 18");

  // An illegal instruction that is never executed is harmless.
  Code skipped;
  skipped << bra("over");
  skipped.word(isa::setField(0, isa::FormatR::op, 0xfe));
  skipped.label("over");
  skipped << exitInst();
  auto r = h.run(skipped, {1, 1, 1}, {32, 1, 1});
  EXPECT_FALSE(r.fault);
}

TEST(Faults, TrapAssertBreakpoint) {
  Harness h;
  auto f = expectFault(h, onlyOneThread({Inst(Opcode::TRAP).imm(0)}), FaultKind::Trap, {4, 1, 1},
                       {64, 1, 1});
  EXPECT_EQ(f.thread.x, 37u);
  f = expectFault(h, onlyOneThread({Inst(Opcode::TRAP).imm(1)}), FaultKind::Assert, {4, 1, 1},
                  {64, 1, 1});
  EXPECT_EQ(f.code, 1u);
  f = expectFault(h, onlyOneThread({Inst(Opcode::BPT).imm(7)}), FaultKind::Breakpoint, {4, 1, 1},
                  {64, 1, 1});
  EXPECT_EQ(f.code, 7u);
  EXPECT_NE(f.describe().find("breakpoint"), std::string::npos);
  // A false guard suppresses the trap.
  Code guarded;
  guarded << Inst(Opcode::TRAP).imm(0).guard(isa::kTruePred, true) << exitInst();
  EXPECT_FALSE(h.run(guarded, {1, 1, 1}, {32, 1, 1}).fault);
}

TEST(Faults, BarrierDeadlocks) {
  Harness h;
  // A barrier expecting more threads than the block has.
  Code tooMany;
  tooMany << mov32(4, 64) << Inst(Opcode::BAR).rb(4) << exitInst();
  auto f = expectFault(h, tooMany, FaultKind::BarrierDeadlock);
  EXPECT_NE(f.message().find("BAR"), std::string::npos) << f.describe();
  EXPECT_EQ(f.pc, 8u);

  // Warps waiting at different barriers for all threads.
  Code split;
  split << s2r(4, SReg::TID_X) << isetpI(0, 4, 32, "LT", true) << mov32(5, 1)
        << Inst(Opcode::BAR).ra(5).guard(0, true) << Inst(Opcode::BAR).guard(0) << exitInst();
  expectFault(h, split, FaultKind::BarrierDeadlock, {1, 1, 1}, {64, 1, 1});

  // Half a warp waits at BSYNC for the other half, which waits at a block barrier that needs
  // the first half.
  Code convergence;
  convergence << s2r(4, SReg::LANEID) << Inst(Opcode::BSSY).bar(0).target("join")
              << isetpI(0, 4, 16, "LT", true) << bra("join").guard(0) << Inst(Opcode::BAR);
  convergence.label("join");
  convergence << Inst(Opcode::BSYNC).bar(0) << exitInst();
  f = expectFault(h, convergence, FaultKind::BarrierDeadlock);
  EXPECT_NE(f.message().find("BSYNC B0"), std::string::npos) << f.describe();

  // An early exit is not a deadlock: exited threads count as arrived.
  Code early;
  early << s2r(4, SReg::TID_X) << isetpI(0, 4, 40, "LT", true) << exitInst().guard(0)
        << Inst(Opcode::BAR) << exitInst();
  EXPECT_FALSE(h.run(early, {1, 1, 1}, {64, 1, 1}).fault);
}

TEST(Faults, Watchdog) {
  Harness h;
  Code spin;
  spin.label("top");
  spin << bra("top");
  func::RunOptions opts;
  opts.watchdogWarpInsts = 10000;
  func::Fault f = expectFault(h, spin, FaultKind::Watchdog, {2, 1, 1}, {64, 1, 1}, {}, 32, opts);
  EXPECT_NE(f.message().find("10000"), std::string::npos);
  // Exactly at the limit is fine.
  Code straight;
  for (int i = 0; i < 9; ++i)
    straight << Inst(Opcode::NOP);
  straight << exitInst();
  opts.watchdogWarpInsts = 10;
  EXPECT_FALSE(h.run(straight, {1, 1, 1}, {32, 1, 1}, {}, 32, opts).fault);
  opts.watchdogWarpInsts = 9;
  EXPECT_TRUE(h.run(straight, {1, 1, 1}, {32, 1, 1}, {}, 32, opts).fault);
}

TEST(Faults, WritesToReadOnlySpaces) {
  Harness h;
  auto ro = [](func::LaunchDesc &d) {
    d.constBase = isa::kGlobalBase;
    d.constSize = 64;
  };
  auto f = expectFault(
      h,
      onlyOneThread({mov32(8, 4),
                     Inst(Opcode::CVTA).rd(10).ra(8).mod("dir", "TOGEN").mod("space", "CONST"),
                     Inst(Opcode::ST).ra(10).rd(4)}),
      FaultKind::ReadOnlyWrite, {4, 1, 1}, {64, 1, 1}, {}, 32, {}, ro);
  EXPECT_EQ(f.address, isa::kConstWindow + 4);
  expectFault(
      h,
      onlyOneThread({mov32(8, 0),
                     Inst(Opcode::CVTA).rd(10).ra(8).mod("dir", "TOGEN").mod("space", "PARAM"),
                     Inst(Opcode::ST).ra(10).rd(4)}),
      FaultKind::ReadOnlyWrite, {4, 1, 1}, {64, 1, 1}, Params().u64(0), 32, {}, ro);
  expectFault(
      h,
      onlyOneThread({mov32(8, 0),
                     Inst(Opcode::CVTA).rd(10).ra(8).mod("dir", "TOGEN").mod("space", "PARAM"),
                     Inst(Opcode::ATOM).rd(4).ra(10).rb(5).mod("fn", "ADD")}),
      FaultKind::ReadOnlyWrite, {4, 1, 1}, {64, 1, 1}, Params().u64(0), 32, {}, ro);
}

TEST(Faults, InvalidLaunches) {
  Harness h;
  Code c;
  c << exitInst();
  auto bad = [&](Dim3 block, std::function<void(func::LaunchDesc &)> adjust,
                 const std::string &what) {
    func::LaunchDesc d = h.describe(c, {1, 1, 1}, block);
    adjust(d);
    auto r = h.dev.launch(d);
    ASSERT_TRUE(r.fault);
    EXPECT_EQ(r.fault->kind, FaultKind::InvalidLaunch);
    EXPECT_NE(r.fault->message().find(what), std::string::npos) << r.fault->describe();
  };
  const isa::Config &cfg = h.dev.config();
  bad(
      {cfg.maxThreadsPerBlock + 1, 1, 1}, [](auto &) {}, "threads per block");
  bad(
      {32, 1, 1}, [](auto &d) { d.grid.y = 0; }, "at least 1");
  bad(
      {32, 1, 1}, [&](auto &d) { d.regsPerThread = cfg.maxRegsPerThread + 1; },
      "registers per thread");
  bad(
      {32, 1, 1}, [&](auto &d) { d.sharedDynamic = cfg.sharedMemPerCore + 1; }, "shared memory");
  bad(
      {32, 1, 1}, [&](auto &d) { d.localBytes = cfg.maxLocalBytesPerThread + 4; }, "local memory");
  bad(
      {32, 1, 1}, [](auto &d) { d.codeBase = 0; }, "code segment");
  bad(
      {32, 1, 1}, [](auto &d) { d.entryPc = 4; }, "entry pc");
  bad(
      {32, 1, 1}, [](auto &d) { d.constSize = 16, d.constBase = 8; }, "constant segment");
  // A block whose registers do not fit in a core.
  Harness big("default");
  func::LaunchDesc d = big.describe(c, {1, 1, 1}, {1024, 1, 1}, {}, 255);
  auto r = big.dev.launch(d);
  ASSERT_TRUE(r.fault);
  EXPECT_EQ(r.fault->kind, FaultKind::InvalidLaunch);
  EXPECT_NE(r.fault->message().find("a block needs"), std::string::npos) << r.fault->describe();
}

TEST(Faults, DeviceStaysUsableAfterAFault) {
  std::vector<uint32_t> keep(1024);
  for (uint32_t i = 0; i < keep.size(); ++i)
    keep[i] = i * 2654435761u;
  // Threads store, then thread 37 of block 2 faults.
  Code c;
  emitGlobalIndex(c, 0);
  emitElementAddress(c, 2, 0, 0, 4, 1);
  c << stg(2, 0) << Inst(Opcode::BAR);
  c << s2r(4, SReg::TID_X) << s2r(5, SReg::CTAID_X) << isetpI(0, 4, 37, "EQ")
    << isetpI(1, 5, 2, "EQ") << Inst(Opcode::PLOP3).pd(0).pa(0).pb(1).pc(isa::kTruePred).lut(0xc0)
    << Inst(Opcode::TRAP).imm(0).guard(0) << exitInst();
  for (unsigned threads : {1u, 4u}) {
    Harness hh("default");
    uint64_t o = hh.alloc(4 * 64 * 4);
    uint64_t k = hh.upload(keep);
    func::RunOptions opts;
    opts.hostThreads = threads;
    auto r = hh.run(c, {4, 1, 1}, {64, 1, 1}, Params().u64(o), 32, opts);
    ASSERT_TRUE(r.fault);
    EXPECT_EQ(r.fault->kind, FaultKind::Trap);
    EXPECT_EQ(r.fault->block.x, 2u);
    EXPECT_EQ(hh.download<uint32_t>(k, keep.size()), keep);
    // The next launch runs normally.
    Code ok;
    emitGlobalIndex(ok, 0);
    emitElementAddress(ok, 2, 0, 0, 4, 1);
    ok << iaddI(4, 0, 1000) << stg(2, 4) << exitInst();
    auto r2 = hh.run(ok, {4, 1, 1}, {64, 1, 1}, Params().u64(o), 32, opts);
    ASSERT_FALSE(r2.fault) << r2.fault->describe();
    auto v = hh.download<uint32_t>(o, 256);
    for (uint32_t i = 0; i < 256; ++i)
      EXPECT_EQ(v[i], 1000 + i);
  }
}

TEST(Faults, KindNames) {
  for (auto k : {FaultKind::None, FaultKind::OutOfBounds, FaultKind::Misaligned,
                 FaultKind::IllegalInstruction, FaultKind::Trap, FaultKind::Assert,
                 FaultKind::Breakpoint, FaultKind::BarrierDeadlock, FaultKind::Watchdog,
                 FaultKind::ReadOnlyWrite, FaultKind::InvalidLaunch})
    EXPECT_STRNE(func::faultKindName(k), "unknown fault");
}

} // namespace
} // namespace wf::test

//===- control_test.cpp - Divergence, reconvergence, barriers, calls, warp ops ===//

#include "harness.h"

#include <algorithm>
#include <bit>
#include <set>

namespace wf::test {
namespace {

constexpr unsigned kZ = isa::kZeroReg;

/// A 1D kernel: R0 = global thread index, R1 = lane, R2:R3 = &out[R0 * words]. The body follows
/// and must end in EXIT. Returns out as words.
struct PerThread {
  Harness h{"tiny"};
  Code code;
  uint32_t words;
  explicit PerThread(uint32_t wordsPerThread) : words(wordsPerThread) {
    emitGlobalIndex(code, 0);
    emitElementAddress(code, 2, 0, 0, wordsPerThread * 4, 1);
    code << s2r(1, SReg::LANEID);
  }
  std::vector<uint32_t> run(Dim3 grid, Dim3 block, func::LaunchDesc *custom = nullptr,
                            uint32_t regs = 32) {
    uint64_t n = grid.count() * block.count();
    out = h.alloc(n * words * 4);
    func::LaunchDesc d = h.describe(code, grid, block, Params().u64(out), regs);
    if (custom) {
      d.sharedStatic = custom->sharedStatic;
      d.localBytes = custom->localBytes;
    }
    result = h.dev.launch(d);
    EXPECT_FALSE(result.fault) << result.fault->describe();
    return h.download<uint32_t>(out, n * words);
  }
  uint64_t out = 0;
  LaunchResult result;
};

Inst activemask(unsigned rd) { return s2r(rd, SReg::ACTIVEMASK); }
Inst bssy(unsigned b, const std::string &label) { return Inst(Opcode::BSSY).bar(b).target(label); }
Inst bsync(unsigned b) { return Inst(Opcode::BSYNC).bar(b); }
/// P = (reg & mask) == value.
void emitTestBits(Code &c, unsigned pd, unsigned reg, uint32_t mask, uint32_t value, unsigned tmp) {
  c << Inst(Opcode::LOP_I).rd(tmp).ra(reg).imm(mask).mod("fn", "AND")
    << isetpI(pd, tmp, value, "EQ");
}

TEST(Divergence, IfElseReconvergesAtBsync) {
  PerThread k(4);
  Code &c = k.code;
  c << bssy(0, "join");
  emitTestBits(c, 0, 0, 1, 1, 5); // P0 = odd
  c << bra("else").guard(0) << mov32(4, 100) << activemask(6) << bra("join");
  c.label("else");
  c << mov32(4, 200) << activemask(6);
  c.label("join");
  c << bsync(0) << activemask(7) << stg(2, 4, 0, "B128") << exitInst();
  auto v = k.run({1, 1, 1}, {40, 1, 1}); // a full warp and a partial one
  for (uint32_t t = 0; t < 40; ++t) {
    uint32_t warpMask = t < 32 ? 0xffffffffu : 0xffu;
    bool odd = t & 1;
    EXPECT_EQ(v[4 * t], odd ? 200u : 100u) << t;
    EXPECT_EQ(v[4 * t + 2], warpMask & (odd ? 0xaaaaaaaau : 0x55555555u)) << t;
    EXPECT_EQ(v[4 * t + 3], warpMask) << t;
  }
}

TEST(Divergence, NestedRegionsAndLowerPcFirst) {
  // if (lane < 16) { if (lane % 4 == 0) a; else b; } else c;  record activemasks and an order
  // counter bumped through a shared atomic to see which group ran first.
  PerThread k(4);
  Code &c = k.code;
  c << bssy(0, "outer_join") << isetpI(0, 1, 16, "LT", true) << bra("outer_else").guard(0, true)
    << bssy(1, "inner_join");
  emitTestBits(c, 1, 1, 3, 0, 5);
  c << bra("inner_b").guard(1, true) << mov32(4, 1) << activemask(6) << bra("inner_join");
  c.label("inner_b");
  c << mov32(4, 2) << activemask(6);
  c.label("inner_join");
  c << bsync(1) << activemask(7) << bra("outer_join");
  c.label("outer_else");
  c << mov32(4, 3) << activemask(6) << mov32(7, 0);
  c.label("outer_join");
  c << bsync(0) << activemask(5) << stg(2, 4, 0, "B128") << exitInst();
  auto v = k.run({1, 1, 1}, {32, 1, 1});
  for (uint32_t t = 0; t < 32; ++t) {
    uint32_t value = t >= 16 ? 3 : (t % 4 == 0 ? 1 : 2);
    uint32_t group = t >= 16 ? 0xffff0000u : (t % 4 == 0 ? 0x1111u : 0xeeeeu);
    EXPECT_EQ(v[4 * t], value) << t;
    EXPECT_EQ(v[4 * t + 1], 0xffffffffu) << t;
    EXPECT_EQ(v[4 * t + 2], group) << t;
    EXPECT_EQ(v[4 * t + 3], t < 16 ? 0xffffu : 0u) << t;
  }
}

TEST(Divergence, LoopsWithBreakAndContinue) {
  // for (i = 0; i < tid % 7 + 1; ++i) { if (i == 2) continue; if (tid % 5 == 0 && i == 3) break;
  //   sum += i * 10 + 1; }  then record the active mask after the loop.
  PerThread k(2);
  Code &c = k.code;
  c << mov32(8, 0) << mov32(9, 0) << mov32(10, 7)
    << Inst(Opcode::IREM).rd(11).ra(0).rb(10).mod("ty", "U32") << iaddI(11, 11, 1) // trips
    << mov32(10, 5) << Inst(Opcode::IREM).rd(12).ra(0).rb(10).mod("ty", "U32")
    << isetpI(3, 12, 0, "EQ") << bssy(0, "after");
  c.label("loop");
  c << isetpI(0, 8, 2, "EQ") << bra("next").guard(0);
  c << isetpI(1, 8, 3, "EQ") << Inst(Opcode::PLOP3).pd(1).pa(1).pb(3).pc(isa::kTruePred).lut(0xc0)
    << bra("after").guard(1);
  c << mov32(13, 10) << Inst(Opcode::IMAD).rd(13).ra(8).rb(13).rc(9) << iaddI(9, 13, 1);
  c.label("next");
  c << iaddI(8, 8, 1) << Inst(Opcode::ISETP).pd(2).ra(8).rb(11).mod("cmp", "LT").mod("ty", "U32")
    << bra("loop").guard(2);
  c.label("after");
  c << bsync(0) << activemask(10) << Inst(Opcode::MOV).rd(11).ra(10).guard(isa::kTruePred)
    << Inst(Opcode::MOV).rd(10).ra(9) << stg(2, 10, 0, "B64") << exitInst();
  auto v = k.run({2, 1, 1}, {48, 1, 1});
  for (uint32_t t = 0; t < 96; ++t) {
    uint32_t sum = 0;
    for (uint32_t i = 0; i < t % 7 + 1; ++i) {
      if (i == 2)
        continue;
      if (t % 5 == 0 && i == 3)
        break;
      sum += i * 10 + 1;
    }
    uint32_t local = t % 48;
    EXPECT_EQ(v[2 * t], sum) << t;
    EXPECT_EQ(v[2 * t + 1], local < 32 ? 0xffffffffu : 0xffffu) << t;
  }
}

TEST(Divergence, EarlyExitThenBarrierAndReconvergence) {
  // Threads with tid % 3 == 0 return early. The rest pass a block barrier (exited threads count
  // as arrived) and a convergence barrier that the early threads also belonged to.
  PerThread k(2);
  Code &c = k.code;
  c << bssy(0, "join") << mov32(5, 3) << Inst(Opcode::IREM).rd(6).ra(0).rb(5).mod("ty", "U32")
    << isetpI(0, 6, 0, "EQ") << exitInst().guard(0) << Inst(Opcode::BAR) << mov32(4, 7);
  c.label("join");
  c << bsync(0) << activemask(5) << stg(2, 4, 0, "B64") << exitInst();
  auto v = k.run({1, 1, 1}, {64, 1, 1});
  for (uint32_t t = 0; t < 64; ++t) {
    if (t % 3 == 0) {
      EXPECT_EQ(v[2 * t], 0u);
      continue;
    }
    uint32_t expect = 0;
    for (uint32_t l = 0; l < 32; ++l)
      if ((t / 32 * 32 + l) % 3 != 0)
        expect |= 1u << l;
    EXPECT_EQ(v[2 * t], 7u);
    EXPECT_EQ(v[2 * t + 1], expect) << t;
  }
}

TEST(Barriers, SharedExchangeInsideLoop) {
  // 4 warps, 10 rounds: x = x + shared[(tid + 1) % n] after every thread published x.
  const uint32_t n = 128, rounds = 10;
  PerThread k(1);
  Code &c = k.code;
  c << Inst(Opcode::MOV).rd(4).ra(0) << mov32(5, 0) << Inst(Opcode::SHL_I).rd(6).ra(0).imm(2)
    << iaddI(7, 0, 1) << Inst(Opcode::LOP_I).rd(7).ra(7).imm(n - 1).mod("fn", "AND")
    << Inst(Opcode::SHL_I).rd(7).ra(7).imm(2);
  c.label("loop");
  c << Inst(Opcode::STS).ra(6).rd(4) << Inst(Opcode::BAR) << Inst(Opcode::LDS).rd(8).ra(7)
    << Inst(Opcode::BAR) << Inst(Opcode::IADD).rd(4).ra(4).rb(8) << iaddI(5, 5, 1)
    << isetpI(0, 5, rounds, "LT") << bra("loop").guard(0);
  c << stg(2, 4) << exitInst();
  func::LaunchDesc extra;
  extra.sharedStatic = n * 4;
  auto v = k.run({1, 1, 1}, {n, 1, 1}, &extra);
  std::vector<uint32_t> x(n);
  for (uint32_t t = 0; t < n; ++t)
    x[t] = t;
  for (uint32_t r = 0; r < rounds; ++r) {
    std::vector<uint32_t> next(n);
    for (uint32_t t = 0; t < n; ++t)
      next[t] = x[t] + x[(t + 1) % n];
    x = next;
  }
  for (uint32_t t = 0; t < n; ++t)
    EXPECT_EQ(v[t], x[t]) << t;
}

TEST(Barriers, DivergentThreadsOfAWarpMeetAtOneBarrier) {
  // Barriers count threads: odd and even lanes reach BAR 0 on different paths.
  PerThread k(1);
  Code &c = k.code;
  emitTestBits(c, 0, 0, 1, 1, 5);
  c << Inst(Opcode::SHL_I).rd(6).ra(0).imm(2) << bra("odd").guard(0)
    << Inst(Opcode::STS).ra(6).rd(0) << Inst(Opcode::BAR) << bra("done");
  c.label("odd");
  c << mov32(7, 1000) << Inst(Opcode::IADD).rd(7).ra(7).rb(0) << Inst(Opcode::STS).ra(6).rd(7)
    << Inst(Opcode::BAR);
  c.label("done");
  c << Inst(Opcode::LOP_I).rd(6).ra(6).imm(4).mod("fn", "XOR") << Inst(Opcode::LDS).rd(4).ra(6)
    << stg(2, 4) << exitInst();
  func::LaunchDesc extra;
  extra.sharedStatic = 64 * 4;
  auto v = k.run({1, 1, 1}, {64, 1, 1}, &extra);
  for (uint32_t t = 0; t < 64; ++t) {
    uint32_t partner = t ^ 1;
    EXPECT_EQ(v[t], partner % 2 ? 1000 + partner : partner) << t;
  }
}

TEST(Barriers, ArriveAndSyncWithCountsAndIds) {
  // Warp 0 produces into shared memory and arrives at barrier 3 (64 threads take part); warp 1
  // waits there and consumes. Warp 2 does not take part and must not be held.
  PerThread k(1);
  Code &c = k.code;
  c << s2r(4, SReg::TID_X) << Inst(Opcode::SHR_I).rd(5).ra(4).imm(5).mod("ty", "U32")
    << mov32(9, 64) << mov32(10, 1) << isetpI(0, 5, 0, "EQ") << isetpI(1, 5, 1, "EQ")
    << bra("producer").guard(0) << bra("consumer").guard(1) << mov32(6, 5) << stg(2, 6)
    << exitInst();
  c.label("producer");
  c << Inst(Opcode::SHL_I).rd(6).ra(4).imm(2) << mov32(7, 0x500)
    << Inst(Opcode::IADD).rd(7).ra(7).rb(4) << Inst(Opcode::STS).ra(6).rd(7)
    << Inst(Opcode::BAR).ra(10).rb(9).set("id", 2).mod("fn", "ARRIVE") // barrier 1 + 2 = 3
    << stg(2, 7) << exitInst();
  c.label("consumer");
  c << Inst(Opcode::BAR).ra(10).rb(9).set("id", 2).mod("fn", "SYNC")
    << Inst(Opcode::LOP_I).rd(6).ra(4).imm(31).mod("fn", "AND")
    << Inst(Opcode::SHL_I).rd(6).ra(6).imm(2) << Inst(Opcode::LDS).rd(7).ra(6) << stg(2, 7)
    << exitInst();
  func::LaunchDesc extra;
  extra.sharedStatic = 32 * 4;
  auto v = k.run({1, 1, 1}, {96, 1, 1}, &extra);
  for (uint32_t t = 0; t < 96; ++t) {
    if (t < 32)
      EXPECT_EQ(v[t], 0x500 + t);
    else if (t < 64)
      EXPECT_EQ(v[t], 0x500 + t - 32);
    else
      EXPECT_EQ(v[t], 5u);
  }
}

TEST(Barriers, ReductionForms) {
  // __syncthreads_count / _and / _or over predicates that hold for tid % 3 == 0.
  PerThread k(3);
  Code &c = k.code;
  c << mov32(5, 3) << Inst(Opcode::IREM).rd(6).ra(0).rb(5).mod("ty", "U32") << isetpI(0, 6, 0, "EQ")
    << isetpI(1, 0, 1000, "LT") << isetpI(2, 0, 1000, "GT")
    << Inst(Opcode::BAR).rd(8).pc(0).mod("fn", "RED_POPC")
    << Inst(Opcode::BAR).rd(9).pc(1).mod("fn", "RED_AND")
    << Inst(Opcode::BAR).rd(10).pc(2, true).mod("fn", "RED_AND")
    << Inst(Opcode::BAR).rd(11).pc(2).mod("fn", "RED_OR")
    << Inst(Opcode::BAR).rd(12).pc(0).mod("fn", "RED_OR")
    << Inst(Opcode::LOP3).rd(9).ra(9).rb(10).rc(kZ).lut(0xf0 & 0xcc) // and: 1 & 1
    << Inst(Opcode::SHL_I).rd(12).ra(12).imm(1)
    << Inst(Opcode::LOP3).rd(10).ra(11).rb(12).rc(kZ).lut(0xfc) << stg(2, 8, 0) << stg(2, 9, 4)
    << stg(2, 10, 8) << exitInst();
  auto v = k.run({1, 1, 1}, {100, 1, 1});
  for (uint32_t t = 0; t < 100; ++t) {
    EXPECT_EQ(v[3 * t], 34u) << t; // 0, 3, ..., 99
    EXPECT_EQ(v[3 * t + 1], 1u) << t;
    EXPECT_EQ(v[3 * t + 2], 2u) << t; // or(false) = 0, or(tid%3==0) = 1 << 1
  }
}

TEST(Control, IndirectBranchThroughAJumpTable) {
  // switch (tid % 4) through BRX with per-thread targets from LEAPC.
  PerThread k(2);
  Code &c = k.code;
  c << Inst(Opcode::LOP_I).rd(4).ra(0).imm(3).mod("fn", "AND")
    << Inst(Opcode::LEAPC).rd(5).target("case0") << Inst(Opcode::LEAPC).rd(6).target("case1")
    << Inst(Opcode::LEAPC).rd(7).target("case2") << Inst(Opcode::LEAPC).rd(8).target("case3")
    << isetpI(0, 4, 1, "EQ") << Inst(Opcode::SEL).rd(5).ra(6).rb(5).pc(0) << isetpI(0, 4, 2, "EQ")
    << Inst(Opcode::SEL).rd(5).ra(7).rb(5).pc(0) << isetpI(0, 4, 3, "EQ")
    << Inst(Opcode::SEL).rd(5).ra(8).rb(5).pc(0) << bssy(0, "join") << Inst(Opcode::BRX).ra(5);
  for (int i = 0; i < 4; ++i) {
    c.label("case" + std::to_string(i));
    c << mov32(10, 10 + i) << bra("join");
  }
  c.label("join");
  c << bsync(0) << activemask(11) << stg(2, 10, 0, "B64") << exitInst();
  auto v = k.run({1, 1, 1}, {32, 1, 1});
  for (uint32_t t = 0; t < 32; ++t) {
    EXPECT_EQ(v[2 * t], 10 + t % 4);
    EXPECT_EQ(v[2 * t + 1], 0xffffffffu);
  }
}

TEST(Control, CallsReturnsAndFunctionPointers) {
  // double(x) and triple(x) as subroutines returning through R30; a direct CALL from divergent
  // code and a CALLR through per-thread function pointers.
  PerThread k(2);
  Code &c = k.code;
  c << Inst(Opcode::MOV).rd(4).ra(0) << bssy(0, "after_direct") << isetpI(0, 0, 8, "LT", true)
    << bra("after_direct").guard(0, true) << Inst(Opcode::CALL).rd(30).target("double");
  c.label("after_direct");
  c << bsync(0) << Inst(Opcode::MOV).rd(8).ra(4) << Inst(Opcode::MOV).rd(4).ra(0)
    << Inst(Opcode::LEAPC).rd(5).target("double") << Inst(Opcode::LEAPC).rd(6).target("triple");
  emitTestBits(c, 1, 0, 1, 1, 7);
  c << Inst(Opcode::SEL).rd(5).ra(6).rb(5).pc(1) << bssy(1, "after_ptr")
    << Inst(Opcode::CALLR).rd(30).ra(5);
  c.label("after_ptr");
  c << bsync(1) << Inst(Opcode::MOV).rd(9).ra(4) << stg(2, 8, 0, "B64") << exitInst();
  c.label("double");
  c << Inst(Opcode::IADD).rd(4).ra(4).rb(4) << Inst(Opcode::RET).ra(30);
  c.label("triple");
  c << mov32(7, 3) << Inst(Opcode::IMUL).rd(4).ra(4).rb(7) << Inst(Opcode::RET).ra(30);
  auto v = k.run({1, 1, 1}, {32, 1, 1});
  for (uint32_t t = 0; t < 32; ++t) {
    EXPECT_EQ(v[2 * t], t < 8 ? 2 * t : t) << t;
    EXPECT_EQ(v[2 * t + 1], t % 2 ? 3 * t : 2 * t) << t;
  }
}

TEST(Control, BarrierRegisterSpillAndRestore) {
  // B2R saves B0; R2B restores it into B5 after B0 was reused; BSYNC B5 then reconverges.
  PerThread k(2);
  Code &c = k.code;
  c << bssy(0, "x") << Inst(Opcode::B2R).rd(10).bar(0) << bssy(0, "x") << isetpI(0, 1, 5, "LT")
    << Inst(Opcode::R2B).bar(5).ra(10) << bra("skip").guard(0) << mov32(11, 1);
  c.label("skip");
  c.label("x");
  c << bsync(5) << activemask(11) << stg(2, 10, 0, "B64") << exitInst();
  auto v = k.run({1, 1, 1}, {32, 1, 1});
  for (uint32_t t = 0; t < 32; ++t) {
    EXPECT_EQ(v[2 * t], 0xffffffffu);
    EXPECT_EQ(v[2 * t + 1], 0xffffffffu);
  }
}

TEST(WarpSync, ReconvergesDivergedHalves) {
  PerThread k(2);
  Code &c = k.code;
  c << isetpI(0, 1, 16, "LT", true) << bra("high").guard(0, true) << mov32(4, 1)
    << Inst(Opcode::WARPSYNC).ra(kZ).imm(0xffffffff) << bra("done");
  c.label("high");
  c << mov32(4, 2) << Inst(Opcode::WARPSYNC).ra(kZ).imm(0xffffffff);
  c.label("done");
  c << activemask(5) << stg(2, 4, 0, "B64") << exitInst();
  auto v = k.run({1, 1, 1}, {32, 1, 1});
  for (uint32_t t = 0; t < 32; ++t) {
    EXPECT_EQ(v[2 * t], t < 16 ? 1u : 2u);
    EXPECT_EQ(v[2 * t + 1], t < 16 ? 0xffffu : 0xffff0000u) // after WARPSYNC each half goes on
        << t;                                               // at its own pc
  }
}

TEST(WarpSync, PartialMasksAndExitedThreads) {
  // Lanes 0-7 exit; the others WARPSYNC with the full mask and are not held by the exited lanes.
  PerThread k(1);
  Code &c = k.code;
  c << isetpI(0, 1, 8, "LT", true) << exitInst().guard(0)
    << Inst(Opcode::WARPSYNC).ra(kZ).imm(0xffffffff) << activemask(4) << stg(2, 4) << exitInst();
  auto v = k.run({1, 1, 1}, {32, 1, 1});
  for (uint32_t t = 8; t < 32; ++t)
    EXPECT_EQ(v[t], 0xffffff00u);
}

TEST(WarpOps, VoteOverTheActiveGroup) {
  // In the group of lanes >= 4, vote on "lane is odd" and on "lane > 2".
  PerThread k(4);
  Code &c = k.code;
  emitTestBits(c, 0, 1, 1, 1, 5);
  c << isetpI(1, 1, 2, "GT", true) << isetpI(2, 1, 4, "LT", true) << bra("out").guard(2)
    << Inst(Opcode::VOTE).rd(4).pd(3).pa(0).mod("fn", "ANY") << Inst(Opcode::P2R).rd(5).pa(3)
    << Inst(Opcode::VOTE).rd(kZ).pd(3).pa(0).mod("fn", "ALL") << Inst(Opcode::P2R).rd(6).pa(3)
    << Inst(Opcode::VOTE).rd(kZ).pd(3).pa(1).mod("fn", "ALL") << Inst(Opcode::P2R).rd(7).pa(3)
    << Inst(Opcode::VOTE).rd(kZ).pd(3).pa(1).mod("fn", "UNI") << Inst(Opcode::P2R).rd(8).pa(3)
    << Inst(Opcode::VOTE).rd(kZ).pd(3).pa(0).mod("fn", "UNI") << Inst(Opcode::P2R).rd(9).pa(3)
    << Inst(Opcode::SHL_I).rd(8).ra(8).imm(1) << Inst(Opcode::IADD).rd(7).ra(7).rb(8)
    << Inst(Opcode::SHL_I).rd(9).ra(9).imm(2) << Inst(Opcode::IADD).rd(7).ra(7).rb(9)
    << stg(2, 4, 0, "B128");
  c.label("out");
  c << exitInst();
  auto v = k.run({1, 1, 1}, {32, 1, 1});
  for (uint32_t t = 4; t < 32; ++t) {
    EXPECT_EQ(v[4 * t], 0xaaaaaaa0u) << t;
    EXPECT_EQ(v[4 * t + 1], 1u);
    EXPECT_EQ(v[4 * t + 2], 0u);
    EXPECT_EQ(v[4 * t + 3], 1u + 2u); // all lanes > 2 and uniform; odd is not uniform
  }
}

uint32_t shflRef(const char *mode, uint32_t lane, uint32_t b, uint32_t width,
                 const std::vector<uint32_t> &vals, bool &valid) {
  uint32_t segStart = lane & ~(width - 1), segEnd = segStart + width - 1;
  int64_t j;
  std::string_view m = mode;
  if (m == "IDX") {
    j = segStart + (b % width);
    valid = true;
  } else if (m == "UP") {
    j = int64_t(lane) - b;
    valid = j >= int64_t(segStart);
  } else if (m == "DOWN") {
    j = int64_t(lane) + b;
    valid = j <= int64_t(segEnd);
  } else {
    j = lane ^ b;
    valid = j <= int64_t(segEnd);
  }
  return valid ? vals[size_t(j)] : vals[lane];
}

TEST(WarpOps, ShuffleAllModesAndWidths) {
  for (const char *mode : {"IDX", "UP", "DOWN", "BFLY"})
    for (uint32_t width : {32u, 16u, 8u, 4u})
      for (uint32_t b : {0u, 1u, 3u, 5u, 17u}) {
        PerThread k(2);
        Code &c = k.code;
        bool up = std::string_view(mode) == "UP";
        uint32_t cval = ((32 - width) << 8) | (up ? 0 : 31);
        c << Inst(Opcode::IMUL_I).rd(4).ra(1).imm(7) << iaddI(4, 4, 100) << mov32(5, b)
          << mov32(6, cval) << Inst(Opcode::SHFL).rd(8).ra(4).rb(5).rc(6).pd(0).mod("fn", mode)
          << Inst(Opcode::P2R).rd(9).pa(0) << stg(2, 8, 0, "B64") << exitInst();
        auto v = k.run({1, 1, 1}, {32, 1, 1});
        std::vector<uint32_t> vals(32);
        for (uint32_t l = 0; l < 32; ++l)
          vals[l] = l * 7 + 100;
        for (uint32_t l = 0; l < 32; ++l) {
          bool valid;
          uint32_t expect = shflRef(mode, l, b, width, vals, valid);
          ASSERT_EQ(v[2 * l], expect) << mode << " width " << width << " b " << b << " lane " << l;
          ASSERT_EQ(v[2 * l + 1], uint32_t(valid)) << mode << " width " << width << " b " << b;
        }
      }
}

TEST(WarpOps, ShuffleReadsInactiveSourceLanes) {
  // Only even lanes shuffle down by one: the odd source lanes are inactive; their register value
  // is returned anyway (PTX leaves it undefined; Warpforge defines it).
  PerThread k(1);
  Code &c = k.code;
  c << iaddI(4, 1, 500) << mov32(5, 1) << mov32(6, 31);
  emitTestBits(c, 0, 1, 1, 0, 7);
  c << bra("out").guard(0, true)
    << Inst(Opcode::SHFL).rd(8).ra(4).rb(5).rc(6).pd(1).mod("fn", "DOWN") << stg(2, 8);
  c.label("out");
  c << exitInst();
  auto v = k.run({1, 1, 1}, {32, 1, 1});
  for (uint32_t l = 0; l < 32; l += 2)
    EXPECT_EQ(v[l], 501 + l);
}

TEST(WarpOps, MatchAnyAndAll) {
  for (unsigned wide : {0u, 1u}) {
    PerThread k(4);
    Code &c = k.code;
    // key = lane % 3 (low word), high word = lane % 2 for the 64-bit form.
    c << mov32(5, 3) << Inst(Opcode::IREM).rd(4).ra(1).rb(5).mod("ty", "U32")
      << Inst(Opcode::LOP_I).rd(5).ra(1).imm(1).mod("fn", "AND")
      << Inst(Opcode::MATCH).rd(8).ra(4).pd(0).mod("fn", "ANY").mod("ty", wide) << mov32(6, 9)
      << mov32(7, 9) << Inst(Opcode::MATCH).rd(9).ra(6).pd(1).mod("fn", "ALL").mod("ty", wide)
      << Inst(Opcode::MATCH).rd(10).ra(4).pd(2).mod("fn", "ALL").mod("ty", wide)
      << Inst(Opcode::P2R).rd(11).pa(1) << Inst(Opcode::P2R).rd(12).pa(2)
      << Inst(Opcode::SHL_I).rd(12).ra(12).imm(1) << Inst(Opcode::IADD).rd(11).ra(11).rb(12)
      << stg(2, 8, 0, "B128") << exitInst();
    auto v = k.run({1, 1, 1}, {32, 1, 1});
    for (uint32_t l = 0; l < 32; ++l) {
      uint32_t expect = 0;
      for (uint32_t m = 0; m < 32; ++m)
        if (m % 3 == l % 3 && (!wide || m % 2 == l % 2))
          expect |= 1u << m;
      EXPECT_EQ(v[4 * l], expect) << wide << " " << l;
      EXPECT_EQ(v[4 * l + 1], 0xffffffffu);
      EXPECT_EQ(v[4 * l + 2], 0u);
      EXPECT_EQ(v[4 * l + 3], 1u);
    }
  }
}

TEST(WarpOps, ReduxAllOperations) {
  const char *ops[] = {"ADD", "MIN", "MAX", "UMIN", "UMAX", "AND", "OR", "XOR"};
  PerThread k(8);
  Code &c = k.code;
  // value = lane * 0x01000193 - 77 (a mix of signs); lanes >= 20 do not take part.
  c << Inst(Opcode::IMUL_I).rd(4).ra(1).imm(0x01000193) << iaddI(4, 4, uint32_t(-77))
    << isetpI(0, 1, 20, "GE", true) << bra("out").guard(0);
  for (unsigned i = 0; i < 8; ++i)
    c << Inst(Opcode::REDUX).rd(8 + i).ra(4).mod("fn", ops[i]);
  c << stg(2, 8, 0, "B128") << stg(2, 12, 16, "B128");
  c.label("out");
  c << exitInst();
  auto v = k.run({1, 1, 1}, {32, 1, 1});
  uint32_t add = 0, umin = ~0u, umax = 0, band = ~0u, bor = 0, bxor = 0;
  int32_t smin = INT32_MAX, smax = INT32_MIN;
  for (uint32_t l = 0; l < 20; ++l) {
    uint32_t x = l * 0x01000193u - 77;
    add += x;
    umin = std::min(umin, x);
    umax = std::max(umax, x);
    smin = std::min(smin, int32_t(x));
    smax = std::max(smax, int32_t(x));
    band &= x;
    bor |= x;
    bxor ^= x;
  }
  uint32_t expect[8] = {add, uint32_t(smin), uint32_t(smax), umin, umax, band, bor, bxor};
  for (uint32_t l = 0; l < 20; ++l)
    for (unsigned i = 0; i < 8; ++i)
      EXPECT_EQ(v[8 * l + i], expect[i]) << ops[i];
}

TEST(Control, MembarAndNanosleep) {
  // NANOSLEEP 2000 ns at 100 MHz (tiny) is at least 200 cycles between the two clock reads.
  PerThread k(2);
  Code &c = k.code;
  c << s2r(4, SReg::CLOCK) << Inst(Opcode::MEMBAR).mod("scope", "GPU")
    << Inst(Opcode::NANOSLEEP).ra(kZ).imm(2000) << s2r(5, SReg::CLOCK)
    << Inst(Opcode::IADD).rd(5).ra(5).rb(4).mod("invb", 1) << stg(2, 4, 0, "B64") << exitInst();
  auto v = k.run({1, 1, 1}, {32, 1, 1});
  EXPECT_GE(v[1], 200u);
  EXPECT_LT(v[1], 400u);
}

TEST(Grids, OneTwoAndThreeDimensionsWithPartialWarps) {
  for (auto [grid, block] : std::vector<std::pair<Dim3, Dim3>>{
           {{7, 1, 1}, {33, 1, 1}}, {{3, 4, 1}, {5, 7, 1}}, {{2, 3, 2}, {3, 4, 5}}}) {
    Harness h("default");
    uint64_t total = grid.count() * block.count();
    // linear = ((ctaid.z * nctaid.y + ctaid.y) * nctaid.x + ctaid.x) * nthreads + tid linear.
    Code c;
    c << s2r(4, SReg::TID_X) << s2r(5, SReg::TID_Y) << s2r(6, SReg::TID_Z) << s2r(7, SReg::NTID_X)
      << s2r(8, SReg::NTID_Y) << s2r(9, SReg::NTID_Z) << s2r(10, SReg::CTAID_X)
      << s2r(11, SReg::CTAID_Y) << s2r(12, SReg::CTAID_Z) << s2r(13, SReg::NCTAID_X)
      << s2r(14, SReg::NCTAID_Y) << Inst(Opcode::IMAD).rd(15).ra(6).rb(8).rc(5)
      << Inst(Opcode::IMAD).rd(15).ra(15).rb(7).rc(4)
      << Inst(Opcode::IMAD).rd(16).ra(12).rb(14).rc(11)
      << Inst(Opcode::IMAD).rd(16).ra(16).rb(13).rc(10) << Inst(Opcode::IMUL).rd(17).ra(7).rb(8)
      << Inst(Opcode::IMUL).rd(17).ra(17).rb(9) << Inst(Opcode::IMAD).rd(0).ra(16).rb(17).rc(15);
    emitElementAddress(c, 2, 0, 0, 4, 1);
    c << Inst(Opcode::ATOM).rd(kZ).ra(2).rb(0).mod("fn", "ADD") // += linear, once per thread
      << exitInst();
    std::vector<uint32_t> ones(total, 1);
    uint64_t base = h.upload(ones);
    auto r = h.run(c, grid, block, Params().u64(base));
    ASSERT_FALSE(r.fault) << r.fault->describe();
    auto v = h.download<uint32_t>(base, total);
    for (uint64_t i = 0; i < total; ++i)
      ASSERT_EQ(v[i], uint32_t(i + 1)) << i;
  }
}

TEST(SpecialRegisters, EveryRegister) {
  Harness h("default");
  const isa::Config &cfg = h.dev.config();
  const uint32_t blocks = 6, threads = 40;
  uint64_t out = h.alloc(blocks * threads * 32 * 4);
  Code c;
  emitGlobalIndex(c, 0);
  emitElementAddress(c, 2, 0, 0, 32 * 4, 1);
  for (unsigned s = 0; s < isa::kNumSRegs; ++s) {
    bool wide = isa::kSRegs[s].width == 64;
    c << s2r(4, SReg(s)) << stg(2, 4, s * 4);
    if (wide)
      c << stg(2, 5, s * 4 + 4);
  }
  c << exitInst();
  auto desc = h.describe(c, {blocks, 1, 1}, {threads, 1, 1}, Params().u64(out));
  desc.sharedStatic = 100;
  desc.sharedDynamic = 28;
  desc.localBytes = 64;
  desc.rtbuf = 0x123456789ull;
  desc.gridId = 42;
  auto r = h.dev.launch(desc);
  ASSERT_FALSE(r.fault) << r.fault->describe();
  auto v = h.download<uint32_t>(out, blocks * threads * 32);
  for (uint32_t b = 0; b < blocks; ++b)
    for (uint32_t t = 0; t < threads; ++t) {
      const uint32_t *s = &v[(b * threads + t) * 32];
      uint32_t lane = t % 32;
      auto at = [&](SReg r) { return s[unsigned(r)]; };
      EXPECT_EQ(at(SReg::TID_X), t);
      EXPECT_EQ(at(SReg::TID_Y), 0u);
      EXPECT_EQ(at(SReg::TID_Z), 0u);
      EXPECT_EQ(at(SReg::NTID_X), threads);
      EXPECT_EQ(at(SReg::NTID_Y), 1u);
      EXPECT_EQ(at(SReg::NTID_Z), 1u);
      EXPECT_EQ(at(SReg::CTAID_X), b);
      EXPECT_EQ(at(SReg::CTAID_Y), 0u);
      EXPECT_EQ(at(SReg::NCTAID_X), blocks);
      EXPECT_EQ(at(SReg::NCTAID_Z), 1u);
      EXPECT_EQ(at(SReg::LANEID), lane);
      EXPECT_LT(at(SReg::WARPID), cfg.warpsPerCore);
      EXPECT_EQ(at(SReg::NWARPID), cfg.warpsPerCore);
      EXPECT_EQ(at(SReg::SMID), b % cfg.cores); // blocks are dealt to cores round-robin
      EXPECT_EQ(at(SReg::NSMID), cfg.cores);
      EXPECT_EQ(at(SReg::GRIDID), 42u); // 64-bit: low word here, the high word overwritten next
      EXPECT_EQ(at(SReg::LANEMASK_EQ), 1u << lane);
      EXPECT_EQ(at(SReg::LANEMASK_LT), (1u << lane) - 1);
      EXPECT_EQ(at(SReg::LANEMASK_LE), uint32_t((2ull << lane) - 1));
      EXPECT_EQ(at(SReg::LANEMASK_GT), ~uint32_t((2ull << lane) - 1));
      EXPECT_EQ(at(SReg::LANEMASK_GE), ~((1u << lane) - 1));
      EXPECT_EQ(at(SReg::DYNSMEM), 28u);
      EXPECT_EQ(at(SReg::TOTALSMEM), 128u);
      EXPECT_EQ(at(SReg::ACTIVEMASK), t < 32 ? 0xffffffffu : 0xffu);
      EXPECT_EQ(at(SReg::LOCALSIZE), 64u);
      EXPECT_EQ(s[unsigned(SReg::RTBUF)], 0x23456789u);
      EXPECT_EQ(s[unsigned(SReg::RTBUF) + 1], 0x1u);
      // Clocks: CLOCK64 follows CLOCK; GLOBALTIMER is the same counter in ns at clockMhz.
      uint32_t clock = at(SReg::CLOCK), clock64 = at(SReg::CLOCK64);
      EXPECT_GT(clock64, clock);
      uint32_t timer = at(SReg::GLOBALTIMER);
      EXPECT_GE(uint64_t(timer), uint64_t(clock64) * 1000 / cfg.clockMhz);
    }
}

} // namespace
} // namespace wf::test

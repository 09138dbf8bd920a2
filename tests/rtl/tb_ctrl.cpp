// wf_ctrl against hls::CtrlUnit (hls/convergence.h), cycle by cycle. The bench plays the rest of
// the core: it admits warps (start_i) with full or partial lane masks, and for warps that have a
// group (as hls says) it sends random CTRL instructions (BRA, CALL, BRX, RET, CALLR (their
// per-lane targets over every pass), EXIT, BSSY, BSYNC, B2R, R2B, TRAP, BPT, MEMBAR, NANOSLEEP,
// BAR SYNC/ARRIVE/RED with ids, counts and now and then a bad id, WARPSYNC with per-lane masks,
// both over the passes);
// warps are admitted by blocks (block slot b: warps 2b, 2b + 1), and the block deadlock fault
// is compared like the others;
// the link, B2R and BAR.RED results (random predicates) leave through the return path against a
// random ret_ready_i) at pcs near the group's pc, with random guards and branch targets in a small
// code segment (so lanes meet at common pcs, barriers complete, loops yield: the yield limit is
// WF_YIELD back edges), at most one unresolved instruction at a time. Warps that end up idle
// (finished, or all lanes waiting) are admitted again later. Every cycle the redirect, each
// warp's group, has-group, idle and done bits, resolve_o and the fault fields must agree with
// hls. --vectors cycles; directed cases first (a divergent if/else joined at a BSYNC).
#include "Vtb_ctrl_top.h"
#include "common/tb_util.h"
#include "warpforge/hls/convergence.h"
#include "warpforge/isa/device.gen.h"
#include "warpforge/isa/isa.gen.h"

#include <array>
#include <bit>
#include <cstdio>
#include <vector>

namespace {

using wf::rtl::SimExtension;
using namespace wf::rtl::tb;
namespace hls = wf::hls;
namespace isa = wf::isa;

constexpr unsigned kWarps = WF_WARPS;
constexpr uint32_t kYield = WF_YIELD;
constexpr uint32_t kCodeInsts = 16;
constexpr uint32_t kCodeBytes = kCodeInsts * isa::kInstBytes;
constexpr unsigned kLanes = WF_LANES;
constexpr unsigned kPasses = 32 / kLanes;
constexpr unsigned kBlocks = 4;        ///< block slot b holds warps 2b and 2b + 1
constexpr unsigned kWarpsPerBlock = kWarps / kBlocks;

struct Inst {
  isa::Opcode op;
  hls::CtrlKind kind;
};

constexpr Inst kInsts[] = {
    {isa::Opcode::BRA, hls::CtrlKind::Bra},       {isa::Opcode::BRA, hls::CtrlKind::Bra},
    {isa::Opcode::BRA, hls::CtrlKind::Bra},       {isa::Opcode::CALL, hls::CtrlKind::Call},
    {isa::Opcode::BRX, hls::CtrlKind::Indirect},  {isa::Opcode::RET, hls::CtrlKind::Indirect},
    {isa::Opcode::CALLR, hls::CtrlKind::Indirect}, {isa::Opcode::B2R, hls::CtrlKind::B2r},
    {isa::Opcode::R2B, hls::CtrlKind::R2b},
    {isa::Opcode::EXIT, hls::CtrlKind::Exit},     {isa::Opcode::BSSY, hls::CtrlKind::Bssy},
    {isa::Opcode::BSSY, hls::CtrlKind::Bssy},     {isa::Opcode::BSYNC, hls::CtrlKind::Bsync},
    {isa::Opcode::BSYNC, hls::CtrlKind::Bsync},   {isa::Opcode::BSYNC, hls::CtrlKind::Bsync},
    {isa::Opcode::MEMBAR, hls::CtrlKind::Other},  {isa::Opcode::NANOSLEEP, hls::CtrlKind::Other},
    {isa::Opcode::TRAP, hls::CtrlKind::Trap},     {isa::Opcode::BPT, hls::CtrlKind::Bpt},
    {isa::Opcode::BAR, hls::CtrlKind::Bar},       {isa::Opcode::BAR, hls::CtrlKind::Bar},
    {isa::Opcode::BAR, hls::CtrlKind::Bar},       {isa::Opcode::BAR, hls::CtrlKind::Bar},
    {isa::Opcode::WARPSYNC, hls::CtrlKind::Warpsync}, {isa::Opcode::WARPSYNC, hls::CtrlKind::Warpsync},
};

uint32_t deviceKind(hls::CtrlFaultKind k) {
  using F = isa::dev::Fault;
  switch (k) {
  case hls::CtrlFaultKind::BadJump:
    return uint32_t(F::IllegalInstruction);
  case hls::CtrlFaultKind::Trap:
    return uint32_t(F::Trap);
  case hls::CtrlFaultKind::Assert:
    return uint32_t(F::Assert);
  case hls::CtrlFaultKind::Breakpoint:
    return uint32_t(F::Breakpoint);
  case hls::CtrlFaultKind::BarrierRange:
    return uint32_t(F::IllegalInstruction);
  case hls::CtrlFaultKind::DeadlockBar:
  case hls::CtrlFaultKind::DeadlockWarpsync:
  case hls::CtrlFaultKind::DeadlockBsync:
  case hls::CtrlFaultKind::DeadlockBarrier:
    return uint32_t(F::BarrierDeadlock);
  case hls::CtrlFaultKind::None:
    break;
  }
  return uint32_t(F::None);
}

uint32_t deviceDetail(hls::CtrlFaultKind k) {
  using D = isa::dev::FaultDetail;
  switch (k) {
  case hls::CtrlFaultKind::BadJump:
    return uint32_t(D::BadJump);
  case hls::CtrlFaultKind::Trap:
    return uint32_t(D::TrapCode);
  case hls::CtrlFaultKind::Assert:
    return uint32_t(D::AssertRecord);
  case hls::CtrlFaultKind::Breakpoint:
    return uint32_t(D::BreakpointCode);
  case hls::CtrlFaultKind::BarrierRange:
    return uint32_t(D::BarrierOutOfRange);
  case hls::CtrlFaultKind::DeadlockBar:
    return uint32_t(D::DeadlockAtBar);
  case hls::CtrlFaultKind::DeadlockWarpsync:
    return uint32_t(D::DeadlockAtWarpsync);
  case hls::CtrlFaultKind::DeadlockBsync:
    return uint32_t(D::DeadlockAtBsync);
  case hls::CtrlFaultKind::DeadlockBarrier:
    return uint32_t(D::DeadlockAtBarrier);
  case hls::CtrlFaultKind::None:
    break;
  }
  return uint32_t(D::None);
}

class CtrlBench : public SimExtension {
public:
  CtrlBench(Vtb_ctrl_top &top, const wf::rtl::SimOptions &o)
      : top_(top), rng_(o.seed), cycles_left_(o.vectors), model_(kWarps, kYield, kPasses, kBlocks),
        lanes_(kWarps, 0), started_(kWarps, false), idle_for_(kWarps, 0) {}

  void on_reset() override { clear(); }

  void drive(uint64_t cycle) override {
    clear();
    start_ = 0;
    ret_ready_ = rng_.chance(70);
    if (passes_left_ > 0) {
      // The next pass of a register-reading instruction (its operand lanes), the last resolves.
      pass_index_++;
      pass_.last = --passes_left_ == 0;
      last_sent_ = cycle;
      driveTop();
      return;
    }
    pass_ = hls::CtrlPassIn{};
    pass_index_ = 0;
    if (cycles_left_ > 0)
      --cycles_left_;
    if (cycle == 0) {
      start_ = 1; // warp 0, all lanes, for the directed part
      lanes_[0] = ~0u;
      started_[0] = true;
    } else if (next_directed_ < kDirected.size()) {
      directedCycle(cycle);
    } else {
      randomCycle(cycle);
    }
    driveTop();
  }

  void driveTop() {
    top_.code_size_i = kCodeBytes;
    top_.start_i = start_;
    for (unsigned w = 0; w < kWarps; ++w)
      set_bits(top_.start_lanes_i, 32 * w, 32, lanes_[w]);
    top_.start_pc_i = entry_;
    top_.start_block_i = start_block_;
    top_.pass_valid_i = pass_.valid;
    top_.pass_warp_i = pass_.warp;
    top_.pass_last_i = pass_.last;
    top_.pass_pc_i = pass_.pc;
    top_.pass_exec_i = pass_.exec;
    top_.pass_op_i = op_;
    top_.pass_imm_i = pass_.imm;
    top_.pass_breg_i = pass_.breg;
    top_.pass_fn_i = uint8_t(pass_.barFn);
    top_.pass_bar_id_i = pass_.barId;
    top_.pass_pass_i = pass_index_;
    top_.pass_rd_i = pass_.rd;
    top_.pass_sb_i = pass_.sbReg;
    top_.ret_ready_i = ret_ready_;
    top_.pred_i = pass_.pred;
    for (unsigned l = 0; l < kLanes; ++l) {
      set_bits(top_.a_i, 32 * l, 32, pass_.targets[pass_index_ * kLanes + l]);
      set_bits(top_.b_i, 32 * l, 32, pass_.b[pass_index_ * kLanes + l]);
    }
  }

  void sample(uint64_t cycle) override {
    checkState(cycle);
    std::vector<uint32_t> yielded(kWarps);
    std::vector<bool> picking(kWarps);
    for (unsigned w = 0; w < kWarps; ++w) {
      yielded[w] = model_.warp(w).yielded;
      picking[w] = model_.picking(w);
    }
    std::vector<uint32_t> barWait(kWarps), wsWait(kWarps);
    for (unsigned w = 0; w < kWarps; ++w) {
      barWait[w] = model_.warp(w).barWait;
      wsWait[w] = model_.warp(w).warpsyncWait;
    }
    const hls::CtrlOut o =
        model_.step(pass_, start_, lanes_, entry_, kCodeBytes, ret_ready_, start_block_);
    for (unsigned w = 0; w < kWarps; ++w) {
      barReleased_ += std::popcount(barWait[w] & ~model_.warp(w).barWait);
      wsReleased_ += std::popcount(wsWait[w] & ~model_.warp(w).warpsyncWait);
    }
    check(cycle, "ret_valid_o", top_.ret_valid_o, o.ret);
    if (o.ret) {
      check(cycle, "ret_warp_o", top_.ret_warp_o, o.retWarp);
      check(cycle, "ret_pass_o", top_.ret_pass_o, o.retPass);
      check(cycle, "ret_rd_o", top_.ret_rd_o, o.retRd);
      check(cycle, "ret_last_o", top_.ret_last_o, o.retLast);
      check(cycle, "ret_sb_o", top_.ret_sb_o, o.retSb);
      check(cycle, "ret_lanes_o", top_.ret_lanes_o,
            (o.retLanes >> (o.retPass * kLanes)) & ((1u << kLanes) - 1));
      for (unsigned l = 0; l < kLanes; ++l)
        check(cycle, "ret_data_o", get_bits(top_.ret_data_o, 32 * l, 32), o.retValue, int(l));
      returns_ += ret_ready_;
    }
    check(cycle, "release_valid_o", top_.release_valid_o, o.release);
    if (o.release) {
      check(cycle, "release_warp_o", top_.release_warp_o, o.releaseWarp);
      check(cycle, "release_entry_o", top_.release_entry_o, o.releaseSb);
    }
    check(cycle, "redirect_valid_o", top_.redirect_valid_o, o.redirect);
    if (o.redirect) {
      check(cycle, "redirect_warp_o", top_.redirect_warp_o, o.redirectWarp);
      check(cycle, "redirect_pc_o", top_.redirect_pc_o, o.redirectPc);
      redirects_++;
    }
    check(cycle, "resolve_o", top_.resolve_o, resolving_);
    resolving_ = pass_.valid && pass_.last;
    const bool fault = o.fault != hls::CtrlFaultKind::None;
    check(cycle, "fault_valid_o", top_.fault_valid_o, fault);
    if (fault) {
      faults_++;
      deadlocks_ += deviceKind(o.fault) == uint32_t(isa::dev::Fault::BarrierDeadlock);
      check(cycle, "fault_kind_o", top_.fault_kind_o, deviceKind(o.fault));
      check(cycle, "fault_detail_o", top_.fault_detail_o, deviceDetail(o.fault));
      check(cycle, "fault_warp_o", top_.fault_warp_o, o.faultWarp);
      check(cycle, "fault_lane_o", top_.fault_lane_o, o.faultLane);
      check(cycle, "fault_pc_o", top_.fault_pc_o, o.faultPc * isa::kInstBytes);
      check(cycle, "fault_code_o", top_.fault_code_o, o.faultCode);
    }
    for (unsigned w = 0; w < kWarps; ++w) {
      picks_ += picking[w] && !model_.picking(w);
      yields_ += (model_.warp(w).yielded & ~yielded[w]) != 0;
    }
  }

  // The per-warp outputs are registered state: the model's state before this cycle's step.
  void checkState(uint64_t cycle) {
    for (unsigned w = 0; w < kWarps; ++w) {
      check(cycle, "has_group_o", get_bit(top_.has_group_o, w), model_.hasGroup(w), w);
      check(cycle, "group_o", get_bits(top_.group_o, 32 * w, 32), model_.warp(w).group, w);
      check(cycle, "idle_o", get_bit(top_.idle_o, w), model_.idle(w), w);
      check(cycle, "done_o", get_bit(top_.done_o, w), model_.done(w), w);
    }
  }

  bool finished() const override { return cycles_left_ == 0; }
  bool passed() const override {
    return errors_ == 0 && (cycles_left_ > 0 || next_directed_ == kDirected.size());
  }
  void report() const override {
    std::printf("tb_ctrl: %llu returned passes; directed steps %zu of %zu; %llu instructions, "
                "%llu redirects, %llu picks, %llu yields, %llu faults (%llu deadlock cycles), "
                "%llu BAR lanes released, %llu BAR.RED results, %llu WARPSYNC waiters released, %llu block admissions, "
                "%u mismatches\n",
                ull(returns_), next_directed_, kDirected.size(), ull(insts_), ull(redirects_),
                ull(picks_), ull(yields_), ull(faults_), ull(deadlocks_), ull(barReleased_), ull(model_.redResults()),
                ull(wsReleased_),
                ull(admits_), errors_);
  }

private:
  static unsigned long long ull(uint64_t v) { return static_cast<unsigned long long>(v); }

  void clear() {
    top_.start_i = 0;
    top_.pass_valid_i = 0;
  }

  // The directed part, warp 0 (pcs relative to the entry 0): if (lane < 16) A else B, joined at
  // a BSYNC; a loop whose half exits inside a BSSY region; a spin that yields to a waiting half.
  struct Step {
    isa::Opcode op;
    hls::CtrlKind kind;
    uint32_t pc, exec, target;
    unsigned breg;
  };
  static constexpr uint32_t kLo = 0x0000ffffu, kHi = 0xffff0000u, kAll = ~0u;
  static constexpr std::array<Step, 14> kDirected{{
      {isa::Opcode::BSSY, hls::CtrlKind::Bssy, 0, kAll, 0, 0},
      {isa::Opcode::BRA, hls::CtrlKind::Bra, 1, kLo, 4, 0},   // lanes 0-15 to 4; 16-31 on at 2
      {isa::Opcode::BRA, hls::CtrlKind::Bra, 3, kHi, 5, 0},   // B, then to the BSYNC
      {isa::Opcode::BSYNC, hls::CtrlKind::Bsync, 5, kHi, 0, 0}, // waits; the pick: lanes 0-15 at 4
      {isa::Opcode::BSYNC, hls::CtrlKind::Bsync, 5, kLo, 0, 0}, // completes: all at 6
      {isa::Opcode::BSSY, hls::CtrlKind::Bssy, 6, kAll, 0, 1},
      {isa::Opcode::BRA, hls::CtrlKind::Bra, 7, kHi, 10, 0},  // 16-31 to 10, 0-15 on at 8
      {isa::Opcode::EXIT, hls::CtrlKind::Exit, 8, kLo, 0, 0}, // 0-15 exit: the pick takes 16-31
      {isa::Opcode::BSYNC, hls::CtrlKind::Bsync, 10, kHi, 0, 1}, // B1's others exited: on at 11
      {isa::Opcode::BSSY, hls::CtrlKind::Bssy, 11, kHi, 0, 2},
      {isa::Opcode::BRA, hls::CtrlKind::Bra, 12, 0xff000000u, 14, 0}, // 16-23 on at 13
      {isa::Opcode::BSYNC, hls::CtrlKind::Bsync, 13, 0x00ff0000u, 0, 2}, // wait; 24-31 at 14
      {isa::Opcode::BRA, hls::CtrlKind::Bra, 14, 0xff000000u, 14, 0}, // spin: yields at kYield
      {isa::Opcode::BRA, hls::CtrlKind::Bra, 14, 0xff000000u, 14, 0},
  }};
  size_t next_directed_ = 0;
  unsigned spins_ = 0;

  void directedCycle(uint64_t cycle) {
    if (cycle < last_sent_ + 2 || !model_.hasGroup(0))
      return;
    const Step &st = kDirected[next_directed_];
    const uint32_t group = model_.warp(0).group;
    pass_.valid = true;
    pass_.warp = 0;
    pass_.kind = st.kind;
    pass_.fetchStop = isa::stopsFetch(st.op);
    pass_.pc = st.pc;
    pass_.exec = st.exec & group;
    pass_.imm = st.target * isa::kInstBytes;
    pass_.breg = st.breg;
    op_ = uint8_t(st.op);
    last_sent_ = cycle;
    insts_++;
    // The spin repeats until the group changes (it yielded and the pick ran).
    if (next_directed_ + 1 == kDirected.size() && (group & 0xff000000u) && spins_++ < 4 * kYield)
      return;
    next_directed_++;
  }

  void randomCycle(uint64_t cycle) {
    // Admission: a block slot whose warps were never started or have all been idle a while
    // (finished, or deadlocked), now and then; one block a cycle. Its last warp may be partial.
    for (unsigned w = 0; w < kWarps; ++w)
      idle_for_[w] = model_.idle(w) ? idle_for_[w] + 1 : 0;
    for (unsigned b = 0; b < kBlocks && !start_; ++b) {
      bool ready = true;
      for (unsigned i = 0; i < kWarpsPerBlock; ++i) {
        const unsigned w = b * kWarpsPerBlock + i;
        ready = ready && (!started_[w] || idle_for_[w] > 20);
      }
      if (!ready || !rng_.chance(5))
        continue;
      for (unsigned i = 0; i < kWarpsPerBlock; ++i) {
        const unsigned w = b * kWarpsPerBlock + i;
        start_ |= 1ull << w;
        lanes_[w] = i + 1 < kWarpsPerBlock || rng_.chance(70) ? ~0u : (rng_.u32() | 1u);
        started_[w] = true;
        idle_for_[w] = 0;
      }
      start_block_ = b;
      admits_++;
    }
    // A CTRL instruction: only when the previous one has resolved (sent two cycles ago or more).
    if (cycle < last_sent_ + 2 || model_.returning() || !rng_.chance(60))
      return;
    unsigned first = rng_.below(kWarps);
    for (unsigned i = 0; i < kWarps; ++i) {
      unsigned w = (first + i) % kWarps;
      if (!model_.hasGroup(w) || ((start_ >> w) & 1))
        continue;
      const Inst &in = kInsts[rng_.below(sizeof(kInsts) / sizeof(kInsts[0]))];
      const uint32_t group = model_.warp(w).group;
      pass_.valid = true;
      pass_.warp = w;
      pass_.kind = in.kind;
      pass_.fetchStop = isa::stopsFetch(in.op);
      pass_.last = true;
      pass_.pc = (model_.warp(w).groupPc + rng_.below(3)) % kCodeInsts;
      const unsigned g = rng_.below(10);
      pass_.exec = g < 5 ? group : g < 9 ? group & rng_.u32() : 0;
      if (in.kind == hls::CtrlKind::Exit && rng_.chance(50))
        pass_.exec &= rng_.u32(); // exits thin out slowly
      pass_.breg = rng_.below(3);
      pass_.link = in.op == isa::Opcode::CALL || in.op == isa::Opcode::CALLR;
      pass_.rd = uint8_t(rng_.below(256));
      pass_.sbReg = rng_.below(8);
      if (in.kind == hls::CtrlKind::Bra || in.kind == hls::CtrlKind::Call) {
        // Mostly a target in the code (backward loops included), now and then a bad one.
        pass_.imm = rng_.chance(2) ? (rng_.chance(50) ? kCodeBytes + 8 * rng_.below(4) : 4)
                    : rng_.chance(30) ? pass_.pc * isa::kInstBytes
                                      : rng_.below(kCodeInsts) * isa::kInstBytes;
      } else if (in.kind == hls::CtrlKind::Indirect) {
        // Per-lane targets among three pcs of the code (lanes meet), now and then a bad one;
        // the instruction takes every pass (its operand), the last one resolves.
        uint32_t pick[3];
        for (uint32_t &t : pick)
          t = rng_.below(kCodeInsts) * isa::kInstBytes;
        for (unsigned l = 0; l < 32; ++l)
          pass_.targets[l] = pick[rng_.below(3)];
        if (rng_.chance(3))
          pass_.targets[rng_.below(32)] = rng_.chance(50) ? kCodeBytes : 12;
        pass_.imm = 0;
        pass_.last = kPasses == 1;
        passes_left_ = kPasses - 1;
      } else if (in.kind == hls::CtrlKind::R2b) {
        for (unsigned l = 0; l < 32; ++l)
          pass_.targets[l] = rng_.chance(50) ? group : rng_.u32();
        pass_.last = kPasses == 1;
        passes_left_ = kPasses - 1;
      } else if (in.kind == hls::CtrlKind::Bar) {
        // ARRIVE now and then, else SYNC at even ids and RED (POPC/AND/OR, over a predicate
        // that is mostly all set or all clear, so AND and OR see both results) at odd ones (a
        // warp's SYNC at a barrier replaces its RED there, the emulator's rule: kept apart, the
        // RED results show); ids 0..2 (a + imm), now and then one out of range; count 0 (the
        // block) mostly, else 32..64 threads.
        pass_.barId = rng_.below(2);
        const uint32_t id = rng_.chance(2) ? 15 : rng_.below(2);
        const unsigned f = rng_.below(3);
        pass_.barFn = rng_.chance(20)               ? hls::BarFn::Arrive
                      : ((id + pass_.barId) & 1) == 0 ? hls::BarFn::Sync
                      : f == 0                        ? hls::BarFn::RedPopc
                      : f == 1                        ? hls::BarFn::RedAnd
                                                      : hls::BarFn::RedOr;
        const unsigned p = rng_.below(4);
        pass_.pred = p == 0 ? ~0u : p == 1 ? 0u : rng_.u32();
        const uint32_t count = rng_.chance(60) ? 0 : 32 + 16 * rng_.below(3);
        for (unsigned l = 0; l < 32; ++l) {
          pass_.targets[l] = rng_.chance(90) ? id : rng_.below(4);
          pass_.b[l] = rng_.chance(90) ? count : rng_.u32();
        }
        pass_.imm = 0;
        pass_.last = kPasses == 1;
        passes_left_ = kPasses - 1;
      } else if (in.kind == hls::CtrlKind::Warpsync) {
        // Masks (operand a | imm): every lane, the group, a random set or a lane's half.
        const unsigned m = rng_.below(4);
        const uint32_t mask = m == 0 ? ~0u : m == 1 ? group : m == 2 ? rng_.u32() : 0x0000ffffu;
        for (unsigned l = 0; l < 32; ++l)
          pass_.targets[l] = rng_.chance(85) ? mask : rng_.u32() & rng_.u32();
        pass_.imm = rng_.chance(20) ? (rng_.u32() & rng_.u32()) : 0;
        pass_.last = kPasses == 1;
        passes_left_ = kPasses - 1;
      } else if (in.kind == hls::CtrlKind::Trap || in.kind == hls::CtrlKind::Bpt) {
        if (!rng_.chance(5)) { // rare: a fault every few hundred instructions
          pass_.exec = 0;
        }
        pass_.imm = rng_.below(3);
      } else {
        pass_.imm = 0;
      }
      op_ = uint8_t(in.op);
      last_sent_ = cycle;
      insts_++;
      return;
    }
  }

  template <class A, class B>
  void check(uint64_t cycle, const char *what, A got, B want, int warp = -1) {
    if (uint64_t(got) == uint64_t(want))
      return;
    if (errors_++ >= 10)
      return;
    if (warp >= 0)
      std::fprintf(stderr, "cycle %llu: %s of warp %d is 0x%llx, hls says 0x%llx\n", ull(cycle),
                   what, warp, ull(uint64_t(got)), ull(uint64_t(want)));
    else
      std::fprintf(stderr, "cycle %llu: %s is 0x%llx, hls says 0x%llx\n", ull(cycle), what,
                   ull(uint64_t(got)), ull(uint64_t(want)));
  }

public:
  Vtb_ctrl_top &top_;
  Rng rng_;
  uint64_t cycles_left_;
  hls::CtrlUnit model_;
  std::vector<uint32_t> lanes_;
  std::vector<bool> started_;
  std::vector<unsigned> idle_for_;
  hls::CtrlPassIn pass_;
  uint8_t op_ = 0;
  bool ret_ready_ = true;
  uint64_t returns_ = 0;
  unsigned pass_index_ = 0, passes_left_ = 0;
  uint64_t start_ = 0;
  unsigned start_block_ = 0;
  uint64_t deadlocks_ = 0, barReleased_ = 0, wsReleased_ = 0;
  uint32_t entry_ = 0;
  bool resolving_ = false;
  uint64_t last_sent_ = 0;
  uint64_t insts_ = 0, redirects_ = 0, picks_ = 0, yields_ = 0, faults_ = 0, admits_ = 0;
  unsigned errors_ = 0;
};

} // namespace

int main(int argc, char **argv) {
  wf::rtl::SimCtrl<Vtb_ctrl_top> sim(argc, argv, "tb_ctrl");
  CtrlBench bench(sim.top(), sim.options());
  sim.add_extension(bench);
  sim.reset();
  return sim.run() ? 0 : 1;
}

//===- warpforge/hls/convergence.h - Per-thread pcs, convergence, CTRL timing -===//
//
// Part of Warpforge. The decisions of the core's CTRL unit (docs/microarchitecture.md,
// "Per-thread PCs and convergence"), written once:
//
//  - WarpConv and the functions below it: a warp's lane states and what each CTRL instruction
//    does to them, exactly the rules of docs/execution-model.md and docs/emulator.md
//    ("Divergence and reconvergence"), with the emulator's choices where those pages leave one
//    open. tests/hls/convergence_test.cpp checks them on hand-worked cases of those rules.
//  - CtrlUnit: the same transitions with the hardware's timing, one clock cycle at a time: an
//    instruction resolves in the cycle after its last pass reaches the unit, the convergence
//    pick is a pipeline of kPickLatency cycles that takes one warp a cycle, and one fetch redirect
//    leaves a cycle. rtl/core/wf_ctrl.sv is compared with it cycle by cycle
//    (tests/rtl/tb_ctrl.cpp).
//
// Pcs here are instruction indices (byte offset / 8), as in the RTL; `next` is pc + 1.
// Lane states (each lane is in exactly one): in the group, runnable (with its pc in `pc`),
// waiting at BSYNC b, waiting at WARPSYNC, waiting at a CTA barrier, exited (lanes that do not
// exist count as exited). Lanes outside the group keep their resume pc in `pc`.
//
//===----------------------------------------------------------------------===//

#ifndef WARPFORGE_HLS_CONVERGENCE_H
#define WARPFORGE_HLS_CONVERGENCE_H

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <vector>

namespace wf::hls {

inline constexpr unsigned kConvLanes = 32;
inline constexpr unsigned kConvBarriers = 16; ///< isa.toml's convergence barrier registers

struct WarpConv {
  uint32_t group = 0;   ///< lanes executing together (0: none; the warp waits or picks)
  uint32_t groupPc = 0; ///< their pc
  uint32_t runnable = 0;
  uint32_t exited = 0;
  uint32_t yielded = 0;      ///< runnable lanes that yielded: picked after the others
  uint32_t warpsyncWait = 0; ///< lanes waiting at WARPSYNC
  uint32_t barWait = 0;      ///< lanes waiting at a CTA barrier
  uint32_t backEdges = 0;    ///< backward branches the group took since it was picked
  std::array<uint32_t, kConvBarriers> conv{};       ///< convergence barrier masks (BSSY)
  std::array<uint32_t, kConvBarriers> bsyncWait{};  ///< lanes waiting at BSYNC b
  std::array<uint32_t, kConvBarriers> yieldedOut{}; ///< lanes that yielded out of b
  std::array<uint32_t, kConvLanes> pc{};            ///< resume pc of lanes outside the group
  std::array<uint32_t, kConvLanes> warpsyncMask{};  ///< the mask a WARPSYNC waiter waits for

  bool operator==(const WarpConv &) const = default;

  /// Some lane waits at BSYNC b.
  bool bsyncAny(unsigned b) const { return bsyncWait[b] != 0; }
};

namespace conv {

/// Lanes of `m` whose resume pc is `pc`.
inline uint32_t lanesAt(const WarpConv &w, uint32_t m, uint32_t pc) {
  uint32_t r = 0;
  for (unsigned l = 0; l < kConvLanes; ++l)
    if (((m >> l) & 1) && w.pc[l] == pc)
      r |= 1u << l;
  return r;
}

inline void setPc(WarpConv &w, uint32_t lanes, uint32_t pc) {
  for (unsigned l = 0; l < kConvLanes; ++l)
    if ((lanes >> l) & 1)
      w.pc[l] = pc;
}

/// A warp starts: `lanes` (the block's threads in it) form the group at `pc`; the others exited.
inline void start(WarpConv &w, uint32_t lanes, uint32_t pc) {
  w = WarpConv{};
  w.group = lanes;
  w.groupPc = pc;
  w.exited = ~lanes;
}

/// Releases the convergence barriers whose non-exited lanes all wait; returns the released lanes
/// (their pcs are the instruction after their BSYNC already). The caller makes them runnable.
inline uint32_t releaseCompleteBarriers(WarpConv &w) {
  uint32_t released = 0;
  for (unsigned b = 0; b < kConvBarriers; ++b) {
    if (!w.bsyncWait[b])
      continue;
    if ((w.conv[b] & ~w.exited & ~w.bsyncWait[b]) == 0) {
      released |= w.bsyncWait[b];
      w.bsyncWait[b] = 0;
    }
  }
  return released;
}

/// The largest set of WARPSYNC waiters of `waiters` in which every waiter's non-exited mask
/// lanes are all in the set (remove the waiters that cannot go until nothing changes); those stay
/// waiting, the set is returned. `rounds` counts the removal rounds (the RTL takes one a cycle).
inline uint32_t releaseWarpsync(WarpConv &w, uint32_t waiters, unsigned *rounds = nullptr) {
  uint32_t go = waiters;
  unsigned n = 0;
  for (bool changed = true; changed;) {
    changed = false;
    uint32_t keep = go;
    for (unsigned l = 0; l < kConvLanes; ++l)
      if (((go >> l) & 1) && (w.warpsyncMask[l] & ~w.exited & ~go))
        keep &= ~(1u << l);
    if (keep != go) {
      changed = true;
      ++n;
    }
    go = keep;
  }
  if (rounds)
    *rounds = n;
  w.warpsyncWait = waiters & ~go;
  return go;
}

/// The group `lanes`, about to resume at `resumePc`, yields: it leaves every convergence barrier
/// that has waiting lanes (releasing those that then complete) and becomes runnable with the
/// yielded flag.
inline void yieldGroup(WarpConv &w, uint32_t lanes, uint32_t resumePc) {
  for (unsigned b = 0; b < kConvBarriers; ++b) {
    if (!w.bsyncWait[b])
      continue;
    w.yieldedOut[b] |= w.conv[b] & lanes;
    w.conv[b] &= ~lanes;
  }
  setPc(w, lanes, resumePc);
  w.yielded |= lanes;
  w.runnable |= releaseCompleteBarriers(w) | lanes;
}

/// BRA / CALL (the jump; CALL's link write is a register write-back): `exec` = group AND guard.
/// A divergent branch keeps the side with the lower pc as the group. A group that took
/// `yieldLimit` backward branches while other lanes of the warp are runnable or wait at a BSYNC
/// yields (group becomes 0).
inline void branch(WarpConv &w, uint32_t exec, uint32_t pc, uint32_t target,
                   uint32_t yieldLimit) {
  const uint32_t next = pc + 1;
  if (!exec) {
    w.groupPc = next;
    return;
  }
  uint32_t mask = w.group;
  uint32_t to = next;
  const uint32_t fall = mask & ~exec;
  if (!fall) {
    to = target;
  } else if (target != next) {
    const uint32_t waitLanes = target < next ? fall : exec;
    setPc(w, waitLanes, target < next ? next : target);
    w.runnable |= waitLanes;
    mask &= ~waitLanes;
    to = std::min(target, next);
  }
  if (to <= pc && mask && ++w.backEdges >= yieldLimit) {
    uint32_t others = w.runnable;
    for (unsigned b = 0; b < kConvBarriers; ++b)
      others |= w.bsyncWait[b];
    if (others) {
      yieldGroup(w, mask, to);
      mask = 0;
    }
    w.backEdges = 0;
  }
  w.group = mask;
  w.groupPc = to;
}

/// BRX / CALLR / RET: each exec lane goes to its own target (`targets[lane]`), the other group
/// lanes to next; the lanes at the lowest pc stay the group, the others become runnable.
inline void indirect(WarpConv &w, uint32_t exec, uint32_t pc,
                     const std::array<uint32_t, kConvLanes> &targets) {
  const uint32_t next = pc + 1;
  if (!exec) {
    w.groupPc = next;
    return;
  }
  uint32_t lowest = std::numeric_limits<uint32_t>::max();
  for (unsigned l = 0; l < kConvLanes; ++l) {
    if (!((w.group >> l) & 1))
      continue;
    w.pc[l] = ((exec >> l) & 1) ? targets[l] : next;
    lowest = std::min(lowest, w.pc[l]);
  }
  const uint32_t group = lanesAt(w, w.group, lowest);
  w.runnable |= w.group & ~group;
  w.group = group;
  w.groupPc = lowest;
}

/// EXIT: the exec lanes end; they leave every convergence barrier, and the BSYNCs and WARPSYNCs
/// that waited only for them release (their lanes become runnable). CTA barriers are the block's.
inline void exit(WarpConv &w, uint32_t exec, uint32_t pc) {
  w.groupPc = pc + 1;
  if (!exec)
    return;
  w.exited |= exec;
  for (uint32_t &m : w.conv)
    m &= ~exec;
  uint32_t released = releaseCompleteBarriers(w);
  if (w.warpsyncWait)
    released |= releaseWarpsync(w, w.warpsyncWait);
  w.runnable |= released;
  w.group &= ~exec;
}

/// BSSY b: b = the exec lanes (which are members again if they had yielded out of b).
inline void bssy(WarpConv &w, uint32_t exec, uint32_t pc, unsigned b) {
  w.groupPc = pc + 1;
  if (!exec)
    return;
  w.conv[b] = exec;
  w.yieldedOut[b] &= ~exec;
}

/// BSYNC b. Lanes that yielded out of b pass once. It completes on arrival when every
/// non-exited lane of b is arriving or already waits: the earlier waiters at next join the group,
/// the others become runnable. Otherwise the arriving lanes wait (at next).
inline void bsync(WarpConv &w, uint32_t exec, uint32_t pc, unsigned b) {
  const uint32_t next = pc + 1;
  w.groupPc = next;
  if (!exec)
    return;
  const uint32_t arriving = exec & ~w.yieldedOut[b];
  w.yieldedOut[b] &= ~exec;
  if (!arriving)
    return;
  const uint32_t earlier = w.bsyncWait[b];
  const uint32_t missing = w.conv[b] & ~w.exited & ~arriving & ~earlier;
  if (missing == 0) {
    w.bsyncWait[b] = 0;
    const uint32_t join = lanesAt(w, earlier, next);
    w.runnable |= earlier & ~join;
    w.group |= join;
  } else {
    setPc(w, arriving, next);
    w.bsyncWait[b] = earlier | arriving;
    w.group &= ~arriving;
  }
}

/// WARPSYNC: each exec lane waits for `masks[lane]` (ra | imm). A group whose wanted lanes are all
/// in it, while no lane waits at WARPSYNC, goes on at once; otherwise the lanes wait and the
/// releasable set (releaseWarpsync) goes: its lanes at next join the group, others become
/// runnable.
inline void warpsync(WarpConv &w, uint32_t exec, uint32_t pc,
                     const std::array<uint32_t, kConvLanes> &masks) {
  const uint32_t next = pc + 1;
  w.groupPc = next;
  if (!exec)
    return;
  uint32_t wanted = 0;
  for (unsigned l = 0; l < kConvLanes; ++l)
    if ((exec >> l) & 1) {
      w.warpsyncMask[l] = masks[l];
      wanted |= masks[l];
    }
  if (w.warpsyncWait == 0 && (wanted & ~w.exited & ~exec) == 0)
    return;
  setPc(w, exec, next);
  const uint32_t released = releaseWarpsync(w, w.warpsyncWait | exec);
  const uint32_t join = lanesAt(w, released, next);
  w.runnable |= released & ~join & ~exec;
  w.group = (w.group & ~exec) | join;
}

/// The lanes a pick chooses among: the runnable lanes that did not yield, or, when only yielded
/// lanes are runnable, those (whose yielded flags are then cleared).
inline uint32_t pickCandidates(WarpConv &w) {
  uint32_t c = w.runnable & ~w.yielded;
  if (!c) {
    c = w.runnable;
    w.yielded = 0;
  }
  return c;
}

/// The lowest resume pc among `candidates` (they are not empty).
inline uint32_t lowestPc(const WarpConv &w, uint32_t candidates) {
  uint32_t lowest = std::numeric_limits<uint32_t>::max();
  for (unsigned l = 0; l < kConvLanes; ++l)
    if ((candidates >> l) & 1)
      lowest = std::min(lowest, w.pc[l]);
  return lowest;
}

/// The candidates at `lowest` become the group.
inline void formGroup(WarpConv &w, uint32_t candidates, uint32_t lowest) {
  const uint32_t lanes = lanesAt(w, candidates, lowest);
  w.runnable &= ~lanes;
  w.yielded &= ~lanes;
  w.group = lanes;
  w.groupPc = lowest;
  w.backEdges = 0;
}

/// The convergence pick at once (the emulator's order): false when no lane is runnable.
inline bool pick(WarpConv &w) {
  if (!w.runnable) {
    w.group = 0;
    return false;
  }
  const uint32_t c = pickCandidates(w);
  formGroup(w, c, lowestPc(w, c));
  return true;
}

} // namespace conv

// -------------------------------------------------------------------------------------------------
// The CTRL unit with the hardware's timing (docs/microarchitecture.md), one cycle per step().
//
//  - A pass reaches the unit in cycle t (from dispatch); the instruction resolves in t + 1 with
//    the warp state at the start of t + 1 (its effects are state at t + 2). A resolution whose
//    group goes on after a fetch-stop instruction redirects the warp's fetch in t + 1 (pc: the
//    group's next pc). Faults (a jump outside the code or misaligned, TRAP, BPT) are reported in
//    t + 1 and change nothing.
//  - The convergence pick: in each cycle the lowest warp slot that has no group, no pick in
//    flight and runnable lanes enters (its candidates are chosen and its lane pcs read); the
//    minimum tree takes the next five cycles (one level of 32 -> 1 a cycle); kPickLatency = 6
//    cycles after entry the candidates at the minimum become the group and the warp wants a
//    redirect. So a group that waits or exits when it resolves in t is replaced in t + 7 and its
//    warp fetches from t + 8 (docs/microarchitecture.md).
//  - Redirects: one a cycle. A resolution's redirect goes out in its cycle; otherwise the lowest
//    warp that wants one (a pick just formed, an earlier pick, an admitted warp) gets it.
//  - Admission (start): the warps' groups are set at the end of the cycle; each wants a redirect.
//  - Register results (CALL's and CALLR's link, B2R): a resolution that writes rd (whatever its
//    exec mask: the scoreboard entry needs its release) offers its P passes on the return path
//    from the next cycle, one a cycle while `retReady`; the last one taken releases the entry.
//    The value is the same for every lane (the return address, the barrier mask); the lanes
//    written are the exec lanes. No CTRL instruction reaches the unit while a return is pending.
//  - CTA barriers (per block slot: 16 of {in use, expected count, arrivals}; per warp and
//    barrier the arrived and waiting lanes): BAR resolves like the rest, in t + 1. Its arrival,
//    the completion check (count N: arrivals >= N; count 0: every warp of the block has each
//    lane arrived or exited) and the release (every waiting lane of the block becomes runnable;
//    the resolving warp's runnable lanes at next join its group, as the emulator does) all
//    happen in that cycle. An EXIT re-checks the count-0 barriers of its block in its own
//    resolution the same way. Admission clears the block slot's barriers and the started
//    warps' masks. BAR.RED also adds its exec lanes' predicate (`pred`) to the barrier's POPC
//    count, AND and OR, and each warp keeps its last SYNC/RED function, rd and scoreboard entry
//    per barrier (the emulator's rule). A release queues, for every warp of the block whose
//    waiting lanes came by RED, its result (POPC: the count; AND, OR: 0 or 1) for rd of those
//    lanes; the queued results leave through the return path after any return in progress, one
//    warp at a time in slot order, each taking its P passes; the last releases that warp's
//    scoreboard entry. A RED with no exec lane has no arrival: its entry is released by a
//    return with no lanes, as for CALL. The unit is busy (`returning`) while any is queued.
//  - WARPSYNC (masks: operand a | imm) and EXIT's re-check of the WARPSYNC waiters resolve in
//    the resolution's cycle with conv::warpsync / conv::exit: the release set's fixed point is
//    computed at once (the RTL unrolls its rounds), not one round a cycle.
//  - Block deadlock: in every cycle, from the state at its start, a block slot whose resident
//    warps are all idle while one has a lane that did not exit faults (BARRIER_DEADLOCK; the
//    lowest such warp's lowest non-exited lane, pc = its resume pc - 1), unless a resolution
//    faults in the same cycle; the lowest such block slot reports.
//  - A warp "has a group" for fetch and issue when its group is not empty and its redirect has
//    gone out. It is idle when it has no group, no runnable lane and no pick in flight; done when
//    every lane exited.
enum class CtrlKind : uint8_t {
  Other, ///< a CTRL instruction with no effect on the lane states here (MEMBAR, ...)
  Bra,
  Call,
  Indirect, ///< BRX, CALLR, RET: per-lane targets (the jump; CALLR's link write is not here)
  Exit,
  Bssy,
  Bsync,
  B2r, ///< rd = convergence barrier register breg (through the return path)
  R2b, ///< breg = operand a of the lowest exec lane
  Trap,
  Bpt,
  Warpsync, ///< each exec lane waits for (operand a | imm): conv::warpsync
  Bar, ///< BAR.SYNC/ARRIVE/RED: id = operand a + barId, count = operand b (lowest exec lane)
};

/// BAR's function (isa.toml's BarOp).
enum class BarFn : uint8_t { Sync = 0, Arrive = 1, RedPopc = 2, RedAnd = 3, RedOr = 4 };

inline constexpr unsigned kCtaBarriers = 16; ///< CTA barrier ids per block

struct CtrlPassIn {
  bool valid = false;
  unsigned warp = 0;
  CtrlKind kind = CtrlKind::Other;
  bool fetchStop = false; ///< isa.toml's fetch_stop of the opcode
  bool last = true;
  uint32_t pc = 0;        ///< instruction index
  uint32_t exec = 0;      ///< group AND guard
  uint32_t imm = 0;       ///< BRA/CALL: target byte offset; TRAP/BPT: code
  unsigned breg = 0;
  bool link = false;   ///< CALL, CALLR: rd = the return address (byte offset of pc + 1)
  uint8_t rd = 0;      ///< destination of CALL, CALLR, B2R
  unsigned sbReg = 0;  ///< its scoreboard entry
  /// Operand a of every lane (Indirect: the target byte offsets; R2B; BAR: the id), complete at
  /// the last pass.
  std::array<uint32_t, kConvLanes> targets{};
  std::array<uint32_t, kConvLanes> b{}; ///< operand b of every lane (BAR: the count)
  BarFn barFn = BarFn::Sync;
  unsigned barId = 0; ///< BAR's immediate id
  uint32_t pred = 0;  ///< the predicate source's 32 lanes, negation applied (BAR.RED's pc)
};

inline bool isRed(BarFn f) { return f != BarFn::Sync && f != BarFn::Arrive; }

enum class CtrlFaultKind : uint8_t {
  None,
  BadJump,
  Trap,
  Assert,
  Breakpoint,
  BarrierRange,     ///< BAR id above 15 (code: the id)
  DeadlockBar,      ///< block deadlock; the reported lane waits at a CTA barrier
  DeadlockWarpsync, ///< ... at WARPSYNC
  DeadlockBsync,    ///< ... at BSYNC b (code: b)
  DeadlockBarrier,  ///< ... elsewhere
};

struct CtrlOut {
  bool redirect = false;
  unsigned redirectWarp = 0;
  uint32_t redirectPc = 0;
  CtrlFaultKind fault = CtrlFaultKind::None;
  unsigned faultWarp = 0;
  unsigned faultLane = 0;
  uint32_t faultPc = 0;
  uint32_t faultCode = 0; ///< TRAP/BPT code; BadJump: the target byte offset
  // The return path: one pass of a register write a cycle (offered until `retReady`).
  bool ret = false;
  unsigned retWarp = 0;
  unsigned retPass = 0;
  uint8_t retRd = 0;
  bool retLast = false;
  unsigned retSb = 0;
  uint32_t retLanes = 0; ///< the warp's lanes written (exec)
  uint32_t retValue = 0; ///< the same value for every lane
  /// The scoreboard release (RelCtrl): in the cycle the last pass is taken.
  bool release = false;
  unsigned releaseWarp = 0;
  unsigned releaseSb = 0;
};

class CtrlUnit {
public:
  static constexpr unsigned kPickLatency = 6; ///< cycles from entry to the group

  CtrlUnit(unsigned warps, uint32_t yieldLimit, unsigned passes = 1, unsigned blocks = 1)
      : warps_(warps), yieldLimit_(yieldLimit), passes_(passes), w_(warps), pend_(warps),
        picking_(warps), blocks_(blocks), bars_(blocks), blk_(warps, 0), resident_(warps, false),
        arrived_(warps), waiting_(warps), red_(warps), redRet_(warps) {}

  unsigned blockOf(unsigned i) const { return blk_[i]; }
  bool resident(unsigned i) const { return resident_[i]; }

  /// A register result is still to leave through the return path.
  /// Statistics: BAR.RED results queued for the return path (one per warp and release).
  uint64_t redResults() const { return redResults_; }

  bool returning() const {
    if (ret_.valid)
      return true;
    for (const Ret &r : redRet_)
      if (r.valid)
        return true;
    return false;
  }

  const WarpConv &warp(unsigned i) const { return w_[i]; }
  bool hasGroup(unsigned i) const { return w_[i].group != 0 && !pend_[i]; }
  bool picking(unsigned i) const { return picking_[i]; }
  bool idle(unsigned i) const { return !w_[i].group && !w_[i].runnable && !picking_[i]; }
  bool done(unsigned i) const { return w_[i].exited == ~0u; }

  /// One cycle. `start`: warps admitted this cycle (bit per slot) with their lanes and entry pc.
  /// `codeBytes`: the launch's code size.
  CtrlOut step(const CtrlPassIn &in, uint64_t start, const std::vector<uint32_t> &startLanes,
               uint32_t entryPc, uint32_t codeBytes, bool retReady = true,
               unsigned startBlock = 0) {
    CtrlOut out;
    auto barsNext = bars_;
    auto arrivedNext = arrived_;
    auto waitingNext = waiting_;
    auto redNext = red_;
    auto redRetNext = redRet_;
    // The return in progress, else the lowest warp with a queued BAR.RED result.
    Ret cur = ret_;
    for (unsigned v = 0; v < warps_ && !cur.valid; ++v)
      if (redRet_[v].valid) {
        cur = redRet_[v];
        redRetNext[v].valid = false;
      }
    Ret retNext = cur;
    if (cur.valid) {
      out.ret = true;
      out.retWarp = cur.warp;
      out.retPass = cur.pass;
      out.retRd = cur.rd;
      out.retLast = cur.pass + 1 == passes_;
      out.retSb = cur.sb;
      out.retLanes = cur.lanes;
      out.retValue = cur.value;
      if (retReady) {
        if (out.retLast) {
          out.release = true;
          out.releaseWarp = cur.warp;
          out.releaseSb = cur.sb;
          retNext.valid = false;
        } else {
          retNext.pass++;
        }
      }
    }
    std::vector<WarpConv> next = w_;
    std::vector<bool> pendNext = pend_, pickingNext = picking_;
    blkNext_ = blk_;
    residentNext_ = resident_;

    // Resolution of the pass registered last cycle.
    if (res_.valid && res_.last) {
      WarpConv &w = next[res_.warp];
      const uint32_t exec = res_.exec;
      const unsigned lane = exec ? unsigned(std::countr_zero(exec)) : 0;
      auto fault = [&](CtrlFaultKind k, uint32_t code) {
        out.fault = k;
        out.faultWarp = res_.warp;
        out.faultLane = lane;
        out.faultPc = res_.pc;
        out.faultCode = code;
      };
      switch (res_.kind) {
      case CtrlKind::Bra:
      case CtrlKind::Call:
        if (exec && (res_.imm % 8 != 0 || res_.imm >= codeBytes))
          fault(CtrlFaultKind::BadJump, res_.imm);
        else
          conv::branch(w, exec, res_.pc, res_.imm / 8, yieldLimit_);
        break;
      case CtrlKind::Indirect: {
        // The lowest exec lane with a target outside the code or misaligned faults.
        std::array<uint32_t, kConvLanes> to{};
        bool bad = false;
        for (unsigned l = 0; l < kConvLanes && !bad; ++l) {
          if (!((exec >> l) & 1))
            continue;
          const uint32_t t = res_.targets[l];
          if (t % 8 != 0 || t >= codeBytes) {
            fault(CtrlFaultKind::BadJump, t);
            out.faultLane = l;
            bad = true;
          }
          to[l] = t / 8;
        }
        if (!bad)
          conv::indirect(w, exec, res_.pc, to);
        break;
      }
      case CtrlKind::Exit:
        conv::exit(w, exec, res_.pc);
        break;
      case CtrlKind::Bssy:
        conv::bssy(w, exec, res_.pc, res_.breg);
        break;
      case CtrlKind::Bsync:
        conv::bsync(w, exec, res_.pc, res_.breg);
        break;
      case CtrlKind::B2r:
        w.groupPc = res_.pc + 1;
        break;
      case CtrlKind::R2b:
        if (exec)
          w.conv[res_.breg] = res_.targets[lane];
        w.groupPc = res_.pc + 1;
        break;
      case CtrlKind::Trap:
        if (exec)
          fault(res_.imm == 1 ? CtrlFaultKind::Assert : CtrlFaultKind::Trap, res_.imm);
        w.groupPc = res_.pc + 1;
        break;
      case CtrlKind::Bpt:
        if (exec)
          fault(CtrlFaultKind::Breakpoint, res_.imm);
        w.groupPc = res_.pc + 1;
        break;
      case CtrlKind::Other:
        w.groupPc = res_.pc + 1;
        break;
      case CtrlKind::Warpsync: {
        std::array<uint32_t, kConvLanes> masks{};
        for (unsigned l = 0; l < kConvLanes; ++l)
          masks[l] = res_.targets[l] | res_.imm;
        conv::warpsync(w, exec, res_.pc, masks);
        break;
      }
      case CtrlKind::Bar: {
        w.groupPc = res_.pc + 1;
        if (!exec)
          break;
        const uint32_t id = res_.targets[lane] + res_.barId;
        if (id >= kCtaBarriers) {
          fault(CtrlFaultKind::BarrierRange, id);
          break;
        }
        if (res_.barFn != BarFn::Arrive)
          redNext[res_.warp][id] = RedInfo{res_.barFn, res_.rd, res_.sbReg};
        arrive(next, barsNext, arrivedNext, waitingNext, redNext, redRetNext, res_.warp, exec,
               res_.barFn, id, res_.b[lane], res_.pc + 1, res_.pred);
        break;
      }
      }
      if (res_.kind == CtrlKind::Exit && exec)
        recheckCountZero(next, barsNext, arrivedNext, waitingNext, redNext, redRetNext,
                         blk_[res_.warp]);
      if (out.fault != CtrlFaultKind::None) {
        next[res_.warp] = w_[res_.warp];
        barsNext = bars_;
        arrivedNext = arrived_;
        waitingNext = waiting_;
        redNext = red_;
        for (unsigned v = 0; v < warps_; ++v)
          redRetNext[v].valid = redRetNext[v].valid && redRet_[v].valid;
      } else {
        if (res_.fetchStop && w.group) {
          out.redirect = true;
          out.redirectWarp = res_.warp;
          out.redirectPc = w.groupPc;
        }
        const bool redNoLanes = res_.kind == CtrlKind::Bar && isRed(res_.barFn) && !exec;
        if (res_.link || res_.kind == CtrlKind::B2r || redNoLanes) {
          retNext.valid = true;
          retNext.warp = res_.warp;
          retNext.pass = 0;
          retNext.rd = res_.rd;
          retNext.sb = res_.sbReg;
          retNext.lanes = exec;
          retNext.value = res_.link                   ? (res_.pc + 1) * 8
                          : res_.kind == CtrlKind::B2r ? w_[res_.warp].conv[res_.breg]
                                                       : 0;
        }
      }
    }

    // The pick's last stage forms the group.
    const Stage &last = stages_[kPickLatency - 1];
    if (last.valid) {
      conv::formGroup(next[last.warp], last.candidates, last.lowest);
      pickingNext[last.warp] = false;
      pendNext[last.warp] = true;
    }

    // A warp enters the pick (from the state at the start of the cycle).
    Stage entry;
    for (unsigned i = 0; i < warps_; ++i) {
      if (w_[i].group || picking_[i] || !w_[i].runnable)
        continue;
      entry.valid = true;
      entry.warp = i;
      entry.candidates = conv::pickCandidates(next[i]); // may clear the yielded flags
      entry.lowest = conv::lowestPc(w_[i], entry.candidates);
      pickingNext[i] = true;
      break;
    }

    // Block deadlock, from the state at the start of the cycle.
    if (out.fault == CtrlFaultKind::None)
      checkDeadlock(out);

    // Admission (one block a cycle: its slot's barriers clear).
    if (start)
      barsNext[startBlock] = {};
    for (unsigned i = 0; i < warps_; ++i) {
      if (!((start >> i) & 1))
        continue;
      blkNext_[i] = startBlock;
      residentNext_[i] = true;
      arrivedNext[i] = {};
      waitingNext[i] = {};
      conv::start(next[i], startLanes[i], entryPc);
      pendNext[i] = true;
      pickingNext[i] = false;
    }

    // One redirect a cycle: the resolution's, else the lowest warp wanting one (decided from
    // the wants at the start of the cycle plus a group formed in this cycle).
    if (!out.redirect) {
      for (unsigned i = 0; i < warps_; ++i) {
        const bool formed = last.valid && last.warp == i;
        if (!(pend_[i] || formed))
          continue;
        out.redirect = true;
        out.redirectWarp = i;
        out.redirectPc = formed ? last.lowest : w_[i].groupPc;
        pendNext[i] = false;
        break;
      }
    }
    // A redirect of a warp admitted in this same cycle is for its old state: keep the want.
    if (out.redirect && ((start >> out.redirectWarp) & 1))
      pendNext[out.redirectWarp] = true;

    for (unsigned s = kPickLatency - 1; s > 0; --s)
      stages_[s] = stages_[s - 1];
    stages_[0] = entry;
    res_ = in;
    ret_ = retNext;
    red_ = std::move(redNext);
    redRet_ = std::move(redRetNext);
    bars_ = std::move(barsNext);
    arrived_ = std::move(arrivedNext);
    waiting_ = std::move(waitingNext);
    blk_ = blkNext_;
    resident_ = residentNext_;
    w_ = std::move(next);
    pend_ = std::move(pendNext);
    picking_ = std::move(pickingNext);
    return out;
  }

private:
  struct CtaBar {
    bool inUse = false;
    uint32_t expected = 0;
    uint32_t arrivals = 0;
    uint32_t popc = 0; ///< RED arrivals with their predicate set
    bool all = true;   ///< every RED arrival's predicate set
    bool any = false;  ///< some RED arrival's predicate set
  };
  using BarRow = std::array<CtaBar, kCtaBarriers>;
  using MaskRow = std::array<uint32_t, kCtaBarriers>;
  /// Per warp and CTA barrier: the function, rd and scoreboard entry of its last SYNC/RED.
  struct RedInfo {
    BarFn fn = BarFn::Sync;
    uint8_t rd = 0;
    unsigned sb = 0;
  };
  using RedRow = std::array<RedInfo, kCtaBarriers>;

  struct Ret {
    bool valid = false;
    unsigned warp = 0, pass = 0, sb = 0;
    uint8_t rd = 0;
    uint32_t lanes = 0, value = 0;
  };

  /// Barrier `id` of block slot `b` is complete (state `ws`, `arr`).
  bool complete(const std::vector<WarpConv> &ws, const std::vector<BarRow> &bars,
                const std::vector<MaskRow> &arr, unsigned b, unsigned id) const {
    const CtaBar &bar = bars[b][id];
    if (bar.expected != 0)
      return bar.arrivals >= bar.expected;
    for (unsigned v = 0; v < warps_; ++v)
      if (resident_[v] && blk_[v] == b && (arr[v][id] | ws[v].exited) != ~0u)
        return false;
    return true;
  }

  /// Releases barrier `id` of block slot `b`: its waiting lanes become runnable; the warps whose
  /// waiting lanes came by RED get their result queued.
  void release(std::vector<WarpConv> &ws, std::vector<BarRow> &bars, std::vector<MaskRow> &arr,
               std::vector<MaskRow> &wait, const std::vector<RedRow> &red,
               std::vector<Ret> &redRet, unsigned b, unsigned id) const {
    const CtaBar &bar = bars[b][id];
    for (unsigned v = 0; v < warps_; ++v) {
      if (!resident_[v] || blk_[v] != b)
        continue;
      const RedInfo &ri = red[v][id];
      if (wait[v][id] && isRed(ri.fn)) {
        const uint32_t value = ri.fn == BarFn::RedPopc  ? bar.popc
                               : ri.fn == BarFn::RedAnd ? uint32_t(bar.all)
                                                        : uint32_t(bar.any);
        redRet[v] = Ret{true, v, 0, ri.sb, ri.rd, wait[v][id], value};
        ++redResults_;
      }
      ws[v].barWait &= ~wait[v][id];
      ws[v].runnable |= wait[v][id];
      wait[v][id] = 0;
      arr[v][id] = 0;
    }
    bars[b][id] = {};
  }

  void arrive(std::vector<WarpConv> &ws, std::vector<BarRow> &bars, std::vector<MaskRow> &arr,
              std::vector<MaskRow> &wait, const std::vector<RedRow> &red,
              std::vector<Ret> &redRet, unsigned warp, uint32_t exec, BarFn fn, unsigned id,
              uint32_t count, uint32_t next, uint32_t pred) const {
    const unsigned b = blk_[warp];
    CtaBar &bar = bars[b][id];
    if (!bar.inUse)
      bar = CtaBar{true, count, 0};
    if (isRed(fn)) {
      const uint32_t p = pred & exec;
      bar.popc += unsigned(std::popcount(p));
      bar.all = bar.all && p == exec;
      bar.any = bar.any || p != 0;
    }
    bar.arrivals += unsigned(std::popcount(exec));
    arr[warp][id] |= exec;
    WarpConv &w = ws[warp];
    if (fn != BarFn::Arrive) {
      wait[warp][id] |= exec;
      w.barWait |= exec;
      conv::setPc(w, exec, next);
    }
    const bool done = complete(ws, bars, arr, b, id);
    if (done)
      release(ws, bars, arr, wait, red, redRet, b, id);
    if (fn == BarFn::Arrive)
      return;
    if (done) {
      const uint32_t join = conv::lanesAt(w, w.runnable, next);
      w.runnable &= ~join;
      w.group |= join;
    } else {
      w.group &= ~exec;
    }
  }

  void recheckCountZero(std::vector<WarpConv> &ws, std::vector<BarRow> &bars,
                        std::vector<MaskRow> &arr, std::vector<MaskRow> &wait,
                        const std::vector<RedRow> &red, std::vector<Ret> &redRet,
                        unsigned b) const {
    for (unsigned id = 0; id < kCtaBarriers; ++id)
      if (bars[b][id].inUse && bars[b][id].expected == 0 && complete(ws, bars, arr, b, id))
        release(ws, bars, arr, wait, red, redRet, b, id);
  }

  void checkDeadlock(CtrlOut &out) const {
    for (unsigned b = 0; b < blocks_; ++b) {
      bool live = false, allIdle = true;
      int first = -1;
      for (unsigned v = 0; v < warps_; ++v) {
        if (!resident_[v] || blk_[v] != b)
          continue;
        allIdle = allIdle && idle(v);
        if (!done(v)) {
          live = true;
          if (first < 0)
            first = int(v);
        }
      }
      if (!live || !allIdle)
        continue;
      const WarpConv &w = w_[unsigned(first)];
      const unsigned lane = unsigned(std::countr_zero(~w.exited));
      out.fault = CtrlFaultKind::DeadlockBarrier;
      out.faultCode = 0;
      if ((w.barWait >> lane) & 1) {
        out.fault = CtrlFaultKind::DeadlockBar;
      } else if ((w.warpsyncWait >> lane) & 1) {
        out.fault = CtrlFaultKind::DeadlockWarpsync;
      } else {
        for (unsigned c = 0; c < kConvBarriers; ++c)
          if ((w.bsyncWait[c] >> lane) & 1) {
            out.fault = CtrlFaultKind::DeadlockBsync;
            out.faultCode = c;
          }
      }
      out.faultWarp = unsigned(first);
      out.faultLane = lane;
      out.faultPc = w.pc[lane] - 1;
      return;
    }
  }

  struct Stage {
    bool valid = false;
    unsigned warp = 0;
    uint32_t candidates = 0;
    uint32_t lowest = 0;
  };

  unsigned warps_;
  uint32_t yieldLimit_;
  unsigned passes_;
  Ret ret_;
  std::vector<WarpConv> w_;
  std::vector<bool> pend_;    ///< wants a fetch redirect
  std::vector<bool> picking_; ///< a pick is in flight
  std::array<Stage, kPickLatency> stages_{};
  CtrlPassIn res_;
  unsigned blocks_;
  std::vector<BarRow> bars_;      ///< per block slot
  std::vector<unsigned> blk_;     ///< each warp's block slot
  std::vector<bool> resident_;    ///< started since the launch
  std::vector<MaskRow> arrived_;  ///< per warp and CTA barrier: lanes arrived
  std::vector<MaskRow> waiting_;  ///< per warp and CTA barrier: lanes waiting
  std::vector<RedRow> red_;       ///< per warp and CTA barrier: its last SYNC/RED's function
  std::vector<Ret> redRet_;       ///< per warp: a queued BAR.RED result
  mutable uint64_t redResults_ = 0;
  std::vector<unsigned> blkNext_;
  std::vector<bool> residentNext_;
};

} // namespace wf::hls

#endif

//===- warpforge/hls/dispatch.h - Dispatch and write-back reservation -----===//
//
// Part of Warpforge. Which complete operand-collector pass each execution unit takes in a cycle,
// and which register-file write slots the passes and the variable-latency return buffers take
// (docs/microarchitecture.md, "Dispatch and write-back"). The cycle model calls it;
// rtl/core/wf_exec_dispatch.sv is checked against it cycle by cycle
// (tests/rtl/tb_exec_dispatch.cpp).
//
// Every register bank and the predicate file have a reservation vector over the next `horizon`
// cycles: bit i of a vector in cycle t stands for a write in cycle t + i; the vectors shift by one
// bit every cycle. Each cycle:
//   1. Candidates: for each unit, the oldest collector (RfReadArbiter's age order) whose pass is
//      complete and that targets the unit, if the unit can take a pass (`unitReady`: an
//      iterative unit's ready_o, the LSU's and CTRL unit's input; and a unit with lane share
//      s > 1 not within the s cycles of its previous pass's sub-passes). One candidate a unit.
//   2. In age order (oldest first), a candidate of a fixed-latency unit dispatches when the
//      write slots of its pass are clear: for each destination bank, bits lat .. lat + s - 1
//      (and the predicate file's, when it writes a predicate); it sets them, so that a younger
//      candidate sees them taken. A candidate of a variable-latency unit (LSU, CTRL, TEX) needs
//      no slot and always dispatches.
//   3. Returns (variable-latency write-backs: source 0 the LSU, 1 the CTRL unit): a return
//      writes in this cycle when bit 0 of each of its banks (and of the predicate file, when
//      it writes one) is clear and not taken by a lower-numbered return source this cycle.
// The clock edge shifts every vector by one bit.
//
//===----------------------------------------------------------------------===//

#ifndef WARPFORGE_HLS_DISPATCH_H
#define WARPFORGE_HLS_DISPATCH_H

#include "warpforge/hls/rf_arbiter.h"

#include <array>
#include <cstdint>

namespace wf::hls {

inline constexpr unsigned kMaxUnits = 12;       ///< isa::Unit::Count
inline constexpr unsigned kMaxHorizon = 128;    ///< cycles a reservation vector covers
inline constexpr unsigned kReturnSources = 2;   ///< LSU, CTRL

/// A collector's complete pass, as dispatch sees it.
struct DispatchCandidate {
  bool ready = false;    ///< the pass is complete
  uint8_t unit = 0;      ///< isa::Unit
  bool variable = false; ///< LSU, CTRL, TEX: writes through a return buffer
  uint8_t latency = 1;   ///< lat(u) of the opcode (fixed-latency units)
  uint8_t share = 1;     ///< s(u)
  uint16_t banks = 0;    ///< destination banks (bit b), 0: no register write
  bool pred = false;     ///< writes a predicate
};

/// A return buffer's request for this cycle.
struct ReturnRequest {
  bool valid = false;
  uint16_t banks = 0;
  bool pred = false;
};

struct DispatchCycle {
  uint32_t dispatch = 0;                      ///< bit c: collector c's pass dispatches
  std::array<int8_t, kMaxUnits> unitColl{};   ///< per unit: the collector, or -1
  uint8_t returnGrant = 0;                    ///< bit r: return source r writes this cycle
};

class Dispatcher {
public:
  constexpr Dispatcher(unsigned collectors, unsigned banks, unsigned horizon)
      : collectors_(collectors), banks_(banks), horizon_(horizon) {
    reset();
  }

  constexpr void reset() {
    for (auto &v : resv_)
      v.fill(false);
    busy_.fill(0);
  }

  /// Whether bank b (b == banks: the predicate file) has a write reserved i cycles from now.
  constexpr bool reserved(unsigned b, unsigned i) const { return resv_[b][i]; }
  /// Cycles a lane-shared unit still feeds its previous pass's sub-passes.
  constexpr unsigned unitBusy(unsigned u) const { return busy_[u]; }

  /// One clock edge. `older(a, b)`: collector a was allocated before collector b.
  template <class Older>
  constexpr DispatchCycle step(const std::array<DispatchCandidate, kMaxCollectors> &cand,
                               uint32_t unitReady,
                               const std::array<ReturnRequest, kReturnSources> &ret,
                               Older older) {
    DispatchCycle out;
    out.unitColl.fill(-1);
    // 1. One candidate a unit: its oldest complete collector.
    std::array<int, kMaxUnits> pick{};
    pick.fill(-1);
    for (unsigned c = 0; c < collectors_; ++c) {
      if (!cand[c].ready)
        continue;
      int &p = pick[cand[c].unit];
      if (p < 0 || older(c, static_cast<unsigned>(p)))
        p = static_cast<int>(c);
    }
    uint32_t isCand = 0;
    for (unsigned u = 0; u < kMaxUnits; ++u)
      if (pick[u] >= 0 && ((unitReady >> u) & 1) && busy_[u] == 0)
        isCand |= 1u << pick[u];
    // 2. Oldest first: claim the write slots.
    uint32_t done = 0;
    for (unsigned n = 0; n < collectors_; ++n) {
      // The oldest candidate not yet considered.
      int c = -1;
      for (unsigned k = 0; k < collectors_; ++k)
        if (((isCand & ~done) >> k) & 1)
          if (c < 0 || older(k, static_cast<unsigned>(c)))
            c = static_cast<int>(k);
      if (c < 0)
        break;
      done |= 1u << c;
      const DispatchCandidate &d = cand[c];
      if (!d.variable && !claim(d))
        continue;
      out.dispatch |= 1u << c;
      out.unitColl[d.unit] = static_cast<int8_t>(c);
      if (d.share > 1)
        busy_[d.unit] = static_cast<uint8_t>(d.share);
    }
    // 3. Returns take this cycle's free slots, LSU first.
    std::array<bool, kMaxRfBanks + 1> now{};
    for (unsigned b = 0; b <= banks_; ++b)
      now[b] = resv_[b][0];
    for (unsigned r = 0; r < kReturnSources; ++r) {
      if (!ret[r].valid)
        continue;
      bool ok = !(ret[r].pred && now[banks_]);
      for (unsigned b = 0; b < banks_; ++b)
        ok = ok && !(((ret[r].banks >> b) & 1) && now[b]);
      if (!ok)
        continue;
      out.returnGrant = static_cast<uint8_t>(out.returnGrant | (1u << r));
      now[banks_] = now[banks_] || ret[r].pred;
      for (unsigned b = 0; b < banks_; ++b)
        now[b] = now[b] || ((ret[r].banks >> b) & 1);
    }
    // The edge: shift, and count down the lane-shared units.
    for (unsigned b = 0; b <= banks_; ++b) {
      for (unsigned i = 0; i + 1 < horizon_; ++i)
        resv_[b][i] = resv_[b][i + 1];
      resv_[b][horizon_ - 1] = false;
    }
    for (auto &u : busy_)
      if (u > 0)
        --u;
    return out;
  }

private:
  // Checks the slots of a fixed-latency pass and sets them when all are clear.
  constexpr bool claim(const DispatchCandidate &d) {
    const unsigned lo = d.latency, hi = d.latency + d.share; // [lo, hi)
    for (unsigned b = 0; b <= banks_; ++b) {
      const bool writes = b == banks_ ? d.pred : ((d.banks >> b) & 1);
      if (!writes)
        continue;
      for (unsigned i = lo; i < hi && i < horizon_; ++i)
        if (resv_[b][i])
          return false;
    }
    for (unsigned b = 0; b <= banks_; ++b) {
      const bool writes = b == banks_ ? d.pred : ((d.banks >> b) & 1);
      if (!writes)
        continue;
      for (unsigned i = lo; i < hi && i < horizon_; ++i)
        resv_[b][i] = true;
    }
    return true;
  }

  unsigned collectors_;
  unsigned banks_;
  unsigned horizon_;
  std::array<std::array<bool, kMaxHorizon>, kMaxRfBanks + 1> resv_{};
  std::array<uint8_t, kMaxUnits> busy_{};
};

} // namespace wf::hls

#endif // WARPFORGE_HLS_DISPATCH_H

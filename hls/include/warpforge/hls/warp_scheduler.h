//===- warpforge/hls/warp_scheduler.h - The warp scheduler's pick ---------===//
//
// Part of Warpforge. The issue stage's choice of warps, one cycle at a time, for every policy of
// isa/config.toml's `scheduler_policy` (docs/microarchitecture.md, "Warp scheduler"). The cycle
// model calls it; rtl/core/wf_warp_sched.sv is checked against it cycle by cycle
// (tests/rtl/tb_warp_sched.cpp).
//
// Inputs of a cycle: which warps have an issuable instruction (`ready`) and which warp slots
// became resident (`admit`, a block's warps, all in one cycle). Output: up to `issueWidth` warps,
// one per issue slot, each different. State: the last warp issued (the round-robin pointer), the
// greedy warp, and the age order of the resident warps.
//
// Policies:
//   - loose round-robin (LRR): slot k issues the first ready warp after the one issued last
//     (slot k-1 this cycle, else the last issue of an earlier cycle), wrapping at `warps`;
//     warps that are not ready are skipped, so the pointer never waits on them;
//   - greedy-then-oldest (GTO): slot 0 issues the greedy warp (the one slot 0 issued last) while
//     it is ready; otherwise, and for every further slot, the oldest ready warp that no earlier
//     slot took. Age is the order in which warps became resident; warps admitted in the same
//     cycle are ordered by slot number (lower is older).
// Reset: no greedy warp, the pointer at warps - 1 (so warp 0 is the first LRR pick), and no age
// order (every warp is admitted before it can be ready).
//
//===----------------------------------------------------------------------===//

#ifndef WARPFORGE_HLS_WARP_SCHEDULER_H
#define WARPFORGE_HLS_WARP_SCHEDULER_H

#include <array>
#include <cstdint>

namespace wf::hls {

inline constexpr unsigned kMaxSchedWarps = 64;
inline constexpr unsigned kMaxIssueWidth = 2;

/// isa/config.toml `scheduler_policy`, in its `values` order (the generated isa::SchedulerPolicy
/// has the same numbers).
enum class SchedPolicy : uint8_t { LooseRoundRobin = 0, GreedyThenOldest = 1 };

/// What the scheduler issued in one cycle.
struct SchedPick {
  std::array<bool, kMaxIssueWidth> valid{};
  std::array<uint8_t, kMaxIssueWidth> warp{};
};

class WarpScheduler {
public:
  /// `warps` warp slots (1..64), `issueWidth` slots a cycle (1..2).
  constexpr WarpScheduler(unsigned warps, unsigned issueWidth, SchedPolicy policy)
      : warps_(warps), width_(issueWidth), policy_(policy) {
    reset();
  }

  constexpr void reset() {
    last_ = static_cast<uint8_t>(warps_ - 1);
    greedy_ = 0;
    greedyValid_ = false;
    older_.fill(0);
  }

  /// The picks of a cycle whose ready warps are `ready` (bit w: warp w); no state changes.
  constexpr SchedPick pick(uint64_t ready) const {
    SchedPick p;
    ready &= warpMask();
    unsigned last = last_;
    for (unsigned slot = 0; slot < width_; ++slot) {
      if (ready == 0)
        break;
      unsigned w = 0;
      if (policy_ == SchedPolicy::LooseRoundRobin)
        w = nextAfter(ready, last);
      else if (slot == 0 && greedyValid_ && ((ready >> greedy_) & 1))
        w = greedy_;
      else
        w = oldest(ready);
      p.valid[slot] = true;
      p.warp[slot] = static_cast<uint8_t>(w);
      ready &= ~(uint64_t{1} << w);
      last = w;
    }
    return p;
  }

  /// One clock edge: the picks of `ready` issue, then the warps of `admit` become resident (the
  /// youngest, lower slot older). A warp is never admitted while it can be ready.
  constexpr SchedPick step(uint64_t ready, uint64_t admit) {
    const SchedPick p = pick(ready);
    for (unsigned slot = 0; slot < width_; ++slot) {
      if (!p.valid[slot])
        continue;
      last_ = p.warp[slot];
      if (slot == 0) {
        greedy_ = p.warp[0];
        greedyValid_ = true;
      }
    }
    admit &= warpMask();
    if (admit != 0) {
      for (unsigned w = 0; w < warps_; ++w) {
        if ((admit >> w) & 1)
          older_[w] = admit & ~((uint64_t{2} << w) - 1); // older than later admitted slots only
        else
          older_[w] |= admit; // every resident warp is older than the new ones
      }
    }
    return p;
  }

  /// Age order: whether warp a became resident before warp b.
  constexpr bool isOlder(unsigned a, unsigned b) const { return (older_[a] >> b) & 1; }

private:
  constexpr uint64_t warpMask() const {
    return warps_ >= 64 ? ~uint64_t{0} : (uint64_t{1} << warps_) - 1;
  }

  /// The first set bit of `ready` after `last`, wrapping (ready != 0).
  constexpr unsigned nextAfter(uint64_t ready, unsigned last) const {
    for (unsigned k = 1; k <= warps_; ++k) {
      const unsigned w = (last + k) % warps_;
      if ((ready >> w) & 1)
        return w;
    }
    return 0;
  }

  /// The ready warp that no other ready warp is older than (ready != 0). With the age order a
  /// total order on resident warps there is exactly one; the lowest such slot otherwise.
  constexpr unsigned oldest(uint64_t ready) const {
    for (unsigned w = 0; w < warps_; ++w) {
      if (!((ready >> w) & 1))
        continue;
      bool anyOlder = false;
      for (unsigned j = 0; j < warps_; ++j)
        anyOlder = anyOlder || (((ready >> j) & 1) && isOlder(j, w));
      if (!anyOlder)
        return w;
    }
    return 0;
  }

  unsigned warps_;
  unsigned width_;
  SchedPolicy policy_;
  uint8_t last_ = 0;
  uint8_t greedy_ = 0;
  bool greedyValid_ = false;
  std::array<uint64_t, kMaxSchedWarps> older_{}; ///< older_[a] bit b: a is older than b
};

} // namespace wf::hls

#endif // WARPFORGE_HLS_WARP_SCHEDULER_H

//===- warpforge/hls/block_dispatch.h - Block dispatcher and admission rule --===//
//
// Part of Warpforge. The two decisions that place thread blocks on cores
// (docs/microarchitecture.md, "Block dispatcher"), written once: the cycle model calls them,
// rtl/soc/wf_dispatcher.sv is checked against BlockDispatcher cycle by cycle
// (tests/rtl/tb_dispatcher.cpp), and a core's admission logic implements BlockResources.
//
// BlockDispatcher, one clock cycle at a time: blocks in linear order (x fastest). In a cycle the
// dispatcher offers the next block to one core (the offer pointer); the pointer moves to the next
// core every cycle (after a core takes a block the next block goes to the core after it; after a
// core declines, the same block goes to the next core). A launch start resets the pointer to
// core 0 and the next block to (0, 0, 0). While stopped (a fault) nothing is offered. The grid is
// done when every block was taken (or it is stopped) and every core is idle, in a cycle where no
// block is taken and no launch starts.
//
// BlockResources: a core takes a block when it has, all at once, free warp slots for the block's
// warps (the lowest free ones), a contiguous free range of regs_per_thread x warps warp registers
// and a contiguous free range of the block's shared memory (both first fit from the lowest
// address, in allocation units), and a free block slot (the lowest).
//
//===----------------------------------------------------------------------===//

#ifndef WARPFORGE_HLS_BLOCK_DISPATCH_H
#define WARPFORGE_HLS_BLOCK_DISPATCH_H

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace wf::hls {

class BlockDispatcher {
public:
  explicit BlockDispatcher(unsigned cores) : cores_(cores) {}

  struct Offer {
    bool valid = false;
    unsigned core = 0;
    std::array<uint32_t, 3> block{}; ///< x, y, z
  };

  /// This cycle's offer, from the state at its start.
  Offer offer(bool stop) const {
    Offer o;
    o.valid = running_ && !allTaken_ && !stop;
    o.core = offer_;
    o.block = next_;
    return o;
  }

  /// Whether the grid is done in this cycle.
  bool done(bool stop, bool allIdle, bool taken, bool launchStart) const {
    return running_ && (allTaken_ || stop) && allIdle && !taken && !launchStart;
  }

  /// One clock cycle: `accepted` says whether the offered core took this cycle's offer.
  void step(bool launchStart, const std::array<uint32_t, 3> &grid, bool stop, bool accepted) {
    const bool taken = running_ && !allTaken_ && !stop && accepted;
    if (running_)
      offer_ = (offer_ + 1) % cores_;
    if (taken) {
      unsigned d = 0;
      while (d < 3 && next_[d] + 1 >= grid[d])
        next_[d++] = 0;
      if (d == 3)
        allTaken_ = true;
      else
        ++next_[d];
    }
    if (launchStart) {
      running_ = true;
      allTaken_ = false;
      next_ = {0, 0, 0};
      offer_ = 0;
    }
  }

private:
  unsigned cores_;
  bool running_ = false;
  bool allTaken_ = false;
  std::array<uint32_t, 3> next_{};
  unsigned offer_ = 0;
};

class BlockResources {
public:
  /// A core of `warpSlots` warp slots, `regUnits` warp registers, `smemUnits` shared-memory
  /// allocation units and `blockSlots` block slots.
  BlockResources(unsigned warpSlots, unsigned regUnits, unsigned smemUnits, unsigned blockSlots)
      : warps_(warpSlots), regs_(regUnits), smem_(smemUnits), blocks_(blockSlots) {}

  struct Placement {
    unsigned blockSlot = 0;
    std::vector<unsigned> warpSlots; ///< the block's warps in order, lowest free slots
    unsigned regBase = 0;            ///< first warp register of the block's range
    unsigned smemBase = 0;           ///< first shared-memory unit of the block's range
  };

  /// Where a block of `warps` warps, `regUnits` warp registers and `smemUnits` units would go,
  /// or nothing when the core cannot take it now.
  std::optional<Placement> place(unsigned warps, unsigned regUnits, unsigned smemUnits) const {
    Placement p;
    auto slot = lowestFree(blocks_, 1);
    auto reg = lowestFree(regs_, regUnits);
    auto smem = lowestFree(smem_, smemUnits);
    if (!slot || !reg || !smem)
      return std::nullopt;
    for (unsigned w = 0; w < warps_.size() && p.warpSlots.size() < warps; ++w)
      if (!warps_[w])
        p.warpSlots.push_back(w);
    if (p.warpSlots.size() < warps)
      return std::nullopt;
    p.blockSlot = *slot;
    p.regBase = *reg;
    p.smemBase = *smem;
    return p;
  }

  /// Takes the resources of a placement (admission) or gives them back (retire).
  void admit(const Placement &p, unsigned regUnits, unsigned smemUnits) {
    mark(p, regUnits, smemUnits, true);
  }
  void retire(const Placement &p, unsigned regUnits, unsigned smemUnits) {
    mark(p, regUnits, smemUnits, false);
  }

private:
  /// The lowest start of `n` consecutive free units (n = 0: 0).
  static std::optional<unsigned> lowestFree(const std::vector<bool> &used, unsigned n) {
    if (n == 0)
      return 0u;
    unsigned run = 0;
    for (unsigned i = 0; i < used.size(); ++i) {
      run = used[i] ? 0 : run + 1;
      if (run == n)
        return i + 1 - n;
    }
    return std::nullopt;
  }

  void mark(const Placement &p, unsigned regUnits, unsigned smemUnits, bool v) {
    blocks_[p.blockSlot] = v;
    for (unsigned w : p.warpSlots)
      warps_[w] = v;
    for (unsigned i = 0; i < regUnits; ++i)
      regs_[p.regBase + i] = v;
    for (unsigned i = 0; i < smemUnits; ++i)
      smem_[p.smemBase + i] = v;
  }

  std::vector<bool> warps_, regs_, smem_, blocks_;
};

} // namespace wf::hls

#endif

//===- warpforge/hls/block_admit.h - A core's block admission and retire -----===//
//
// Part of Warpforge. A core's side of block placement (docs/microarchitecture.md, "Block
// dispatcher"), one clock cycle at a time, over BlockResources (block_dispatch.h) for the
// resource rule. rtl/core/wf_admit.sv is compared with it cycle by cycle (tests/rtl/tb_admit.cpp).
//
// Units: registers are allocated in units of `regUnitWarpRegs` warp registers (a warp register is
// 32 lanes x 32 bits) and shared memory in units of `smemUnitBytes` bytes; a block of a launch
// needs ceil(regs_per_thread x warps / regUnitWarpRegs) register units and
// ceil(shared_bytes / smemUnitBytes) shared units (fixed for the launch).
//
// In a cycle (decided from the state at its start):
//  - Admission: an offered block is accepted when BlockResources::place finds room; its
//    resources are taken at the end of the cycle.
//  - Retire: the lowest block slot in use whose warps have all finished (`warpDone`, the CTRL
//    unit's per-warp done bits at the start of the cycle) retires: its resources are free from
//    the next cycle. One block a cycle. A block admitted in a cycle cannot retire in it.
//
//===----------------------------------------------------------------------===//

#ifndef WARPFORGE_HLS_BLOCK_ADMIT_H
#define WARPFORGE_HLS_BLOCK_ADMIT_H

#include "warpforge/hls/block_dispatch.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace wf::hls {

class BlockAdmit {
public:
  BlockAdmit(unsigned warpSlots, unsigned regUnits, unsigned smemUnits, unsigned blockSlots)
      : res_(warpSlots, regUnits, smemUnits, blockSlots), slots_(blockSlots) {}

  /// A launch's fixed needs of one block.
  struct Needs {
    unsigned warps = 1;
    unsigned regUnits = 0;
    unsigned smemUnits = 0;
  };

  struct Out {
    std::optional<BlockResources::Placement> admitted; ///< the offer was accepted, placed here
    std::optional<unsigned> retired;                   ///< the block slot that retired
  };

  /// One cycle: `offer` whether a block is offered, `warpDone` the finished bit per warp slot.
  Out step(bool offer, const Needs &n, uint64_t warpDone) {
    Out out;
    if (offer)
      out.admitted = res_.place(n.warps, n.regUnits, n.smemUnits);
    for (unsigned b = 0; b < slots_.size(); ++b) {
      if (!slots_[b])
        continue;
      bool done = true;
      for (unsigned w : slots_[b]->p.warpSlots)
        done = done && ((warpDone >> w) & 1);
      if (done) {
        out.retired = b;
        break;
      }
    }
    if (out.retired) {
      const Slot &s = *slots_[*out.retired];
      res_.retire(s.p, s.regUnits, s.smemUnits);
      slots_[*out.retired].reset();
    }
    if (out.admitted) {
      res_.admit(*out.admitted, n.regUnits, n.smemUnits);
      slots_[out.admitted->blockSlot] = Slot{*out.admitted, n.regUnits, n.smemUnits};
    }
    return out;
  }

  /// Ends every resident block (a launch start).
  void clear() {
    for (auto &s : slots_)
      if (s) {
        res_.retire(s->p, s->regUnits, s->smemUnits);
        s.reset();
      }
  }

  bool resident(unsigned blockSlot) const { return slots_[blockSlot].has_value(); }

private:
  struct Slot {
    BlockResources::Placement p;
    unsigned regUnits = 0, smemUnits = 0;
  };
  BlockResources res_;
  std::vector<std::optional<Slot>> slots_;
};

} // namespace wf::hls

#endif

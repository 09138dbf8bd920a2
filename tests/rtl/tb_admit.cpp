// wf_admit against hls::BlockAdmit (hls/block_admit.h, over BlockResources), cycle by cycle:
// random launches (block shapes: warps, threads, registers per thread, shared bytes, some too big
// to ever fit), random offers, and warps that finish at random. Every cycle the accept, the
// placement (block slot, warp slots, register and shared-memory units), the started warps' lanes
// and entry pc, and the retire must agree with hls; the per-warp and per-block registers
// (resident, block slot, warp index, rf_base, blockIdx, shared base) must hold what the
// admissions and retires so far put there. --vectors cycles.
#include "Vtb_admit_top.h"
#include "common/tb_util.h"
#include "warpforge/hls/block_admit.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <vector>

namespace {

using wf::rtl::SimExtension;
using namespace wf::rtl::tb;
namespace hls = wf::hls;

constexpr unsigned kWarps = WF_WARPS;
constexpr unsigned kBlocks = WF_BLOCKS;
constexpr unsigned kRegUnits = WF_REG_UNITS;
constexpr unsigned kRegUnitWarpRegs = WF_REG_UNIT_WARP_REGS;
constexpr unsigned kSmemUnits = WF_SMEM_UNITS;
constexpr unsigned kSmemUnitBytes = WF_SMEM_UNIT_BYTES;
constexpr unsigned kBlockBits = kBlocks > 1 ? std::bit_width(kBlocks - 1) : 1;
constexpr unsigned kRfBaseBits = std::bit_width(kRegUnits * kRegUnitWarpRegs);

class AdmitBench : public SimExtension {
public:
  AdmitBench(Vtb_admit_top &top, const wf::rtl::SimOptions &o)
      : top_(top), rng_(o.seed), cycles_left_(o.vectors),
        model_(kWarps, kRegUnits, kSmemUnits, kBlocks), done_(kWarps, false),
        resident_(kWarps, false), wblock_(kWarps, 0), windex_(kWarps, 0), rfbase_(kWarps, 0),
        bvalid_(kBlocks, false), bidx_(kBlocks), bsmem_(kBlocks, 0), bwarps_(kBlocks) {}

  void on_reset() override {
    top_.launch_start_i = 0;
    top_.block_valid_i = 0;
  }

  void drive(uint64_t cycle) override {
    launch_ = cycle == 0 || rng_.chance(launchPercent());
    if (launch_)
      newShape();
    offer_ = !launch_ && rng_.chance(40);
    for (unsigned d = 0; d < 3; ++d)
      idx_[d] = rng_.below(1000);
    // Resident warps finish now and then (as the CTRL unit's done bits would).
    for (unsigned w = 0; w < kWarps; ++w)
      if (resident_[w] && rng_.chance(4))
        done_[w] = true;
    top_.launch_start_i = launch_;
    top_.warps_per_block_i = warps_;
    top_.threads_per_block_i = threads_;
    top_.regs_per_thread_i = regs_;
    top_.shared_bytes_i = shared_;
    top_.entry_pc_i = entry_;
    top_.block_valid_i = offer_;
    for (unsigned d = 0; d < 3; ++d)
      set_bits(top_.block_idx_i, 32 * d, 32, idx_[d]);
    uint64_t done = 0;
    for (unsigned w = 0; w < kWarps; ++w)
      done |= uint64_t(done_[w]) << w;
    top_.warp_done_i = done;
    done_bits_ = done;
  }

  void sample(uint64_t cycle) override {
    checkRegisters(cycle);
    hls::BlockAdmit::Needs n;
    n.warps = warps_;
    n.regUnits = (regs_ * warps_ + kRegUnitWarpRegs - 1) / kRegUnitWarpRegs;
    n.smemUnits = (shared_ + kSmemUnitBytes - 1) / kSmemUnitBytes;
    const hls::BlockAdmit::Out o = model_.step(offer_, n, done_bits_);
    check(cycle, "block_accept_o", top_.block_accept_o, o.admitted.has_value());
    uint64_t want_start = 0;
    if (o.admitted) {
      const auto &p = *o.admitted;
      accepts_++;
      check(cycle, "admit_slot_o", top_.admit_slot_o, p.blockSlot);
      check(cycle, "admit_reg_unit_o", top_.admit_reg_unit_o, p.regBase);
      check(cycle, "admit_smem_unit_o", top_.admit_smem_unit_o, p.smemBase);
      check(cycle, "start_pc_o", top_.start_pc_o, entry_ / 8);
      for (unsigned k = 0; k < p.warpSlots.size(); ++k) {
        const unsigned w = p.warpSlots[k];
        want_start |= 1ull << w;
        const unsigned lanes = k + 1 == warps_ ? threads_ - 32 * k : 32;
        const uint32_t mask = lanes == 32 ? ~0u : (1u << lanes) - 1;
        check(cycle, "start_lanes_o", get_bits(top_.start_lanes_o, 32 * w, 32), mask, int(w));
      }
    } else if (offer_) {
      declines_++;
    }
    check(cycle, "start_o", top_.start_o, want_start);
    check(cycle, "block_retire_o", top_.block_retire_o, o.retired.has_value());
    if (o.retired) {
      retires_++;
      check(cycle, "retire_slot_o", top_.retire_slot_o, *o.retired);
      const unsigned b = *o.retired;
      bvalid_[b] = false;
      for (unsigned w : bwarps_[b])
        resident_[w] = false;
    }
    if (o.admitted) {
      const auto &p = *o.admitted;
      const unsigned b = p.blockSlot;
      bvalid_[b] = true;
      bidx_[b] = idx_;
      bsmem_[b] = p.smemBase * kSmemUnitBytes;
      bwarps_[b] = p.warpSlots;
      for (unsigned k = 0; k < p.warpSlots.size(); ++k) {
        const unsigned w = p.warpSlots[k];
        resident_[w] = true;
        done_[w] = false;
        wblock_[w] = b;
        windex_[w] = k;
        rfbase_[w] = p.regBase * kRegUnitWarpRegs + k * regs_;
      }
    }
    if (launch_) {
      model_.clear();
      std::fill(resident_.begin(), resident_.end(), false);
      std::fill(bvalid_.begin(), bvalid_.end(), false);
    }
    if (cycles_left_ > 0)
      --cycles_left_;
  }

  bool finished() const override { return cycles_left_ == 0; }
  bool passed() const override { return errors_ == 0 && (cycles_left_ > 0 || retires_ > 0); }
  void report() const override {
    std::printf("tb_admit: %llu accepted, %llu declined, %llu retired, %llu launches, %u "
                "mismatches\n",
                ull(accepts_), ull(declines_), ull(retires_), ull(launches_), errors_);
  }

private:
  static unsigned long long ull(uint64_t v) { return static_cast<unsigned long long>(v); }

  unsigned launchPercent() const { return 1; }

  void newShape() {
    launches_++;
    warps_ = 1 + rng_.below(rng_.chance(70) ? std::min(kWarps, 4u) : kWarps);
    threads_ = 32 * (warps_ - 1) + 1 + rng_.below(32);
    // Registers: mostly so that a few blocks fit, now and then more than the core has.
    const unsigned perWarpMax = kRegUnits * kRegUnitWarpRegs / warps_;
    regs_ = rng_.chance(5) ? 255 : 1 + rng_.below(std::min(255u, std::max(1u, perWarpMax / 2)));
    shared_ = rng_.chance(20) ? 0 : rng_.below(kSmemUnits * kSmemUnitBytes / 2 + 1);
    if (rng_.chance(3))
      shared_ = kSmemUnits * kSmemUnitBytes + 4; // never fits
    entry_ = 8 * rng_.below(1000);
  }

  void checkRegisters(uint64_t cycle) {
    for (unsigned w = 0; w < kWarps; ++w) {
      check(cycle, "resident_o", get_bit(top_.resident_o, w), resident_[w], int(w));
      if (!resident_[w])
        continue;
      check(cycle, "warp_block_o", get_bits(top_.warp_block_o, kBlockBits * w, kBlockBits),
            wblock_[w], int(w));
      check(cycle, "warp_index_o", get_bits(top_.warp_index_o, 6 * w, 6), windex_[w], int(w));
      check(cycle, "rf_base_o", get_bits(top_.rf_base_o, kRfBaseBits * w, kRfBaseBits),
            rfbase_[w], int(w));
    }
    for (unsigned b = 0; b < kBlocks; ++b) {
      check(cycle, "block_valid_o", get_bit(top_.block_valid_o, b), bvalid_[b], int(b));
      if (!bvalid_[b])
        continue;
      for (unsigned d = 0; d < 3; ++d)
        check(cycle, "block_idx_o", get_bits(top_.block_idx_o, 96 * b + 32 * d, 32), bidx_[b][d],
              int(b));
      check(cycle, "smem_base_o", get_bits(top_.smem_base_o, 32 * b, 32), bsmem_[b], int(b));
    }
  }

  template <class A, class B>
  void check(uint64_t cycle, const char *what, A got, B want, int index = -1) {
    if (uint64_t(got) == uint64_t(want))
      return;
    if (errors_++ < 10)
      std::fprintf(stderr, "cycle %llu: %s[%d] is 0x%llx, expected 0x%llx\n", ull(cycle), what,
                   index, ull(uint64_t(got)), ull(uint64_t(want)));
  }

  Vtb_admit_top &top_;
  Rng rng_;
  uint64_t cycles_left_;
  hls::BlockAdmit model_;
  std::vector<bool> done_;
  uint64_t done_bits_ = 0;
  bool launch_ = false, offer_ = false;
  unsigned warps_ = 1, threads_ = 32, regs_ = 8, shared_ = 0, entry_ = 0;
  std::array<uint32_t, 3> idx_{};
  std::vector<bool> resident_;
  std::vector<unsigned> wblock_, windex_, rfbase_;
  std::vector<bool> bvalid_;
  std::vector<std::array<uint32_t, 3>> bidx_;
  std::vector<uint32_t> bsmem_;
  std::vector<std::vector<unsigned>> bwarps_;
  uint64_t accepts_ = 0, declines_ = 0, retires_ = 0, launches_ = 0;
  unsigned errors_ = 0;
};

} // namespace

int main(int argc, char **argv) {
  wf::rtl::SimCtrl<Vtb_admit_top> sim(argc, argv, "tb_admit");
  AdmitBench bench(sim.top(), sim.options());
  sim.add_extension(bench);
  sim.reset();
  return sim.run() ? 0 : 1;
}

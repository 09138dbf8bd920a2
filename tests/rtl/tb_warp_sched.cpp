// wf_warp_sched against hls::WarpScheduler (hls/warp_scheduler.h), cycle by cycle: every cycle
// the same ready mask and admissions go to both, and the issue slots' valid bits and warps must
// agree. Stimulus: blocks of warps become resident (admitted in one cycle) and retire at random,
// ready masks of every density over the resident warps (never over a warp admitted in the same
// cycle). --vectors cycles.
#include "Vwf_warp_sched.h"
#include "common/tb_util.h"
#include "warpforge/hls/warp_scheduler.h"

#include <bit>

namespace {

using wf::rtl::SimExtension;
using namespace wf::rtl::tb;
namespace hls = wf::hls;

constexpr unsigned kWarps = WF_WARPS;
constexpr unsigned kIssueWidth = WF_ISSUE_WIDTH;
constexpr auto kPolicy = static_cast<hls::SchedPolicy>(WF_POLICY);
constexpr unsigned kWarpBits = kWarps > 1 ? std::bit_width(kWarps - 1) : 1;
constexpr uint64_t kAll = kWarps >= 64 ? ~uint64_t{0} : (uint64_t{1} << kWarps) - 1;

class SchedBench : public SimExtension {
public:
  SchedBench(Vwf_warp_sched &top, const wf::rtl::SimOptions &o)
      : top_(top), rng_(o.seed), cycles_left_(o.vectors), model_(kWarps, kIssueWidth, kPolicy) {}

  void on_reset() override {
    set_bits(top_.ready_i, 0, kWarps, 0);
    set_bits(top_.admit_i, 0, kWarps, 0);
  }

  void drive(uint64_t) override {
    admit_ = 0;
    // Retire a random block-sized group now and then; admit free warps as a block.
    if (rng_.chance(3))
      resident_ &= ~random_subset(resident_, 1 + rng_.below(8));
    if (rng_.chance(10)) {
      admit_ = random_subset(kAll & ~resident_, 1 + rng_.below(16));
      resident_ |= admit_;
    }
    const uint64_t eligible = resident_ & ~admit_;
    switch (rng_.below(4)) {
    case 0: ready_ = eligible; break;                                   // everything ready
    case 1: ready_ = eligible & rng_.u64() & rng_.u64() & rng_.u64(); break; // sparse
    case 2: ready_ = eligible & rng_.u64(); break;                       // half
    default: ready_ = eligible & (rng_.chance(50) ? last_ready_ : rng_.u64()); break; // sticky
    }
    last_ready_ = ready_;
    set_bits(top_.ready_i, 0, kWarps, ready_);
    set_bits(top_.admit_i, 0, kWarps, admit_);
  }

  void sample(uint64_t cycle) override {
    const hls::SchedPick want = model_.step(ready_, admit_);
    for (unsigned k = 0; k < kIssueWidth; ++k) {
      const bool valid = get_bits(top_.issue_valid_o, k, 1) != 0;
      const unsigned warp = static_cast<unsigned>(get_bits(top_.issue_warp_o, k * kWarpBits,
                                                           kWarpBits));
      if (valid != want.valid[k] || (valid && warp != want.warp[k])) {
        log_.report("wf_warp_sched: cycle %llu slot %u: valid %d warp %u, expected valid %d "
                    "warp %u (ready %016llx)\n",
                    static_cast<unsigned long long>(cycle), k, valid, warp, want.valid[k],
                    want.warp[k], static_cast<unsigned long long>(ready_));
      }
      issued_ += valid;
    }
    ++checked_;
    if (cycles_left_ > 0)
      --cycles_left_;
  }

  bool finished() const override { return cycles_left_ == 0; }
  bool passed() const override { return log_.count() == 0; }
  void report() const override {
    std::printf("wf_warp_sched (%u warps, %u slots, %s): %llu cycles, %llu issues checked, "
                "%llu errors\n",
                kWarps, kIssueWidth, kPolicy == hls::SchedPolicy::LooseRoundRobin ? "lrr" : "gto",
                static_cast<unsigned long long>(checked_), static_cast<unsigned long long>(issued_),
                static_cast<unsigned long long>(log_.count()));
  }

private:
  // Up to n random members of `set`.
  uint64_t random_subset(uint64_t set, unsigned n) {
    uint64_t out = 0;
    for (unsigned i = 0; i < n && set != 0; ++i) {
      unsigned skip = rng_.below(static_cast<uint32_t>(std::popcount(set)));
      uint64_t s = set;
      while (skip--)
        s &= s - 1;
      const uint64_t b = s & (~s + 1);
      out |= b;
      set &= ~b;
    }
    return out;
  }

  Vwf_warp_sched &top_;
  Rng rng_;
  uint64_t cycles_left_;
  hls::WarpScheduler model_;
  uint64_t resident_ = 0, admit_ = 0, ready_ = 0, last_ready_ = 0;
  uint64_t checked_ = 0, issued_ = 0;
  MismatchLog log_;
};

} // namespace

int main(int argc, char **argv) {
  return run_bench<Vwf_warp_sched, SchedBench>(argc, argv, "wf_warp_sched");
}

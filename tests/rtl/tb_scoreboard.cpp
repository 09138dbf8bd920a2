// wf_scoreboard against hls::Scoreboard (hls/scoreboard.h), cycle by cycle: every cycle every
// warp presents a random head instruction (register groups of 1, 2 and 4 aligned registers over
// a few registers, so that hazards are frequent; predicates; 0, 1 or 2 writes), a random ready
// warp issues, and random pending entries are released on the release ports. The ready vector and
// the issuing warp's allocated entries must agree with hls. --vectors cycles.
#include "Vwf_scoreboard.h"
#include "common/tb_util.h"
#include "warpforge/hls/scoreboard.h"

#include <bit>
#include <vector>

namespace {

using wf::rtl::SimExtension;
using namespace wf::rtl::tb;
namespace hls = wf::hls;

constexpr unsigned kWarps = WF_WARPS;
constexpr unsigned kEntries = WF_ENTRIES;
constexpr unsigned kReleases = 4;
constexpr unsigned kWarpBits = kWarps > 1 ? std::bit_width(kWarps - 1) : 1;
constexpr unsigned kEntryBits = kEntries > 1 ? std::bit_width(kEntries - 1) : 1;

class ScoreboardBench : public SimExtension {
public:
  ScoreboardBench(Vwf_scoreboard &top, const wf::rtl::SimOptions &o)
      : top_(top), rng_(o.seed), cycles_left_(o.vectors), model_(kWarps, kEntries),
        heads_(kWarps) {}

  void on_reset() override {
    top_.issue_valid_i = 0;
    set_bits(top_.rel_valid_i, 0, kReleases, 0);
  }

  void drive(uint64_t) override {
    for (unsigned w = 0; w < kWarps; ++w) {
      if (rng_.chance(60))
        heads_[w] = random_use();
      apply_head(w);
    }
    // Issue: a random warp that hls says is ready, mostly one of the first four, so that those
    // keep their entries full and their heads often wait.
    std::vector<unsigned> ready, hot;
    for (unsigned w = 0; w < kWarps; ++w) {
      if (model_.ready(w, heads_[w])) {
        ready.push_back(w);
        if (w < 4)
          hot.push_back(w);
      }
    }
    const std::vector<unsigned> &from = !hot.empty() && rng_.chance(75) ? hot : ready;
    issue_ = !from.empty() && rng_.chance(80);
    issue_warp_ = issue_ ? from[rng_.below(static_cast<uint32_t>(from.size()))] : 0;
    top_.issue_valid_i = issue_;
    top_.issue_warp_i = issue_warp_;
    // Releases: distinct pending entries.
    std::vector<std::pair<unsigned, unsigned>> pending;
    for (unsigned w = 0; w < kWarps; ++w)
      for (unsigned e = 0; e < kEntries; ++e)
        if (model_.entryValid(w, e))
          pending.emplace_back(w, e);
    for (unsigned r = 0; r < kReleases; ++r) {
      rel_[r] = hls::SbRelease{};
      if (!pending.empty() && rng_.chance(r == 0 ? 50 : 10)) {
        const unsigned k = rng_.below(static_cast<uint32_t>(pending.size()));
        rel_[r] = hls::SbRelease{true, static_cast<uint8_t>(pending[k].first),
                                 static_cast<uint8_t>(pending[k].second)};
        pending.erase(pending.begin() + k);
      }
      set_bits(top_.rel_valid_i, r, 1, rel_[r].valid);
      set_bits(top_.rel_warp_i, r * kWarpBits, kWarpBits, rel_[r].warp);
      set_bits(top_.rel_entry_i, r * kEntryBits, kEntryBits, rel_[r].entry);
    }
  }

  void sample(uint64_t cycle) override {
    for (unsigned w = 0; w < kWarps; ++w) {
      const bool want = model_.ready(w, heads_[w]);
      const bool got = get_bits(top_.ready_o, w, 1) != 0;
      blocked_ += !want;
      if (got != want)
        log_.report("wf_scoreboard: cycle %llu warp %u: ready %d, expected %d\n",
                    static_cast<unsigned long long>(cycle), w, got, want);
      ready_count_ += want;
    }
    if (issue_) {
      const hls::SbReserved want = model_.allocation(issue_warp_, heads_[issue_warp_]);
      if (top_.alloc_reg_entry_o != want.regEntry || top_.alloc_pred_entry_o != want.predEntry)
        log_.report("wf_scoreboard: cycle %llu warp %u: entries %u/%u, expected %u/%u\n",
                    static_cast<unsigned long long>(cycle), issue_warp_,
                    unsigned(top_.alloc_reg_entry_o), unsigned(top_.alloc_pred_entry_o),
                    want.regEntry, want.predEntry);
      ++issues_;
    }
    model_.step(rel_, issue_, issue_warp_, heads_[issue_warp_]);
    ++checked_;
    if (cycles_left_ > 0)
      --cycles_left_;
  }

  bool finished() const override { return cycles_left_ == 0; }
  bool passed() const override { return log_.count() == 0; }
  void report() const override {
    std::printf("wf_scoreboard (%u warps, %u entries): %llu cycles, %llu issues, %llu heads "
                "ready and %llu blocked, %llu errors\n",
                kWarps, kEntries, static_cast<unsigned long long>(checked_),
                static_cast<unsigned long long>(issues_),
                static_cast<unsigned long long>(ready_count_),
                static_cast<unsigned long long>(blocked_),
                static_cast<unsigned long long>(log_.count()));
  }

private:
  hls::SbUse random_use() {
    hls::SbUse u;
    for (auto &g : u.regs) {
      g.valid = rng_.chance(60);
      g.count = static_cast<uint8_t>(1u << rng_.below(3));
      // Mostly a few low registers (hazards), sometimes anywhere up to R254, sometimes RZ-high.
      const uint32_t base = rng_.chance(85) ? rng_.below(12) : rng_.below(256);
      g.base = static_cast<uint8_t>(base & ~(g.count - 1u));
    }
    for (unsigned p = 0; p < hls::kSbPreds; ++p) {
      u.predValid[p] = rng_.chance(40);
      u.pred[p] = static_cast<uint8_t>(rng_.below(8));
    }
    u.writesReg = rng_.chance(70);
    u.regs[0].valid = u.regs[0].valid || u.writesReg;
    u.writesPred = rng_.chance(30);
    u.predValid[hls::kSbPreds - 1] = u.predValid[hls::kSbPreds - 1] || u.writesPred;
    return u;
  }

  void apply_head(unsigned w) {
    const hls::SbUse &u = heads_[w];
    for (unsigned g = 0; g < hls::kSbRegGroups; ++g) {
      set_bits(top_.head_reg_valid_i, w * 4 + g, 1, u.regs[g].valid);
      set_bits(top_.head_reg_base_i, (w * 4 + g) * 8, 8, u.regs[g].base);
      set_bits(top_.head_reg_cnt_i, (w * 4 + g) * 3, 3, u.regs[g].count);
    }
    for (unsigned p = 0; p < hls::kSbPreds; ++p) {
      set_bits(top_.head_pred_valid_i, w * 5 + p, 1, u.predValid[p]);
      set_bits(top_.head_pred_i, (w * 5 + p) * 4, 4, u.pred[p]);
    }
    set_bits(top_.head_writes_reg_i, w, 1, u.writesReg);
    set_bits(top_.head_writes_pred_i, w, 1, u.writesPred);
  }

  Vwf_scoreboard &top_;
  Rng rng_;
  uint64_t cycles_left_;
  hls::Scoreboard model_;
  std::vector<hls::SbUse> heads_;
  std::array<hls::SbRelease, kReleases> rel_{};
  bool issue_ = false;
  unsigned issue_warp_ = 0;
  uint64_t checked_ = 0, issues_ = 0, ready_count_ = 0, blocked_ = 0;
  MismatchLog log_;
};

} // namespace

int main(int argc, char **argv) {
  return run_bench<Vwf_scoreboard, ScoreboardBench>(argc, argv, "wf_scoreboard");
}

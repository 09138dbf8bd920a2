// wf_exec_dispatch against hls::Dispatcher (hls/dispatch.h), cycle by cycle. Every cycle each
// collector presents, at random, a complete pass of a random legal opcode with random
// destination banks (one, two or four consecutive banks, or none) and predicate writes (latency
// and lane share as the ISA tables give them for the opcode and unit); the age
// order changes as collectors are re-allocated; units are ready at random (iterative units
// often not); both return buffers request at random. Compared every cycle: each collector's
// dispatch, each unit's collector and the return grants. Also checks that Horizon covers the
// largest latency plus the largest lane share of the ISA. --vectors cycles.
#include "Vwf_exec_dispatch.h"
#include "common/tb_util.h"
#include "warpforge/hls/dispatch.h"

#include <algorithm>
#include <bit>
#include <vector>

namespace {

using wf::rtl::SimExtension;
using namespace wf::rtl::tb;
namespace hls = wf::hls;
namespace isa = wf::isa;

constexpr unsigned kColl = WF_COLLECTORS;
constexpr unsigned kBanks = WF_BANKS;
constexpr unsigned kHorizon = WF_HORIZON;
constexpr unsigned kUnits = hls::kMaxUnits;
constexpr unsigned kCollBits = kColl > 1 ? std::bit_width(kColl - 1) : 1;

bool isVariable(isa::Unit u) {
  return u == isa::Unit::LSU || u == isa::Unit::CTRL || u == isa::Unit::TEX;
}

class DispatchBench : public SimExtension {
public:
  DispatchBench(Vwf_exec_dispatch &top, const wf::rtl::SimOptions &o)
      : top_(top), rng_(o.seed), cycles_left_(o.vectors), model_(kColl, kBanks, kHorizon) {
    unsigned maxLat = 0, maxShare = 0;
    for (unsigned op = 0; op < 256; ++op) {
      const isa::OpInfo &info = isa::opInfo(static_cast<isa::Opcode>(op));
      if (!info.valid)
        continue;
      ops_.push_back(static_cast<uint8_t>(op));
      maxLat = std::max<unsigned>(maxLat, info.latency);
    }
    for (const auto &u : isa::kUnits)
      maxShare = std::max<unsigned>(maxShare, u.laneShare);
    if (maxLat + maxShare > kHorizon)
      log_.report("tb_exec_dispatch: Horizon %u < largest latency %u + largest lane share %u\n",
                  kHorizon, maxLat, maxShare);
    for (unsigned c = 0; c < kColl; ++c)
      age_.push_back(c);
  }

  void on_reset() override {
    set_bits(top_.coll_ready_i, 0, kColl, 0);
    set_bits(top_.ret_valid_i, 0, 2, 0);
  }

  void drive(uint64_t) override {
    // Re-allocating a collector makes it the youngest.
    if (rng_.chance(20)) {
      const unsigned c = rng_.below(kColl);
      age_.erase(std::find(age_.begin(), age_.end(), c));
      age_.push_back(c);
    }
    for (unsigned a = 0; a < kColl; ++a)
      for (unsigned b = 0; b < kColl; ++b)
        set_bits(top_.coll_older_i, a * kColl + b, 1, older(a, b));
    for (unsigned c = 0; c < kColl; ++c) {
      hls::DispatchCandidate &d = cand_[c];
      d = hls::DispatchCandidate{};
      d.ready = rng_.chance(50);
      const uint8_t op = ops_[rng_.below(static_cast<uint32_t>(ops_.size()))];
      const isa::OpInfo &info = isa::opInfo(static_cast<isa::Opcode>(op));
      d.unit = static_cast<uint8_t>(info.unit);
      d.variable = isVariable(info.unit);
      d.latency = info.latency;
      d.share = isa::kUnits[d.unit].laneShare;
      const unsigned count = std::array<unsigned, 4>{0, 1, 2, 4}[rng_.below(4)];
      const unsigned first = rng_.below(kBanks) & ~(count > 0 ? count - 1 : 0);
      for (unsigned i = 0; i < count; ++i)
        d.banks = static_cast<uint16_t>(d.banks | (1u << ((first + i) % kBanks)));
      d.pred = rng_.chance(15);
      set_bits(top_.coll_ready_i, c, 1, d.ready);
      set_bits(top_.coll_lat_i, c * 8, 8, d.latency);
      set_bits(top_.coll_share_i, c * 3, 3, d.share);
      set_bits(top_.coll_unit_i, c * 4, 4, d.unit);
      set_bits(top_.coll_wbanks_i, c * kBanks, kBanks, d.banks);
      set_bits(top_.coll_wpred_i, c, 1, d.pred);
    }
    unit_ready_ = 0;
    for (unsigned u = 0; u < kUnits; ++u) {
      const bool iterative = isa::kUnits[u].iterative;
      if (rng_.chance(iterative ? 30 : 90))
        unit_ready_ |= 1u << u;
    }
    set_bits(top_.unit_ready_i, 0, kUnits, unit_ready_);
    for (unsigned r = 0; r < hls::kReturnSources; ++r) {
      ret_[r] = hls::ReturnRequest{};
      ret_[r].valid = rng_.chance(40);
      const unsigned count = 1u << rng_.below(3);
      const unsigned first = rng_.below(kBanks) & ~(count - 1);
      for (unsigned i = 0; i < count; ++i)
        ret_[r].banks = static_cast<uint16_t>(ret_[r].banks | (1u << ((first + i) % kBanks)));
      ret_[r].pred = rng_.chance(10);
      set_bits(top_.ret_valid_i, r, 1, ret_[r].valid);
      set_bits(top_.ret_banks_i, r * kBanks, kBanks, ret_[r].banks);
      set_bits(top_.ret_pred_i, r, 1, ret_[r].pred);
    }
  }

  void sample(uint64_t cycle) override {
    const hls::DispatchCycle want =
        model_.step(cand_, unit_ready_, ret_, [this](unsigned a, unsigned b) { return older(a, b); });
    const uint32_t got = static_cast<uint32_t>(get_bits(top_.dispatch_o, 0, kColl));
    if (got != want.dispatch)
      log_.report("wf_exec_dispatch: cycle %llu: dispatch %x, expected %x\n",
                  static_cast<unsigned long long>(cycle), got, want.dispatch);
    for (unsigned u = 0; u < kUnits; ++u) {
      const bool v = get_bits(top_.unit_valid_o, u, 1) != 0;
      const unsigned c = static_cast<unsigned>(get_bits(top_.unit_coll_o, u * kCollBits, kCollBits));
      if (v != (want.unitColl[u] >= 0) || (v && c != static_cast<unsigned>(want.unitColl[u])))
        log_.report("wf_exec_dispatch: cycle %llu: unit %u: valid %d collector %u, expected %d\n",
                    static_cast<unsigned long long>(cycle), u, v, c, want.unitColl[u]);
    }
    const unsigned grants = static_cast<unsigned>(get_bits(top_.ret_grant_o, 0, 2));
    if (grants != want.returnGrant)
      log_.report("wf_exec_dispatch: cycle %llu: return grants %x, expected %x\n",
                  static_cast<unsigned long long>(cycle), grants, want.returnGrant);
    dispatched_ += static_cast<unsigned>(std::popcount(want.dispatch));
    for (unsigned c = 0; c < kColl; ++c)
      blocked_ += cand_[c].ready && !((want.dispatch >> c) & 1);
    returns_ += static_cast<unsigned>(std::popcount(want.returnGrant));
    if (cycles_left_ > 0)
      --cycles_left_;
  }

  bool finished() const override { return cycles_left_ == 0; }
  bool passed() const override { return log_.count() == 0; }
  void report() const override {
    std::printf("wf_exec_dispatch (%u collectors, %u banks, horizon %u): %llu passes dispatched, "
                "%llu complete passes held, %llu returns written, %llu errors\n",
                kColl, kBanks, kHorizon, static_cast<unsigned long long>(dispatched_),
                static_cast<unsigned long long>(blocked_),
                static_cast<unsigned long long>(returns_),
                static_cast<unsigned long long>(log_.count()));
  }

private:
  bool older(unsigned a, unsigned b) const {
    if (a == b)
      return false;
    return std::find(age_.begin(), age_.end(), a) < std::find(age_.begin(), age_.end(), b);
  }

  Vwf_exec_dispatch &top_;
  Rng rng_;
  uint64_t cycles_left_;
  hls::Dispatcher model_;
  std::vector<uint8_t> ops_;
  std::vector<unsigned> age_; ///< oldest first
  std::array<hls::DispatchCandidate, hls::kMaxCollectors> cand_{};
  std::array<hls::ReturnRequest, hls::kReturnSources> ret_{};
  uint32_t unit_ready_ = 0;
  uint64_t dispatched_ = 0, blocked_ = 0, returns_ = 0;
  MismatchLog log_;
};

} // namespace

int main(int argc, char **argv) {
  return run_bench<Vwf_exec_dispatch, DispatchBench>(argc, argv, "wf_exec_dispatch");
}

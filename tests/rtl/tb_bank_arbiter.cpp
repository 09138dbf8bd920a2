// wf_bank_arbiter against hls::bankSchedule (hls/bank_arbiter.h), pass by pass: lanes served,
// banks accessed and their rows, last_o on the final pass, one pass a cycle from the cycle after
// acceptance, and ready_o exactly when idle or on a last pass. Directed patterns first (stride 1,
// 2 and 32 words, broadcast, every lane in one bank, bytes, halves, 64- and 128-bit accesses,
// partial and empty masks), then --vectors / 4 random requests; requests arrive at random times,
// often back to back.
#include "Vwf_bank_arbiter.h"
#include "common/tb_util.h"
#include "warpforge/hls/bank_arbiter.h"

#include <deque>
#include <optional>

namespace {

using wf::rtl::SimExtension;
using namespace wf::rtl::tb;
namespace hls = wf::hls;

constexpr unsigned kBanks = WF_BANKS;
constexpr unsigned kAddrWidth = 18;
constexpr unsigned kRowWidth = kAddrWidth - 2 - (kBanks == 8 ? 3 : kBanks == 16 ? 4 : 5);

hls::BankRequest strided(uint32_t base, uint32_t stride, unsigned sizeLog2, uint32_t mask) {
  hls::BankRequest r;
  for (unsigned l = 0; l < hls::kWarpLanes; ++l)
    r.addr[l] = (base + l * stride) & ((1u << kAddrWidth) - 1);
  r.mask = mask;
  r.sizeLog2 = sizeLog2;
  return r;
}

class ArbiterBench : public SimExtension {
public:
  ArbiterBench(Vwf_bank_arbiter &top, const wf::rtl::SimOptions &o)
      : top_(top), rng_(o.seed), random_left_(o.vectors / 4) {
    for (uint32_t mask : {~0u, 0x0000ffffu, 0x8000'0001u, 0x5555'5555u, 0x0000'0100u, 0u}) {
      queue_.push_back(strided(0, 4, 2, mask));            // stride 1 word
      queue_.push_back(strided(4, 8, 2, mask));            // stride 2 words
      queue_.push_back(strided(0, 4 * 32, 2, mask));       // stride 32 words
      queue_.push_back(strided(8, 4 * kBanks, 2, mask));   // every lane in one bank
      queue_.push_back(strided(100, 0, 2, mask));          // broadcast
      queue_.push_back(strided(3, 1, 0, mask));            // bytes
      queue_.push_back(strided(2, 2, 1, mask));            // halves
      queue_.push_back(strided(0, 8, 3, mask));            // 64-bit
      queue_.push_back(strided(16, 16, 4, mask));          // 128-bit
      queue_.push_back(strided(0x3ff00, 4, 2, mask));      // top of the window, wrapping
    }
  }

  void on_reset() override { top_.valid_i = 0; }

  void drive(uint64_t) override {
    if (!next_ && (!queue_.empty() || random_left_ > 0) && rng_.chance(70)) {
      if (!queue_.empty()) {
        next_ = queue_.front();
        queue_.pop_front();
      } else {
        next_ = random_request();
        --random_left_;
      }
    }
    top_.valid_i = next_.has_value();
    if (next_) {
      top_.mask_i = next_->mask;
      top_.size_i = next_->sizeLog2;
      for (unsigned l = 0; l < hls::kWarpLanes; ++l)
        set_bits(top_.addr_i, l * kAddrWidth, kAddrWidth, next_->addr[l]);
    }
  }

  void sample(uint64_t cycle) override {
    bool last = false;
    if (top_.valid_o) {
      if (!flight_ || pass_ >= flight_->count) {
        protocol("a pass with no request", cycle);
      } else {
        const hls::BankPass &want = flight_->passes[pass_];
        last = pass_ + 1 == flight_->count;
        bool ok = top_.lanes_o == want.lanes && top_.bank_en_o == want.bankEnable &&
                  bool(top_.last_o) == last;
        for (unsigned b = 0; b < kBanks; ++b)
          ok = ok && get_bits(top_.bank_row_o, b * kRowWidth, kRowWidth) == want.bankRow[b];
        if (!ok) {
          ++errors_;
          log_.report("wf_bank_arbiter: cycle %llu pass %u of %u: lanes %08x banks %08x last %d, "
                      "expected lanes %08x banks %08x last %d (size %u, mask %08x)\n",
                      static_cast<unsigned long long>(cycle), pass_, flight_->count,
                      top_.lanes_o, static_cast<unsigned>(top_.bank_en_o), top_.last_o,
                      want.lanes, want.bankEnable, last, size_, mask_);
        }
        ++passes_;
        if (++pass_ == flight_->count)
          flight_.reset();
      }
    } else if (flight_) {
      protocol("pass missing", cycle);
      flight_.reset();
    }
    if (bool(top_.ready_o) != (!top_.valid_o || last))
      protocol("ready_o", cycle);
    if (top_.valid_i && top_.ready_o) {
      if (flight_)
        protocol("accepted while busy", cycle);
      const hls::BankSchedule s = hls::bankSchedule(*next_, kBanks);
      if (s.count)
        flight_ = s;
      pass_ = 0;
      size_ = next_->sizeLog2;
      mask_ = next_->mask;
      ++requests_;
      next_.reset();
    }
  }

  bool finished() const override {
    return queue_.empty() && random_left_ == 0 && !next_ && !flight_;
  }
  bool passed() const override { return errors_ == 0; }
  void report() const override {
    std::printf("wf_bank_arbiter (%u banks): %llu requests, %llu passes checked, %llu errors\n",
                kBanks, static_cast<unsigned long long>(requests_),
                static_cast<unsigned long long>(passes_), static_cast<unsigned long long>(errors_));
  }

private:
  hls::BankRequest random_request() {
    hls::BankRequest r;
    r.sizeLog2 = rng_.below(5);
    // Few distinct words make conflicts and broadcasts likely.
    const uint32_t span = 1u << (4 + rng_.below(12));
    const uint32_t base = rng_.below(1u << kAddrWidth);
    for (unsigned l = 0; l < hls::kWarpLanes; ++l)
      r.addr[l] = ((base + rng_.below(span)) & ((1u << kAddrWidth) - 1)) &
                  ~((1u << r.sizeLog2) - 1);
    r.mask = rng_.chance(25) ? ~0u : rng_.u32();
    return r;
  }

  void protocol(const char *what, uint64_t cycle) {
    ++errors_;
    log_.report("wf_bank_arbiter: cycle %llu: %s\n", static_cast<unsigned long long>(cycle), what);
  }

  Vwf_bank_arbiter &top_;
  Rng rng_;
  std::deque<hls::BankRequest> queue_;
  uint64_t random_left_;
  std::optional<hls::BankRequest> next_;
  std::optional<hls::BankSchedule> flight_;
  unsigned pass_ = 0, size_ = 0;
  uint32_t mask_ = 0;
  uint64_t requests_ = 0, passes_ = 0, errors_ = 0;
  MismatchLog log_;
};

} // namespace

int main(int argc, char **argv) {
  return run_bench<Vwf_bank_arbiter, ArbiterBench>(argc, argv, "wf_bank_arbiter");
}

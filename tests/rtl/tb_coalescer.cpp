// wf_coalescer against hls::coalesce (hls/coalescer.h), request by request: line, lanes served,
// byte mask, last_o on the final request, one request a cycle from the cycle after acceptance,
// and ready_o exactly when idle or on a last request. Directed patterns first (stride 1, 2 and
// 32 words, broadcast, misaligned base, bytes, 64- and 128-bit accesses, reversed lanes, partial
// and empty masks), then --vectors / 4 random requests arriving at random times.
#include "Vwf_coalescer.h"
#include "common/tb_util.h"
#include "warpforge/hls/coalescer.h"

#include <deque>
#include <optional>

namespace {

using wf::rtl::SimExtension;
using namespace wf::rtl::tb;
namespace hls = wf::hls;

constexpr unsigned kLineBytes = WF_LINE_BYTES;
constexpr unsigned kAddrWidth = 48;
constexpr uint64_t kAddrMask = (uint64_t(1) << kAddrWidth) - 1;

hls::CoalesceRequest strided(uint64_t base, uint64_t stride, unsigned sizeLog2, uint32_t mask) {
  hls::CoalesceRequest r;
  for (unsigned l = 0; l < hls::kCoalescerLanes; ++l)
    r.addr[l] = (base + l * stride) & kAddrMask;
  r.mask = mask;
  r.sizeLog2 = sizeLog2;
  return r;
}

class CoalescerBench : public SimExtension {
public:
  CoalescerBench(Vwf_coalescer &top, const wf::rtl::SimOptions &o)
      : top_(top), rng_(o.seed), random_left_(o.vectors / 4) {
    const uint64_t g = 0x1'0000'0000ull; // the global window
    for (uint32_t mask : {~0u, 0x0000ffffu, 0x8000'0001u, 0x5555'5555u, 0x0000'0100u, 0u}) {
      queue_.push_back(strided(g, 4, 2, mask));              // stride 1 word
      queue_.push_back(strided(g + 64, 4, 2, mask));         // stride 1, starting mid-line
      queue_.push_back(strided(g, 8, 2, mask));              // stride 2 words
      queue_.push_back(strided(g, 128, 2, mask));            // stride 32 words
      queue_.push_back(strided(g + 12, 0, 2, mask));         // broadcast
      queue_.push_back(strided(g + 5, 1, 0, mask));          // bytes
      queue_.push_back(strided(g, 8, 3, mask));              // 64-bit
      queue_.push_back(strided(g, 16, 4, mask));             // 128-bit
      queue_.push_back(strided(g + 124, uint64_t(-4), 2, mask)); // reversed lanes
      queue_.push_back(strided(kAddrMask - 63, 4, 2, mask)); // top of the address space
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
      for (unsigned l = 0; l < hls::kCoalescerLanes; ++l)
        set_bits(top_.addr_i, l * kAddrWidth, kAddrWidth, next_->addr[l]);
    }
  }

  void sample(uint64_t cycle) override {
    bool last = false;
    if (top_.valid_o) {
      if (!flight_ || index_ >= flight_->count) {
        protocol("a line request with no access", cycle);
      } else {
        const hls::LineRequest &want = flight_->requests[index_];
        last = index_ + 1 == flight_->count;
        const uint64_t line = static_cast<uint64_t>(top_.line_o);
        bool ok = top_.lanes_o == want.lanes && line == want.line && bool(top_.last_o) == last;
        for (unsigned w = 0; w < kLineBytes / 32; ++w)
          ok = ok && get_bits(top_.byte_mask_o, w * 32, 32) ==
                         ((want.byteMask[w / 2] >> (32 * (w % 2))) & 0xffffffffu);
        if (!ok) {
          ++errors_;
          log_.report("wf_coalescer: cycle %llu request %u of %u: line %llx lanes %08x last %d, "
                      "expected line %llx lanes %08x last %d (size %u)\n",
                      static_cast<unsigned long long>(cycle), index_, flight_->count,
                      static_cast<unsigned long long>(line), top_.lanes_o, top_.last_o,
                      static_cast<unsigned long long>(want.line), want.lanes, last, size_);
        }
        ++lines_;
        if (++index_ == flight_->count)
          flight_.reset();
      }
    } else if (flight_) {
      protocol("line request missing", cycle);
      flight_.reset();
    }
    if (bool(top_.ready_o) != (!top_.valid_o || last))
      protocol("ready_o", cycle);
    if (top_.valid_i && top_.ready_o) {
      if (flight_)
        protocol("accepted while busy", cycle);
      const hls::CoalesceSchedule s = hls::coalesce(*next_, kLineBytes);
      if (s.count)
        flight_ = s;
      index_ = 0;
      size_ = next_->sizeLog2;
      ++requests_;
      next_.reset();
    }
  }

  bool finished() const override {
    return queue_.empty() && random_left_ == 0 && !next_ && !flight_;
  }
  bool passed() const override { return errors_ == 0; }
  void report() const override {
    std::printf("wf_coalescer (%u-byte lines): %llu accesses, %llu line requests checked, "
                "%llu errors\n",
                kLineBytes, static_cast<unsigned long long>(requests_),
                static_cast<unsigned long long>(lines_), static_cast<unsigned long long>(errors_));
  }

private:
  hls::CoalesceRequest random_request() {
    hls::CoalesceRequest r;
    r.sizeLog2 = rng_.below(5);
    const uint64_t span = uint64_t(1) << (3 + rng_.below(14));
    const uint64_t base = rng_.u64() & kAddrMask;
    for (unsigned l = 0; l < hls::kCoalescerLanes; ++l)
      r.addr[l] = ((base + rng_.u64() % span) & kAddrMask) & ~((uint64_t(1) << r.sizeLog2) - 1);
    r.mask = rng_.chance(25) ? ~0u : rng_.u32();
    return r;
  }

  void protocol(const char *what, uint64_t cycle) {
    ++errors_;
    log_.report("wf_coalescer: cycle %llu: %s\n", static_cast<unsigned long long>(cycle), what);
  }

  Vwf_coalescer &top_;
  Rng rng_;
  std::deque<hls::CoalesceRequest> queue_;
  uint64_t random_left_;
  std::optional<hls::CoalesceRequest> next_;
  std::optional<hls::CoalesceSchedule> flight_;
  unsigned index_ = 0, size_ = 0;
  uint64_t requests_ = 0, lines_ = 0, errors_ = 0;
  MismatchLog log_;
};

} // namespace

int main(int argc, char **argv) {
  return run_bench<Vwf_coalescer, CoalescerBench>(argc, argv, "wf_coalescer");
}

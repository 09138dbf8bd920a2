// wf_cache_tags against hls::CacheTags (hls/cache_tags.h), cycle by cycle: every cycle a random
// lookup (lines from a pool a few times the cache's size, so that hits, misses and conflicts in
// a set are all frequent), a random fill and, rarely, an invalidate. The lookup result of the
// previous cycle (hit and way) and the fill's victim way must agree with hls every cycle.
// --vectors cycles.
#include "Vwf_cache_tags.h"
#include "common/tb_util.h"
#include "warpforge/hls/cache_tags.h"

namespace {

using wf::rtl::SimExtension;
using namespace wf::rtl::tb;
namespace hls = wf::hls;

constexpr unsigned kSets = WF_SETS;
constexpr unsigned kWays = WF_WAYS;

class CacheTagsBench : public SimExtension {
public:
  CacheTagsBench(Vwf_cache_tags &top, const wf::rtl::SimOptions &o)
      : top_(top), rng_(o.seed), cycles_left_(o.vectors), model_(kSets, kWays) {}

  void on_reset() override {
    top_.lookup_valid_i = 0;
    top_.fill_valid_i = 0;
    top_.invalidate_i = 0;
  }

  void drive(uint64_t) override {
    const uint32_t pool = kSets * kWays * 3;
    in_ = hls::CacheTagsIn{};
    in_.lookup = rng_.chance(80);
    in_.lookupLine = rng_.below(pool);
    in_.fill = rng_.chance(30);
    // Mostly the line that missed last (as a cache refills), else any line.
    in_.fillLine = have_miss_ && rng_.chance(70) ? last_miss_ : rng_.below(pool);
    in_.invalidate = rng_.chance(1) && rng_.chance(10);
    top_.lookup_valid_i = in_.lookup;
    top_.lookup_line_i = static_cast<uint32_t>(in_.lookupLine);
    top_.fill_valid_i = in_.fill;
    top_.fill_line_i = static_cast<uint32_t>(in_.fillLine);
    top_.invalidate_i = in_.invalidate;
  }

  void sample(uint64_t cycle) override {
    const hls::CacheLookup &want = model_.result();
    if (top_.result_valid_o != want.valid ||
        (want.valid && (top_.result_hit_o != want.hit || top_.result_way_o != want.way)))
      log_.report("wf_cache_tags: cycle %llu: result valid %d hit %d way %u, expected %d %d %u\n",
                  static_cast<unsigned long long>(cycle), top_.result_valid_o, top_.result_hit_o,
                  unsigned(top_.result_way_o), want.valid, want.hit, want.way);
    if (in_.fill) {
      const unsigned victim = model_.victim(static_cast<unsigned>(in_.fillLine % kSets));
      if (top_.fill_way_o != victim)
        log_.report("wf_cache_tags: cycle %llu: fill of line %llu takes way %u, expected %u\n",
                    static_cast<unsigned long long>(cycle),
                    static_cast<unsigned long long>(in_.fillLine), unsigned(top_.fill_way_o),
                    victim);
      // Count evictions of valid lines: the tree's choice, not only invalid ways, is exercised.
      evictions_ += model_.lineValid(static_cast<unsigned>(in_.fillLine % kSets), victim);
    }
    if (want.valid && !want.hit) {
      have_miss_ = true;
      last_miss_ = lookup_prev_;
    }
    lookup_prev_ = in_.lookupLine;
    hits_ += want.valid && want.hit;
    misses_ += want.valid && !want.hit;
    model_.step(in_);
    ++checked_;
    if (cycles_left_ > 0)
      --cycles_left_;
  }

  bool finished() const override { return cycles_left_ == 0; }
  bool passed() const override {
    // Coverage, once the run is over: hits, misses and evictions of valid lines all happened.
    const bool covered = hits_ > 0 && misses_ > 0 && evictions_ > 0;
    return log_.count() == 0 && (cycles_left_ > 0 || covered);
  }
  void report() const override {
    std::printf("wf_cache_tags (%u sets, %u ways): %llu cycles, %llu hits, %llu misses, %llu "
                "evictions, %llu errors\n",
                kSets, kWays, static_cast<unsigned long long>(checked_),
                static_cast<unsigned long long>(hits_), static_cast<unsigned long long>(misses_),
                static_cast<unsigned long long>(evictions_),
                static_cast<unsigned long long>(log_.count()));
  }

private:
  Vwf_cache_tags &top_;
  Rng rng_;
  uint64_t cycles_left_;
  hls::CacheTags model_;
  hls::CacheTagsIn in_{};
  bool have_miss_ = false;
  uint64_t last_miss_ = 0, lookup_prev_ = 0;
  uint64_t checked_ = 0, hits_ = 0, misses_ = 0, evictions_ = 0;
  MismatchLog log_;
};

} // namespace

int main(int argc, char **argv) {
  return run_bench<Vwf_cache_tags, CacheTagsBench>(argc, argv, "wf_cache_tags");
}

// wf_dispatcher against hls::BlockDispatcher (hls/block_dispatch.h), cycle by cycle: random
// grids (small, so that grids end often), launch starts, stops, per-core accepts and idle bits.
// Every cycle the offer (which core, which block), and done_o must agree with hls. --vectors cycles.
#include "Vwf_dispatcher.h"
#include "common/tb_util.h"
#include "warpforge/hls/block_dispatch.h"

namespace {

using wf::rtl::SimExtension;
using namespace wf::rtl::tb;
namespace hls = wf::hls;

constexpr unsigned kCores = WF_CORES;

class DispatcherBench : public SimExtension {
public:
  DispatcherBench(Vwf_dispatcher &top, const wf::rtl::SimOptions &o)
      : top_(top), rng_(o.seed), cycles_left_(o.vectors), model_(kCores) {}

  void on_reset() override {
    top_.launch_start_i = 0;
    top_.stop_i = 0;
    top_.block_accept_i = 0;
    top_.core_idle_i = 0;
  }

  void drive(uint64_t) override {
    // A new launch now and then (new grid dimensions with it); the grid holds until the next.
    launch_ = rng_.chance(done_ ? 30 : 1);
    if (launch_)
      for (unsigned d = 0; d < 3; ++d)
        grid_[d] = 1 + rng_.below(d == 0 ? 6 : 3);
    stop_ = rng_.chance(3) ? !stop_ : stop_;
    if (launch_)
      stop_ = false;
    accept_ = 0;
    for (unsigned c = 0; c < kCores; ++c)
      if (rng_.chance(50))
        accept_ |= 1u << c;
    idle_ = rng_.chance(70) ? (1u << kCores) - 1 : rng_.u32() & ((1u << kCores) - 1);
    top_.launch_start_i = launch_;
    for (unsigned d = 0; d < 3; ++d)
      set_bits(top_.grid_i, 32 * d, 32, grid_[d]);
    top_.stop_i = stop_;
    top_.block_accept_i = accept_;
    top_.core_idle_i = idle_;
  }

  void sample(uint64_t cycle) override {
    const hls::BlockDispatcher::Offer o = model_.offer(stop_);
    const uint32_t want_valid = o.valid ? 1u << o.core : 0;
    const uint32_t got_valid = static_cast<uint32_t>(top_.block_valid_o);
    const bool taken = o.valid && ((accept_ >> o.core) & 1);
    const bool want_done =
        model_.done(stop_, idle_ == (1u << kCores) - 1, taken, launch_);
    if (got_valid != want_valid)
      fail(cycle, "block_valid_o", got_valid, want_valid);
    for (unsigned d = 0; d < 3 && o.valid; ++d)
      if (get_bits(top_.block_o, 32 * d, 32) != o.block[d])
        fail(cycle, "block_o", get_bits(top_.block_o, 32 * d, 32), o.block[d]);
    if (bool(top_.done_o) != want_done)
      fail(cycle, "done_o", top_.done_o, want_done);
    done_ = want_done;
    blocks_ += taken;
    model_.step(launch_, grid_, stop_, o.valid && ((accept_ >> o.core) & 1));
    if (cycles_left_ > 0)
      --cycles_left_;
  }

  bool finished() const override { return cycles_left_ == 0; }
  bool passed() const override { return errors_ == 0; }
  void report() const override {
    std::printf("tb_dispatcher: %llu blocks taken, %u mismatches\n",
                static_cast<unsigned long long>(blocks_), errors_);
  }

private:
  void fail(uint64_t cycle, const char *what, uint64_t got, uint64_t want) {
    if (errors_++ < 10)
      std::fprintf(stderr, "cycle %llu: %s is 0x%llx, hls says 0x%llx\n",
                   static_cast<unsigned long long>(cycle), what,
                   static_cast<unsigned long long>(got), static_cast<unsigned long long>(want));
  }

  Vwf_dispatcher &top_;
  Rng rng_;
  uint64_t cycles_left_;
  hls::BlockDispatcher model_;
  std::array<uint32_t, 3> grid_{1, 1, 1};
  bool launch_ = false, stop_ = false, done_ = true;
  uint32_t accept_ = 0, idle_ = 0;
  uint64_t blocks_ = 0;
  unsigned errors_ = 0;
};

} // namespace

int main(int argc, char **argv) {
  wf::rtl::SimCtrl<Vwf_dispatcher> sim(argc, argv, "tb_dispatcher");
  DispatcherBench bench(sim.top(), sim.options());
  sim.add_extension(bench);
  sim.reset();
  return sim.run() ? 0 : 1;
}

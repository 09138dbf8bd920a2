// wf_rf_read_arb against hls::RfReadArbiter (hls/rf_arbiter.h), cycle by cycle: collectors are
// allocated (one or two a cycle, lowest free first, as the issue stage does) and freed at random;
// busy collectors request random banks on random slots (several slots on one bank included).
// Every bank's grant (valid, collector, slot) and every collector's granted slots must agree.
// --vectors cycles.
#include "Vwf_rf_read_arb.h"
#include "common/tb_util.h"
#include "warpforge/hls/rf_arbiter.h"

#include <bit>

namespace {

using wf::rtl::SimExtension;
using namespace wf::rtl::tb;
namespace hls = wf::hls;

constexpr unsigned kCollectors = WF_COLLECTORS;
constexpr unsigned kBanks = WF_BANKS;
constexpr unsigned kSlots = hls::kRfSlots;
constexpr unsigned kCollBits = kCollectors > 1 ? std::bit_width(kCollectors - 1) : 1;
constexpr unsigned kBankBits = kBanks > 1 ? std::bit_width(kBanks - 1) : 1;
constexpr unsigned kSlotBits = std::bit_width(kSlots - 1);

class ArbBench : public SimExtension {
public:
  ArbBench(Vwf_rf_read_arb &top, const wf::rtl::SimOptions &o)
      : top_(top), rng_(o.seed), cycles_left_(o.vectors), model_(kCollectors, kBanks) {}

  void on_reset() override {
    set_bits(top_.req_valid_i, 0, kCollectors * kSlots, 0);
    set_bits(top_.alloc_i, 0, kCollectors, 0);
  }

  void drive(uint64_t) override {
    // Free some busy collectors, then allocate up to two of the free ones, lowest first.
    for (unsigned c = 0; c < kCollectors; ++c)
      if (((busy_ >> c) & 1) && rng_.chance(25))
        busy_ &= ~(1u << c);
    alloc_ = 0;
    const unsigned want = rng_.below(3);
    for (unsigned c = 0, n = 0; c < kCollectors && n < want; ++c) {
      if (!((busy_ >> c) & 1)) {
        alloc_ |= 1u << c;
        ++n;
      }
    }
    for (unsigned c = 0; c < kCollectors; ++c) {
      hls::RfReadRequest &r = req_[c];
      r = hls::RfReadRequest{};
      if ((busy_ >> c) & 1) {
        r.valid = static_cast<uint8_t>(rng_.below(1u << kSlots));
        // A narrow bank range now and then makes several collectors (and slots) collide.
        const unsigned range = rng_.chance(30) ? 2 : kBanks;
        for (unsigned s = 0; s < kSlots; ++s)
          r.bank[s] = static_cast<uint8_t>(rng_.below(range));
      }
      for (unsigned s = 0; s < kSlots; ++s) {
        set_bits(top_.req_valid_i, c * kSlots + s, 1, (r.valid >> s) & 1);
        set_bits(top_.req_bank_i, (c * kSlots + s) * kBankBits, kBankBits, r.bank[s]);
      }
    }
    set_bits(top_.alloc_i, 0, kCollectors, alloc_);
    busy_ |= alloc_;
  }

  void sample(uint64_t cycle) override {
    const hls::RfReadGrant want = model_.step(req_, alloc_);
    for (unsigned b = 0; b < kBanks; ++b) {
      const bool valid = get_bits(top_.grant_valid_o, b, 1) != 0;
      const unsigned coll = static_cast<unsigned>(get_bits(top_.grant_coll_o, b * kCollBits,
                                                           kCollBits));
      const unsigned slot = static_cast<unsigned>(get_bits(top_.grant_slot_o, b * kSlotBits,
                                                           kSlotBits));
      const bool wantValid = (want.bankValid >> b) & 1;
      if (valid != wantValid || (valid && (coll != want.collector[b] || slot != want.slot[b])))
        log_.report("wf_rf_read_arb: cycle %llu bank %u: valid %d collector %u slot %u, "
                    "expected %d %u %u\n",
                    static_cast<unsigned long long>(cycle), b, valid, coll, slot, wantValid,
                    want.collector[b], want.slot[b]);
      grants_ += valid;
    }
    for (unsigned c = 0; c < kCollectors; ++c) {
      const unsigned got = static_cast<unsigned>(get_bits(top_.slots_granted_o, c * kSlots,
                                                          kSlots));
      if (got != want.slotsGranted[c])
        log_.report("wf_rf_read_arb: cycle %llu collector %u: slots %02x, expected %02x\n",
                    static_cast<unsigned long long>(cycle), c, got, want.slotsGranted[c]);
    }
    ++checked_;
    if (cycles_left_ > 0)
      --cycles_left_;
  }

  bool finished() const override { return cycles_left_ == 0; }
  bool passed() const override { return log_.count() == 0; }
  void report() const override {
    std::printf("wf_rf_read_arb (%u collectors, %u banks): %llu cycles, %llu grants, "
                "%llu errors\n",
                kCollectors, kBanks, static_cast<unsigned long long>(checked_),
                static_cast<unsigned long long>(grants_),
                static_cast<unsigned long long>(log_.count()));
  }

private:
  Vwf_rf_read_arb &top_;
  Rng rng_;
  uint64_t cycles_left_;
  hls::RfReadArbiter model_;
  std::array<hls::RfReadRequest, hls::kMaxCollectors> req_{};
  uint32_t busy_ = 0, alloc_ = 0;
  uint64_t checked_ = 0, grants_ = 0;
  MismatchLog log_;
};

} // namespace

int main(int argc, char **argv) {
  return run_bench<Vwf_rf_read_arb, ArbBench>(argc, argv, "wf_rf_read_arb");
}

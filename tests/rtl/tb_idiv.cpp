// wf_idiv against the divide reference: IDIV/IREM for every type on edge operands (zero divisor,
// INT_MIN / -1, +-1, powers of two), then --vectors random operand sets per opcode and type.
// Requests arrive at random times and wait while ready_o is low (stalls); every accepted
// operation must finish exactly the ISA latency later.
#include "Vwf_idiv.h"
#include "common/tb_op_bench.h"
#include "warpforge/hls/intops.h"

#include <array>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace {

using wf::isa::Opcode;
using wf::rtl::SimExtension;
using namespace wf::rtl::tb;
namespace hls = wf::hls;

constexpr unsigned kLanes = WF_LANES;

struct Txn {
  Inst inst{Opcode::IDIV};
  std::array<uint64_t, kLanes> a{}, b{}, expect{};
  bool wide = false;
};

std::string key_of(const Inst &inst) {
  static const char *const kTy[] = {"S32", "U32", "S64", "U64"};
  return std::string(inst.name()) + "." + kTy[inst.get_mod("ty")];
}

Txn finish(Txn t) {
  const unsigned ty = static_cast<unsigned>(t.inst.get_mod("ty"));
  t.wide = ty >= 2;
  const bool is_signed = ty == 0 || ty == 2;
  for (unsigned l = 0; l < kLanes; ++l) {
    if (!t.wide) {
      t.a[l] &= 0xffffffffull;
      t.b[l] &= 0xffffffffull;
    }
    const unsigned bits = t.wide ? 64 : 32;
    t.expect[l] = t.inst.op() == Opcode::IREM ? hls::irem(t.a[l], t.b[l], is_signed, bits)
                                              : hls::idiv(t.a[l], t.b[l], is_signed, bits);
  }
  return t;
}

class IdivBench : public SimExtension {
public:
  IdivBench(Vwf_idiv &top, const wf::rtl::SimOptions &o)
      : top_(top), rng_(o.seed), vectors_(o.vectors) {
    static constexpr uint64_t kEdge[] = {0ull,
                                         1ull,
                                         2ull,
                                         3ull,
                                         7ull,
                                         0xffffffffull,
                                         0x80000000ull,
                                         0x7fffffffull,
                                         0xfffffffffffffffful,
                                         0x8000000000000000ull,
                                         0x7fffffffffffffffull,
                                         0x100000000ull,
                                         0xffffffff00000000ull,
                                         0x123456789abcdefull};
    constexpr unsigned n = sizeof(kEdge) / sizeof(kEdge[0]);
    for (Opcode op : {Opcode::IDIV, Opcode::IREM}) {
      for (unsigned ty = 0; ty < 4; ++ty) {
        Txn t;
        t.inst = Inst(op).mod("ty", ty);
        pack_lanes(
            t, kLanes, n * n,
            [&](Txn &t, unsigned l, size_t k) {
              t.a[l] = kEdge[k / n];
              t.b[l] = kEdge[k % n];
            },
            [&](const Txn &t) { queue_.push_back(finish(t)); });
      }
    }
    // The random operations: vectors per (opcode, type), in lanes.
    random_left_ = ((vectors_ + kLanes - 1) / kLanes) * 8;
  }

  void on_reset() override { top_.valid_i = 0; }

  void drive(uint64_t) override {
    if (!pending_ && (!queue_.empty() || random_left_ > 0) && rng_.chance(60)) {
      if (!queue_.empty()) {
        pending_ = queue_.front();
        queue_.pop_front();
      } else {
        pending_ = random_txn();
        --random_left_;
      }
    }
    top_.valid_i = pending_.has_value();
    if (pending_) {
      top_.inst_i = pending_->inst.word();
      for (unsigned l = 0; l < kLanes; ++l) {
        set_lane32(top_.a_i, l, static_cast<uint32_t>(pending_->a[l]));
        set_lane32(top_.a_hi_i, l, static_cast<uint32_t>(pending_->a[l] >> 32));
        set_lane32(top_.b_i, l, static_cast<uint32_t>(pending_->b[l]));
        set_lane32(top_.b_hi_i, l, static_cast<uint32_t>(pending_->b[l] >> 32));
      }
    }
  }

  void sample(uint64_t cycle) override {
    if (top_.valid_o) {
      if (!inflight_ || inflight_->due != cycle) {
        protocol("valid_o at the wrong cycle", cycle);
      } else {
        check(inflight_->t);
        inflight_.reset();
      }
    } else if (inflight_ && inflight_->due <= cycle) {
      protocol("result missing at the latency", cycle);
      inflight_.reset();
    }
    if (top_.valid_i && top_.ready_o) {
      if (inflight_)
        protocol("accepted while busy", cycle);
      inflight_ = Flight{cycle + latency_of(Opcode::IDIV), *pending_};
      ++issued_[key_of(pending_->inst)];
      pending_.reset();
    }
  }

  bool finished() const override {
    return queue_.empty() && random_left_ == 0 && !pending_ && !inflight_;
  }
  bool passed() const override { return errors_ == 0; }
  void report() const override {
    std::printf("wf_idiv: %llu operations x %u lanes checked, %llu errors\n",
                static_cast<unsigned long long>(checked_), kLanes,
                static_cast<unsigned long long>(errors_));
    for (const auto &[k, v] : issued_) {
      std::printf("  %-10s %llu operand sets\n", k.c_str(),
                  static_cast<unsigned long long>(v * kLanes));
    }
  }

private:
  struct Flight {
    uint64_t due;
    Txn t;
  };

  Txn random_txn() {
    Txn t;
    const unsigned k = static_cast<unsigned>(random_left_ % 8);
    t.inst = Inst(k < 4 ? Opcode::IDIV : Opcode::IREM).mod("ty", k % 4);
    for (unsigned l = 0; l < kLanes; ++l) {
      t.a[l] = rng_.int64();
      t.b[l] = rng_.chance(20) ? rng_.below(20) : rng_.int64();
      if (rng_.chance(10))
        t.b[l] = ~0ull; // -1
      if (rng_.chance(5))
        t.b[l] = 0;
    }
    return finish(t);
  }

  void check(const Txn &t) {
    ++checked_;
    for (unsigned l = 0; l < kLanes; ++l) {
      uint64_t got = get_lane32(top_.res_o, l);
      if (t.wide)
        got |= static_cast<uint64_t>(get_lane32(top_.res_hi_o, l)) << 32;
      if (got != t.expect[l]) {
        ++errors_;
        log_.report("wf_idiv: %s lane %u a=%016llx b=%016llx: %016llx, expected %016llx\n",
                    key_of(t.inst).c_str(), l, static_cast<unsigned long long>(t.a[l]),
                    static_cast<unsigned long long>(t.b[l]), static_cast<unsigned long long>(got),
                    static_cast<unsigned long long>(t.expect[l]));
      }
    }
  }

  void protocol(const char *what, uint64_t cycle) {
    ++errors_;
    log_.report("wf_idiv: cycle %llu: %s\n", static_cast<unsigned long long>(cycle), what);
  }

  Vwf_idiv &top_;
  Rng rng_;
  uint64_t vectors_;
  std::deque<Txn> queue_;
  uint64_t random_left_ = 0;
  std::optional<Txn> pending_;
  std::optional<Flight> inflight_;
  uint64_t checked_ = 0;
  uint64_t errors_ = 0;
  MismatchLog log_;
  std::map<std::string, uint64_t> issued_;
};

} // namespace

int main(int argc, char **argv) { return run_bench<Vwf_idiv, IdivBench>(argc, argv, "wf_idiv"); }

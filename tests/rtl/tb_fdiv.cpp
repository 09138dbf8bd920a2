// wf_fdiv against hls/'s fdiv32, fsqrt32 (every rounding mode, with and without .ftz), fdiv64 and
// fsqrt64 (every rounding mode): every pair of the IEEE edge values (zeros, subnormals, the
// normal/subnormal edge, ones, the overflow edge, infinities, quiet and signaling NaNs, both
// signs) for every modifier combination, then --vectors random operand sets per opcode, among them
// exact quotients and roots (short significands) and exact quotients deep in the subnormal range
// (a full significand over a power of two), where the dropped bits alone make the sticky bit.
// Requests arrive at random times and wait while ready_o is low (stalls); every accepted
// operation must finish exactly the ISA latency later.
#include "Vwf_fdiv.h"
#include "common/tb_op_bench.h"
#include "warpforge/hls/fp32.h"
#include "warpforge/hls/fp64.h"

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
constexpr Opcode kOps[] = {Opcode::FDIV, Opcode::FSQRT, Opcode::DDIV, Opcode::DSQRT};

struct Txn {
  Inst inst{Opcode::FDIV};
  std::array<uint64_t, kLanes> a{}, b{}, expect{};
  bool wide = false;
};

std::string key_of(const Inst &inst) { return std::string(inst.name()); }

bool is64(Opcode op) { return op == Opcode::DDIV || op == Opcode::DSQRT; }

Txn finish(Txn t) {
  const Opcode op = t.inst.op();
  t.wide = is64(op);
  const auto rm = static_cast<hls::RoundMode>(t.inst.get_mod("rnd"));
  const bool ftz = t.inst.has_mod("ftz") && t.inst.get_mod("ftz") != 0;
  for (unsigned l = 0; l < kLanes; ++l) {
    if (!t.wide) {
      t.a[l] &= 0xffffffffull;
      t.b[l] &= 0xffffffffull;
    }
    const uint32_t a32 = static_cast<uint32_t>(t.a[l]), b32 = static_cast<uint32_t>(t.b[l]);
    switch (op) {
    case Opcode::FDIV:
      t.expect[l] = hls::fdiv32(a32, b32, rm, ftz);
      break;
    case Opcode::FSQRT:
      t.expect[l] = hls::fsqrt32(a32, rm, ftz);
      break;
    case Opcode::DDIV:
      t.expect[l] = hls::fdiv64(t.a[l], t.b[l], rm);
      break;
    default:
      t.expect[l] = hls::fsqrt64(t.a[l], rm);
      break;
    }
  }
  return t;
}

class FdivBench : public SimExtension {
public:
  FdivBench(Vwf_fdiv &top, const wf::rtl::SimOptions &o)
      : top_(top), rng_(o.seed), vectors_(o.vectors) {
    static constexpr uint32_t kE32[] = {
        0x00000000u, 0x00000001u, 0x00000002u, 0x007fffffu, 0x00400000u, 0x00800000u,
        0x00800001u, 0x00ffffffu, 0x3f800000u, 0x3f800001u, 0x3f7fffffu, 0x3fc00000u,
        0x40000000u, 0x40400000u, 0x7f7fffffu, 0x7f000000u, 0x7f800000u, 0x7fc00000u,
        0x7f800001u, 0x7fffffffu, 0x33800000u, 0x34000000u, 0x0c800000u, 0x5f000000u};
    static constexpr uint64_t kE64[] = {
        0x0000000000000000ull, 0x0000000000000001ull, 0x0000000000000002ull, 0x000fffffffffffffull,
        0x0008000000000000ull, 0x0010000000000000ull, 0x0010000000000001ull, 0x001fffffffffffffull,
        0x3ff0000000000000ull, 0x3ff0000000000001ull, 0x3fefffffffffffffull, 0x3ff8000000000000ull,
        0x4000000000000000ull, 0x4008000000000000ull, 0x7fefffffffffffffull, 0x7fe0000000000000ull,
        0x7ff0000000000000ull, 0x7ff8000000000000ull, 0x7ff0000000000001ull, 0x7fffffffffffffffull,
        0x3ca0000000000000ull, 0x3cb0000000000000ull, 0x0360000000000000ull, 0x5ff0000000000000ull};
    constexpr unsigned n = sizeof(kE32) / sizeof(kE32[0]);
    static_assert(n == sizeof(kE64) / sizeof(kE64[0]));
    // Both signs of each edge value: 2n values.
    auto edge = [&](bool wide, size_t k) -> uint64_t {
      const uint64_t v = wide ? kE64[k % n] : kE32[k % n];
      const uint64_t s = k >= n ? (wide ? 0x8000000000000000ull : 0x80000000ull) : 0;
      return v | s;
    };
    for (Opcode op : kOps) {
      const bool wide = is64(op);
      const bool sq = op == Opcode::FSQRT || op == Opcode::DSQRT;
      for (const Inst &inst : mod_variants({Inst(op)})) {
        Txn t;
        t.inst = inst;
        const size_t count = sq ? 2 * n : 4 * n * n;
        pack_lanes(
            t, kLanes, count,
            [&](Txn &t, unsigned l, size_t k) {
              t.a[l] = edge(wide, sq ? k : k / (2 * n));
              t.b[l] = edge(wide, sq ? 0 : k % (2 * n));
            },
            [&](const Txn &t) { queue_.push_back(finish(t)); });
      }
      ++num_ops_;
    }
    random_left_ = ((vectors_ + kLanes - 1) / kLanes) * num_ops_;
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
      inflight_ = Flight{cycle + latency_of(pending_->inst.op()), *pending_};
      ++issued_[key_of(pending_->inst)];
      pending_.reset();
    }
  }

  bool finished() const override {
    return queue_.empty() && random_left_ == 0 && !pending_ && !inflight_;
  }
  bool passed() const override { return errors_ == 0; }
  void report() const override {
    std::printf("wf_fdiv: %llu operations x %u lanes checked, %llu errors\n",
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

  // An operand with a short significand (few set bits), so that products and squares of such
  // values are exact: a = q * b gives exact quotients, a = x * x exact square roots.
  uint64_t short_sig(bool wide) {
    if (wide)
      return (static_cast<uint64_t>(900 + rng_.below(250)) << 52) | ((rng_.u64() & 0xfffull) << 40);
    return ((90u + rng_.below(75)) << 23) | ((rng_.u32() & 0x3fu) << 17);
  }

  Txn random_txn() {
    Txn t;
    const Opcode op = kOps[random_left_ % num_ops_];
    const bool wide = is64(op);
    const bool sq = op == Opcode::FSQRT || op == Opcode::DSQRT;
    t.inst = Inst(op).mod("rnd", rng_.below(4));
    if (!wide)
      t.inst.mod("ftz", rng_.below(2));
    for (unsigned l = 0; l < kLanes; ++l) {
      t.a[l] = wide ? rng_.f64() : rng_.f32();
      t.b[l] = wide ? rng_.f64() : rng_.f32();
      if (rng_.chance(10)) {
        // Exact results: a = x * b (or x * x for square roots), rounded to nearest.
        const uint64_t x = short_sig(wide);
        const uint64_t y = sq ? x : (rng_.chance(50) ? short_sig(wide) : t.b[l]);
        t.b[l] = y;
        t.a[l] = wide ? hls::fmul64(x, y, hls::RoundMode::RN)
                      : hls::fmul32(static_cast<uint32_t>(x), static_cast<uint32_t>(y),
                                    hls::RoundMode::RN, false);
      }
      if (!sq && rng_.chance(10)) {
        // A full significand divided by a power of two into the subnormal range: exact
        // quotients whose dropped bits alone decide the sticky bit.
        const uint64_t sa = rng_.chance(50) ? 1 : 0, sb = rng_.chance(50) ? 1 : 0;
        // Uniform or sparse significands (a few set bits, the last one often).
        uint64_t frac = rng_.u64();
        if (rng_.chance(60)) {
          frac = rng_.chance(50) ? 1 : 0;
          for (unsigned i = rng_.below(3); i > 0; --i)
            frac |= 1ull << rng_.below(52);
        }
        if (wide) {
          const uint64_t ea = 1 + rng_.below(960);
          t.a[l] = (sa << 63) | (ea << 52) | (frac & 0x000fffffffffffffull);
          t.b[l] = (sb << 63) | ((ea + 1023 + rng_.below(60)) << 52);
        } else {
          const uint64_t ea = 1 + rng_.below(90);
          t.a[l] = (sa << 31) | (ea << 23) | (((frac >> 29) | (frac & 1)) & 0x7fffffu);
          t.b[l] = (sb << 31) | ((ea + 127 + rng_.below(30)) << 23);
        }
      }
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
        log_.report("wf_fdiv: %s rnd=%llu ftz=%d lane %u a=%016llx b=%016llx: %016llx, "
                    "expected %016llx\n",
                    key_of(t.inst).c_str(), static_cast<unsigned long long>(t.inst.get_mod("rnd")),
                    t.inst.has_mod("ftz") ? static_cast<int>(t.inst.get_mod("ftz")) : 0, l,
                    static_cast<unsigned long long>(t.a[l]),
                    static_cast<unsigned long long>(t.b[l]), static_cast<unsigned long long>(got),
                    static_cast<unsigned long long>(t.expect[l]));
      }
    }
  }

  void protocol(const char *what, uint64_t cycle) {
    ++errors_;
    log_.report("wf_fdiv: cycle %llu: %s\n", static_cast<unsigned long long>(cycle), what);
  }

  Vwf_fdiv &top_;
  Rng rng_;
  uint64_t vectors_;
  unsigned num_ops_ = 0;
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

int main(int argc, char **argv) { return run_bench<Vwf_fdiv, FdivBench>(argc, argv, "wf_fdiv"); }

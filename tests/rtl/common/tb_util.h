// Helpers shared by the RTL unit benches: instruction encoding through the generated ISA tables,
// lane access on Verilated ports, random operands with edge cases, and a checker for fixed-latency
// valid-in/valid-out pipelines.
#pragma once

#include "warpforge/isa/isa.gen.h"
#include "warpforge/rtl/sim_ctrl.h"

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace wf::rtl::tb {

// ---------------------------------------------------------------------------------------------
// Instruction words, built from the generated ISA tables (no field position written here).

class Inst {
public:
  explicit Inst(isa::Opcode op) : op_(op) {
    word_ = isa::setField(0, isa::FormatR::op, static_cast<uint64_t>(op));
  }
  // Sets a modifier by its ISA name ("rnd", "ftz", ...).
  Inst &mod(std::string_view name, uint64_t value) {
    const auto &info = isa::opInfo(op_);
    for (unsigned i = 0; i < info.numMods; ++i) {
      if (info.mods[i].name == name) {
        word_ = isa::setField(word_, info.mods[i].field, value);
        return *this;
      }
    }
    die(name);
    return *this;
  }
  // Sets an operand field by its ISA name ("pc", "lut", "rd", ...).
  Inst &operand(std::string_view name, uint64_t value) {
    const auto &info = isa::opInfo(op_);
    for (unsigned i = 0; i < info.numOperands; ++i) {
      if (info.operands[i].name == name) {
        word_ = isa::setField(word_, info.operands[i].field, value);
        return *this;
      }
    }
    die(name);
    return *this;
  }
  uint64_t get_mod(std::string_view name) const {
    const auto &info = isa::opInfo(op_);
    for (unsigned i = 0; i < info.numMods; ++i) {
      if (info.mods[i].name == name)
        return isa::getField(word_, info.mods[i].field);
    }
    die(name);
  }
  uint64_t get_operand(std::string_view name) const {
    const auto &info = isa::opInfo(op_);
    for (unsigned i = 0; i < info.numOperands; ++i) {
      if (info.operands[i].name == name)
        return isa::getField(word_, info.operands[i].field);
    }
    die(name);
  }
  // Width in bits of a modifier field (enumerations: how many encodings to try).
  unsigned mod_width(std::string_view name) const {
    const auto &info = isa::opInfo(op_);
    for (unsigned i = 0; i < info.numMods; ++i) {
      if (info.mods[i].name == name)
        return info.mods[i].field.width;
    }
    die(name);
  }
  bool has_mod(std::string_view name) const {
    const auto &info = isa::opInfo(op_);
    for (unsigned i = 0; i < info.numMods; ++i) {
      if (info.mods[i].name == name)
        return true;
    }
    return false;
  }
  uint64_t word() const { return word_; }
  isa::Opcode op() const { return op_; }
  std::string_view name() const { return isa::opInfo(op_).name; }

private:
  [[noreturn]] void die(std::string_view field) const {
    std::fprintf(stderr, "tb: opcode %.*s has no field '%.*s'\n",
                 static_cast<int>(isa::opInfo(op_).name.size()), isa::opInfo(op_).name.data(),
                 static_cast<int>(field.size()), field.data());
    std::abort();
  }
  isa::Opcode op_;
  uint64_t word_ = 0;
};

inline unsigned latency_of(isa::Opcode op) { return isa::opInfo(op).latency; }

// ---------------------------------------------------------------------------------------------
// Bit access on Verilated ports: CData/SData/IData/QData (integral) or VlWide<N> (32-bit words).

template <class P> inline void set_bits(P &port, unsigned lsb, unsigned width, uint64_t value) {
  if constexpr (std::is_integral_v<P>) {
    const uint64_t mask = (width >= 64 ? ~0ull : ((1ull << width) - 1)) << lsb;
    uint64_t v = static_cast<uint64_t>(port);
    v = (v & ~mask) | ((value << lsb) & mask);
    port = static_cast<P>(v);
  } else {
    for (unsigned i = 0; i < width; ++i) {
      const unsigned bit = lsb + i;
      const uint32_t m = 1u << (bit % 32);
      if ((value >> i) & 1) {
        port[bit / 32] |= m;
      } else {
        port[bit / 32] &= ~m;
      }
    }
  }
}

template <class P> inline uint64_t get_bits(const P &port, unsigned lsb, unsigned width) {
  if constexpr (std::is_integral_v<P>) {
    const uint64_t v = static_cast<uint64_t>(port) >> lsb;
    return width >= 64 ? v : v & ((1ull << width) - 1);
  } else {
    uint64_t v = 0;
    for (unsigned i = 0; i < width; ++i) {
      const unsigned bit = lsb + i;
      v |= static_cast<uint64_t>((port[bit / 32] >> (bit % 32)) & 1u) << i;
    }
    return v;
  }
}

template <class P> inline void set_lane32(P &port, unsigned lane, uint32_t v) {
  if constexpr (std::is_integral_v<P>) {
    set_bits(port, 32 * lane, 32, v);
  } else {
    port[lane] = v;
  }
}
template <class P> inline uint32_t get_lane32(const P &port, unsigned lane) {
  if constexpr (std::is_integral_v<P>) {
    return static_cast<uint32_t>(get_bits(port, 32 * lane, 32));
  } else {
    return port[lane];
  }
}
template <class P> inline void set_lane64(P &port, unsigned lane, uint64_t v) {
  if constexpr (std::is_integral_v<P>) {
    port = static_cast<P>(v);
  } else {
    port[2 * lane] = static_cast<uint32_t>(v);
    port[2 * lane + 1] = static_cast<uint32_t>(v >> 32);
  }
}
template <class P> inline uint64_t get_lane64(const P &port, unsigned lane) {
  if constexpr (std::is_integral_v<P>) {
    return static_cast<uint64_t>(port);
  } else {
    return static_cast<uint64_t>(port[2 * lane]) |
           (static_cast<uint64_t>(port[2 * lane + 1]) << 32);
  }
}
template <class P> inline void set_bit(P &port, unsigned bit, bool v) {
  set_bits(port, bit, 1, v ? 1 : 0);
}
template <class P> inline bool get_bit(const P &port, unsigned bit) {
  return get_bits(port, bit, 1) != 0;
}

// ---------------------------------------------------------------------------------------------
// Random operands: uniform most of the time, edge values and small numbers otherwise.

class Rng {
public:
  explicit Rng(uint64_t seed) : gen_(seed) {}
  uint64_t u64() { return gen_(); }
  uint32_t u32() { return static_cast<uint32_t>(gen_()); }
  uint32_t below(uint32_t n) { return n == 0 ? 0 : static_cast<uint32_t>(gen_() % n); }
  bool chance(unsigned percent) { return below(100) < percent; }

  // 32-bit integer operand: edge values, small values, single bits, or uniform.
  uint32_t int32() {
    static constexpr uint32_t kEdges[] = {
        0u,          1u,  2u,  0xffffffffu, 0xfffffffeu, 0x7fffffffu, 0x80000000u, 0x80000001u,
        0x7ffffffeu, 31u, 32u, 33u,         63u,         64u,         0xffu,       0x100u};
    switch (below(8)) {
    case 0:
      return kEdges[below(sizeof(kEdges) / sizeof(kEdges[0]))];
    case 1:
      return below(70);
    case 2:
      return 1u << below(32);
    case 3:
      return ~(1u << below(32));
    case 4:
      return static_cast<uint32_t>(-static_cast<int32_t>(below(70)));
    default:
      return u32();
    }
  }
  // FP32 operand: every IEEE class and boundary (zeros, subnormals, the normal/subnormal edge,
  // ones, the overflow edge, infinities, quiet and signaling NaNs), sparse significands (which
  // make exact ties and cancellations common) and uniform bit patterns.
  uint32_t f32() {
    static constexpr uint32_t kEdges[] = {
        0x00000000u, 0x00000001u, 0x00000002u, 0x007fffffu, 0x00400000u, 0x00800000u,
        0x00800001u, 0x00ffffffu, 0x3f800000u, 0x3f800001u, 0x3f7fffffu, 0x3fc00000u,
        0x40000000u, 0x7f7fffffu, 0x7f7ffffeu, 0x7f000000u, 0x7f800000u, 0x7fc00000u,
        0x7f800001u, 0x7fffffffu, 0x33800000u, 0x34000000u, 0x0c800000u, 0x1a000000u};
    const uint32_t sign = chance(50) ? 0x80000000u : 0u;
    switch (below(10)) {
    case 0:
    case 1:
      return sign | kEdges[below(sizeof(kEdges) / sizeof(kEdges[0]))];
    case 2:
      return sign | (u32() & 0x007fffffu); // subnormal
    case 3: {                              // sparse
      uint32_t frac = 0;
      for (unsigned i = below(4); i > 0; --i)
        frac |= 1u << below(23);
      return sign | ((1 + below(254)) << 23) | frac;
    }
    case 4:
      return sign | ((below(30) + (chance(50) ? 0 : 224)) << 23) | (u32() & 0x7fffffu);
    case 5:
      return sign | ((112 + below(30)) << 23) | (u32() & 0x7fffffu); // near 1.0
    default:
      return u32();
    }
  }
  // An FP32 value near x (same exponent region, a few ulps or a sparse change away).
  uint32_t f32_near(uint32_t x) {
    switch (below(4)) {
    case 0:
      return x ^ 0x80000000u;
    case 1:
      return (x ^ 0x80000000u) + below(5) - 2;
    case 2:
      return x + (1u << below(24));
    default:
      return (x & 0xff800000u) | (u32() & 0x7fffffu);
    }
  }
  // FP64 operand: the classes of f32() for binary64, plus exponents whose products land near the
  // subnormal range (biased 470-560) or the overflow edge (1490-1560).
  uint64_t f64() {
    static constexpr uint64_t kEdges[] = {
        0x0000000000000000ull, 0x0000000000000001ull, 0x0000000000000002ull,
        0x000fffffffffffffull, 0x0008000000000000ull, 0x0010000000000000ull,
        0x0010000000000001ull, 0x001fffffffffffffull, 0x3ff0000000000000ull,
        0x3ff0000000000001ull, 0x3fefffffffffffffull, 0x3ff8000000000000ull,
        0x4000000000000000ull, 0x7fefffffffffffffull, 0x7feffffffffffffeull,
        0x7fe0000000000000ull, 0x7ff0000000000000ull, 0x7ff8000000000000ull,
        0x7ff0000000000001ull, 0x7fffffffffffffffull, 0x3ca0000000000000ull,
        0x3cb0000000000000ull, 0x0360000000000000ull, 0x1ff0000000000000ull};
    const uint64_t sign = chance(50) ? 0x8000000000000000ull : 0;
    constexpr uint64_t kFrac = 0x000fffffffffffffull;
    switch (below(12)) {
    case 0:
    case 1:
      return sign | kEdges[below(sizeof(kEdges) / sizeof(kEdges[0]))];
    case 2:
      return sign | (u64() & (kFrac >> below(52))); // subnormal, of any size
    case 3: {                                       // sparse
      uint64_t frac = 0;
      for (unsigned i = below(4); i > 0; --i)
        frac |= 1ull << below(52);
      return sign | (static_cast<uint64_t>(1 + below(2046)) << 52) | frac;
    }
    case 4:
      return sign | (static_cast<uint64_t>(below(60) + (chance(50) ? 0 : 1988)) << 52) |
             (u64() & kFrac);
    case 5:
      return sign | (static_cast<uint64_t>(1000 + below(50)) << 52) | (u64() & kFrac);
    case 6:
      return sign | (static_cast<uint64_t>(470 + below(90)) << 52) | (u64() & kFrac);
    case 7:
      return sign | (static_cast<uint64_t>(1490 + below(70)) << 52) | (u64() & kFrac);
    default:
      return u64();
    }
  }
  // An FP64 value near x (same exponent region, a few ulps or a sparse change away).
  uint64_t f64_near(uint64_t x) {
    constexpr uint64_t kSign = 0x8000000000000000ull;
    switch (below(4)) {
    case 0:
      return x ^ kSign;
    case 1:
      return (x ^ kSign) + below(5) - 2;
    case 2:
      return x + (1ull << below(53));
    default:
      return (x & 0xfff0000000000000ull) | (u64() & 0x000fffffffffffffull);
    }
  }
  uint64_t int64() {
    switch (below(6)) {
    case 0:
      return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(int32())));
    case 1:
      return int32();
    case 2:
      return (static_cast<uint64_t>(int32()) << 32) | int32();
    case 3:
      return 1ull << below(64);
    default:
      return u64();
    }
  }

private:
  std::mt19937_64 gen_;
};

// ---------------------------------------------------------------------------------------------
// Fixed-latency pipeline checker: each accepted input is expected at the output exactly
// `latency` cycles later, in order; every output cycle without an expectation is an error.

template <class Expect> class LatencyScoreboard {
public:
  using CheckFn = std::function<bool(const Expect &, uint64_t cycle)>;

  explicit LatencyScoreboard(std::string name) : name_(std::move(name)) {}

  void expect(uint64_t due_cycle, Expect e) { queue_.push_back({due_cycle, std::move(e)}); }

  // Call once per cycle from sample(): `valid` is the unit's valid_o in this cycle.
  void observe(uint64_t cycle, bool valid, const CheckFn &check) {
    if (!queue_.empty() && queue_.front().due < cycle) {
      fail(cycle, "expected output missing (latency too long or dropped)");
      queue_.pop_front();
    }
    if (!valid)
      return;
    if (queue_.empty() || queue_.front().due != cycle) {
      fail(cycle, "unexpected valid output (latency too short or spurious)");
      return;
    }
    if (!check(queue_.front().e, cycle))
      ++mismatches_;
    ++checked_;
    queue_.pop_front();
  }

  bool empty() const { return queue_.empty(); }
  uint64_t checked() const { return checked_; }
  uint64_t errors() const { return mismatches_ + protocol_errors_; }

private:
  void fail(uint64_t cycle, const char *what) {
    if (protocol_errors_++ < 10) {
      std::fprintf(stderr, "%s: cycle %" PRIu64 ": %s\n", name_.c_str(), cycle, what);
    }
  }
  struct Item {
    uint64_t due;
    Expect e;
  };
  std::string name_;
  std::deque<Item> queue_;
  uint64_t checked_ = 0;
  uint64_t mismatches_ = 0;
  uint64_t protocol_errors_ = 0;
};

// Reports at most `limit` mismatches per key and counts all of them.
class MismatchLog {
public:
  explicit MismatchLog(unsigned limit = 10) : limit_(limit) {}
  template <class... Args> void report(const char *fmt, Args... args) {
    if (count_++ < limit_)
      std::fprintf(stderr, fmt, args...);
  }
  uint64_t count() const { return count_; }

private:
  unsigned limit_;
  uint64_t count_ = 0;
};

// ---------------------------------------------------------------------------------------------
// A bench for a fixed-latency unit with valid_i / valid_o: issues transactions with random
// bubbles (and bursts of back-to-back issue), expects each result exactly latency(txn) cycles
// later, and counts operand sets per key (an opcode name) for the report.
// Derived classes provide next() (false when nothing is left), apply() and check().

template <class Top, class Txn> class FixedLatencyBench : public SimExtension {
public:
  FixedLatencyBench(Top &top, std::string name, uint64_t seed, unsigned lanes)
      : top_(top), rng_(seed), name_(std::move(name)), lanes_(lanes), sb_(name_) {}

  void on_reset() override { top_.valid_i = 0; }

  void drive(uint64_t cycle) override {
    top_.valid_i = 0;
    if (done_issuing_)
      return;
    // Alternate between bursts of back-to-back issue and sparse issue; a unit that is not ready
    // (can_issue) stalls the issue.
    if ((cycle / 64) % 3 != 0 && !rng_.chance(40))
      return;
    if (!can_issue())
      return;
    Txn t;
    if (!next(t)) {
      done_issuing_ = true;
      return;
    }
    top_.valid_i = 1;
    apply(top_, t);
    ++issued_[key(t)];
    sb_.expect(cycle + latency(t), std::move(t));
  }

  void sample(uint64_t cycle) override {
    sb_.observe(cycle, top_.valid_o != 0, [&](const Txn &t, uint64_t) { return check(top_, t); });
  }

  bool finished() const override { return done_issuing_ && sb_.empty(); }
  bool passed() const override { return sb_.errors() == 0; }
  void report() const override {
    std::printf("%s: %llu transactions x %u lanes checked, %llu errors\n", name_.c_str(),
                static_cast<unsigned long long>(sb_.checked()), lanes_,
                static_cast<unsigned long long>(sb_.errors()));
    for (const auto &[k, n] : issued_) {
      std::printf("  %-10s %llu operand sets\n", k.c_str(),
                  static_cast<unsigned long long>(n * lanes_));
    }
  }

protected:
  virtual bool next(Txn &t) = 0;
  virtual void apply(Top &top, const Txn &t) = 0;
  virtual bool check(const Top &top, const Txn &t) = 0;
  virtual unsigned latency(const Txn &t) const = 0;
  virtual std::string key(const Txn &t) const = 0;
  // Units with ready_o (multi-cycle issue) accept an operation only when it is high.
  virtual bool can_issue() const { return true; }

  Top &top_;
  Rng rng_;
  std::string name_;
  unsigned lanes_;
  MismatchLog log_;

private:
  LatencyScoreboard<Txn> sb_;
  bool done_issuing_ = false;
  std::map<std::string, uint64_t> issued_;
};

// Runs a bench extension on a model: reset, run, final. Returns the process exit status.
template <class Top, class Bench> int run_bench(int argc, char **argv, const char *name) {
  SimCtrl<Top> sim(argc, argv, name);
  Bench bench(sim.top(), sim.options());
  sim.add_extension(bench);
  sim.reset();
  const bool ok = sim.run();
  sim.finish();
  return ok ? 0 : 1;
}

} // namespace wf::rtl::tb

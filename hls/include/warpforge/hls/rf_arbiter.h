//===- warpforge/hls/rf_arbiter.h - Register-file bank read arbiter -------===//
//
// Part of Warpforge. Which operand collector reads which register-file bank in a cycle
// (docs/microarchitecture.md, "Register file and operand collectors"). The cycle model calls it;
// rtl/core/wf_rf_read_arb.sv is checked against it cycle by cycle (tests/rtl/tb_rf_read_arb.cpp).
//
// `collectors` collectors (isa/config.toml `operand_collectors`) each present up to kRfSlots read
// requests for their current pass, one per source register slot (ra, ra+1, ..., rd+3 in that
// order), each naming a bank of `banks` (`rf_banks`). Every bank has one read port. Each cycle:
//   - every bank is granted to the oldest collector requesting it (earliest allocated), and within
//     that collector to its lowest requesting slot;
//   - a collector may be granted several banks in one cycle (its slots on different banks).
// Age: collectors allocated in the same cycle are ordered by index (the issue slots take the
// lowest free collectors in slot order, so a lower index is the earlier slot); a newly allocated
// collector is younger than every collector already allocated. Reset: no order.
//
//===----------------------------------------------------------------------===//

#ifndef WARPFORGE_HLS_RF_ARBITER_H
#define WARPFORGE_HLS_RF_ARBITER_H

#include <array>
#include <cstdint>

namespace wf::hls {

inline constexpr unsigned kMaxCollectors = 16;
inline constexpr unsigned kMaxRfBanks = 16;
inline constexpr unsigned kRfSlots = 6; ///< source registers a collector reads for one pass

/// One collector's read requests for its current pass.
struct RfReadRequest {
  uint8_t valid = 0;                  ///< bit s: slot s wants a read
  std::array<uint8_t, kRfSlots> bank{}; ///< bank of each slot
};

/// The grants of one cycle.
struct RfReadGrant {
  uint16_t bankValid = 0;                          ///< bit b: bank b reads this cycle
  std::array<uint8_t, kMaxRfBanks> collector{};    ///< for each granted bank: the collector
  std::array<uint8_t, kMaxRfBanks> slot{};         ///< and its slot
  std::array<uint8_t, kMaxCollectors> slotsGranted{}; ///< per collector: bit s granted
};

class RfReadArbiter {
public:
  constexpr RfReadArbiter(unsigned collectors, unsigned banks)
      : collectors_(collectors), banks_(banks) {
    reset();
  }

  constexpr void reset() { older_.fill(0); }

  /// The grants for `req` (one request per collector); no state changes.
  constexpr RfReadGrant grant(const std::array<RfReadRequest, kMaxCollectors> &req) const {
    RfReadGrant g;
    for (unsigned b = 0; b < banks_; ++b) {
      // Collectors requesting bank b.
      uint32_t wants = 0;
      for (unsigned c = 0; c < collectors_; ++c)
        for (unsigned s = 0; s < kRfSlots; ++s)
          if (((req[c].valid >> s) & 1) && req[c].bank[s] == b)
            wants |= 1u << c;
      if (wants == 0)
        continue;
      // The oldest of them (lowest index when the order does not decide).
      unsigned winner = 0;
      for (unsigned c = 0; c < collectors_; ++c) {
        if (!((wants >> c) & 1))
          continue;
        bool anyOlder = false;
        for (unsigned j = 0; j < collectors_; ++j)
          anyOlder = anyOlder || (((wants >> j) & 1) && isOlder(j, c));
        if (!anyOlder) {
          winner = c;
          break;
        }
      }
      unsigned slot = 0;
      for (unsigned s = 0; s < kRfSlots; ++s) {
        if (((req[winner].valid >> s) & 1) && req[winner].bank[s] == b) {
          slot = s;
          break;
        }
      }
      g.bankValid = static_cast<uint16_t>(g.bankValid | (1u << b));
      g.collector[b] = static_cast<uint8_t>(winner);
      g.slot[b] = static_cast<uint8_t>(slot);
      g.slotsGranted[winner] = static_cast<uint8_t>(g.slotsGranted[winner] | (1u << slot));
    }
    return g;
  }

  /// One clock edge: the grants of `req`, then the collectors of `allocate` become the youngest.
  constexpr RfReadGrant step(const std::array<RfReadRequest, kMaxCollectors> &req,
                             uint32_t allocate) {
    const RfReadGrant g = grant(req);
    for (unsigned c = 0; c < collectors_; ++c) {
      if ((allocate >> c) & 1)
        older_[c] = allocate & ~((2u << c) - 1);
      else
        older_[c] |= allocate;
    }
    return g;
  }

  /// Whether collector a was allocated before collector b.
  constexpr bool isOlder(unsigned a, unsigned b) const { return (older_[a] >> b) & 1; }

private:
  unsigned collectors_;
  unsigned banks_;
  std::array<uint32_t, kMaxCollectors> older_{}; ///< older_[a] bit b: a is older than b
};

} // namespace wf::hls

#endif // WARPFORGE_HLS_RF_ARBITER_H

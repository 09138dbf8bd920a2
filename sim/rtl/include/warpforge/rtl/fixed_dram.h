// The `fixed` DRAM timing model of docs/microarchitecture.md ("Memory system outside the cores"):
// latency and bandwidth only, in exact integer arithmetic, one instance a channel.
//
// A line request is served at the first cycle s that is no earlier than its arrival and than the
// previous line's service, at which the channel's credit covers the line's cost; serving takes the
// cost from the credit. The credit grows by `creditPerCycle` every cycle; while no request waits it
// stops growing at one line's cost (an idle channel banks no more than one line). A read's data
// (a write's acknowledgement) is ready `latencyCycles` after s. Several lines may be served in one
// cycle when the credit covers them (a channel faster than one line a core cycle).
//
// With the configuration's parameters (docs/rtl-sim.md):
//   latencyCycles  = ceil(dram_latency_ns x clock_mhz / 1000)
//   creditPerCycle = dram_mts x dram_bus_bits / 8
//   lineCost       = cache_line_bytes x clock_mhz
#pragma once

#include "warpforge/isa/config.gen.h"

#include <algorithm>
#include <cstdint>

namespace wf::rtl {

struct FixedDramParams {
  uint64_t latencyCycles = 1;
  uint64_t creditPerCycle = 1;
  uint64_t lineCost = 1;

  static FixedDramParams fromConfig(const isa::Config &c) {
    FixedDramParams p;
    p.latencyCycles = (uint64_t(c.dramLatencyNs) * c.clockMhz + 999) / 1000;
    p.creditPerCycle = uint64_t(c.dramMts) * c.dramBusBits / 8;
    p.lineCost = uint64_t(c.cacheLineBytes) * c.clockMhz;
    return p;
  }
};

class FixedDramChannel {
public:
  explicit FixedDramChannel(const FixedDramParams &p) : p_(p), credit_(p.lineCost) {}

  /// A line request arriving at `cycle` (non-decreasing from call to call); returns the cycle its
  /// read data or write acknowledgement is ready.
  uint64_t request(uint64_t cycle) {
    uint64_t start = cycle;
    if (served_ && cycle <= last_) {
      start = last_; // still waiting behind earlier lines: the credit was not capped meanwhile
    } else if (served_) {
      // Idle from the cycle after the last service: the credit grows and stops at one line's cost.
      uint64_t idle = cycle - last_;
      bool full = idle >= (p_.lineCost + p_.creditPerCycle - 1) / p_.creditPerCycle;
      credit_ = full ? p_.lineCost : std::min(credit_ + p_.creditPerCycle * idle, p_.lineCost);
    }
    uint64_t serve = start;
    if (credit_ < p_.lineCost) {
      uint64_t wait = (p_.lineCost - credit_ + p_.creditPerCycle - 1) / p_.creditPerCycle;
      serve += wait;
      credit_ += wait * p_.creditPerCycle;
    }
    credit_ -= p_.lineCost;
    last_ = serve;
    served_ = true;
    ++lines_;
    return serve + p_.latencyCycles;
  }

  uint64_t lines() const { return lines_; }
  const FixedDramParams &params() const { return p_; }

private:
  FixedDramParams p_;
  uint64_t credit_;
  uint64_t last_ = 0; ///< the cycle the last line was served
  bool served_ = false;
  uint64_t lines_ = 0;
};

} // namespace wf::rtl

//===- warpforge/hls/operand_collector.h - Operand collectors -------------===//
//
// Part of Warpforge. The operand collectors of a SIMT core, one clock cycle at a time
// (docs/microarchitecture.md, "Register file and operand collectors"): which collector an issued
// instruction takes, which register-file bank rows each collector reads in a cycle (through
// RfReadArbiter), when a collector's pass is complete, when it is free, and which of its source
// groups are still unread (the issue stage's write-after-read rule). The cycle model calls it;
// rtl/core/wf_opcoll.sv is checked against it cycle by cycle (tests/rtl/tb_opcoll.cpp).
//
// Slots. An instruction's source registers occupy up to kRfSlots operand slots in the order
// ra, ra+1, .., rb, .., rc, .., rd (store data). A role takes as many slots as the instruction
// format gives it (the decoder's r*_cnt), also when its register is RZ: then the slot needs no read
// and holds 0. So an opcode's operands always sit in the same slots (FFMA: a 0, b 1, c 2; DFMA:
// a 0-1, b 2-3, c 4-5; STG.128: address 0-1, data 2-5). An instruction needing more than kRfSlots
// slots (SUST with a 3D coordinate and a vector of four) is not supported by the collectors.
//
// Registers. Register r of a warp is physical warp register p = rfBase + r, in bank p mod B at row
// (p div B) x P + pass (B = banks, P = passes = 32 / lanes; both powers of two).
//
// Timing (cycle t is the issue cycle of the instruction):
//   - t: the issue slots take the lowest free collectors (slot 0 the lowest). A collector is free
//     from the cycle after its last pass dispatched.
//   - t + 1 (the collector's first cycle): the guard and predicate sources are read from the
//     predicate file; pass 0's reads are requested.
//   - every cycle: a collector requests the reads of its current pass not yet granted; the
//     arbiter grants each bank to the oldest requesting collector, lowest slot. A grant in cycle g
//     delivers its row into the collector's slot buffer at the end of g + 1.
//   - a pass is complete in cycle t' when the collector is past its first cycle, every read of the
//     pass was granted and delivered (granted in t' - 2 or earlier), and the collector did not
//     dispatch in t' - 1. Dispatch (another block) takes complete passes.
//   - when pass p (not the last) dispatches in cycle d, pass p + 1 becomes current in d: its reads
//     are requested in d already (granted at the earliest in d, delivered at the end of d + 1),
//     so it is complete at the earliest in d + 2, reads or not. The last pass's dispatch frees
//     the collector.
//
//===----------------------------------------------------------------------===//

#ifndef WARPFORGE_HLS_OPERAND_COLLECTOR_H
#define WARPFORGE_HLS_OPERAND_COLLECTOR_H

#include "warpforge/hls/rf_arbiter.h"

#include <array>
#include <cstdint>

namespace wf::hls {

inline constexpr unsigned kOcRoles = 4;     ///< ra, rb, rc, rd (store data), in slot order
inline constexpr unsigned kMaxOcIssue = 2;  ///< issue width
inline constexpr unsigned kMaxOcPasses = 4; ///< 32 / 8 lanes

/// One source role of an instruction: the decoder's r*, r*_re and r*_cnt.
struct OcRole {
  uint8_t reg = 0;
  uint8_t count = 0; ///< slots the role occupies: 0 (absent), 1, 2 or 4
  bool read = false; ///< false for RZ or absent: the slots hold 0
};

/// An issued instruction, as the collectors see it.
struct OcIssue {
  bool valid = false;
  uint8_t warp = 0;
  uint16_t rfBase = 0; ///< the warp's first physical warp register
  std::array<OcRole, kOcRoles> roles{};
};

/// What a collector still has to read, for the write-after-read rule: per role, whether some
/// slot of it is not yet granted for the last pass.
struct OcPending {
  bool valid = false;
  uint8_t warp = 0;
  std::array<bool, kOcRoles> role{};
};

/// The slot layout of an instruction: first slot of each role and the total; 0 on success, or
/// false when the roles need more than kRfSlots slots.
struct OcLayout {
  std::array<uint8_t, kOcRoles> first{};
  unsigned slots = 0;
  bool fits = true;
};

constexpr OcLayout ocLayout(const std::array<OcRole, kOcRoles> &roles) {
  OcLayout l;
  for (unsigned g = 0; g < kOcRoles; ++g) {
    l.first[g] = static_cast<uint8_t>(l.slots);
    l.slots += roles[g].count;
  }
  l.fits = l.slots <= kRfSlots;
  return l;
}

/// The outputs of one cycle.
struct OcCycle {
  RfReadGrant grant;                            ///< the read arbiter's grants
  std::array<uint16_t, kMaxRfBanks> row{};      ///< the row each granted bank reads
  std::array<uint8_t, kMaxOcIssue> issueColl{}; ///< collector taken by each valid issue slot
  bool error = false; ///< a dispatch of a pass that is not complete, or an issue with no collector
};

class OperandCollectors {
public:
  constexpr OperandCollectors(unsigned collectors, unsigned banks, unsigned passes)
      : collectors_(collectors), banks_(banks), passes_(passes), arb_(collectors, banks) {
    reset();
  }

  constexpr void reset() {
    arb_.reset();
    coll_.fill(Collector{});
  }

  /// Collectors free at the start of this cycle (bit c).
  constexpr uint32_t freeMask() const {
    uint32_t m = 0;
    for (unsigned c = 0; c < collectors_; ++c)
      if (!coll_[c].valid)
        m |= 1u << c;
    return m;
  }

  /// Whether collector c's current pass is complete (may dispatch this cycle).
  constexpr bool passReady(unsigned c) const {
    const Collector &k = coll_[c];
    return k.valid && !k.first && !k.inflight && k.got == k.need;
  }

  constexpr bool valid(unsigned c) const { return coll_[c].valid; }
  constexpr unsigned pass(unsigned c) const { return coll_[c].pass; }
  constexpr unsigned warp(unsigned c) const { return coll_[c].warp; }
  constexpr bool firstCycle(unsigned c) const { return coll_[c].valid && coll_[c].first; }
  /// Slots that need a read every pass (bit s), and each slot's physical warp register.
  constexpr uint8_t needMask(unsigned c) const { return coll_[c].need; }
  constexpr uint16_t slotReg(unsigned c, unsigned s) const { return coll_[c].phys[s]; }
  constexpr bool isOlder(unsigned a, unsigned b) const { return arb_.isOlder(a, b); }

  constexpr OcPending pending(unsigned c) const {
    const Collector &k = coll_[c];
    OcPending p;
    p.valid = k.valid;
    p.warp = k.warp;
    if (!k.valid)
      return p;
    for (unsigned g = 0; g < kOcRoles; ++g) {
      const uint8_t bits = static_cast<uint8_t>(((1u << k.roleCount[g]) - 1) << k.roleFirst[g]);
      p.role[g] = (bits & k.need) != 0 && (k.pass + 1u < passes_ || (bits & k.need & ~k.got) != 0);
    }
    return p;
  }

  /// One clock edge. `dispatch` bit c: collector c's current pass dispatches in this cycle.
  constexpr OcCycle step(const std::array<OcIssue, kMaxOcIssue> &issue, uint32_t dispatch) {
    OcCycle out;
    // Requests of this cycle.
    std::array<RfReadRequest, kMaxCollectors> req{};
    std::array<bool, kMaxCollectors> advance{};
    for (unsigned c = 0; c < collectors_; ++c) {
      Collector &k = coll_[c];
      const bool disp = (dispatch >> c) & 1;
      if (disp && !passReady(c))
        out.error = true;
      if (!k.valid)
        continue;
      advance[c] = disp && k.pass + 1u < passes_;
      const uint8_t want = advance[c] ? k.need : (disp ? 0 : static_cast<uint8_t>(k.need & ~k.got));
      req[c].valid = want;
      for (unsigned s = 0; s < kRfSlots; ++s)
        req[c].bank[s] = static_cast<uint8_t>(k.phys[s] % banks_);
    }
    // Allocation: issue slot k takes the lowest collector free at the start of the cycle and not
    // taken by an earlier slot.
    uint32_t freeNow = freeMask();
    uint32_t alloc = 0;
    std::array<Collector, kMaxOcIssue> fresh{};
    std::array<unsigned, kMaxOcIssue> freshColl{};
    for (unsigned i = 0; i < kMaxOcIssue; ++i) {
      if (!issue[i].valid)
        continue;
      if (freeNow == 0) {
        out.error = true;
        continue;
      }
      const unsigned c = static_cast<unsigned>(__builtin_ctz(freeNow));
      freeNow &= freeNow - 1;
      alloc |= 1u << c;
      out.issueColl[i] = static_cast<uint8_t>(c);
      freshColl[i] = c;
      fresh[i] = load(issue[i]);
    }
    out.grant = arb_.step(req, alloc);
    for (unsigned b = 0; b < banks_; ++b) {
      if (!((out.grant.bankValid >> b) & 1))
        continue;
      const Collector &k = coll_[out.grant.collector[b]];
      const unsigned pass = advance[out.grant.collector[b]] ? k.pass + 1 : k.pass;
      out.row[b] = static_cast<uint16_t>((k.phys[out.grant.slot[b]] / banks_) * passes_ + pass);
    }
    // Next state.
    for (unsigned c = 0; c < collectors_; ++c) {
      Collector &k = coll_[c];
      if (!k.valid)
        continue;
      const bool disp = (dispatch >> c) & 1;
      const uint8_t granted = out.grant.slotsGranted[c];
      if (disp && !advance[c]) {
        k.valid = false;
        continue;
      }
      if (advance[c]) {
        ++k.pass;
        k.got = granted;
        k.inflight = true;
      } else {
        k.got = static_cast<uint8_t>(k.got | granted);
        k.inflight = granted != 0;
      }
      k.first = false;
    }
    for (unsigned i = 0; i < kMaxOcIssue; ++i)
      if (issue[i].valid && ((alloc >> freshColl[i]) & 1))
        coll_[freshColl[i]] = fresh[i];
    return out;
  }

private:
  struct Collector {
    bool valid = false;
    bool first = false;    ///< the cycle after allocation: predicates are read
    bool inflight = false; ///< reads granted (or a pass dispatched) in the previous cycle
    uint8_t warp = 0;
    uint8_t pass = 0;
    uint8_t need = 0; ///< slots read every pass
    uint8_t got = 0;  ///< slots granted for the current pass
    std::array<uint16_t, kRfSlots> phys{};
    std::array<uint8_t, kOcRoles> roleFirst{};
    std::array<uint8_t, kOcRoles> roleCount{};
  };

  constexpr Collector load(const OcIssue &is) const {
    Collector k;
    k.valid = true;
    k.first = true;
    k.warp = is.warp;
    const OcLayout l = ocLayout(is.roles);
    for (unsigned g = 0; g < kOcRoles; ++g) {
      k.roleFirst[g] = l.first[g];
      k.roleCount[g] = is.roles[g].count;
      for (unsigned j = 0; j < is.roles[g].count; ++j) {
        const unsigned s = l.first[g] + j;
        if (s >= kRfSlots)
          break;
        k.phys[s] = static_cast<uint16_t>(is.rfBase + is.roles[g].reg + j);
        if (is.roles[g].read)
          k.need = static_cast<uint8_t>(k.need | (1u << s));
      }
    }
    return k;
  }

  unsigned collectors_;
  unsigned banks_;
  unsigned passes_;
  RfReadArbiter arb_;
  std::array<Collector, kMaxCollectors> coll_{};
};

} // namespace wf::hls

#endif // WARPFORGE_HLS_OPERAND_COLLECTOR_H

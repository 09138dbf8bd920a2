//===- warpforge/hls/scoreboard.h - Per-warp register-dependence scoreboard -===//
//
// Part of Warpforge. Tracks the register and predicate writes in flight of every warp, one clock
// cycle at a time (docs/microarchitecture.md, "Scoreboard"). The cycle model calls it;
// rtl/core/wf_scoreboard.sv is checked against it cycle by cycle (tests/rtl/tb_scoreboard.cpp).
//
// Each warp has `entries` entries (isa/config.toml `scoreboard_entries`); an entry is one pending
// write: a register group (base, 1/2/4 registers) or one predicate. An instruction reserves one
// entry for its register destination and one for its predicate destination when it issues, and
// its unit releases each by index when the write reaches the register file.
//
// The head instruction of a warp may issue when
//   - none of its register groups (sources and destination: RAW and WAW) overlaps a pending
//     register entry, none of its predicates (guard, sources, destination) is a pending
//     predicate entry, and
//   - the warp has as many free entries as the instruction writes (0, 1 or 2).
// Groups overlap when they share a register; for the aligned groups of legal instructions that is
// `(a & ~m) == (b & ~m)` with m = (countA - 1) | (countB - 1), which is the rule used for every
// group (an illegal, misaligned group faults at issue and is never executed).
//
// Timing: `ready` is computed from the entries as they are at the start of the cycle. At the
// clock edge the cycle's releases free their entries, and then the issued instruction takes the
// lowest entries that were free at the start of the cycle (register destination first). A
// dependent instruction therefore issues at the earliest the cycle after its producer's write.
//
//===----------------------------------------------------------------------===//

#ifndef WARPFORGE_HLS_SCOREBOARD_H
#define WARPFORGE_HLS_SCOREBOARD_H

#include <array>
#include <cstddef>
#include <cstdint>

namespace wf::hls {

inline constexpr unsigned kMaxSbWarps = 64;
inline constexpr unsigned kMaxSbEntries = 8;
inline constexpr unsigned kSbRegGroups = 4; ///< rd, ra, rb, rc
inline constexpr unsigned kSbPreds = 5;     ///< guard, pu0..pu2, pd
inline constexpr unsigned kMaxSbReleases = 4;

/// A register group an instruction reads or writes (the decoder's r*_re/_we, r*, r*_cnt).
struct SbRegGroup {
  bool valid = false;
  uint8_t base = 0;
  uint8_t count = 1; ///< 1, 2 or 4
};

/// The registers and predicates one instruction touches, and what it writes.
struct SbUse {
  std::array<SbRegGroup, kSbRegGroups> regs{}; ///< every group read or written
  std::array<bool, kSbPreds> predValid{};      ///< every predicate read or written (not PT)
  std::array<uint8_t, kSbPreds> pred{};
  bool writesReg = false;  ///< reserves an entry for regs[0] (rd)
  bool writesPred = false; ///< reserves an entry for pred[kSbPreds - 1] (pd)
};

/// One release: warp `warp`'s entry `entry` is written back.
struct SbRelease {
  bool valid = false;
  uint8_t warp = 0;
  uint8_t entry = 0;
};

/// The entries an issued instruction took.
struct SbReserved {
  uint8_t regEntry = 0;  ///< valid when the instruction writes a register
  uint8_t predEntry = 0; ///< valid when it writes a predicate
};

constexpr bool sbGroupsOverlap(uint8_t a, uint8_t countA, uint8_t b, uint8_t countB) {
  const uint8_t m = static_cast<uint8_t>((countA - 1) | (countB - 1));
  return (a & ~m) == (b & ~m);
}

class Scoreboard {
public:
  constexpr Scoreboard(unsigned warps, unsigned entries) : warps_(warps), entries_(entries) {
    reset();
  }

  constexpr void reset() {
    for (auto &w : warp_)
      for (auto &e : w)
        e = Entry{};
  }

  /// Whether warp `w`'s instruction `use` may issue now.
  constexpr bool ready(unsigned w, const SbUse &use) const {
    unsigned free = 0;
    for (unsigned e = 0; e < entries_; ++e) {
      const Entry &x = warp_[w][e];
      if (!x.valid) {
        ++free;
        continue;
      }
      if (x.isPred) {
        for (unsigned p = 0; p < kSbPreds; ++p)
          if (use.predValid[p] && use.pred[p] == x.base)
            return false;
      } else {
        for (const SbRegGroup &g : use.regs)
          if (g.valid && sbGroupsOverlap(g.base, g.count, x.base, x.count))
            return false;
      }
    }
    return free >= unsigned(use.writesReg) + unsigned(use.writesPred);
  }

  /// The entries an instruction of warp `w` issued this cycle takes (lowest free first).
  constexpr SbReserved allocation(unsigned w, const SbUse &use) const {
    SbReserved r;
    bool regDone = !use.writesReg;
    for (unsigned e = 0; e < entries_; ++e) {
      if (warp_[w][e].valid)
        continue;
      if (!regDone) {
        r.regEntry = static_cast<uint8_t>(e);
        regDone = true;
      } else {
        r.predEntry = static_cast<uint8_t>(e);
        break;
      }
    }
    return r;
  }

  /// One clock edge: `releases` free their entries; then, when `issue` is set, warp
  /// `issueWarp`'s instruction `use` takes its entries. Returns them.
  template <std::size_t N>
  constexpr SbReserved step(const std::array<SbRelease, N> &releases, bool issue,
                            unsigned issueWarp, const SbUse &use) {
    const SbReserved r = issue ? allocation(issueWarp, use) : SbReserved{};
    for (const SbRelease &x : releases)
      if (x.valid)
        warp_[x.warp][x.entry].valid = false;
    if (issue) {
      if (use.writesReg)
        warp_[issueWarp][r.regEntry] = Entry{true, false, use.regs[0].base, use.regs[0].count};
      if (use.writesPred)
        warp_[issueWarp][r.predEntry] = Entry{true, true, use.pred[kSbPreds - 1], 1};
    }
    return r;
  }

  constexpr bool entryValid(unsigned w, unsigned e) const { return warp_[w][e].valid; }
  constexpr unsigned warps() const { return warps_; }
  constexpr unsigned entries() const { return entries_; }

private:
  struct Entry {
    bool valid = false;
    bool isPred = false;
    uint8_t base = 0;
    uint8_t count = 1;
  };
  unsigned warps_;
  unsigned entries_;
  std::array<std::array<Entry, kMaxSbEntries>, kMaxSbWarps> warp_{};
};

} // namespace wf::hls

#endif // WARPFORGE_HLS_SCOREBOARD_H

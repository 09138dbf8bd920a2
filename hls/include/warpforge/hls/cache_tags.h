//===- warpforge/hls/cache_tags.h - Cache tag lookup and tree pseudo-LRU -----===//
//
// Part of Warpforge. The tag array of a set-associative cache with tree pseudo-LRU replacement,
// one clock cycle at a time (docs/microarchitecture.md, "Fetch and the instruction cache"; the L1
// data, constant and L2 caches use the same rule). The cycle model calls it;
// rtl/core/wf_cache_tags.sv is checked against it cycle by cycle (tests/rtl/tb_cache_tags.cpp).
//
// A cache has `sets` sets of `ways` ways (both powers of two); a line address (byte address /
// line size) maps to set `line % sets` and tag `line / sets`.
//
// Timing, per cycle t (the RAM's registered read):
//   - a lookup presented in t reads the set's tags and valid bits as they are at the start of t;
//     its result (hit, way) comes out in t + 1 (F1 reads, F2 compares);
//   - a hit reported in t + 1 marks its way most recently used at the end of t + 1;
//   - a fill presented in t takes the set's victim at the start of t: the lowest invalid way, else
//     the way the pseudo-LRU tree points to; at the end of t the way holds the line (valid) and is
//     marked most recently used, after any hit update of the same cycle;
//   - an invalidate in t clears every valid bit and every tree bit at the end of t, instead of
//     that cycle's hit update and fill.
// Tree pseudo-LRU: ways - 1 bits a set, node 1 the root, node n's children 2n and 2n + 1, leaves
// ways .. 2 ways - 1 for ways 0 .. ways - 1. A node's bit points to the half holding the victim
// (0: the lower half). Using a way sets every node on its path to point to the other half.
//
//===----------------------------------------------------------------------===//

#ifndef WARPFORGE_HLS_CACHE_TAGS_H
#define WARPFORGE_HLS_CACHE_TAGS_H

#include <algorithm>
#include <cstdint>
#include <vector>

namespace wf::hls {

struct CacheLookup {
  bool valid = false; ///< a lookup was presented in the previous cycle
  bool hit = false;
  unsigned way = 0; ///< the hit way (0 on a miss)
};

struct CacheTagsIn {
  bool lookup = false;
  uint64_t lookupLine = 0;
  bool fill = false;
  uint64_t fillLine = 0;
  bool invalidate = false;
};

class CacheTags {
public:
  CacheTags(unsigned sets, unsigned ways)
      : sets_(sets), ways_(ways), valid_(size_t(sets) * ways), tag_(size_t(sets) * ways),
        tree_(size_t(sets) * ways) {}

  unsigned sets() const { return sets_; }
  unsigned ways() const { return ways_; }

  /// The result of the previous cycle's lookup (what F2 sees in this cycle).
  const CacheLookup &result() const { return result_; }

  /// The way a fill of set `set` would take now.
  unsigned victim(unsigned set) const {
    for (unsigned w = 0; w < ways_; ++w)
      if (!valid_[index(set, w)])
        return w;
    unsigned node = 1;
    while (node < ways_)
      node = 2 * node + (tree_[index(set, node)] ? 1 : 0);
    return node - ways_;
  }

  bool lineValid(unsigned set, unsigned way) const { return valid_[index(set, way)]; }
  uint64_t lineTag(unsigned set, unsigned way) const { return tag_[index(set, way)]; }

  /// One clock cycle: this cycle's inputs act on the state at its start; result() then holds
  /// the lookup presented in this cycle, for the next.
  void step(const CacheTagsIn &in) {
    Result next;
    if (in.lookup) {
      next.valid = true;
      const unsigned set = setOf(in.lookupLine);
      for (unsigned w = 0; w < ways_; ++w) {
        if (valid_[index(set, w)] && tag_[index(set, w)] == tagOf(in.lookupLine)) {
          next.hit = true;
          next.way = w;
          break;
        }
      }
      next.set = set;
    }
    const bool fill = in.fill;
    const unsigned fillSet = setOf(in.fillLine);
    const unsigned fillWay = fill ? victim(fillSet) : 0;
    if (in.invalidate) {
      std::fill(valid_.begin(), valid_.end(), false);
      std::fill(tree_.begin(), tree_.end(), false);
    } else {
      if (result_.valid && result_.hit)
        touch(result_.set, result_.way);
      if (fill) {
        valid_[index(fillSet, fillWay)] = true;
        tag_[index(fillSet, fillWay)] = tagOf(in.fillLine);
        touch(fillSet, fillWay);
      }
    }
    result_ = next;
  }

private:
  struct Result : CacheLookup {
    unsigned set = 0; ///< the looked-up set (for the hit update)
  };

  size_t index(unsigned set, unsigned i) const { return size_t(set) * ways_ + i; }
  unsigned setOf(uint64_t line) const { return static_cast<unsigned>(line % sets_); }
  uint64_t tagOf(uint64_t line) const { return line / sets_; }

  void touch(unsigned set, unsigned way) {
    unsigned node = way + ways_;
    while (node > 1) {
      const bool right = node & 1;
      node >>= 1;
      tree_[index(set, node)] = !right; // point to the other half
    }
  }

  unsigned sets_, ways_;
  std::vector<bool> valid_;
  std::vector<uint64_t> tag_;
  std::vector<bool> tree_; ///< nodes 1 .. ways - 1 of each set (index 0 unused)
  Result result_;
};

} // namespace wf::hls

#endif // WARPFORGE_HLS_CACHE_TAGS_H

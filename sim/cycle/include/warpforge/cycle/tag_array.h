// A cache's tags for the cycle model: hls::CacheTags (tag compare and tree pseudo-LRU, the rule the
// RTL is checked against) driven one access at a time, plus the dirty bits a write-back cache
// needs. An access is a lookup step followed by the step that applies its hit update, so several
// accesses of one model cycle apply in the order the model makes them (docs/cycle-model.md).
#pragma once

#include "warpforge/hls/cache_tags.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

namespace wf::cycle {

class TagArray {
public:
  /// `bytes` of `lineBytes` lines in `ways` ways (at least one set).
  void configure(unsigned bytes, unsigned lineBytes, unsigned ways) {
    lineBytes_ = lineBytes;
    sets_ = std::max(1u, bytes / lineBytes / ways);
    tags_ = std::make_unique<hls::CacheTags>(sets_, ways);
    dirty_.assign(size_t(sets_) * ways, 0);
  }
  /// Every line invalid (LAUNCH).
  void invalidate() {
    hls::CacheTagsIn in;
    in.invalidate = true;
    tags_->step(in);
    std::fill(dirty_.begin(), dirty_.end(), 0);
  }
  /// Whether the line of `address` is present; a hit becomes the set's most recently used.
  bool lookup(uint64_t address) {
    hls::CacheTagsIn in;
    in.lookup = true;
    in.lookupLine = address / lineBytes_;
    tags_->step(in);
    const bool hit = tags_->result().hit;
    tags_->step(hls::CacheTagsIn{}); // the hit update
    return hit;
  }
  struct Victim {
    bool valid = false, dirty = false;
    uint64_t address = 0; ///< the replaced line's address
  };
  /// Allocates the line of `address` (absent) and returns what it replaced.
  Victim fill(uint64_t address, bool dirty = false) {
    const uint64_t line = address / lineBytes_;
    const unsigned set = unsigned(line % sets_);
    const unsigned way = tags_->victim(set);
    Victim v;
    if (tags_->lineValid(set, way)) {
      v.valid = true;
      v.dirty = dirty_[size_t(set) * tags_->ways() + way];
      v.address = (tags_->lineTag(set, way) * sets_ + set) * lineBytes_;
    }
    hls::CacheTagsIn in;
    in.fill = true;
    in.fillLine = line;
    tags_->step(in);
    dirty_[size_t(set) * tags_->ways() + way] = dirty ? 1 : 0;
    return v;
  }
  /// Marks the line of `address` dirty when present (no replacement update).
  void markDirty(uint64_t address) {
    const uint64_t line = address / lineBytes_;
    const unsigned set = unsigned(line % sets_);
    for (unsigned w = 0; w < tags_->ways(); ++w)
      if (tags_->lineValid(set, w) && tags_->lineTag(set, w) == line / sets_)
        dirty_[size_t(set) * tags_->ways() + w] = 1;
  }

private:
  unsigned lineBytes_ = 64, sets_ = 1;
  std::unique_ptr<hls::CacheTags> tags_;
  std::vector<uint8_t> dirty_;
};

} // namespace wf::cycle

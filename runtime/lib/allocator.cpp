#include "warpforge/runtime/allocator.h"

#include <iterator>

namespace wf::rt {

Allocator::Allocator(uint64_t base, uint64_t size) : base_(base), size_(size) { reset(); }

void Allocator::reset() {
  free_.clear();
  live_.clear();
  if (size_)
    free_.emplace(base_, size_);
}

uint64_t Allocator::allocate(uint64_t bytes, uint64_t align) {
  if (align < kMinAlign)
    align = kMinAlign;
  if (align & (align - 1))
    return 0;
  uint64_t want = bytes == 0 ? kMinAlign : (bytes + kMinAlign - 1) / kMinAlign * kMinAlign;
  if (want < bytes)
    return 0; // overflow
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    uint64_t start = it->first, end = it->first + it->second;
    uint64_t aligned = (start + align - 1) & ~(align - 1);
    if (aligned < start || aligned > end || end - aligned < want)
      continue;
    free_.erase(it);
    if (aligned > start)
      free_.emplace(start, aligned - start);
    if (aligned + want < end)
      free_.emplace(aligned + want, end - aligned - want);
    live_.emplace(aligned, Range{aligned, want, bytes});
    return aligned;
  }
  return 0;
}

bool Allocator::free(uint64_t address) {
  auto it = live_.find(address);
  if (it == live_.end())
    return false;
  uint64_t start = it->second.base, size = it->second.size;
  live_.erase(it);
  auto next = free_.lower_bound(start);
  if (next != free_.end() && next->first == start + size) {
    size += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == start) {
      prev->second += size;
      return true;
    }
  }
  free_.emplace(start, size);
  return true;
}

std::optional<Allocator::Range> Allocator::find(uint64_t address) const {
  auto it = live_.upper_bound(address);
  if (it == live_.begin())
    return std::nullopt;
  --it;
  const Range &r = it->second;
  if (address >= r.base && address < r.base + r.size)
    return r;
  return std::nullopt;
}

bool Allocator::covers(uint64_t address, uint64_t bytes) const {
  std::optional<Range> r = find(address);
  if (!r)
    return false;
  uint64_t offset = address - r->base;
  return offset <= r->requested && bytes <= r->requested - offset;
}

uint64_t Allocator::freeBytes() const {
  uint64_t total = 0;
  for (auto &[b, s] : free_)
    total += s;
  return total;
}

} // namespace wf::rt

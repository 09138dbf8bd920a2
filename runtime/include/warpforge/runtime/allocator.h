// First-fit allocator over a device address range, tracking every live allocation (for
// cudaPointerGetAttributes, cudaMemcpyDefault and bad-free detection).
#pragma once

#include <cstdint>
#include <map>
#include <optional>

namespace wf::rt {

class Allocator {
public:
  struct Range {
    uint64_t base = 0;
    uint64_t size = 0;      ///< bytes reserved (rounded)
    uint64_t requested = 0; ///< bytes asked for
  };

  Allocator(uint64_t base, uint64_t size);
  /// 0 when no free range fits. `align` must be a power of two (at least kMinAlign is used).
  uint64_t allocate(uint64_t bytes, uint64_t align = kMinAlign);
  /// False when `address` is not the base of a live allocation (double or bad free).
  bool free(uint64_t address);
  /// The live allocation containing `address`, if any.
  std::optional<Range> find(uint64_t address) const;
  /// True when [address, address + bytes) lies inside one live allocation, within the bytes asked
  /// for: a lookup in the map of live ranges, no per-byte work.
  bool covers(uint64_t address, uint64_t bytes) const;
  void reset();

  uint64_t freeBytes() const;
  uint64_t totalBytes() const { return size_; }
  size_t liveCount() const { return live_.size(); }

  static constexpr uint64_t kMinAlign = 256;

private:
  uint64_t base_, size_;
  std::map<uint64_t, uint64_t> free_;  ///< base -> size, disjoint, coalesced
  std::map<uint64_t, Range> live_;     ///< base -> range
};

} // namespace wf::rt

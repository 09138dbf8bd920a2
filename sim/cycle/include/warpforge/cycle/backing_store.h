// Functional storage of a memory: the bytes, kept apart from any timing model (as the Accellera
// TLM examples keep a target's functional core apart from its sockets). Sparse: pages are made on
// first write, and unwritten bytes read as zero.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>

namespace wf::cycle {

class BackingStore {
public:
  explicit BackingStore(uint64_t sizeBytes) : size_(sizeBytes) {}

  uint64_t size() const { return size_; }
  bool contains(uint64_t address, uint64_t length) const {
    return length <= size_ && address <= size_ - length;
  }
  /// Callers check contains() first.
  void read(uint64_t address, uint8_t *out, uint64_t length) const;
  /// `byteEnable` (may be null) repeats every `enableLength` bytes; 0 bytes are not written.
  void write(uint64_t address, const uint8_t *data, uint64_t length,
             const uint8_t *byteEnable = nullptr, uint64_t enableLength = 0);

private:
  static constexpr unsigned kPageBits = 16;
  static constexpr uint64_t kPageBytes = uint64_t(1) << kPageBits;

  uint64_t size_;
  std::unordered_map<uint64_t, std::unique_ptr<uint8_t[]>> pages_;
};

} // namespace wf::cycle

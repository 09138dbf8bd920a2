// Bit-field access to the ports of a Verilated model, whatever their storage type.
//
// Verilator stores a port of up to 8/16/32/64 bits in a uint8/16/32/64_t and a wider one in a
// VlWide<N> (N 32-bit words, least significant first). On a little-endian host all of these are
// little-endian byte arrays, so one class reads and writes a bit range of any of them. A packed
// array indexed by channel (`logic [Channels-1:0][W-1:0] x`) is the same: element c is bits
// [c*W, (c+1)*W).
#pragma once

#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace wf::rtl {

static_assert(std::endian::native == std::endian::little,
              "Pin assumes Verilator's storage is a little-endian byte array");

class Pin {
public:
  Pin() = default;
  /// `width` is the bits of one element (the whole port when it is not an array).
  template <class Storage>
  Pin(Storage &signal, unsigned width)
      : data_(reinterpret_cast<uint8_t *>(&signal)), bytes_(sizeof(Storage)), width_(width) {
    assert(width_ > 0);
  }

  bool bound() const { return data_ != nullptr; }
  /// Whether the storage is what Verilator uses for `elements` x width() bits: a port whose width
  /// differs from what the harness assumes fails this check.
  bool storageFits(unsigned elements = 1) const {
    unsigned bits = elements * width_;
    size_t want = bits <= 8 ? 1 : bits <= 16 ? 2 : bits <= 32 ? 4 : bits <= 64 ? 8 : (bits + 31) / 32 * 4;
    return want == bytes_;
  }
  unsigned width() const { return width_; }

  /// Element `index` (at most 64 bits wide).
  uint64_t get(unsigned index = 0) const { return bits(index * width_, width_); }
  void set(uint64_t value, unsigned index = 0) { setBits(index * width_, width_, value); }
  bool bit(unsigned index = 0) const { return get(index) != 0; }

  /// Element `index` as bytes (width a multiple of 8): for data buses wider than 64 bits.
  void read(void *dst, unsigned index = 0) const {
    assert(width_ % 8 == 0 && (index + 1) * width_ / 8 <= bytes_);
    std::memcpy(dst, data_ + index * width_ / 8, width_ / 8);
  }
  void write(const void *src, unsigned index = 0) {
    assert(width_ % 8 == 0 && (index + 1) * width_ / 8 <= bytes_);
    std::memcpy(data_ + index * width_ / 8, src, width_ / 8);
  }

  /// Bits [lsb, lsb + count) of the whole port, count <= 64.
  uint64_t bits(unsigned lsb, unsigned count) const {
    assert(count <= 64 && (lsb + count + 7) / 8 <= bytes_);
    uint64_t value = 0;
    if (lsb % 8 == 0 && count % 8 == 0) { // the common case: whole bytes
      std::memcpy(&value, data_ + lsb / 8, count / 8);
      return value;
    }
    for (unsigned i = 0; i < count; ++i) {
      unsigned b = lsb + i;
      value |= uint64_t((data_[b / 8] >> (b % 8)) & 1u) << i;
    }
    return value;
  }
  void setBits(unsigned lsb, unsigned count, uint64_t value) {
    assert(count <= 64 && (lsb + count + 7) / 8 <= bytes_);
    if (lsb % 8 == 0 && count % 8 == 0) {
      std::memcpy(data_ + lsb / 8, &value, count / 8);
      return;
    }
    for (unsigned i = 0; i < count; ++i) {
      unsigned b = lsb + i;
      uint8_t mask = uint8_t(1u << (b % 8));
      data_[b / 8] = uint8_t(((value >> i) & 1u) ? (data_[b / 8] | mask) : (data_[b / 8] & ~mask));
    }
  }

private:
  uint8_t *data_ = nullptr;
  size_t bytes_ = 0;
  unsigned width_ = 1;
};

} // namespace wf::rtl

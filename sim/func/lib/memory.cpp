//===- memory.cpp - Device (global) memory ----------------------------------===//
//
// Device memory is one anonymous mapping: pages stay unbacked until touched, so a 1 GiB device
// costs nothing until a kernel writes to it, and it reads as zero.
//
//===----------------------------------------------------------------------===//

#include "warpforge/func/device.h"
#include "warpforge/isa/config.gen.h"

#include <cstring>
#include <new>
#include <sys/mman.h>

namespace wf::func {

Memory::Memory(uint64_t bytes) : size_(bytes) {
  void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    throw std::bad_alloc();
  data_ = static_cast<uint8_t *>(p);
}

Memory::~Memory() { munmap(data_, size_); }

uint64_t Memory::base() const { return isa::kGlobalBase; }
uint64_t Memory::size() const { return size_; }

bool Memory::contains(uint64_t addr, uint64_t bytes) const {
  // Written to avoid overflow for addresses near 2^64.
  return addr >= isa::kGlobalBase && addr - isa::kGlobalBase <= size_ &&
         bytes <= size_ - (addr - isa::kGlobalBase);
}

bool Memory::read(uint64_t addr, void *dst, uint64_t bytes) const {
  if (!contains(addr, bytes))
    return false;
  std::memcpy(dst, data_ + (addr - isa::kGlobalBase), bytes);
  return true;
}

bool Memory::write(uint64_t addr, const void *src, uint64_t bytes) {
  if (!contains(addr, bytes))
    return false;
  std::memcpy(data_ + (addr - isa::kGlobalBase), src, bytes);
  return true;
}

bool Memory::fill(uint64_t addr, uint8_t value, uint64_t bytes) {
  if (!contains(addr, bytes))
    return false;
  std::memset(data_ + (addr - isa::kGlobalBase), value, bytes);
  return true;
}

uint8_t *Memory::host(uint64_t addr) { return data_ + (addr - isa::kGlobalBase); }
const uint8_t *Memory::host(uint64_t addr) const { return data_ + (addr - isa::kGlobalBase); }

} // namespace wf::func

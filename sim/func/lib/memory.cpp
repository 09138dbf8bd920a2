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
  // First choice: at the device addresses themselves, so that a host pointer and a device
  // address are the same number (the runtime's managed memory relies on it). Never replaces an
  // existing mapping; a second device, or an occupied range, goes anywhere.
  const int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
  void *want = reinterpret_cast<void *>(uintptr_t(isa::kGlobalBase));
  void *p = mmap(want, bytes, PROT_READ | PROT_WRITE, flags | MAP_FIXED_NOREPLACE, -1, 0);
  if (p != MAP_FAILED && p != want) {
    munmap(p, bytes); // an old kernel took the address as a hint only
    p = MAP_FAILED;
  }
  if (p == MAP_FAILED)
    p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, flags, -1, 0);
  if (p == MAP_FAILED)
    throw std::bad_alloc();
  data_ = static_cast<uint8_t *>(p);
}

bool Memory::identityMapped() const {
  return reinterpret_cast<uintptr_t>(data_) == uintptr_t(isa::kGlobalBase);
}

Memory::Memory(uint8_t *external, uint64_t bytes) : data_(external), size_(bytes), owned_(false) {}

Memory::~Memory() {
  if (owned_)
    munmap(data_, size_);
}

void Memory::scrub() {
  // Private anonymous pages read as zero again after MADV_DONTNEED; shared (memfd) pages need
  // MADV_REMOVE to drop their backing store. memset is the fallback for anything else.
  int advice = owned_ ? MADV_DONTNEED : MADV_REMOVE;
  if (madvise(data_, size_, advice) != 0)
    std::memset(data_, 0, size_);
}

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

#include "warpforge/cycle/backing_store.h"

#include <algorithm>
#include <cstring>

namespace wf::cycle {

void BackingStore::read(uint64_t address, uint8_t *out, uint64_t length) const {
  while (length) {
    uint64_t offset = address & (kPageBytes - 1);
    uint64_t chunk = std::min(length, kPageBytes - offset);
    auto it = pages_.find(address >> kPageBits);
    if (it == pages_.end())
      std::memset(out, 0, chunk);
    else
      std::memcpy(out, it->second.get() + offset, chunk);
    address += chunk;
    out += chunk;
    length -= chunk;
  }
}

void BackingStore::write(uint64_t address, const uint8_t *data, uint64_t length,
                         const uint8_t *byteEnable, uint64_t enableLength) {
  uint64_t done = 0;
  while (done < length) {
    uint64_t at = address + done;
    uint64_t offset = at & (kPageBytes - 1);
    uint64_t chunk = std::min(length - done, kPageBytes - offset);
    std::unique_ptr<uint8_t[]> &page = pages_[at >> kPageBits];
    if (!page) {
      page = std::make_unique<uint8_t[]>(kPageBytes);
      std::memset(page.get(), 0, kPageBytes);
    }
    if (!byteEnable || enableLength == 0) {
      std::memcpy(page.get() + offset, data + done, chunk);
    } else {
      for (uint64_t i = 0; i < chunk; ++i)
        if (byteEnable[(done + i) % enableLength])
          page[offset + i] = data[done + i];
    }
    done += chunk;
  }
}

} // namespace wf::cycle

// libFuzzer target for the fatbinary reader (runtime/lib/fatbin.cpp): nvcc's container with its
// zstd-compressed entries, read with the input's size as the limit, and clang's raw payloads (PTX
// text) through the __fatDeviceText wrapper. Any bytes give an error or parsed entries; a crash,
// a sanitizer report, an exception or a leak is a bug.
#include "warpforge/runtime/fatbin.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace wf::rt;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0; // parse() reads a limit of 0 as "size unknown"
  {
    fatbin::Parsed parsed;
    std::string error;
    bool ok = fatbin::parse(data, size, parsed, error);
    if (!ok && error.empty()) {
      std::fprintf(stderr, "parse failed without an error\n");
      __builtin_trap();
    }
    if (ok)
      for (const fatbin::Entry &entry : parsed.entries)
        if (entry.payload.size() > fatbin::kMaxEntryBytes)
          __builtin_trap();
  }
  // clang's wrapper points at NUL-terminated bytes without a size. Only text is read that way
  // here: behind the two magics the wrapper trusts the header's sizes (there is no other), which
  // parse() above covers with a known size.
  uint32_t magic = 0;
  if (size >= 4)
    std::memcpy(&magic, data, 4);
  if (magic == fatbin::kFatbinMagic || (size >= 4 && std::memcmp(data, "WFXM", 4) == 0))
    return 0;
  std::vector<uint8_t> text(data, data + size);
  text.push_back(0);
  fatbin::Wrapper wrapper{fatbin::kWrapperMagic, 1, text.data(), nullptr};
  fatbin::Parsed parsed;
  std::string error;
  if (!fatbin::parseWrapper(&wrapper, parsed, error) && error.empty())
    __builtin_trap();
  return 0;
}

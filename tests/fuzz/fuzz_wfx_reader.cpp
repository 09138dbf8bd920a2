// libFuzzer target for the .wfx reader and loader (docs/wfx.md, "What the reader checks"). Any
// bytes give an error or a module that validates; a module that reads also places and loads, as
// the runtime does, and writes back to bytes that read to the same module. A crash, a sanitizer
// report, a leak or a broken round trip is a bug.
#include "warpforge/module/wfx.h"

#include <cstdint>
#include <cstdio>
#include <span>

namespace {

// The runtime allocates device memory for a module before loading it, so a module claiming more
// than device memory never reaches wfx::load there; here the cap keeps the fuzzer's memory bounded.
constexpr uint64_t kMaxLoadBytes = uint64_t(64) << 20;

[[noreturn]] void bug(const char *what, const std::string &detail) {
  std::fprintf(stderr, "%s: %s\n", what, detail.c_str());
  __builtin_trap();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  auto module = wf::wfx::read(std::span<const uint8_t>(data, size), "<fuzz>");
  if (!module) {
    if (module.error().message.empty())
      bug("an error without a message", "");
    return 0;
  }
  if (auto status = wf::wfx::validate(*module); !status)
    bug("read returned a module that does not validate", status.error().str());
  auto bytes = wf::wfx::write(*module);
  if (!bytes)
    bug("a module that read does not write", bytes.error().str());
  auto again = wf::wfx::read(*bytes, "<fuzz, written>");
  if (!again || !(*again == *module))
    bug("write then read is not the identity", again ? "modules differ" : again.error().str());
  wf::wfx::Placement placement = wf::wfx::placeSegments(*module, 0x10000);
  if (placement.end - placement.bases.code > kMaxLoadBytes)
    return 0;
  auto loaded = wf::wfx::load(*module, placement.bases);
  if (!loaded)
    bug("a validated module at its own placement does not load", loaded.error().str());
  return 0;
}

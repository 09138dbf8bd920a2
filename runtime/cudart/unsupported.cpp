// The entry points of unsupported.def: exported so that programs load and link, answering CUDA's
// documented "not supported" code (801 in both APIs) with the group's reason on stderr, once per
// entry point. Runtime-API entries set the calling thread's last error, as every runtime call
// does; driver entries leave it alone.
//
// The entries are defined without their parameters (`int name()`), and that is sound here:
// - Every entry returns CUresult or cudaError_t, an int-sized enum returned in the integer return
//   register, so no hidden struct-return pointer shifts the arguments
//   (runtime.exported_symbols_match_headers checks each entry's return type in the headers).
// - On the two ABIs Warpforge builds for (System V AMD64, AAPCS64; anything else stops the build
//   below) the caller places the arguments in registers and in stack space it owns, and removes
//   them itself after the call; a callee that reads none leaves them alone. No entry is variadic.
// - The entries have C linkage and are reached only through the dynamic symbol table (a program's
//   PLT or dlsym), never by a call the compiler sees together with the definition,
//   so no inlining or link-time optimization can rely on the mismatch.
// Giving each its full prototype would need the toolkit's headers at build time, which the drop-in
// libraries do not require.
#include "warpforge/runtime/runtime.h"

#include <cstdio>
#include <cstring>
#include <mutex>
#include <set>
#include <string>

#if !(defined(__x86_64__) || defined(__aarch64__)) || defined(_WIN32)
#error "unsupported.cpp relies on the caller-cleans calling conventions of System V AMD64 and AAPCS64"
#endif

namespace {

using wf::rt::Error;
using wf::rt::Runtime;

#define WF_GROUP(id, reason) constexpr const char *k##id = reason;
#define WF_ENTRY(name, group)
#include "unsupported.def"
#undef WF_ENTRY
#undef WF_GROUP

int unsupported(const char *name, const char *reason) {
  {
    static std::mutex told_mutex;
    static std::set<std::string> told;
    std::lock_guard lock(told_mutex);
    if (told.insert(name).second)
      std::fprintf(stderr, "warpforge: %s is not supported: %s (returns %s)\n", name, reason,
                   std::strncmp(name, "cuda", 4) == 0 ? "cudaErrorNotSupported"
                                                      : "CUDA_ERROR_NOT_SUPPORTED");
  }
  constexpr Error kNotSupported = Error::cudaErrorNotSupported;
  if (std::strncmp(name, "cuda", 4) == 0) {
    Runtime &rt = Runtime::get();
    rt.record(kNotSupported);
    if (rt.tracing())
      rt.trace(name, {}, kNotSupported);
  }
  return int(kNotSupported); // CUDA_ERROR_NOT_SUPPORTED has the same number
}

} // namespace

#define WF_GROUP(id, reason)
#define WF_ENTRY(name, group)                                                                      \
  extern "C" int name() { return unsupported(#name, k##group); }
#include "unsupported.def"
#undef WF_ENTRY
#undef WF_GROUP

// The entry points of unsupported.def: exported so that programs load and link, answering CUDA's
// documented "not supported" code (801 in both APIs) with the group's reason on stderr, once per
// entry point. Runtime-API entries set the calling thread's last error, as every runtime call
// does; driver entries leave it alone.
//
// The entries are defined without their parameters: they have C linkage (the name is the symbol),
// read no argument and return an int-sized enum in the return register, which is what the caller
// of a CUresult or cudaError_t function expects whatever arguments it passed (every entry of the
// list returns one of the two; runtime.exported_symbols_match_headers reads the headers).
#include "warpforge/runtime/runtime.h"

#include <cstdio>
#include <cstring>
#include <mutex>
#include <set>
#include <string>

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

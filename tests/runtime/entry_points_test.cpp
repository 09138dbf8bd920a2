// Entry points of the drop-in libraries beyond the corpus's (docs/runtime.md, "Entry points"),
// through their exported symbols: every entry of runtime/cudart/unsupported.def answers CUDA's
// "not supported" code (the runtime's ones as the last error too), and the entry points that have
// real behaviour do what CUDA documents.
#include "cuda_types.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstring>
#include <string>
#include <vector>

extern "C" {
cudaError_t cudaGetLastError(void);
}

namespace {

struct Entry {
  const char *name;
  const char *group;
};
const Entry kUnsupported[] = {
#define WF_GROUP(id, reason)
#define WF_ENTRY(name, group) {#name, #group},
#include "unsupported.def"
#undef WF_ENTRY
#undef WF_GROUP
};

TEST(EntryPoints, UnsupportedAnswerNotSupported) {
  ASSERT_GT(std::size(kUnsupported), 0u);
  for (const Entry &e : kUnsupported) {
    SCOPED_TRACE(e.name);
    void *sym = dlsym(RTLD_DEFAULT, e.name);
    ASSERT_NE(sym, nullptr);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    // The entries read no argument (unsupported.cpp), so calling them without any is their call.
    int result = reinterpret_cast<int (*)()>(sym)();
    EXPECT_EQ(result, 801); // cudaErrorNotSupported, CUDA_ERROR_NOT_SUPPORTED
    bool runtimeApi = std::strncmp(e.name, "cuda", 4) == 0;
    EXPECT_EQ(cudaGetLastError(), runtimeApi ? cudaErrorNotSupported : cudaSuccess);
  }
}

} // namespace

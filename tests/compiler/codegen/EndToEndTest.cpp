//===- EndToEndTest.cpp - Hand-written PTX kernels run on the emulator ----===//

#include "Harness.h"

using namespace wf;
using namespace wf::cgtest;

namespace {

// Every committed real PTX file compiles.
class CompileAll : public ::testing::TestWithParam<std::string> {};

TEST_P(CompileAll, Compiles) {
  for (const char *FE : {"clang", "nvcc"}) {
    std::string Path = std::string(WF_PTX_INPUTS_DIR) + "/" + FE + "/" + GetParam() + ".ptx";
    Runner R;
    EXPECT_TRUE(R.compile(readFile(Path), {}, Path)) << Path;
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, CompileAll,
                         ::testing::Values("atomics", "dynshared", "functions", "functions_debug",
                                           "globals", "half", "inline_asm", "locals", "math",
                                           "printf", "reduction", "vector_add", "warp",
                                           "warp_sm80"));

} // namespace

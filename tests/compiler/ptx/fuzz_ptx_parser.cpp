//===- fuzz_ptx_parser.cpp - libFuzzer target for the PTX parser ----------===//
//
// Part of Warpforge. Feeds arbitrary bytes to the parser (with and without
// table validation). A crash, a sanitizer report or a hang is a bug. When an
// input parses, the printed module must parse again and print the same text:
// a mismatch is reported as a crash too.
//
// Build (clang only): see CMakeLists.txt, or by hand:
//   clang++ -std=c++20 -g -O1 -fsanitize=fuzzer,address -Icompiler/include \
//     tests/compiler/ptx/fuzz_ptx_parser.cpp compiler/lib/ptx/*.cpp   (minus CoverageMain.cpp)
// Run:
//   ./fuzz_ptx_parser -dict=tests/compiler/ptx/fuzz_ptx.dict CORPUS_DIR \
//     tests/compiler/ptx/corpus tests/compiler/ptx/inputs/nvcc tests/compiler/ptx/inputs/clang
// Every crash or hang found goes to tests/compiler/ptx/corpus/regressions/,
// which CorpusTest replays.
//
//===----------------------------------------------------------------------===//

#include "warpforge/ptx/Parser.h"
#include "warpforge/ptx/Printer.h"

#include <cstdint>
#include <cstdio>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string_view Text(reinterpret_cast<const char *>(Data), Size);
  for (bool Validate : {true, false}) {
    wf::ptx::ParseOptions Opts;
    Opts.validate = Validate;
    auto M = wf::ptx::parseModule(Text, Opts);
    if (!M) {
      // Every error names a position inside the input, or none.
      const auto &D = M.error().primary();
      if (D.message.empty())
        __builtin_trap();
      continue;
    }
    std::string Once = wf::ptx::toString(*M);
    auto M2 = wf::ptx::parseModule(Once, Opts);
    if (!M2) {
      std::fprintf(stderr, "printed module does not parse: %s\n--- printed ---\n%s\n",
                   M2.error().str().c_str(), Once.c_str());
      __builtin_trap();
    }
    std::string Twice = wf::ptx::toString(*M2);
    if (Twice != Once) {
      std::fprintf(stderr, "printing is not stable\n--- once ---\n%s\n--- twice ---\n%s\n",
                   Once.c_str(), Twice.c_str());
      __builtin_trap();
    }
  }
  return 0;
}

//===- Codegen.h - PTX module to native module ------------------*- C++ -*-===//
//
// Part of Warpforge. The middle and back end: lowers a parsed PTX module to
// WIR, optimizes it, inserts reconvergence barriers, allocates registers,
// schedules and encodes a .wfx module (docs/compiler.md).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "warpforge/codegen/WIR.h"
#include "warpforge/module/wfx.h"
#include "warpforge/ptx/Module.h"
#include "warpforge/support/error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wf::codegen {

struct CodegenOptions {
  std::string config = "default"; ///< named configuration (isa/config.toml)
  unsigned optLevel = 1;          ///< 0: no optimization passes; 1: all of them
  bool schedule = true;           ///< run the list scheduler
  /// Overrides the register budget of every function (0: .maxnreg / the configuration's).
  uint32_t maxRegs = 0;
  /// Local memory per thread for kernels that call functions (the stack; cudaLimitStackSize).
  uint32_t stackBytes = 8192;
  /// The most bytes the module's `.global` variables may take together (0: the configuration's
  /// device memory); more is a compile error naming the variable. The .wfx format caps it below
  /// 4 GiB in any case.
  uint64_t maxGlobalBytes = 0;
};

/// The WIR of a module, before or after the back end passes (for tests and `--dump-wir`).
struct WModule {
  std::vector<Function> functions;   ///< the PTX module's defined functions, then library ones
  std::vector<uint32_t> ptxIndex;    ///< PTX function index of each
  std::vector<uint32_t> sharedBytes; ///< static shared bytes of each kernel (0: device function)
  bool usesDeviceHeap = false;       ///< the device heap library (malloc/free) is linked in
};

/// Lowers the PTX module to WIR (instruction selection, calling convention, frames).
Expected<WModule> lowerModule(const ptx::Module &M, const CodegenOptions &Opts);

/// Compiles every function with a body of the module into a native module.
Expected<wfx::Module> compilePtx(const ptx::Module &M, const CodegenOptions &Opts = {});

/// Runs the back end passes on one lowered function (reconvergence, optimization, register
/// allocation, frame finalization). Exposed for unit tests.
Status<> runBackend(Function &F, const CodegenOptions &Opts);

} // namespace wf::codegen

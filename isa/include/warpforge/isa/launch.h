// A grid launch as every model of the device sees it: its description (LaunchDesc), what ended it
// (Fault, in the completion record's fields) and its counts (LaunchResult). The emulator (sim/func)
// runs these; the cycle model and the RTL lockstep hand them to the emulator through the golden-model
// plugin interface (golden_model.h, golden.h). Everything here is expressed in isa/ terms, so any
// layer may use it.
#pragma once

#include "warpforge/isa/device.gen.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace wf::isa {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t(x) * y * z; }
};

/// Everything the command processor needs to run one grid.
struct LaunchDesc {
  std::string kernelName; ///< for fault reports and traces
  uint64_t codeBase = 0;  ///< global address of the code segment (PC 0)
  uint32_t codeSize = 0;  ///< bytes of code; fetching outside is an illegal instruction
  uint32_t entryPc = 0;   ///< byte offset of the kernel's first instruction
  Dim3 grid, block;
  uint32_t regsPerThread = 0; ///< registers allocated per thread (R0..R{n-1})
  uint32_t sharedStatic = 0;  ///< bytes of static shared memory
  uint32_t sharedDynamic = 0; ///< bytes of dynamic shared memory
  uint32_t localBytes = 0;    ///< local memory (stack) bytes per thread
  uint64_t constBase = 0;     ///< global address of the module's constant segment
  uint32_t constSize = 0;
  std::vector<uint8_t> params; ///< the parameter buffer (LDP space)
  uint64_t rtbuf = 0;          ///< global address of the runtime area (SR_RTBUF)
  uint64_t gridId = 0;
};

enum class FaultKind : uint8_t {
  None,
  OutOfBounds,
  Misaligned,
  IllegalInstruction,
  Trap,
  Assert,
  Breakpoint,
  BarrierDeadlock,
  Watchdog,
  ReadOnlyWrite,
  InvalidLaunch, ///< the launch itself is impossible (resources, code segment); nothing ran
};

/// The fault kind's name (isa/device.toml).
const char *faultKindName(FaultKind kind);

/// What exactly went wrong, in the device protocol's terms (isa/device.toml's fault details): a
/// code and the values its text names. The emulator formats no text for a fault.
struct FaultDetail {
  dev::FaultDetail code = dev::FaultDetail::None;
  uint8_t space = 0;  ///< memory faults: isa.toml Space
  bool write = false; ///< memory faults: a store or atomic
  uint32_t size = 0;  ///< memory faults: bytes of the access
  uint64_t values[4] = {};

  FaultDetail() = default;
  FaultDetail(dev::FaultDetail c, uint64_t v0 = 0, uint64_t v1 = 0, uint64_t v2 = 0,
              uint64_t v3 = 0)
      : code(c), values{v0, v1, v2, v3} {}
  explicit operator bool() const { return code != dev::FaultDetail::None; }
};

/// Where and why a kernel stopped.
struct Fault {
  FaultKind kind = FaultKind::None;
  std::string kernel;
  Dim3 block{0, 0, 0};
  Dim3 thread{0, 0, 0};
  uint32_t pc = 0;
  uint64_t address = 0; ///< memory faults: the faulting address
  uint32_t code = 0;    ///< TRAP/BPT immediate
  FaultDetail detail;   ///< what exactly happened, as the protocol's fields

  /// The completion record's fault fields (isa/device.toml), as the command processor reports them.
  dev::Completion record() const;
  /// The fault a completion record's fault fields describe (none when its fault kind is none).
  static std::optional<Fault> fromRecord(const dev::Completion &record, std::string kernel);
  /// What happened, in words: the detail's text (isa/fault_report.h).
  std::string message() const;
  /// "kernel 'k' block (1,0,0) thread (33,0,0) pc 0x40: out-of-bounds access at 0x...: ..."
  std::string describe() const;
};

struct LaunchResult {
  std::optional<Fault> fault;
  uint64_t warpInsts = 0;   ///< warp instructions executed
  uint64_t threadInsts = 0; ///< thread instructions executed (active lanes summed)
  uint64_t cycles = 0;      ///< the device cycle counter advanced by this launch
  uint64_t blocks = 0;      ///< blocks that ran to completion
};

} // namespace wf::isa

//===- device.cpp - Device, launch checks and fault reports ---------------------===//

#include "warpforge/func/device.h"

#include "decode.h"
#include "engine.h"

#include <fmt/format.h>

namespace wf::func {

const char *faultKindName(FaultKind kind) {
  switch (kind) {
  case FaultKind::None:
    return "no fault";
  case FaultKind::OutOfBounds:
    return "out-of-bounds access";
  case FaultKind::Misaligned:
    return "misaligned access";
  case FaultKind::IllegalInstruction:
    return "illegal instruction";
  case FaultKind::Trap:
    return "trap";
  case FaultKind::Assert:
    return "assertion failed";
  case FaultKind::Breakpoint:
    return "breakpoint";
  case FaultKind::BarrierDeadlock:
    return "barrier deadlock";
  case FaultKind::Watchdog:
    return "watchdog timeout";
  case FaultKind::ReadOnlyWrite:
    return "write to read-only memory";
  case FaultKind::InvalidLaunch:
    return "invalid launch";
  }
  return "unknown fault";
}

std::string Fault::describe() const {
  std::string s =
      fmt::format("kernel '{}' block ({},{},{}) thread ({},{},{}) pc 0x{:x}: {}", kernel, block.x,
                  block.y, block.z, thread.x, thread.y, thread.z, pc, faultKindName(kind));
  bool memory = kind == FaultKind::OutOfBounds || kind == FaultKind::Misaligned ||
                kind == FaultKind::ReadOnlyWrite;
  if (memory)
    s += fmt::format(" at 0x{:x}", address);
  if (!message.empty())
    s += ": " + message;
  return s;
}

Device::Device(const isa::Config &config)
    : config_(config), memory_(uint64_t(config.globalMemMib) << 20) {}

Device::Device(const isa::Config &config, uint8_t *externalMemory)
    : config_(config), memory_(externalMemory, uint64_t(config.globalMemMib) << 20) {}

Device::~Device() = default;

namespace {

/// Why the launch cannot run on this device, or an empty string.
std::string checkLaunch(const isa::Config &cfg, const Memory &mem, const LaunchDesc &d) {
  if (d.grid.count() == 0 || d.block.count() == 0)
    return "grid and block dimensions must be at least 1";
  if (d.block.count() > cfg.maxThreadsPerBlock)
    return fmt::format("{} threads per block exceed the limit of {}", d.block.count(),
                       cfg.maxThreadsPerBlock);
  uint64_t warps = (d.block.count() + kWarpSize - 1) / kWarpSize;
  if (warps > cfg.warpsPerCore)
    return fmt::format("{} warps per block exceed the {} warp slots of a core", warps,
                       cfg.warpsPerCore);
  if (d.regsPerThread > cfg.maxRegsPerThread || d.regsPerThread > isa::kNumRegs)
    return fmt::format("{} registers per thread exceed the limit of {}", d.regsPerThread,
                       cfg.maxRegsPerThread);
  if (uint64_t(d.regsPerThread) * warps * kWarpSize > cfg.regsPerCore)
    return fmt::format("a block needs {} registers; a core has {}",
                       uint64_t(d.regsPerThread) * warps * kWarpSize, cfg.regsPerCore);
  // The hardware limit is what one core holds; CUDA's smaller default per-block limit
  // (sharedMemPerBlock without opting in) is the runtime's to enforce.
  uint64_t shared = uint64_t(d.sharedStatic) + d.sharedDynamic;
  if (shared > cfg.sharedMemPerCore)
    return fmt::format("{} bytes of shared memory exceed the limit of {} per block", shared,
                       cfg.sharedMemPerCore);
  if (d.localBytes > cfg.maxLocalBytesPerThread)
    return fmt::format("{} bytes of local memory per thread exceed the limit of {}", d.localBytes,
                       cfg.maxLocalBytesPerThread);
  if (d.codeSize < isa::kInstBytes || !mem.contains(d.codeBase, d.codeSize))
    return fmt::format("code segment [0x{:x}, +{}) is empty or outside device memory", d.codeBase,
                       d.codeSize);
  if (d.entryPc % isa::kInstBytes != 0 || d.entryPc >= d.codeSize)
    return fmt::format("entry pc 0x{:x} is outside the code segment or misaligned", d.entryPc);
  if (d.constSize > cfg.constMemBytes)
    return fmt::format("{} bytes of constants exceed the limit of {}", d.constSize,
                       cfg.constMemBytes);
  if (d.constSize != 0 && !mem.contains(d.constBase, d.constSize))
    return fmt::format("constant segment [0x{:x}, +{}) is outside device memory", d.constBase,
                       d.constSize);
  if (d.params.size() > std::numeric_limits<uint32_t>::max())
    return "parameter buffer too large";
  return {};
}

} // namespace

LaunchResult Device::launch(const LaunchDesc &desc, const RunOptions &options) {
  if (std::string why = checkLaunch(config_, memory_, desc); !why.empty()) {
    LaunchResult r;
    Fault f;
    f.kind = FaultKind::InvalidLaunch;
    f.kernel = desc.kernelName;
    f.pc = desc.entryPc;
    f.message = std::move(why);
    r.fault = std::move(f);
    return r;
  }
  Program program = decodeProgram(memory_.host(desc.codeBase), desc.codeSize, desc.regsPerThread);
  Launch launch(*this, desc, options, std::move(program), cycles_);
  LaunchResult result = launch.run();
  cycles_ += result.cycles;
  return result;
}

} // namespace wf::func

//===- device.cpp - Device, launch checks and fault reports ---------------------===//

#include "warpforge/func/device.h"
#include "warpforge/isa/fault_report.h"

#include "decode.h"
#include "engine.h"

#include <fmt/format.h>

namespace wf::func {

// --- statistics ----------------------------------------------------------------------------------

/// The emulator's statistics, registered once per device. The interpreter keeps its own plain
/// counters per core (no registry access in the hot loop); they are added here after each launch.
struct Device::Counters {
  struct PerCore {
    stats::Scalar &warpInsts, &threadInsts, &cycles, &blocks;
  };
  stats::Scalar &launches, &faults, &warpInsts, &threadInsts, &cycles, &blocks;
  stats::Distribution &coreBusy;
  std::vector<PerCore> cores;

  explicit Counters(stats::Group &gpu, unsigned numCores)
      : launches(gpu.scalar("launches", stats::unit::kCount, "grids launched")),
        faults(gpu.scalar("faults", stats::unit::kCount,
                          "launches that ended with a fault (invalid launches included)")),
        warpInsts(
            gpu.scalar("warp_insts", stats::unit::kInstruction, "warp instructions executed")),
        threadInsts(gpu.scalar("thread_insts", stats::unit::kInstruction,
                               "thread instructions executed (active lanes of each warp "
                               "instruction, summed)")),
        cycles(gpu.scalar("cycles", stats::unit::kCycle,
                          "device cycles of all launches (each launch: its busiest core)")),
        blocks(gpu.scalar("blocks", stats::unit::kCount, "thread blocks run to completion")),
        coreBusy(gpu.distribution("core_busy", stats::unit::kRatio,
                                  "each core's share of each launch's cycles (one sample a core "
                                  "and launch; 1: the busiest core)",
                                  0.0, 0.1, 11)) {
    gpu.formula("ipc", stats::unit::kInstPerCycle,
                "warp instructions per device cycle, over all launches",
                [this] { return cycles.value() ? warpInsts.value() / cycles.value() : 0.0; });
    gpu.formula("simd_efficiency", stats::unit::kRatio,
                "thread instructions per 32 x warp instruction: the active fraction of lanes",
                [this] {
                  return warpInsts.value() ? threadInsts.value() / (32.0 * warpInsts.value()) : 0.0;
                });
    for (unsigned i = 0; i < numCores; ++i) {
      stats::Group &g = gpu.group("core" + std::to_string(i));
      cores.push_back(PerCore{
          g.scalar("warp_insts", stats::unit::kInstruction, "warp instructions this core ran"),
          g.scalar("thread_insts", stats::unit::kInstruction, "thread instructions this core ran"),
          g.scalar("cycles", stats::unit::kCycle, "cycles this core was busy, over all launches"),
          g.scalar("blocks", stats::unit::kCount, "thread blocks this core completed")});
    }
  }
};

Device::Device(const isa::Config &config)
    : config_(config), memory_(uint64_t(config.globalMemMib) << 20),
      counters_(std::make_unique<Counters>(stats_, config.cores)) {}

Device::Device(const isa::Config &config, uint8_t *externalMemory)
    : config_(config), memory_(externalMemory, uint64_t(config.globalMemMib) << 20),
      counters_(std::make_unique<Counters>(stats_, config.cores)) {}

Device::~Device() = default;

void Device::count(const Launch &launch, const LaunchResult &result) {
  Counters &c = *counters_;
  ++c.launches;
  if (result.fault)
    ++c.faults;
  c.warpInsts += double(result.warpInsts);
  c.threadInsts += double(result.threadInsts);
  c.cycles += double(result.cycles);
  c.blocks += double(result.blocks);
  for (size_t i = 0; i < launch.cores.size() && i < c.cores.size(); ++i) {
    const Core &core = *launch.cores[i];
    c.cores[i].warpInsts += double(core.warpInsts);
    c.cores[i].threadInsts += double(core.threadInsts);
    c.cores[i].cycles += double(core.cycle);
    c.cores[i].blocks += double(core.blocksDone);
    if (result.cycles)
      c.coreBusy.sample(double(core.cycle) / double(result.cycles));
  }
}

FaultDetail checkLaunch(const isa::Config &cfg, const Memory &mem, const LaunchDesc &d) {
  using D = isa::dev::FaultDetail;
  if (d.grid.count() == 0 || d.block.count() == 0)
    return D::EmptyGrid;
  if (d.block.count() > cfg.maxThreadsPerBlock)
    return {D::BlockTooLarge, d.block.count(), cfg.maxThreadsPerBlock};
  uint64_t warps = (d.block.count() + kWarpSize - 1) / kWarpSize;
  if (warps > cfg.warpsPerCore)
    return {D::TooManyWarps, warps, cfg.warpsPerCore};
  if (d.regsPerThread > cfg.maxRegsPerThread || d.regsPerThread > isa::kNumRegs)
    return {D::TooManyRegisters, d.regsPerThread, cfg.maxRegsPerThread};
  if (uint64_t(d.regsPerThread) * warps * kWarpSize > cfg.regsPerCore)
    return {D::BlockRegisters, uint64_t(d.regsPerThread) * warps * kWarpSize, cfg.regsPerCore};
  // The hardware limit is what one core holds; CUDA's smaller default per-block limit
  // (sharedMemPerBlock without opting in) is the runtime's to enforce.
  uint64_t shared = uint64_t(d.sharedStatic) + d.sharedDynamic;
  if (shared > cfg.sharedMemPerCore)
    return {D::TooMuchShared, shared, cfg.sharedMemPerCore};
  if (d.localBytes > cfg.maxLocalBytesPerThread)
    return {D::TooMuchLocal, d.localBytes, cfg.maxLocalBytesPerThread};
  if (d.codeSize < isa::kInstBytes || !mem.contains(d.codeBase, d.codeSize))
    return {D::BadCodeSegment, d.codeBase, d.codeSize};
  if (d.entryPc % isa::kInstBytes != 0 || d.entryPc >= d.codeSize)
    return {D::BadEntry, d.entryPc};
  if (d.constSize > cfg.constMemBytes)
    return {D::TooManyConstants, d.constSize, cfg.constMemBytes};
  if (d.constSize != 0 && !mem.contains(d.constBase, d.constSize))
    return {D::BadConstSegment, d.constBase, d.constSize};
  if (d.params.size() > std::numeric_limits<uint32_t>::max())
    return D::ParamsTooLarge;
  return {};
}

LaunchResult Device::launch(const LaunchDesc &desc, const RunOptions &options) {
  if (FaultDetail why = checkLaunch(config_, memory_, desc)) {
    LaunchResult r;
    Fault f;
    f.kind = FaultKind::InvalidLaunch;
    f.kernel = desc.kernelName;
    f.pc = desc.entryPc;
    f.detail = why;
    r.fault = std::move(f);
    ++counters_->launches;
    ++counters_->faults;
    return r;
  }
  Program program = decodeProgram(memory_.host(desc.codeBase), desc.codeSize, desc.regsPerThread);
  Launch launch(*this, desc, options, std::move(program), cycles_);
  LaunchResult result = launch.run();
  cycles_ += result.cycles;
  count(launch, result);
  return result;
}

} // namespace wf::func

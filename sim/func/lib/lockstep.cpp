//===- lockstep.cpp - Stepping warps, comparing record streams ----------------------===//

#include "warpforge/func/lockstep.h"

#include "decode.h"
#include "engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

namespace wf::func {

using isa::dev::CommitKind;
using isa::dev::CommitPart;
using isa::dev::CommitPartKind;
using isa::dev::CommitRecord;

// --- Stepper -------------------------------------------------------------------------------------

Stepper::Stepper(Device &device, const LaunchDesc &desc, CommitSink sink)
    : device_(device), desc_(desc) {
  if (FaultDetail why = checkLaunch(device.config(), device.memory(), desc_)) {
    Fault f;
    f.kind = FaultKind::InvalidLaunch;
    f.kernel = desc_.kernelName;
    f.pc = desc_.entryPc;
    f.detail = why;
    fault_ = std::move(f);
    return;
  }
  options_.commit = std::move(sink);
  options_.hostThreads = 1;
  Program program =
      decodeProgram(device.memory().host(desc_.codeBase), desc_.codeSize, desc_.regsPerThread);
  launch_ = std::make_unique<Launch>(device, desc_, options_, std::move(program), device.cycles_);
  if (!launch_->recorder) // no sink: records are still built, for injection
    launch_->recorder = std::make_unique<CommitRecorder>(launch_->program, nullptr, CommitSink{});
}

Stepper::~Stepper() = default;

std::vector<WarpRef> Stepper::warps() const {
  std::vector<WarpRef> all;
  const uint32_t perBlock = uint32_t((desc_.block.count() + kWarpSize - 1) / kWarpSize);
  for (uint32_t z = 0; z < desc_.grid.z; ++z)
    for (uint32_t y = 0; y < desc_.grid.y; ++y)
      for (uint32_t x = 0; x < desc_.grid.x; ++x)
        for (uint32_t w = 0; w < perBlock; ++w)
          all.push_back(WarpRef{Dim3{x, y, z}, w});
  return all;
}

bool Stepper::finished(const WarpRef &ref) const {
  if (!launch_)
    return true;
  const Dim3 &g = desc_.grid;
  uint64_t linear = ref.block.x + uint64_t(g.x) * (ref.block.y + uint64_t(g.y) * ref.block.z);
  if (done_.count(linear))
    return true;
  const Core &core = *launch_->cores[linear % launch_->cores.size()];
  for (const auto &b : core.resident)
    if (b->linear == linear)
      return ref.warp < b->warps.size() && b->warps[ref.warp].finished;
  return false;
}

WarpStatus Stepper::status(const WarpRef &ref) {
  WarpStatus st;
  if (!launch_ || fault_)
    return st;
  const Dim3 &g = desc_.grid;
  if (ref.block.x >= g.x || ref.block.y >= g.y || ref.block.z >= g.z ||
      ref.warp >= launch_->warpsPerBlock)
    return st;
  uint64_t linear = ref.block.x + uint64_t(g.x) * (ref.block.y + uint64_t(g.y) * ref.block.z);
  st.started = true;
  if (done_.count(linear)) {
    st.finished = true;
    return st;
  }
  Core &core = *launch_->cores[linear % launch_->cores.size()];
  Block *block = nullptr;
  for (auto &b : core.resident)
    if (b->linear == linear)
      block = b.get();
  if (!block)
    block = &core.admitBlock(linear);
  Warp &w = block->warps[ref.warp];
  // A group that waited or exited is followed by the pick runWarp would make first (the same
  // lanes: nothing else changes this warp's runnable set before it next runs).
  if (!w.finished && w.group == 0 && w.runnable)
    w.pickGroup();
  st.finished = w.finished;
  st.idle = w.idle || w.group == 0;
  st.group = w.group;
  st.pc = w.groupPc;
  return st;
}

StepResult Stepper::step(const WarpRef &ref, uint32_t count, const CommitView *reference,
                         const Injection &inject) {
  StepResult result;
  if (!launch_) {
    result.status = StepStatus::Invalid;
    return result;
  }
  if (fault_) {
    result.status = StepStatus::Fault;
    return result;
  }
  const Dim3 &g = desc_.grid;
  if (ref.block.x >= g.x || ref.block.y >= g.y || ref.block.z >= g.z ||
      ref.warp >= launch_->warpsPerBlock) {
    result.status = StepStatus::Invalid;
    return result;
  }
  Launch &L = *launch_;
  uint64_t linear = ref.block.x + uint64_t(g.x) * (ref.block.y + uint64_t(g.y) * ref.block.z);
  if (done_.count(linear)) {
    result.status = StepStatus::Finished;
    return result;
  }
  Core &core = *L.cores[linear % L.cores.size()];
  Block *block = nullptr;
  for (auto &b : core.resident)
    if (b->linear == linear)
      block = b.get();
  if (!block)
    block = &core.admitBlock(linear);
  Warp &w = block->warps[ref.warp];
  if (w.finished) {
    result.status = StepStatus::Finished;
    return result;
  }
  if (w.idle) {
    result.status = StepStatus::Waiting;
    return result;
  }

  L.recorder->inject(reference, inject);
  while (result.executed < count) {
    PendingFault pending;
    uint64_t before = core.warpInsts;
    StopReason reason = runWarp(L, core, w, count - result.executed, pending);
    result.executed += uint32_t(core.warpInsts - before);
    if (reason == StopReason::Fault) {
      L.raise(w, pending);
      fault_ = L.fault();
      result.status = StepStatus::Fault;
      break;
    }
    if (reason == StopReason::Finished) {
      w.finished = true;
      result.status = StepStatus::Finished;
      if (--block->liveWarps == 0) {
        done_.insert(linear);
        core.retire(*block);
      } else if (block->idleWarps == block->liveWarps) {
        L.raiseDeadlock(*block);
        fault_ = L.fault();
        result.status = StepStatus::Fault;
      }
      break;
    }
    if (reason == StopReason::Idle) {
      w.idle = true;
      result.status = StepStatus::Waiting;
      if (++block->idleWarps == block->liveWarps) {
        L.raiseDeadlock(*block);
        fault_ = L.fault();
        result.status = StepStatus::Fault;
      }
      break;
    }
    // Slice or Sleep: a stepped warp does not sleep; the caller decides when it runs.
    w.sleepUntil = 0;
  }
  L.recorder->inject(nullptr, inject);
  return result;
}

LaunchResult Stepper::finish(std::optional<uint64_t> timedCycles) {
  LaunchResult result;
  result.fault = fault_;
  if (!launch_)
    return result;
  for (auto &c : launch_->cores) {
    result.warpInsts += c->warpInsts;
    result.threadInsts += c->threadInsts;
    result.cycles = std::max(result.cycles, c->cycle);
    result.blocks += c->blocksDone;
  }
  if (timedCycles)
    result.cycles = *timedCycles;
  if (!finished_) {
    launch_->recorder->flush();
    device_.cycles_ += result.cycles;
    device_.count(*launch_, result);
    finished_ = true;
  }
  return result;
}

} // namespace wf::func

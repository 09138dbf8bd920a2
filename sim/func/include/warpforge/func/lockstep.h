// The emulator's side of lockstep (docs/commit-trace.md, "Lockstep"): Stepper, the in-process
// implementation of isa::WarpStepper over a Device, and the checker over it. The comparator and the
// checker's logic are isa's (isa/include/warpforge/isa/lockstep.h), shared with every model.
#pragma once

#include "warpforge/func/commit.h"
#include "warpforge/func/device.h"
#include "warpforge/isa/lockstep.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_set>
#include <vector>

namespace wf::func {

class Launch;

using isa::CommitComparator;
using isa::Mismatch;
using isa::StepResult;
using isa::StepStatus;
using isa::WarpRef;
using isa::WarpStatus;

/// Runs a launch warp by warp, in whatever order the caller chooses: the shape a lockstep harness
/// needs, where the reference decides which warp commits next. A block starts on its core
/// (linear index % cores) when one of its warps is first stepped, whatever the core's occupancy;
/// SMID, WARPID and the cycle counter then follow the caller's order, not Device::launch's.
/// Every warp instruction, and every barrier release it causes, is reported to the sink.
class Stepper final : public isa::WarpStepper {
public:
  Stepper(Device &device, const LaunchDesc &desc, CommitSink sink);
  ~Stepper();
  Stepper(const Stepper &) = delete;
  Stepper &operator=(const Stepper &) = delete;

  /// Runs up to `count` warp instructions of `warp`. With `reference`, the reference's record of
  /// the next instruction, the values `inject` names are taken from it (count should then be 1).
  StepResult step(const WarpRef &warp, uint32_t count, const CommitView *reference = nullptr,
                  const Injection &inject = {}) override;
  /// Whether every lane of `warp` has exited.
  bool finished(const WarpRef &warp) const override;
  /// The warp's group and pc (its block is made resident if it is not yet). A warp whose group
  /// waited or exited and that has runnable lanes gets its next group picked here.
  WarpStatus status(const WarpRef &warp) override;
  /// Warps in the grid, in block-linear then warp order.
  std::vector<WarpRef> warps() const override;
  /// The launch's fault (or why it is invalid), once there is one.
  const std::optional<Fault> &fault() const override { return fault_; }
  /// Instruction and block counts so far; adds the cycles to the device's counter once, at the
  /// first call: the emulator's count, or `timedCycles` when a timing model drove the steps (the
  /// cycle model), which then is also the result's `cycles`.
  LaunchResult finish(std::optional<uint64_t> timedCycles = std::nullopt) override;

private:
  Device &device_;
  LaunchDesc desc_;
  RunOptions options_; ///< the launch keeps references to these
  std::unique_ptr<Launch> launch_;
  std::unordered_set<uint64_t> done_; ///< blocks (linear index) that have finished
  std::optional<Fault> fault_;
  bool finished_ = false;
};

/// Drives the emulator from a reference's record stream (isa::LockstepChecker over a Stepper of
/// `device`).
class LockstepChecker : public isa::LockstepChecker {
public:
  LockstepChecker(Device &device, const LaunchDesc &desc, const Injection &inject = {})
      : isa::LockstepChecker(
            [&](CommitSink sink) { return std::make_unique<Stepper>(device, desc, std::move(sink)); },
            inject) {}
};

} // namespace wf::func

// Lockstep with a reference (the RTL, or another emulator run), written once for every model that
// checks one (docs/commit-trace.md, "Lockstep"): the step interface a golden model offers (run one
// warp of a launch for N instructions, report its commit records), a comparator of two record
// streams, and a checker that drives a golden model from a reference's stream, injecting the
// reference's nondeterministic values. The emulator's Stepper implements WarpStepper in-process
// (sim/func); GoldenLaunch (golden.h) implements it through the golden-model plugin interface.
#pragma once

#include "warpforge/isa/commit.h"
#include "warpforge/isa/launch.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace wf::isa {

/// A warp of a launch: its block and its index in the block.
struct WarpRef {
  Dim3 block{0, 0, 0};
  uint32_t warp = 0;
  auto key() const { return std::tuple(block.z, block.y, block.x, warp); }
  bool operator<(const WarpRef &o) const { return key() < o.key(); }
  bool operator==(const WarpRef &o) const { return key() == o.key(); }
  /// "block (1,0,0) warp 2"
  std::string str() const;
  static WarpRef of(const dev::CommitRecord &r) {
    return WarpRef{Dim3{r.blockX, r.blockY, r.blockZ}, r.warp};
  }
};

enum class StepStatus : uint8_t {
  Ran,      ///< the warp committed every instruction asked for
  Waiting,  ///< it stopped (or could not start) because its lanes wait at a barrier
  Finished, ///< every lane has exited
  Fault,    ///< the launch faulted (WarpStepper::fault)
  Invalid,  ///< no such warp in the grid, or the launch itself is invalid
};

/// Where a warp stands between steps: what a timing model needs to know to fetch for it.
struct WarpStatus {
  bool started = false;  ///< its block is resident (it has been stepped, or its status asked)
  bool finished = false; ///< every lane has exited
  bool idle = false;     ///< no group: its lanes wait at a barrier until another warp releases them
  uint32_t group = 0;    ///< lanes of its current group
  uint32_t pc = 0;       ///< the group's pc: the next instruction it executes
};

struct StepResult {
  StepStatus status = StepStatus::Ran;
  uint32_t executed = 0; ///< warp instructions committed
};

/// A launch of the golden model run warp by warp, in whatever order the caller chooses: the shape a
/// lockstep harness (the reference decides which warp commits next) and a timing model (its
/// scheduler decides) need. A block starts on its core (linear index % cores) when one of its warps
/// is first stepped or asked about; SMID, WARPID and the cycle counter then follow the caller's
/// order. Every warp instruction, and every barrier release it causes, goes to the launch's sink.
class WarpStepper {
public:
  virtual ~WarpStepper() = default;
  /// Runs up to `count` warp instructions of `warp`. With `reference`, the reference's record of
  /// the next instruction, the values `inject` names are taken from it (count should then be 1).
  virtual StepResult step(const WarpRef &warp, uint32_t count,
                          const CommitView *reference = nullptr, const Injection &inject = {}) = 0;
  /// Whether every lane of `warp` has exited.
  virtual bool finished(const WarpRef &warp) const = 0;
  /// The warp's group and pc (its block is made resident if it is not yet). A warp whose group
  /// waited or exited and that has runnable lanes gets its next group picked here.
  virtual WarpStatus status(const WarpRef &warp) = 0;
  /// Warps in the grid, in block-linear then warp order.
  virtual std::vector<WarpRef> warps() const = 0;
  /// The launch's fault (or why it is invalid), once there is one.
  virtual const std::optional<Fault> &fault() const = 0;
  /// Instruction and block counts so far; adds the cycles to the device's counter once, at the
  /// first call: the emulator's count, or `timedCycles` when a timing model drove the steps (the
  /// cycle model), which then is also the result's `cycles`.
  virtual LaunchResult finish(std::optional<uint64_t> timedCycles = std::nullopt) = 0;
};

/// A difference between two record streams.
struct Mismatch {
  WarpRef warp;
  uint64_t index = 0;  ///< record index within the warp's stream (0: its first)
  std::string field;   ///< "pc", "R5 lane 3", "M lane 0 data", ...
  std::string message; ///< the readable report: warp, record, field, both values, both records
};

/// Compares two streams of commit records warp by warp: records of one warp keep their order,
/// warps may interleave differently on the two sides. Stops at the first difference. The core and
/// slot fields of the header are informative and not compared; everything else is, field by field
/// and lane by lane.
class CommitComparator {
public:
  explicit CommitComparator(std::string referenceName = "reference",
                            std::string testName = "emulator")
      : names_{std::move(referenceName), std::move(testName)} {}

  /// Adds a record to one side; false once a difference has been found.
  bool addReference(std::span<const uint8_t> record) { return add(0, record); }
  bool addTest(std::span<const uint8_t> record) { return add(1, record); }
  /// Both streams ended: records one side has and the other lacks are a difference.
  bool finish();
  const std::optional<Mismatch> &mismatch() const { return mismatch_; }
  uint64_t compared() const { return compared_; }
  /// Records of `warp` that one side (0: reference, 1: test) has and the other has not matched.
  size_t pending(int side, const WarpRef &warp) const;

private:
  struct Queue {
    std::vector<std::vector<uint8_t>> records[2]; ///< unmatched records per side
    uint64_t matched = 0;                         ///< records compared so far
  };
  bool add(int side, std::span<const uint8_t> record);
  bool compare(const WarpRef &warp, uint64_t index, std::span<const uint8_t> ref,
               std::span<const uint8_t> test);
  void report(const WarpRef &warp, uint64_t index, std::string field, std::string refValue,
              std::string testValue, std::span<const uint8_t> ref, std::span<const uint8_t> test);

  std::string names_[2];
  std::map<WarpRef, Queue> queues_;
  std::optional<Mismatch> mismatch_;
  uint64_t compared_ = 0;
};

/// Drives a golden model from a reference's record stream, the way an RTL lockstep harness does:
/// for each reference instruction record it steps the model's same warp by one instruction, with
/// the reference's nondeterministic values injected, and compares the two records.
class LockstepChecker {
public:
  /// Makes the launch to check, given the sink its records must go to.
  using StepperFactory = std::function<std::unique_ptr<WarpStepper>(CommitSink)>;
  explicit LockstepChecker(const StepperFactory &makeStepper, const Injection &inject = {});

  /// One record of the reference; false once a difference has been found.
  bool check(std::span<const uint8_t> reference);
  /// The reference stream ended.
  bool finish();
  const std::optional<Mismatch> &mismatch() const {
    return stuck_ ? stuck_ : comparator_.mismatch();
  }
  uint64_t compared() const { return comparator_.compared(); }
  WarpStepper &stepper() { return *stepper_; }

private:
  CommitComparator comparator_;
  std::unique_ptr<WarpStepper> stepper_;
  Injection inject_;
  std::optional<Mismatch> stuck_;
};

} // namespace wf::isa

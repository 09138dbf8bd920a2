//===- engine.h - Internal state of a running launch --------------------------===//
//
// A launch (Launch) owns one Core per configured core. Blocks are dealt to cores round-robin by
// linear block index (block i runs on core i % cores); a core admits its next block as soon as
// its warp slots, registers, shared memory and block slots allow. Each core runs its resident
// warps round-robin, one slice of up to kWarpSlice warp instructions at a time. Host threads own
// disjoint sets of cores, so a core's schedule (and therefore SMID, WARPID and its cycle counter)
// never depends on the number of host threads.
//
// Warp state follows docs/execution-model.md: every lane is in exactly one of
//   the current group | runnable | waiting at BSYNC b | waiting at WARPSYNC | waiting at a CTA
//   barrier | exited (lanes that do not exist count as exited)
// and lanes outside the group keep their resume pc in Warp::pc.
//
//===----------------------------------------------------------------------===//

#pragma once

#include "decode.h"
#include "recorder.h"
#include "timeline.h"
#include "warpforge/func/device.h"

#include <array>
#include <atomic>
#include <bit>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace wf::func {

inline constexpr unsigned kWarpSize = isa::kWarpSize;
static_assert(kWarpSize == 32, "lane masks are 32-bit words");
inline constexpr uint32_t kAllLanes = ~0u;
/// Warp instructions a warp runs before its core moves on to the next warp.
inline constexpr uint32_t kWarpSlice = 64;

struct Block;
struct Core;
struct PendingFault;
enum class StopReason : uint8_t { Slice, Idle, Finished, Sleep, Fault };
class Launch;

struct Warp {
  uint32_t *regs = nullptr; ///< rows x 32 lanes: row r of lane l at regs[r * 32 + l]
  uint32_t preds[kPredSlots] = {};
  uint32_t group = 0;   ///< lanes executing together now (0: none)
  uint32_t groupPc = 0; ///< their pc
  uint32_t runnable = 0;
  uint32_t exited = 0; ///< lanes that exited, and lanes that do not exist
  uint32_t valid = 0;  ///< lanes that exist
  uint32_t warpsyncWait = 0;
  uint32_t barWait = 0;
  uint32_t bsyncWaitAny = 0; ///< bit b: some lane waits at BSYNC b
  uint32_t yielded = 0;      ///< runnable lanes that yielded: picked after the others
  uint32_t backEdges = 0;    ///< backward branches the current group took since it was picked
  std::array<uint32_t, isa::kNumBarrierRegs> conv{};       ///< convergence barrier masks
  std::array<uint32_t, isa::kNumBarrierRegs> bsyncWait{};  ///< lanes waiting at BSYNC b
  std::array<uint32_t, isa::kNumBarrierRegs> yieldedOut{}; ///< lanes that yielded out of b
  std::array<uint32_t, kWarpSize> pc{};                    ///< resume pc of lanes outside the group
  std::array<uint32_t, kWarpSize> warpsyncMask{};          ///< mask each WARPSYNC waiter waits for
  uint64_t sleepUntil = 0; ///< NANOSLEEP: core cycle at which the warp may issue again
  Block *block = nullptr;
  uint32_t index = 0; ///< warp within the block
  uint32_t slot = 0;  ///< warp slot within the core (SR_WARPID)
  bool idle = false;  ///< nothing to run until a barrier releases some of its lanes
  bool finished = false;

  uint32_t *row(unsigned r) { return regs + size_t(r) * kWarpSize; }

  /// Lanes join the runnable set; their pcs must already be in `pc`.
  void makeRunnable(uint32_t lanes);
  /// Starts the next group: the runnable lane with the lowest pc (ties: lowest lane) and every
  /// runnable lane at that pc, among the lanes that did not yield if there are any. False when
  /// no lane is runnable.
  bool pickGroup();
  /// The group `lanes`, about to resume at `resumePc`, yields (forward progress): it leaves the
  /// convergence barriers other lanes wait at, releasing those that then complete, and becomes
  /// runnable behind the others.
  void yieldGroup(uint32_t lanes, uint32_t resumePc);
  /// Releases the convergence barriers whose non-exited threads all wait (at the instruction
  /// after their BSYNC); returns the released lanes, which the caller makes runnable.
  uint32_t releaseCompleteBarriers();
  /// Lanes `lanes` end. Releases convergence barriers and WARPSYNCs that only waited for them
  /// and tells the block (CTA barriers count exited threads as arrived).
  void exitLanes(uint32_t lanes);
  /// Releases the WARPSYNC waiters whose masks are complete; returns the released lanes.
  uint32_t releaseWarpsync(uint32_t waiters);
};

/// One CTA barrier (BAR id) of a block while threads are arriving at it.
struct CtaBarrier {
  bool inUse = false;
  uint32_t expected = 0; ///< threads to wait for; 0: every non-exited thread of the block
  uint32_t arrivals = 0;
  uint32_t popc = 0; ///< RED: threads arriving with a true predicate
  bool all = true, any = false;
  std::vector<uint32_t> arrived; ///< per warp
  std::vector<uint32_t> waiting; ///< per warp: lanes waiting for the release
  std::vector<uint16_t> rdRow;   ///< per warp: register written by RED forms (or discard)
  std::vector<uint8_t> redOp;    ///< per warp: isa::BarOp of the waiting lanes
  std::vector<uint32_t> barPc;   ///< per warp: pc of the BAR (trace)
};

struct Block {
  Core *core = nullptr;
  Dim3 idx;
  uint64_t linear = 0;
  uint32_t threads = 0;
  uint32_t numWarps = 0;
  uint32_t liveWarps = 0;
  uint32_t idleWarps = 0;
  std::vector<uint32_t> regs;
  std::vector<uint8_t> shared;
  std::vector<uint8_t> local; ///< threads x localBytes
  std::vector<Warp> warps;
  std::vector<uint32_t> slots; ///< warp slots held on the core
  std::array<CtaBarrier, 16> bars;

  /// Threads `lanes` of warp `w` arrive at barrier `id`. Returns true when the barrier completed
  /// (and released its waiters, `lanes` included).
  bool arrive(Warp &w, uint32_t lanes, isa::BarOp op, unsigned id, uint32_t count,
              uint32_t predLanes, uint16_t rdRow, uint32_t pc);
  /// Some threads exited: barriers waiting for "all threads" may complete.
  void threadsExited();
  bool tryComplete(unsigned id);
  void release(unsigned id);
  /// Thread coordinates of lane `lane` of warp `warp`.
  Dim3 threadIdx(uint32_t warp, uint32_t lane) const;
};

/// A fault raised while running; the launch turns it into a Fault.
struct PendingFault {
  FaultKind kind = FaultKind::None;
  uint32_t lane = 0;
  uint32_t pc = 0;
  uint64_t address = 0;
  uint32_t code = 0;
  FaultDetail detail;
};

struct Core {
  Launch *launch = nullptr;
  uint32_t id = 0;
  uint64_t cycle = 0; ///< cycles since the launch started on this core
  uint64_t nextBlock = 0;
  uint32_t freeRegs = 0, freeShared = 0, freeBlockSlots = 0;
  std::vector<Warp *> slots; ///< resident warp per slot, or null
  std::vector<std::unique_ptr<Block>> resident;
  std::vector<std::unique_ptr<Block>> spare; ///< finished blocks kept for their allocations
  uint64_t warpInsts = 0, threadInsts = 0, blocksDone = 0;
  bool done = false;

  /// Admits pending blocks while resources allow.
  void admit();
  /// Makes block `linear` resident (warp slots, registers, shared memory). The caller has
  /// checked that it fits, or steps warps by hand (Stepper): then the core's slots grow as needed.
  Block &admitBlock(uint64_t linear);
  /// One round-robin pass over the resident warps. False when the core has nothing left to do.
  bool round();
  void retire(Block &block);
  /// Adds a run of warp `w` (from cycle `began` to now) and why it stopped to the timeline.
  void recordRun(const Warp &w, uint64_t began, uint64_t insts, StopReason reason,
                 const PendingFault &fault);
};


class Launch {
public:
  Launch(Device &device, const LaunchDesc &desc, const RunOptions &options, Program program,
         uint64_t startCycle);
  LaunchResult run();

  // Everything below is read by the executor and the scheduler.
  Device &device;
  const isa::Config &config;
  const LaunchDesc &desc;
  const RunOptions &options;
  const Program program;
  uint64_t startCycle;
  uint64_t totalBlocks;
  uint32_t threadsPerBlock, warpsPerBlock;
  uint32_t sharedBytes;
  uint32_t regsPerBlock;
  uint32_t passes; ///< cycles a warp instruction takes (32 / lanes)
  uint8_t *global;
  uint64_t globalSize;
  std::unique_ptr<CommitRecorder> recorder; ///< commit records and the text trace, when asked for
  std::unique_ptr<TimelineRecorder> timeline; ///< warp activity, when asked for

  std::atomic<bool> stop{false};
  std::atomic<uint64_t> warpInstsTotal{0};
  std::vector<std::unique_ptr<Core>> cores;

  /// Records the first fault and stops the launch.
  void raise(const Warp &w, const PendingFault &fault);
  /// Reports a deadlock of `block`.
  void raiseDeadlock(Block &block);
  const std::optional<Fault> &fault() const { return fault_; }

private:
  void runCores(const std::vector<Core *> &mine);
  std::mutex faultMutex_;
  std::optional<Fault> fault_;
};

/// Why `desc` cannot run on the device (an INVALID_LAUNCH detail), or no detail.
FaultDetail checkLaunch(const isa::Config &config, const Memory &memory, const LaunchDesc &desc);

/// Runs up to `budget` warp instructions of `w` (execute.cpp). On StopReason::Fault the fault
/// is in `fault`.
StopReason runWarp(Launch &launch, Core &core, Warp &w, uint32_t budget, PendingFault &fault);

} // namespace wf::func

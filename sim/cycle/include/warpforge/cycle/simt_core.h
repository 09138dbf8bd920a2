// The SIMT core of the cycle model (docs/cycle-model.md, "SIMT core"): fetch and I-cache,
// instruction buffers, the warp scheduler and scoreboard (hls/), operand collectors over a banked
// register file (hls/ read arbiter), dispatch with write-back reservation, execution-unit
// latencies and lane shares (isa.toml), the LSU (hls/ coalescer and bank arbiter, L1 and constant
// caches) and the CTRL unit. Plain C++ stepped once a core cycle by the GPU top (gpu.h); it reaches
// the L2 through a request queue the top drains, and it takes every architectural effect from the
// golden model (the emulator, stepped through its plugin: isa::GoldenLaunch) when an instruction
// issues: it never computes an instruction's result.
#pragma once

#include "warpforge/cycle/tag_array.h"
#include "warpforge/hls/rf_arbiter.h"
#include "warpforge/hls/scoreboard.h"
#include "warpforge/hls/warp_scheduler.h"
#include "warpforge/isa/config.gen.h"
#include "warpforge/isa/isa.gen.h"
#include "warpforge/isa/lockstep.h"
#include "warpforge/stats/stats.h"

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wf::cycle {

/// The core's sizes and rules, from a named configuration (gem5-style parameter struct).
struct CoreParams {
  unsigned lanes = 16;
  unsigned passes = 2; ///< 32 / lanes
  unsigned warps = 32;
  unsigned issueWidth = 1;
  hls::SchedPolicy policy = hls::SchedPolicy::GreedyThenOldest;
  unsigned ibufferDepth = 2;
  unsigned scoreboardEntries = 6;
  unsigned rfBanks = 8;
  unsigned collectors = 4;
  unsigned regsPerCore = 65536;
  unsigned sharedMemPerCore = 65536;
  unsigned maxBlocksPerCore = 16;
  unsigned sharedBanks = 16;
  unsigned lineBytes = 64;
  unsigned icacheBytes = 16384, icacheLineBytes = 64, icacheWays = 4;
  unsigned dcacheBytes = 16384, dcacheWays = 4, dcacheMshrs = 8;
  unsigned ccacheBytes = 4096, ccacheWays = 2;
  unsigned lsuQueue = 4;        ///< memory instructions in the LSU's access stage and queue
  unsigned paramLatency = 4;    ///< cycles of a constant-cache miss served by the param RAM
  unsigned pickLatency = 8;     ///< convergence pick: group picked in t, fetch from t + 8
  unsigned barrierRelease = 2;  ///< a barrier completed by an arrival in t releases in t + 2

  static CoreParams fromConfig(const isa::Config &config);
  std::optional<std::string> validate() const;
};

/// One line request from a core to the L2 (or an I-cache / L1 / constant-cache fill).
struct LineRequest {
  enum class Kind : uint8_t { Read, Write, Atomic };
  Kind kind = Kind::Read;
  uint64_t address = 0; ///< card-memory byte address of the line (DRAM offset)
  uint32_t lanes = 1;   ///< atomics: lanes the bank executes (one a cycle)
  uint32_t tag = 0;     ///< the core's tag, returned with the response
};

/// Per-core counters; registerStats turns them into named statistics.
struct CoreCounters {
  uint64_t cycles = 0, activeCycles = 0;
  uint64_t warpInsts = 0, threadInsts = 0;
  uint64_t stallNoInst = 0, stallDependency = 0, stallUnitBusy = 0, stallMemory = 0,
           stallBarrier = 0, stallConvergence = 0;
  uint64_t icacheHits = 0, icacheMisses = 0;
  uint64_t dcacheHits = 0, dcacheMisses = 0;
  uint64_t ccacheHits = 0, ccacheMisses = 0;
  uint64_t rfReads = 0, rfBankConflicts = 0;
  uint64_t sharedAccesses = 0, sharedBankConflicts = 0;
  uint64_t lineRequests = 0;
  uint64_t blocks = 0;
  uint64_t residentWarpCycles = 0;
};

/// What the core needs of an instruction, decoded once per launch from the generated tables
/// (the cycle model's wf_decoder).
struct DecodedTiming {
  uint8_t op = 0;
  bool valid = false;
  isa::Unit unit = isa::Unit::CTRL;
  uint8_t latency = 1;
  uint8_t laneShare = 1;
  bool iterative = false;
  bool fetchStop = false;
  bool membar = false;
  bool readsRegs = false;
  uint8_t srcCount = 0;
  std::array<uint8_t, hls::kRfSlots> src{}; ///< source registers, in operand-slot order
  uint8_t destReg = 0, destCount = 0;       ///< register destination (count 0: none)
  bool writesPred = false;
  hls::SbUse use{};
  uint8_t ctrlCycles = 0; ///< warp operations: cycles in the CTRL unit before their result
};

class SimtCore {
public:
  /// The GPU's side of a launch that every core shares.
  struct LaunchContext {
    isa::WarpStepper *stepper = nullptr;
    const isa::LaunchDesc *desc = nullptr;
    uint32_t warpsPerBlock = 0;
    uint32_t regsPerThread = 0;
    uint32_t sharedBytes = 0;   ///< per block
    uint64_t localBase = 0;     ///< card-memory address of this launch's local areas
    uint64_t watchdogWarpInsts = ~0ull;
    uint64_t *warpInstsTotal = nullptr; ///< over all cores (watchdog)
    /// The stepper's sink keeps the last instruction record here.
    const std::vector<uint8_t> *lastRecord = nullptr;
    /// Called for every issued warp instruction (tests, timelines): core, warp slot, pc, cycle.
    std::function<void(unsigned, unsigned, uint32_t, uint64_t)> onIssue;
  };

  SimtCore(unsigned id, const CoreParams &params);

  /// Called at every LAUNCH: empties the caches and the core; `ctx` outlives the launch.
  void startLaunch(const LaunchContext *ctx, const std::vector<DecodedTiming> *code);

  /// Whether block `linear` fits now (warp slots, registers, shared memory, block slot).
  bool canAdmit() const;
  /// Admits a block whose resources canAdmit() found; its warps may fetch from `now + 1`.
  void admit(uint64_t linear, const isa::Dim3 &index, uint64_t now);

  /// One core cycle. Returns false once the launch faulted (stop()).
  void tick(uint64_t now);

  /// Line requests for the L2, oldest first; the top pops what the crossbar takes.
  std::deque<LineRequest> &outgoing() { return outgoing_; }
  /// The L2 answered request `tag` (data at the start of `now`).
  void respond(uint32_t tag, uint64_t now);

  /// No resident block, nothing in flight.
  bool idle() const { return residentBlocks_ == 0 && outgoing_.empty() && inFlight_.empty(); }
  /// Blocks that retired during the last tick.
  unsigned retiredThisTick() const { return retiredThisTick_; }
  /// An internal inconsistency between the model and the emulator (a bug), or empty.
  const std::string &error() const { return error_; }
  bool faulted() const { return faulted_; }

  const CoreCounters &counters() const { return counters_; }
  void registerStats(stats::Group &group) const;

private:
  struct IbEntry {
    uint32_t pc = 0;
    uint64_t readyAt = 0; ///< may issue from this cycle (decoded at the end of F1 + 2)
  };
  struct WarpSlot {
    bool active = false;
    isa::WarpRef ref;
    unsigned block = 0;     ///< block slot
    uint32_t rfBase = 0;    ///< first physical warp register
    uint32_t fetchPc = 0;
    bool fetchStop = false; ///< a CTRL instruction is unresolved
    bool missWait = false;
    uint64_t fetchFrom = 0; ///< may fetch from this cycle (F2 busy, pick in flight, admission)
    std::deque<IbEntry> ibuf;
    bool waiting = false;   ///< the emulator says the warp has no group (barrier or convergence)
    bool waitAtBar = false; ///< ...because of a CTA barrier (statistics)
    bool finished = false;
    uint32_t group = 0;
    unsigned memPending = 0; ///< memory instructions not yet acknowledged (MEMBAR)
    unsigned inCollectors = 0;
  };
  struct BlockSlot {
    bool active = false;
    uint64_t linear = 0;
    uint32_t rfBase = 0, rfCount = 0;
    uint32_t smemBase = 0, smemBytes = 0;
    std::vector<unsigned> warps;
  };
  struct Collector {
    bool valid = false;
    unsigned warp = 0;
    uint32_t pc = 0;
    const DecodedTiming *inst = nullptr;
    unsigned pass = 0, passes = 1;
    uint64_t passStart = 0;  ///< cycle from which this pass's reads may be granted
    uint8_t pending = 0;     ///< slots still to read for this pass
    uint64_t lastGrant = 0;
    bool anyRead = false;
    std::array<uint8_t, hls::kRfSlots> bank{};
    hls::SbReserved sb{};
    uint64_t memOp = 0;      ///< index into memOps_ for LSU instructions
  };
  /// A memory instruction between its last pass and its acknowledgement.
  struct MemOp {
    unsigned warp = 0;
    bool writesReg = false, writesPred = false, isStore = false;
    hls::SbReserved sb{};
    unsigned destBanks = 0;  ///< write-back reservation mask of its register write
    std::vector<LineRequest> lines; ///< L2 requests still to send (in order)
    unsigned accessCycles = 0;      ///< cycles of the access stage (bank passes, addresses)
    unsigned outstanding = 0;       ///< requests sent and not answered
    uint64_t readyAt = 0;           ///< when its result may be written (after the last answer)
    unsigned extraLatency = 0;      ///< param-RAM fills of constant-cache misses
    bool sent = false;              ///< the access stage is done with it
    bool done = false;
  };
  struct Release {
    unsigned warp;
    uint8_t entry;
  };

  void fetch(uint64_t now);
  void issue(uint64_t now);
  void collect(uint64_t now);
  void dispatch(uint64_t now);
  void lsuAccess(uint64_t now);
  void complete(uint64_t now);
  bool executeAtIssue(unsigned w, const DecodedTiming &inst, uint32_t pc, uint64_t now,
                      Collector &col);
  void resolveCtrl(unsigned w, uint64_t now, bool stop, bool wasBar, uint32_t oldGroup);
  void refreshWaiting(unsigned block, uint64_t now);
  void retireFinished(uint64_t now);
  /// The first cycle >= `from` whose write slots `banks` are free; reserves them.
  uint64_t reserveWriteSlot(uint64_t from, uint32_t banks);
  bool writeSlotFree(uint64_t at, uint32_t banks) const;
  void scheduleRelease(uint64_t at, unsigned warp, const hls::SbReserved &sb, bool reg, bool pred);
  uint32_t destBankMask(unsigned w, const DecodedTiming &inst) const;
  void fail(std::string why);

  unsigned id_;
  CoreParams p_;
  const LaunchContext *ctx_ = nullptr;
  const std::vector<DecodedTiming> *code_ = nullptr;

  std::vector<WarpSlot> warps_;
  std::vector<BlockSlot> blocks_;
  std::vector<Collector> collectors_;
  std::vector<uint8_t> regUsed_;   ///< per physical warp register: allocated
  std::vector<uint8_t> smemUsed_;  ///< per 256-byte granule of shared memory
  unsigned residentBlocks_ = 0;
  unsigned retiredThisTick_ = 0;
  uint64_t admitMask_ = 0;         ///< warps admitted this cycle (scheduler ages)
  uint32_t allocMask_ = 0;         ///< collectors allocated this cycle (read-arbiter ages)
  unsigned lastFetch_ = 0;

  hls::WarpScheduler sched_;
  hls::Scoreboard sb_;
  hls::RfReadArbiter rfArb_;
  TagArray icache_, dcache_, ccache_;
  std::optional<uint64_t> icacheMissLine_; ///< the outstanding I-cache miss
  uint32_t icacheTag_ = 0;

  // Write-back reservation: bit b of ring_[c % size] = bank b written in cycle c; bit rfBanks =
  // the predicate file.
  std::vector<uint32_t> ring_;
  std::map<uint64_t, std::vector<Release>> releases_;
  // Execution units: cycle from which each can take a pass.
  std::array<uint64_t, size_t(isa::Unit::Count)> unitFree_{};
  bool ctrlBusy_ = false;          ///< a CTRL instruction is between issue and resolution
  struct CtrlPending {
    unsigned warp;
    uint64_t at;
    bool wasBar;
    bool stop; ///< a fetch-stop instruction: the warp fetches again from its new pc
    uint32_t oldGroup;
  };
  std::vector<CtrlPending> ctrlResolve_;
  std::map<uint64_t, std::vector<unsigned>> wakeups_; ///< barrier releases: warps to refresh

  std::deque<uint64_t> lsuQueue_;  ///< memory ops in the access stage, in order
  std::map<uint64_t, MemOp> memOps_;
  uint64_t nextMemOp_ = 1;
  std::deque<LineRequest> outgoing_;
  std::map<uint32_t, uint64_t> inFlight_; ///< tag -> memory op (0: I-cache fill)
  uint32_t nextTag_ = 1;

  CoreCounters counters_;
  std::string error_;
  bool faulted_ = false;
};

/// Decodes a code segment for `regsPerThread` registers (illegal words decode as a CTRL
/// instruction without operands; stepping them raises the emulator's fault).
std::vector<DecodedTiming> decodeTiming(const uint8_t *code, uint32_t codeSize, unsigned lanes);

} // namespace wf::cycle

//===- engine.cpp - Scheduling: cores, blocks, warps, barriers ------------------===//

#include "engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <limits>
#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

namespace wf::func {

namespace {

inline unsigned firstLane(uint32_t m) { return unsigned(std::countr_zero(m)); }

/// Sets the host FPU to what arith.h relies on (round to nearest, subnormals kept) for a scope.
class HostFpuMode {
public:
  HostFpuMode() {
#if defined(__x86_64__) || defined(__i386__)
    saved_ = _mm_getcsr();
    _mm_setcsr(0x1f80); // all exceptions masked, round to nearest, no FTZ, no DAZ
#endif
  }
  ~HostFpuMode() {
#if defined(__x86_64__) || defined(__i386__)
    _mm_setcsr(saved_);
#endif
  }
  HostFpuMode(const HostFpuMode &) = delete;
  HostFpuMode &operator=(const HostFpuMode &) = delete;

private:
  [[maybe_unused]] unsigned saved_ = 0;
};

} // namespace

// --- Warp ------------------------------------------------------------------------------------

void Warp::makeRunnable(uint32_t lanes) {
  runnable |= lanes;
  if (idle && lanes) {
    idle = false;
    --block->idleWarps;
  }
}

bool Warp::pickGroup() {
  if (!runnable) {
    group = 0;
    return false;
  }
  uint32_t candidates = runnable & ~yielded;
  if (!candidates) {
    candidates = runnable; // only lanes that yielded: their turn again
    yielded = 0;
  }
  uint32_t lowest = std::numeric_limits<uint32_t>::max();
  for (uint32_t m = candidates; m; m &= m - 1)
    lowest = std::min(lowest, pc[firstLane(m)]);
  uint32_t lanes = 0;
  for (uint32_t m = candidates; m; m &= m - 1)
    if (pc[firstLane(m)] == lowest)
      lanes |= 1u << firstLane(m);
  runnable &= ~lanes;
  yielded &= ~lanes;
  group = lanes;
  groupPc = lowest;
  backEdges = 0;
  return true;
}

uint32_t Warp::releaseCompleteBarriers() {
  uint32_t released = 0;
  for (uint32_t any = bsyncWaitAny; any; any &= any - 1) {
    unsigned b = firstLane(any);
    if ((conv[b] & ~exited & ~bsyncWait[b]) == 0) {
      released |= bsyncWait[b];
      bsyncWait[b] = 0;
      bsyncWaitAny &= ~(1u << b);
    }
  }
  return released;
}

void Warp::yieldGroup(uint32_t lanes, uint32_t resumePc) {
  for (uint32_t any = bsyncWaitAny; any; any &= any - 1) {
    unsigned b = firstLane(any);
    yieldedOut[b] |= conv[b] & lanes;
    conv[b] &= ~lanes;
  }
  for (uint32_t m = lanes; m; m &= m - 1)
    pc[firstLane(m)] = resumePc;
  yielded |= lanes;
  makeRunnable(releaseCompleteBarriers() | lanes);
}

uint32_t Warp::releaseWarpsync(uint32_t waiters) {
  // A waiter may go when every non-exited lane of its mask waits too; drop the ones that cannot
  // until the set is stable.
  uint32_t go = waiters;
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t m = go; m; m &= m - 1) {
      unsigned l = firstLane(m);
      if (warpsyncMask[l] & ~exited & ~go) {
        go &= ~(1u << l);
        changed = true;
      }
    }
  }
  warpsyncWait = waiters & ~go;
  return go;
}

void Warp::exitLanes(uint32_t lanes) {
  exited |= lanes;
  for (uint32_t &m : conv)
    m &= ~lanes;
  uint32_t released = releaseCompleteBarriers();
  if (warpsyncWait)
    released |= releaseWarpsync(warpsyncWait);
  if (released)
    makeRunnable(released);
  block->threadsExited();
}

// --- Block -----------------------------------------------------------------------------------

Dim3 Block::threadIdx(uint32_t warp, uint32_t lane) const {
  const LaunchDesc &d = core->launch->desc;
  uint32_t t = warp * kWarpSize + lane;
  return Dim3{t % d.block.x, (t / d.block.x) % d.block.y, t / (d.block.x * d.block.y)};
}

bool Block::arrive(Warp &w, uint32_t lanes, isa::BarOp op, unsigned id, uint32_t count,
                   uint32_t predLanes, uint16_t rdRow, uint32_t pc) {
  CtaBarrier &bar = bars[id];
  if (!bar.inUse) {
    bar.inUse = true;
    bar.expected = count;
    bar.arrivals = 0;
    bar.popc = 0;
    bar.all = true;
    bar.any = false;
  }
  bar.arrivals += unsigned(std::popcount(lanes));
  bar.arrived[w.index] |= lanes;
  if (op != isa::BarOp::ARRIVE) {
    bar.waiting[w.index] |= lanes;
    w.barWait |= lanes;
    for (uint32_t m = lanes; m; m &= m - 1)
      w.pc[firstLane(m)] = pc + isa::kInstBytes;
    bar.rdRow[w.index] = rdRow;
    bar.redOp[w.index] = uint8_t(op);
    bar.barPc[w.index] = pc;
    if (op != isa::BarOp::SYNC) {
      uint32_t p = predLanes & lanes;
      bar.popc += unsigned(std::popcount(p));
      bar.all = bar.all && p == lanes;
      bar.any = bar.any || p != 0;
    }
  }
  return tryComplete(id);
}

void Block::threadsExited() {
  for (unsigned id = 0; id < bars.size(); ++id)
    if (bars[id].inUse && bars[id].expected == 0)
      tryComplete(id);
}

bool Block::tryComplete(unsigned id) {
  CtaBarrier &bar = bars[id];
  if (!bar.inUse)
    return false;
  bool complete = true;
  if (bar.expected != 0) {
    complete = bar.arrivals >= bar.expected;
  } else {
    // Every thread of the block has arrived or exited.
    for (uint32_t i = 0; i < numWarps && complete; ++i)
      complete = (bar.arrived[i] | warps[i].exited) == kAllLanes;
  }
  if (complete)
    release(id);
  return complete;
}

void Block::release(unsigned id) {
  CtaBarrier &bar = bars[id];
  CommitRecorder *recorder = core->launch->recorder.get();
  for (uint32_t i = 0; i < numWarps; ++i) {
    uint32_t lanes = bar.waiting[i];
    if (!lanes)
      continue;
    Warp &w = warps[i];
    w.barWait &= ~lanes;
    auto op = isa::BarOp(bar.redOp[i]);
    if (op != isa::BarOp::SYNC) {
      uint32_t value = op == isa::BarOp::RED_POPC  ? bar.popc
                       : op == isa::BarOp::RED_AND ? uint32_t(bar.all)
                                                   : uint32_t(bar.any);
      uint32_t *row = w.row(bar.rdRow[i]);
      for (uint32_t m = lanes; m; m &= m - 1)
        row[firstLane(m)] = value;
      if (recorder && bar.rdRow[i] < core->launch->program.regsPerThread)
        recorder->release(w, bar.barPc[i], lanes, bar.rdRow[i]);
    }
    w.makeRunnable(lanes);
  }
  bar.inUse = false;
  std::fill(bar.arrived.begin(), bar.arrived.end(), 0u);
  std::fill(bar.waiting.begin(), bar.waiting.end(), 0u);
}

// --- Core ------------------------------------------------------------------------------------

void Core::admit() {
  Launch &L = *launch;
  while (nextBlock < L.totalBlocks) {
    uint32_t freeSlots = uint32_t(std::count(slots.begin(), slots.end(), nullptr));
    if (freeSlots < L.warpsPerBlock || freeRegs < L.regsPerBlock || freeShared < L.sharedBytes ||
        freeBlockSlots == 0)
      return;
    uint64_t n = nextBlock;
    nextBlock += L.cores.size();
    admitBlock(n);
  }
}

Block &Core::admitBlock(uint64_t n) {
  Launch &L = *launch;
  const LaunchDesc &desc = L.desc;
  const uint32_t rows = L.program.rows;
  std::unique_ptr<Block> owned;
  if (!spare.empty()) {
    owned = std::move(spare.back());
    spare.pop_back();
  } else {
    owned = std::make_unique<Block>();
  }
  Block &b = *owned;
  freeRegs -= L.regsPerBlock; // wraps only for blocks a Stepper forces in; it never reads them
  freeShared -= L.sharedBytes;
  --freeBlockSlots;

  b.core = this;
  b.linear = n;
  b.idx = Dim3{uint32_t(n % desc.grid.x), uint32_t((n / desc.grid.x) % desc.grid.y),
               uint32_t(n / (uint64_t(desc.grid.x) * desc.grid.y))};
  b.threads = L.threadsPerBlock;
  b.numWarps = L.warpsPerBlock;
  b.liveWarps = b.numWarps;
  b.idleWarps = 0;
  b.regs.assign(size_t(b.numWarps) * rows * kWarpSize, 0u);
  b.shared.assign(L.sharedBytes, 0);
  b.local.assign(size_t(b.threads) * desc.localBytes, 0);
  b.warps.assign(b.numWarps, Warp{});
  b.slots.clear();
  // A released barrier leaves its masks cleared: only a barrier left in use (arrivals that
  // never completed) or a new block size needs resetting.
  for (CtaBarrier &bar : b.bars) {
    if (!bar.inUse && bar.arrived.size() == b.numWarps)
      continue;
    bar.inUse = false;
    bar.arrived.assign(b.numWarps, 0u);
    bar.waiting.assign(b.numWarps, 0u);
    bar.rdRow.assign(b.numWarps, 0);
    bar.redOp.assign(b.numWarps, 0);
    bar.barPc.assign(b.numWarps, 0u);
  }
  uint32_t slot = 0;
  for (uint32_t i = 0; i < b.numWarps; ++i) {
    Warp &w = b.warps[i];
    w.regs = b.regs.data() + size_t(i) * rows * kWarpSize;
    w.preds[kPredTrue] = kAllLanes;
    uint32_t lanesHere = std::min<uint32_t>(kWarpSize, b.threads - i * kWarpSize);
    w.valid = lanesHere == kWarpSize ? kAllLanes : (1u << lanesHere) - 1;
    w.exited = ~w.valid;
    w.group = w.valid;
    w.groupPc = desc.entryPc;
    w.block = &b;
    w.index = i;
    while (slot < slots.size() && slots[slot])
      ++slot;
    if (slot == slots.size())
      slots.push_back(nullptr); // only a Stepper oversubscribes a core
    w.slot = slot;
    slots[slot] = &w;
    b.slots.push_back(slot);
  }
  if (L.timeline)
    L.timeline->blockAdmitted(id, b, cycle);
  resident.push_back(std::move(owned));
  return b;
}

/// A pending fault's detail in words, for the timeline.
static std::string pendingMessage(const PendingFault &pf) {
  Fault f;
  f.kind = pf.kind;
  f.address = pf.address;
  f.code = pf.code;
  f.detail = pf.detail;
  return f.message();
}

void Core::recordRun(const Warp &w, uint64_t began, uint64_t insts, StopReason reason,
                     const PendingFault &fault) {
  TimelineRecorder &timeline = *launch->timeline;
  static constexpr const char *kWhy[] = {"slice", "wait", "exit", "sleep", "fault"};
  if (insts)
    timeline.warpRan(id, w, began, cycle, insts, kWhy[unsigned(reason)]);
  if (reason == StopReason::Fault) {
    timeline.warpInstant(id, w, cycle, "fault", pendingMessage(fault));
  } else if (reason == StopReason::Idle) {
    // Every lane waits: name the first waiting lane's barrier.
    uint32_t waiting = ~w.exited;
    unsigned lane = waiting ? firstLane(waiting) : 0;
    std::string what = "barrier";
    if ((w.barWait >> lane) & 1)
      what = "CTA barrier (BAR)";
    else if ((w.warpsyncWait >> lane) & 1)
      what = "WARPSYNC";
    else
      for (unsigned b = 0; b < w.bsyncWait.size(); ++b)
        if ((w.bsyncWait[b] >> lane) & 1)
          what = fmt::format("BSYNC B{}", b);
    timeline.warpInstant(id, w, cycle, "barrier wait", what);
  }
}

void Core::retire(Block &block) {
  Launch &L = *launch;
  if (L.timeline)
    L.timeline->blockRetired(id, block, cycle);
  for (uint32_t s : block.slots)
    slots[s] = nullptr;
  freeRegs += L.regsPerBlock;
  freeShared += L.sharedBytes;
  ++freeBlockSlots;
  ++blocksDone;
  auto it = std::find_if(resident.begin(), resident.end(),
                         [&](const std::unique_ptr<Block> &p) { return p.get() == &block; });
  spare.push_back(std::move(*it));
  resident.erase(it);
}

bool Core::round() {
  Launch &L = *launch;
  admit();
  if (resident.empty()) {
    done = true;
    return false;
  }
  bool progress = false;
  uint64_t wake = std::numeric_limits<uint64_t>::max();
  const uint64_t limit = L.options.watchdogWarpInsts;
  for (size_t s = 0; s < slots.size(); ++s) {
    Warp *w = slots[s];
    if (!w || w->finished || w->idle)
      continue;
    if (w->sleepUntil > cycle) {
      wake = std::min(wake, w->sleepUntil);
      continue;
    }
    uint64_t total = L.warpInstsTotal.load(std::memory_order_relaxed);
    if (total >= limit) {
      PendingFault f;
      f.kind = FaultKind::Watchdog;
      f.lane = w->group ? firstLane(w->group) : 0;
      f.pc = w->groupPc;
      f.detail = {isa::dev::FaultDetail::WatchdogLimit, limit};
      if (L.timeline)
        L.timeline->warpInstant(id, *w, cycle, "fault", pendingMessage(f));
      L.raise(*w, f);
      return false;
    }
    uint32_t budget = uint32_t(std::min<uint64_t>(kWarpSlice, limit - total));
    uint64_t before = warpInsts, began = cycle;
    PendingFault fault;
    StopReason reason = runWarp(L, *this, *w, budget, fault);
    L.warpInstsTotal.fetch_add(warpInsts - before, std::memory_order_relaxed);
    if (L.timeline)
      recordRun(*w, began, warpInsts - before, reason, fault);
    progress = true;
    Block &blk = *w->block;
    switch (reason) {
    case StopReason::Fault:
      L.raise(*w, fault);
      return false;
    case StopReason::Finished:
      w->finished = true;
      if (--blk.liveWarps == 0) {
        retire(blk);
        break;
      }
      if (blk.idleWarps == blk.liveWarps) {
        L.raiseDeadlock(blk);
        return false;
      }
      break;
    case StopReason::Idle:
      w->idle = true;
      if (++blk.idleWarps == blk.liveWarps) {
        L.raiseDeadlock(blk);
        return false;
      }
      break;
    default:
      break;
    }
    if (L.stop.load(std::memory_order_relaxed))
      return false;
  }
  if (!progress) {
    if (wake == std::numeric_limits<uint64_t>::max()) {
      // Unreachable while deadlocks are caught when the last warp of a block goes idle.
      L.raiseDeadlock(*resident.front());
      return false;
    }
    cycle = wake; // every warp sleeps: time passes
  }
  return true;
}

// --- Launch ----------------------------------------------------------------------------------

Launch::Launch(Device &dev, const LaunchDesc &d, const RunOptions &opts, Program prog,
               uint64_t start)
    : device(dev), config(dev.config()), desc(d), options(opts), program(std::move(prog)),
      startCycle(start) {
  totalBlocks = desc.grid.count();
  threadsPerBlock = uint32_t(desc.block.count());
  warpsPerBlock = (threadsPerBlock + kWarpSize - 1) / kWarpSize;
  sharedBytes = desc.sharedStatic + desc.sharedDynamic;
  regsPerBlock = desc.regsPerThread * warpsPerBlock * kWarpSize;
  passes = std::max<uint32_t>(1, kWarpSize / config.lanes);
  global = dev.memory().host(dev.memory().base());
  globalSize = dev.memory().size();
  if (options.trace || options.commit)
    recorder = std::make_unique<CommitRecorder>(program, options.trace, options.commit);
  if (options.timeline)
    timeline = std::make_unique<TimelineRecorder>(desc.kernelName, config.cores,
                                                  config.warpsPerCore, startCycle);
  for (uint32_t i = 0; i < config.cores; ++i) {
    auto core = std::make_unique<Core>();
    core->launch = this;
    core->id = i;
    core->nextBlock = i;
    core->freeRegs = config.regsPerCore;
    core->freeShared = config.sharedMemPerCore;
    core->freeBlockSlots = config.maxBlocksPerCore;
    core->slots.assign(config.warpsPerCore, nullptr);
    cores.push_back(std::move(core));
  }
}

void Launch::raise(const Warp &w, const PendingFault &pf) {
  Fault f;
  f.kind = pf.kind;
  f.kernel = desc.kernelName;
  f.block = w.block->idx;
  f.thread = w.block->threadIdx(w.index, pf.lane);
  f.pc = pf.pc;
  f.address = pf.address;
  f.code = pf.code;
  f.detail = pf.detail;
  std::lock_guard lock(faultMutex_);
  if (!fault_)
    fault_ = std::move(f);
  stop.store(true);
}

void Launch::raiseDeadlock(Block &block) {
  // Describe the first waiting thread.
  for (Warp &w : block.warps) {
    if (w.finished)
      continue;
    uint32_t waiting = ~w.exited;
    if (!waiting)
      continue;
    unsigned lane = firstLane(waiting);
    using D = isa::dev::FaultDetail;
    PendingFault f;
    f.detail = D::DeadlockAtBarrier;
    if ((w.barWait >> lane) & 1) {
      f.detail = D::DeadlockAtBar;
    } else if ((w.warpsyncWait >> lane) & 1) {
      f.detail = D::DeadlockAtWarpsync;
    } else {
      for (unsigned b = 0; b < w.bsyncWait.size(); ++b)
        if ((w.bsyncWait[b] >> lane) & 1)
          f.detail = {D::DeadlockAtBsync, b};
    }
    f.kind = FaultKind::BarrierDeadlock;
    f.lane = lane;
    f.pc = w.pc[lane] - isa::kInstBytes;
    raise(w, f);
    return;
  }
}

void Launch::runCores(const std::vector<Core *> &mine) {
  HostFpuMode fpu;
  while (!stop.load(std::memory_order_relaxed)) {
    bool any = false;
    for (Core *c : mine)
      if (!c->done && c->round())
        any = true;
    if (!any)
      break;
  }
}

LaunchResult Launch::run() {
  unsigned threads = std::max(1u, std::min<unsigned>(options.hostThreads, config.cores));
  if (recorder || options.pcProfile)
    threads = 1; // records are one ordered stream; the profile counters are not atomic
  if (threads == 1) {
    std::vector<Core *> all;
    for (auto &c : cores)
      all.push_back(c.get());
    runCores(all);
  } else {
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) {
      std::vector<Core *> mine;
      for (size_t c = t; c < cores.size(); c += threads)
        mine.push_back(cores[c].get());
      pool.emplace_back([this, mine] { runCores(mine); });
    }
    for (std::thread &th : pool)
      th.join();
  }
  if (recorder)
    recorder->flush();
  if (timeline)
    timeline->write(*options.timeline);

  LaunchResult result;
  result.fault = fault_;
  for (auto &c : cores) {
    result.warpInsts += c->warpInsts;
    result.threadInsts += c->threadInsts;
    result.cycles = std::max(result.cycles, c->cycle);
    result.blocks += c->blocksDone;
  }
  return result;
}

} // namespace wf::func

//===- simt_core.cpp - The SIMT core of the cycle model -------------------===//
//
// One tick is one core cycle t. The stages run in this order, each from the state the earlier
// cycles left, so that what a stage decides in t is seen by the others from t + 1 on
// (docs/cycle-model.md, "SIMT core", lists every rule and where it departs from
// docs/microarchitecture.md):
//   complete  (CTRL resolutions, barrier wake-ups, LSU results due in t)
//   dispatch  (collectors' complete passes into the units, write-back reservation)
//   collect   (register-file read arbitration for the collectors' current passes)
//   issue     (scheduler pick, scoreboard, collector allocation; the emulator executes the
//              instruction here), then the scoreboard releases of t
//   fetch     (F1 round robin, I-cache tag compare; decoded entries may issue from t + 3)
//   lsu       (the access stage: one bank pass, line request or address a cycle)
//
//===----------------------------------------------------------------------===//

#include "warpforge/cycle/simt_core.h"

#include "warpforge/isa/commit.h"
#include "warpforge/hls/bank_arbiter.h"
#include "warpforge/hls/coalescer.h"

#include <algorithm>
#include <bit>
#include <set>

namespace wf::cycle {

using isa::Opcode;
using isa::Unit;

namespace {

constexpr unsigned kSmemGranule = 256;

bool named(const isa::OpInfo &info, std::initializer_list<std::string_view> names) {
  for (std::string_view n : names)
    if (info.name == n)
      return true;
  return false;
}

unsigned log2u(unsigned v) { return unsigned(std::bit_width(v)) - 1; }

} // namespace

// --- Parameters ----------------------------------------------------------------------------------

CoreParams CoreParams::fromConfig(const isa::Config &c) {
  CoreParams p;
  p.lanes = c.lanes;
  p.passes = isa::kWarpSize / c.lanes;
  p.warps = c.warpsPerCore;
  p.issueWidth = c.issueWidth;
  p.policy = c.schedulerPolicy == isa::SchedulerPolicy::Lrr ? hls::SchedPolicy::LooseRoundRobin
                                                            : hls::SchedPolicy::GreedyThenOldest;
  p.ibufferDepth = c.ibufferDepth;
  p.scoreboardEntries = c.scoreboardEntries;
  p.rfBanks = c.rfBanks;
  p.collectors = c.operandCollectors;
  p.regsPerCore = c.regsPerCore;
  p.sharedMemPerCore = c.sharedMemPerCore;
  p.maxBlocksPerCore = c.maxBlocksPerCore;
  p.sharedBanks = c.sharedBanks;
  p.lineBytes = c.cacheLineBytes;
  p.icacheBytes = c.icacheBytes;
  p.icacheLineBytes = c.icacheLineBytes;
  p.icacheWays = c.icacheWays;
  p.dcacheBytes = c.dcacheBytes;
  p.dcacheWays = c.dcacheWays;
  p.dcacheMshrs = c.dcacheMshrs;
  p.ccacheBytes = c.ccacheBytes;
  p.ccacheWays = c.ccacheWays;
  return p;
}

std::optional<std::string> CoreParams::validate() const {
  if (lanes == 0 || isa::kWarpSize % lanes)
    return "core: lanes must divide 32";
  if (warps == 0 || warps > hls::kMaxSchedWarps)
    return "core: warps per core must be 1..64";
  if (issueWidth == 0 || issueWidth > hls::kMaxIssueWidth)
    return "core: issue width must be 1 or 2";
  if (scoreboardEntries == 0 || scoreboardEntries > hls::kMaxSbEntries)
    return "core: scoreboard entries must be 1..8";
  if (collectors == 0 || collectors > hls::kMaxCollectors)
    return "core: operand collectors must be 1..16";
  if (rfBanks == 0 || rfBanks > hls::kMaxRfBanks || !std::has_single_bit(rfBanks))
    return "core: register-file banks must be a power of two up to 16";
  if (!hls::validLineBytes(lineBytes))
    return "core: the cache line must be 32, 64 or 128 bytes";
  if (!hls::validBankCount(sharedBanks))
    return "core: shared-memory banks must be a power of two, 8..32";
  if (ibufferDepth == 0)
    return "core: the instruction buffer needs at least one entry";
  return std::nullopt;
}

// --- Decode --------------------------------------------------------------------------------------

std::vector<DecodedTiming> decodeTiming(const uint8_t *code, uint32_t codeSize, unsigned lanes) {
  const unsigned passes = isa::kWarpSize / lanes;
  const uint32_t count = codeSize / isa::kInstBytes;
  std::vector<DecodedTiming> out(count + 1);
  for (uint32_t i = 0; i < count; ++i) {
    uint64_t w;
    std::memcpy(&w, code + uint64_t(i) * isa::kInstBytes, sizeof w);
    DecodedTiming &d = out[i];
    d.op = uint8_t(isa::getField(w, isa::FormatR::op));
    const isa::OpInfo &info = isa::kOps[d.op];
    d.fetchStop = true; // an illegal word faults at issue; fetch must not run past it
    if (!info.valid)
      continue;
    d.valid = true;
    d.unit = info.unit;
    d.latency = info.latency;
    d.laneShare = isa::kUnits[size_t(info.unit)].laneShare;
    d.iterative = isa::kUnits[size_t(info.unit)].iterative;
    d.fetchStop = isa::stopsFetch(isa::Opcode(d.op)); // isa.toml's fetch_stop attribute
    d.membar = named(info, {"MEMBAR"});
    const bool isBar = named(info, {"BAR"});
    const bool store = info.access == isa::MemAccess::Store;

    const unsigned pg = unsigned(isa::getField(w, isa::FormatR::pg));
    if (pg != isa::kTruePred) {
      d.use.predValid[0] = true;
      d.use.pred[0] = uint8_t(pg);
    }
    unsigned pnSlot = 1;
    // Sources in operand-slot order ra, rb, rc, rd (a store's data), each register of a group.
    std::array<std::pair<uint8_t, uint8_t>, 4> srcGroup{}; // base, count per field
    for (unsigned k = 0; k < info.numOperands; ++k) {
      const isa::OperandInfo &o = info.operands[k];
      const uint64_t value = isa::getField(w, o.field);
      switch (o.kind) {
      case isa::OperandKind::R:
      case isa::OperandKind::R64:
      case isa::OperandKind::R128:
      case isa::OperandKind::ADDR:
      case isa::OperandKind::ADDR64: {
        int f = o.name == "rd" ? 0 : o.name == "ra" ? 1 : o.name == "rb" ? 2 : o.name == "rc" ? 3
                                                                                            : -1;
        const unsigned width = isa::operandRegs(info, k, w);
        if (f < 0 || width == 0 || value == isa::kZeroReg)
          break;
        const isa::Role role = isa::operandRole(info, k, w);
        d.use.regs[f] = hls::SbRegGroup{true, uint8_t(value), uint8_t(width)};
        if (isa::isDef(role) && !store && !isBar) {
          d.destReg = uint8_t(value);
          d.destCount = uint8_t(width);
        }
        if (isa::isUse(role) || (store && f == 0))
          srcGroup[f] = {uint8_t(value), uint8_t(width)};
        break;
      }
      case isa::OperandKind::P:
        if (value != isa::kTruePred && !isBar) {
          d.writesPred = true;
          d.use.predValid[hls::kSbPreds - 1] = true;
          d.use.pred[hls::kSbPreds - 1] = uint8_t(value);
        }
        break;
      case isa::OperandKind::PN:
        if ((value & 15) != isa::kTruePred && pnSlot < hls::kSbPreds - 1) {
          d.use.predValid[pnSlot] = true;
          d.use.pred[pnSlot] = uint8_t(value & 15);
          ++pnSlot;
        }
        break;
      default:
        break;
      }
    }
    // rd's group is regs[0], which the scoreboard reserves; a group only read sits elsewhere.
    if (d.destCount == 0 && d.use.regs[0].valid && !store)
      d.use.regs[0].valid = isBar ? false : d.use.regs[0].valid;
    d.use.writesReg = d.destCount > 0;
    d.use.writesPred = d.writesPred;
    for (unsigned f : {1u, 2u, 3u, 0u})
      for (unsigned r = 0; r < srcGroup[f].second && d.srcCount < hls::kRfSlots; ++r)
        d.src[d.srcCount++] = uint8_t(srcGroup[f].first + r);
    d.readsRegs = d.srcCount > 0;
    // The CTRL unit's warp operations (docs/microarchitecture.md, "Warp-synchronous operations").
    if (named(info, {"SHFL"}))
      d.ctrlCycles = uint8_t(4 * passes);
    else if (named(info, {"MATCH"}))
      d.ctrlCycles = uint8_t(passes);
    else if (named(info, {"REDUX"}))
      d.ctrlCycles = uint8_t(passes + log2u(lanes));
    else
      d.ctrlCycles = 1;
  }
  out[count].fetchStop = true; // past the end: the emulator faults when it issues
  return out;
}

// --- Core ----------------------------------------------------------------------------------------

SimtCore::SimtCore(unsigned id, const CoreParams &params)
    : id_(id), p_(params), sched_(params.warps, params.issueWidth, params.policy),
      sb_(params.warps, params.scoreboardEntries), rfArb_(params.collectors, params.rfBanks) {
  warps_.resize(p_.warps);
  blocks_.resize(p_.maxBlocksPerCore);
  collectors_.resize(p_.collectors);
  regUsed_.assign(p_.regsPerCore / isa::kWarpSize, 0);
  smemUsed_.assign((p_.sharedMemPerCore + kSmemGranule - 1) / kSmemGranule, 0);
  icache_.configure(p_.icacheBytes, p_.icacheLineBytes, p_.icacheWays);
  dcache_.configure(p_.dcacheBytes, p_.lineBytes, p_.dcacheWays);
  ccache_.configure(p_.ccacheBytes, p_.lineBytes, p_.ccacheWays);
  unsigned maxLat = 0, maxShare = 0;
  for (const isa::OpInfo &o : isa::kOps)
    if (o.valid)
      maxLat = std::max<unsigned>(maxLat, o.latency);
  for (const isa::UnitInfo &u : isa::kUnits)
    maxShare = std::max<unsigned>(maxShare, u.laneShare);
  // Variable-latency results search forward for a free slot: leave room for them.
  ring_.assign(std::bit_ceil(maxLat + maxShare + 64), 0);
}

void SimtCore::startLaunch(const LaunchContext *ctx, const std::vector<DecodedTiming> *code) {
  ctx_ = ctx;
  code_ = code;
  for (WarpSlot &w : warps_)
    w = WarpSlot{};
  for (BlockSlot &b : blocks_)
    b = BlockSlot{};
  for (Collector &c : collectors_)
    c = Collector{};
  std::fill(regUsed_.begin(), regUsed_.end(), 0);
  std::fill(smemUsed_.begin(), smemUsed_.end(), 0);
  residentBlocks_ = 0;
  sched_.reset();
  sb_.reset();
  rfArb_.reset();
  icache_.invalidate();
  dcache_.invalidate();
  ccache_.invalidate();
  icacheMissLine_.reset();
  std::fill(ring_.begin(), ring_.end(), 0);
  releases_.clear();
  unitFree_.fill(0);
  ctrlBusy_ = false;
  ctrlResolve_.clear();
  wakeups_.clear();
  lsuQueue_.clear();
  memOps_.clear();
  outgoing_.clear();
  inFlight_.clear();
  faulted_ = false;
  error_.clear();
  lastFetch_ = p_.warps - 1;
}

void SimtCore::fail(std::string why) {
  if (error_.empty())
    error_ = "cycle model, core " + std::to_string(id_) + ": " + std::move(why);
  faulted_ = true;
}

// --- Block admission (the dispatcher's resource check) -------------------------------------------

namespace {
/// First fit of `count` free units in `used`; returns the start or -1.
long firstFit(const std::vector<uint8_t> &used, size_t count) {
  if (count == 0)
    return 0;
  size_t run = 0;
  for (size_t i = 0; i < used.size(); ++i) {
    run = used[i] ? 0 : run + 1;
    if (run == count)
      return long(i + 1 - count);
  }
  return -1;
}
} // namespace

bool SimtCore::canAdmit() const {
  const unsigned need = ctx_->warpsPerBlock;
  unsigned free = 0;
  for (const WarpSlot &w : warps_)
    free += !w.active;
  if (free < need)
    return false;
  bool slot = false;
  for (const BlockSlot &b : blocks_)
    slot = slot || !b.active;
  if (!slot)
    return false;
  if (firstFit(regUsed_, size_t(ctx_->regsPerThread) * need) < 0)
    return false;
  return firstFit(smemUsed_, (ctx_->sharedBytes + kSmemGranule - 1) / kSmemGranule) >= 0;
}

void SimtCore::admit(uint64_t linear, const isa::Dim3 &index, uint64_t now) {
  unsigned b = 0;
  while (blocks_[b].active)
    ++b;
  BlockSlot &blk = blocks_[b];
  blk = BlockSlot{};
  blk.active = true;
  blk.linear = linear;
  blk.rfCount = ctx_->regsPerThread * ctx_->warpsPerBlock;
  blk.rfBase = uint32_t(firstFit(regUsed_, blk.rfCount));
  std::fill_n(regUsed_.begin() + blk.rfBase, blk.rfCount, 1);
  const size_t granules = (ctx_->sharedBytes + kSmemGranule - 1) / kSmemGranule;
  blk.smemBase = uint32_t(firstFit(smemUsed_, granules)) * kSmemGranule;
  std::fill_n(smemUsed_.begin() + blk.smemBase / kSmemGranule, granules, 1);
  for (unsigned i = 0; i < ctx_->warpsPerBlock; ++i) {
    unsigned s = 0;
    while (warps_[s].active)
      ++s;
    WarpSlot &w = warps_[s];
    w = WarpSlot{};
    w.active = true;
    w.ref = isa::WarpRef{index, i};
    w.block = b;
    w.rfBase = blk.rfBase + i * ctx_->regsPerThread;
    isa::WarpStatus st = ctx_->stepper->status(w.ref);
    w.fetchPc = st.pc;
    w.group = st.group;
    w.finished = st.finished;
    w.fetchFrom = now + 1;
    blk.warps.push_back(s);
    admitMask_ |= uint64_t(1) << s;
  }
  ++residentBlocks_;
  ++counters_.blocks;
}

void SimtCore::retireFinished(uint64_t) {
  retiredThisTick_ = 0;
  for (unsigned b = 0; b < blocks_.size(); ++b) {
    BlockSlot &blk = blocks_[b];
    if (!blk.active)
      continue;
    bool done = true;
    for (unsigned s : blk.warps) {
      const WarpSlot &w = warps_[s];
      done = done && w.finished && w.memPending == 0 && w.inCollectors == 0;
      for (unsigned e = 0; done && e < p_.scoreboardEntries; ++e)
        done = !sb_.entryValid(s, e);
    }
    if (!done)
      continue;
    for (unsigned s : blk.warps)
      warps_[s] = WarpSlot{};
    std::fill_n(regUsed_.begin() + blk.rfBase, blk.rfCount, 0);
    std::fill_n(smemUsed_.begin() + blk.smemBase / kSmemGranule,
                (ctx_->sharedBytes + kSmemGranule - 1) / kSmemGranule, 0);
    blk = BlockSlot{};
    --residentBlocks_;
    ++retiredThisTick_;
  }
}

// --- Write-back reservation ----------------------------------------------------------------------

bool SimtCore::writeSlotFree(uint64_t at, uint32_t banks) const {
  return (ring_[at & (ring_.size() - 1)] & banks) == 0;
}

uint64_t SimtCore::reserveWriteSlot(uint64_t from, uint32_t banks) {
  uint64_t at = from;
  while (!writeSlotFree(at, banks))
    ++at;
  ring_[at & (ring_.size() - 1)] |= banks;
  return at;
}

uint32_t SimtCore::destBankMask(unsigned w, const DecodedTiming &inst) const {
  uint32_t banks = 0;
  for (unsigned r = 0; r < inst.destCount; ++r)
    banks |= 1u << ((warps_[w].rfBase + inst.destReg + r) % p_.rfBanks);
  if (inst.writesPred)
    banks |= 1u << p_.rfBanks;
  return banks;
}

void SimtCore::scheduleRelease(uint64_t at, unsigned warp, const hls::SbReserved &sb, bool reg,
                               bool pred) {
  if (reg)
    releases_[at].push_back(Release{warp, sb.regEntry});
  if (pred)
    releases_[at].push_back(Release{warp, sb.predEntry});
}

// --- Tick ----------------------------------------------------------------------------------------

void SimtCore::tick(uint64_t now) {
  if (faulted_)
    return;
  ++counters_.cycles;
  complete(now);
  retireFinished(now);
  dispatch(now);
  collect(now);
  issue(now);
  fetch(now);
  lsuAccess(now);
  if (residentBlocks_)
    ++counters_.activeCycles;
}

void SimtCore::complete(uint64_t now) {
  // LSU results due now take their write slots first (return source order: LSU, then CTRL).
  for (auto &[id, op] : memOps_) {
    if (!op.sent || op.outstanding || op.readyAt > now || op.done)
      continue;
    op.done = true;
    if (op.writesReg || op.writesPred) {
      uint64_t at = reserveWriteSlot(now, op.destBanks);
      scheduleRelease(at, op.warp, op.sb, op.writesReg, op.writesPred);
    }
    if (warps_[op.warp].memPending)
      --warps_[op.warp].memPending;
  }
  std::erase_if(memOps_, [](const auto &kv) { return kv.second.done; });

  for (size_t i = 0; i < ctrlResolve_.size();) {
    CtrlPending c = ctrlResolve_[i];
    if (c.at != now) {
      ++i;
      continue;
    }
    ctrlResolve_.erase(ctrlResolve_.begin() + long(i));
    resolveCtrl(c.warp, now, c.stop, c.wasBar, c.oldGroup);
  }
  if (auto it = wakeups_.find(now); it != wakeups_.end()) {
    std::vector<unsigned> blocks = std::move(it->second);
    wakeups_.erase(it);
    for (unsigned b : blocks)
      refreshWaiting(b, now);
  }
}

void SimtCore::resolveCtrl(unsigned w, uint64_t now, bool stop, bool wasBar, uint32_t oldGroup) {
  WarpSlot &ws = warps_[w];
  if (!ws.active || !stop) // other CTRL instructions let the warp fetch on: nothing to redirect
    return;
  isa::WarpStatus st = ctx_->stepper->status(ws.ref);
  ws.fetchStop = false;
  ws.finished = st.finished;
  ws.waiting = !st.finished && st.idle;
  ws.waitAtBar = ws.waiting && wasBar;
  ws.fetchPc = st.pc;
  // A group disjoint from the one that ran the instruction was picked (the group waited or
  // exited): the convergence pick's latency before the warp fetches.
  const bool picked = !ws.waiting && !ws.finished && (st.group & oldGroup) == 0;
  ws.group = st.group;
  ws.fetchFrom = std::max(ws.fetchFrom, picked ? now + p_.pickLatency : now + 1);
  // This instruction may have released other warps of the block (a barrier's arrival, EXIT).
  wakeups_[now + p_.barrierRelease].push_back(ws.block);
}

void SimtCore::refreshWaiting(unsigned b, uint64_t now) {
  if (!blocks_[b].active)
    return;
  for (unsigned s : blocks_[b].warps) {
    WarpSlot &w = warps_[s];
    if (!w.waiting || w.fetchStop)
      continue;
    isa::WarpStatus st = ctx_->stepper->status(w.ref);
    if (st.finished) {
      w.finished = true;
      w.waiting = false;
      continue;
    }
    if (st.idle)
      continue;
    w.waiting = false;
    w.waitAtBar = false;
    w.group = st.group;
    w.fetchPc = st.pc;
    w.fetchFrom = std::max(w.fetchFrom, now + p_.pickLatency);
  }
}

// --- Dispatch ------------------------------------------------------------------------------------

void SimtCore::dispatch(uint64_t now) {
  // Collectors in age order (oldest first): the read arbiter keeps the order.
  std::array<unsigned, hls::kMaxCollectors> order{};
  unsigned n = 0;
  for (unsigned c = 0; c < p_.collectors; ++c)
    if (collectors_[c].valid)
      order[n++] = c;
  std::sort(order.begin(), order.begin() + n,
            [&](unsigned a, unsigned b) { return rfArb_.isOlder(a, b); });
  std::array<bool, size_t(Unit::Count)> taken{};
  for (unsigned k = 0; k < n; ++k) {
    Collector &col = collectors_[order[k]];
    const DecodedTiming &in = *col.inst;
    const size_t u = size_t(in.unit);
    if (taken[u] || col.pending)
      continue;
    // hls/operand_collector.h's rule: complete two cycles after the last grant; without reads,
    // pass 0 after the collector's first cycle, a later pass two cycles after it became current.
    const uint64_t readyAt = col.anyRead      ? col.lastGrant + 2
                             : col.pass == 0 ? col.passStart + 1
                                             : col.passStart + 2;
    if (readyAt > now || unitFree_[u] > now)
      continue;
    const bool last = col.pass + 1 == col.passes;
    const bool fixed = in.unit != Unit::LSU && in.unit != Unit::CTRL;
    if (in.unit == Unit::LSU && col.pass == 0 && lsuQueue_.size() >= p_.lsuQueue)
      continue;
    uint32_t banks = fixed ? destBankMask(col.warp, in) : 0;
    const unsigned share = in.laneShare;
    if (banks) {
      bool free = true;
      for (unsigned s = 0; s < share; ++s)
        free = free && writeSlotFree(now + in.latency + s, banks);
      if (!free)
        continue;
      for (unsigned s = 0; s < share; ++s)
        ring_[(now + in.latency + s) & (ring_.size() - 1)] |= banks;
    }
    taken[u] = true;
    unitFree_[u] = in.iterative ? now + in.latency : now + share;
    if (!last) {
      ++col.pass;
      col.passStart = now;
      col.anyRead = false;
      col.pending = 0;
      for (unsigned s = 0; s < in.srcCount; ++s)
        col.pending |= uint8_t(1u << s);
      continue;
    }
    // The last pass: the collector frees, the instruction completes in its unit.
    WarpSlot &ws = warps_[col.warp];
    --ws.inCollectors;
    if (fixed) {
      scheduleRelease(now + in.latency + share - 1, col.warp, col.sb, in.destCount > 0,
                      in.writesPred);
    } else if (in.unit == Unit::CTRL) {
      const uint64_t resolveAt = now + 1;
      if (in.destCount || in.writesPred) {
        uint64_t at = reserveWriteSlot(resolveAt + in.ctrlCycles - 1, destBankMask(col.warp, in));
        scheduleRelease(at, col.warp, col.sb, in.destCount > 0, in.writesPred);
      }
      ctrlResolve_.push_back(CtrlPending{col.warp, resolveAt, named(isa::kOps[in.op], {"BAR"}),
                                         in.fetchStop, ws.group});
      // The CTRL unit is busy until its result leaves (warp operations) or it resolves.
      unitFree_[u] = resolveAt + in.ctrlCycles - 1;
    } else { // LSU: into the access stage
      MemOp &op = memOps_.at(col.memOp);
      op.destBanks = destBankMask(col.warp, in);
      lsuQueue_.push_back(col.memOp);
    }
    col = Collector{};
    col.passStart = now; // freed in `now`: not allocatable before now + 1 (see issue)
  }
}

// --- Operand collection --------------------------------------------------------------------------

void SimtCore::collect(uint64_t now) {
  std::array<hls::RfReadRequest, hls::kMaxCollectors> req{};
  bool any = false;
  for (unsigned c = 0; c < p_.collectors; ++c) {
    Collector &col = collectors_[c];
    if (!col.valid || !col.pending || col.passStart > now)
      continue;
    req[c].valid = col.pending;
    req[c].bank = col.bank;
    any = true;
  }
  if (any || allocMask_) {
    hls::RfReadGrant g = rfArb_.step(req, allocMask_);
    allocMask_ = 0;
    for (unsigned c = 0; c < p_.collectors; ++c) {
      const uint8_t granted = g.slotsGranted[c];
      const unsigned wanted = unsigned(std::popcount(unsigned(req[c].valid)));
      counters_.rfReads += unsigned(std::popcount(unsigned(granted)));
      counters_.rfBankConflicts += wanted - unsigned(std::popcount(unsigned(granted)));
      if (!granted)
        continue;
      collectors_[c].pending &= uint8_t(~granted);
      collectors_[c].lastGrant = now;
      collectors_[c].anyRead = true;
    }
  }
}

// --- Issue ---------------------------------------------------------------------------------------

bool SimtCore::executeAtIssue(unsigned w, const DecodedTiming &in, uint32_t pc, uint64_t now,
                              Collector &col) {
  WarpSlot &ws = warps_[w];
  const std::vector<uint8_t> &record = *ctx_->lastRecord;
  isa::StepResult r = ctx_->stepper->step(ws.ref, 1);
  if (r.status == isa::StepStatus::Fault || ctx_->stepper->fault()) {
    faulted_ = true;
    return false;
  }
  if (r.executed != 1 || record.empty()) {
    fail("the emulator did not execute warp " + ws.ref.str() + " at pc " + std::to_string(pc));
    return false;
  }
  isa::CommitView view(record);
  if (view.header().pc != pc) {
    fail("the emulator executed pc " + std::to_string(view.header().pc) + " of " + ws.ref.str() +
         " where the model issued pc " + std::to_string(pc));
    return false;
  }
  ++counters_.warpInsts;
  counters_.threadInsts += unsigned(std::popcount(view.header().exec));
  ++*ctx_->warpInstsTotal;
  if (r.status == isa::StepStatus::Finished)
    ws.finished = true;

  if (in.unit != Unit::LSU)
    return true;
  // The LSU's work: its addresses come from the emulator's record of the access.
  MemOp op;
  op.warp = w;
  op.writesReg = in.destCount > 0;
  op.writesPred = in.writesPred;
  op.sb = col.sb;
  const isa::OpInfo &info = isa::kOps[in.op];
  const bool atomic = info.access == isa::MemAccess::Atomic;
  op.isStore = info.access == isa::MemAccess::Store;
  const isa::CommitPartView *part = view.find(isa::dev::CommitPartKind::Load);
  if (!part || atomic || op.isStore)
    part = view.find(isa::dev::CommitPartKind::Store);
  if (!part && !atomic)
    part = view.find(isa::dev::CommitPartKind::Load);
  op.accessCycles = 1;
  if (part && part->header().lanes) {
    const auto &h = part->header();
    const unsigned sizeLog2 = unsigned(std::bit_width(unsigned(std::max<uint16_t>(h.size, 1)))) - 1;
    const auto space = isa::Space(h.space);
    if (space == isa::Space::SHARED) {
      hls::BankRequest br;
      br.mask = h.lanes;
      br.sizeLog2 = std::min(sizeLog2, 4u);
      for (uint32_t m = h.lanes; m; m &= m - 1) {
        unsigned l = unsigned(std::countr_zero(m));
        br.addr[l] = uint32_t(part->address(l)) + blocks_[ws.block].smemBase;
      }
      hls::BankSchedule s = hls::bankSchedule(br, p_.sharedBanks);
      op.accessCycles = atomic ? unsigned(std::popcount(h.lanes)) : std::max(1u, s.count);
      counters_.sharedAccesses += 1;
      counters_.sharedBankConflicts += s.count > 1 ? s.count - 1 : 0;
    } else if (space == isa::Space::PARAM || space == isa::Space::CONST) {
      std::set<uint64_t> addrs, lines;
      for (uint32_t m = h.lanes; m; m &= m - 1) {
        unsigned l = unsigned(std::countr_zero(m));
        uint64_t a = part->address(l);
        if (space == isa::Space::CONST && a < isa::kGlobalBase)
          a += ctx_->desc->constBase;
        addrs.insert(a);
      }
      op.accessCycles = unsigned(addrs.size());
      for (uint64_t a : addrs) {
        // Param addresses live in their own (small) window of the constant cache's tags.
        const uint64_t key = space == isa::Space::PARAM ? (a | (uint64_t(1) << 62)) : a;
        const uint64_t line = key / p_.lineBytes * p_.lineBytes;
        if (!lines.insert(line).second)
          continue;
        if (ccache_.lookup(line)) {
          ++counters_.ccacheHits;
          continue;
        }
        ++counters_.ccacheMisses;
        ccache_.fill(line);
        if (space == isa::Space::PARAM) {
          op.extraLatency = p_.paramLatency;
          continue;
        }
        op.lines.push_back(LineRequest{LineRequest::Kind::Read, line - isa::kGlobalBase, 1, 0});
      }
    } else { // global and local: line requests through the coalescer
      hls::CoalesceRequest cr;
      cr.mask = h.lanes;
      cr.sizeLog2 = std::min(sizeLog2, 4u);
      const bool local = space == isa::Space::LOCAL;
      const uint64_t slotGlobal = uint64_t(id_) * p_.warps + w;
      for (uint32_t m = h.lanes; m; m &= m - 1) {
        unsigned l = unsigned(std::countr_zero(m));
        uint64_t a = part->address(l);
        if (local) // word i of lane l at word (i * 32 + l) of the warp's local area
          a = ctx_->localBase + slotGlobal * uint64_t(ctx_->desc->localBytes) * isa::kWarpSize +
              ((a / 4) * isa::kWarpSize + l) * 4 + (a & 3);
        else
          a -= isa::kGlobalBase;
        cr.addr[l] = a;
      }
      hls::CoalesceSchedule s = hls::coalesce(cr, p_.lineBytes);
      op.accessCycles = std::max(1u, s.count);
      for (unsigned i = 0; i < s.count; ++i) {
        const uint64_t lineAddr = s.requests[i].line * p_.lineBytes;
        LineRequest req{op.isStore ? LineRequest::Kind::Write : LineRequest::Kind::Read, lineAddr,
                        1, 0};
        if (atomic) {
          req.kind = LineRequest::Kind::Atomic;
          req.lanes = unsigned(std::popcount(s.requests[i].lanes));
        }
        if (local && !atomic) {
          // The L1 caches local memory only: write-through, no write allocate.
          if (dcache_.lookup(lineAddr)) {
            ++counters_.dcacheHits;
            if (!op.isStore)
              continue;
          } else {
            ++counters_.dcacheMisses;
            if (!op.isStore)
              dcache_.fill(lineAddr);
          }
        }
        op.lines.push_back(req);
      }
    }
  }
  ++ws.memPending;
  col.memOp = nextMemOp_++;
  memOps_.emplace(col.memOp, std::move(op));
  return true;
}

void SimtCore::issue(uint64_t now) {
  uint64_t ready = 0;
  // Collectors free at the start of this cycle.
  unsigned freeCollectors = 0;
  for (const Collector &c : collectors_)
    freeCollectors += !c.valid && c.passStart < now;
  for (unsigned w = 0; w < p_.warps; ++w) {
    WarpSlot &ws = warps_[w];
    if (!ws.active || ws.finished)
      continue;
    ++counters_.residentWarpCycles;
    if (ws.waiting) {
      ++(ws.waitAtBar ? counters_.stallBarrier : counters_.stallConvergence);
      continue;
    }
    if (ws.ibuf.empty() || ws.ibuf.front().readyAt > now) {
      // A warp behind an unresolved CTRL instruction or a pick waits for convergence.
      if (ws.fetchStop || ws.fetchFrom > now + 1)
        ++counters_.stallConvergence;
      else
        ++counters_.stallNoInst;
      continue;
    }
    const uint32_t pc = ws.ibuf.front().pc;
    const DecodedTiming &in = (*code_)[std::min<size_t>(pc / isa::kInstBytes, code_->size() - 1)];
    if (!sb_.ready(w, in.use)) {
      ++counters_.stallDependency;
      continue;
    }
    if (in.membar && ws.memPending) {
      ++counters_.stallMemory;
      continue;
    }
    if (in.unit == Unit::LSU && memOps_.size() >= p_.lsuQueue + p_.dcacheMshrs) {
      ++counters_.stallMemory;
      continue;
    }
    if ((in.unit == Unit::CTRL && (ctrlBusy_ || unitFree_[size_t(Unit::CTRL)] > now)) ||
        freeCollectors == 0) {
      ++counters_.stallUnitBusy;
      continue;
    }
    // Write-after-read: an older collector of this warp still has to read the destination.
    bool war = false;
    for (const Collector &c : collectors_) {
      if (!c.valid || c.warp != w || !in.destCount)
        continue;
      // A source is read for good once its last pass's read has been granted.
      const bool lastPass = c.pass + 1 == c.passes;
      for (unsigned s = 0; s < c.inst->srcCount && !war; ++s)
        war = (!lastPass || ((c.pending >> s) & 1)) &&
              hls::sbGroupsOverlap(c.inst->src[s], 1, in.destReg, in.destCount);
    }
    if (war) {
      ++counters_.stallDependency;
      continue;
    }
    ready |= uint64_t(1) << w;
  }

  hls::SchedPick pick = sched_.step(ready, admitMask_);
  admitMask_ = 0;
  std::array<hls::SbRelease, hls::kMaxSbReleases> none{};
  for (unsigned slot = 0; slot < p_.issueWidth; ++slot) {
    if (!pick.valid[slot])
      continue;
    const unsigned w = pick.warp[slot];
    WarpSlot &ws = warps_[w];
    const uint32_t pc = ws.ibuf.front().pc;
    const DecodedTiming &in = (*code_)[std::min<size_t>(pc / isa::kInstBytes, code_->size() - 1)];
    // Two slots of one cycle may both want the CTRL unit or the last collector.
    unsigned c = 0;
    while (c < p_.collectors && (collectors_[c].valid || collectors_[c].passStart >= now))
      ++c;
    if (c == p_.collectors || (in.unit == Unit::CTRL && ctrlBusy_)) {
      ++counters_.stallUnitBusy;
      continue;
    }
    ws.ibuf.pop_front();
    Collector &col = collectors_[c];
    col = Collector{};
    col.valid = true;
    col.warp = w;
    col.pc = pc;
    col.inst = &in;
    col.sb = sb_.step(none, true, w, in.use);
    col.passes = in.unit == Unit::CTRL && !in.readsRegs ? 1 : p_.passes;
    col.pass = 0;
    col.passStart = now + 1;
    for (unsigned s = 0; s < in.srcCount; ++s) {
      col.pending |= uint8_t(1u << s);
      col.bank[s] = uint8_t((ws.rfBase + in.src[s]) % p_.rfBanks);
    }
    allocMask_ |= 1u << c;
    ++ws.inCollectors;
    if (in.unit == Unit::CTRL)
      ctrlBusy_ = true;
    if (!executeAtIssue(w, in, pc, now, col))
      return;
    if (ctx_->onIssue)
      ctx_->onIssue(id_, w, pc, now);
    if (*ctx_->warpInstsTotal > ctx_->watchdogWarpInsts) {
      faulted_ = true; // the GPU turns this into the watchdog fault
      return;
    }
  }
  // Releases of this cycle: free from the next one (never reallocated in this one).
  if (auto it = releases_.find(now); it != releases_.end()) {
    std::vector<Release> &list = it->second;
    for (size_t i = 0; i < list.size(); i += hls::kMaxSbReleases) {
      std::array<hls::SbRelease, hls::kMaxSbReleases> rel{};
      for (size_t k = 0; k < hls::kMaxSbReleases && i + k < list.size(); ++k)
        rel[k] = hls::SbRelease{true, uint8_t(list[i + k].warp), list[i + k].entry};
      sb_.step(rel, false, 0, hls::SbUse{});
    }
    releases_.erase(it);
  }
  ring_[now & (ring_.size() - 1)] = 0; // this cycle's write slots are spent
  // The CTRL unit frees when its instruction resolves.
  if (ctrlBusy_) {
    bool pending = !ctrlResolve_.empty();
    for (const Collector &c : collectors_)
      pending = pending || (c.valid && c.inst->unit == Unit::CTRL);
    ctrlBusy_ = pending;
  }
}

// --- Fetch ---------------------------------------------------------------------------------------

void SimtCore::fetch(uint64_t now) {
  // Round robin over the warps that may fetch, from the one after the last fetcher.
  for (unsigned k = 1; k <= p_.warps; ++k) {
    const unsigned w = (lastFetch_ + k) % p_.warps;
    WarpSlot &ws = warps_[w];
    if (!ws.active || ws.finished || ws.waiting || ws.fetchStop || ws.missWait ||
        ws.fetchFrom > now || ws.ibuf.size() >= p_.ibufferDepth)
      continue;
    lastFetch_ = w;
    const uint32_t pc = ws.fetchPc;
    ws.fetchFrom = now + 2; // F2 holds this fetch in now + 1
    const bool inside = pc % isa::kInstBytes == 0 && pc < ctx_->desc->codeSize;
    if (inside) {
      const uint64_t addr = ctx_->desc->codeBase - isa::kGlobalBase + pc;
      const uint64_t line = addr / p_.icacheLineBytes * p_.icacheLineBytes;
      if (!icache_.lookup(line)) {
        ++counters_.icacheMisses;
        ws.missWait = true;
        if (!icacheMissLine_) {
          icacheMissLine_ = line;
          outgoing_.push_back(LineRequest{LineRequest::Kind::Read, line, 1, 0});
          inFlight_.emplace(0u, 0);
        }
        return;
      }
      ++counters_.icacheHits;
    }
    ws.fetchPc = pc + isa::kInstBytes;
    ws.ibuf.push_back(IbEntry{pc, now + 3});
    const DecodedTiming &in = (*code_)[std::min<size_t>(pc / isa::kInstBytes, code_->size() - 1)];
    if (in.fetchStop || !inside)
      ws.fetchStop = true;
    return;
  }
}

void SimtCore::respond(uint32_t tag, uint64_t now) {
  auto it = inFlight_.find(tag);
  if (it == inFlight_.end())
    return;
  const uint64_t opId = it->second;
  inFlight_.erase(it);
  if (tag == 0) { // the I-cache fill: every warp waiting for a miss may fetch again
    if (icacheMissLine_)
      icache_.fill(*icacheMissLine_);
    icacheMissLine_.reset();
    for (WarpSlot &w : warps_)
      if (w.missWait) {
        w.missWait = false;
        w.fetchFrom = std::max(w.fetchFrom, now + 1);
      }
    return;
  }
  auto op = memOps_.find(opId);
  if (op == memOps_.end())
    return;
  --op->second.outstanding;
  op->second.readyAt = std::max(op->second.readyAt, now + 1);
}

// --- LSU access stage ----------------------------------------------------------------------------

void SimtCore::lsuAccess(uint64_t now) {
  if (lsuQueue_.empty())
    return;
  MemOp &op = memOps_.at(lsuQueue_.front());
  // The access stage takes max(accessCycles, line requests) cycles, one request a cycle.
  if (!op.lines.empty()) {
    LineRequest req = op.lines.front();
    op.lines.erase(op.lines.begin());
    req.tag = nextTag_++;
    if (nextTag_ == 0)
      nextTag_ = 1;
    inFlight_.emplace(req.tag, lsuQueue_.front());
    outgoing_.push_back(req);
    ++op.outstanding;
    ++counters_.lineRequests;
  }
  if (op.accessCycles > 1) {
    --op.accessCycles;
    return;
  }
  if (!op.lines.empty())
    return;
  // Done issuing: the result is written at the earliest lat(LSU) after the access stage, or
  // after the last answer (set by respond), whichever is later.
  const uint64_t lsuLat = isa::kUnits[size_t(Unit::LSU)].latency;
  op.readyAt = std::max(op.readyAt, now + lsuLat + op.extraLatency);
  op.sent = true;
  lsuQueue_.pop_front();
}

// --- Statistics ----------------------------------------------------------------------------------

void SimtCore::registerStats(stats::Group &g) const {
  auto f = [&](const char *name, const char *unit, const char *desc, uint64_t CoreCounters::*m) {
    g.formula(name, unit, desc, [this, m] { return double(counters_.*m); });
  };
  f("cycles", "cycle", "core cycles of every launch", &CoreCounters::cycles);
  f("active_cycles", "cycle", "cycles with a resident block", &CoreCounters::activeCycles);
  f("warp_insts", "count", "warp instructions issued", &CoreCounters::warpInsts);
  f("thread_insts", "count", "thread instructions (active lanes of issued instructions)",
    &CoreCounters::threadInsts);
  f("blocks", "count", "blocks admitted", &CoreCounters::blocks);
  f("stall_no_instruction", "warp-cycle",
    "cycles a resident warp had no decoded instruction (fetch, I-cache miss)",
    &CoreCounters::stallNoInst);
  f("stall_dependency", "warp-cycle",
    "cycles a warp's instruction waited for the scoreboard or a pending read",
    &CoreCounters::stallDependency);
  f("stall_unit_busy", "warp-cycle", "cycles a ready warp found no collector or a busy CTRL unit",
    &CoreCounters::stallUnitBusy);
  f("stall_memory", "warp-cycle", "cycles a warp waited at MEMBAR or for a full LSU",
    &CoreCounters::stallMemory);
  f("stall_barrier", "warp-cycle", "cycles a warp waited at a CTA barrier",
    &CoreCounters::stallBarrier);
  f("stall_convergence", "warp-cycle",
    "cycles a warp waited at BSYNC/WARPSYNC, for a CTRL resolution or a convergence pick",
    &CoreCounters::stallConvergence);
  f("icache_hits", "count", "I-cache fetches that hit", &CoreCounters::icacheHits);
  f("icache_misses", "count", "I-cache fetches that missed", &CoreCounters::icacheMisses);
  f("dcache_hits", "count", "L1 (local memory) line lookups that hit", &CoreCounters::dcacheHits);
  f("dcache_misses", "count", "L1 line lookups that missed", &CoreCounters::dcacheMisses);
  f("ccache_hits", "count", "constant-cache line lookups that hit", &CoreCounters::ccacheHits);
  f("ccache_misses", "count", "constant-cache line lookups that missed",
    &CoreCounters::ccacheMisses);
  f("rf_reads", "count", "register-file bank reads", &CoreCounters::rfReads);
  f("rf_bank_conflicts", "count", "register reads not granted in a cycle they were requested",
    &CoreCounters::rfBankConflicts);
  f("shared_accesses", "count", "shared-memory warp accesses", &CoreCounters::sharedAccesses);
  f("shared_bank_conflicts", "count", "shared-memory bank passes beyond the first",
    &CoreCounters::sharedBankConflicts);
  f("line_requests", "count", "line requests sent to the L2", &CoreCounters::lineRequests);
  g.formula("ipc", "warp-inst/cycle", "warp instructions per core cycle", [this] {
    return counters_.cycles ? double(counters_.warpInsts) / double(counters_.cycles) : 0.0;
  });
  g.formula("lane_utilization", "ratio", "thread instructions / (cycles x lanes)", [this] {
    return counters_.cycles ? double(counters_.threadInsts) / double(counters_.cycles * p_.lanes)
                            : 0.0;
  });
  g.formula("occupancy", "warps", "mean resident warps over the active cycles", [this] {
    return counters_.activeCycles
               ? double(counters_.residentWarpCycles) / double(counters_.activeCycles)
               : 0.0;
  });
}

} // namespace wf::cycle

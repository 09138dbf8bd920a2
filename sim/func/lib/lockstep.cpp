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

std::string WarpRef::str() const {
  return fmt::format("block ({},{},{}) warp {}", block.x, block.y, block.z, warp);
}

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

// --- CommitComparator ----------------------------------------------------------------------------

namespace {

std::string_view opName(uint8_t op) {
  return isa::kOps[op].valid ? isa::kOps[op].name : std::string_view("ILLEGAL");
}

std::string partName(const CommitPart &p) {
  switch (CommitPartKind(p.kind)) {
  case CommitPartKind::Reg:
    return fmt::format("R{}", p.index);
  case CommitPartKind::Pred:
    return fmt::format("P{}", p.index);
  case CommitPartKind::Store:
    return "store";
  case CommitPartKind::Load:
    return "load";
  case CommitPartKind::Atom:
    return "atomic old value";
  case CommitPartKind::Sreg:
    return fmt::format("SR_{}", p.index < isa::kNumSRegs ? isa::kSRegs[p.index].name : "?");
  }
  return fmt::format("part kind {}", p.kind);
}

std::string hexBytes(const uint8_t *data, unsigned bytes) {
  std::string s;
  for (unsigned i = bytes; i-- > 0;)
    s += fmt::format("{:02x}", data[i]);
  return s;
}

std::string lanesText(uint32_t lanes) { return fmt::format("{:08x}", lanes); }

} // namespace

size_t CommitComparator::pending(int side, const WarpRef &warp) const {
  auto it = queues_.find(warp);
  return it == queues_.end() ? 0 : it->second.records[side].size();
}

bool CommitComparator::add(int side, std::span<const uint8_t> record) {
  if (mismatch_)
    return false;
  if (std::string why = CommitView::validate(record); !why.empty()) {
    Mismatch m;
    m.field = "framing";
    m.message = fmt::format("malformed {} record: {}", names_[side], why);
    mismatch_ = std::move(m);
    return false;
  }
  CommitRecord h;
  std::memcpy(&h, record.data(), sizeof h);
  WarpRef warp = WarpRef::of(h);
  Queue &q = queues_[warp];
  auto &other = q.records[1 - side];
  if (other.empty()) {
    q.records[side].emplace_back(record.begin(), record.end());
    return true;
  }
  std::vector<uint8_t> head = std::move(other.front());
  other.erase(other.begin());
  uint64_t index = q.matched++;
  ++compared_;
  std::span<const uint8_t> ref = side == 0 ? record : std::span<const uint8_t>(head);
  std::span<const uint8_t> test = side == 0 ? std::span<const uint8_t>(head) : record;
  return compare(warp, index, ref, test);
}

void CommitComparator::report(const WarpRef &warp, uint64_t index, std::string field,
                              std::string refValue, std::string testValue,
                              std::span<const uint8_t> ref, std::span<const uint8_t> test) {
  CommitRecord h;
  std::memcpy(&h, ref.data(), sizeof h);
  size_t width = std::max(names_[0].size(), names_[1].size()) + 1;
  Mismatch m;
  m.warp = warp;
  m.index = index;
  m.field = field;
  m.message = fmt::format("commit records differ: {}, record {} (pc 0x{:x} {}): {}\n"
                          "  {:<{}} {}\n  {:<{}} {}\n"
                          "  {:<{}} {}\n  {:<{}} {}",
                          warp.str(), index, h.pc, opName(h.opcode), field, names_[0] + ":", width,
                          refValue, names_[1] + ":", width, testValue, names_[0] + ":", width,
                          formatCommit(ref), names_[1] + ":", width, formatCommit(test));
  mismatch_ = std::move(m);
}

bool CommitComparator::compare(const WarpRef &warp, uint64_t index, std::span<const uint8_t> ref,
                               std::span<const uint8_t> test) {
  CommitView a(ref), b(test);
  const CommitRecord &ha = a.header(), &hb = b.header();
  auto differ = [&](std::string field, std::string va, std::string vb) {
    report(warp, index, std::move(field), std::move(va), std::move(vb), ref, test);
    return false;
  };
  if (ha.kind != hb.kind)
    return differ("kind",
                  ha.kind == uint8_t(CommitKind::BarRelease) ? "barrier release" : "instruction",
                  hb.kind == uint8_t(CommitKind::BarRelease) ? "barrier release" : "instruction");
  if (ha.pc != hb.pc)
    return differ("pc", fmt::format("{:08x}", ha.pc), fmt::format("{:08x}", hb.pc));
  if (ha.word != hb.word || ha.opcode != hb.opcode)
    return differ("instruction word", fmt::format("{:016x} {}", ha.word, opName(ha.opcode)),
                  fmt::format("{:016x} {}", hb.word, opName(hb.opcode)));
  if (ha.active != hb.active)
    return differ("active mask", lanesText(ha.active), lanesText(hb.active));
  if (ha.exec != hb.exec)
    return differ("exec mask", lanesText(ha.exec), lanesText(hb.exec));

  const auto &pa = a.parts(), &pb = b.parts();
  for (size_t i = 0; i < std::max(pa.size(), pb.size()); ++i) {
    if (i >= pa.size())
      return differ(partName(pb[i].header()), "(none)", "present");
    if (i >= pb.size())
      return differ(partName(pa[i].header()), "present", "(none)");
    const CommitPart &x = pa[i].header(), &y = pb[i].header();
    if (x.kind != y.kind || x.index != y.index)
      return differ(fmt::format("part {}", i), partName(x), partName(y));
    std::string name = partName(x);
    if (x.space != y.space)
      return differ(name + " space", fmt::format("{}", x.space), fmt::format("{}", y.space));
    if (x.size != y.size)
      return differ(name + " size", fmt::format("{}", x.size), fmt::format("{}", y.size));
    if (x.lanes != y.lanes)
      return differ(name + " lanes", lanesText(x.lanes), lanesText(y.lanes));
    if (x.value != y.value)
      return differ(name, lanesText(x.value), lanesText(y.value));
    for (uint32_t m = x.lanes; m; m &= m - 1) {
      unsigned l = unsigned(std::countr_zero(m));
      switch (CommitPartKind(x.kind)) {
      case CommitPartKind::Store:
      case CommitPartKind::Load:
        if (pa[i].address(l) != pb[i].address(l))
          return differ(fmt::format("{} lane {} address", name, l),
                        fmt::format("{:x}", pa[i].address(l)),
                        fmt::format("{:x}", pb[i].address(l)));
        if (std::memcmp(pa[i].data(l), pb[i].data(l), x.size) != 0)
          return differ(fmt::format("{} lane {} data", name, l), hexBytes(pa[i].data(l), x.size),
                        hexBytes(pb[i].data(l), x.size));
        break;
      case CommitPartKind::Reg:
        if (pa[i].value(l) != pb[i].value(l))
          return differ(fmt::format("{} lane {}", name, l), fmt::format("{:08x}", pa[i].value(l)),
                        fmt::format("{:08x}", pb[i].value(l)));
        break;
      default: // ATOM, SREG: u64 elements
        if (pa[i].value(l) != pb[i].value(l))
          return differ(fmt::format("{} lane {}", name, l), fmt::format("{:x}", pa[i].value(l)),
                        fmt::format("{:x}", pb[i].value(l)));
        break;
      }
    }
  }
  return true;
}

bool CommitComparator::finish() {
  if (mismatch_)
    return false;
  for (auto &[warp, q] : queues_)
    for (int side = 0; side < 2; ++side) {
      if (q.records[side].empty())
        continue;
      Mismatch m;
      m.warp = warp;
      m.index = q.matched;
      m.field = "stream length";
      m.message = fmt::format("commit streams differ in length: {}, record {}: the {} has {} more "
                              "record(s), the {} none; its next:\n  {}",
                              warp.str(), q.matched, names_[side], q.records[side].size(),
                              names_[1 - side], formatCommit(q.records[side].front()));
      mismatch_ = std::move(m);
      return false;
    }
  return true;
}

// --- LockstepChecker
// ------------------------------------------------------------------------------

LockstepChecker::LockstepChecker(Device &device, const LaunchDesc &desc, const Injection &inject)
    : stepper_(device, desc,
               [this](std::span<const uint8_t> record) { comparator_.addTest(record); }),
      inject_(inject) {}

bool LockstepChecker::check(std::span<const uint8_t> reference) {
  if (mismatch())
    return false;
  if (std::string why = CommitView::validate(reference); !why.empty())
    return comparator_.addReference(reference); // reports the framing error
  CommitView view(reference);
  WarpRef warp = WarpRef::of(view.header());
  // An instruction of a warp with no emulator record waiting: the emulator commits its next one.
  if (view.header().kind == uint8_t(CommitKind::Inst) && comparator_.pending(1, warp) == 0) {
    StepResult r = stepper_.step(warp, 1, &view, inject_);
    if (r.executed == 0) {
      std::string why;
      switch (r.status) {
      case StepStatus::Waiting:
        why = "its lanes wait at a barrier";
        break;
      case StepStatus::Finished:
        why = "it has exited";
        break;
      case StepStatus::Fault:
        why = "the launch faulted: " + stepper_.fault()->describe();
        break;
      default:
        why = stepper_.fault() ? stepper_.fault()->describe() : "no such warp in the grid";
        break;
      }
      Mismatch m;
      m.warp = warp;
      m.field = "issue";
      m.message = fmt::format("commit records differ: {}: the reference commits\n  {}\nbut the "
                              "emulator's warp cannot commit: {}",
                              warp.str(), formatCommit(reference), why);
      stuck_ = std::move(m);
      return false;
    }
  }
  return comparator_.addReference(reference);
}

bool LockstepChecker::finish() {
  if (mismatch())
    return false;
  return comparator_.finish();
}

} // namespace wf::func

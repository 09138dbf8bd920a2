//===- lockstep.cpp - Comparing record streams, driving a golden model -----===//

#include "warpforge/isa/lockstep.h"

#include "warpforge/isa/isa.gen.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>

namespace wf::isa {

using dev::CommitKind;
using dev::CommitPart;
using dev::CommitPartKind;
using dev::CommitRecord;

std::string WarpRef::str() const {
  return fmt::format("block ({},{},{}) warp {}", block.x, block.y, block.z, warp);
}

// --- CommitComparator ----------------------------------------------------------------------------

namespace {

std::string_view opName(uint8_t op) {
  return kOps[op].valid ? kOps[op].name : std::string_view("ILLEGAL");
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
    return fmt::format("SR_{}", p.index < kNumSRegs ? kSRegs[p.index].name : "?");
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

LockstepChecker::LockstepChecker(const StepperFactory &makeStepper, const Injection &inject)
    : stepper_(makeStepper(
          [this](std::span<const uint8_t> record) { comparator_.addTest(record); })),
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
    StepResult r = stepper_->step(warp, 1, &view, inject_);
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
        why = "the launch faulted: " + stepper_->fault()->describe();
        break;
      default:
        why = stepper_->fault() ? stepper_->fault()->describe() : "no such warp in the grid";
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

} // namespace wf::isa

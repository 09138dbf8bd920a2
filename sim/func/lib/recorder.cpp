//===- recorder.cpp - Commit records of a running launch --------------------------===//

#include "recorder.h"

#include "engine.h"

#include <bit>
#include <cstring>

namespace wf::func {

using isa::dev::CommitKind;
using isa::dev::CommitPart;
using isa::dev::CommitPartKind;
using isa::dev::CommitRecord;

namespace {

constexpr size_t pad8(size_t n) { return (n + 7) & ~size_t(7); }

template <class T> void put(std::vector<uint8_t> &out, size_t at, const T &v) {
  std::memcpy(out.data() + at, &v, sizeof v);
}

} // namespace

bool isNondeterministic(isa::SReg sr) {
  switch (sr) {
  case isa::SReg::CLOCK:
  case isa::SReg::CLOCK64:
  case isa::SReg::GLOBALTIMER:
  case isa::SReg::SMID:
  case isa::SReg::WARPID:
    return true;
  default:
    return false;
  }
}

CommitRecorder::CommitRecorder(const Program &program, std::ostream *text, CommitSink sink)
    : program_(program), text_(text), sink_(std::move(sink)) {}

// --- parts -------------------------------------------------------------------------------------

uint8_t *CommitRecorder::PartList::add(CommitPartKind kind, uint8_t space, uint16_t index,
                                       uint16_t size, uint16_t stride, unsigned lane) {
  CommitPart h;
  if (open != SIZE_MAX) {
    std::memcpy(&h, bytes.data() + open, sizeof h);
    bool fits = h.space == space && h.size == size && (h.lanes >> lane) == 0;
    if (!fits)
      close();
  }
  if (open == SIZE_MAX) {
    open = bytes.size();
    h = CommitPart{uint8_t(kind), space, index, size, stride, 0, 0};
    bytes.resize(bytes.size() + sizeof h);
    ++count;
  }
  h.lanes |= 1u << lane;
  std::memcpy(bytes.data() + open, &h, sizeof h);
  size_t at = bytes.size();
  bytes.resize(at + stride, 0);
  return bytes.data() + at;
}

void CommitRecorder::PartList::close() {
  bytes.resize(pad8(bytes.size()), 0);
  open = SIZE_MAX;
}

// --- injection ---------------------------------------------------------------------------------

const uint8_t *CommitRecorder::injectedLoad(unsigned lane, unsigned bytes) const {
  if (!reference_ || !what_.loads)
    return nullptr;
  for (const CommitPartView &p : reference_->parts())
    if (p.kind() == CommitPartKind::Load && p.header().size == bytes && p.element(lane))
      return p.data(lane);
  return nullptr;
}

bool CommitRecorder::injectedAtom(unsigned lane, uint64_t &old) const {
  if (!reference_ || !what_.atomics)
    return false;
  const CommitPartView *p = reference_->find(CommitPartKind::Atom);
  if (!p || !p->element(lane))
    return false;
  old = p->value(lane);
  return true;
}

void CommitRecorder::injectSpecial(isa::SReg sr, uint32_t exec, uint32_t *lo, uint32_t *hi) const {
  if (!reference_ || !what_.specialRegs)
    return;
  const CommitPartView *p = reference_->find(CommitPartKind::Sreg, int(sr));
  if (!p)
    return;
  for (uint32_t m = exec & p->header().lanes; m; m &= m - 1) {
    unsigned l = unsigned(std::countr_zero(m));
    uint64_t v = p->value(l);
    lo[l] = uint32_t(v);
    if (hi)
      hi[l] = uint32_t(v >> 32);
  }
}

// --- recording ---------------------------------------------------------------------------------

void CommitRecorder::header(std::vector<uint8_t> &out, const Warp &w, CommitKind kind, uint8_t op,
                            uint32_t pc, uint32_t active, uint32_t exec, uint64_t word) {
  const Block &b = *w.block;
  CommitRecord h{};
  h.kind = uint8_t(kind);
  h.opcode = op;
  h.pc = pc;
  h.active = active;
  h.exec = exec;
  h.warp = w.index;
  h.blockX = b.idx.x;
  h.blockY = b.idx.y;
  h.blockZ = b.idx.z;
  h.core = uint16_t(b.core->id);
  h.slot = uint16_t(w.slot);
  h.word = word;
  size_t at = out.size();
  out.resize(at + sizeof h);
  put(out, at, h);
}

void CommitRecorder::begin(const Warp &w, uint32_t pc, uint32_t active, uint32_t exec,
                           const DecodedInst &in) {
  record_.clear();
  loads_.clear();
  atoms_.clear();
  stores_.clear();
  specials_.clear();
  header(record_, w, CommitKind::Inst, in.op, pc, active, exec, in.word);
}

void CommitRecorder::load(unsigned lane, uint8_t space, uint64_t addr, unsigned bytes,
                          const void *data) {
  uint8_t *e =
      loads_.add(CommitPartKind::Load, space, 0, uint16_t(bytes), uint16_t(8 + pad8(bytes)), lane);
  std::memcpy(e, &addr, 8);
  std::memcpy(e + 8, data, bytes);
}

void CommitRecorder::store(unsigned lane, uint8_t space, uint64_t addr, unsigned bytes,
                           const void *data) {
  uint8_t *e = stores_.add(CommitPartKind::Store, space, 0, uint16_t(bytes),
                           uint16_t(8 + pad8(bytes)), lane);
  std::memcpy(e, &addr, 8);
  std::memcpy(e + 8, data, bytes);
}

void CommitRecorder::atom(unsigned lane, unsigned bytes, uint64_t old) {
  uint8_t *e = atoms_.add(CommitPartKind::Atom, 0, 0, uint16_t(bytes), 8, lane);
  std::memcpy(e, &old, 8);
}

void CommitRecorder::special(isa::SReg sr, uint32_t exec, const uint32_t *lo, const uint32_t *hi) {
  const uint16_t size = isa::kSRegs[unsigned(sr)].width / 8;
  for (uint32_t m = exec; m; m &= m - 1) {
    unsigned l = unsigned(std::countr_zero(m));
    uint64_t v = lo[l] | (size == 8 ? uint64_t(hi[l]) << 32 : 0);
    std::memcpy(specials_.add(CommitPartKind::Sreg, 0, uint16_t(sr), size, 8, l), &v, 8);
  }
}

void CommitRecorder::appendRegs(std::vector<uint8_t> &out, uint16_t &parts, const Warp &w,
                                unsigned reg, unsigned count, uint32_t lanes) {
  for (unsigned r = 0; r < count; ++r) {
    CommitPart h{uint8_t(CommitPartKind::Reg), 0, uint16_t(reg + r), 4, 4, lanes, 0};
    size_t at = out.size();
    out.resize(at + sizeof h + pad8(std::popcount(lanes) * 4), 0);
    put(out, at, h);
    at += sizeof h;
    const uint32_t *row = w.regs + size_t(reg + r) * kWarpSize;
    for (uint32_t m = lanes; m; m &= m - 1, at += 4)
      put(out, at, row[std::countr_zero(m)]);
    ++parts;
  }
}

void CommitRecorder::commit(const Warp &w, const DecodedInst &in, uint32_t exec) {
  uint16_t parts = 0;
  if (exec) {
    appendRegs(record_, parts, w, in.rd, in.dstWidth, exec);
    if (in.writesPred) {
      CommitPart h{uint8_t(CommitPartKind::Pred), 0, in.pd, 0, 0, exec, w.preds[in.pd] & exec};
      size_t at = record_.size();
      record_.resize(at + sizeof h);
      put(record_, at, h);
      ++parts;
    }
  }
  for (PartList *list : {&loads_, &atoms_, &stores_, &specials_}) {
    if (!list->count)
      continue;
    list->close();
    record_.insert(record_.end(), list->bytes.begin(), list->bytes.end());
    parts = uint16_t(parts + list->count);
  }
  put(record_, offsetof(CommitRecord, bytes), uint32_t(record_.size()));
  put(record_, offsetof(CommitRecord, parts), parts);
  emit(record_);
  // Releases caused by this instruction follow it.
  for (size_t at = 0; at < releases_.size();) {
    uint32_t n;
    std::memcpy(&n, releases_.data() + at, 4);
    emit({releases_.data() + at, n});
    at += n;
  }
  releases_.clear();
  reference_ = nullptr;
}

void CommitRecorder::release(const Warp &w, uint32_t pc, uint32_t lanes, unsigned reg) {
  size_t start = releases_.size();
  const DecodedInst &bar = program_.insts[pc / isa::kInstBytes];
  header(releases_, w, CommitKind::BarRelease, bar.op, pc, lanes, lanes, bar.word);
  uint16_t parts = 0;
  appendRegs(releases_, parts, w, reg, 1, lanes);
  put(releases_, start + offsetof(CommitRecord, bytes), uint32_t(releases_.size() - start));
  put(releases_, start + offsetof(CommitRecord, parts), parts);
}

void CommitRecorder::emit(std::span<const uint8_t> record) {
  if (sink_)
    sink_(record);
  if (text_) {
    appendCommitLine(textBuf_, record);
    if (textBuf_.size() > (1u << 16))
      flush();
  }
}

void CommitRecorder::flush() {
  if (text_ && !textBuf_.empty())
    text_->write(textBuf_.data(), std::streamsize(textBuf_.size()));
  textBuf_.clear();
}

} // namespace wf::func

//===- commit.cpp - Reading and printing commit records ------------------------===//

#include "warpforge/isa/commit.h"

#include "warpforge/isa/isa.gen.h"

#include <fmt/format.h>

#include <bit>
#include <iterator>

namespace wf::isa {

using dev::CommitKind;
using dev::CommitPart;
using dev::CommitPartKind;
using dev::CommitRecord;

namespace {

constexpr uint32_t pad8(uint32_t n) { return (n + 7) & ~7u; }

unsigned laneRank(uint32_t lanes, unsigned lane) {
  return unsigned(std::popcount(lanes & ((1u << lane) - 1)));
}

} // namespace

// --- views ---------------------------------------------------------------------------------------

const uint8_t *CommitPartView::element(unsigned lane) const {
  if (lane >= 32 || !((header_.lanes >> lane) & 1))
    return nullptr;
  return payload_ + size_t(laneRank(header_.lanes, lane)) * header_.stride;
}

uint64_t CommitPartView::address(unsigned lane) const {
  uint64_t a;
  std::memcpy(&a, element(lane), 8);
  return a;
}

const uint8_t *CommitPartView::data(unsigned lane) const { return element(lane) + 8; }

uint64_t CommitPartView::value(unsigned lane) const {
  const uint8_t *e = element(lane);
  if (kind() == CommitPartKind::Reg) {
    uint32_t v;
    std::memcpy(&v, e, 4);
    return v;
  }
  uint64_t v;
  std::memcpy(&v, e, 8);
  return v;
}

uint32_t CommitPartView::payloadBytes() const {
  return pad8(uint32_t(std::popcount(header_.lanes)) * header_.stride);
}

std::string CommitView::validate(std::span<const uint8_t> bytes) {
  if (bytes.size() < sizeof(CommitRecord))
    return fmt::format("{} bytes are too few for a record header", bytes.size());
  CommitRecord h;
  std::memcpy(&h, bytes.data(), sizeof h);
  if (h.bytes != bytes.size() || h.bytes % 8)
    return fmt::format("the header says {} bytes, the record has {}", h.bytes, bytes.size());
  size_t at = sizeof h;
  for (unsigned p = 0; p < h.parts; ++p) {
    if (bytes.size() - at < sizeof(CommitPart))
      return fmt::format("part {} runs past the record's end", p);
    CommitPart part;
    std::memcpy(&part, bytes.data() + at, sizeof part);
    if (part.kind > uint8_t(CommitPartKind::Sreg))
      return fmt::format("part {} has unknown kind {}", p, part.kind);
    at += sizeof part;
    size_t payload = pad8(uint32_t(std::popcount(part.lanes)) * part.stride);
    if (bytes.size() - at < payload)
      return fmt::format("part {}'s payload runs past the record's end", p);
    at += payload;
  }
  if (at != bytes.size())
    return fmt::format("{} bytes follow the last part", bytes.size() - at);
  return {};
}

CommitView::CommitView(std::span<const uint8_t> bytes) : bytes_(bytes) {
  std::memcpy(&header_, bytes.data(), sizeof header_);
  size_t at = sizeof header_;
  parts_.reserve(header_.parts);
  for (unsigned p = 0; p < header_.parts; ++p) {
    CommitPart part;
    std::memcpy(&part, bytes.data() + at, sizeof part);
    at += sizeof part;
    parts_.emplace_back(part, bytes.data() + at);
    at += parts_.back().payloadBytes();
  }
}

const CommitPartView *CommitView::find(CommitPartKind kind, int index) const {
  for (const CommitPartView &p : parts_)
    if (p.kind() == kind && (index < 0 || p.header().index == unsigned(index)))
      return &p;
  return nullptr;
}

std::string CommitStream::assign(std::vector<uint8_t> bytes) {
  data_ = std::move(bytes);
  offsets_.clear();
  size_t at = 0;
  while (at < data_.size()) {
    if (data_.size() - at < sizeof(CommitRecord))
      return fmt::format("record {} at byte {} is cut off", offsets_.size(), at);
    uint32_t n;
    std::memcpy(&n, data_.data() + at, 4);
    if (n < sizeof(CommitRecord) || n > data_.size() - at)
      return fmt::format("record {} at byte {} claims {} bytes", offsets_.size(), at, n);
    if (std::string why = CommitView::validate({data_.data() + at, n}); !why.empty())
      return fmt::format("record {} at byte {}: {}", offsets_.size(), at, why);
    offsets_.push_back(at);
    at += n;
  }
  return {};
}

// --- the text printer ----------------------------------------------------------------------------

namespace {

char spaceLetter(uint8_t space) {
  constexpr char kLetters[] = {'G', 'S', 'L', 'C', 'P'};
  return space < sizeof kLetters ? kLetters[space] : '?';
}

/// `bytes` of little-endian data as one number of 2*bytes digits.
void appendHex(std::string &out, const uint8_t *data, unsigned bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  for (unsigned i = bytes; i-- > 0;) {
    out.push_back(kDigits[data[i] >> 4]);
    out.push_back(kDigits[data[i] & 15]);
  }
}

void appendMemory(std::string &out, char tag, const CommitPartView &p) {
  auto it = std::back_inserter(out);
  for (uint32_t m = p.header().lanes; m; m &= m - 1) {
    unsigned l = unsigned(std::countr_zero(m));
    fmt::format_to(it, " {}{}:{}{:x}/{}=", tag, l, spaceLetter(p.header().space), p.address(l),
                   p.header().size);
    appendHex(out, p.data(l), p.header().size);
  }
}

std::string_view sregName(unsigned index) {
  return index < kNumSRegs ? kSRegs[index].name : std::string_view("?");
}

} // namespace

void appendCommitLine(std::string &out, std::span<const uint8_t> record) {
  CommitView v(record);
  const CommitRecord &h = v.header();
  auto it = std::back_inserter(out);
  std::string_view op = kOps[h.opcode].valid ? kOps[h.opcode].name : "ILLEGAL";
  fmt::format_to(it, "{},{},{} {} {}:{} {:08x} {:08x} {:08x} {}{}", h.blockX, h.blockY, h.blockZ,
                 h.warp, h.core, h.slot, h.pc, h.active, h.exec, op,
                 h.kind == uint8_t(CommitKind::BarRelease) ? ".RELEASE" : "");
  // Parts are written in the order the text shows them: R, P, L, A, M, SR.
  for (const CommitPartView &p : v.parts()) {
    const CommitPart &ph = p.header();
    switch (p.kind()) {
    case CommitPartKind::Reg: {
      fmt::format_to(it, " R{}=", ph.index);
      for (uint32_t m = ph.lanes; m; m &= m - 1) {
        if (m != ph.lanes)
          out.push_back(',');
        appendHex(out, p.element(unsigned(std::countr_zero(m))), 4);
      }
      break;
    }
    case CommitPartKind::Pred:
      fmt::format_to(it, " P{}={:08x}", ph.index, ph.value);
      break;
    case CommitPartKind::Load:
      appendMemory(out, 'L', p);
      break;
    case CommitPartKind::Store:
      appendMemory(out, 'M', p);
      break;
    case CommitPartKind::Atom:
      for (uint32_t m = ph.lanes; m; m &= m - 1) {
        unsigned l = unsigned(std::countr_zero(m));
        fmt::format_to(it, " A{}=", l);
        appendHex(out, p.element(l), ph.size);
      }
      break;
    case CommitPartKind::Sreg:
      fmt::format_to(it, " SR_{}=", sregName(ph.index));
      for (uint32_t m = ph.lanes; m; m &= m - 1) {
        if (m != ph.lanes)
          out.push_back(',');
        appendHex(out, p.element(unsigned(std::countr_zero(m))), ph.size);
      }
      break;
    }
  }
  out.push_back('\n');
}

std::string formatCommit(std::span<const uint8_t> record) {
  std::string s;
  appendCommitLine(s, record);
  s.pop_back();
  return s;
}

} // namespace wf::isa

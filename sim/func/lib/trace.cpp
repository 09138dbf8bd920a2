//===- trace.cpp - Commit trace writer ---------------------------------------===//

#include "trace.h"

#include "engine.h"

#include <cstring>
#include <iterator>

namespace wf::func {

namespace {

std::string_view opName(const DecodedInst &in) {
  return in.op == kIllegalOp ? std::string_view("ILLEGAL") : isa::kOps[in.op].name;
}

void blockPrefix(fmt::memory_buffer &buf, const Warp &w) {
  const Block &b = *w.block;
  fmt::format_to(std::back_inserter(buf), "{},{},{} {} {}:{}", b.idx.x, b.idx.y, b.idx.z, w.index,
                 b.core->id, w.slot);
}

} // namespace

void TraceWriter::begin(const Warp &w, uint32_t pc, uint32_t active, uint32_t exec,
                        const DecodedInst &in) {
  line_.clear();
  mem_.clear();
  blockPrefix(line_, w);
  fmt::format_to(std::back_inserter(line_), " {:08x} {:08x} {:08x} {}", pc, active, exec,
                 opName(in));
}

void TraceWriter::memWrite(uint32_t lane, char space, uint64_t addr, unsigned bytes,
                           const void *value) {
  uint64_t lo = 0, hi = 0;
  std::memcpy(&lo, value, bytes < 8 ? bytes : 8);
  if (bytes > 8)
    std::memcpy(&hi, static_cast<const uint8_t *>(value) + 8, bytes - 8);
  auto out = std::back_inserter(mem_);
  fmt::format_to(out, " M{}:{}{:x}/{}=", lane, space, addr, bytes);
  if (bytes > 8)
    fmt::format_to(out, "{:016x}{:016x}", hi, lo);
  else
    fmt::format_to(out, "{:0{}x}", lo, bytes * 2);
}

void TraceWriter::appendRegs(fmt::memory_buffer &buf, const Warp &w, unsigned reg, unsigned count,
                             uint32_t lanes) {
  auto out = std::back_inserter(buf);
  for (unsigned r = 0; r < count; ++r) {
    fmt::format_to(out, " R{}=", reg + r);
    const uint32_t *row = w.regs + size_t(reg + r) * kWarpSize;
    for (uint32_t m = lanes; m; m &= m - 1) {
      unsigned l = unsigned(std::countr_zero(m));
      if (m != lanes)
        buf.push_back(',');
      fmt::format_to(out, "{:08x}", row[l]);
    }
  }
}

void TraceWriter::commit(const Warp &w, const DecodedInst &in, uint32_t exec) {
  if (exec) {
    appendRegs(line_, w, in.rd, in.dstWidth, exec);
    if (in.writesPred)
      fmt::format_to(std::back_inserter(line_), " P{}={:08x}", unsigned(in.pd),
                     w.preds[in.pd] & exec);
  }
  line_.append(mem_);
  line_.push_back('\n');
  out_.append(line_);
  out_.append(released_); // releases caused by this instruction follow it
  released_.clear();
  if (out_.size() > (1u << 16))
    flush();
}

void TraceWriter::release(const Warp &w, uint32_t pc, uint32_t lanes, unsigned reg) {
  blockPrefix(released_, w);
  fmt::format_to(std::back_inserter(released_), " {:08x} {:08x} {:08x} BAR.RELEASE", pc, lanes,
                 lanes);
  appendRegs(released_, w, reg, 1, lanes);
  released_.push_back('\n');
}

void TraceWriter::flush() {
  if (out_.size())
    os_.write(out_.data(), std::streamsize(out_.size()));
  out_.clear();
}

} // namespace wf::func

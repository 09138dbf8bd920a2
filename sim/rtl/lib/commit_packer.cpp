//===- commit_packer.cpp - Commit records from the core's commit outputs --===//

#include "warpforge/rtl/commit_packer.h"

#include <bit>
#include <cstring>

namespace wf::rtl {
namespace dev = isa::dev;

void CommitPacker::header(const CommitHeader &h) {
  if (auto it = pending_.find(h.warpSlot); it != pending_.end()) {
    emit(it->second);
    pending_.erase(it);
  }
  pending_[h.warpSlot].header = h;
}

void CommitPacker::row(uint32_t warpSlot, uint32_t reg, uint32_t pass, uint32_t written,
                       const uint32_t *values) {
  auto it = pending_.find(warpSlot);
  if (it == pending_.end())
    return; // a row without a header: nothing to attach it to (the checker then sees it missing)
  auto &[lanes, data] = it->second.regs[reg];
  for (unsigned i = 0; i < lanes_; ++i) {
    unsigned lane = pass * lanes_ + i;
    if (lane < 32 && (written >> lane & 1u)) {
      lanes |= 1u << lane;
      data[lane] = values[i];
    }
  }
}

void CommitPacker::flush() {
  for (auto &[slot, p] : pending_)
    emit(p);
  pending_.clear();
}

void CommitPacker::emit(const Pending &p) {
  std::vector<uint8_t> bytes(sizeof(dev::CommitRecord));
  for (const auto &[reg, entry] : p.regs) { // ascending register, as device.toml orders REG parts
    dev::CommitPart part{};
    part.kind = uint8_t(dev::CommitPartKind::Reg);
    part.index = uint16_t(reg);
    part.size = 4;
    part.stride = 4;
    part.lanes = entry.first;
    size_t at = bytes.size();
    uint32_t payload = uint32_t(std::popcount(entry.first)) * 4;
    bytes.resize(at + sizeof part + (payload + 7) / 8 * 8, 0);
    std::memcpy(bytes.data() + at, &part, sizeof part);
    size_t out = at + sizeof part;
    for (unsigned lane = 0; lane < 32; ++lane)
      if (entry.first >> lane & 1u) {
        std::memcpy(bytes.data() + out, &entry.second[lane], 4);
        out += 4;
      }
  }
  dev::CommitRecord r{};
  r.bytes = uint32_t(bytes.size());
  r.kind = p.header.kind;
  r.opcode = p.header.opcode;
  r.parts = uint16_t(p.regs.size());
  r.pc = p.header.pc;
  r.active = p.header.active;
  r.exec = p.header.exec;
  r.warp = p.header.warp;
  std::array<uint32_t, 3> block = blockOf_ ? blockOf_(p.header.blockSlot)
                                           : std::array<uint32_t, 3>{p.header.blockSlot, 0, 0};
  r.blockX = block[0];
  r.blockY = block[1];
  r.blockZ = block[2];
  r.core = uint16_t(core_);
  r.slot = uint16_t(p.header.warpSlot);
  std::memcpy(bytes.data(), &r, sizeof r);
  sink_(bytes);
}

} // namespace wf::rtl

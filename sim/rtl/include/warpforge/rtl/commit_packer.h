// Packs the core's commit outputs (wf_core_pkg::commit_hdr_t, one header a committed warp
// instruction, and commit_wb_t rows of register values) into device.toml's CommitRecord bytes,
// which func's lockstep checker compares (docs/commit-trace.md).
//
// A record is complete when the next header of the same warp slot arrives, or at flush() (the end
// of a launch): the register rows of an instruction come after its header and before the next
// header of its warp (docs/rtl-sim.md says where this assumption comes from and what is left).
#pragma once

#include "warpforge/isa/device.gen.h"

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <vector>

namespace wf::rtl {

struct CommitHeader {
  uint8_t kind = 0, opcode = 0;
  uint32_t pc = 0, active = 0, exec = 0, warp = 0;
  uint32_t blockSlot = 0, warpSlot = 0;
};

class CommitPacker {
public:
  using Sink = std::function<void(std::span<const uint8_t> record)>;
  /// The block index of a block slot (x, y, z).
  using BlockOf = std::function<std::array<uint32_t, 3>(uint32_t blockSlot)>;

  CommitPacker(unsigned core, unsigned lanes, Sink sink, BlockOf blockOf)
      : core_(core), lanes_(lanes), sink_(std::move(sink)), blockOf_(std::move(blockOf)) {}

  void header(const CommitHeader &h);
  /// A register row: lanes pass*L .. pass*L+L-1 of register `reg`, `values` holding L words;
  /// `written` is the whole-warp mask of lanes written.
  void row(uint32_t warpSlot, uint32_t reg, uint32_t pass, uint32_t written, const uint32_t *values);
  /// Emits every pending record (the launch ended).
  void flush();

private:
  struct Pending {
    CommitHeader header;
    std::map<uint32_t, std::pair<uint32_t, std::array<uint32_t, 32>>> regs; // reg -> lanes, values
  };
  void emit(const Pending &p);

  unsigned core_, lanes_;
  Sink sink_;
  BlockOf blockOf_;
  std::map<uint32_t, Pending> pending_; ///< by warp slot
};

} // namespace wf::rtl

//===- texture.h - TEX, SULD and SUST ------------------------------------------===//
//
// Texture fetches and surface accesses of one warp instruction. A texture or surface object is
// the device address of an isa::dev::TexDesc; the texture filter itself is hls/texture.h.
//
//===----------------------------------------------------------------------===//

#pragma once

#include "decode.h"
#include "warpforge/func/device.h"

#include <cstdint>
#include <string>

namespace wf::func {

/// A fault of a texture or surface instruction: the first faulting lane and why.
struct TexFault {
  FaultKind kind = FaultKind::None;
  unsigned lane = 0;
  uint64_t address = 0;
  FaultDetail detail;
};

/// Global memory as texture instructions see it.
struct TexMemory {
  uint8_t *global = nullptr;
  uint64_t globalSize = 0;
};

/// Runs TEX, SULD or SUST (in.op) for the lanes of `exec` on the warp register file `regs`
/// (row r of lane l at regs[r * 32 + l]). False on a fault, described in `fault`; a faulting
/// SUST stores nothing.
bool executeTexture(const DecodedInst &in, uint32_t exec, uint32_t *regs, const TexMemory &mem,
                    TexFault &fault);

} // namespace wf::func

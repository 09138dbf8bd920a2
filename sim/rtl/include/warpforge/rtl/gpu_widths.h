// The port widths of wf_gpu for a named configuration: the configuration's sizes (isa/config.toml)
// and the widths wf_soc_pkg fixes for every configuration (CtrlAddrBits, HostAddrBits,
// HostDataBytes, HostIdBits, DramAddrBits, DramIdBits, CommitBeatBytes). GpuTopOf checks each port's
// Verilated storage against these, so a change in wf_soc_pkg that this file misses fails loudly at
// device creation instead of shifting bits.
#pragma once

#include "warpforge/isa/config.gen.h"
#include "warpforge/rtl/gpu_top.h"

#include <string_view>

namespace wf::rtl {

inline GpuPortWidths widthsOf(std::string_view name) {
  GpuPortWidths w;
  if (const isa::Config *c = isa::findConfig(name)) {
    w.cores = c->cores;
    w.dramChannels = c->dramChannels;
    w.lineBytes = c->cacheLineBytes;
  }
  return w;
}

} // namespace wf::rtl

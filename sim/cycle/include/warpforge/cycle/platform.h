// The cycle model's platform: card memory (DRAM timing model), host memory behind the PCIe
// endpoint, and the DMA engine between them. The top owns its children and binds them in its
// constructor (as the Accellera TLM examples do); the GPU cores attach to card memory once the
// core model and L2 exist (docs/cycle-model.md).
#pragma once

#include "warpforge/cycle/backing_store.h"
#include "warpforge/cycle/dma_engine.h"
#include "warpforge/cycle/dram_controller.h"
#include "warpforge/cycle/pcie.h"
#include "warpforge/isa/config.gen.h"

namespace wf::cycle {

struct PlatformParams {
  DramParams dram;
  PcieParams pcie;
  DmaParams dma;
  uint64_t hostWindowBytes = 256ull << 20; ///< host memory reachable through the DMA window

  std::optional<std::string> validate() const;
  /// Presets by name, e.g. ("ddr4-2400", "gen3x16").
  static Result<PlatformParams> fromPresets(const std::string &dram, const std::string &pcie);
  /// What a named configuration selects (isa/config.toml): dram_preset, dram_channels, dram_mts,
  /// dram_bus_bits, global_mem_mib (the least capacity), cache_line_bytes (the channel
  /// interleave: channel = line index mod dram_channels), pcie_gen, pcie_lanes and
  /// host_link_latency_ns (the link's one-way latency).
  static Result<PlatformParams> fromConfig(const isa::Config &config);
};

class Platform : public sc_core::sc_module {
public:
  BackingStore cardMemory;
  DramController dram;
  HostMemory host;
  PcieEndpoint pcie;
  DmaEngine dma;

  /// `params` must be valid (PlatformParams::validate). Card memory has port 0 for the DMA
  /// engine and `cardPorts` more for other initiators (the GPU's L2: port 1).
  Platform(sc_core::sc_module_name name, const PlatformParams &params, unsigned cardPorts = 0);

  /// Every child's statistics, in the child groups "dram", "pcie" and "dma" of `group`.
  void registerStats(stats::Group &group) const {
    dram.registerStats(group.group("dram"));
    pcie.registerStats(group.group("pcie"));
    dma.registerStats(group.group("dma"));
  }
};

} // namespace wf::cycle

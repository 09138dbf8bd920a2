#include "warpforge/cycle/platform.h"

namespace wf::cycle {

std::optional<std::string> PlatformParams::validate() const {
  if (auto why = dram.validate())
    return why;
  if (auto why = pcie.validate())
    return why;
  if (auto why = dma.validate())
    return why;
  if (hostWindowBytes == 0)
    return "platform: the DMA window needs at least one byte";
  return std::nullopt;
}

Result<PlatformParams> PlatformParams::fromPresets(const std::string &dram,
                                                   const std::string &pcie) {
  Result<DramParams> d = DramParams::fromPreset(dram);
  if (!d)
    return Result<PlatformParams>::fail(d.error);
  Result<PcieParams> p = PcieParams::fromPreset(pcie);
  if (!p)
    return Result<PlatformParams>::fail(p.error);
  PlatformParams params;
  params.dram = *d.value;
  params.pcie = *p.value;
  return {params, {}};
}

Platform::Platform(sc_core::sc_module_name name, const PlatformParams &params)
    : sc_module(name), cardMemory(params.dram.capacityBytes()),
      dram("dram", params.dram, cardMemory),
      host("host", params.hostWindowBytes, params.pcie.hostReadLatencyNs),
      pcie("pcie", params.pcie), dma("dma", params.dma) {
  dma.hostPort.bind(pcie.fromCard);
  pcie.toHost.bind(host.socket);
  dma.cardPort.socket.bind(dram.socket);
}

} // namespace wf::cycle

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

Result<PlatformParams> PlatformParams::fromConfig(const isa::Config &config) {
  const std::string where = "configuration '" + std::string(config.name) + "': ";
  if (config.dramPreset == isa::DramPreset::Fixed)
    return Result<PlatformParams>::fail(where + "the fixed-latency DRAM model is not in the "
                                                "platform yet (docs/cycle-model.md)");
  Result<DramParams> dram = DramParams::fromDevice(
      std::string(isa::name(config.dramPreset)), config.dramMts, config.dramBusBits,
      config.dramChannels, uint64_t(config.globalMemMib) << 20);
  if (!dram)
    return Result<PlatformParams>::fail(where + dram.error);
  dram.value->channelInterleaveBytes = config.cacheLineBytes;
  Result<PcieParams> pcie = PcieParams::fromPreset("gen" + std::to_string(config.pcieGen) + "x" +
                                                   std::to_string(config.pcieLanes));
  if (!pcie)
    return Result<PlatformParams>::fail(where + pcie.error);
  pcie.value->linkLatencyNs = config.hostLinkLatencyNs;
  PlatformParams params;
  params.dram = *dram.value;
  params.pcie = *pcie.value;
  if (auto why = params.validate())
    return Result<PlatformParams>::fail(where + *why);
  return {params, {}};
}

Platform::Platform(sc_core::sc_module_name name, const PlatformParams &params,
                   unsigned cardPorts)
    : sc_module(name), cardMemory(params.dram.capacityBytes()),
      dram("dram", params.dram, cardMemory, 1 + cardPorts),
      host("host", params.hostWindowBytes, params.pcie.hostReadLatencyNs),
      pcie("pcie", params.pcie), dma("dma", params.dma) {
  dma.hostPort.bind(pcie.fromCard);
  pcie.toHost.bind(host.socket);
  dma.cardPort.socket.bind(dram.ports[0]);
}

} // namespace wf::cycle

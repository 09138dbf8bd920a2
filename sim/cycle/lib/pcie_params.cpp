#include "warpforge/cycle/pcie_params.h"

#include <bit>
#include <cstdio>

namespace wf::cycle {

double PcieParams::gigaTransfersPerLane() const {
  const isa::PcieGeneration *gen = isa::findPcieGeneration(generation);
  return gen ? gen->gtPerS : 0.0;
}

double PcieParams::linkBytesPerSecond() const {
  const isa::PcieGeneration *gen = isa::findPcieGeneration(generation);
  if (!gen)
    return 0.0;
  return gen->gtPerS * 1e9 * lanes * gen->encodingPayloadBits / gen->encodingLineBits / 8.0;
}

double PcieParams::writeThroughput() const {
  double tlp = maxPayloadBytes + requestHeaderBytes + framingBytes;
  return linkBytesPerSecond() * maxPayloadBytes / tlp;
}

double PcieParams::readThroughput() const {
  double tlp = completionBytes + completionHeaderBytes + framingBytes;
  return linkBytesPerSecond() * completionBytes / tlp;
}

std::optional<std::string> PcieParams::validate() const {
  if (!isa::findPcieGeneration(generation))
    return "PCIe '" + name + "': generation " + std::to_string(generation) +
           " is not in isa/config.toml's [pcie_gen]";
  if (lanes == 0 || lanes > 16 || !std::has_single_bit(lanes))
    return "PCIe '" + name + "': width must be x1, x2, x4, x8 or x16";
  auto sizeOk = [](unsigned v) { return v >= 64 && v <= 4096 && std::has_single_bit(v); };
  if (!sizeOk(maxPayloadBytes) || !sizeOk(maxReadRequestBytes) || !sizeOk(completionBytes))
    return "PCIe '" + name +
           "': payload, read request and completion sizes must be powers of "
           "two from 64 to 4096 bytes";
  if (completionBytes > maxPayloadBytes)
    return "PCIe '" + name + "': a completion cannot carry more than the max payload";
  if (linkLatencyNs < 0 || hostReadLatencyNs < 0)
    return "PCIe '" + name + "': latencies cannot be negative";
  return std::nullopt;
}

Result<PcieParams> PcieParams::fromPreset(const std::string &presetName) {
  unsigned gen = 0, width = 0;
  char tail = 0;
  PcieParams p;
  p.name = presetName;
  if (std::sscanf(presetName.c_str(), "gen%ux%u%c", &gen, &width, &tail) != 2)
    return Result<PcieParams>::fail("unknown PCIe preset '" + presetName +
                                    "' (expected gen<1..5>x<1|2|4|8|16>, e.g. gen3x16)");
  p.generation = gen;
  p.lanes = width;
  if (const isa::PcieGeneration *g = isa::findPcieGeneration(gen))
    p.framingBytes = g->framingBytes;
  if (auto why = p.validate())
    return Result<PcieParams>::fail(*why);
  return {p, {}};
}

} // namespace wf::cycle

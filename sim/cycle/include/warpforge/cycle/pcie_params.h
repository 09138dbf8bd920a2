// Parameters of the PCIe host link (gem5-style parameter struct), built from a preset name such
// as "gen3x16". The figures (lane rates, line encodings, TLP framing and headers, the link's
// sizes and placeholder latencies) come from isa/config.toml ([pcie_gen], [pcie_link]), which
// cites the PCI Express Base Specification for each.
#pragma once

#include "warpforge/cycle/dram_params.h" // Result
#include "warpforge/isa/config.gen.h"

#include <cstdint>
#include <string>

namespace wf::cycle {

struct PcieParams {
  std::string name;
  unsigned generation = 0; ///< a generation of [pcie_gen]; fromPreset fills it
  unsigned lanes = 0;      ///< 1, 2, 4, 8 or 16

  unsigned maxPayloadBytes =
      isa::kPcieLink.maxPayloadBytes; ///< MPS: payload of one write/completion
  unsigned maxReadRequestBytes = isa::kPcieLink.maxReadRequestBytes; ///< MRRS: one read request
  /// Bytes in one completion with data. Root complexes commonly answer a read in pieces of
  /// their read completion boundary; at most maxPayloadBytes.
  unsigned completionBytes = isa::kPcieLink.completionBytes;
  unsigned requestHeaderBytes = isa::kPcieLink.requestHeaderBytes;       ///< 4-DW: 64-bit address
  unsigned completionHeaderBytes = isa::kPcieLink.completionHeaderBytes; ///< 3-DW
  unsigned framingBytes = 0; ///< per TLP, of the generation (fromPreset fills it)

  /// One-way latency of a TLP after its last byte is sent: both ends' PHY, data link and
  /// transaction layers. Not a specification value; calibrate against a board.
  double linkLatencyNs = isa::kPcieLink.linkLatencyNs;
  /// The root complex and host memory answering a read request. Not a specification value.
  double hostReadLatencyNs = isa::kPcieLink.hostReadLatencyNs;

  /// Raw transfer rate of one lane in GT/s (0: unknown generation).
  double gigaTransfersPerLane() const;
  /// Bytes per second one direction carries after line encoding, TLP overhead not
  /// taken off. Ordered sets (SKP) and DLLPs (ACK, flow-control updates) are not modelled.
  double linkBytesPerSecond() const;
  /// Payload bytes per second of a stream of memory writes of maxPayloadBytes (card to host).
  double writeThroughput() const;
  /// Payload bytes per second of completions of completionBytes (host to card reads).
  double readThroughput() const;

  std::optional<std::string> validate() const;
  /// "gen<1..5>x<1|2|4|8|16>", e.g. "gen3x16" (Alveo U250/U280), "gen4x8" (U55C's x16 slot
  /// runs as two x8 Gen4 links). Unknown names are errors.
  static Result<PcieParams> fromPreset(const std::string &presetName);
};

} // namespace wf::cycle

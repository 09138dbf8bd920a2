// Parameters of the PCIe host link (gem5-style parameter struct), built from a preset name such
// as "gen3x16". Figures from the PCI Express Base Specification (3.0, 4.0, 5.0): lane rates of
// 8, 16 and 32 GT/s with 128b/130b encoding; TLP framing of Gen3 and later (a 4-byte STP token,
// which carries the sequence number, and a 4-byte LCRC); 3-DW and 4-DW headers.
#pragma once

#include "warpforge/cycle/dram_params.h" // Result

#include <cstdint>
#include <string>

namespace wf::cycle {

struct PcieParams {
  std::string name;
  unsigned generation = 3; ///< 3, 4 or 5
  unsigned lanes = 16;     ///< 1, 2, 4, 8 or 16

  unsigned maxPayloadBytes = 256;     ///< MPS: payload of one memory write or completion
  unsigned maxReadRequestBytes = 512; ///< MRRS: bytes one memory read request asks for
  /// Bytes in one completion with data. Root complexes commonly answer a read in pieces of
  /// their read completion boundary (64 bytes); at most maxPayloadBytes.
  unsigned completionBytes = 64;
  unsigned requestHeaderBytes = 16;    ///< 4-DW header: memory read/write with a 64-bit address
  unsigned completionHeaderBytes = 12; ///< 3-DW completion header
  unsigned framingBytes = 8;           ///< STP token (4, with the sequence number) + LCRC (4)

  /// One-way latency of a TLP after its last byte is sent: both ends' PHY, data link and
  /// transaction layers. Not a specification value; calibrate against a board.
  double linkLatencyNs = 250.0;
  /// The root complex and host memory answering a read request. Not a specification value.
  double hostReadLatencyNs = 250.0;

  /// Raw transfer rate of one lane in GT/s.
  double gigaTransfersPerLane() const;
  /// Bytes per second one direction carries after line encoding (128b/130b), TLP overhead not
  /// taken off. Ordered sets (SKP) and DLLPs (ACK, flow-control updates) are not modelled.
  double linkBytesPerSecond() const;
  /// Payload bytes per second of a stream of memory writes of maxPayloadBytes (card to host).
  double writeThroughput() const;
  /// Payload bytes per second of completions of completionBytes (host to card reads).
  double readThroughput() const;

  std::optional<std::string> validate() const;
  /// "gen<3|4|5>x<1|2|4|8|16>", e.g. "gen3x16" (Alveo U250/U280), "gen4x8" (U55C's x16 slot
  /// runs as two x8 Gen4 links). Unknown names are errors.
  static Result<PcieParams> fromPreset(const std::string &presetName);
};

} // namespace wf::cycle

// Parameters of the DRAM timing model (gem5-style parameter struct), built from a preset name.
//
// Timing values are in DRAM clock cycles (nCK, one tCK each); the data bus transfers twice per
// clock, so one burst of `burstLength` beats takes burstLength / 2 clocks (tBURST).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace wf::cycle {

/// A value or the reason there is none (errors as values).
template <typename T> struct Result {
  std::optional<T> value;
  std::string error;
  explicit operator bool() const { return value.has_value(); }
  static Result fail(std::string why) { return {std::nullopt, std::move(why)}; }
};

/// How the controller picks the next request (docs/cycle-model.md states both exactly).
enum class DramSchedulerPolicy : uint8_t {
  FrFcfs, ///< first ready: the burst whose data can start first; ties to row hits, then oldest
  Fcfs,   ///< the oldest request
};

struct DramParams {
  std::string name;

  // Organization. Every count is a power of two. Zero until a preset fills them: the device
  // figures live in isa/config.toml ([dram_timing], [dram_board]).
  unsigned channels = 0;      ///< independent channels (HBM2: pseudo-channels), each its own bus
  unsigned ranks = 0;         ///< ranks per channel, sharing the channel's buses
  unsigned bankGroups = 0;    ///< bank groups per rank
  unsigned banksPerGroup = 0; ///< banks per bank group
  uint64_t rows = 0;          ///< rows per bank
  unsigned burstsPerRow = 0;  ///< column bursts in one row (the page size / burst bytes)
  unsigned busBytes = 0;      ///< data bus width of one channel in bytes
  unsigned burstLength = 0;   ///< beats per burst (BL)
  /// Bytes of consecutive addresses in one channel before the next channel (a multiple of the
  /// burst, at most a row): the burst size spreads a stream widest, a cache line keeps each
  /// line in one channel (channel = line index mod channels).
  unsigned channelInterleaveBytes = 0;

  // Clock.
  uint32_t tCKps = 0; ///< DRAM clock period in picoseconds (data rate = 2 / tCK)

  // Timing in clocks.
  unsigned tRCD = 0;   ///< ACT to column command, same bank
  unsigned tCL = 0;    ///< READ to first data (CAS latency)
  unsigned tCWL = 0;   ///< WRITE to first data
  unsigned tRP = 0;    ///< PRE to ACT, same bank
  unsigned tRAS = 0;   ///< ACT to PRE, same bank
  unsigned tRRD_S = 0; ///< ACT to ACT, same rank, other bank group
  unsigned tRRD_L = 0; ///< ACT to ACT, same rank, same bank group
  unsigned tFAW = 0;   ///< window holding at most four ACTs of one rank
  unsigned tCCD_S = 0; ///< column to column, other bank group
  unsigned tCCD_L = 0; ///< column to column, same bank group
  unsigned tWR = 0;    ///< end of write data to PRE, same bank
  unsigned tWTR_S = 0; ///< end of write data to READ, same rank, other bank group
  unsigned tWTR_L = 0; ///< end of write data to READ, same rank, same bank group
  unsigned tRTP = 0;   ///< READ to PRE, same bank
  unsigned tRTW = 0;   ///< idle bus clocks between read data and write data (bus turnaround)
  unsigned tRTRS = 0;  ///< idle bus clocks when consecutive data bursts come from different ranks
  unsigned tREFI = 0;  ///< average interval between REFRESH commands of one rank
  unsigned tRFC = 0;   ///< REFRESH to ACT (the rank is busy)

  // Controller.
  DramSchedulerPolicy policy = DramSchedulerPolicy::FrFcfs;
  unsigned queueDepth = 32; ///< bursts waiting for a scheduling decision, per channel

  // Derived.
  unsigned tBURST() const { return burstLength / 2; }
  unsigned burstBytes() const { return busBytes * burstLength; }
  uint64_t rowBytes() const { return uint64_t(burstsPerRow) * burstBytes(); }
  unsigned banksPerRank() const { return bankGroups * banksPerGroup; }
  uint64_t capacityBytes() const {
    return uint64_t(channels) * ranks * banksPerRank() * rows * rowBytes();
  }
  /// Peak data rate of all channels together, bytes per second (two beats per clock).
  double peakBytesPerSecond() const {
    return double(channels) * busBytes * 2.0 * 1e12 / double(tCKps);
  }

  /// Checks the invariants above (powers of two, nonzero timings, tRAS >= tRCD, ...).
  std::optional<std::string> validate() const;

  /// A preset by name: "ddr4-2400" (one DDR4-2400 x64 RDIMM channel, as on the Alveo U250/U280),
  /// "hbm2-u55c", "hbm2-u280" (the HBM2 stacks as 32 pseudo-channels). Unknown names are errors.
  static Result<DramParams> fromPreset(const std::string &presetName);
  static std::vector<std::string> presetNames();
  /// A device ("ddr4" or "hbm2") at a data rate in MT/s, with `channels` channels of `busBits`
  /// each, holding at least `minCapacityBytes`: what a named configuration (isa/config.toml)
  /// selects. Timings in nanoseconds are rounded to the clock of that data rate.
  static Result<DramParams> fromDevice(const std::string &device, unsigned mts, unsigned busBits,
                                       unsigned channels, uint64_t minCapacityBytes);
};

/// Where one burst lives. The mapping, from the least significant address bit up: byte in burst,
/// burst within the channel interleave (low column bits), channel, bank group, the rest of the
/// column, bank, row, rank (docs/cycle-model.md explains the choice).
struct DramCoordinates {
  unsigned channel = 0, rank = 0, bankGroup = 0, bank = 0; ///< bank: within its bank group
  uint64_t row = 0;
  unsigned column = 0; ///< burst index within the row
  unsigned flatBank(const DramParams &p) const { return bankGroup * p.banksPerGroup + bank; }
};

DramCoordinates decodeAddress(const DramParams &p, uint64_t address);
/// The inverse of decodeAddress for the first byte of the burst.
uint64_t encodeAddress(const DramParams &p, const DramCoordinates &c);

} // namespace wf::cycle

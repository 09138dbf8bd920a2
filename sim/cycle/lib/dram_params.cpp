#include "warpforge/cycle/dram_params.h"

#include "warpforge/isa/config.gen.h"

#include <algorithm>
#include <bit>

namespace wf::cycle {

namespace {

bool isPow2(uint64_t v) { return v != 0 && std::has_single_bit(v); }
unsigned log2u(uint64_t v) { return unsigned(std::countr_zero(v)); }

/// Nanoseconds to whole clocks by JEDEC's rounding algorithm (JESD79-4, "rounding algorithms"):
/// truncate(t / tCK + 0.974), so a minimum never gets shorter by more than the 2.5% guard band.
unsigned clocks(double ns, uint32_t tCKps) {
  uint64_t ps = uint64_t(ns * 1000.0 + 0.5);
  return unsigned((ps * 1000 / tCKps + 974) / 1000);
}

/// max(n clocks, t ns), the form JEDEC gives most DDR4 minimums in.
unsigned clocksAtLeast(unsigned n, double ns, uint32_t tCKps) {
  unsigned c = clocks(ns, tCKps);
  return c > n ? c : n;
}

/// DRAM clock period in whole picoseconds for a data rate in MT/s (two transfers a clock).
uint32_t clockPeriodPs(unsigned mts) { return uint32_t(2000000u / mts); }

/// Write latency in clocks: from nanoseconds, or by speed bin where the device gives none.
unsigned writeLatency(const isa::DramTiming &t, unsigned mts, uint32_t tCKps) {
  if (t.tcwlNs > 0.0)
    return clocks(t.tcwlNs, tCKps);
  unsigned cwl = 0; // the highest bin's where mts is above every bin
  for (const isa::DramSpeedBinClocks &bin : t.tcwlCkByMts) {
    if (bin.maxMts == 0)
      break;
    cwl = bin.clocks;
    if (mts <= bin.maxMts)
      break;
  }
  return cwl;
}

// A device's channel at `mts` MT/s from its generated table (isa/config.toml [dram_timing], where
// the datasheet sources are): `busBits / deviceBits` devices make the rank, so the row is that
// many pages; rows = 0 sizes the rows to hold `minCapacityBytes`.
DramParams fromTiming(const isa::DramTiming &t, std::string name, unsigned mts, unsigned busBits,
                      unsigned channels, uint64_t minCapacityBytes) {
  DramParams p;
  p.name = std::move(name);
  p.channels = channels;
  p.ranks = t.ranks;
  p.bankGroups = t.bankGroups;
  p.banksPerGroup = t.banksPerGroup;
  p.busBytes = busBits / 8;
  p.burstLength = t.burstLength;
  p.burstsPerRow = unsigned(uint64_t(t.pageBytes) * (busBits / t.deviceBits) / p.burstBytes());
  p.channelInterleaveBytes = p.burstBytes();
  p.rows = t.rows != 0 ? t.rows
                       : std::bit_ceil(std::max<uint64_t>(
                             1, minCapacityBytes / (uint64_t(p.channels) * p.ranks *
                                                    p.banksPerRank() * p.rowBytes())));
  p.tCKps = clockPeriodPs(mts);
  const uint32_t ck = p.tCKps;
  p.tRCD = clocks(t.trcdNs, ck);
  p.tCL = clocks(t.tclNs, ck);
  p.tRP = clocks(t.trpNs, ck);
  p.tCWL = writeLatency(t, mts, ck);
  p.tRAS = clocks(t.trasNs, ck);
  p.tRRD_S = clocksAtLeast(t.trrdSMinCk, t.trrdSNs, ck);
  p.tRRD_L = clocksAtLeast(t.trrdLMinCk, t.trrdLNs, ck);
  p.tFAW = clocksAtLeast(t.tfawMinCk, t.tfawNs, ck);
  p.tCCD_S = clocksAtLeast(t.tccdSMinCk, t.tccdSNs, ck);
  p.tCCD_L = clocksAtLeast(t.tccdLMinCk, t.tccdLNs, ck);
  p.tWR = clocksAtLeast(t.twrMinCk, t.twrNs, ck);
  p.tWTR_S = clocksAtLeast(t.twtrSMinCk, t.twtrSNs, ck);
  p.tWTR_L = clocksAtLeast(t.twtrLMinCk, t.twtrLNs, ck);
  p.tRTP = clocksAtLeast(t.trtpMinCk, t.trtpNs, ck);
  p.tRTW = t.trtwMinCk;
  p.tRTRS = t.trtrsMinCk;
  p.tREFI = unsigned(t.trefiNs * 1000.0 / ck); // an average interval: rounded down, never late
  p.tRFC = clocks(t.trfcNs, ck);
  return p;
}

} // namespace

std::vector<std::string> DramParams::presetNames() {
  std::vector<std::string> names;
  for (const isa::DramBoard &b : isa::kDramBoards)
    names.emplace_back(b.name);
  return names;
}

Result<DramParams> DramParams::fromPreset(const std::string &presetName) {
  const isa::DramBoard *board = isa::findDramBoard(presetName);
  if (!board) {
    std::string known;
    for (const std::string &n : presetNames())
      known += (known.empty() ? "" : ", ") + n;
    return Result<DramParams>::fail("unknown DRAM preset '" + presetName + "' (known: " + known +
                                    ")");
  }
  Result<DramParams> r =
      fromDevice(std::string(isa::name(board->device)), board->mts, board->busBits, board->channels,
                 uint64_t(board->capacityMib) << 20);
  if (r)
    r.value->name = presetName;
  return r;
}

Result<DramParams> DramParams::fromDevice(const std::string &device, unsigned mts, unsigned busBits,
                                          unsigned channels, uint64_t minCapacityBytes) {
  if (mts < 200 || mts > 6400)
    return Result<DramParams>::fail("DRAM data rate " + std::to_string(mts) +
                                    " MT/s is outside 200..6400");
  const isa::DramTiming *timing = nullptr;
  std::string known;
  for (const isa::DramTiming &t : isa::kDramTimings) {
    if (isa::name(t.preset) == device)
      timing = &t;
    known += (known.empty() ? "" : ", ") + std::string(isa::name(t.preset));
  }
  if (!timing)
    return Result<DramParams>::fail("unknown DRAM device '" + device + "' (known: " + known + ")");
  if (busBits % timing->deviceBits != 0 || !isPow2(busBits / timing->deviceBits) || busBits > 64)
    return Result<DramParams>::fail(device + ": the bus width must be a power-of-two multiple of " +
                                    std::to_string(timing->deviceBits) +
                                    "-bit devices, at most 64 bits");
  DramParams p = fromTiming(*timing, device + "-" + std::to_string(mts), mts, busBits, channels,
                            minCapacityBytes);
  if (auto why = p.validate())
    return Result<DramParams>::fail(*why);
  if (p.capacityBytes() < minCapacityBytes)
    return Result<DramParams>::fail("DRAM '" + p.name + "' holds " +
                                    std::to_string(p.capacityBytes() >> 20) + " MiB, less than " +
                                    std::to_string(minCapacityBytes >> 20) + " MiB");
  return {p, {}};
}

std::optional<std::string> DramParams::validate() const {
  if (!isPow2(channels) || !isPow2(ranks) || !isPow2(bankGroups) || !isPow2(banksPerGroup) ||
      !isPow2(rows) || !isPow2(burstsPerRow) || !isPow2(busBytes) || !isPow2(burstLength))
    return "DRAM '" + name + "': organization counts must be powers of two";
  if (!isPow2(channelInterleaveBytes) || channelInterleaveBytes < burstBytes() ||
      channelInterleaveBytes > rowBytes())
    return "DRAM '" + name +
           "': the channel interleave must be a power of two from one burst "
           "to one row";
  if (burstLength < 2)
    return "DRAM '" + name + "': burst length must be at least 2 beats";
  if (tCKps == 0 || tRCD == 0 || tCL == 0 || tRP == 0 || tRAS == 0 || tCCD_S == 0 || tCCD_L == 0 ||
      tREFI == 0 || tRFC == 0)
    return "DRAM '" + name + "': a core timing parameter is zero";
  if (tRAS < tRCD)
    return "DRAM '" + name + "': tRAS must cover tRCD";
  if (tRFC >= tREFI)
    return "DRAM '" + name + "': tRFC must be shorter than tREFI";
  if (queueDepth == 0)
    return "DRAM '" + name + "': the queue needs at least one entry";
  return std::nullopt;
}

DramCoordinates decodeAddress(const DramParams &p, uint64_t address) {
  const uint64_t lowColumns = p.channelInterleaveBytes / p.burstBytes();
  DramCoordinates c;
  uint64_t a = address >> log2u(p.burstBytes());
  auto take = [&a](uint64_t count) {
    uint64_t v = a & (count - 1);
    a >>= log2u(count);
    return v;
  };
  uint64_t low = take(lowColumns);
  c.channel = unsigned(take(p.channels));
  c.bankGroup = unsigned(take(p.bankGroups));
  c.column = unsigned(take(p.burstsPerRow / lowColumns) * lowColumns + low);
  c.bank = unsigned(take(p.banksPerGroup));
  c.row = take(p.rows);
  c.rank = unsigned(take(p.ranks));
  return c;
}

uint64_t encodeAddress(const DramParams &p, const DramCoordinates &c) {
  const uint64_t lowColumns = p.channelInterleaveBytes / p.burstBytes();
  uint64_t a = c.rank;
  auto put = [&a](uint64_t count, uint64_t v) { a = (a << log2u(count)) | (v & (count - 1)); };
  put(p.rows, c.row);
  put(p.banksPerGroup, c.bank);
  put(p.burstsPerRow / lowColumns, c.column / lowColumns);
  put(p.bankGroups, c.bankGroup);
  put(p.channels, c.channel);
  put(lowColumns, c.column % lowColumns);
  return a << log2u(p.burstBytes());
}

} // namespace wf::cycle

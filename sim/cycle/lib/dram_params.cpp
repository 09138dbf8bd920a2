#include "warpforge/cycle/dram_params.h"

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

// DDR4 of 8 Gb x8 devices, 2 ranks, at `mts` MT/s. Values from JEDEC JESD79-4B (DDR4 SDRAM):
// tAA = tRCD = tRP = 13.32 ns (speed bin DDR4-2400R, 16-16-16; the same nanoseconds give
// 18-18-18 at 2666), CWL by speed bin (1 tCK write preamble), the timing-parameters-by-speed-bin
// table for 1 KB pages (x8) in its max(nCK, ns) form, and tRFC1/tREFI for 8 Gb at normal
// temperature. A x8 device has 4 bank groups of 4 banks, 65536 rows and a 1 KB page; busBits / 8
// devices make the rank (64 bits: eight devices, an 8 KB rank row, 16 GiB in two ranks). BL8.
DramParams ddr4(std::string name, unsigned mts, unsigned busBits) {
  DramParams p;
  p.name = std::move(name);
  p.channels = 1;
  p.ranks = 2;
  p.bankGroups = 4;
  p.banksPerGroup = 4;
  p.rows = 65536;
  p.busBytes = busBits / 8;
  p.burstLength = 8;
  p.burstsPerRow = 1024 * (busBits / 8) / p.burstBytes();
  p.channelInterleaveBytes = p.burstBytes();
  p.tCKps = clockPeriodPs(mts); // 833 ps at 2400
  const uint32_t ck = p.tCKps;
  p.tCL = clocks(13.32, ck);
  p.tRCD = clocks(13.32, ck);
  p.tRP = clocks(13.32, ck);
  p.tCWL = mts <= 1600   ? 9
           : mts <= 1866 ? 10
           : mts <= 2133 ? 11
           : mts <= 2400 ? 12
           : mts <= 2666 ? 14
                         : 16;
  p.tRAS = clocks(32.0, ck);            // 32 ns
  p.tRRD_S = clocksAtLeast(4, 3.3, ck); // 1 KB page
  p.tRRD_L = clocksAtLeast(4, 4.9, ck);
  p.tFAW = clocksAtLeast(20, 21.0, ck); // 1 KB page
  p.tCCD_S = 4;
  p.tCCD_L = clocksAtLeast(5, 5.0, ck);
  p.tWR = clocks(15.0, ck);
  p.tWTR_S = clocksAtLeast(2, 2.5, ck);
  p.tWTR_L = clocksAtLeast(4, 7.5, ck);
  p.tRTP = clocksAtLeast(4, 7.5, ck);
  p.tRTW = 2;
  p.tRTRS = 1;
  p.tREFI = unsigned(7800.0 * 1000.0 / ck); // 7.8 us, rounded down: refresh is never late
  p.tRFC = clocks(350.0, ck);               // tRFC1, 8 Gb
  return p;
}

// HBM2 in pseudo-channel mode (JEDEC JESD235A): each 128-bit channel splits into two 64-bit
// pseudo-channels with their own banks, BL4 (32 bytes a burst), a 1 KB page, 16 banks in 4 bank
// groups. The Alveo U55C and U280 run their stacks at 900 MHz (1.8 Gb/s a pin), 2 stacks x 8
// channels x 2 = 32 pseudo-channels, 460.8 GB/s (Xilinx PG276, AXI HBM controller). The core
// timings are those of 8 Gb HBM2 dies in JESD235A's timing table in nanoseconds, rounded up to
// whole clocks (at 900 MHz: RL 14, WL 7); a given vendor's die may be a clock or two faster.
DramParams hbm2(std::string name, unsigned mts, unsigned channels, uint64_t totalBytes) {
  DramParams p;
  p.name = std::move(name);
  p.channels = channels;
  p.ranks = 1;
  p.bankGroups = 4;
  p.banksPerGroup = 4;
  p.busBytes = 8;
  p.burstLength = 4;
  p.burstsPerRow = 1024 / p.burstBytes();
  p.channelInterleaveBytes = p.burstBytes();
  p.rows = std::bit_ceil(
      std::max<uint64_t>(1, totalBytes / (uint64_t(p.channels) * p.banksPerRank() * p.rowBytes())));
  p.tCKps = clockPeriodPs(mts); // 1111 ps at 1800
  const uint32_t ck = p.tCKps;
  p.tRCD = clocks(14.0, ck);
  p.tRP = clocks(14.0, ck);
  p.tCL = clocks(15.5, ck); // read latency
  p.tCWL = clocks(7.7, ck); // write latency
  p.tRAS = clocks(33.0, ck);
  p.tRRD_S = clocks(4.0, ck);
  p.tRRD_L = clocks(6.0, ck);
  p.tFAW = clocks(30.0, ck);
  p.tCCD_S = 2; // back-to-back BL4 bursts
  p.tCCD_L = 4;
  p.tWR = clocks(16.0, ck);
  p.tWTR_S = clocks(2.5, ck);
  p.tWTR_L = clocks(7.5, ck);
  p.tRTP = clocks(7.5, ck);
  p.tRTW = 2;
  p.tRTRS = 1;
  p.tREFI = unsigned(3900.0 * 1000.0 / ck); // 3.9 us
  p.tRFC = clocks(350.0, ck);               // 8 Gb die, all-bank refresh
  return p;
}

} // namespace

std::vector<std::string> DramParams::presetNames() {
  return {"ddr4-2400", "hbm2-u55c", "hbm2-u280"};
}

Result<DramParams> DramParams::fromPreset(const std::string &presetName) {
  DramParams p;
  if (presetName == "ddr4-2400")
    p = ddr4("ddr4-2400", 2400, 64);
  else if (presetName == "hbm2-u55c")
    p = hbm2("hbm2-u55c", 1800, 32, 16ull << 30);
  else if (presetName == "hbm2-u280")
    p = hbm2("hbm2-u280", 1800, 32, 8ull << 30);
  else {
    std::string known;
    for (const std::string &n : presetNames())
      known += (known.empty() ? "" : ", ") + n;
    return Result<DramParams>::fail("unknown DRAM preset '" + presetName + "' (known: " + known +
                                    ")");
  }
  if (auto why = p.validate())
    return Result<DramParams>::fail(*why);
  return {p, {}};
}

Result<DramParams> DramParams::fromDevice(const std::string &device, unsigned mts, unsigned busBits,
                                          unsigned channels, uint64_t minCapacityBytes) {
  if (mts < 200 || mts > 6400)
    return Result<DramParams>::fail("DRAM data rate " + std::to_string(mts) +
                                    " MT/s is outside 200..6400");
  DramParams p;
  if (device == "ddr4") {
    if (busBits % 8 != 0 || !isPow2(busBits / 8) || busBits > 64)
      return Result<DramParams>::fail("DDR4: bus width must be 8, 16, 32 or 64 bits (x8 devices)");
    p = ddr4("ddr4-" + std::to_string(mts), mts, busBits);
    p.channels = channels;
  } else if (device == "hbm2") {
    if (busBits != 64)
      return Result<DramParams>::fail("HBM2: only 64-bit pseudo-channels are modelled");
    p = hbm2("hbm2-" + std::to_string(mts), mts, channels, minCapacityBytes);
  } else {
    return Result<DramParams>::fail("unknown DRAM device '" + device + "' (known: ddr4, hbm2)");
  }
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

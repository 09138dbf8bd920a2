//===- axi_test.cpp - The RTL device's AXI and DRAM models ----------------===//
//
// The fixed DRAM model's arithmetic against its definition (docs/microarchitecture.md), and the
// AXI4 slave model driven by a small AXI master in the test, over plain variables laid out the way
// Verilator lays out ports.
//
//===----------------------------------------------------------------------===//

#include "warpforge/rtl/axi.h"
#include "warpforge/rtl/fixed_dram.h"

#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <map>

namespace wf::rtl {
namespace {

TEST(RtlFixedDram, ParametersFromEveryConfiguration) {
  for (const isa::Config &c : isa::kConfigs) {
    FixedDramParams p = FixedDramParams::fromConfig(c);
    // ceil(latency_ns x MHz / 1000): the smallest cycle count whose time covers the latency.
    EXPECT_GE(p.latencyCycles * 1000, uint64_t(c.dramLatencyNs) * c.clockMhz) << c.name;
    EXPECT_LT((p.latencyCycles - 1) * 1000, uint64_t(c.dramLatencyNs) * c.clockMhz) << c.name;
    // Bytes a cycle = credit / cost x line: the channel's peak rate at the core clock.
    double bytesPerCycle = double(p.creditPerCycle) / double(p.lineCost) * c.cacheLineBytes;
    EXPECT_DOUBLE_EQ(bytesPerCycle, double(c.dramMts) * c.dramBusBits / 8 / c.clockMhz) << c.name;
  }
}

TEST(RtlFixedDram, LatencyBandwidthAndIdleCap) {
  FixedDramParams p{10, 3, 8}; // 3/8 of a line a cycle
  FixedDramChannel ch(p);
  // An idle channel holds one line's credit: the first line is served at once.
  EXPECT_EQ(ch.request(0), 0u + 10);
  // The next ones wait for credit: 8 more units at 3 a cycle (leftovers carry over).
  EXPECT_EQ(ch.request(0), 3u + 10);
  EXPECT_EQ(ch.request(0), 6u + 10);
  EXPECT_EQ(ch.request(0), 8u + 10);
  // Long after: the credit stopped at one line, so one line goes at once and the next waits.
  EXPECT_EQ(ch.request(1000), 1000u + 10);
  EXPECT_EQ(ch.request(1000), 1003u + 10);

  // A long stream runs at the rate: n lines need n x cost credit, one line's worth at the start.
  FixedDramChannel stream(p);
  uint64_t last = 0;
  const uint64_t n = 800;
  for (uint64_t i = 0; i < n; ++i)
    last = stream.request(0);
  uint64_t needed = (n - 1) * p.lineCost;
  EXPECT_EQ(last, (needed + p.creditPerCycle - 1) / p.creditPerCycle + p.latencyCycles);
}

TEST(RtlFixedDram, FastChannelServesSeveralLinesACycle) {
  FixedDramParams p{5, 20, 8}; // 2.5 lines a cycle
  FixedDramChannel ch(p);
  // 20 units a cycle, 8 a line: cycle 0 serves the line the idle credit covers, cycle 1 two
  // (20 units, 4 left over), cycle 2 three (24 units).
  EXPECT_EQ(ch.request(0), 0u + 5);
  EXPECT_EQ(ch.request(0), 1u + 5);
  EXPECT_EQ(ch.request(0), 1u + 5);
  EXPECT_EQ(ch.request(1), 2u + 5);
  EXPECT_EQ(ch.request(2), 2u + 5);
  EXPECT_EQ(ch.request(2), 2u + 5);
  EXPECT_EQ(ch.request(2), 3u + 5);
}

/// Memory and timing for the slave: a map of bytes, a fixed delay per beat.
class MapBackend final : public MemoryBackend {
public:
  bool read(uint64_t a, void *dst, uint64_t n) override {
    if (a + n > limit)
      return false;
    for (uint64_t i = 0; i < n; ++i)
      static_cast<uint8_t *>(dst)[i] = bytes[a + i];
    return true;
  }
  bool write(uint64_t a, const void *src, uint64_t n) override {
    if (a + n > limit)
      return false;
    for (uint64_t i = 0; i < n; ++i)
      bytes[a + i] = static_cast<const uint8_t *>(src)[i];
    return true;
  }
  uint64_t readyCycle(bool, uint64_t, uint64_t cycle) override { return cycle + delay; }
  std::map<uint64_t, uint8_t> bytes;
  uint64_t delay = 4, limit = 1 << 20;
};

/// One AXI4 port of 16-byte data as Verilator would store it, and the master side of a test.
struct Port {
  uint8_t awvalid = 0, awready = 0, awid = 0, awlen = 0, awsize = 0, awburst = 0;
  uint64_t awaddr = 0;
  uint8_t wvalid = 0, wready = 0, wlast = 0;
  std::array<uint32_t, 4> wdata{};
  uint16_t wstrb = 0;
  uint8_t bvalid = 0, bready = 0, bid = 0, bresp = 0;
  uint8_t arvalid = 0, arready = 0, arid = 0, arlen = 0, arsize = 0, arburst = 0;
  uint64_t araddr = 0;
  uint8_t rvalid = 0, rready = 0, rid = 0, rresp = 0, rlast = 0;
  std::array<uint32_t, 4> rdata{};

  Axi4Pins pins() {
    return Axi4Pins{Pin(awvalid, 1), Pin(awready, 1), Pin(awid, 4),    Pin(awaddr, 64),
                    Pin(awlen, 8),   Pin(awsize, 3),  Pin(awburst, 2), Pin(wvalid, 1),
                    Pin(wready, 1),  Pin(wdata, 128), Pin(wstrb, 16),  Pin(wlast, 1),
                    Pin(bvalid, 1),  Pin(bready, 1),  Pin(bid, 4),     Pin(bresp, 2),
                    Pin(arvalid, 1), Pin(arready, 1), Pin(arid, 4),    Pin(araddr, 64),
                    Pin(arlen, 8),   Pin(arsize, 3),  Pin(arburst, 2), Pin(rvalid, 1),
                    Pin(rready, 1),  Pin(rid, 4),     Pin(rdata, 128), Pin(rresp, 2),
                    Pin(rlast, 1)};
  }
};

struct Bench {
  Port port;
  MapBackend mem;
  AxiSlave slave{port.pins(), 0, mem};
  uint64_t cycle = 0;

  /// One cycle: both sides drive their outputs, then both see the handshakes that transfer at
  /// the coming edge.
  template <class Drive, class Observe> void step(Drive &&drive, Observe &&observe) {
    slave.drive(cycle);
    drive();
    slave.sample(cycle);
    observe(cycle);
    ++cycle;
  }
};

TEST(RtlAxiSlave, BurstWriteWithStrobesThenReadBackInOrder) {
  Bench b;
  // AW: 2 beats of 16 bytes at 0x100, id 3; W: beat 0 all bytes, beat 1 only bytes 4..7.
  unsigned wSent = 0;
  bool awSent = false, gotB = false;
  uint64_t bCycle = 0, wDoneCycle = 0;
  while (!gotB && b.cycle < 100) {
    Port &p = b.port;
    b.step(
        [&] {
          p.awvalid = !awSent;
          p.awid = 3, p.awaddr = 0x100, p.awlen = 1, p.awsize = 4, p.awburst = 1;
          p.wvalid = wSent < 2;
          for (unsigned i = 0; i < 4; ++i)
            p.wdata[i] = 0x11111111u * (wSent + 1) + i;
          p.wstrb = wSent == 0 ? 0xffff : 0x00f0;
          p.wlast = wSent == 1;
          p.bready = 1;
        },
        [&](uint64_t c) {
          if (p.awvalid && p.awready)
            awSent = true;
          if (p.wvalid && p.wready && ++wSent == 2)
            wDoneCycle = c;
          if (p.bvalid && p.bready) {
            gotB = true;
            bCycle = c;
            EXPECT_EQ(p.bid, 3);
            EXPECT_EQ(p.bresp, kAxiOkay);
          }
        });
  }
  ASSERT_TRUE(gotB);
  // The response goes out the backend's delay after the last data beat (sampled in drive()).
  EXPECT_GE(bCycle, wDoneCycle + b.mem.delay);
  for (unsigned i = 0; i < 16; ++i)
    EXPECT_EQ(b.mem.bytes[0x100 + i], uint8_t((0x11111111u + i / 4) >> (8 * (i % 4))));
  for (unsigned i = 0; i < 16; ++i)
    EXPECT_EQ(b.mem.bytes.count(0x110 + i), i >= 4 && i < 8 ? 1u : 0u) << i;

  // Read both beats back, then one 4-byte narrow read at 0x104 (lanes 4..7 only).
  std::vector<std::array<uint32_t, 4>> beats;
  std::vector<uint8_t> ids;
  unsigned arSent = 0;
  while (beats.size() < 3 && b.cycle < 200) {
    Port &p = b.port;
    b.step(
        [&] {
          p.arvalid = arSent < 2;
          p.arid = arSent == 0 ? 5 : 6;
          p.araddr = arSent == 0 ? 0x100 : 0x104;
          p.arlen = arSent == 0 ? 1 : 0;
          p.arsize = arSent == 0 ? 4 : 2;
          p.arburst = 1;
          p.rready = 1;
        },
        [&](uint64_t) {
          if (p.arvalid && p.arready)
            ++arSent;
          if (p.rvalid && p.rready) {
            beats.push_back(p.rdata);
            ids.push_back(p.rid);
            EXPECT_EQ(p.rlast, beats.size() != 1);
          }
        });
  }
  ASSERT_EQ(beats.size(), 3u);
  EXPECT_EQ(ids, (std::vector<uint8_t>{5, 5, 6}));
  EXPECT_EQ(beats[0][0], 0x11111111u);
  EXPECT_EQ(beats[0][3], 0x11111114u);
  EXPECT_EQ(beats[1][1], 0x22222223u); // the strobed lanes of beat 1
  EXPECT_EQ(beats[1][0], 0u);          // never written: zero
  EXPECT_EQ(beats[2][1], 0x11111112u); // the narrow read, on its own byte lanes
  EXPECT_EQ(beats[2][0], 0u);
  EXPECT_EQ(b.slave.errors(), 0u);
  EXPECT_TRUE(b.slave.idle());
}

TEST(RtlAxiSlave, AccessOutsideTheBackendIsASlaveError) {
  Bench b;
  b.mem.limit = 0x100;
  bool sent = false, got = false;
  while (!got && b.cycle < 50) {
    Port &p = b.port;
    b.step(
        [&] {
          p.arvalid = !sent;
          p.araddr = 0x100, p.arlen = 0, p.arsize = 4, p.arburst = 1;
          p.rready = 1;
        },
        [&](uint64_t) {
          if (p.arvalid && p.arready)
            sent = true;
          if (p.rvalid && p.rready) {
            got = true;
            EXPECT_EQ(p.rresp, kAxiSlvErr);
          }
        });
  }
  EXPECT_TRUE(got);
  EXPECT_EQ(b.slave.errors(), 1u);
}

} // namespace
} // namespace wf::rtl

// PCIe host link and DMA engine: presets, the latency of one read through the endpoint, and DMA
// throughput for a given generation and width against the figure computed from the line rate,
// 128b/130b encoding and the TLP overheads.
#include "warpforge/cycle/platform.h"

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <sstream>

namespace wf::cycle {
namespace {

using namespace sc_core;

TEST(PciePreset, LineRatesAndErrors) {
  Result<PcieParams> g3 = PcieParams::fromPreset("gen3x16");
  ASSERT_TRUE(g3) << g3.error;
  // 8 GT/s x 16 lanes x 128/130 / 8 bits = 15.754 GB/s each way.
  EXPECT_NEAR(g3.value->linkBytesPerSecond() / 1e9, 15.754, 0.001);
  Result<PcieParams> g5 = PcieParams::fromPreset("gen5x4");
  ASSERT_TRUE(g5) << g5.error;
  EXPECT_NEAR(g5.value->linkBytesPerSecond() / 1e9, 15.754, 0.001);
  for (const char *bad : {"gen6x16", "gen3x3", "gen3x32", "pcie", "gen3x16x"}) {
    Result<PcieParams> r = PcieParams::fromPreset(bad);
    EXPECT_FALSE(r) << bad;
    EXPECT_FALSE(r.error.empty());
  }
}

/// A test top: the platform and a thread that runs `body`.
class Bench : public sc_module {
public:
  Platform platform;
  std::function<void(Bench &)> body;

  SC_HAS_PROCESS(Bench);
  Bench(sc_module_name name, const PlatformParams &params)
      : sc_module(name), platform("platform", params) {
    SC_THREAD(run);
  }

  /// Runs one descriptor to completion; returns the time it took.
  sc_time transfer(const DmaDescriptor &d) {
    const sc_time start = sc_time_stamp();
    const uint64_t before = platform.dma.completed(d.direction);
    platform.dma.submit(d);
    while (platform.dma.completed(d.direction) == before)
      wait(platform.dma.completion(d.direction));
    return sc_time_stamp() - start;
  }

private:
  void run() {
    if (body)
      body(*this);
  }
};

PlatformParams params(const std::string &dram, const std::string &pcie) {
  Result<PlatformParams> p = PlatformParams::fromPresets(dram, pcie);
  EXPECT_TRUE(p) << p.error;
  p.value->hostWindowBytes = 64ull << 20;
  return *p.value;
}

TEST(PcieEndpoint, ReadLatencyIsRequestPlusHostPlusCompletion) {
  PlatformParams p = params("hbm2-u55c", "gen3x16");
  Bench bench("bench", p);
  sc_time measured;
  bench.body = [&measured](Bench &b) {
    std::vector<uint8_t> buf(64);
    tlm::tlm_generic_payload read;
    read.set_command(tlm::TLM_READ_COMMAND);
    read.set_address(0);
    read.set_data_ptr(buf.data());
    read.set_data_length(64);
    read.set_streaming_width(64);
    sc_time delay = SC_ZERO_TIME;
    b.platform.dma.hostPort->b_transport(read, delay);
    measured = delay;
  };
  sc_start();
  const PcieParams &q = p.pcie;
  auto wire = [&q](double bytes) { return bytes / q.linkBytesPerSecond() * 1e9; };
  const double expectedNs = wire(q.requestHeaderBytes + q.framingBytes) + q.linkLatencyNs +
                            q.hostReadLatencyNs +
                            wire(64 + q.completionHeaderBytes + q.framingBytes) + q.linkLatencyNs;
  EXPECT_NEAR(measured.to_seconds() * 1e9, expectedNs, 0.002);
}

struct LinkCase {
  const char *preset;
};

class DmaThroughput : public testing::TestWithParam<const char *> {};

// H2C then C2H of 8 MiB into HBM2 (far faster than any of these links): each runs at the link's
// payload rate for its TLP kind, within 2% (the first request's round trip is in the time too).
TEST_P(DmaThroughput, MatchesLineRateLessTlpOverhead) {
  PlatformParams p = params("hbm2-u55c", GetParam());
  Bench bench("bench", p);
  const uint64_t bytes = 8ull << 20;
  for (uint64_t i = 0; i < bytes; i += 4096) {
    std::vector<uint8_t> page(4096);
    for (size_t b = 0; b < page.size(); ++b)
      page[b] = uint8_t((i + b) * 13 + (i >> 12));
    bench.platform.host.store().write(i, page.data(), page.size());
  }
  sc_time h2c, c2h;
  bench.body = [&](Bench &b) {
    h2c = b.transfer({DmaDirection::HostToCard, 0, 1ull << 20, bytes});
    c2h = b.transfer({DmaDirection::CardToHost, 32ull << 20, 1ull << 20, bytes});
  };
  sc_start();
  const double h2cRate = double(bytes) / h2c.to_seconds();
  const double c2hRate = double(bytes) / c2h.to_seconds();
  EXPECT_NEAR(h2cRate / p.pcie.readThroughput(), 1.0, 0.02)
      << "H2C " << h2cRate / 1e9 << " GB/s, expected " << p.pcie.readThroughput() / 1e9;
  EXPECT_NEAR(c2hRate / p.pcie.writeThroughput(), 1.0, 0.02)
      << "C2H " << c2hRate / 1e9 << " GB/s, expected " << p.pcie.writeThroughput() / 1e9;
  // The bytes made the round trip host -> card -> host.
  std::vector<uint8_t> a(bytes), c(bytes), h(bytes);
  bench.platform.host.store().read(0, a.data(), bytes);
  bench.platform.cardMemory.read(1ull << 20, c.data(), bytes);
  bench.platform.host.store().read(32ull << 20, h.data(), bytes);
  EXPECT_TRUE(a == c);
  EXPECT_TRUE(a == h);
  EXPECT_EQ(bench.platform.dma.errors(DmaDirection::HostToCard), 0u);
  EXPECT_EQ(bench.platform.dma.errors(DmaDirection::CardToHost), 0u);
}

INSTANTIATE_TEST_SUITE_P(Links, DmaThroughput, testing::Values("gen3x16", "gen4x8", "gen5x16"));

// Both channels at once take about as long as the longer alone: they overlap.
TEST(DmaEngine, ChannelsRunConcurrently) {
  PlatformParams p = params("hbm2-u55c", "gen3x16");
  Bench bench("bench", p);
  const uint64_t bytes = 4ull << 20;
  sc_time both;
  bench.body = [&](Bench &b) {
    sc_time start = sc_time_stamp();
    b.platform.dma.submit({DmaDirection::HostToCard, 0, 0, bytes});
    b.platform.dma.submit({DmaDirection::CardToHost, 16ull << 20, 64ull << 20, bytes});
    while (b.platform.dma.completed(DmaDirection::HostToCard) == 0 ||
           b.platform.dma.completed(DmaDirection::CardToHost) == 0)
      wait(b.platform.dma.completion(DmaDirection::HostToCard) |
           b.platform.dma.completion(DmaDirection::CardToHost));
    both = sc_time_stamp() - start;
  };
  sc_start();
  const double alone = double(bytes) / std::min(p.pcie.readThroughput(), p.pcie.writeThroughput());
  EXPECT_LT(both.to_seconds(), alone * 1.1) << both;
}

TEST(DmaEngine, OutOfWindowDescriptorFailsAndTheEngineGoesOn) {
  PlatformParams p = params("ddr4-2400", "gen3x4");
  Bench bench("bench", p);
  bench.body = [&](Bench &b) {
    b.transfer({DmaDirection::HostToCard, p.hostWindowBytes - 4096, 0, 8192});
    b.transfer({DmaDirection::HostToCard, 0, 0, 8192});
  };
  sc_start();
  EXPECT_EQ(bench.platform.dma.errors(DmaDirection::HostToCard), 1u);
  EXPECT_EQ(bench.platform.dma.completed(DmaDirection::HostToCard), 2u);
}

} // namespace
} // namespace wf::cycle

namespace wf::cycle {
namespace {

// The statistics count what moved: one H2C descriptor's bytes in every component, as JSON.
TEST(PlatformStats, CountWhatMovedAndDumpAsJson) {
  PlatformParams p = params("ddr4-2400", "gen3x8");
  Bench bench("bench", p);
  stats::Group root("platform");
  bench.platform.registerStats(root);
  const uint64_t bytes = 1 << 20;
  bench.body = [&](Bench &b) { b.transfer({DmaDirection::HostToCard, 0, 0, bytes}); };
  sc_start();
  auto value = [&root](const std::string &path) {
    const auto *s = dynamic_cast<const stats::Formula *>(root.find(path));
    EXPECT_NE(s, nullptr) << path;
    return s ? s->value() : -1.0;
  };
  EXPECT_EQ(value("dram.bytes_written"), double(bytes));
  EXPECT_EQ(value("dram.writes"), double(bytes / p.dram.burstBytes()));
  EXPECT_EQ(value("dram.row_hits") + value("dram.row_misses") + value("dram.row_conflicts"),
            double(bytes / p.dram.burstBytes()));
  EXPECT_EQ(value("pcie.bytes_from_host"), double(bytes));
  EXPECT_EQ(value("pcie.completions"), double(bytes / p.pcie.completionBytes));
  EXPECT_EQ(value("pcie.downstream_wire_bytes"),
            double(bytes / p.pcie.completionBytes *
                   (p.pcie.completionBytes + p.pcie.completionHeaderBytes + p.pcie.framingBytes)));
  EXPECT_EQ(value("dma.h2c.bytes"), double(bytes));
  EXPECT_EQ(value("dma.h2c.descriptors"), 1.0);
  EXPECT_GT(value("dram.average_latency"), 0.0);
  std::ostringstream json;
  stats::writeJson(root, json);
  EXPECT_NE(json.str().find("\"platform.dram.row_hits\": {\"kind\": \"formula\", \"unit\": "
                            "\"count\""),
            std::string::npos)
      << json.str();
}

} // namespace
} // namespace wf::cycle

namespace wf::cycle {
namespace {

// Every named configuration builds a platform whose figures agree with the configuration's own:
// DRAM peak = MT/s x bus bytes x channels, the link = [pcie_lane_mbps] x lanes, and a cache line
// goes to channel line index mod dram_channels.
TEST(PlatformConfig, EveryNamedConfigurationBuilds) {
  for (const isa::Config &config : isa::kConfigs) {
    SCOPED_TRACE(std::string(config.name));
    Result<PlatformParams> r = PlatformParams::fromConfig(config);
    if (config.dramPreset == isa::DramPreset::Fixed) {
      EXPECT_FALSE(r);
      continue;
    }
    ASSERT_TRUE(r) << r.error;
    const PlatformParams &p = *r.value;
    const double dramPeak =
        double(config.dramMts) * 1e6 * config.dramBusBits / 8 * config.dramChannels;
    EXPECT_NEAR(p.dram.peakBytesPerSecond() / dramPeak, 1.0, 0.001);
    const double link = double(isa::pcieLaneMBps(config.pcieGen)) * 1e6 * config.pcieLanes;
    EXPECT_NEAR(p.pcie.linkBytesPerSecond() / link, 1.0, 0.001);
    EXPECT_GE(p.dram.capacityBytes(), uint64_t(config.globalMemMib) << 20);
    EXPECT_EQ(p.pcie.linkLatencyNs, double(config.hostLinkLatencyNs));
    for (uint64_t line : {0ull, 1ull, 5ull, 1000003ull}) {
      DramCoordinates c = decodeAddress(p.dram, line * config.cacheLineBytes);
      EXPECT_EQ(c.channel, line % config.dramChannels);
      EXPECT_EQ(encodeAddress(p.dram, c), line * config.cacheLineBytes);
    }
  }
}

TEST(PlatformConfig, Ddr4AtAnotherRateRoundsTheSameNanoseconds) {
  Result<DramParams> r = DramParams::fromDevice("ddr4", 2666, 64, 1, 0);
  ASSERT_TRUE(r) << r.error;
  // 13.32 ns at 750 ps is 17.76 clocks: 18-18-18, DDR4-2666's speed bin; CWL 14.
  EXPECT_EQ(r.value->tCL, 18u);
  EXPECT_EQ(r.value->tRCD, 18u);
  EXPECT_EQ(r.value->tCWL, 14u);
  EXPECT_FALSE(DramParams::fromDevice("ddr5", 4800, 64, 1, 0));
  EXPECT_FALSE(DramParams::fromDevice("hbm2", 1800, 128, 8, 0));
  EXPECT_FALSE(DramParams::fromDevice("ddr4", 2400, 64, 1, 64ull << 30)); // more than 16 GiB
}

} // namespace
} // namespace wf::cycle

namespace wf::cycle {
namespace {

TEST(DmaEngine, CardAddressPastTheMemoryFailsAndTheEngineGoesOn) {
  PlatformParams p = params("ddr4-2400", "gen3x4");
  Bench bench("bench", p);
  const uint64_t end = p.dram.capacityBytes();
  bench.body = [&](Bench &b) {
    // The last 4 KiB of the descriptor lie past the end of card memory.
    b.transfer({DmaDirection::CardToHost, 0, end - 4096, 8192});
    b.transfer({DmaDirection::CardToHost, 0, 0, 4096});
  };
  sc_start();
  EXPECT_EQ(bench.platform.dma.errors(DmaDirection::CardToHost), 4096 / p.dma.cardRequestBytes);
  EXPECT_EQ(bench.platform.dma.completed(DmaDirection::CardToHost), 2u);
}

} // namespace
} // namespace wf::cycle

// DRAM timing model: presets, address mapping, and timing against values computed by hand from
// the parameters (row hit, miss and conflict latencies, FR-FCFS reordering, refresh, tRRD/tFAW,
// streaming bandwidth against the peak less refresh).
#include "dram_driver.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <tlm_utils/simple_initiator_socket.h>

namespace wf::cycle {
namespace {

using sc_core::sc_time;
using test::DramBench;
using test::DramDriver;
using test::DramRequest;

DramParams preset(const std::string &name) {
  Result<DramParams> r = DramParams::fromPreset(name);
  EXPECT_TRUE(r) << r.error;
  return *r.value;
}

/// Runs the requests to completion and returns the bench for inspection.
std::unique_ptr<DramBench> run(const DramParams &p, std::vector<DramRequest> requests,
                               unsigned maxOutstanding = 64) {
  auto bench = std::make_unique<DramBench>("bench", p);
  bench->driver.requests = std::move(requests);
  bench->driver.maxOutstanding = maxOutstanding;
  sc_core::sc_start();
  return bench;
}

TEST(DramPreset, PeakBandwidthMatchesDatasheets) {
  // DDR4-2400 x64: 2400 MT/s x 8 bytes = 19.2 GB/s. U55C HBM2: 460.8 GB/s (PG276).
  EXPECT_NEAR(preset("ddr4-2400").peakBytesPerSecond() / 1e9, 19.2, 0.02);
  EXPECT_NEAR(preset("hbm2-u55c").peakBytesPerSecond() / 1e9, 460.8, 0.5);
  EXPECT_EQ(preset("hbm2-u55c").capacityBytes(), 16ull << 30);
  EXPECT_EQ(preset("hbm2-u280").capacityBytes(), 8ull << 30);
  EXPECT_EQ(preset("ddr4-2400").capacityBytes(), 16ull << 30);
}

TEST(DramPreset, UnknownNameIsAnErrorNamingThePresets) {
  Result<DramParams> r = DramParams::fromPreset("ddr9");
  EXPECT_FALSE(r);
  EXPECT_NE(r.error.find("ddr9"), std::string::npos);
  EXPECT_NE(r.error.find("ddr4-2400"), std::string::npos);
}

TEST(DramPreset, ValidateRejectsBadOrganization) {
  DramParams p = preset("ddr4-2400");
  p.banksPerGroup = 3;
  EXPECT_TRUE(p.validate().has_value());
  p = preset("ddr4-2400");
  p.tRFC = p.tREFI;
  EXPECT_TRUE(p.validate().has_value());
}

TEST(DramAddress, MappingRoundTripsAndInterleaves) {
  DramParams p = preset("hbm2-u55c");
  for (uint64_t a : {0ull, 32ull, 4096ull, 123456ull * 32, (16ull << 30) - 32}) {
    DramCoordinates c = decodeAddress(p, a);
    EXPECT_EQ(encodeAddress(p, c), a);
  }
  // Consecutive bursts go to consecutive channels, then bank groups.
  EXPECT_EQ(decodeAddress(p, 32).channel, 1u);
  EXPECT_EQ(decodeAddress(p, 32ull * p.channels).bankGroup, 1u);
  EXPECT_EQ(decodeAddress(p, 32ull * p.channels * p.bankGroups).column, 1u);
}

// Three reads on an idle DDR4 channel, far apart: a miss (closed bank), a hit, a conflict.
TEST(DramTiming, HitMissConflictLatencies) {
  DramParams p = preset("ddr4-2400");
  DramCoordinates c; // bank 0 of group 0, rank 0, row 0
  const uint64_t rowA = encodeAddress(p, c);
  c.column = 5;
  const uint64_t rowAOtherColumn = encodeAddress(p, c);
  c.row = 7;
  const uint64_t rowB = encodeAddress(p, c);
  auto at = [&p](uint64_t clock) { return sc_time(double(clock * p.tCKps), sc_core::SC_PS); };
  const uint64_t t1 = 200, t2 = 400; // well past tRAS, before the first refresh
  auto bench = run(
      p,
      {{at(0), false, rowA, 64}, {at(t1), false, rowAOtherColumn, 64}, {at(t2), false, rowB, 64}});
  DramDriver &d = bench->driver;
  ASSERT_EQ(d.answerOrder.size(), 3u);
  const unsigned burst = p.tBURST();
  EXPECT_EQ(d.answeredAt[0] - d.sentAt[0], at(p.tRCD + p.tCL + burst));
  EXPECT_EQ(d.answeredAt[1] - d.sentAt[1], at(p.tCL + burst));
  EXPECT_EQ(d.answeredAt[2] - d.sentAt[2], at(p.tRP + p.tRCD + p.tCL + burst));
  const DramChannelCounters &k = bench->dram.channelCounters(0);
  EXPECT_EQ(k.rowMisses, 1u);
  EXPECT_EQ(k.rowHits, 1u);
  EXPECT_EQ(k.rowConflicts, 1u);
  EXPECT_DOUBLE_EQ(bench->dram.averageLatencyNs(),
                   double(3 * (p.tCL + burst) + 2 * p.tRCD + p.tRP) * p.tCKps / 3000.0);
}

// A write, then a read of the same row: the read waits tWTR_L after the write's data.
TEST(DramTiming, ReadAfterWriteWaitsTwtr) {
  DramParams p = preset("ddr4-2400");
  DramCoordinates c;
  const uint64_t a = encodeAddress(p, c);
  c.column = 1;
  const uint64_t b = encodeAddress(p, c);
  auto bench = run(p, {{sc_time(), true, a, 64}, {sc_time(), false, b, 64}});
  DramDriver &d = bench->driver;
  auto at = [&p](uint64_t clock) { return sc_time(double(clock * p.tCKps), sc_core::SC_PS); };
  const uint64_t writeEnd = p.tRCD + p.tCWL + p.tBURST();
  EXPECT_EQ(d.answeredAt[0], at(writeEnd));
  EXPECT_EQ(d.answeredAt[1], at(writeEnd + p.tWTR_L + p.tCL + p.tBURST()));
}

TEST(DramTiming, FrFcfsServesTheRowHitBeforeTheOlderConflict) {
  DramParams p = preset("ddr4-2400");
  DramCoordinates c;
  const uint64_t a = encodeAddress(p, c);
  c.row = 9;
  const uint64_t b = encodeAddress(p, c);
  c.row = 0;
  c.column = 3;
  const uint64_t aHit = encodeAddress(p, c);
  auto bench =
      run(p, {{sc_time(), false, a, 64}, {sc_time(), false, b, 64}, {sc_time(), false, aHit, 64}});
  DramDriver &d = bench->driver;
  ASSERT_EQ(d.answerOrder, (std::vector<size_t>{0, 2, 1}));
  auto at = [&p](uint64_t clock) { return sc_time(double(clock * p.tCKps), sc_core::SC_PS); };
  const unsigned burst = p.tBURST();
  // A: ACT at 0. C (decided at clock 1): same bank group, so tCCD_L after A's READ.
  const uint64_t colA = p.tRCD, colC = colA + std::max(p.tCCD_L, burst);
  EXPECT_EQ(d.answeredAt[0], at(colA + p.tCL + burst));
  EXPECT_EQ(d.answeredAt[2], at(colC + p.tCL + burst));
  // B: PRE once tRAS after A's ACT and tRTP after C's READ have passed, then tRP, tRCD.
  const uint64_t preB = std::max<uint64_t>(p.tRAS, colC + p.tRTP);
  EXPECT_EQ(d.answeredAt[1], at(preB + p.tRP + p.tRCD + p.tCL + burst));
}

TEST(DramTiming, FcfsKeepsArrivalOrder) {
  DramParams p = preset("ddr4-2400");
  p.policy = DramSchedulerPolicy::Fcfs;
  DramCoordinates c;
  const uint64_t a = encodeAddress(p, c);
  c.row = 9;
  const uint64_t b = encodeAddress(p, c);
  c.row = 0;
  c.column = 3;
  const uint64_t aAgain = encodeAddress(p, c);
  auto bench = run(
      p, {{sc_time(), false, a, 64}, {sc_time(), false, b, 64}, {sc_time(), false, aAgain, 64}});
  DramDriver &d = bench->driver;
  ASSERT_EQ(d.answerOrder, (std::vector<size_t>{0, 1, 2}));
  auto at = [&p](uint64_t clock) { return sc_time(double(clock * p.tCKps), sc_core::SC_PS); };
  const unsigned burst = p.tBURST();
  const uint64_t actB = std::max<uint64_t>(p.tRAS, p.tRCD + p.tRTP) + p.tRP;
  const uint64_t actC = std::max<uint64_t>(actB + p.tRAS, actB + p.tRCD + p.tRTP) + p.tRP;
  EXPECT_EQ(d.answeredAt[1], at(actB + p.tRCD + p.tCL + burst));
  EXPECT_EQ(d.answeredAt[2], at(actC + p.tRCD + p.tCL + burst));
  EXPECT_EQ(bench->dram.channelCounters(0).rowConflicts, 2u);
}

TEST(DramTiming, ActivatesKeepTrrdAndTfaw) {
  DramParams p = preset("ddr4-2400");
  std::vector<DramRequest> reqs;
  // Five reads to five closed banks of rank 0, alternating bank groups.
  for (unsigned i = 0; i < 5; ++i) {
    DramCoordinates c;
    c.bankGroup = i % p.bankGroups;
    c.bank = i / p.bankGroups;
    reqs.push_back({sc_time(), false, encodeAddress(p, c), 64});
  }
  auto bench = run(p, reqs);
  std::vector<uint64_t> acts;
  for (auto &[ch, is] : bench->issued)
    acts.push_back(is.actAt);
  ASSERT_EQ(acts.size(), 5u);
  // Different bank groups: tRRD_S apart (decisions come one clock apart, before that).
  for (unsigned i = 1; i < 4; ++i)
    EXPECT_EQ(acts[i], acts[i - 1] + p.tRRD_S);
  // The fifth ACT waits for the four-activate window (tFAW > 4 tRRD_S for DDR4-2400 x8).
  ASSERT_GT(p.tFAW, 4 * p.tRRD_S);
  EXPECT_EQ(acts[4], acts[0] + p.tFAW);
}

TEST(DramTiming, RefreshBlocksTheRankAndClosesRows) {
  DramParams p = preset("ddr4-2400");
  p.ranks = 1; // the only rank refreshes first at tREFI
  DramCoordinates c;
  const uint64_t a = encodeAddress(p, c);
  auto at = [&p](uint64_t clock) { return sc_time(double(clock * p.tCKps), sc_core::SC_PS); };
  // Opens the row at 0; the second read, due as the refresh starts, finds the bank closed and
  // waits for tRFC.
  auto bench = run(p, {{sc_time(), false, a, 64}, {at(p.tREFI), false, a, 64}});
  DramDriver &d = bench->driver;
  EXPECT_EQ(d.answeredAt[1], at(p.tREFI + p.tRFC + p.tRCD + p.tCL + p.tBURST()));
  ASSERT_EQ(bench->issued.size(), 2u);
  EXPECT_EQ(bench->issued[1].second.outcome, RowOutcome::Miss);
  EXPECT_EQ(bench->dram.channelCounters(0).refreshes, 1u);
}

/// Streams `bytes` of reads from address 0 in `lineBytes` requests; returns bytes per second
/// from the first request to the last response.
double streamReadBandwidth(const DramParams &p, uint64_t bytes, unsigned lineBytes,
                           unsigned outstanding) {
  std::vector<DramRequest> reqs;
  for (uint64_t a = 0; a < bytes; a += lineBytes)
    reqs.push_back({sc_time(), false, a, lineBytes});
  auto bench = run(p, std::move(reqs), outstanding);
  const DramDriver &d = bench->driver;
  sc_time last = *std::max_element(d.answeredAt.begin(), d.answeredAt.end());
  return double(bytes) / last.to_seconds();
}

TEST(DramBandwidth, Ddr4StreamingReadReachesPeakLessRefresh) {
  DramParams p = preset("ddr4-2400");
  const double expected = p.peakBytesPerSecond() * (1.0 - double(p.tRFC) / p.tREFI);
  const double measured = streamReadBandwidth(p, 4ull << 20, 64, 64);
  EXPECT_NEAR(measured / expected, 1.0, 0.03)
      << measured / 1e9 << " GB/s against " << expected / 1e9;
}

TEST(DramBandwidth, Hbm2StreamingReadReachesPeakLessRefresh) {
  DramParams p = preset("hbm2-u55c");
  const double expected = p.peakBytesPerSecond() * (1.0 - double(p.tRFC) / p.tREFI);
  const double measured = streamReadBandwidth(p, 16ull << 20, 128, 1024);
  EXPECT_NEAR(measured / expected, 1.0, 0.03)
      << measured / 1e9 << " GB/s against " << expected / 1e9;
}

TEST(DramFunctional, ReadsSeeEarlierWritesAndBadAddressesFail) {
  DramParams p = preset("ddr4-2400");
  auto bench = std::make_unique<DramBench>("bench", p);
  DramDriver &d = bench->driver;
  // Write a pattern, read it back across two bursts, then ask for an address past the end.
  d.requests = {{sc_time(), true, 0x1000, 128},
                {sc_time(), false, 0x1000, 128},
                {sc_time(), false, p.capacityBytes() - 64, 128}};
  d.prefill = [](size_t i, std::vector<uint8_t> &buf) {
    if (i == 0)
      for (size_t b = 0; b < buf.size(); ++b)
        buf[b] = uint8_t(b * 7 + 1);
  };
  sc_core::sc_start();
  ASSERT_EQ(d.answerOrder.size(), 3u);
  EXPECT_EQ(d.status[0], tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(d.status[1], tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(d.status[2], tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(d.data[1], d.data[0]);
  // transport_dbg sees the same bytes.
  uint8_t byte = 0;
  tlm::tlm_generic_payload dbg;
  dbg.set_command(tlm::TLM_READ_COMMAND);
  dbg.set_address(0x1000 + 5);
  dbg.set_data_ptr(&byte);
  dbg.set_data_length(1);
  EXPECT_EQ(d.port.socket->transport_dbg(dbg), 1u);
  EXPECT_EQ(byte, uint8_t(5 * 7 + 1));
}

} // namespace
} // namespace wf::cycle

namespace wf::cycle {
namespace {

// A request of more bursts than a channel's queue holds is placed as the queue drains; its
// response comes when its last burst's data is done, and the data is the bytes written.
TEST(DramTiming, RequestLongerThanTheQueue) {
  DramParams p = preset("ddr4-2400");
  const unsigned bytes = p.burstBytes() * p.queueDepth * 4;
  auto bench = std::make_unique<DramBench>("bench", p);
  bench->driver.requests = {{sc_time(), true, 0, bytes}, {sc_time(), false, 0, bytes}};
  bench->driver.prefill = [](size_t i, std::vector<uint8_t> &buf) {
    if (i == 0)
      for (size_t b = 0; b < buf.size(); ++b)
        buf[b] = uint8_t(b ^ (b >> 8));
  };
  sc_core::sc_start();
  DramDriver &d = bench->driver;
  ASSERT_EQ(d.answerOrder.size(), 2u);
  EXPECT_EQ(d.data[1], d.data[0]);
  EXPECT_EQ(bench->dram.channelCounters(0).writes, bytes / p.burstBytes());
  EXPECT_EQ(bench->dram.channelCounters(0).reads, bytes / p.burstBytes());
  // Each response is at the end of its last burst's data.
  uint64_t lastWrite = 0, lastRead = 0;
  for (auto &[ch, is] : bench->issued) {
    (void)ch;
    uint64_t &last = is.tag == bench->issued.front().second.tag ? lastWrite : lastRead;
    last = std::max(last, is.dataEnd);
  }
  EXPECT_EQ(d.answeredAt[0], bench->dram.clockTime(lastWrite));
  EXPECT_EQ(d.answeredAt[1], bench->dram.clockTime(lastRead));
}

// b_transport, through the socket's conversion to nb_transport, sees the same timing.
class BlockingCaller : public sc_core::sc_module {
public:
  tlm_utils::simple_initiator_socket<BlockingCaller> socket{"socket"};
  sc_time took;
  SC_HAS_PROCESS(BlockingCaller);
  explicit BlockingCaller(sc_core::sc_module_name name) : sc_module(name) { SC_THREAD(run); }
  void run() {
    uint8_t buf[64] = {};
    tlm::tlm_generic_payload t;
    t.set_command(tlm::TLM_READ_COMMAND);
    t.set_address(0);
    t.set_data_ptr(buf);
    t.set_data_length(64);
    t.set_streaming_width(64);
    sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(t, delay);
    wait(delay);
    took = sc_core::sc_time_stamp();
  }
};

TEST(DramTiming, BlockingTransportSeesTheSameTiming) {
  DramParams p = preset("ddr4-2400");
  BackingStore store(p.capacityBytes());
  DramController dram("dram", p, store);
  BlockingCaller caller("caller");
  caller.socket.bind(dram.ports[0]);
  sc_core::sc_start();
  EXPECT_EQ(caller.took, dram.clockTime(p.tRCD + p.tCL + p.tBURST()));
}

TEST(DramBandwidth, Ddr4StreamingWriteReachesPeakLessRefresh) {
  DramParams p = preset("ddr4-2400");
  std::vector<DramRequest> reqs;
  const uint64_t bytes = 4ull << 20;
  for (uint64_t a = 0; a < bytes; a += 64)
    reqs.push_back({sc_time(), true, a, 64});
  auto bench = run(p, std::move(reqs), 64);
  const DramDriver &d = bench->driver;
  sc_time last = *std::max_element(d.answeredAt.begin(), d.answeredAt.end());
  const double measured = double(bytes) / last.to_seconds();
  const double expected = p.peakBytesPerSecond() * (1.0 - double(p.tRFC) / p.tREFI);
  EXPECT_NEAR(measured / expected, 1.0, 0.03)
      << measured / 1e9 << " GB/s against " << expected / 1e9;
}

// Alternating reads and writes to one open row: every switch costs the bus turnaround (read to
// write: tRTW idle clocks) or tWTR (write data to the next READ), so the bus is far from full.
TEST(DramTiming, ReadWriteTurnaroundsCost) {
  DramParams p = preset("ddr4-2400");
  p.policy = DramSchedulerPolicy::Fcfs; // keep the alternation
  std::vector<DramRequest> reqs;
  for (unsigned i = 0; i < 8; ++i) {
    DramCoordinates c;
    c.column = i;
    reqs.push_back({sc_time(), i % 2 == 1, encodeAddress(p, c), 64});
  }
  auto bench = run(p, reqs);
  ASSERT_EQ(bench->issued.size(), 8u);
  for (size_t i = 1; i < bench->issued.size(); ++i) {
    const DramIssued &prev = bench->issued[i - 1].second, &cur = bench->issued[i].second;
    if (i % 2 == 1) // read -> write: the write's data waits tRTW after the read's
      EXPECT_EQ(cur.dataStart, std::max(prev.dataEnd + p.tRTW, prev.columnAt + p.tCCD_L + p.tCWL));
    else // write -> read: the READ waits tWTR_L after the write's data
      EXPECT_EQ(cur.columnAt, prev.dataEnd + p.tWTR_L);
  }
}

} // namespace
} // namespace wf::cycle

namespace wf::cycle {
namespace {

/// Two initiators on two ports of one controller.
class TwoPortBench : public sc_core::sc_module {
public:
  BackingStore store;
  DramController dram;
  DramDriver a, b;
  TwoPortBench(sc_core::sc_module_name name, const DramParams &params)
      : sc_module(name), store(params.capacityBytes()), dram("dram", params, store, 2), a("a"),
        b("b") {
    a.port.socket.bind(dram.ports[0]);
    b.port.socket.bind(dram.ports[1]);
  }
};

// Two streams of equal length through two ports share the channel: both get their data and the
// ports take turns (they finish within a few percent of each other). (The streams use the same
// banks in different rows, so they also cost each other row conflicts: about 84% of the peak
// less refresh together.)
TEST(DramPorts, TwoInitiatorsShareTheChannelFairly) {
  DramParams p = preset("ddr4-2400");
  TwoPortBench bench("bench", p);
  const uint64_t bytes = 1 << 20;
  for (uint64_t off = 0; off < bytes; off += 64) {
    bench.a.requests.push_back({sc_time(), off == 0, off, 64});
    bench.b.requests.push_back({sc_time(), false, (64ull << 20) + off, 64});
  }
  bench.a.prefill = [](size_t i, std::vector<uint8_t> &buf) {
    if (i == 0)
      std::fill(buf.begin(), buf.end(), uint8_t(0x5a));
  };
  sc_core::sc_start();
  ASSERT_EQ(bench.a.answerOrder.size(), bench.a.requests.size());
  ASSERT_EQ(bench.b.answerOrder.size(), bench.b.requests.size());
  EXPECT_EQ(bench.a.status[0], tlm::TLM_OK_RESPONSE);
  const sc_time endA = *std::max_element(bench.a.answeredAt.begin(), bench.a.answeredAt.end());
  const sc_time endB = *std::max_element(bench.b.answeredAt.begin(), bench.b.answeredAt.end());
  EXPECT_NEAR(endA / endB, 1.0, 0.05);
  uint8_t byte = 0;
  tlm::tlm_generic_payload dbg;
  dbg.set_command(tlm::TLM_READ_COMMAND);
  dbg.set_address(7);
  dbg.set_data_ptr(&byte);
  dbg.set_data_length(1);
  EXPECT_EQ(bench.b.port.socket->transport_dbg(dbg), 1u); // any port reaches all of memory
  EXPECT_EQ(byte, 0x5a);
}

} // namespace
} // namespace wf::cycle

// The shared-memory bank arbiter and the global-memory coalescer (hls/bank_arbiter.h,
// hls/coalescer.h) against their specifications, checked independently of how the models compute:
// every active lane served exactly once, each pass conflict-free (one row per bank), lanes sharing
// a word served together (broadcast), the optimal pass count for accesses of up to 4 bytes, the
// exact set of cache lines with the exact bytes of each; plus the documented conflict degrees of
// the usual access patterns (stride 1, 2 and 32, broadcast, all lanes in one bank, partial warps).
#include "test_util.h"
#include "warpforge/hls/bank_arbiter.h"
#include "warpforge/hls/coalescer.h"
#include "warpforge/isa/config.gen.h"

#include <bit>
#include <map>
#include <random>
#include <set>

namespace wf::hls {
namespace {

constexpr unsigned kBankCounts[] = {8, 16, 32};
constexpr unsigned kLineSizes[] = {32, 64, 128};

BankRequest strided(uint32_t base, uint32_t strideBytes, unsigned sizeLog2, uint32_t mask) {
  BankRequest r;
  for (unsigned l = 0; l < kWarpLanes; ++l)
    r.addr[l] = base + l * strideBytes;
  r.mask = mask;
  r.sizeLog2 = sizeLog2;
  return r;
}

/// Checks a schedule against the specification; returns the number of passes.
unsigned checkBanks(const BankRequest &req, unsigned banks) {
  const BankSchedule s = bankSchedule(req, banks);
  const unsigned words = req.sizeLog2 <= 2 ? 1 : 1u << (req.sizeLog2 - 2);
  uint32_t served = 0;
  std::map<uint32_t, unsigned> passOfWord; // first word of a lane -> its pass
  for (unsigned p = 0; p < s.count; ++p) {
    const BankPass &pass = s.passes[p];
    EXPECT_NE(pass.lanes, 0u) << "empty pass " << p;
    EXPECT_EQ(pass.lanes & served, 0u) << "lane served twice";
    EXPECT_EQ(pass.lanes & ~req.mask, 0u) << "inactive lane served";
    served |= pass.lanes;
    uint32_t used = 0;
    for (unsigned l = 0; l < kWarpLanes; ++l) {
      if (!((pass.lanes >> l) & 1))
        continue;
      const uint32_t first = (req.addr[l] >> 2) & ~(words - 1);
      for (unsigned k = 0; k < words; ++k) {
        const uint32_t w = first + k;
        const unsigned b = w % banks;
        // One row per bank in a pass: the row this pass reads.
        EXPECT_TRUE((pass.bankEnable >> b) & 1) << "lane " << l << " bank " << b;
        EXPECT_EQ(pass.bankRow[b], w / banks) << "lane " << l << " bank " << b << " pass " << p;
        used |= uint32_t(1) << b;
      }
      auto [it, fresh] = passOfWord.emplace(first, p);
      EXPECT_EQ(it->second, p) << "lanes reading word " << first << " split across passes";
    }
    EXPECT_EQ(pass.bankEnable, used) << "bank accessed for no lane";
  }
  EXPECT_EQ(served, req.mask);
  EXPECT_LE(s.count, unsigned(std::popcount(req.mask)));
  if (req.sizeLog2 <= 2) {
    // Optimal: the most distinct words asked of one bank.
    std::map<unsigned, std::set<uint32_t>> perBank;
    for (unsigned l = 0; l < kWarpLanes; ++l)
      if ((req.mask >> l) & 1)
        perBank[(req.addr[l] >> 2) % banks].insert(req.addr[l] >> 2);
    size_t worst = 0;
    for (auto &[b, ws] : perBank)
      worst = std::max(worst, ws.size());
    EXPECT_EQ(s.count, worst);
  }
  return s.count;
}

TEST(BankArbiter, ConfiguredBankCountsAreSupported) {
  for (const isa::Config &c : isa::kConfigs)
    EXPECT_TRUE(validBankCount(c.sharedBanks)) << c.name;
}

TEST(BankArbiter, DirectedPatterns) {
  const uint32_t all = ~0u;
  for (unsigned banks : kBankCounts) {
    SCOPED_TRACE(banks);
    // 32-bit words, stride 1: 32 words over `banks` banks.
    EXPECT_EQ(checkBanks(strided(0, 4, 2, all), banks), 32 / banks);
    // Stride 2 words: half the banks, twice as deep.
    EXPECT_EQ(checkBanks(strided(0, 8, 2, all), banks), 64 / banks);
    // Stride of `banks` words: every lane in bank 0, a different row each: 32 passes.
    EXPECT_EQ(checkBanks(strided(0, 4 * banks, 2, all), banks), 32u);
    EXPECT_EQ(checkBanks(strided(128, 4 * 32, 2, all), banks), 32u);
    // Broadcast: one word for every lane.
    EXPECT_EQ(checkBanks(strided(64, 0, 2, all), banks), 1u);
    // Bytes and halves of the same words are not conflicts.
    EXPECT_EQ(checkBanks(strided(0, 1, 0, all), banks), 1u);
    EXPECT_EQ(checkBanks(strided(0, 2, 1, all), banks), std::max(1u, 16 / banks));
    // 64- and 128-bit accesses, stride 1: 64 and 128 words.
    EXPECT_EQ(checkBanks(strided(0, 8, 3, all), banks), 64 / banks);
    EXPECT_EQ(checkBanks(strided(0, 16, 4, all), banks), 128 / banks);
    // Partial warps: only active lanes count.
    EXPECT_EQ(checkBanks(strided(0, 4 * banks, 2, 0x0000'00ffu), banks), 8u);
    EXPECT_EQ(checkBanks(strided(0, 4 * banks, 2, 0x8000'0001u), banks), 2u);
    EXPECT_EQ(checkBanks(strided(0, 4, 2, 0), banks), 0u);
    EXPECT_EQ(checkBanks(strided(0, 4, 2, 0x0000'0100u), banks), 1u);
  }
}

TEST(BankArbiter, RandomRequests) {
  std::mt19937_64 rng(11);
  const uint64_t n = test::iterations(200000) / 20;
  for (uint64_t i = 0; i < n; ++i) {
    BankRequest r;
    r.sizeLog2 = unsigned(rng() % 5);
    // Few distinct words or rows make conflicts and broadcasts likely.
    const uint32_t span = 1u << (4 + rng() % 12);
    const uint32_t base = uint32_t(rng() % 65536);
    for (unsigned l = 0; l < kWarpLanes; ++l)
      r.addr[l] = ((base + uint32_t(rng() % span)) & 0x3ffff) & ~((1u << r.sizeLog2) - 1);
    r.mask = rng() % 4 == 0 ? ~0u : uint32_t(rng());
    const unsigned banks = kBankCounts[rng() % 3];
    checkBanks(r, banks);
    if (testing::Test::HasFailure()) {
      ADD_FAILURE() << "request " << i << " banks " << banks << " size " << r.sizeLog2;
      return;
    }
  }
}

CoalesceRequest stridedGlobal(uint64_t base, uint64_t stride, unsigned sizeLog2, uint32_t mask) {
  CoalesceRequest r;
  for (unsigned l = 0; l < kCoalescerLanes; ++l)
    r.addr[l] = base + l * stride;
  r.mask = mask;
  r.sizeLog2 = sizeLog2;
  return r;
}

/// Checks a coalescing against the specification; returns the number of line requests.
unsigned checkLines(const CoalesceRequest &req, unsigned lineBytes) {
  const CoalesceSchedule s = coalesce(req, lineBytes);
  std::map<uint64_t, std::set<unsigned>> bytesOfLine; // the reference: line -> bytes
  std::map<uint64_t, uint32_t> lanesOfLine;
  for (unsigned l = 0; l < kCoalescerLanes; ++l) {
    if (!((req.mask >> l) & 1))
      continue;
    const uint64_t a = req.addr[l];
    for (unsigned k = 0; k < (1u << req.sizeLog2); ++k)
      bytesOfLine[(a + k) / lineBytes].insert(unsigned((a + k) % lineBytes));
    lanesOfLine[a / lineBytes] |= uint32_t(1) << l;
  }
  EXPECT_EQ(s.count, bytesOfLine.size());
  uint32_t served = 0;
  std::set<uint64_t> seenLines;
  for (unsigned i = 0; i < s.count; ++i) {
    const LineRequest &r = s.requests[i];
    EXPECT_TRUE(seenLines.insert(r.line).second) << "line requested twice";
    EXPECT_EQ(r.lanes, lanesOfLine[r.line]) << "request " << i;
    // Issued in the order of each line's lowest pending lane.
    EXPECT_EQ(unsigned(std::countr_zero(r.lanes)), unsigned(std::countr_zero(req.mask & ~served)));
    served |= r.lanes;
    for (unsigned j = 0; j < lineBytes; ++j)
      EXPECT_EQ((r.byteMask[j / 64] >> (j % 64)) & 1, bytesOfLine[r.line].count(j))
          << "line " << r.line << " byte " << j;
    for (unsigned j = lineBytes; j < kMaxLineBytes; ++j)
      EXPECT_EQ((r.byteMask[j / 64] >> (j % 64)) & 1, 0u);
  }
  EXPECT_EQ(served, req.mask);
  return s.count;
}

TEST(Coalescer, ConfiguredLineSizesAreSupported) {
  for (const isa::Config &c : isa::kConfigs)
    EXPECT_TRUE(validLineBytes(c.cacheLineBytes)) << c.name;
}

TEST(Coalescer, DirectedPatterns) {
  const uint32_t all = ~0u;
  const uint64_t base = 0x1'0000'0000ull; // the global window
  for (unsigned line : kLineSizes) {
    SCOPED_TRACE(line);
    EXPECT_EQ(checkLines(stridedGlobal(base, 4, 2, all), line), 128 / line);
    EXPECT_EQ(checkLines(stridedGlobal(base + line / 2, 4, 2, all), line), 128 / line + 1);
    EXPECT_EQ(checkLines(stridedGlobal(base, 8, 2, all), line), 256 / line);
    EXPECT_EQ(checkLines(stridedGlobal(base, 128, 2, all), line), 32u);
    EXPECT_EQ(checkLines(stridedGlobal(base + 12, 0, 2, all), line), 1u);
    EXPECT_EQ(checkLines(stridedGlobal(base, 1, 0, all), line), std::max(1u, 32 / line));
    EXPECT_EQ(checkLines(stridedGlobal(base, 16, 4, all), line), 512 / line);
    EXPECT_EQ(checkLines(stridedGlobal(base, 4, 2, 0x0000'ffffu), line), std::max(1u, 64 / line));
    EXPECT_EQ(checkLines(stridedGlobal(base, 128, 2, 0x8000'0001u), line), 2u);
    EXPECT_EQ(checkLines(stridedGlobal(base, 4, 2, 0), line), 0u);
    // Reversed order: lane 31 has the lowest address, lane 0 still leads.
    EXPECT_EQ(checkLines(stridedGlobal(base + 31 * 4, uint64_t(-4), 2, all), line), 128 / line);
  }
}

TEST(Coalescer, RandomRequests) {
  std::mt19937_64 rng(12);
  const uint64_t n = test::iterations(200000) / 20;
  for (uint64_t i = 0; i < n; ++i) {
    CoalesceRequest r;
    r.sizeLog2 = unsigned(rng() % 5);
    const uint64_t span = uint64_t(1) << (3 + rng() % 14);
    const uint64_t base = rng() & 0xffff'ffff'ffffull;
    for (unsigned l = 0; l < kCoalescerLanes; ++l)
      r.addr[l] = ((base + rng() % span) & 0xffff'ffff'ffffull) & ~((uint64_t(1) << r.sizeLog2) - 1);
    r.mask = rng() % 4 == 0 ? ~0u : uint32_t(rng());
    const unsigned line = kLineSizes[rng() % 3];
    checkLines(r, line);
    if (testing::Test::HasFailure()) {
      ADD_FAILURE() << "request " << i << " line " << line << " size " << r.sizeLog2;
      return;
    }
  }
}

} // namespace
} // namespace wf::hls

// hls::BlockResources (hls/block_dispatch.h): first-fit placement, checked against brute force
// over random admit / retire sequences; hls::BlockDispatcher's linear block order.
#include "warpforge/hls/block_dispatch.h"

#include <gtest/gtest.h>

#include <random>

namespace {

using wf::hls::BlockDispatcher;
using wf::hls::BlockResources;

TEST(BlockResources, FirstFitAgainstBruteForce) {
  constexpr unsigned kWarps = 16, kRegs = 64, kSmem = 32, kSlots = 6;
  BlockResources res(kWarps, kRegs, kSmem, kSlots);
  std::vector<bool> warps(kWarps), regs(kRegs), smem(kSmem), slots(kSlots);
  struct Resident {
    BlockResources::Placement p;
    unsigned regs, smem;
  };
  std::vector<Resident> resident;
  std::mt19937 rng(7);
  auto first_fit = [](const std::vector<bool> &used, unsigned n) -> int {
    for (unsigned start = 0; start + n <= used.size(); ++start) {
      bool free = true;
      for (unsigned i = 0; i < n; ++i)
        free = free && !used[start + i];
      if (free)
        return int(start);
    }
    return -1;
  };
  unsigned admitted = 0, refused = 0;
  for (unsigned step = 0; step < 20000; ++step) {
    if (!resident.empty() && rng() % 3 == 0) {
      const size_t k = rng() % resident.size();
      const Resident r = resident[k];
      res.retire(r.p, r.regs, r.smem);
      for (unsigned w : r.p.warpSlots)
        warps[w] = false;
      for (unsigned i = 0; i < r.regs; ++i)
        regs[r.p.regBase + i] = false;
      for (unsigned i = 0; i < r.smem; ++i)
        smem[r.p.smemBase + i] = false;
      slots[r.p.blockSlot] = false;
      resident.erase(resident.begin() + long(k));
      continue;
    }
    const unsigned nw = 1 + rng() % 6, nr = nw * (1 + rng() % 3), ns = rng() % 9;
    const auto p = res.place(nw, nr, ns);
    unsigned free_warps = 0;
    for (bool u : warps)
      free_warps += !u;
    const int reg = first_fit(regs, nr), sm = ns ? first_fit(smem, ns) : 0,
              slot = first_fit(slots, 1);
    const bool fits = free_warps >= nw && reg >= 0 && sm >= 0 && slot >= 0;
    ASSERT_EQ(p.has_value(), fits) << "step " << step;
    if (!p) {
      ++refused;
      continue;
    }
    ++admitted;
    EXPECT_EQ(int(p->regBase), reg);
    EXPECT_EQ(int(p->smemBase), sm);
    EXPECT_EQ(int(p->blockSlot), slot);
    ASSERT_EQ(p->warpSlots.size(), nw);
    unsigned w = 0;
    for (unsigned s : p->warpSlots) {
      while (warps[w])
        ++w;
      EXPECT_EQ(s, w) << "warp slots are the lowest free ones";
      ++w;
    }
    res.admit(*p, nr, ns);
    for (unsigned s : p->warpSlots)
      warps[s] = true;
    for (unsigned i = 0; i < nr; ++i)
      regs[p->regBase + i] = true;
    for (unsigned i = 0; i < ns; ++i)
      smem[p->smemBase + i] = true;
    slots[p->blockSlot] = true;
    resident.push_back({*p, nr, ns});
  }
  EXPECT_GT(admitted, 1000u);
  EXPECT_GT(refused, 1000u);
}

TEST(BlockDispatcher, LinearOrderRoundRobin) {
  // Every core accepts: blocks go out x fastest, one a cycle, to cores 0, 1, 2, 0, ...
  BlockDispatcher d(3);
  const std::array<uint32_t, 3> grid{3, 2, 2};
  d.step(true, grid, false, false);
  uint32_t linear = 0;
  for (unsigned cycle = 0; cycle < 12; ++cycle, ++linear) {
    const auto o = d.offer(false);
    ASSERT_TRUE(o.valid);
    EXPECT_EQ(o.core, cycle % 3);
    EXPECT_EQ(o.block[0], linear % 3);
    EXPECT_EQ(o.block[1], linear / 3 % 2);
    EXPECT_EQ(o.block[2], linear / 6);
    EXPECT_FALSE(d.done(false, true, true, false));
    d.step(false, grid, false, true);
  }
  EXPECT_FALSE(d.offer(false).valid);
  EXPECT_TRUE(d.done(false, true, false, false));
  EXPECT_FALSE(d.done(false, false, false, false)) << "a busy core keeps the grid running";
}

} // namespace

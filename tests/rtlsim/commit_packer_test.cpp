//===- commit_packer_test.cpp - Commit records from the core's commit outputs ===//

#include "warpforge/func/commit.h"
#include "warpforge/rtl/commit_packer.h"

#include <gtest/gtest.h>

namespace wf::rtl {
namespace {

namespace dev = isa::dev;

TEST(RtlCommitPacker, HeaderAndRowsOfEightLanesBecomeOneRecord) {
  std::vector<std::vector<uint8_t>> records;
  CommitPacker packer(/*core=*/1, /*lanes=*/8,
                      [&](std::span<const uint8_t> r) { records.emplace_back(r.begin(), r.end()); },
                      [](uint32_t slot) { return std::array<uint32_t, 3>{slot + 10, 2, 3}; });
  CommitHeader h;
  h.opcode = 7, h.pc = 0x48, h.active = 0x0000ffff, h.exec = 0x0000f0ff, h.warp = 1;
  h.blockSlot = 4, h.warpSlot = 9;
  packer.header(h);
  uint32_t row0[8], row1[8];
  for (unsigned i = 0; i < 8; ++i)
    row0[i] = 100 + i, row1[i] = 200 + i;
  // R5 written in two passes of 8 lanes (lanes 0-7, then 12-15 of the second row), R2 in one.
  packer.row(9, 5, 1, 0x0000f000, row1);
  packer.row(9, 5, 0, 0x000000ff, row0);
  packer.row(9, 2, 0, 0x00000003, row0);
  EXPECT_TRUE(records.empty()); // the record waits for its warp's next header or a flush
  packer.flush();
  ASSERT_EQ(records.size(), 1u);

  EXPECT_EQ(func::CommitView::validate(records[0]), "");
  func::CommitView v(records[0]);
  EXPECT_EQ(v.header().opcode, 7);
  EXPECT_EQ(v.header().pc, 0x48u);
  EXPECT_EQ(v.header().exec, 0x0000f0ffu);
  EXPECT_EQ(v.header().blockX, 14u);
  EXPECT_EQ(v.header().blockZ, 3u);
  EXPECT_EQ(v.header().core, 1);
  EXPECT_EQ(v.header().slot, 9);
  ASSERT_EQ(v.parts().size(), 2u);
  EXPECT_EQ(v.parts()[0].header().index, 2); // ascending register order
  const func::CommitPartView *r5 = v.find(dev::CommitPartKind::Reg, 5);
  ASSERT_NE(r5, nullptr);
  EXPECT_EQ(r5->header().lanes, 0x0000f0ffu);
  EXPECT_EQ(r5->value(0), 100u);
  EXPECT_EQ(r5->value(7), 107u);
  EXPECT_EQ(r5->value(12), 204u); // lane 12 = pass 1, row lane 4
  EXPECT_EQ(r5->value(15), 207u);
}

TEST(RtlCommitPacker, NextHeaderOfTheWarpCompletesTheRecord) {
  std::vector<std::vector<uint8_t>> records;
  CommitPacker packer(0, 16, [&](std::span<const uint8_t> r) { records.emplace_back(r.begin(), r.end()); },
                      nullptr);
  CommitHeader a, b, other;
  a.warpSlot = b.warpSlot = 3, other.warpSlot = 4;
  a.pc = 0, b.pc = 8, other.pc = 0;
  packer.header(a);
  packer.header(other);
  EXPECT_TRUE(records.empty());
  packer.header(b);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(func::CommitView(records[0]).header().pc, 0u);
  EXPECT_EQ(func::CommitView(records[0]).header().slot, 3);
}

} // namespace
} // namespace wf::rtl

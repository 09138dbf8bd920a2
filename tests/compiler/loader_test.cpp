// The loader: placement of the segments and relocations applied for given base addresses.
#include "sample_module.h"
#include "warpforge/isa/config.gen.h"
#include "warpforge/module/wfx.h"

#include <gtest/gtest.h>

namespace wf::wfx {
namespace {

using testing::sampleModule;

uint32_t get32(const std::vector<uint8_t> &bytes, size_t offset) {
  return uint32_t(bytes[offset]) | uint32_t(bytes[offset + 1]) << 8 |
         uint32_t(bytes[offset + 2]) << 16 | uint32_t(bytes[offset + 3]) << 24;
}

TEST(Loader, PlacementIsOrderedAndAligned) {
  Module module = sampleModule();
  Placement placement = placeSegments(module, isa::kGlobalBase + 3);
  const SegmentBases &bases = placement.bases;
  EXPECT_GE(bases.code, isa::kGlobalBase + 3);
  EXPECT_EQ(bases.code % 256, 0u);
  EXPECT_GE(bases.constant, bases.code + module.code.size());
  EXPECT_EQ(bases.constant % module.constant.align, 0u);
  EXPECT_GE(bases.global, bases.constant + module.constant.size());
  EXPECT_EQ(bases.global % module.global.align, 0u);
  EXPECT_EQ(placement.end, bases.global + module.global.size());
}

TEST(Loader, RelocationsAreApplied) {
  Module module = sampleModule();
  SegmentBases bases{0x1'0000'1000ull, 0x1'0000'2000ull, 0x2'3456'7800ull};
  auto loaded = load(module, bases);
  ASSERT_TRUE(loaded) << loaded.error().str();
  ASSERT_EQ(loaded->code.size(), module.code.size());
  ASSERT_EQ(loaded->constant.size(), module.constant.size());
  ASSERT_EQ(loaded->global.size(), module.global.size());
  uint64_t counter = bases.global + 0;            // symbol 2
  uint64_t bufferPlus16 = bases.global + 24 + 16; // symbol 3 + addend
  EXPECT_EQ(get32(loaded->code, 12), uint32_t(counter));
  EXPECT_EQ(get32(loaded->code, 20), uint32_t(counter >> 32));
  EXPECT_EQ(get32(loaded->code, 28), uint32_t(bases.constant + 4)); // no symbol: segment + addend
  EXPECT_EQ(get32(loaded->global, 8), uint32_t(bufferPlus16));
  EXPECT_EQ(get32(loaded->global, 12), uint32_t(bufferPlus16 >> 32));
  EXPECT_EQ(get32(loaded->global, 40), uint32_t(bases.code + 8)); // patched inside the zero fill
  // Everything else is the module's bytes, zero fill included.
  EXPECT_EQ(get32(loaded->code, 8), get32(module.code, 8));
  EXPECT_EQ(loaded->global[0], 0xaa);
  EXPECT_EQ(loaded->global[1000], 0);
  EXPECT_EQ(loaded->constant[3], 4);
  EXPECT_EQ(loaded->kernels, module.kernels);
  EXPECT_EQ(loaded->symbolAddress(module, "buffer"), bases.global + 24);
  EXPECT_EQ(loaded->symbolAddress(module, "nothing"), 0u);
}

TEST(Loader, RejectsMisalignedOrOverlappingBases) {
  Module module = sampleModule();
  auto misaligned = load(module, {0x1000, 0x2008, 0x3000}); // CONST wants 16
  ASSERT_FALSE(misaligned);
  EXPECT_NE(misaligned.error().message.find("CONST base 0x2008 is not aligned to 16"),
            std::string::npos);
  EXPECT_FALSE(load(module, {0x1004, 0x2000, 0x3000}));
  auto overlapping = load(module, {0x1000, 0x2000, 0x2010});
  ASSERT_FALSE(overlapping);
  EXPECT_NE(overlapping.error().message.find("overlap"), std::string::npos);
  EXPECT_FALSE(load(module, {0x1000, 0x2000, ~uint64_t(0) - 7}));
}

TEST(Loader, RejectsInvalidModules) {
  Module module = sampleModule();
  module.relocs[0].addend = 1 << 20;
  EXPECT_FALSE(load(module, placeSegments(module, isa::kGlobalBase).bases));
}

} // namespace
} // namespace wf::wfx

// Damaged modules: every truncation and many byte flips of a valid module. The reader must return
// an error or a valid module, and never read outside its input (this file is also built with
// AddressSanitizer and UBSan: wf_module_sanitized_tests).
#include "sample_module.h"
#include "warpforge/module/wfx.h"

#include <gtest/gtest.h>
#include <random>

namespace wf::wfx {
namespace {

std::vector<uint8_t> sampleBytes() {
  auto bytes = write(testing::sampleModule());
  EXPECT_TRUE(bytes);
  return bytes ? *bytes : std::vector<uint8_t>{};
}

/// A read that succeeded must give a module that validates and writes again.
void checkOutcome(const std::vector<uint8_t> &bytes) {
  // A copy of exactly the input's size, so that any read past its end hits the sanitizer.
  std::vector<uint8_t> exact(bytes.begin(), bytes.end());
  exact.shrink_to_fit();
  auto module = read(exact);
  if (!module) {
    EXPECT_FALSE(module.error().message.empty());
    return;
  }
  EXPECT_TRUE(validate(*module));
  EXPECT_TRUE(write(*module));
}

TEST(WfxCorruption, EveryTruncationIsAnError) {
  auto bytes = sampleBytes();
  for (size_t length = 0; length < bytes.size(); ++length) {
    std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + std::ptrdiff_t(length));
    cut.shrink_to_fit();
    EXPECT_FALSE(read(cut)) << "length " << length;
  }
}

TEST(WfxCorruption, EveryByteFlipIsSafe) {
  auto bytes = sampleBytes();
  for (size_t position = 0; position < bytes.size(); ++position)
    for (uint8_t mask : {0x01, 0x10, 0x80, 0xff}) {
      auto damaged = bytes;
      damaged[position] ^= mask;
      SCOPED_TRACE(::testing::Message() << "byte " << position << " ^ " << int(mask));
      checkOutcome(damaged);
    }
}

TEST(WfxCorruption, HostileWordsAreSafe) {
  // Extreme values written over every aligned 32-bit field.
  auto bytes = sampleBytes();
  for (size_t position = 0; position + 4 <= bytes.size(); position += 4)
    for (uint32_t value : {0u, 1u, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0xfffffff8u,
                           uint32_t(bytes.size()), uint32_t(bytes.size() - 4)}) {
      auto damaged = bytes;
      for (unsigned i = 0; i < 4; ++i)
        damaged[position + i] = uint8_t(value >> (8 * i));
      SCOPED_TRACE(::testing::Message() << "word at " << position << " = " << value);
      checkOutcome(damaged);
    }
}

TEST(WfxCorruption, RandomDamageIsSafe) {
  auto bytes = sampleBytes();
  std::mt19937 rng(1234);
  for (int n = 0; n < 3000; ++n) {
    auto damaged = bytes;
    int changes = 1 + int(rng() % 8);
    for (int c = 0; c < changes; ++c)
      damaged[rng() % damaged.size()] = uint8_t(rng());
    if (rng() % 4 == 0)
      damaged.resize(rng() % (damaged.size() + 1));
    checkOutcome(damaged);
  }
}

} // namespace
} // namespace wf::wfx

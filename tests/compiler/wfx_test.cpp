// The .wfx writer and reader: round trip, versioning rules, and a clear error for each kind of
// damage the reader checks (the byte positions come from docs/wfx.md).
#include "sample_module.h"
#include "warpforge/module/wfx.h"

#include <cstdio>
#include <filesystem>
#include <gtest/gtest.h>

namespace wf::wfx {
namespace {

using testing::sampleModule;

uint32_t get32(const std::vector<uint8_t> &bytes, size_t offset) {
  return uint32_t(bytes[offset]) | uint32_t(bytes[offset + 1]) << 8 |
         uint32_t(bytes[offset + 2]) << 16 | uint32_t(bytes[offset + 3]) << 24;
}

void put32(std::vector<uint8_t> &bytes, size_t offset, uint32_t value) {
  for (unsigned i = 0; i < 4; ++i)
    bytes[offset + i] = uint8_t(value >> (8 * i));
}

/// File offset of the section table entry of `type`.
size_t entryOf(const std::vector<uint8_t> &bytes, SectionType type) {
  uint32_t count = get32(bytes, 20), table = get32(bytes, 24);
  for (uint32_t i = 0; i < count; ++i)
    if (get32(bytes, table + i * 16) == uint32_t(type))
      return table + i * 16;
  ADD_FAILURE() << "no section " << sectionName(type);
  return 0;
}

size_t sectionOffset(const std::vector<uint8_t> &bytes, SectionType type) {
  return get32(bytes, entryOf(bytes, type) + 4);
}

std::vector<uint8_t> sampleBytes() {
  auto bytes = write(sampleModule());
  EXPECT_TRUE(bytes) << bytes.error().str();
  return *bytes;
}

void expectReadError(const std::vector<uint8_t> &bytes, std::string_view part) {
  auto module = read(bytes, "m.wfx");
  ASSERT_FALSE(module) << "read a damaged module; expected: " << part;
  EXPECT_NE(module.error().message.find(part), std::string::npos) << module.error().str();
  EXPECT_EQ(module.error().loc.file, "m.wfx");
}

TEST(Wfx, WriteReadRoundTrip) {
  Module module = sampleModule();
  auto bytes = write(module);
  ASSERT_TRUE(bytes) << bytes.error().str();
  EXPECT_EQ(bytes->size() % 8, 0u);
  EXPECT_EQ(get32(*bytes, 16), bytes->size()); // total size in the header
  auto back = read(*bytes);
  ASSERT_TRUE(back) << back.error().str();
  EXPECT_EQ(*back, module);
  auto again = write(*back);
  ASSERT_TRUE(again);
  EXPECT_EQ(*again, *bytes); // the encoding is deterministic
}

TEST(Wfx, EmptyModuleRoundTrips) {
  auto bytes = write(Module{});
  ASSERT_TRUE(bytes);
  auto back = read(*bytes);
  ASSERT_TRUE(back) << back.error().str();
  EXPECT_EQ(*back, Module{});
}

TEST(Wfx, Lookups) {
  Module module = sampleModule();
  ASSERT_NE(module.findKernel("second"), nullptr);
  EXPECT_EQ(module.findKernel("second")->entry, 40u);
  EXPECT_EQ(module.findKernel("third"), nullptr);
  EXPECT_EQ(module.findSymbol("buffer")->size, 1000u);
  EXPECT_EQ(module.lineAt(0)->line, 10u);
  EXPECT_EQ(module.lineAt(8)->line, 10u);
  EXPECT_EQ(module.lineAt(16)->file, 1u);
  EXPECT_EQ(module.lineAt(63)->line, 30u);
  EXPECT_EQ(module.segmentSize(Segment::Global), 1024u);
}

TEST(Wfx, FileRoundTrip) {
  auto path =
      (std::filesystem::temp_directory_path() /
       ("wfx_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + ".wfx"))
          .string();
  ASSERT_TRUE(writeFile(path, sampleModule()));
  auto back = readFile(path);
  std::filesystem::remove(path);
  ASSERT_TRUE(back) << back.error().str();
  EXPECT_EQ(*back, sampleModule());
  auto missing = readFile(path);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().loc.file, path);
}

TEST(WfxVersioning, NewerMinorAndOptionalFlagsAreRead) {
  auto bytes = sampleBytes();
  bytes[6] = 9;              // minor 9
  put32(bytes, 8, 1u << 31); // an optional flag this reader does not know
  auto module = read(bytes);
  ASSERT_TRUE(module) << module.error().str();
  EXPECT_EQ(module->flags, 1u << 31);
  module->flags = 0;
  EXPECT_EQ(*module, sampleModule());
}

TEST(WfxVersioning, DeviceHeapFlagRoundTrips) {
  Module m = sampleModule();
  m.flags = kFlagDeviceHeap;
  auto bytes = write(m);
  ASSERT_TRUE(bytes) << bytes.error().str();
  EXPECT_EQ(get32(*bytes, 8), kFlagDeviceHeap);
  auto back = read(*bytes);
  ASSERT_TRUE(back) << back.error().str();
  EXPECT_EQ(*back, m);
  m.flags = 1; // required flags are not defined: the writer refuses them
  EXPECT_FALSE(write(m));
}

TEST(WfxVersioning, UnknownSectionTypesAreSkipped) {
  auto bytes = sampleBytes();
  put32(bytes, entryOf(bytes, SectionType::Lines), 0x1000);
  auto module = read(bytes);
  ASSERT_TRUE(module) << module.error().str();
  EXPECT_TRUE(module->lines.empty());
  EXPECT_EQ(module->kernels, sampleModule().kernels);
}

TEST(WfxVersioning, OtherMajorVersionIsRejected) {
  auto bytes = sampleBytes();
  bytes[4] = 2;
  expectReadError(bytes, "unsupported .wfx version 2.");
}

TEST(WfxVersioning, UnknownRequiredFlagIsRejected) {
  auto bytes = sampleBytes();
  put32(bytes, 8, 1);
  expectReadError(bytes, "unknown required feature flags 0x1");
}

TEST(WfxErrors, BadMagic) {
  auto bytes = sampleBytes();
  bytes[0] = 'X';
  expectReadError(bytes, "bad magic");
  expectReadError({}, "truncated");
}

TEST(WfxErrors, TruncatedOrTrailing) {
  auto bytes = sampleBytes();
  bytes.resize(bytes.size() - 8);
  expectReadError(bytes, "truncated: the header says");
  bytes = sampleBytes();
  bytes.push_back(0);
  expectReadError(bytes, "trailing bytes");
}

TEST(WfxErrors, SectionOutsideFile) {
  auto bytes = sampleBytes();
  put32(bytes, entryOf(bytes, SectionType::Global) + 8, 0x7fffffff);
  expectReadError(bytes, "runs past the end of the file");
}

TEST(WfxErrors, SectionOverlapsHeaderOrAnother) {
  auto bytes = sampleBytes();
  put32(bytes, entryOf(bytes, SectionType::Code) + 4, 8);
  expectReadError(bytes, "overlaps the header");
  bytes = sampleBytes();
  put32(bytes, entryOf(bytes, SectionType::Const) + 4,
        uint32_t(sectionOffset(bytes, SectionType::Code)));
  expectReadError(bytes, "overlaps");
}

TEST(WfxErrors, SectionMisalignedOrDuplicated) {
  auto bytes = sampleBytes();
  put32(bytes, entryOf(bytes, SectionType::Code) + 12, 3);
  expectReadError(bytes, "bad alignment 3");
  bytes = sampleBytes();
  put32(bytes, entryOf(bytes, SectionType::Lines), uint32_t(SectionType::Relocs));
  expectReadError(bytes, "appears twice");
}

TEST(WfxErrors, StringOffsets) {
  auto bytes = sampleBytes();
  size_t kernels = sectionOffset(bytes, SectionType::Kernels);
  put32(bytes, kernels + 8, 0xffff); // the first kernel's name
  expectReadError(bytes, "kernel 0 name: string offset 65535 is outside STRINGS");
  bytes = sampleBytes();
  size_t entry = entryOf(bytes, SectionType::Strings);
  size_t last = get32(bytes, entry + 4) + get32(bytes, entry + 8) - 1;
  bytes[last] = 'x'; // the last string loses its terminator
  expectReadError(bytes, "not terminated");
}

TEST(WfxErrors, KernelEntryOutsideCode) {
  auto bytes = sampleBytes();
  size_t kernels = sectionOffset(bytes, SectionType::Kernels);
  put32(bytes, kernels + 8 + 64 + 4, 64); // the second kernel's entry = code size
  expectReadError(bytes, "kernel 'second' entry 0x40 is not an instruction inside the code");
  put32(bytes, kernels + 8 + 64 + 4, 12);
  expectReadError(bytes, "entry 0xc");
}

TEST(WfxErrors, KernelRecordsDoNotMatchSectionSize) {
  auto bytes = sampleBytes();
  size_t kernels = sectionOffset(bytes, SectionType::Kernels);
  put32(bytes, kernels, 0x10000000); // kernel count
  expectReadError(bytes, "KERNELS section is");
  bytes = sampleBytes();
  put32(bytes, kernels + 8 + 28, 2); // first kernel: parameters 2..4 of 3
  expectReadError(bytes, "parameters 2+3 are outside");
}

TEST(WfxErrors, UnalignedCodeSize) {
  auto bytes = sampleBytes();
  size_t entry = entryOf(bytes, SectionType::Code);
  put32(bytes, entry + 8, get32(bytes, entry + 8) - 4);
  expectReadError(bytes, "code size 60 is not a multiple");
  Module module = sampleModule();
  module.code.resize(60);
  auto written = write(module);
  ASSERT_FALSE(written);
  EXPECT_NE(written.error().message.find("not a multiple"), std::string::npos);
}

TEST(WfxErrors, RelocationTargetsAndPatches) {
  auto bytes = sampleBytes();
  size_t relocs = sectionOffset(bytes, SectionType::Relocs);
  put32(bytes, relocs + 24, 1u << 20); // first relocation's addend
  expectReadError(bytes, "relocation 0 points at offset 1048576 of GLOBAL");
  bytes = sampleBytes();
  put32(bytes, relocs + 4, 64 + 4); // patch offset past the code
  expectReadError(bytes, "relocation 0 patches offset 0x44, outside or misaligned");
  bytes = sampleBytes();
  put32(bytes, relocs + 4, 8); // the opcode half of an instruction
  expectReadError(bytes, "not a 32-bit immediate");
  bytes = sampleBytes();
  put32(bytes, relocs + 16, 7); // symbol index
  expectReadError(bytes, "names symbol 7");
  bytes = sampleBytes();
  put32(bytes, relocs + 16, 1); // 'table' is in CONST, the relocation targets GLOBAL
  expectReadError(bytes, "its symbol 'table' is in CONST");
  bytes = sampleBytes();
  put32(bytes, relocs + 32 + 4, 8 + 4); // the second patches the first's field
  expectReadError(bytes, "twice");
}

TEST(WfxErrors, SymbolsAndLines) {
  auto bytes = sampleBytes();
  size_t symbols = sectionOffset(bytes, SectionType::Symbols);
  put32(bytes, symbols + 16 * 3 + 12, 2000); // buffer's size
  expectReadError(bytes, "symbol 'buffer' (offset 0x18, size 2000) is outside GLOBAL");
  bytes = sampleBytes();
  size_t lines = sectionOffset(bytes, SectionType::Lines);
  put32(bytes, lines + 8 + 2 * 4 + 16 + 4, 5); // row 1's file
  expectReadError(bytes, "line row 1 names file 5");
  bytes = sampleBytes();
  put32(bytes, lines + 8 + 2 * 4 + 16, 0); // row 1 at the same offset as row 0
  expectReadError(bytes, "not sorted");
}

TEST(WfxErrors, ValidateCatchesBadModulesBeforeWriting) {
  Module module = sampleModule();
  module.kernels[1].name = "first";
  EXPECT_FALSE(write(module));
  module = sampleModule();
  module.kernels[0].params[1].offset = 4; // overlaps parameter 0
  EXPECT_FALSE(write(module));
  module = sampleModule();
  module.kernels[0].maxntid = {0, 1, 1};
  EXPECT_FALSE(write(module));
  module = sampleModule();
  module.global.align = 3;
  EXPECT_FALSE(write(module));
  module = sampleModule();
  module.kernels[0].regsPerThread = 256;
  EXPECT_FALSE(write(module));
}

} // namespace
} // namespace wf::wfx

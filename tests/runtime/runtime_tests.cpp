// Unit tests of the runtime's common layer: allocator, error codes, fatbinary parser.
#include "warpforge/runtime/allocator.h"
#include "warpforge/runtime/fatbin.h"
#include "warpforge/runtime/runtime.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

using namespace wf::rt;

TEST(Allocator, FirstFitAlignedAndTracked) {
  Allocator a(0x100000000ull, 1 << 20);
  uint64_t p = a.allocate(100);
  uint64_t q = a.allocate(1000);
  ASSERT_NE(p, 0u);
  ASSERT_NE(q, 0u);
  EXPECT_EQ(p % 256, 0u);
  EXPECT_EQ(q % 256, 0u);
  EXPECT_GE(q, p + 100);
  auto r = a.find(q + 999);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->base, q);
  EXPECT_EQ(r->requested, 1000u);
  EXPECT_FALSE(a.find(q + 1024)); // past the rounded range
  EXPECT_EQ(a.liveCount(), 2u);
}

TEST(Allocator, BadAndDoubleFree) {
  Allocator a(0x1000, 4096);
  uint64_t p = a.allocate(256);
  EXPECT_FALSE(a.free(p + 8));
  EXPECT_TRUE(a.free(p));
  EXPECT_FALSE(a.free(p));
  EXPECT_FALSE(a.free(0xdead00));
}

TEST(Allocator, CoalescesAndReusesFreedSpace) {
  Allocator a(0x10000, 4 * 256);
  uint64_t b[4];
  for (auto &x : b)
    ASSERT_NE(x = a.allocate(256), 0u);
  EXPECT_EQ(a.allocate(1), 0u); // full
  EXPECT_TRUE(a.free(b[1]));
  EXPECT_TRUE(a.free(b[2]));
  EXPECT_EQ(a.allocate(512), b[1]); // the two neighbours merged
  EXPECT_TRUE(a.free(b[0]));
  EXPECT_TRUE(a.free(b[3]));
  EXPECT_TRUE(a.free(b[1]));
  EXPECT_EQ(a.freeBytes(), 4u * 256);
  EXPECT_EQ(a.allocate(1024), 0x10000u);
}

TEST(Allocator, HonoursLargerAlignment) {
  Allocator a(0x10100, 1 << 16);
  uint64_t p = a.allocate(10, 4096);
  EXPECT_EQ(p % 4096, 0u);
  EXPECT_EQ(a.allocate(10, 384), 0u); // not a power of two
}

TEST(Errors, NumericValuesAreNvidias) {
  EXPECT_EQ(int(Error::cudaSuccess), 0);
  EXPECT_EQ(int(Error::cudaErrorInvalidValue), 1);
  EXPECT_EQ(int(Error::cudaErrorMemoryAllocation), 2);
  EXPECT_EQ(int(Error::cudaErrorInvalidConfiguration), 9);
  EXPECT_EQ(int(Error::cudaErrorInvalidDeviceFunction), 98);
  EXPECT_EQ(int(Error::cudaErrorNoKernelImageForDevice), 209);
  EXPECT_EQ(int(Error::cudaErrorIllegalAddress), 700);
  EXPECT_EQ(int(Error::cudaErrorLaunchOutOfResources), 701);
  EXPECT_EQ(int(Error::cudaErrorLaunchTimeout), 702);
  EXPECT_EQ(int(Error::cudaErrorAssert), 710);
  EXPECT_EQ(int(Error::cudaErrorIllegalInstruction), 715);
  EXPECT_EQ(int(Error::cudaErrorMisalignedAddress), 716);
  EXPECT_EQ(int(Error::cudaErrorLaunchFailure), 719);
  EXPECT_EQ(int(Error::cudaErrorNotSupported), 801);
}

TEST(Errors, NamesAndStrings) {
  EXPECT_STREQ(errorName(700), "cudaErrorIllegalAddress");
  EXPECT_STREQ(errorString(0), "no error");
  EXPECT_STREQ(errorString(1), "invalid argument");
  EXPECT_STREQ(errorString(710), "device-side assert triggered");
  EXPECT_STREQ(errorString(123456), "unrecognized error code");
  EXPECT_STRNE(errorString(222), ""); // every known code has a text
}

static std::vector<uint8_t> bytes(const std::string &s) { return {s.begin(), s.end()}; }

class Fatbin : public testing::TestWithParam<bool> {};

TEST_P(Fatbin, RoundTripPtxAndElf) {
  bool compress = GetParam();
  std::string ptx = ".version 8.0\n.target sm_80\n.address_size 64\n// " + std::string(500, 'x');
  fatbin::Entry elf{fatbin::kKindElf, 80, 0, false, bytes("\x7f" "ELF fake cubin")};
  fatbin::Entry p70{fatbin::kKindPtx, 70, 0, false, bytes(".version 7.0 old")};
  fatbin::Entry p80{fatbin::kKindPtx, 80, 0, false, bytes(ptx)};
  std::vector<uint8_t> blob = fatbin::build({elf, p70, p80}, compress);
  fatbin::Wrapper w{fatbin::kWrapperMagic, 1, blob.data(), nullptr};
  fatbin::Parsed parsed;
  std::string error;
  ASSERT_TRUE(fatbin::parseWrapper(&w, parsed, error)) << error;
  ASSERT_EQ(parsed.entries.size(), 3u);
  EXPECT_EQ(parsed.entries[0].kind, fatbin::kKindElf);
  EXPECT_EQ(parsed.entries[1].compressed, compress);
  const fatbin::Entry *best = parsed.bestPtx();
  ASSERT_NE(best, nullptr);
  EXPECT_EQ(best->arch, 80u);
  EXPECT_EQ(std::string(best->payload.begin(), best->payload.end()), ptx);
  EXPECT_EQ(parsed.elfArchs(), "sm_80");
}
INSTANTIATE_TEST_SUITE_P(CompressedOrNot, Fatbin, testing::Bool());

TEST(FatbinErrors, RejectsMalformed) {
  fatbin::Parsed parsed;
  std::string error;
  uint8_t junk[32] = {1, 2, 3};
  EXPECT_FALSE(fatbin::parse(junk, sizeof junk, parsed, error));
  std::vector<uint8_t> blob = fatbin::build({{fatbin::kKindPtx, 80, 0, false, bytes("ptx")}}, true);
  blob.resize(blob.size() - 8); // truncated
  EXPECT_FALSE(fatbin::parse(blob.data(), blob.size(), parsed, error));
  blob = fatbin::build({{fatbin::kKindPtx, 80, 0, false, bytes("ptx text")}}, true);
  blob[16 + 64] ^= 0xff; // corrupt the zstd frame magic
  fatbin::Parsed p2;
  EXPECT_FALSE(fatbin::parse(blob.data(), blob.size(), p2, error));
  EXPECT_NE(error.find("zstd"), std::string::npos);
}

// Issue 16, defect 3: an entry header size larger than what is left used to wrap the bounds check
// (zstd and the copy then read wild memory), and a huge uncompressed size threw out of the parser.
TEST(FatbinErrors, OversizedEntryHeaderSizeIsAnError) {
  std::vector<uint8_t> blob =
      fatbin::build({{fatbin::kKindElf, 80, 0, false, bytes("cubin bytes")}}, false);
  uint32_t huge = 0xfffffff0u;
  std::memcpy(&blob[16 + 4], &huge, 4); // EntryHeader::headerSize
  fatbin::Parsed parsed;
  std::string error;
  EXPECT_FALSE(fatbin::parse(blob.data(), blob.size(), parsed, error));
  EXPECT_NE(error.find("out of range"), std::string::npos) << error;
  fatbin::Wrapper w{fatbin::kWrapperMagic, 1, blob.data(), nullptr};
  fatbin::Parsed p2;
  EXPECT_FALSE(fatbin::parseWrapper(&w, p2, error)); // no size known: the header's total bounds it
}

TEST(FatbinErrors, HugeUncompressedSizeIsAnError) {
  std::string ptx = ".version 8.0\n.target sm_80\n.address_size 64\n";
  for (uint64_t claimed : {uint64_t(1) << 62, fatbin::kMaxEntryBytes + 1, uint64_t(3)}) {
    std::vector<uint8_t> blob = fatbin::build({{fatbin::kKindPtx, 80, 0, false, bytes(ptx)}}, true);
    std::memcpy(&blob[16 + 56], &claimed, 8); // EntryHeader::uncompressedSize
    fatbin::Parsed parsed;
    std::string error;
    EXPECT_FALSE(fatbin::parse(blob.data(), blob.size(), parsed, error)) << claimed;
    EXPECT_FALSE(error.empty());
  }
}

TEST(FatbinErrors, HugeFatSizeIsAnError) {
  std::vector<uint8_t> blob = fatbin::build({{fatbin::kKindElf, 80, 0, false, bytes("x")}}, false);
  uint64_t huge = ~uint64_t(0) - 8;
  std::memcpy(&blob[8], &huge, 8); // Header::fatSize
  fatbin::Wrapper w{fatbin::kWrapperMagic, 1, blob.data(), nullptr};
  fatbin::Parsed parsed;
  std::string error;
  EXPECT_FALSE(fatbin::parseWrapper(&w, parsed, error));
  EXPECT_NE(error.find("limit"), std::string::npos) << error;
}

// Every byte of a small fatbinary (compressed PTX and an ELF entry) damaged in turn: each result
// is an error or a parse, never a crash or a read outside the buffer (the sanitizer build checks
// the latter).
TEST(FatbinErrors, EveryByteCorrupted) {
  std::string ptx = ".version 8.0\n.target sm_80\n.address_size 64\n// padding padding\n";
  std::vector<uint8_t> good = fatbin::build(
      {{fatbin::kKindPtx, 80, 0, false, bytes(ptx)}, {fatbin::kKindElf, 80, 0, false, bytes("e")}},
      true);
  size_t parsedCount = 0;
  for (size_t at = 0; at < good.size(); ++at)
    for (uint8_t flip : {0x01, 0x80, 0xff}) {
      std::vector<uint8_t> blob = good;
      blob[at] ^= flip;
      fatbin::Parsed parsed;
      std::string error;
      bool ok = fatbin::parse(blob.data(), blob.size(), parsed, error);
      EXPECT_TRUE(ok || !error.empty()) << "byte " << at;
      parsedCount += ok;
    }
  EXPECT_GT(parsedCount, 0u); // damage to padding and flags still parses
}

TEST(FatbinErrors, NoPtxIsReported) {
  std::vector<uint8_t> blob = fatbin::build({{fatbin::kKindElf, 90, 0, false, bytes("cubin")}}, false);
  fatbin::Parsed parsed;
  std::string error;
  ASSERT_TRUE(fatbin::parse(blob.data(), blob.size(), parsed, error));
  EXPECT_EQ(parsed.bestPtx(), nullptr);
  EXPECT_EQ(parsed.elfArchs(), "sm_90");
}

// clang's wrapper (`-fcuda-include-gpubinary FILE`) points at FILE's raw bytes plus a NUL.
TEST(FatbinClangWrapper, RawPtxWfxAndFatbin) {
  std::string ptx = "//\n// Generated\n//\n\n.version 7.0\n.target sm_75\n.address_size 64\n";
  std::vector<uint8_t> text = bytes(ptx);
  text.push_back(0);
  fatbin::Wrapper w{fatbin::kWrapperMagic, 1, text.data(), nullptr};
  fatbin::Parsed parsed;
  std::string error;
  ASSERT_TRUE(fatbin::parseWrapper(&w, parsed, error)) << error;
  const fatbin::Entry *best = parsed.bestPtx();
  ASSERT_NE(best, nullptr);
  EXPECT_EQ(best->arch, 75u);
  EXPECT_EQ(std::string(best->payload.begin(), best->payload.end()), ptx);

  // A .wfx module: magic, version, flags, header size 32, total size 40, then eight more bytes.
  std::vector<uint8_t> wfx = {'W', 'F', 'X', 'M', 1, 0, 0, 0, 0, 0, 0, 0, 32, 0, 0, 0, 40, 0, 0, 0};
  wfx.resize(40, 0xab);
  wfx.push_back(0);
  w.data = wfx.data();
  fatbin::Parsed p2;
  ASSERT_TRUE(fatbin::parseWrapper(&w, p2, error)) << error;
  ASSERT_NE(p2.wfx(), nullptr);
  EXPECT_EQ(p2.wfx()->payload.size(), 40u);
  EXPECT_EQ(p2.bestPtx(), nullptr);

  // A real fatbinary behind clang's wrapper is read as nvcc's.
  std::vector<uint8_t> blob = fatbin::build({{fatbin::kKindPtx, 80, 0, false, bytes(ptx)}}, false);
  w.data = blob.data();
  fatbin::Parsed p3;
  ASSERT_TRUE(fatbin::parseWrapper(&w, p3, error)) << error;
  ASSERT_NE(p3.bestPtx(), nullptr);
  EXPECT_EQ(p3.bestPtx()->arch, 80u);
}

TEST(FatbinClangWrapper, UnknownPayloadIsAClearError) {
  std::string error;
  fatbin::Parsed parsed;
  uint8_t elf[] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0};
  fatbin::Wrapper w{fatbin::kWrapperMagic, 1, elf, nullptr};
  EXPECT_FALSE(fatbin::parseWrapper(&w, parsed, error));
  EXPECT_NE(error.find("7f 45 4c 46"), std::string::npos) << error;
  uint8_t empty[] = {0};
  w.data = empty;
  EXPECT_FALSE(fatbin::parseWrapper(&w, parsed, error));
  EXPECT_NE(error.find("empty"), std::string::npos) << error;
  // Text that is not PTX (no .version/.target) is rejected too.
  std::vector<uint8_t> text = bytes("hello world");
  text.push_back(0);
  w.data = text.data();
  EXPECT_FALSE(fatbin::parseWrapper(&w, parsed, error));
}

TEST(DeviceSelection, UnknownKindsAndConfigsAreClearErrors) {
  std::string error;
  EXPECT_FALSE(openDevice("no-such-device", "default", error));
  EXPECT_NE(error.find("no device plugin 'no-such-device'"), std::string::npos) << error;
  EXPECT_NE(error.find("installed: "), std::string::npos) << error;
  EXPECT_FALSE(openDevice("func", "nope", error));
  EXPECT_NE(error.find("tiny"), std::string::npos);
  auto d = openDevice("func", "tiny", error);
  ASSERT_TRUE(d);
  uint64_t a = d->allocate(64);
  ASSERT_NE(a, 0u);
  uint32_t v = 0x12345678, r = 0;
  EXPECT_TRUE(d->write(a, &v, 4));
  EXPECT_TRUE(d->read(a, &r, 4));
  EXPECT_EQ(r, v);
  EXPECT_TRUE(d->free(a));
  EXPECT_FALSE(d->free(a));
}

// The driver API through the drop-in library's own exports (no toolkit needed): cuGetErrorName and
// cuGetErrorString give every CUresult of NVIDIA's table its name and text and refuse other values
// (check_driver_errors.py compares the table itself with the toolkit's cuda.h); cuModuleLoadData
// survives damaged fatbinaries.
#include <gtest/gtest.h>

#include <string>

extern "C" int cuGetErrorName(int error, const char **name);
extern "C" int cuGetErrorString(int error, const char **text);

namespace {

constexpr int kSuccess = 0;
constexpr int kInvalidValue = 1;

struct Row {
  int code;
  const char *name;
  const char *text;
};
constexpr Row kTable[] = {
#define WF_CU_ERROR(name, value, text) {value, #name, text},
#include "warpforge/runtime/driver_errors.def"
#undef WF_CU_ERROR
};

std::string nameOf(int code) {
  const char *name = nullptr;
  if (cuGetErrorName(code, &name) != kSuccess || !name)
    return "<refused>";
  return name;
}

TEST(DriverErrors, SuccessHasAName) {
  EXPECT_EQ(nameOf(0), "CUDA_SUCCESS");
  const char *text = nullptr;
  ASSERT_EQ(cuGetErrorString(0, &text), kSuccess);
  EXPECT_STREQ(text, "no error");
}

// Codes whose driver meaning differs from the runtime's error of the same number.
TEST(DriverErrors, NamesFollowTheDriverNumbering) {
  EXPECT_EQ(nameOf(2), "CUDA_ERROR_OUT_OF_MEMORY");
  EXPECT_EQ(nameOf(3), "CUDA_ERROR_NOT_INITIALIZED");
  EXPECT_EQ(nameOf(4), "CUDA_ERROR_DEINITIALIZED");
  EXPECT_EQ(nameOf(200), "CUDA_ERROR_INVALID_IMAGE");
  EXPECT_EQ(nameOf(201), "CUDA_ERROR_INVALID_CONTEXT");
  EXPECT_EQ(nameOf(209), "CUDA_ERROR_NO_BINARY_FOR_GPU");
  EXPECT_EQ(nameOf(400), "CUDA_ERROR_INVALID_HANDLE");
  EXPECT_EQ(nameOf(500), "CUDA_ERROR_NOT_FOUND");
  EXPECT_EQ(nameOf(709), "CUDA_ERROR_CONTEXT_IS_DESTROYED");
  EXPECT_EQ(nameOf(719), "CUDA_ERROR_LAUNCH_FAILED");
  const char *text = nullptr;
  ASSERT_EQ(cuGetErrorString(2, &text), kSuccess);
  EXPECT_STREQ(text, "out of memory");
}

TEST(DriverErrors, EveryCodeOfTheTableResolves) {
  for (const Row &row : kTable) {
    SCOPED_TRACE(row.name);
    EXPECT_EQ(nameOf(row.code), row.name);
    const char *text = nullptr;
    ASSERT_EQ(cuGetErrorString(row.code, &text), kSuccess);
    ASSERT_NE(text, nullptr);
    EXPECT_STREQ(text, row.text);
  }
}

TEST(DriverErrors, UnknownCodesAreRefused) {
  for (int code : {-1, 10, 47, 12345}) {
    const char *name = "stale", *text = "stale";
    EXPECT_EQ(cuGetErrorName(code, &name), kInvalidValue);
    EXPECT_EQ(name, nullptr);
    EXPECT_EQ(cuGetErrorString(code, &text), kInvalidValue);
    EXPECT_EQ(text, nullptr);
  }
  EXPECT_EQ(cuGetErrorName(0, nullptr), kInvalidValue);
  EXPECT_EQ(cuGetErrorString(0, nullptr), kInvalidValue);
}

} // namespace

// Issue 16, defect 3, through the driver: cuModuleLoadData on damaged fatbinaries reports an error
// and the process goes on (the entry header size and the uncompressed size used to crash it).
#include "warpforge/runtime/fatbin.h"

#include <cstring>
#include <vector>

extern "C" int cuInit(unsigned flags);
extern "C" int cuModuleLoadData(void **module, const void *image);

namespace {

TEST(DriverModuleLoad, DamagedFatbinariesAreErrors) {
  ASSERT_EQ(cuInit(0), kSuccess);
  std::string ptx = ".version 8.0\n.target sm_80\n.address_size 64\n"
                    ".visible .entry k()\n{\n\tret;\n}\n";
  using wf::rt::fatbin::Entry;
  Entry entry{wf::rt::fatbin::kKindPtx, 80, 0, false, {ptx.begin(), ptx.end()}};
  std::vector<uint8_t> good = wf::rt::fatbin::build({entry}, true);
  void *module = nullptr;
  ASSERT_EQ(cuModuleLoadData(&module, good.data()), kSuccess) << "the undamaged fatbinary";

  std::vector<uint8_t> bad = good;
  uint32_t headerSize = 0xfffffff0u;
  std::memcpy(&bad[16 + 4], &headerSize, 4); // EntryHeader::headerSize
  module = nullptr;
  EXPECT_NE(cuModuleLoadData(&module, bad.data()), kSuccess);

  bad = good;
  uint64_t uncompressed = uint64_t(1) << 62;
  std::memcpy(&bad[16 + 56], &uncompressed, 8); // EntryHeader::uncompressedSize
  EXPECT_NE(cuModuleLoadData(&module, bad.data()), kSuccess);
}

} // namespace

// cuModuleLoadData takes no size: a header that claims more bytes than there are, or PTX text
// with no end, must come back as CUDA_ERROR_INVALID_IMAGE without reading past the memory that is
// there (each image below ends where an unmapped page begins); so must every damaged container.
#include "warpforge/module/wfx.h"

#include <sys/mman.h>
#include <unistd.h>

namespace {

constexpr int kInvalidImage = 200;

/// Two pages, the second unmapped: `bytes` placed so that they end where the mapping does.
struct EdgeOfMemory {
  size_t page = size_t(sysconf(_SC_PAGESIZE));
  uint8_t *base = nullptr;
  explicit EdgeOfMemory() {
    void *p = mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    base = static_cast<uint8_t *>(p);
    munmap(base + page, page);
  }
  ~EdgeOfMemory() { munmap(base, page); }
  const uint8_t *place(const std::vector<uint8_t> &bytes) {
    uint8_t *at = base + page - bytes.size();
    std::memcpy(at, bytes.data(), bytes.size());
    return at;
  }
};

TEST(DriverModuleLoad, CorruptImagesAreInvalidImage) {
  ASSERT_EQ(cuInit(0), kSuccess);
  std::string ptx = ".version 8.0\n.target sm_80\n.address_size 64\n"
                    ".visible .entry k()\n{\n\tret;\n}\n";
  using wf::rt::fatbin::Entry;
  std::vector<uint8_t> fatbin =
      wf::rt::fatbin::build({Entry{wf::rt::fatbin::kKindPtx, 80, 0, false, {ptx.begin(), ptx.end()}}},
                            false);
  void *module = nullptr;
  {
    EdgeOfMemory edge;
    ASSERT_EQ(cuModuleLoadData(&module, edge.place(fatbin)), kSuccess) << "an intact fatbinary";
  }
  {
    std::vector<uint8_t> bad = fatbin;
    uint64_t body = 1 << 20; // a body far longer than the bytes that follow
    std::memcpy(&bad[8], &body, 8);
    EdgeOfMemory edge;
    EXPECT_EQ(cuModuleLoadData(&module, edge.place(bad)), kInvalidImage);
  }
  {
    std::vector<uint8_t> bad = fatbin;
    uint64_t body = uint64_t(1) << 50;
    std::memcpy(&bad[8], &body, 8);
    EdgeOfMemory edge;
    EXPECT_EQ(cuModuleLoadData(&module, edge.place(bad)), kInvalidImage);
  }
  {
    std::vector<uint8_t> compressed = wf::rt::fatbin::build(
        {Entry{wf::rt::fatbin::kKindPtx, 80, 0, false, {ptx.begin(), ptx.end()}}}, true);
    std::vector<uint8_t> bad = compressed;
    uint32_t headerSize = 0xfffffff0u;
    std::memcpy(&bad[16 + 4], &headerSize, 4); // EntryHeader::headerSize
    EXPECT_EQ(cuModuleLoadData(&module, bad.data()), kInvalidImage);
    bad = compressed;
    uint64_t uncompressed = uint64_t(1) << 62;
    std::memcpy(&bad[16 + 56], &uncompressed, 8); // EntryHeader::uncompressedSize
    EXPECT_EQ(cuModuleLoadData(&module, bad.data()), kInvalidImage);
  }
  {
    wf::wfx::Module m;
    auto bytes = wf::wfx::write(m);
    ASSERT_TRUE(bytes);
    std::vector<uint8_t> bad = *bytes;
    uint32_t total = 1 << 20;
    std::memcpy(&bad[16], &total, 4); // the module's total size
    EdgeOfMemory edge;
    EXPECT_EQ(cuModuleLoadData(&module, edge.place(bad)), kInvalidImage);
    bad = *bytes;
    bad.resize(bad.size() / 2); // cut short: the header's size is still the whole module's
    EdgeOfMemory cut;
    EXPECT_EQ(cuModuleLoadData(&module, cut.place(bad)), kInvalidImage);
  }
  {
    std::vector<uint8_t> text(ptx.begin(), ptx.end()); // no NUL before the unmapped page
    EdgeOfMemory edge;
    EXPECT_EQ(cuModuleLoadData(&module, edge.place(text)), kInvalidImage);
  }
}

} // namespace

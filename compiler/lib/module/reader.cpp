// Decodes .wfx bytes into a Module. Every offset and count from the file is checked against the
// bytes actually there before use, so a corrupt or hostile file gives an error, never a bad read.
#include "format.h"
#include "warpforge/module/wfx.h"

#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <iterator>
#include <optional>

namespace wf::wfx {
namespace {

uint32_t load32(const uint8_t *p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
uint16_t load16(const uint8_t *p) { return uint16_t(p[0] | p[1] << 8); }

/// Sequential little-endian reads from one section; callers check the size first, and every
/// read is still bounds-checked.
class Cursor {
public:
  explicit Cursor(std::span<const uint8_t> data) : data_(data) {}
  bool u32(uint32_t &value) {
    if (data_.size() - pos_ < 4)
      return false;
    value = load32(data_.data() + pos_);
    pos_ += 4;
    return true;
  }
  bool u64(uint64_t &value) {
    uint32_t lo = 0, hi = 0;
    if (!u32(lo) || !u32(hi))
      return false;
    value = uint64_t(lo) | uint64_t(hi) << 32;
    return true;
  }
  bool dim3(Dim3 &dim) { return u32(dim.x) && u32(dim.y) && u32(dim.z); }
  size_t position() const { return pos_; }

private:
  std::span<const uint8_t> data_;
  size_t pos_ = 0;
};

struct SectionView {
  uint32_t offset = 0;
  std::span<const uint8_t> data;
};

class Reader {
public:
  Reader(std::span<const uint8_t> bytes, const std::string &where) : bytes_(bytes), where_(where) {}

  Expected<Module> run() {
    if (auto status = readHeader(); !status)
      return status.error();
    if (auto status = readSectionTable(); !status)
      return status.error();
    Module module;
    module.flags = flags_;
    for (auto step : {&Reader::readCode, &Reader::readData, &Reader::readKernels,
                      &Reader::readSymbols, &Reader::readRelocs, &Reader::readLines})
      if (auto status = (this->*step)(module); !status)
        return status.error();
    if (auto status = validate(module, where_); !status)
      return status.error();
    return module;
  }

private:
  template <typename... Args> Error fail(fmt::format_string<Args...> format, Args &&...args) {
    return Error(fmt::format(format, std::forward<Args>(args)...), SourceLoc{where_});
  }

  Status<> readHeader() {
    if (bytes_.size() < kHeaderSize)
      return fail("truncated: {} bytes is shorter than the {}-byte header", bytes_.size(),
                  kHeaderSize);
    if (std::memcmp(bytes_.data(), kMagic.data(), kMagic.size()) != 0)
      return fail("not a .wfx module (bad magic)");
    const uint8_t *h = bytes_.data();
    uint16_t major = load16(h + format::kHdrVersionMajor);
    uint16_t minor = load16(h + format::kHdrVersionMinor);
    if (major != kVersionMajor)
      return fail("unsupported .wfx version {}.{} (this reader reads {}.x)", major, minor,
                  kVersionMajor);
    uint32_t flags = load32(h + format::kHdrFlags);
    if (flags & kRequiredFlagsMask)
      return fail("unknown required feature flags 0x{:x}", flags & kRequiredFlagsMask);
    flags_ = flags;
    headerSize_ = load32(h + format::kHdrHeaderSize);
    uint32_t totalSize = load32(h + format::kHdrTotalSize);
    if (totalSize != bytes_.size())
      return fail("{}: the header says {} bytes, the input has {}",
                  totalSize > bytes_.size() ? "truncated" : "trailing bytes", totalSize,
                  bytes_.size());
    if (headerSize_ < kHeaderSize || headerSize_ > totalSize)
      return fail("header size {} is out of range", headerSize_);
    sectionCount_ = load32(h + format::kHdrSectionCount);
    sectionTable_ = load32(h + format::kHdrSectionTable);
    return {};
  }

  Status<> readSectionTable() {
    if (sectionCount_ > kMaxSections)
      return fail("{} sections; at most {} are allowed", sectionCount_, kMaxSections);
    uint64_t tableEnd = uint64_t(sectionTable_) + uint64_t(sectionCount_) * kSectionEntrySize;
    if (sectionTable_ % 4 != 0 || sectionTable_ < headerSize_ || tableEnd > bytes_.size())
      return fail("section table at byte 0x{:x} ({} entries) is outside the file or overlaps the "
                  "header",
                  sectionTable_, sectionCount_);
    // Claimed byte ranges, to reject sections overlapping the header, the table or each other.
    std::vector<std::pair<uint64_t, uint64_t>> claimed{{0, headerSize_}, {sectionTable_, tableEnd}};
    for (uint32_t i = 0; i < sectionCount_; ++i) {
      const uint8_t *entry = bytes_.data() + sectionTable_ + i * kSectionEntrySize;
      uint32_t type = load32(entry);
      uint32_t offset = load32(entry + 4);
      uint32_t size = load32(entry + 8);
      uint32_t align = load32(entry + 12);
      std::string name =
          fmt::format("section {} ({})", i, sectionName(static_cast<SectionType>(type)));
      uint64_t end = uint64_t(offset) + size;
      if (end > bytes_.size())
        return fail("{} at byte 0x{:x}, size {}, runs past the end of the file ({} bytes)", name,
                    offset, size, bytes_.size());
      if (align == 0 || (align & (align - 1)) != 0 || align > format::kMaxSectionAlign ||
          offset % align != 0)
        return fail("{} at byte 0x{:x} has bad alignment {}", name, offset, align);
      for (auto [lo, hi] : claimed)
        if (size != 0 && offset < hi && lo < end)
          return fail("{} at byte 0x{:x}, size {}, overlaps the header, the section table or "
                      "another section",
                      name, offset, size);
      claimed.emplace_back(offset, end);
      if (type < 1 || type > kKnownTypes)
        continue; // a later minor version's section: skipped by design
      if (sections_[type])
        return fail("{} appears twice", name);
      sections_[type] = SectionView{offset, bytes_.subspan(offset, size)};
    }
    if (auto status = readStrings(); !status)
      return status;
    return {};
  }

  std::span<const uint8_t> section(SectionType type) const {
    const auto &view = sections_[uint32_t(type)];
    return view ? view->data : std::span<const uint8_t>();
  }

  Status<> checkSize(SectionType type, uint64_t expected, std::string_view what) {
    uint64_t actual = section(type).size();
    if (actual != expected)
      return fail("{} section is {} bytes but its {} need {}", sectionName(type), actual, what,
                  expected);
    return {};
  }

  Status<> readStrings() {
    strings_ = section(SectionType::Strings);
    if (!strings_.empty() && strings_[0] != 0)
      return fail("STRINGS section does not start with the empty string");
    return {};
  }

  /// The NUL-terminated string at `offset` of STRINGS, checked to lie entirely inside it.
  Expected<std::string> string(uint32_t offset, const std::string &what) {
    if (offset == 0 && strings_.empty())
      return std::string();
    if (offset >= strings_.size())
      return fail("{}: string offset {} is outside STRINGS ({} bytes)", what, offset,
                  strings_.size());
    const uint8_t *start = strings_.data() + offset;
    const void *nul = std::memchr(start, 0, strings_.size() - offset);
    if (!nul)
      return fail("{}: string at offset {} is not terminated inside STRINGS", what, offset);
    return std::string(reinterpret_cast<const char *>(start),
                       static_cast<const uint8_t *>(nul) - start);
  }

  Status<> readCode(Module &module) {
    auto code = section(SectionType::Code);
    module.code.assign(code.begin(), code.end());
    return {};
  }

  Status<> readDataSegment(SectionType type, DataSegment &segment) {
    auto data = section(type);
    if (data.empty() && !sections_[uint32_t(type)])
      return {}; // absent: empty
    if (data.size() < format::kDataHeaderSize)
      return fail("{} section is {} bytes, shorter than its {}-byte header", sectionName(type),
                  data.size(), format::kDataHeaderSize);
    Cursor cursor(data);
    cursor.u32(segment.align);
    cursor.u32(segment.zeroFill);
    segment.image.assign(data.begin() + format::kDataHeaderSize, data.end());
    return {};
  }

  Status<> readData(Module &module) {
    if (auto status = readDataSegment(SectionType::Const, module.constant); !status)
      return status;
    return readDataSegment(SectionType::Global, module.global);
  }

  Status<> readKernels(Module &module) {
    auto data = section(SectionType::Kernels);
    if (data.empty())
      return {};
    if (data.size() < format::kKernelsHeaderSize)
      return fail("KERNELS section is {} bytes, shorter than its header", data.size());
    Cursor cursor(data);
    uint32_t kernelCount = 0, paramCount = 0;
    cursor.u32(kernelCount);
    cursor.u32(paramCount);
    uint64_t need = format::kKernelsHeaderSize + uint64_t(kernelCount) * format::kKernelRecordSize +
                    uint64_t(paramCount) * format::kParamRecordSize;
    if (auto status =
            checkSize(SectionType::Kernels, need,
                      fmt::format("{} kernels and {} parameters", kernelCount, paramCount));
        !status)
      return status;
    struct Range {
      uint32_t first, count;
    };
    std::vector<Range> ranges;
    for (uint32_t k = 0; k < kernelCount; ++k) {
      Kernel kernel;
      uint32_t name = 0;
      Range range{};
      cursor.u32(name);
      cursor.u32(kernel.entry);
      cursor.u32(kernel.codeSize);
      cursor.u32(kernel.regsPerThread);
      cursor.u32(kernel.sharedBytes);
      cursor.u32(kernel.localBytes);
      cursor.u32(kernel.paramBytes);
      cursor.u32(range.first);
      cursor.u32(range.count);
      cursor.dim3(kernel.maxntid);
      cursor.dim3(kernel.reqntid);
      cursor.u32(kernel.minCtasPerSm);
      auto text = string(name, fmt::format("kernel {} name", k));
      if (!text)
        return text.error();
      kernel.name = std::move(*text);
      if (uint64_t(range.first) + range.count > paramCount)
        return fail("kernel '{}' parameters {}+{} are outside the {} parameter entries",
                    kernel.name, range.first, range.count, paramCount);
      module.kernels.push_back(std::move(kernel));
      ranges.push_back(range);
    }
    std::vector<ParamEntry> params(paramCount);
    for (ParamEntry &param : params) {
      cursor.u32(param.offset);
      cursor.u32(param.size);
      cursor.u32(param.align);
    }
    for (uint32_t k = 0; k < kernelCount; ++k)
      module.kernels[k].params.assign(params.begin() + ranges[k].first,
                                      params.begin() + ranges[k].first + ranges[k].count);
    return {};
  }

  Status<> readSymbols(Module &module) {
    auto data = section(SectionType::Symbols);
    if (data.size() % format::kSymbolRecordSize != 0)
      return fail("SYMBOLS section size {} is not a multiple of the {}-byte record", data.size(),
                  format::kSymbolRecordSize);
    Cursor cursor(data);
    for (size_t s = 0; s < data.size() / format::kSymbolRecordSize; ++s) {
      uint32_t name = 0, segment = 0;
      Symbol symbol;
      cursor.u32(name);
      cursor.u32(segment);
      cursor.u32(symbol.offset);
      cursor.u32(symbol.size);
      auto text = string(name, fmt::format("symbol {} name", s));
      if (!text)
        return text.error();
      symbol.name = std::move(*text);
      if (!isSegment(segment))
        return fail("symbol '{}' is in unknown segment {}", symbol.name, segment);
      symbol.segment = Segment(segment);
      module.symbols.push_back(std::move(symbol));
    }
    return {};
  }

  Status<> readRelocs(Module &module) {
    auto data = section(SectionType::Relocs);
    if (data.size() % format::kRelocRecordSize != 0)
      return fail("RELOCS section size {} is not a multiple of the {}-byte record", data.size(),
                  format::kRelocRecordSize);
    Cursor cursor(data);
    for (size_t r = 0; r < data.size() / format::kRelocRecordSize; ++r) {
      uint32_t segment = 0, kind = 0, target = 0, reserved = 0;
      uint64_t addend = 0;
      Reloc reloc;
      cursor.u32(segment);
      cursor.u32(reloc.offset);
      cursor.u32(kind);
      cursor.u32(target);
      cursor.u32(reloc.symbol);
      cursor.u32(reserved);
      cursor.u64(addend);
      if (!isSegment(segment) || !isSegment(target))
        return fail("relocation {} names an unknown segment", r);
      if (reserved != 0)
        return fail("relocation {} has a nonzero reserved field", r);
      reloc.segment = Segment(segment);
      reloc.kind = RelocKind(kind);
      reloc.target = Segment(target);
      reloc.addend = int64_t(addend);
      module.relocs.push_back(reloc);
    }
    return {};
  }

  Status<> readLines(Module &module) {
    auto data = section(SectionType::Lines);
    if (data.empty())
      return {};
    if (data.size() < format::kLinesHeaderSize)
      return fail("LINES section is {} bytes, shorter than its header", data.size());
    Cursor cursor(data);
    uint32_t fileCount = 0, rowCount = 0;
    cursor.u32(fileCount);
    cursor.u32(rowCount);
    uint64_t need = format::kLinesHeaderSize + uint64_t(fileCount) * 4 +
                    uint64_t(rowCount) * format::kLineRecordSize;
    if (auto status = checkSize(SectionType::Lines, need,
                                fmt::format("{} files and {} rows", fileCount, rowCount));
        !status)
      return status;
    for (uint32_t f = 0; f < fileCount; ++f) {
      uint32_t name = 0;
      cursor.u32(name);
      auto text = string(name, fmt::format("line table file {}", f));
      if (!text)
        return text.error();
      module.files.push_back(std::move(*text));
    }
    module.lines.resize(rowCount);
    for (LineRow &row : module.lines) {
      cursor.u32(row.codeOffset);
      cursor.u32(row.file);
      cursor.u32(row.line);
      cursor.u32(row.column);
    }
    return {};
  }

  static constexpr uint32_t kKnownTypes = uint32_t(SectionType::Lines);

  std::span<const uint8_t> bytes_;
  const std::string &where_;
  uint32_t flags_ = 0;
  uint32_t headerSize_ = 0;
  uint32_t sectionCount_ = 0;
  uint32_t sectionTable_ = 0;
  std::array<std::optional<SectionView>, kKnownTypes + 1> sections_{};
  std::span<const uint8_t> strings_;
};

} // namespace

Expected<Module> read(std::span<const uint8_t> bytes, const std::string &where) {
  return Reader(bytes, where).run();
}

Expected<Module> readFile(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  if (!file)
    return Error("cannot open", SourceLoc{path});
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)),
                             std::istreambuf_iterator<char>());
  if (file.bad())
    return Error("read failed", SourceLoc{path});
  return read(bytes, path);
}

} // namespace wf::wfx

// Encodes a Module as .wfx bytes (layout: docs/wfx.md).
#include "format.h"
#include "warpforge/module/wfx.h"

#include <fmt/format.h>
#include <fstream>
#include <map>

namespace wf::wfx {
namespace {

class ByteWriter {
public:
  void u8(uint8_t value) { bytes_.push_back(value); }
  void u16(uint16_t value) { le(value, 2); }
  void u32(uint32_t value) { le(value, 4); }
  void u64(uint64_t value) { le(value, 8); }
  void raw(const std::vector<uint8_t> &data) {
    bytes_.insert(bytes_.end(), data.begin(), data.end());
  }
  void padTo(size_t align) {
    while (bytes_.size() % align != 0)
      bytes_.push_back(0);
  }
  void put32At(size_t offset, uint32_t value) {
    for (unsigned i = 0; i < 4; ++i)
      bytes_[offset + i] = uint8_t(value >> (8 * i));
  }
  size_t size() const { return bytes_.size(); }
  std::vector<uint8_t> take() { return std::move(bytes_); }

private:
  void le(uint64_t value, unsigned n) {
    for (unsigned i = 0; i < n; ++i)
      bytes_.push_back(uint8_t(value >> (8 * i)));
  }
  std::vector<uint8_t> bytes_;
};

/// NUL-terminated strings, each stored once; offset 0 is the empty string.
class StringTable {
public:
  StringTable() { writer_.u8(0); }
  uint32_t add(const std::string &text) {
    if (text.empty())
      return 0;
    auto [it, inserted] = offsets_.try_emplace(text, uint32_t(writer_.size()));
    if (inserted) {
      for (char c : text)
        writer_.u8(uint8_t(c));
      writer_.u8(0);
    }
    return it->second;
  }
  std::vector<uint8_t> take() { return writer_.take(); }

private:
  ByteWriter writer_;
  std::map<std::string, uint32_t> offsets_;
};

std::vector<uint8_t> dataSection(const DataSegment &data) {
  ByteWriter out;
  out.u32(data.align);
  out.u32(data.zeroFill);
  out.raw(data.image);
  return out.take();
}

void dim3(ByteWriter &out, const Dim3 &dim) {
  out.u32(dim.x);
  out.u32(dim.y);
  out.u32(dim.z);
}

std::vector<uint8_t> kernelsSection(const Module &module, StringTable &strings) {
  ByteWriter out;
  size_t paramCount = 0;
  for (const Kernel &kernel : module.kernels)
    paramCount += kernel.params.size();
  out.u32(uint32_t(module.kernels.size()));
  out.u32(uint32_t(paramCount));
  uint32_t firstParam = 0;
  for (const Kernel &kernel : module.kernels) {
    out.u32(strings.add(kernel.name));
    out.u32(kernel.entry);
    out.u32(kernel.codeSize);
    out.u32(kernel.regsPerThread);
    out.u32(kernel.sharedBytes);
    out.u32(kernel.localBytes);
    out.u32(kernel.paramBytes);
    out.u32(firstParam);
    out.u32(uint32_t(kernel.params.size()));
    dim3(out, kernel.maxntid);
    dim3(out, kernel.reqntid);
    out.u32(kernel.minCtasPerSm);
    firstParam += uint32_t(kernel.params.size());
  }
  for (const Kernel &kernel : module.kernels)
    for (const ParamEntry &param : kernel.params) {
      out.u32(param.offset);
      out.u32(param.size);
      out.u32(param.align);
    }
  return out.take();
}

std::vector<uint8_t> symbolsSection(const Module &module, StringTable &strings) {
  ByteWriter out;
  for (const Symbol &symbol : module.symbols) {
    out.u32(strings.add(symbol.name));
    out.u32(uint32_t(symbol.segment));
    out.u32(symbol.offset);
    out.u32(symbol.size);
  }
  return out.take();
}

std::vector<uint8_t> relocsSection(const Module &module) {
  ByteWriter out;
  for (const Reloc &reloc : module.relocs) {
    out.u32(uint32_t(reloc.segment));
    out.u32(reloc.offset);
    out.u32(uint32_t(reloc.kind));
    out.u32(uint32_t(reloc.target));
    out.u32(reloc.symbol);
    out.u32(0);
    out.u64(uint64_t(reloc.addend));
  }
  return out.take();
}

std::vector<uint8_t> linesSection(const Module &module, StringTable &strings) {
  ByteWriter out;
  out.u32(uint32_t(module.files.size()));
  out.u32(uint32_t(module.lines.size()));
  for (const std::string &file : module.files)
    out.u32(strings.add(file));
  for (const LineRow &row : module.lines) {
    out.u32(row.codeOffset);
    out.u32(row.file);
    out.u32(row.line);
    out.u32(row.column);
  }
  return out.take();
}

} // namespace

Expected<std::vector<uint8_t>> write(const Module &module) {
  if (auto status = validate(module); !status)
    return status.error();

  StringTable strings;
  // Every section is written, empty or not, in type order; STRINGS last, once all names are in.
  std::vector<std::pair<SectionType, std::vector<uint8_t>>> sections;
  sections.emplace_back(SectionType::Code, module.code);
  sections.emplace_back(SectionType::Const, dataSection(module.constant));
  sections.emplace_back(SectionType::Global, dataSection(module.global));
  sections.emplace_back(SectionType::Kernels, kernelsSection(module, strings));
  sections.emplace_back(SectionType::Symbols, symbolsSection(module, strings));
  sections.emplace_back(SectionType::Relocs, relocsSection(module));
  sections.emplace_back(SectionType::Lines, linesSection(module, strings));
  sections.emplace_back(SectionType::Strings, strings.take());

  ByteWriter out;
  for (uint8_t c : kMagic)
    out.u8(c);
  out.u16(kVersionMajor);
  out.u16(kVersionMinor);
  out.u32(module.flags);
  out.u32(kHeaderSize);
  out.u32(0); // total size, patched below
  out.u32(uint32_t(sections.size()));
  out.u32(kHeaderSize); // the section table follows the header
  out.u32(0);

  size_t tableOffset = out.size();
  for (size_t i = 0; i < sections.size(); ++i)
    for (unsigned w = 0; w < kSectionEntrySize / 4; ++w)
      out.u32(0);
  for (size_t i = 0; i < sections.size(); ++i) {
    out.padTo(format::kSectionAlign);
    size_t entry = tableOffset + i * kSectionEntrySize;
    const auto &[type, data] = sections[i];
    if (out.size() + data.size() > 0xffffffffull)
      return Error("module larger than 4 GiB");
    out.put32At(entry + 0, uint32_t(type));
    out.put32At(entry + 4, uint32_t(out.size()));
    out.put32At(entry + 8, uint32_t(data.size()));
    out.put32At(entry + 12, format::kSectionAlign);
    out.raw(data);
  }
  out.padTo(format::kSectionAlign);
  out.put32At(format::kHdrTotalSize, uint32_t(out.size()));
  return out.take();
}

Status<> writeFile(const std::string &path, const Module &module) {
  auto bytes = write(module);
  if (!bytes)
    return Error(bytes.error().message, SourceLoc{path});
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file)
    return Error("cannot open for writing", SourceLoc{path});
  file.write(reinterpret_cast<const char *>(bytes->data()), std::streamsize(bytes->size()));
  if (!file)
    return Error("write failed", SourceLoc{path});
  return {};
}

} // namespace wf::wfx

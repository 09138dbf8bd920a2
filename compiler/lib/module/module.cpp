// The in-memory module: look-ups and the validation shared by the writer and the reader.
#include "warpforge/module/wfx.h"

#include "warpforge/isa/isa.gen.h"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <set>

namespace wf::wfx {

std::string_view sectionName(SectionType type) {
  switch (type) {
  case SectionType::Strings:
    return "STRINGS";
  case SectionType::Code:
    return "CODE";
  case SectionType::Const:
    return "CONST";
  case SectionType::Global:
    return "GLOBAL";
  case SectionType::Kernels:
    return "KERNELS";
  case SectionType::Symbols:
    return "SYMBOLS";
  case SectionType::Relocs:
    return "RELOCS";
  case SectionType::Lines:
    return "LINES";
  }
  return "?";
}

std::string_view segmentName(Segment segment) {
  return sectionName(static_cast<SectionType>(segment));
}

bool isSegment(uint32_t value) {
  return value == uint32_t(Segment::Code) || value == uint32_t(Segment::Const) ||
         value == uint32_t(Segment::Global);
}

const Kernel *Module::findKernel(std::string_view name) const {
  for (const Kernel &kernel : kernels)
    if (kernel.name == name)
      return &kernel;
  return nullptr;
}

const Symbol *Module::findSymbol(std::string_view name) const {
  for (const Symbol &symbol : symbols)
    if (symbol.name == name)
      return &symbol;
  return nullptr;
}

const LineRow *Module::lineAt(uint32_t codeOffset) const {
  auto after =
      std::upper_bound(lines.begin(), lines.end(), codeOffset,
                       [](uint32_t offset, const LineRow &row) { return offset < row.codeOffset; });
  if (after == lines.begin())
    return nullptr;
  return &*std::prev(after);
}

uint64_t Module::segmentSize(Segment segment) const {
  switch (segment) {
  case Segment::Code:
    return code.size();
  case Segment::Const:
    return constant.size();
  case Segment::Global:
    return global.size();
  }
  return 0;
}

int64_t Module::relocTargetOffset(const Reloc &reloc) const {
  int64_t base = 0;
  if (reloc.symbol != kNoSymbol && reloc.symbol < symbols.size())
    base = symbols[reloc.symbol].offset;
  return base + reloc.addend;
}

namespace {

bool isPowerOfTwo(uint64_t value) { return value != 0 && (value & (value - 1)) == 0; }

constexpr uint64_t kMaxSize = std::numeric_limits<uint32_t>::max();
constexpr uint32_t kMaxDataAlign = 65536;

/// Whether the instruction word `word` has a 32-bit immediate field starting at byte `byteInWord`
/// (what a code relocation may patch). Table-driven: any operand whose field, or whose address
/// offset field, is exactly those 32 bits.
bool hasImm32At(uint64_t word, uint32_t byteInWord) {
  const isa::OpInfo &info = isa::kOps[isa::getField(word, isa::FormatR::op)];
  if (!info.valid)
    return false;
  for (unsigned i = 0; i < info.numOperands; ++i) {
    const isa::OperandInfo &operand = info.operands[i];
    for (isa::Field field : {operand.field, operand.imm})
      if (field.width == 32 && field.lo == byteInWord * 8)
        return true;
  }
  return false;
}

class Validator {
public:
  Validator(const Module &module, const std::string &where) : m_(module), where_(where) {}

  Status<> run() {
    if (m_.flags & kRequiredFlagsMask)
      return fail("unknown required feature flags 0x{:x}", m_.flags & kRequiredFlagsMask);
    if (auto status = checkSegments(); !status)
      return status;
    if (auto status = checkKernels(); !status)
      return status;
    if (auto status = checkSymbols(); !status)
      return status;
    if (auto status = checkRelocs(); !status)
      return status;
    return checkLines();
  }

private:
  template <typename... Args> Error fail(fmt::format_string<Args...> format, Args &&...args) {
    return Error(fmt::format(format, std::forward<Args>(args)...), SourceLoc{where_});
  }

  Status<> checkSegments() {
    if (m_.code.size() > kMaxSize)
      return fail("code segment larger than 4 GiB");
    if (m_.code.size() % isa::kInstBytes != 0)
      return fail("code size {} is not a multiple of the {}-byte instruction", m_.code.size(),
                  isa::kInstBytes);
    for (auto [segment, data] : {std::pair{"CONST", &m_.constant}, {"GLOBAL", &m_.global}}) {
      if (data->size() > kMaxSize)
        return fail("{} segment larger than 4 GiB", segment);
      if (!isPowerOfTwo(data->align) || data->align > kMaxDataAlign)
        return fail("{} segment alignment {} is not a power of two up to {}", segment, data->align,
                    kMaxDataAlign);
    }
    return {};
  }

  Status<> checkKernels() {
    std::set<std::string_view> names;
    for (size_t k = 0; k < m_.kernels.size(); ++k) {
      const Kernel &kernel = m_.kernels[k];
      if (kernel.name.empty())
        return fail("kernel {} has no name", k);
      if (!names.insert(kernel.name).second)
        return fail("kernel '{}' is defined twice", kernel.name);
      if (kernel.entry % isa::kInstBytes != 0 || kernel.entry >= m_.code.size())
        return fail("kernel '{}' entry 0x{:x} is not an instruction inside the code (size 0x{:x})",
                    kernel.name, kernel.entry, m_.code.size());
      if (kernel.codeSize % isa::kInstBytes != 0 ||
          uint64_t(kernel.entry) + kernel.codeSize > m_.code.size())
        return fail("kernel '{}' code range 0x{:x}+0x{:x} is outside the code (size 0x{:x})",
                    kernel.name, kernel.entry, kernel.codeSize, m_.code.size());
      if (kernel.regsPerThread > isa::kNumRegs)
        return fail("kernel '{}' uses {} registers; at most {} exist", kernel.name,
                    kernel.regsPerThread, isa::kNumRegs);
      uint64_t end = 0;
      for (size_t p = 0; p < kernel.params.size(); ++p) {
        const ParamEntry &param = kernel.params[p];
        if (!isPowerOfTwo(param.align) || param.offset % param.align != 0 || param.size == 0 ||
            param.offset < end || uint64_t(param.offset) + param.size > kernel.paramBytes)
          return fail("kernel '{}' parameter {} (offset {}, size {}, align {}) is misplaced in "
                      "its {}-byte buffer",
                      kernel.name, p, param.offset, param.size, param.align, kernel.paramBytes);
        end = uint64_t(param.offset) + param.size;
      }
      for (auto [what, dim] : {std::pair{"maxntid", kernel.maxntid}, {"reqntid", kernel.reqntid}})
        if (dim.x == 0 ? (dim.y != 0 || dim.z != 0) : (dim.y == 0 || dim.z == 0))
          return fail("kernel '{}' {} ({},{},{}) is neither unspecified nor a block shape",
                      kernel.name, what, dim.x, dim.y, dim.z);
    }
    return {};
  }

  Status<> checkSymbols() {
    std::set<std::string_view> names;
    for (size_t s = 0; s < m_.symbols.size(); ++s) {
      const Symbol &symbol = m_.symbols[s];
      if (symbol.name.empty())
        return fail("symbol {} has no name", s);
      if (!names.insert(symbol.name).second)
        return fail("symbol '{}' is defined twice", symbol.name);
      if (!isSegment(uint32_t(symbol.segment)))
        return fail("symbol '{}' is in unknown segment {}", symbol.name, uint32_t(symbol.segment));
      if (uint64_t(symbol.offset) + symbol.size > m_.segmentSize(symbol.segment))
        return fail("symbol '{}' (offset 0x{:x}, size {}) is outside {} (size 0x{:x})", symbol.name,
                    symbol.offset, symbol.size, segmentName(symbol.segment),
                    m_.segmentSize(symbol.segment));
    }
    return {};
  }

  Status<> checkRelocs() {
    // Patched fields, to reject two relocations writing the same bytes.
    std::set<std::pair<uint32_t, uint32_t>> patched;
    for (size_t r = 0; r < m_.relocs.size(); ++r) {
      const Reloc &reloc = m_.relocs[r];
      if (!isSegment(uint32_t(reloc.segment)) || !isSegment(uint32_t(reloc.target)))
        return fail("relocation {} names an unknown segment", r);
      if (reloc.kind != RelocKind::AbsLo32 && reloc.kind != RelocKind::AbsHi32)
        return fail("relocation {} has unknown kind {}", r, uint32_t(reloc.kind));
      uint64_t size = m_.segmentSize(reloc.segment);
      if (reloc.offset % 4 != 0 || uint64_t(reloc.offset) + 4 > size)
        return fail(
            "relocation {} patches offset 0x{:x}, outside or misaligned in {} (size 0x{:x})", r,
            reloc.offset, segmentName(reloc.segment), size);
      if (reloc.segment == Segment::Code) {
        uint32_t instOffset = reloc.offset - reloc.offset % isa::kInstBytes;
        uint64_t word = 0;
        for (unsigned b = 0; b < isa::kInstBytes; ++b)
          word |= uint64_t(m_.code[instOffset + b]) << (8 * b);
        if (!hasImm32At(word, reloc.offset % isa::kInstBytes))
          return fail("relocation {} patches code offset 0x{:x}, which is not a 32-bit immediate",
                      r, reloc.offset);
      }
      if (!patched.insert({uint32_t(reloc.segment), reloc.offset}).second)
        return fail("relocations patch {} offset 0x{:x} twice", segmentName(reloc.segment),
                    reloc.offset);
      if (reloc.symbol != kNoSymbol) {
        if (reloc.symbol >= m_.symbols.size())
          return fail("relocation {} names symbol {}, but there are {}", r, reloc.symbol,
                      m_.symbols.size());
        if (m_.symbols[reloc.symbol].segment != reloc.target)
          return fail("relocation {} targets {} but its symbol '{}' is in {}", r,
                      segmentName(reloc.target), m_.symbols[reloc.symbol].name,
                      segmentName(m_.symbols[reloc.symbol].segment));
      }
      // Guard the addition below against overflow before checking the range.
      if (reloc.addend < -int64_t(kMaxSize) * 2 || reloc.addend > int64_t(kMaxSize) * 2)
        return fail("relocation {} addend {} is out of range", r, reloc.addend);
      int64_t target = m_.relocTargetOffset(reloc);
      uint64_t targetSize = m_.segmentSize(reloc.target);
      if (target < 0 || uint64_t(target) > targetSize)
        return fail("relocation {} points at offset {} of {}, outside its 0x{:x} bytes", r, target,
                    segmentName(reloc.target), targetSize);
    }
    return {};
  }

  Status<> checkLines() {
    for (size_t i = 0; i < m_.lines.size(); ++i) {
      const LineRow &row = m_.lines[i];
      if (row.codeOffset % isa::kInstBytes != 0 || row.codeOffset >= m_.code.size())
        return fail("line row {} names code offset 0x{:x}, not an instruction inside the code", i,
                    row.codeOffset);
      if (i > 0 && row.codeOffset <= m_.lines[i - 1].codeOffset)
        return fail("line rows are not sorted by code offset (row {})", i);
      if (row.file >= m_.files.size())
        return fail("line row {} names file {}, but there are {}", i, row.file, m_.files.size());
    }
    return {};
  }

  const Module &m_;
  const std::string &where_;
};

} // namespace

Status<> validate(const Module &module, const std::string &where) {
  return Validator(module, where).run();
}

} // namespace wf::wfx

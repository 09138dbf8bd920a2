// The .wfx native module: code, constant and global data, kernel metadata, symbols, relocations
// and a line table. The byte layout is documented in docs/wfx.md; this header is the in-memory
// form, the writer, the validating reader and the loader that places a module at device addresses.
#pragma once

#include "warpforge/support/error.h"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace wf::wfx {

inline constexpr std::array<uint8_t, 4> kMagic{'W', 'F', 'X', 'M'};
inline constexpr uint16_t kVersionMajor = 1;
inline constexpr uint16_t kVersionMinor = 1;
inline constexpr uint32_t kHeaderSize = 32;
inline constexpr uint32_t kSectionEntrySize = 16;
inline constexpr uint32_t kMaxSections = 64;
/// Header flag bits 0..15 are required features (a reader rejects any it does not know);
/// bits 16..31 are optional (a reader may ignore them). Version 1.1 defines one optional flag.
inline constexpr uint32_t kRequiredFlagsMask = 0x0000ffff;
/// Optional: the module's code calls the device heap allocator (in-kernel malloc/free), so the
/// loader reserves the context's device heap before running it.
inline constexpr uint32_t kFlagDeviceHeap = 1u << 16;

enum class SectionType : uint32_t {
  Strings = 1,
  Code = 2,
  Const = 3,
  Global = 4,
  Kernels = 5,
  Symbols = 6,
  Relocs = 7,
  Lines = 8,
};

/// The three parts of a module placed in device memory. Values equal their section types.
enum class Segment : uint32_t {
  Code = 2,
  Const = 3,
  Global = 4,
};

/// "CODE", "KERNELS", ...; "?" for unknown values.
std::string_view sectionName(SectionType type);
std::string_view segmentName(Segment segment);
bool isSegment(uint32_t value);

/// Initialized bytes followed by zero bytes (only the image is stored in the file).
struct DataSegment {
  std::vector<uint8_t> image;
  uint32_t zeroFill = 0;
  uint32_t align = 8; ///< required alignment of the load address: a power of two

  uint64_t size() const { return image.size() + uint64_t(zeroFill); }
  bool operator==(const DataSegment &) const = default;
};

/// Thread-block dimensions; x == 0 means not specified (then y and z are 0 too).
struct Dim3 {
  uint32_t x = 0, y = 0, z = 0;

  bool specified() const { return x != 0; }
  uint64_t count() const { return uint64_t(x) * y * z; }
  bool operator==(const Dim3 &) const = default;
};

/// One kernel parameter in the parameter buffer.
struct ParamEntry {
  uint32_t offset = 0;
  uint32_t size = 0;
  uint32_t align = 1; ///< a power of two; offset is a multiple of it

  bool operator==(const ParamEntry &) const = default;
};

struct Kernel {
  std::string name;
  uint32_t entry = 0;    ///< code offset of the first instruction
  uint32_t codeSize = 0; ///< bytes of code from entry that belong to the kernel (for listings)
  uint32_t regsPerThread = 0;
  uint32_t sharedBytes = 0;       ///< static shared memory per block
  uint32_t localBytes = 0;        ///< local memory (stack) per thread
  uint32_t paramBytes = 0;        ///< parameter buffer size
  std::vector<ParamEntry> params; ///< layout of the parameter buffer; empty when not known
  Dim3 maxntid;
  Dim3 reqntid;
  uint32_t minCtasPerSm = 0; ///< 0: not specified

  bool operator==(const Kernel &) const = default;
};

/// A named location in a segment: a variable (cudaMemcpyToSymbol) or a code label.
struct Symbol {
  std::string name;
  Segment segment = Segment::Global;
  uint32_t offset = 0;
  uint32_t size = 0;

  bool operator==(const Symbol &) const = default;
};

enum class RelocKind : uint32_t {
  AbsLo32 = 1, ///< low 32 bits of the absolute device address
  AbsHi32 = 2, ///< high 32 bits
};

inline constexpr uint32_t kNoSymbol = 0xffffffff;

/// Patch the little-endian 32-bit field at `segment`+`offset` (an instruction's immediate or a data
/// word) with half of the device address of `target` + (symbol offset) + `addend`.
struct Reloc {
  Segment segment = Segment::Code;
  uint32_t offset = 0;
  RelocKind kind = RelocKind::AbsLo32;
  Segment target = Segment::Global;
  uint32_t symbol = kNoSymbol; ///< index into Module::symbols; then target is its segment
  int64_t addend = 0;

  bool operator==(const Reloc &) const = default;
};

/// Instructions from codeOffset up to the next row's offset came from file:line:column.
struct LineRow {
  uint32_t codeOffset = 0;
  uint32_t file = 0; ///< index into Module::files
  uint32_t line = 0;
  uint32_t column = 0;

  bool operator==(const LineRow &) const = default;
};

struct Module {
  uint32_t flags = 0; ///< header flags (kFlag*); no required ones are defined
  std::vector<uint8_t> code;
  DataSegment constant;
  DataSegment global;
  std::vector<Kernel> kernels;
  std::vector<Symbol> symbols;
  std::vector<Reloc> relocs;
  std::vector<std::string> files;
  std::vector<LineRow> lines; ///< sorted by codeOffset, strictly increasing

  const Kernel *findKernel(std::string_view name) const;
  const Symbol *findSymbol(std::string_view name) const;
  /// The line row covering the instruction at `codeOffset`, or nullptr.
  const LineRow *lineAt(uint32_t codeOffset) const;
  uint64_t segmentSize(Segment segment) const;
  /// Offset in the target segment that `reloc` points at (symbol offset plus addend).
  int64_t relocTargetOffset(const Reloc &reloc) const;

  bool operator==(const Module &) const = default;
};

/// Checks every rule the reader checks on a decoded module (sizes, offsets, indices, ordering).
/// `where` prefixes the messages (a file name).
Status<> validate(const Module &module, const std::string &where = {});

/// Encodes a module; fails if it does not validate.
Expected<std::vector<uint8_t>> write(const Module &module);
/// Decodes and validates; never reads outside `bytes`. `where` names the input in errors.
Expected<Module> read(std::span<const uint8_t> bytes, const std::string &where = {});

Expected<Module> readFile(const std::string &path);
Status<> writeFile(const std::string &path, const Module &module);

// --- Loading ---------------------------------------------------------------------------------

/// Device addresses of the three segments.
struct SegmentBases {
  uint64_t code = 0;
  uint64_t constant = 0;
  uint64_t global = 0;

  uint64_t of(Segment segment) const;
};

/// Segments placed one after the other from `base`, each aligned as it requires (code at least
/// to 256 bytes, data to max(its align, 256)); `end` is the first free address after them.
struct Placement {
  SegmentBases bases;
  uint64_t end = 0;
};
Placement placeSegments(const Module &module, uint64_t base);

/// Segment images ready to copy to device memory, with relocations applied.
struct LoadedModule {
  SegmentBases bases;
  std::vector<uint8_t> code;
  std::vector<uint8_t> constant; ///< image plus zero fill
  std::vector<uint8_t> global;   ///< image plus zero fill
  std::vector<Kernel> kernels;

  /// Device address of `symbol`, or 0 when there is none of that name.
  uint64_t symbolAddress(const Module &module, std::string_view symbol) const;
};

/// Applies `module`'s relocations for segments at `bases`. Fails when a base is misaligned, when
/// segments overlap, or when the module does not validate.
Expected<LoadedModule> load(const Module &module, const SegmentBases &bases);

} // namespace wf::wfx

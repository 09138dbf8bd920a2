// The CUDA fatbinary container that nvcc embeds in host programs: parsing, decompression (zstd),
// and building one (for tests). clang's host code (`-fcuda-include-gpubinary FILE`) uses the same
// wrapper but points it at FILE's raw bytes: `warpforge cc` embeds PTX text or a .wfx module.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace wf::rt::fatbin {

inline constexpr uint32_t kWrapperMagic = 0x466243b1; ///< __fatDeviceText
inline constexpr uint32_t kFatbinMagic = 0xBA55ED50;
inline constexpr uint16_t kKindPtx = 1;
inline constexpr uint16_t kKindElf = 2;
/// Not an nvcc kind: a Warpforge .wfx module embedded raw (clang's wrapper).
inline constexpr uint16_t kKindWfx = 0x5746;
inline constexpr uint64_t kFlag64Bit = 0x1;
inline constexpr uint64_t kFlagCompressedLz = 0x2000;   ///< older nvcc: NVIDIA's LZ variant
inline constexpr uint64_t kFlagCompressedZstd = 0x8000; ///< nvcc 12.8+/13: zstd

/// Limits on what a fatbinary may claim, so that a corrupt size is an error, not a huge
/// allocation: the entries of one fatbinary, and one entry's decompressed payload.
inline constexpr uint64_t kMaxFatbinBytes = uint64_t(4) << 30;
inline constexpr uint64_t kMaxEntryBytes = uint64_t(1) << 30;

/// The wrapper struct nvcc passes to __cudaRegisterFatBinary.
struct Wrapper {
  uint32_t magic;
  uint32_t version;
  const void *data;
  const void *filenameOrFatbins;
};

/// The fatbin header (16 bytes) and entry header (at least 64 bytes) as stored.
struct Header {
  uint32_t magic;
  uint16_t version;
  uint16_t headerSize;
  uint64_t fatSize; ///< bytes of entries after the header
};
struct EntryHeader {
  uint16_t kind;
  uint16_t version;
  uint32_t headerSize;
  uint64_t payloadSize; ///< bytes of payload (padded) after the entry header
  uint32_t compressedSize;
  uint32_t unknown0;
  uint16_t minor;
  uint16_t major;
  uint32_t arch; ///< sm_XX / compute_XX as XX
  uint32_t nameOffset;
  uint32_t nameSize;
  uint64_t flags;
  uint64_t zero;
  uint64_t uncompressedSize;
};
static_assert(sizeof(Header) == 16);
static_assert(sizeof(EntryHeader) == 64);

struct Entry {
  uint16_t kind = 0;
  uint32_t arch = 0;
  uint64_t flags = 0;
  bool compressed = false;
  std::vector<uint8_t> payload; ///< decompressed; PTX text without trailing NULs
};

struct Parsed {
  std::vector<Entry> entries;
  /// The PTX entry with the highest arch, or nullptr.
  const Entry *bestPtx() const;
  /// The embedded .wfx module, or nullptr.
  const Entry *wfx() const;
  /// "sm_80, sm_90" (ELF entries), for messages.
  std::string elfArchs() const;
};

/// Parses the fatbinary at `data` (starts with kFatbinMagic); reads consecutive fatbins while the
/// next header has the magic and `limit` allows (0: no limit known: only the first, its header's
/// sizes trusted up to kMaxFatbinBytes). Never reads outside [data, data + limit) when `limit` is
/// given. Returns false with `error` set on a malformed container, a size past the limits or a
/// failed decompression; never throws.
bool parse(const uint8_t *data, size_t limit, Parsed &out, std::string &error);
/// Parses from the __fatDeviceText wrapper: nvcc's (a fatbinary) or clang's (the raw bytes of the
/// embedded file: a fatbinary, NUL-terminated PTX text, or a .wfx module). Anything else is an
/// error naming what was found.
bool parseWrapper(const void *wrapper, Parsed &out, std::string &error);

/// Builds a fatbin with the given entries (tests); compresses PTX with zstd when asked.
std::vector<uint8_t> build(const std::vector<Entry> &entries, bool compress);

} // namespace wf::rt::fatbin

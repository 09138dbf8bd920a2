// Record layouts of the .wfx file shared by the writer and the reader (docs/wfx.md is the spec).
#pragma once

#include <cstdint>

namespace wf::wfx::format {

// Header (kHeaderSize bytes).
inline constexpr uint32_t kHdrMagic = 0;
inline constexpr uint32_t kHdrVersionMajor = 4;
inline constexpr uint32_t kHdrVersionMinor = 6;
inline constexpr uint32_t kHdrFlags = 8;
inline constexpr uint32_t kHdrHeaderSize = 12;
inline constexpr uint32_t kHdrTotalSize = 16;
inline constexpr uint32_t kHdrSectionCount = 20;
inline constexpr uint32_t kHdrSectionTable = 24;
inline constexpr uint32_t kHdrReserved = 28;

/// Every section starts at a multiple of this in the file.
inline constexpr uint32_t kSectionAlign = 8;
inline constexpr uint32_t kMaxSectionAlign = 4096;

// CONST and GLOBAL: u32 load alignment, u32 zero-fill bytes, then the image.
inline constexpr uint32_t kDataHeaderSize = 8;

// KERNELS: u32 kernel count, u32 parameter entry count, kernel records, parameter entries.
inline constexpr uint32_t kKernelsHeaderSize = 8;
inline constexpr uint32_t kKernelRecordSize = 64;
inline constexpr uint32_t kParamRecordSize = 12;

inline constexpr uint32_t kSymbolRecordSize = 16;
inline constexpr uint32_t kRelocRecordSize = 32;

// LINES: u32 file count, u32 row count, file name offsets (u32 each), rows.
inline constexpr uint32_t kLinesHeaderSize = 8;
inline constexpr uint32_t kLineRecordSize = 16;

} // namespace wf::wfx::format

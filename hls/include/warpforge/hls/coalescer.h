//===- warpforge/hls/coalescer.h - Global-memory access coalescer ---------===//
//
// Part of Warpforge. Turns one warp's global-memory access (32 lane addresses, the active mask
// and the access size) into the list of distinct cache-line requests (isa/config.toml
// `cache_line_bytes`), each with the bytes of the line it touches and the lanes it serves; the
// RTL (rtl/units/wf_coalescer.sv) emits one request per cycle, in the same order:
//   - the next request is the line of the lowest-numbered pending lane;
//   - it serves every pending lane whose address falls in that line.
// So a request of n active lanes touching k distinct lines takes exactly k requests.
//
// Addresses are naturally aligned to the access size (the load/store unit faults on misaligned
// ones first), so an access of at most 16 bytes never crosses a line of 32 bytes or more.
//
//===----------------------------------------------------------------------===//

#ifndef WARPFORGE_HLS_COALESCER_H
#define WARPFORGE_HLS_COALESCER_H

#include <array>
#include <cstdint>

namespace wf::hls {

inline constexpr unsigned kCoalescerLanes = 32;
inline constexpr unsigned kMaxLineBytes = 128;

/// One warp's global-memory access.
struct CoalesceRequest {
  std::array<uint64_t, kCoalescerLanes> addr{}; ///< byte addresses
  uint32_t mask = 0;                            ///< active lanes
  unsigned sizeLog2 = 2;                        ///< access size: 1 << sizeLog2 bytes (0..4)
};

/// One cache-line request.
struct LineRequest {
  uint64_t line = 0;  ///< line number: address / lineBytes
  uint32_t lanes = 0; ///< lanes served
  std::array<uint64_t, kMaxLineBytes / 64> byteMask{}; ///< bit j: byte j of the line is accessed
};

/// lineBytes is a power of two from 32 to 128.
constexpr bool validLineBytes(unsigned lineBytes) {
  return lineBytes >= 32 && lineBytes <= kMaxLineBytes && (lineBytes & (lineBytes - 1)) == 0;
}

constexpr unsigned lineBits(unsigned lineBytes) {
  return lineBytes == 32 ? 5 : lineBytes == 64 ? 6 : 7;
}

/// The request issued while `pending` lanes of `req` are still to be served (pending != 0).
constexpr LineRequest coalescePass(const CoalesceRequest &req, uint32_t pending,
                                   unsigned lineBytes) {
  const unsigned bits = lineBits(lineBytes);
  unsigned lead = 0;
  while (lead < kCoalescerLanes && !((pending >> lead) & 1))
    ++lead;
  LineRequest r;
  if (lead == kCoalescerLanes)
    return r;
  r.line = req.addr[lead] >> bits;
  const unsigned bytes = 1u << req.sizeLog2;
  for (unsigned l = 0; l < kCoalescerLanes; ++l) {
    if (!((pending >> l) & 1) || (req.addr[l] >> bits) != r.line)
      continue;
    r.lanes |= uint32_t(1) << l;
    // Aligned, so the access stays within the line.
    const unsigned offset = unsigned(req.addr[l] & (lineBytes - 1)) & ~(bytes - 1);
    for (unsigned j = offset; j < offset + bytes; ++j)
      r.byteMask[j / 64] |= uint64_t(1) << (j % 64);
  }
  return r;
}

/// Every request of an access, in order.
struct CoalesceSchedule {
  unsigned count = 0;
  std::array<LineRequest, kCoalescerLanes> requests{};
};

constexpr CoalesceSchedule coalesce(const CoalesceRequest &req, unsigned lineBytes) {
  CoalesceSchedule s;
  for (uint32_t pending = req.mask; pending != 0 && s.count < kCoalescerLanes;) {
    s.requests[s.count] = coalescePass(req, pending, lineBytes);
    pending &= ~s.requests[s.count].lanes;
    ++s.count;
  }
  return s;
}

} // namespace wf::hls

#endif // WARPFORGE_HLS_COALESCER_H

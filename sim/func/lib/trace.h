//===- trace.h - Commit trace writer (format: docs/commit-trace.md) -------------===//

#pragma once

#include "decode.h"

#include <fmt/format.h>

#include <cstdint>
#include <ostream>

namespace wf::func {

struct Warp;

/// Formats commit-trace lines. One per launch; used from one host thread only.
class TraceWriter {
public:
  explicit TraceWriter(std::ostream &os) : os_(os) {}
  ~TraceWriter() { flush(); }

  /// Starts the line of one warp instruction.
  void begin(const Warp &w, uint32_t pc, uint32_t active, uint32_t exec, const DecodedInst &in);
  /// A memory write by lane `lane` of the instruction being traced. `space`: 'G', 'S' or 'L'.
  void memWrite(uint32_t lane, char space, uint64_t addr, unsigned bytes, const void *value);
  /// Ends the line with the registers and predicate the instruction wrote for lanes `exec`.
  void commit(const Warp &w, const DecodedInst &in, uint32_t exec);
  /// A line for register writes performed when a CTA barrier releases (BAR.RED_*); it follows
  /// the line of the instruction that completed the barrier.
  void release(const Warp &w, uint32_t pc, uint32_t lanes, unsigned reg);
  void flush();

private:
  static void appendRegs(fmt::memory_buffer &buf, const Warp &w, unsigned reg, unsigned count,
                         uint32_t lanes);
  std::ostream &os_;
  fmt::memory_buffer line_;     ///< the instruction being traced
  fmt::memory_buffer mem_;      ///< its memory writes
  fmt::memory_buffer released_; ///< barrier releases it caused
  fmt::memory_buffer out_;
};

} // namespace wf::func

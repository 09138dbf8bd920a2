//===- recorder.h - Commit records of a running launch ----------------------------===//
//
// The instrumented interpreter reports each warp instruction to a CommitRecorder: begin, then the
// loads, atomics, stores and nondeterministic special-register reads as they happen, then commit,
// which builds the binary record (isa::dev::CommitRecord and its parts, docs/commit-trace.md) and
// hands it to the sink and/or the text trace. A recorder may also carry the reference's record of
// the instruction about to run (the lockstep checker's injection): loads, atomics' old values and
// special registers are then taken from it instead of computed.
//
//===----------------------------------------------------------------------===//

#pragma once

#include "decode.h"
#include "warpforge/func/commit.h"

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace wf::func {

struct Warp;

/// True for the special registers whose values depend on timing or placement.
bool isNondeterministic(isa::SReg sr);

/// Records of one launch; used from one host thread only.
class CommitRecorder {
public:
  CommitRecorder(const Program &program, std::ostream *text, CommitSink sink);
  ~CommitRecorder() { flush(); }
  CommitRecorder(const CommitRecorder &) = delete;
  CommitRecorder &operator=(const CommitRecorder &) = delete;

  void setSink(CommitSink sink) { sink_ = std::move(sink); }
  /// The reference's record of the next instruction, until the next commit; null for none.
  void inject(const CommitView *reference, const Injection &what) {
    reference_ = reference;
    what_ = what;
  }

  void begin(const Warp &w, uint32_t pc, uint32_t active, uint32_t exec, const DecodedInst &in);
  /// Injection queries; null / false when nothing is injected for the lane.
  const uint8_t *injectedLoad(unsigned lane, unsigned bytes) const;
  bool injectedAtom(unsigned lane, uint64_t &old) const;
  /// Replaces the `exec` lanes of lo (and hi for 64-bit registers) with the reference's values.
  void injectSpecial(isa::SReg sr, uint32_t exec, uint32_t *lo, uint32_t *hi) const;

  void load(unsigned lane, uint8_t space, uint64_t addr, unsigned bytes, const void *data);
  void store(unsigned lane, uint8_t space, uint64_t addr, unsigned bytes, const void *data);
  void atom(unsigned lane, unsigned bytes, uint64_t old);
  void special(isa::SReg sr, uint32_t exec, const uint32_t *lo, const uint32_t *hi);
  /// Ends the instruction: its record, with the registers and predicate it wrote for `exec`,
  /// then the records of barrier releases it caused.
  void commit(const Warp &w, const DecodedInst &in, uint32_t exec);
  /// Register writes of a CTA barrier's release (BAR.RED_*); recorded after the instruction that
  /// completed the barrier.
  void release(const Warp &w, uint32_t pc, uint32_t lanes, unsigned reg);
  void flush();

private:
  /// Parts of one kind under construction: headers and payloads back to back.
  struct PartList {
    std::vector<uint8_t> bytes;
    size_t open = SIZE_MAX; ///< offset of the part elements are added to
    uint16_t count = 0;
    void clear() {
      bytes.clear();
      open = SIZE_MAX;
      count = 0;
    }
    /// Room for `lane`'s element, in the open part when it matches, else in a new one.
    uint8_t *add(isa::dev::CommitPartKind kind, uint8_t space, uint16_t index, uint16_t size,
                 uint16_t stride, unsigned lane);
    void close();
  };

  void header(std::vector<uint8_t> &out, const Warp &w, isa::dev::CommitKind kind, uint8_t op,
              uint32_t pc, uint32_t active, uint32_t exec, uint64_t word);
  void appendRegs(std::vector<uint8_t> &out, uint16_t &parts, const Warp &w, unsigned reg,
                  unsigned count, uint32_t lanes);
  void emit(std::span<const uint8_t> record);

  const Program &program_;
  std::ostream *text_;
  CommitSink sink_;
  const CommitView *reference_ = nullptr;
  Injection what_;
  std::vector<uint8_t> record_; ///< the instruction being recorded (its header until commit)
  PartList loads_, atoms_, stores_, specials_;
  std::vector<uint8_t> releases_; ///< release records it caused, back to back
  std::string textBuf_;
};

} // namespace wf::func

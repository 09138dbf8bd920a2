//===- timeline.h - Warp activity as a Chrome trace-event timeline -----------===//
//
// Records what the emulator's schedule did, per core: each block's residency on its warp slots,
// each run of warp instructions (a scheduling slice) and the moments a warp stopped to wait at a
// barrier or faulted. Time is the core's cycle counter as the emulator keeps it (docs/emulator.md,
// "Timeline"); it is the emulator's round-robin schedule, not a timing model. Events are kept per
// core, so host threads that own different cores never share a buffer; the file is written once,
// after the launch. Format: Chrome's trace-event JSON (object form), which Perfetto and
// chrome://tracing open, and `warpforge report` draws.
//
//===----------------------------------------------------------------------===//

#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace wf::func {

struct Block;
struct Warp;

class TimelineRecorder {
public:
  TimelineRecorder(std::string kernel, unsigned cores, unsigned warpSlots, uint64_t startCycle);

  void blockAdmitted(unsigned core, const Block &block, uint64_t cycle);
  void blockRetired(unsigned core, const Block &block, uint64_t cycle);
  /// Warp `w` ran `insts` warp instructions from cycle `begin` to `end`, and stopped for `why`.
  void warpRan(unsigned core, const Warp &w, uint64_t begin, uint64_t end, uint64_t insts,
               const char *why);
  /// A point event on the warp's slot ("barrier wait", "fault").
  void warpInstant(unsigned core, const Warp &w, uint64_t cycle, std::string name,
                   std::string detail);

  /// Writes the whole timeline as one JSON object.
  void write(std::ostream &os) const;

private:
  struct Event {
    char phase; ///< 'X' complete slice, 'i' instant
    uint32_t slot;
    uint64_t begin, end;
    std::string name, category, args; ///< args: the members of a JSON object, already encoded
  };
  std::string kernel_;
  unsigned warpSlots_;
  uint64_t startCycle_;
  std::vector<std::vector<Event>> perCore_;
  /// Per core and slot: when the block holding the slot was admitted.
  std::vector<std::vector<uint64_t>> residentSince_;
};

} // namespace wf::func

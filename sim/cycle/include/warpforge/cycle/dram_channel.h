// The timing core of one DRAM channel: bank and rank state, refresh and the request scheduler.
// Plain C++ (no SystemC): DramController wraps one per channel behind its TLM socket.
//
// Time is counted in DRAM clocks. The controller makes one scheduling decision at a time; a
// decision picks a queued burst (DramSchedulerPolicy) and reserves every command it needs (PRE,
// ACT, READ/WRITE) at the earliest clock each constraint allows, so its data time is known when
// it is picked. The next decision may come one clock later, but not before the data bus is within
// `lookahead()` clocks of being free, so requests that arrive meanwhile can still be reordered.
// docs/cycle-model.md states the rules in full.
#pragma once

#include "warpforge/cycle/dram_params.h"

#include <array>
#include <cstdint>
#include <deque>
#include <vector>

namespace wf::cycle {

/// One burst-sized access waiting for the scheduler.
struct DramBurst {
  uint64_t tag = 0; ///< the caller's identity for the burst
  bool write = false;
  DramCoordinates at;
};

enum class RowOutcome : uint8_t {
  Hit,      ///< the row was open: column command only
  Miss,     ///< the bank was precharged: ACT, then the column command
  Conflict, ///< another row was open: PRE, ACT, column command
};

/// The commands a decision reserved for one burst, in clocks.
struct DramIssued {
  uint64_t tag = 0;
  RowOutcome outcome = RowOutcome::Hit;
  uint64_t decidedAt = 0;
  uint64_t preAt = 0, actAt = 0; ///< valid for Conflict (pre) and Miss/Conflict (act)
  uint64_t columnAt = 0;
  uint64_t dataStart = 0, dataEnd = 0; ///< the burst's beats occupy [dataStart, dataEnd)
};

struct DramChannelCounters {
  uint64_t reads = 0, writes = 0;
  uint64_t rowHits = 0, rowMisses = 0, rowConflicts = 0;
  uint64_t activates = 0, precharges = 0;
  uint64_t refreshes = 0;
  uint64_t dataBusClocks = 0; ///< clocks the data bus carried beats
};

class DramChannel {
public:
  explicit DramChannel(const DramParams &params);

  bool empty() const { return queue_.empty(); }
  bool full() const { return queue_.size() >= params_.queueDepth; }
  /// Queues a burst that arrived at clock `now` (the queue must not be full).
  void enqueue(const DramBurst &burst, uint64_t now);
  /// The first clock at which the next decision may be made.
  uint64_t earliestDecision() const;
  /// Picks one queued burst and reserves its commands. Needs !empty() and now >=
  /// earliestDecision().
  DramIssued decide(uint64_t now);
  /// Issues every refresh due at or before `now` (each one at its due clock or as soon after as
  /// the rank's banks can be precharged).
  void refreshUpTo(uint64_t now);

  /// Clocks between a decision and the data bus being free that still allow back-to-back data
  /// for a row conflict: tRP + tRCD + tCL.
  unsigned lookahead() const { return params_.tRP + params_.tRCD + params_.tCL; }
  const DramChannelCounters &counters() const { return counters_; }

private:
  struct Bank {
    bool open = false;
    uint64_t row = 0;
    uint64_t actAllowed = 0; ///< tRP after PRE, tRFC after REFRESH
    uint64_t preAllowed = 0; ///< tRAS after ACT, tRTP after READ, tWR after write data
    uint64_t colAllowed = 0; ///< tRCD after ACT
  };
  struct Rank {
    std::vector<Bank> banks;
    uint64_t nextRefresh = 0;
    bool anyAct = false;
    uint64_t lastAct = 0;
    unsigned lastActGroup = 0;
    std::array<uint64_t, 4> recentActs{}; ///< the last four ACTs, oldest at actIndex (tFAW)
    unsigned actCount = 0, actIndex = 0;
    bool anyWrite = false;
    uint64_t lastWriteEnd = 0; ///< end of the last write data (tWTR)
    unsigned lastWriteGroup = 0;
  };

  size_t pick(uint64_t now) const;
  bool rowHit(const DramBurst &b) const;
  /// The commands `burst` would get if it were picked at `now` (no state changes).
  DramIssued plan(const DramBurst &burst, uint64_t now) const;
  void commit(const DramBurst &burst, const DramIssued &issued);

  DramParams params_;
  std::vector<Rank> ranks_;
  std::deque<DramBurst> queue_; ///< arrival order
  size_t queuedWrites_ = 0;
  DramChannelCounters counters_;

  bool anyDecision_ = false;
  uint64_t lastDecision_ = 0;
  bool anyColumn_ = false;
  uint64_t lastColumn_ = 0;
  unsigned lastColumnRank_ = 0, lastColumnGroup_ = 0;
  bool anyData_ = false;
  uint64_t busFreeAt_ = 0;
  bool lastDataWasRead_ = false;
  unsigned lastDataRank_ = 0;
};

} // namespace wf::cycle

#include "warpforge/cycle/dram_channel.h"

#include <algorithm>
#include <cassert>

namespace wf::cycle {

DramChannel::DramChannel(const DramParams &params) : params_(params) {
  ranks_.resize(params_.ranks);
  for (unsigned r = 0; r < params_.ranks; ++r) {
    ranks_[r].banks.resize(params_.banksPerRank());
    // Ranks refresh staggered over one interval, so they are not all busy at once.
    ranks_[r].nextRefresh = uint64_t(params_.tREFI) * (r + 1) / params_.ranks;
  }
}

void DramChannel::enqueue(const DramBurst &burst, uint64_t now) {
  assert(!full());
  refreshUpTo(now);
  queue_.push_back(burst);
  queuedWrites_ += burst.write;
}

uint64_t DramChannel::earliestDecision() const {
  uint64_t t = anyDecision_ ? lastDecision_ + 1 : 0;
  if (anyData_ && busFreeAt_ > lookahead())
    t = std::max(t, busFreeAt_ - lookahead());
  return t;
}

bool DramChannel::rowHit(const DramBurst &b) const {
  const Bank &bank = ranks_[b.at.rank].banks[b.at.flatBank(params_)];
  return bank.open && bank.row == b.at.row;
}

size_t DramChannel::pick(uint64_t now) const {
  if (params_.policy == DramSchedulerPolicy::Fcfs)
    return 0;
  // First ready: the burst whose data can start first; ties to a row hit, then to the oldest.
  // No burst's data can start before this; the oldest hit that reaches it is the pick.
  const unsigned latency = queuedWrites_ ? std::min(params_.tCL, params_.tCWL) : params_.tCL;
  const uint64_t bound = std::max(anyData_ ? busFreeAt_ : 0, now + latency);
  size_t best = 0;
  uint64_t bestStart = UINT64_MAX;
  bool bestHit = false;
  for (size_t i = 0; i < queue_.size(); ++i) {
    DramIssued plan = this->plan(queue_[i], now);
    bool hit = plan.outcome == RowOutcome::Hit;
    if (hit && plan.dataStart <= bound)
      return i;
    if (plan.dataStart < bestStart || (plan.dataStart == bestStart && hit && !bestHit)) {
      best = i;
      bestStart = plan.dataStart;
      bestHit = hit;
    }
  }
  return best;
}

void DramChannel::refreshUpTo(uint64_t now) {
  for (Rank &rank : ranks_) {
    while (rank.nextRefresh <= now) {
      // All banks must be precharged (PREA) and idle before REFRESH.
      uint64_t start = rank.nextRefresh;
      bool anyOpen = false;
      for (const Bank &b : rank.banks) {
        if (b.open) {
          anyOpen = true;
          start = std::max(start, b.preAllowed + params_.tRP);
        } else {
          start = std::max(start, b.actAllowed);
        }
      }
      for (Bank &b : rank.banks) {
        b.open = false;
        b.actAllowed = start + params_.tRFC;
      }
      if (anyOpen)
        ++counters_.precharges;
      ++counters_.refreshes;
      rank.nextRefresh += params_.tREFI;
    }
  }
}

DramIssued DramChannel::plan(const DramBurst &burst, uint64_t now) const {
  const DramParams &p = params_;
  const Rank &rank = ranks_[burst.at.rank];
  const Bank &bank = rank.banks[burst.at.flatBank(p)];
  const unsigned group = burst.at.bankGroup;
  DramIssued out;
  out.tag = burst.tag;
  out.decidedAt = now;

  uint64_t colAllowed = bank.colAllowed;
  if (bank.open && bank.row == burst.at.row) {
    out.outcome = RowOutcome::Hit;
  } else {
    uint64_t actAllowed = bank.actAllowed;
    if (bank.open) {
      out.outcome = RowOutcome::Conflict;
      out.preAt = std::max(now, bank.preAllowed);
      actAllowed = std::max(actAllowed, out.preAt + p.tRP);
    } else {
      out.outcome = RowOutcome::Miss;
    }
    uint64_t act = std::max(now, actAllowed);
    if (rank.anyAct)
      act = std::max(act, rank.lastAct + (rank.lastActGroup == group ? p.tRRD_L : p.tRRD_S));
    if (rank.actCount == 4)
      act = std::max(act, rank.recentActs[rank.actIndex] + p.tFAW);
    out.actAt = act;
    colAllowed = act + p.tRCD;
  }

  uint64_t col = std::max(now, colAllowed);
  if (anyColumn_) {
    bool sameGroup = lastColumnRank_ == burst.at.rank && lastColumnGroup_ == group;
    col = std::max(col, lastColumn_ + (sameGroup ? p.tCCD_L : p.tCCD_S));
  }
  if (!burst.write && rank.anyWrite)
    col = std::max(col, rank.lastWriteEnd + (rank.lastWriteGroup == group ? p.tWTR_L : p.tWTR_S));
  const unsigned latency = burst.write ? p.tCWL : p.tCL;
  if (anyData_) {
    uint64_t busReady = busFreeAt_;
    if (lastDataRank_ != burst.at.rank)
      busReady += p.tRTRS;
    if (burst.write && lastDataWasRead_)
      busReady += p.tRTW;
    if (busReady > latency)
      col = std::max(col, busReady - latency);
  }
  out.columnAt = col;
  out.dataStart = col + latency;
  out.dataEnd = out.dataStart + p.tBURST();
  return out;
}

void DramChannel::commit(const DramBurst &burst, const DramIssued &is) {
  const DramParams &p = params_;
  Rank &rank = ranks_[burst.at.rank];
  Bank &bank = rank.banks[burst.at.flatBank(p)];
  const unsigned group = burst.at.bankGroup;
  if (is.outcome == RowOutcome::Hit) {
    ++counters_.rowHits;
  } else {
    if (is.outcome == RowOutcome::Conflict) {
      ++counters_.rowConflicts;
      ++counters_.precharges;
    } else {
      ++counters_.rowMisses;
    }
    rank.anyAct = true;
    rank.lastAct = is.actAt;
    rank.lastActGroup = group;
    rank.recentActs[rank.actIndex] = is.actAt;
    rank.actIndex = (rank.actIndex + 1) % 4;
    rank.actCount = std::min(rank.actCount + 1, 4u);
    bank.open = true;
    bank.row = burst.at.row;
    bank.actAllowed = std::max(bank.actAllowed, is.actAt); // a later ACT needs a PRE first
    bank.colAllowed = is.actAt + p.tRCD;
    bank.preAllowed = std::max(bank.preAllowed, is.actAt + p.tRAS);
    ++counters_.activates;
  }
  anyColumn_ = true;
  lastColumn_ = is.columnAt;
  lastColumnRank_ = burst.at.rank;
  lastColumnGroup_ = group;
  anyData_ = true;
  busFreeAt_ = is.dataEnd;
  lastDataWasRead_ = !burst.write;
  lastDataRank_ = burst.at.rank;
  if (burst.write) {
    bank.preAllowed = std::max(bank.preAllowed, is.dataEnd + p.tWR);
    rank.anyWrite = true;
    rank.lastWriteEnd = is.dataEnd;
    rank.lastWriteGroup = group;
    ++counters_.writes;
  } else {
    bank.preAllowed = std::max(bank.preAllowed, is.columnAt + p.tRTP);
    ++counters_.reads;
  }
  counters_.dataBusClocks += p.tBURST();
}

DramIssued DramChannel::decide(uint64_t now) {
  assert(!empty() && now >= earliestDecision());
  refreshUpTo(now);
  size_t index = pick(now);
  DramBurst burst = queue_[index];
  queue_.erase(queue_.begin() + std::ptrdiff_t(index));
  queuedWrites_ -= burst.write;
  DramIssued issued = plan(burst, now);
  commit(burst, issued);
  anyDecision_ = true;
  lastDecision_ = now;
  return issued;
}

} // namespace wf::cycle

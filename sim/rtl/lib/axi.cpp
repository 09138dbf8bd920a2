//===- axi.cpp - AXI4-Lite master and AXI4 slave models -------------------===//

#include "warpforge/rtl/axi.h"

#include <algorithm>
#include <cassert>

namespace wf::rtl {

//===----------------------------------------------------------------------===//
// AxiLiteMaster
//===----------------------------------------------------------------------===//

void AxiLiteMaster::reset() {
  state_ = State::Idle;
  p_.awvalid.set(0);
  p_.wvalid.set(0);
  p_.bready.set(0);
  p_.arvalid.set(0);
  p_.rready.set(0);
}

void AxiLiteMaster::startWrite(uint32_t address, uint32_t data) {
  assert(idle());
  state_ = State::Write;
  address_ = address;
  data_ = data;
  awDone_ = wDone_ = false;
}

void AxiLiteMaster::startRead(uint32_t address) {
  assert(idle());
  state_ = State::Read;
  address_ = address;
  arDone_ = false;
}

void AxiLiteMaster::drive() {
  bool writing = state_ == State::Write, reading = state_ == State::Read;
  p_.awvalid.set(writing && !awDone_);
  p_.awaddr.set(address_);
  p_.wvalid.set(writing && !wDone_);
  p_.wdata.set(data_);
  p_.wstrb.set(0xf);
  p_.bready.set(writing && awDone_ && wDone_);
  p_.arvalid.set(reading && !arDone_);
  p_.araddr.set(address_);
  p_.rready.set(reading && arDone_);
}

void AxiLiteMaster::sample() {
  if (state_ == State::Write) {
    bool bFire = awDone_ && wDone_ && p_.bvalid.bit();
    awDone_ = awDone_ || p_.awready.bit();
    wDone_ = wDone_ || p_.wready.bit();
    if (bFire) {
      resp_ = uint8_t(p_.bresp.get());
      state_ = State::Idle;
    }
  } else if (state_ == State::Read) {
    if (arDone_ && p_.rvalid.bit()) {
      rdata_ = uint32_t(p_.rdata.get());
      resp_ = uint8_t(p_.rresp.get());
      state_ = State::Idle;
    }
    arDone_ = arDone_ || p_.arready.bit();
  }
}

//===----------------------------------------------------------------------===//
// AxiSlave
//===----------------------------------------------------------------------===//

AxiSlave::AxiSlave(const Axi4Pins &pins, unsigned index, MemoryBackend &backend,
                   unsigned maxOutstanding)
    : p_(pins), index_(index), backend_(backend), maxOutstanding_(maxOutstanding),
      busBytes_(pins.rdata.width() / 8) {}

void AxiSlave::reset() {
  reads_.clear();
  writes_.clear();
  wbeats_.clear();
  rvalid_ = bvalid_ = false;
  p_.awready.set(0, index_);
  p_.wready.set(0, index_);
  p_.arready.set(0, index_);
  p_.rvalid.set(0, index_);
  p_.bvalid.set(0, index_);
}

uint64_t AxiSlave::beatAddress(const Burst &b, unsigned beat) const {
  if (b.burst == 0 || beat == 0) // FIXED, or the first beat of INCR (may be unaligned)
    return b.address;
  uint64_t bytes = uint64_t(1) << b.size;
  return (b.address & ~(bytes - 1)) + uint64_t(beat) * bytes;
}

// The byte lanes a beat at `address` of 2^size bytes uses on a bus of `busBytes`.
static void laneRange(uint64_t address, unsigned size, unsigned busBytes, unsigned &first,
                      unsigned &count) {
  uint64_t bytes = uint64_t(1) << size;
  first = unsigned(address % busBytes);
  count = unsigned(bytes - (address & (bytes - 1)));
  count = std::min(count, busBytes - first);
}

void AxiSlave::acceptRead(Burst &b, uint64_t cycle) {
  unsigned beats = b.len + 1;
  b.beatReady.resize(beats);
  b.data.assign(beats, std::vector<uint8_t>(busBytes_, 0));
  bool legal = b.burst <= 1 && (1u << b.size) <= busBytes_;
  b.error = !legal;
  for (unsigned i = 0; i < beats; ++i) {
    uint64_t address = beatAddress(b, i);
    unsigned first = 0, count = 0;
    laneRange(address, b.size, busBytes_, first, count);
    if (legal && !backend_.read(address, b.data[i].data() + first, count))
      b.error = true;
    b.beatReady[i] = backend_.readyCycle(false, address, cycle);
  }
  if (b.error)
    ++errors_;
}

void AxiSlave::drainWrites(uint64_t cycle) {
  for (Burst &b : writes_) {
    if (b.complete)
      continue;
    while (!wbeats_.empty() && !b.complete) {
      WBeat &w = wbeats_.front();
      uint64_t address = beatAddress(b, b.beat);
      bool legal = b.burst <= 1 && (1u << b.size) <= busBytes_;
      if (legal) {
        unsigned first = 0, count = 0;
        laneRange(address, b.size, busBytes_, first, count);
        uint64_t lineBase = address - first;
        // Runs of enabled bytes become one backend write each.
        for (unsigned lane = first; lane < first + count;) {
          if (!w.strobe[lane]) {
            ++lane;
            continue;
          }
          unsigned end = lane;
          while (end < first + count && w.strobe[end])
            ++end;
          if (!backend_.write(lineBase + lane, w.data.data() + lane, end - lane))
            b.error = true;
          lane = end;
        }
      } else {
        b.error = true;
      }
      ++writeBeats_;
      bool last = w.last || b.beat == b.len;
      wbeats_.pop_front();
      ++b.beat;
      if (last) {
        b.complete = true;
        b.ready = backend_.readyCycle(true, b.address, cycle);
        if (b.error)
          ++errors_;
      }
    }
    if (!b.complete)
      return; // later bursts' data comes after this one's
  }
}

void AxiSlave::drive(uint64_t cycle) {
  p_.arready.set(reads_.size() < maxOutstanding_, index_);
  p_.awready.set(writes_.size() < maxOutstanding_, index_);
  p_.wready.set(wbeats_.size() < 2 * maxOutstanding_, index_);

  rvalid_ = !reads_.empty() && reads_.front().beatReady[reads_.front().beat] <= cycle;
  p_.rvalid.set(rvalid_, index_);
  if (rvalid_) {
    const Burst &b = reads_.front();
    p_.rid.set(b.id, index_);
    p_.rdata.write(b.data[b.beat].data(), index_);
    p_.rresp.set(b.error ? kAxiSlvErr : kAxiOkay, index_);
    p_.rlast.set(b.beat == b.len, index_);
  }
  bvalid_ = !writes_.empty() && writes_.front().complete && writes_.front().ready <= cycle;
  p_.bvalid.set(bvalid_, index_);
  if (bvalid_) {
    p_.bid.set(writes_.front().id, index_);
    p_.bresp.set(writes_.front().error ? kAxiSlvErr : kAxiOkay, index_);
  }
}

void AxiSlave::sample(uint64_t cycle) {
  // Responses that transfer at this edge.
  if (rvalid_ && p_.rready.bit(index_)) {
    Burst &b = reads_.front();
    ++readBeats_;
    if (++b.beat > b.len)
      reads_.pop_front();
  }
  if (bvalid_ && p_.bready.bit(index_)) {
    writes_.pop_front();
    ++writeResponses_;
  }

  // Requests and data that transfer at this edge (our READY was set in drive()).
  if (p_.arvalid.bit(index_) && p_.arready.bit(index_)) {
    Burst b;
    b.id = p_.arid.bound() ? p_.arid.get(index_) : 0;
    b.address = p_.araddr.get(index_);
    b.len = p_.arlen.bound() ? unsigned(p_.arlen.get(index_)) : 0;
    b.size = p_.arsize.bound() ? unsigned(p_.arsize.get(index_)) : 0;
    b.burst = p_.arburst.bound() ? unsigned(p_.arburst.get(index_)) : 1;
    if (!p_.arsize.bound())
      for (unsigned bytes = busBytes_; bytes > 1; bytes >>= 1)
        ++b.size;
    acceptRead(b, cycle);
    reads_.push_back(std::move(b));
  }
  if (p_.awvalid.bit(index_) && p_.awready.bit(index_)) {
    Burst b;
    b.id = p_.awid.bound() ? p_.awid.get(index_) : 0;
    b.address = p_.awaddr.get(index_);
    b.len = p_.awlen.bound() ? unsigned(p_.awlen.get(index_)) : 0;
    b.size = p_.awsize.bound() ? unsigned(p_.awsize.get(index_)) : 0;
    b.burst = p_.awburst.bound() ? unsigned(p_.awburst.get(index_)) : 1;
    if (!p_.awsize.bound())
      for (unsigned bytes = busBytes_; bytes > 1; bytes >>= 1)
        ++b.size;
    writes_.push_back(std::move(b));
  }
  if (p_.wvalid.bit(index_) && p_.wready.bit(index_)) {
    WBeat w;
    w.data.resize(busBytes_);
    p_.wdata.read(w.data.data(), index_);
    w.strobe.resize(busBytes_);
    unsigned base = index_ * p_.wstrb.width();
    for (unsigned i = 0; i < busBytes_; i += 64) {
      unsigned n = std::min(64u, busBytes_ - i);
      uint64_t bits = p_.wstrb.bits(base + i, n);
      for (unsigned j = 0; j < n; ++j)
        w.strobe[i + j] = uint8_t((bits >> j) & 1u);
    }
    w.last = p_.wlast.bound() ? p_.wlast.bit(index_) : true;
    wbeats_.push_back(std::move(w));
  }
  drainWrites(cycle);
}

} // namespace wf::rtl

#include "warpforge/cycle/dma_engine.h"

#include <algorithm>

namespace wf::cycle {

using namespace sc_core;
using tlm::tlm_generic_payload;

std::optional<std::string> DmaParams::validate() const {
  if (hostRequestBytes == 0 || maxHostReads == 0 || cardRequestBytes == 0 || maxCardRequests == 0)
    return "DMA: request sizes and in-flight limits must be at least 1";
  return std::nullopt;
}

DmaEngine::DmaEngine(sc_module_name name, const DmaParams &params)
    : sc_module(name), hostPort("hostPort"), params_(params) {
  cardPort.onResponse([this](tlm_generic_payload &trans) { onCardResponse(trans); });
  sc_spawn([this] { h2cReader(); }, "h2cReader");
  sc_spawn([this] { h2cWriter(); }, "h2cWriter");
  sc_spawn([this] { c2hReader(); }, "c2hReader");
  sc_spawn([this] { c2hWriter(); }, "c2hWriter");
}

void DmaEngine::submit(const DmaDescriptor &descriptor) {
  Channel &ch = channel(descriptor.direction);
  ch.queue.push_back(descriptor);
  ch.queued.notify(SC_ZERO_TIME);
}

DmaEngine::Slot &DmaEngine::takeSlot() {
  if (freeSlots_.empty()) {
    slots_.emplace_back();
    Slot &s = slots_.back();
    slotOf_[&s.payload] = &s;
    freeSlots_.push_back(&s);
  }
  Slot *s = freeSlots_.back();
  freeSlots_.pop_back();
  return *s;
}

void DmaEngine::pieceDone(Channel &ch, uint64_t descriptor) {
  Tracker &t = ch.trackers.at(descriptor);
  if (--t.outstanding != 0 || !t.allIssued)
    return;
  ++ch.completed;
  ch.busy += sc_time_stamp() - t.started;
  ch.trackers.erase(descriptor);
  ch.completedEvent.notify(SC_ZERO_TIME);
}

void DmaEngine::h2cReader() {
  Channel &ch = h2c_;
  for (;;) {
    while (ch.queue.empty())
      wait(ch.queued);
    const DmaDescriptor d = ch.queue.front();
    ch.queue.pop_front();
    const uint64_t id = ch.nextId++;
    Tracker &tracker = ch.trackers[id];
    tracker.started = sc_time_stamp();
    tracker.outstanding = 1;      // held until every piece is issued
    std::deque<sc_time> inFlight; // arrival times of the host reads in flight
    for (uint64_t off = 0; off < d.bytes; off += params_.hostRequestBytes) {
      if (inFlight.size() >= params_.maxHostReads) {
        sc_time oldest = inFlight.front();
        inFlight.pop_front();
        if (oldest > sc_time_stamp())
          wait(oldest - sc_time_stamp());
      }
      Piece piece;
      piece.descriptor = id;
      piece.address = d.cardAddress + off;
      piece.data.resize(std::min<uint64_t>(params_.hostRequestBytes, d.bytes - off));
      tlm_generic_payload read;
      read.set_command(tlm::TLM_READ_COMMAND);
      read.set_address(d.hostOffset + off);
      read.set_data_ptr(piece.data.data());
      read.set_data_length(unsigned(piece.data.size()));
      read.set_streaming_width(unsigned(piece.data.size()));
      read.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      sc_time delay = SC_ZERO_TIME;
      hostPort->b_transport(read, delay);
      if (!read.is_response_ok()) {
        ++ch.errors;
        break;
      }
      piece.arrival = sc_time_stamp() + delay;
      inFlight.push_back(piece.arrival);
      uint64_t requests =
          (piece.data.size() + params_.cardRequestBytes - 1) / params_.cardRequestBytes;
      ch.trackers.at(id).outstanding += requests;
      ch.bytes += piece.data.size();
      ch.pieces.push_back(std::move(piece));
      ch.progress.notify(SC_ZERO_TIME);
    }
    ch.trackers.at(id).allIssued = true;
    pieceDone(ch, id); // drop the hold
  }
}

void DmaEngine::h2cWriter() {
  Channel &ch = h2c_;
  for (;;) {
    while (ch.pieces.empty())
      wait(ch.progress);
    Piece piece = std::move(ch.pieces.front());
    ch.pieces.pop_front();
    if (piece.arrival > sc_time_stamp())
      wait(piece.arrival - sc_time_stamp());
    for (uint64_t off = 0; off < piece.data.size(); off += params_.cardRequestBytes) {
      while (ch.cardInFlight >= params_.maxCardRequests)
        wait(ch.progress);
      Slot &slot = takeSlot();
      const uint64_t n = std::min<uint64_t>(params_.cardRequestBytes, piece.data.size() - off);
      slot.data.assign(piece.data.begin() + std::ptrdiff_t(off),
                       piece.data.begin() + std::ptrdiff_t(off + n));
      slot.direction = DmaDirection::HostToCard;
      slot.descriptor = piece.descriptor;
      tlm_generic_payload &gp = slot.payload;
      gp.set_command(tlm::TLM_WRITE_COMMAND);
      gp.set_address(piece.address + off);
      gp.set_data_ptr(slot.data.data());
      gp.set_data_length(unsigned(n));
      gp.set_streaming_width(unsigned(n));
      gp.set_byte_enable_ptr(nullptr);
      gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      ++ch.cardInFlight;
      cardPort.send(gp);
    }
  }
}

void DmaEngine::c2hReader() {
  Channel &ch = c2h_;
  for (;;) {
    while (ch.queue.empty())
      wait(ch.queued);
    const DmaDescriptor d = ch.queue.front();
    ch.queue.pop_front();
    const uint64_t id = ch.nextId++;
    Tracker &tracker = ch.trackers[id];
    tracker.started = sc_time_stamp();
    tracker.outstanding = 1; // held until every piece is issued
    for (uint64_t off = 0; off < d.bytes; off += params_.cardRequestBytes) {
      while (ch.cardInFlight >= params_.maxCardRequests)
        wait(ch.progress);
      Slot &slot = takeSlot();
      const uint64_t n = std::min<uint64_t>(params_.cardRequestBytes, d.bytes - off);
      slot.data.resize(n);
      slot.direction = DmaDirection::CardToHost;
      slot.descriptor = id;
      slot.hostOffset = d.hostOffset + off;
      tlm_generic_payload &gp = slot.payload;
      gp.set_command(tlm::TLM_READ_COMMAND);
      gp.set_address(d.cardAddress + off);
      gp.set_data_ptr(slot.data.data());
      gp.set_data_length(unsigned(n));
      gp.set_streaming_width(unsigned(n));
      gp.set_byte_enable_ptr(nullptr);
      gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      ++ch.trackers.at(id).outstanding;
      ++ch.cardInFlight;
      cardPort.send(gp);
    }
    ch.trackers.at(id).allIssued = true;
    pieceDone(ch, id); // drop the hold
  }
}

void DmaEngine::c2hWriter() {
  Channel &ch = c2h_;
  for (;;) {
    while (ch.pieces.empty())
      wait(ch.progress);
    Piece piece = std::move(ch.pieces.front());
    ch.pieces.pop_front();
    tlm_generic_payload write;
    write.set_command(tlm::TLM_WRITE_COMMAND);
    write.set_address(piece.address);
    write.set_data_ptr(piece.data.data());
    write.set_data_length(unsigned(piece.data.size()));
    write.set_streaming_width(unsigned(piece.data.size()));
    write.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_time delay = SC_ZERO_TIME;
    hostPort->b_transport(write, delay);
    if (!write.is_response_ok())
      ++ch.errors;
    else
      ch.bytes += piece.data.size();
    // Posted: the piece is done once its TLPs have left the card; waiting for that keeps the
    // writer at the link's rate.
    wait(delay);
    pieceDone(ch, piece.descriptor);
  }
}

void DmaEngine::onCardResponse(tlm_generic_payload &trans) {
  Slot &slot = *slotOf_.at(&trans);
  Channel &ch = channel(slot.direction);
  --ch.cardInFlight;
  if (!trans.is_response_ok()) {
    ++ch.errors;
    if (slot.direction == DmaDirection::CardToHost)
      pieceDone(ch, slot.descriptor);
  }
  if (slot.direction == DmaDirection::HostToCard) {
    pieceDone(ch, slot.descriptor);
  } else if (trans.is_response_ok()) {
    Piece piece;
    piece.descriptor = slot.descriptor;
    piece.address = slot.hostOffset;
    piece.data = slot.data;
    ch.pieces.push_back(std::move(piece));
  }
  freeSlots_.push_back(&slot);
  ch.progress.notify(SC_ZERO_TIME);
}

void DmaEngine::registerStats(stats::Group &group) const {
  for (DmaDirection d : {DmaDirection::HostToCard, DmaDirection::CardToHost}) {
    const Channel &ch = channel(d);
    stats::Group &g = group.group(d == DmaDirection::HostToCard ? "h2c" : "c2h");
    g.formula("descriptors", "count", "descriptors completed",
              [&ch] { return double(ch.completed); });
    g.formula("bytes", "byte", "bytes moved", [&ch] { return double(ch.bytes); });
    g.formula("errors", "count", "accesses that failed (outside the window or memory)",
              [&ch] { return double(ch.errors); });
    g.formula(
        "average_descriptor_time", "ns", "mean time from a descriptor's start to its completion",
        [&ch] { return ch.completed ? ch.busy.to_seconds() * 1e9 / double(ch.completed) : 0.0; });
  }
}

} // namespace wf::cycle

#include "warpforge/cycle/dram_controller.h"

#include <cmath>

namespace wf::cycle {

using namespace sc_core;
using tlm::tlm_generic_payload;
using tlm::tlm_phase;

DramController::DramController(sc_module_name name, const DramParams &params, BackingStore &store,
                               unsigned portCount)
    : sc_module(name), ports("ports", portCount), params_(params), store_(store),
      channelEvents_(new sc_event[params.channels]),
      requestPeq_(this, &DramController::onRequestPhase), responsePeq_("responsePeq"),
      portState_(portCount) {
  for (unsigned i = 0; i < portCount; ++i) {
    ports[i].register_nb_transport_fw(this, &DramController::nbTransportFw, int(i));
    ports[i].register_transport_dbg(this, &DramController::transportDbg, int(i));
  }
  psPerResolutionUnit_ = sc_get_time_resolution().to_seconds() * 1e12;
  channels_.reserve(params_.channels);
  for (unsigned c = 0; c < params_.channels; ++c) {
    channels_.emplace_back(params_);
    sc_spawn_options opts;
    opts.spawn_method();
    opts.dont_initialize();
    opts.set_sensitivity(&channelEvents_[c]);
    sc_spawn([this, c] { channelStep(c); }, sc_gen_unique_name("channel"), &opts);
  }
  sc_spawn_options respOpts;
  respOpts.spawn_method();
  respOpts.dont_initialize();
  respOpts.set_sensitivity(&responsePeq_.get_event());
  sc_spawn([this] { onResponseReady(); }, "responses", &respOpts);
}

sc_time DramController::clockTime(uint64_t clock) const {
  return sc_time::from_value(
      uint64_t(std::llround(double(clock) * params_.tCKps / psPerResolutionUnit_)));
}

uint64_t DramController::currentClock() const {
  double ps = double(sc_time_stamp().value()) * psPerResolutionUnit_;
  return uint64_t(std::ceil(ps / params_.tCKps - 1e-9));
}

DramChannelCounters DramController::totalCounters() const {
  DramChannelCounters t;
  for (const DramChannel &ch : channels_) {
    const DramChannelCounters &c = ch.counters();
    t.reads += c.reads;
    t.writes += c.writes;
    t.rowHits += c.rowHits;
    t.rowMisses += c.rowMisses;
    t.rowConflicts += c.rowConflicts;
    t.activates += c.activates;
    t.precharges += c.precharges;
    t.refreshes += c.refreshes;
    t.dataBusClocks += c.dataBusClocks;
  }
  return t;
}

tlm::tlm_sync_enum DramController::nbTransportFw(int port, tlm_generic_payload &trans,
                                                 tlm_phase &phase, sc_time &delay) {
  if (phase == tlm::BEGIN_REQ)
    portOf_[&trans] = unsigned(port);
  requestPeq_.notify(trans, phase, delay);
  delay = SC_ZERO_TIME;
  return tlm::TLM_ACCEPTED;
}

void DramController::onRequestPhase(tlm_generic_payload &trans, const tlm_phase &phase) {
  const unsigned port = portOf_.at(&trans);
  if (phase == tlm::BEGIN_REQ) {
    beginRequest(port, trans);
    return;
  }
  if (phase == tlm::END_RESP) {
    portOf_.erase(&trans);
    portState_[port].responseInFlight = false;
    sendResponses(port);
    return;
  }
  SC_REPORT_ERROR(name(), "unexpected phase on the forward path");
}

void DramController::beginRequest(unsigned port, tlm_generic_payload &trans) {
  Port &ps = portState_[port];
  // The base protocol lets only one request of a socket wait for END_REQ at a time.
  if (ps.placingActive) {
    SC_REPORT_ERROR(name(), "BEGIN_REQ before END_REQ of the previous request");
    return;
  }
  const uint64_t address = trans.get_address();
  const uint64_t length = trans.get_data_length();
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  if (trans.get_command() == tlm::TLM_IGNORE_COMMAND)
    trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
  else if (length == 0 || !store_.contains(address, length))
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
  else if (trans.get_streaming_width() != 0 && trans.get_streaming_width() < length)
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
  else if (trans.is_read() && trans.get_byte_enable_ptr())
    trans.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
  if (!trans.is_response_ok()) {
    tlm_phase endReq = tlm::END_REQ;
    sc_time zero = SC_ZERO_TIME;
    ports[port]->nb_transport_bw(trans, endReq, zero);
    ps.responses.push_back(&trans);
    sendResponses(port);
    return;
  }

  // Functional access now, in acceptance order.
  if (trans.is_read()) {
    store_.read(address, trans.get_data_ptr(), length);
    bytesRead_ += length;
  } else {
    store_.write(address, trans.get_data_ptr(), length, trans.get_byte_enable_ptr(),
                 trans.get_byte_enable_length());
    bytesWritten_ += length;
  }

  const uint64_t burstBytes = params_.burstBytes();
  const uint64_t first = address & ~(burstBytes - 1);
  const uint64_t end = (address + length + burstBytes - 1) & ~(burstBytes - 1);
  const uint64_t tag = nextTag_++;
  Pending &p = pending_[tag];
  p.trans = &trans;
  p.burstsLeft = uint32_t((end - first) / burstBytes);
  p.accepted = sc_time_stamp();
  ps.placing = {&trans, tag, first, end};
  ps.placingActive = true;
  placeBursts(port);
}

void DramController::placeBursts() {
  // Ports with a request waiting take turns, starting one further each time.
  const unsigned n = unsigned(portState_.size());
  const unsigned start = nextPlacePort_;
  nextPlacePort_ = (nextPlacePort_ + 1) % n;
  for (unsigned k = 0; k < n; ++k)
    placeBursts((start + k) % n);
}

void DramController::placeBursts(unsigned port) {
  Port &ps = portState_[port];
  if (!ps.placingActive)
    return;
  Placing &placing = ps.placing;
  const uint64_t now = currentClock();
  const bool write = placing.trans->is_write();
  while (placing.nextAddress < placing.endAddress) {
    DramCoordinates at = decodeAddress(params_, placing.nextAddress);
    DramChannel &ch = channels_[at.channel];
    if (ch.full())
      return; // the rest waits until the channel decides
    ch.enqueue({placing.tag, write, at}, now);
    wakeChannel(at.channel);
    placing.nextAddress += params_.burstBytes();
  }
  ps.placingActive = false;
  tlm_phase endReq = tlm::END_REQ;
  sc_time zero = SC_ZERO_TIME;
  ports[port]->nb_transport_bw(*placing.trans, endReq, zero);
}

void DramController::wakeChannel(unsigned channel) {
  const DramChannel &ch = channels_[channel];
  if (ch.empty())
    return;
  uint64_t at = std::max(ch.earliestDecision(), currentClock());
  channelEvents_[channel].notify(clockTime(at) - sc_time_stamp());
}

void DramController::channelStep(unsigned channel) {
  DramChannel &ch = channels_[channel];
  const uint64_t now = currentClock();
  bool decided = false;
  while (!ch.empty() && ch.earliestDecision() <= now) {
    DramIssued issued = ch.decide(now);
    decided = true;
    if (observer_)
      observer_(channel, issued);
    Pending &p = pending_.at(issued.tag);
    p.lastDataEnd = std::max(p.lastDataEnd, issued.dataEnd);
    if (--p.burstsLeft == 0) {
      responsePeq_.notify(*p.trans, clockTime(p.lastDataEnd) - sc_time_stamp());
      tagOf_[p.trans] = issued.tag;
    }
  }
  wakeChannel(channel);
  if (decided)
    placeBursts();
}

void DramController::onResponseReady() {
  while (tlm_generic_payload *trans = responsePeq_.get_next_transaction())
    portState_[portOf_.at(trans)].responses.push_back(trans);
  for (unsigned port = 0; port < portState_.size(); ++port)
    sendResponses(port);
}

void DramController::sendResponses(unsigned port) {
  Port &ps = portState_[port];
  while (!ps.responseInFlight && !ps.responses.empty()) {
    tlm_generic_payload *trans = ps.responses.front();
    ps.responses.pop_front();
    auto tag = tagOf_.find(trans);
    if (tag != tagOf_.end()) {
      const Pending &p = pending_.at(tag->second);
      latencySumPs_ +=
          uint64_t(double((sc_time_stamp() - p.accepted).value()) * psPerResolutionUnit_);
      pending_.erase(tag->second);
      tagOf_.erase(tag);
    }
    ++responses_;
    tlm_phase phase = tlm::BEGIN_RESP;
    sc_time delay = SC_ZERO_TIME;
    tlm::tlm_sync_enum status = ports[port]->nb_transport_bw(*trans, phase, delay);
    if (status == tlm::TLM_ACCEPTED)
      ps.responseInFlight = true; // END_RESP comes on the forward path
    else
      portOf_.erase(trans);
  }
}

unsigned DramController::transportDbg(int, tlm_generic_payload &trans) {
  const uint64_t address = trans.get_address();
  uint64_t length = trans.get_data_length();
  if (address >= store_.size())
    return 0;
  length = std::min(length, store_.size() - address);
  if (trans.is_read())
    store_.read(address, trans.get_data_ptr(), length);
  else if (trans.is_write())
    store_.write(address, trans.get_data_ptr(), length);
  else
    return 0;
  return unsigned(length);
}

void DramController::registerStats(stats::Group &group) const {
  auto total = [this](uint64_t DramChannelCounters::*field) {
    return [this, field] { return double(totalCounters().*field); };
  };
  group.formula("reads", "count", "read bursts", total(&DramChannelCounters::reads));
  group.formula("writes", "count", "write bursts", total(&DramChannelCounters::writes));
  group.formula("row_hits", "count", "bursts whose row was open",
                total(&DramChannelCounters::rowHits));
  group.formula("row_misses", "count", "bursts to a precharged bank (ACT needed)",
                total(&DramChannelCounters::rowMisses));
  group.formula("row_conflicts", "count", "bursts to a bank with another row open (PRE and ACT)",
                total(&DramChannelCounters::rowConflicts));
  group.formula("activates", "count", "ACT commands", total(&DramChannelCounters::activates));
  group.formula("precharges", "count", "PRE commands (a refresh's precharge-all counts once)",
                total(&DramChannelCounters::precharges));
  group.formula("refreshes", "count", "REFRESH commands, all ranks and channels",
                total(&DramChannelCounters::refreshes));
  group.formula("bytes_read", "byte", "bytes read by requests",
                [this] { return double(bytesRead_); });
  group.formula("bytes_written", "byte", "bytes written by requests",
                [this] { return double(bytesWritten_); });
  group.formula("responses", "count", "transactions answered",
                [this] { return double(responses_); });
  group.formula("average_latency", "ns", "mean time from accepting a request to its response",
                [this] { return averageLatencyNs(); });
  group.formula("bandwidth", "GB/s", "bytes read and written per second of simulated time", [this] {
    double s = sc_time_stamp().to_seconds();
    return s > 0 ? double(bytesRead_ + bytesWritten_) / s / 1e9 : 0.0;
  });
  group.formula("peak_bandwidth", "GB/s", "data-bus peak of all channels",
                [this] { return params_.peakBytesPerSecond() / 1e9; });
  group.formula("bus_utilization", "ratio", "data-bus clocks carrying beats over elapsed clocks",
                [this] {
                  double clocks = double(currentClock()) * params_.channels;
                  return clocks > 0 ? double(totalCounters().dataBusClocks) / clocks : 0.0;
                });
}

} // namespace wf::cycle

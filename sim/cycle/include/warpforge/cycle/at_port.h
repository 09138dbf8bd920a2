// An approximately-timed TLM initiator port with the base protocol's rules built in: send() blocks
// the calling SC_THREAD until the target takes the request (END_REQ, or an early BEGIN_RESP), and
// every response is handed to a callback and completed at once. Many requests may be in flight.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <functional>

namespace wf::cycle {

class AtPort {
public:
  tlm_utils::simple_initiator_socket<AtPort> socket;

  explicit AtPort(const char *name) : socket(name) {
    socket.register_nb_transport_bw(this, &AtPort::nbTransportBw);
  }

  /// Called at the simulated time of each response (BEGIN_RESP).
  void onResponse(std::function<void(tlm::tlm_generic_payload &)> callback) {
    callback_ = std::move(callback);
  }

  /// Sends `trans` and returns once the target accepted it. Call from an SC_THREAD; threads that
  /// share the port take turns (the base protocol allows one request awaiting END_REQ).
  void send(tlm::tlm_generic_payload &trans) {
    while (waiting_)
      sc_core::wait(requestAccepted_);
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    waiting_ = &trans;
    ++inFlight_;
    tlm::tlm_sync_enum status = socket->nb_transport_fw(trans, phase, delay);
    if (status == tlm::TLM_COMPLETED) {
      waiting_ = nullptr;
      respond(trans);
      return;
    }
    if (status == tlm::TLM_UPDATED) {
      if (phase == tlm::BEGIN_RESP) {
        waiting_ = nullptr;
        respond(trans);
        return;
      }
      if (phase == tlm::END_REQ) {
        waiting_ = nullptr;
        return;
      }
    }
    while (waiting_ == &trans)
      sc_core::wait(requestAccepted_);
  }

  /// Requests sent and not yet answered.
  unsigned inFlight() const { return inFlight_; }
  /// Notified at every response.
  const sc_core::sc_event &responded() const { return responded_; }

private:
  tlm::tlm_sync_enum nbTransportBw(tlm::tlm_generic_payload &trans, tlm::tlm_phase &phase,
                                   sc_core::sc_time &) {
    if (phase == tlm::END_REQ || phase == tlm::BEGIN_RESP) {
      if (waiting_ == &trans) {
        waiting_ = nullptr;
        requestAccepted_.notify(sc_core::SC_ZERO_TIME);
      }
    }
    if (phase == tlm::BEGIN_RESP) {
      respond(trans);
      return tlm::TLM_COMPLETED;
    }
    return tlm::TLM_ACCEPTED;
  }

  void respond(tlm::tlm_generic_payload &trans) {
    --inFlight_;
    responded_.notify(sc_core::SC_ZERO_TIME);
    if (callback_)
      callback_(trans);
  }

  std::function<void(tlm::tlm_generic_payload &)> callback_;
  tlm::tlm_generic_payload *waiting_ = nullptr;
  sc_core::sc_event requestAccepted_, responded_;
  unsigned inFlight_ = 0;
};

} // namespace wf::cycle

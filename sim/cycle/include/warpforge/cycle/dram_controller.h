// The DRAM model as a TLM-2.0 target: approximately timed, the base protocol's four phases
// (BEGIN_REQ, END_REQ, BEGIN_RESP, END_RESP) through nb_transport, and transport_dbg for
// functional access. b_transport works too (the sockets turn it into nb_transport). It has one
// port for each initiator bound to it (a DMA engine, the L2's per-channel masters, ...); any port
// reaches every channel.
//
// A transaction of any length is split into bursts; each burst goes to its channel's DramChannel
// (the timing core), and the response is sent when the last burst's data has left the bus. The
// bytes themselves live in a BackingStore and are read or written when the request is accepted,
// in acceptance order, so the scheduler's reordering changes timing and never values.
#pragma once

#include "warpforge/cycle/backing_store.h"
#include "warpforge/cycle/dram_channel.h"
#include "warpforge/cycle/dram_params.h"
#include "warpforge/stats/stats.h"

#include <systemc>
#include <tlm>
#include <tlm_utils/peq_with_cb_and_phase.h>
#include <tlm_utils/peq_with_get.h>
#include <tlm_utils/simple_target_socket.h>

#include <sysc/utils/sc_vector.h>

#include <deque>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

namespace wf::cycle {

class DramController : public sc_core::sc_module {
public:
  using Socket = tlm_utils::simple_target_socket_tagged<DramController>;
  /// One target socket an initiator. When two ports' requests wait for queue space, the ports
  /// take turns (round robin) in placing their bursts.
  sc_core::sc_vector<Socket> ports;

  /// `store` must hold params.capacityBytes() bytes and outlive the controller.
  DramController(sc_core::sc_module_name name, const DramParams &params, BackingStore &store,
                 unsigned portCount = 1);

  const DramParams &params() const { return params_; }
  const DramChannelCounters &channelCounters(unsigned channel) const {
    return channels_[channel].counters();
  }
  DramChannelCounters totalCounters() const;
  uint64_t bytesRead() const { return bytesRead_; }
  uint64_t bytesWritten() const { return bytesWritten_; }
  uint64_t responses() const { return responses_; }
  /// Mean time from accepting a request (END_REQ) to its response (BEGIN_RESP).
  double averageLatencyNs() const {
    return responses_ ? double(latencySumPs_) / 1000.0 / double(responses_) : 0.0;
  }

  /// Registers this controller's statistics (row hits, misses, conflicts, refreshes, bytes,
  /// bandwidth, average latency, ...) under the group's prefix.
  void registerStats(stats::Group &group) const;
  /// Called for every scheduling decision (tests check command times against the parameters).
  void setIssueObserver(std::function<void(unsigned channel, const DramIssued &)> observer) {
    observer_ = std::move(observer);
  }

  /// The start of DRAM clock `clock` as simulation time.
  sc_core::sc_time clockTime(uint64_t clock) const;

private:
  struct Pending {
    tlm::tlm_generic_payload *trans = nullptr;
    uint32_t burstsLeft = 0;
    uint64_t lastDataEnd = 0;
    sc_core::sc_time accepted;
  };
  struct Placing {
    tlm::tlm_generic_payload *trans = nullptr;
    uint64_t tag = 0;
    uint64_t nextAddress = 0, endAddress = 0;
  };

  struct Port {
    Placing placing;
    bool placingActive = false; ///< a request waits for END_REQ
    std::deque<tlm::tlm_generic_payload *> responses;
    bool responseInFlight = false; ///< BEGIN_RESP sent, END_RESP not yet received
  };

  tlm::tlm_sync_enum nbTransportFw(int port, tlm::tlm_generic_payload &trans, tlm::tlm_phase &phase,
                                   sc_core::sc_time &delay);
  unsigned transportDbg(int port, tlm::tlm_generic_payload &trans);
  void onRequestPhase(tlm::tlm_generic_payload &trans, const tlm::tlm_phase &phase);
  void beginRequest(unsigned port, tlm::tlm_generic_payload &trans);
  void placeBursts();
  void placeBursts(unsigned port);
  void channelStep(unsigned channel);
  void wakeChannel(unsigned channel);
  void onResponseReady();
  void sendResponses(unsigned port);
  uint64_t currentClock() const;

  DramParams params_;
  BackingStore &store_;
  std::vector<DramChannel> channels_;
  std::unique_ptr<sc_core::sc_event[]> channelEvents_;
  tlm_utils::peq_with_cb_and_phase<DramController> requestPeq_;
  tlm_utils::peq_with_get<tlm::tlm_generic_payload> responsePeq_;
  std::vector<Port> portState_;
  std::unordered_map<tlm::tlm_generic_payload *, unsigned> portOf_; ///< from BEGIN_REQ to the end
  unsigned nextPlacePort_ = 0;
  std::unordered_map<uint64_t, Pending> pending_; ///< by tag
  std::unordered_map<tlm::tlm_generic_payload *, uint64_t> tagOf_;
  uint64_t nextTag_ = 1;
  double psPerResolutionUnit_ = 1.0;
  std::function<void(unsigned, const DramIssued &)> observer_;

  uint64_t bytesRead_ = 0, bytesWritten_ = 0, responses_ = 0, latencySumPs_ = 0;
};

} // namespace wf::cycle

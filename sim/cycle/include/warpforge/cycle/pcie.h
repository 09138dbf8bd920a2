// The host side of the platform: host memory (the DMA window) and the card's PCIe endpoint.
//
// The link is loosely timed: a card-side master calls b_transport on the endpoint at the time it
// issues a request (annotated delay on entry: zero); the endpoint splits the access into TLPs,
// reserves each one's time on its direction of the link (one TLP after another, at the line rate
// after 128b/130b encoding), and returns as the annotated delay, without waiting, when the access
// is done for the caller: a read when its last completion has arrived, a (posted) write when its
// last TLP has left the card. A master can so keep many reads in flight, and one that waits out a
// write's delay before the next is held to the line rate as flow control would hold it.
// Reservations are made in call order, so callers issue in simulated-time order (no temporal
// decoupling).
#pragma once

#include "warpforge/cycle/backing_store.h"
#include "warpforge/cycle/pcie_params.h"
#include "warpforge/stats/stats.h"

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

namespace wf::cycle {

/// Host memory as the card sees it through the DMA window: functional storage, and the root
/// complex's read latency as an annotated delay.
class HostMemory : public sc_core::sc_module {
public:
  tlm_utils::simple_target_socket<HostMemory> socket;

  HostMemory(sc_core::sc_module_name name, uint64_t windowBytes, double readLatencyNs);
  BackingStore &store() { return store_; }

private:
  void bTransport(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay);
  unsigned transportDbg(tlm::tlm_generic_payload &trans);

  BackingStore store_;
  sc_core::sc_time readLatency_;
};

/// One direction of the link: TLPs leave one after another at the line rate.
class PcieLane {
public:
  explicit PcieLane(double bytesPerSecond) : secondsPerByte_(1.0 / bytesPerSecond) {}
  /// Sends a TLP of `wireBytes` no earlier than `earliest`; returns when its last byte has left.
  sc_core::sc_time send(unsigned wireBytes, const sc_core::sc_time &earliest);
  uint64_t wireBytes() const { return wireBytes_; }
  const sc_core::sc_time &busyTime() const { return busy_; }

private:
  double secondsPerByte_;
  sc_core::sc_time freeAt_ = sc_core::SC_ZERO_TIME;
  sc_core::sc_time busy_ = sc_core::SC_ZERO_TIME;
  uint64_t wireBytes_ = 0;
};

/// The card's PCIe endpoint: card-side masters reach host memory through `fromCard` (addresses
/// are DMA-window offsets); the endpoint forwards the bytes to `toHost` and times the TLPs.
class PcieEndpoint : public sc_core::sc_module {
public:
  tlm_utils::simple_target_socket<PcieEndpoint> fromCard;
  tlm_utils::simple_initiator_socket<PcieEndpoint> toHost;

  PcieEndpoint(sc_core::sc_module_name name, const PcieParams &params);
  const PcieParams &params() const { return params_; }
  const PcieLane &upstream() const { return up_; }     ///< card to host
  const PcieLane &downstream() const { return down_; } ///< host to card
  void registerStats(stats::Group &group) const;

private:
  void bTransport(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay);

  PcieParams params_;
  PcieLane up_, down_;
  sc_core::sc_time linkLatency_;
  uint64_t readRequests_ = 0, writeRequests_ = 0, completions_ = 0;
  uint64_t bytesToHost_ = 0, bytesFromHost_ = 0;
};

} // namespace wf::cycle

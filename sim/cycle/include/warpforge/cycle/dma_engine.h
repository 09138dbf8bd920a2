// The card's DMA engine, shaped like Xilinx XDMA: a host-to-card (H2C) and a card-to-host (C2H)
// channel, each running its descriptors in order and both running at once.
//
// H2C reads host memory through the PCIe endpoint in hostRequestBytes pieces, with at most
// maxHostReads pieces in flight (the read tags), and writes each piece into card memory once it
// has arrived. C2H reads card memory with at most maxCardRequests reads in flight and writes each
// piece to the host as it comes back. Card memory is reached through an approximately-timed port
// (card memory requests of cardRequestBytes), the host through the endpoint's loosely-timed one.
#pragma once

#include "warpforge/cycle/at_port.h"
#include "warpforge/stats/stats.h"

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace wf::cycle {

enum class DmaDirection : uint8_t { HostToCard, CardToHost };

struct DmaDescriptor {
  DmaDirection direction = DmaDirection::HostToCard;
  uint64_t hostOffset = 0;  ///< offset in the DMA window
  uint64_t cardAddress = 0; ///< card memory address
  uint64_t bytes = 0;
};

struct DmaParams {
  unsigned hostRequestBytes = 4096; ///< bytes of one H2C host read (the endpoint splits by MRRS)
  unsigned maxHostReads = 16;       ///< H2C host reads in flight (64 KiB: Gen5 x16 needs ~50)
  unsigned cardRequestBytes = 256;  ///< bytes of one card memory request
  unsigned maxCardRequests = 32;    ///< card memory requests in flight per channel
  std::optional<std::string> validate() const;
};

class DmaEngine : public sc_core::sc_module {
public:
  tlm_utils::simple_initiator_socket<DmaEngine> hostPort; ///< to PcieEndpoint::fromCard
  AtPort cardPort{"cardPort"};                            ///< to card memory

  DmaEngine(sc_core::sc_module_name name, const DmaParams &params);

  /// Queues a descriptor on its direction's channel.
  void submit(const DmaDescriptor &descriptor);
  /// Descriptors the channel has finished: H2C when every byte is in card memory, C2H when the
  /// last write to the host has left the card.
  uint64_t completed(DmaDirection direction) const { return channel(direction).completed; }
  /// Notified whenever a descriptor of the channel completes.
  const sc_core::sc_event &completion(DmaDirection direction) const {
    return channel(direction).completedEvent;
  }
  /// A failed access (out of the window or card memory) stops the channel's descriptor; counted.
  uint64_t errors(DmaDirection direction) const { return channel(direction).errors; }
  /// Statistics per channel, in the child groups "h2c" and "c2h".
  void registerStats(stats::Group &group) const;

private:
  struct Piece {
    sc_core::sc_time arrival; ///< H2C: when the bytes reached the card
    uint64_t descriptor = 0;
    uint64_t address = 0; ///< H2C: where in card memory; C2H: where in the DMA window
    std::vector<uint8_t> data;
  };
  struct Slot {
    tlm::tlm_generic_payload payload;
    std::vector<uint8_t> data;
    DmaDirection direction = DmaDirection::HostToCard;
    uint64_t descriptor = 0;
    uint64_t hostOffset = 0; ///< C2H: where the bytes go
  };
  struct Tracker {
    uint64_t outstanding = 0; ///< pieces not yet finished
    bool allIssued = false;
    sc_core::sc_time started;
    sc_core::sc_time lastHostArrival; ///< C2H: the last write's arrival at the host
  };
  struct Channel {
    std::deque<DmaDescriptor> queue;
    sc_core::sc_event queued, completedEvent, progress;
    uint64_t nextId = 0, completed = 0, errors = 0, bytes = 0;
    sc_core::sc_time busy = sc_core::SC_ZERO_TIME;
    std::unordered_map<uint64_t, Tracker> trackers;
    std::deque<Piece> pieces; ///< H2C: arrived from the host; C2H: read from card memory
    unsigned cardInFlight = 0;
  };

  Channel &channel(DmaDirection d) { return d == DmaDirection::HostToCard ? h2c_ : c2h_; }
  const Channel &channel(DmaDirection d) const {
    return d == DmaDirection::HostToCard ? h2c_ : c2h_;
  }
  void h2cReader();
  void h2cWriter();
  void c2hReader();
  void c2hWriter();
  Slot &takeSlot();
  void onCardResponse(tlm::tlm_generic_payload &trans);
  void pieceDone(Channel &ch, uint64_t descriptor);

  DmaParams params_;
  Channel h2c_, c2h_;
  std::deque<Slot> slots_;
  std::vector<Slot *> freeSlots_;
  std::unordered_map<tlm::tlm_generic_payload *, Slot *> slotOf_;
};

} // namespace wf::cycle

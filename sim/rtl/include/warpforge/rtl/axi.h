// AXI models that serve a Verilated design's AXI ports, cycle by cycle (AMBA AXI4 and AXI4-Lite):
//   - AxiLiteMaster drives an AXI4-Lite slave port (the GPU's control registers);
//   - AxiSlave serves one AXI4 master port (host DMA, one DRAM channel) from a MemoryBackend that
//     holds the bytes and decides when each beat is ready.
//
// Both follow SimCtrl's cycle (sim_ctrl.h): drive() sets the model's outputs while the clock is
// low, the design settles, sample() sees both sides, and a valid/ready pair seen high in sample()
// transfers at the coming rising edge. The models' own valid and ready outputs never depend on the
// design's outputs of the same cycle, so no combinational loop crosses the boundary.
#pragma once

#include "warpforge/rtl/pins.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace wf::rtl {

/// AXI4-Lite slave ports (driven by AxiLiteMaster).
struct AxiLitePins {
  Pin awvalid, awready, awaddr, wvalid, wready, wdata, wstrb, bvalid, bready, bresp;
  Pin arvalid, arready, araddr, rvalid, rready, rdata, rresp;
};

/// One AXI4 master port, or several as packed arrays (`index` selects the channel).
struct Axi4Pins {
  Pin awvalid, awready, awid, awaddr, awlen, awsize, awburst;
  Pin wvalid, wready, wdata, wstrb, wlast;
  Pin bvalid, bready, bid, bresp;
  Pin arvalid, arready, arid, araddr, arlen, arsize, arburst;
  Pin rvalid, rready, rid, rdata, rresp, rlast;
};

enum AxiResp : uint8_t { kAxiOkay = 0, kAxiExOkay = 1, kAxiSlvErr = 2, kAxiDecErr = 3 };

/// Drives register reads and writes, one at a time, onto an AXI4-Lite slave.
class AxiLiteMaster {
public:
  explicit AxiLiteMaster(const AxiLitePins &pins) : p_(pins) {}

  void reset();
  /// Starts an access; only when idle().
  void startWrite(uint32_t address, uint32_t data);
  void startRead(uint32_t address);
  bool idle() const { return state_ == State::Idle; }
  /// The last access's data (reads) and response.
  uint32_t readData() const { return rdata_; }
  uint8_t response() const { return resp_; }

  void drive();
  void sample();

private:
  enum class State { Idle, Write, Read };
  AxiLitePins p_;
  State state_ = State::Idle;
  uint32_t address_ = 0, data_ = 0, rdata_ = 0;
  bool awDone_ = false, wDone_ = false, arDone_ = false;
  uint8_t resp_ = 0;
};

/// What an AxiSlave serves: the bytes and the timing.
class MemoryBackend {
public:
  virtual ~MemoryBackend() = default;
  /// Bytes of `address`: false makes the beat a SLVERR.
  virtual bool read(uint64_t address, void *dst, uint64_t bytes) = 0;
  virtual bool write(uint64_t address, const void *src, uint64_t bytes) = 0;
  /// A beat (read) or a whole burst's data (write, `beats` long) accepted at `cycle`: the cycle
  /// its read data or write response may go out. Cycles are non-decreasing from call to call.
  virtual uint64_t readyCycle(bool write, uint64_t address, uint64_t cycle) = 0;
};

/// Serves one AXI4 master port: INCR and FIXED bursts of any length and size, narrow transfers,
/// write strobes, reads and writes of any ID; responses go out in the order requests arrived
/// (which AXI allows for every ID), reads and writes independently. Up to `maxOutstanding`
/// bursts of each direction are accepted before AWREADY/ARREADY drop.
class AxiSlave {
public:
  AxiSlave(const Axi4Pins &pins, unsigned index, MemoryBackend &backend,
           unsigned maxOutstanding = 16);

  void reset();
  void drive(uint64_t cycle);
  void sample(uint64_t cycle);
  bool idle() const { return reads_.empty() && writes_.empty() && wbeats_.empty(); }

  uint64_t readBeats() const { return readBeats_; }
  uint64_t writeBeats() const { return writeBeats_; }
  uint64_t writeResponses() const { return writeResponses_; }
  uint64_t errors() const { return errors_; }

private:
  struct Burst {
    uint64_t id = 0, address = 0;
    unsigned len = 0, size = 0, burst = 1; // AxLEN + 1 beats of 2^AxSIZE bytes
    unsigned beat = 0;                     // next beat (reads: to send; writes: to receive)
    bool error = false;
    bool complete = false;                 // writes: every beat received
    uint64_t ready = 0;                    // writes: when the response may go out
    std::vector<uint64_t> beatReady;       // reads: per beat
    std::vector<std::vector<uint8_t>> data; // reads: per beat, one bus width
  };
  uint64_t beatAddress(const Burst &b, unsigned beat) const;
  void acceptRead(Burst &b, uint64_t cycle);
  struct WBeat {
    std::vector<uint8_t> data, strobe; // strobe: one byte (0/1) per byte lane
    bool last = false;
  };
  void drainWrites(uint64_t cycle);

  Axi4Pins p_;
  unsigned index_;
  MemoryBackend &backend_;
  unsigned maxOutstanding_;
  unsigned busBytes_;
  std::deque<Burst> reads_;   // accepted, data not all sent
  std::deque<Burst> writes_;  // accepted AW, data or response pending
  std::deque<WBeat> wbeats_;  // W beats not yet matched to their AW
  bool rvalid_ = false, bvalid_ = false;
  uint64_t readBeats_ = 0, writeBeats_ = 0, writeResponses_ = 0, errors_ = 0;
};

} // namespace wf::rtl

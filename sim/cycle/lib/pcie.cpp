#include "warpforge/cycle/pcie.h"

#include <algorithm>

namespace wf::cycle {

using namespace sc_core;
using tlm::tlm_generic_payload;

HostMemory::HostMemory(sc_module_name name, uint64_t windowBytes, double readLatencyNs)
    : sc_module(name), socket("socket"), store_(windowBytes), readLatency_(readLatencyNs, SC_NS) {
  socket.register_b_transport(this, &HostMemory::bTransport);
  socket.register_transport_dbg(this, &HostMemory::transportDbg);
}

void HostMemory::bTransport(tlm_generic_payload &trans, sc_time &delay) {
  const uint64_t address = trans.get_address();
  const uint64_t length = trans.get_data_length();
  if (!store_.contains(address, length)) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  if (trans.is_read()) {
    store_.read(address, trans.get_data_ptr(), length);
    delay += readLatency_;
  } else if (trans.is_write()) {
    store_.write(address, trans.get_data_ptr(), length, trans.get_byte_enable_ptr(),
                 trans.get_byte_enable_length());
  } else {
    trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned HostMemory::transportDbg(tlm_generic_payload &trans) {
  const uint64_t address = trans.get_address();
  if (address >= store_.size())
    return 0;
  const uint64_t length = std::min<uint64_t>(trans.get_data_length(), store_.size() - address);
  if (trans.is_read())
    store_.read(address, trans.get_data_ptr(), length);
  else if (trans.is_write())
    store_.write(address, trans.get_data_ptr(), length);
  else
    return 0;
  return unsigned(length);
}

sc_time PcieLane::send(unsigned wireBytes, const sc_time &earliest) {
  sc_time start = std::max(earliest, freeAt_);
  sc_time duration(double(wireBytes) * secondsPerByte_, SC_SEC);
  freeAt_ = start + duration;
  busy_ += duration;
  wireBytes_ += wireBytes;
  return freeAt_;
}

PcieEndpoint::PcieEndpoint(sc_module_name name, const PcieParams &params)
    : sc_module(name), fromCard("fromCard"), toHost("toHost"), params_(params),
      up_(params.linkBytesPerSecond()), down_(params.linkBytesPerSecond()),
      linkLatency_(params.linkLatencyNs, SC_NS) {
  fromCard.register_b_transport(this, &PcieEndpoint::bTransport);
}

void PcieEndpoint::bTransport(tlm_generic_payload &trans, sc_time &delay) {
  const PcieParams &p = params_;
  const sc_time issue = sc_time_stamp() + delay;
  const uint64_t length = trans.get_data_length();
  if (!trans.is_read() && !trans.is_write()) {
    trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  // The bytes themselves: one functional access to host memory.
  sc_time hostDelay = SC_ZERO_TIME;
  toHost->b_transport(trans, hostDelay);
  if (!trans.is_response_ok())
    return;

  sc_time done = issue;
  if (trans.is_write()) {
    // Posted memory writes of at most MPS bytes each: the writer is done when the last has left
    // the card (the host has it one link latency later; anything the card sends after it, such
    // as a completion interrupt, arrives behind it on the same ordered path).
    for (uint64_t sent = 0; sent < length; sent += p.maxPayloadBytes) {
      unsigned payload = unsigned(std::min<uint64_t>(p.maxPayloadBytes, length - sent));
      done = up_.send(payload + p.requestHeaderBytes + p.framingBytes, issue);
      ++writeRequests_;
    }
    bytesToHost_ += length;
  } else {
    // Read requests of at most MRRS bytes; each is answered after the host's latency with
    // completions of completionBytes, which queue on the downstream direction.
    for (uint64_t asked = 0; asked < length; asked += p.maxReadRequestBytes) {
      uint64_t part = std::min<uint64_t>(p.maxReadRequestBytes, length - asked);
      sc_time atHost = up_.send(p.requestHeaderBytes + p.framingBytes, issue) + linkLatency_;
      ++readRequests_;
      sc_time answer = atHost + hostDelay;
      for (uint64_t c = 0; c < part; c += p.completionBytes) {
        unsigned payload = unsigned(std::min<uint64_t>(p.completionBytes, part - c));
        sc_time arrived =
            down_.send(payload + p.completionHeaderBytes + p.framingBytes, answer) + linkLatency_;
        done = std::max(done, arrived);
        ++completions_;
      }
    }
    bytesFromHost_ += length;
  }
  delay = done - sc_time_stamp();
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void PcieEndpoint::registerStats(stats::Group &group) const {
  group.formula("read_requests", "count", "memory read request TLPs sent to the host",
                [this] { return double(readRequests_); });
  group.formula("write_requests", "count", "memory write TLPs sent to the host",
                [this] { return double(writeRequests_); });
  group.formula("completions", "count", "completion-with-data TLPs received from the host",
                [this] { return double(completions_); });
  group.formula("bytes_to_host", "byte", "payload bytes written to host memory",
                [this] { return double(bytesToHost_); });
  group.formula("bytes_from_host", "byte", "payload bytes read from host memory",
                [this] { return double(bytesFromHost_); });
  group.formula("upstream_wire_bytes", "byte",
                "bytes on the card-to-host direction, TLP overhead included",
                [this] { return double(up_.wireBytes()); });
  group.formula("downstream_wire_bytes", "byte",
                "bytes on the host-to-card direction, TLP overhead included",
                [this] { return double(down_.wireBytes()); });
  group.formula("upstream_utilization", "ratio", "time the card-to-host direction was sending",
                [this] {
                  double s = sc_time_stamp().to_seconds();
                  return s > 0 ? up_.busyTime().to_seconds() / s : 0.0;
                });
  group.formula("downstream_utilization", "ratio", "time the host-to-card direction was sending",
                [this] {
                  double s = sc_time_stamp().to_seconds();
                  return s > 0 ? down_.busyTime().to_seconds() / s : 0.0;
                });
}

} // namespace wf::cycle

// A test initiator for the DRAM model: sends a list of requests through an AtPort, each no
// earlier than its own time and with at most `maxOutstanding` unanswered, and records when each
// was accepted and answered.
#pragma once

#include "warpforge/cycle/at_port.h"
#include "warpforge/cycle/backing_store.h"
#include "warpforge/cycle/dram_controller.h"

#include <cstring>
#include <functional>
#include <vector>

namespace wf::cycle::test {

struct DramRequest {
  sc_core::sc_time at; ///< send no earlier than this
  bool write = false;
  uint64_t address = 0;
  unsigned length = 64;
};

class DramDriver : public sc_core::sc_module {
public:
  AtPort port{"port"};
  std::vector<DramRequest> requests;
  unsigned maxOutstanding = 64;
  std::vector<sc_core::sc_time> sentAt, answeredAt;
  std::vector<size_t> answerOrder;
  std::vector<tlm::tlm_response_status> status;
  std::vector<std::vector<uint8_t>> data; ///< write data in, read data out
  /// Fills request i's buffer before it is sent (write data).
  std::function<void(size_t, std::vector<uint8_t> &)> prefill;

  SC_HAS_PROCESS(DramDriver);
  explicit DramDriver(sc_core::sc_module_name name) : sc_module(name) {
    SC_THREAD(run);
    port.onResponse([this](tlm::tlm_generic_payload &trans) {
      size_t i = size_t(&trans - payloads_.data());
      answeredAt[i] = sc_core::sc_time_stamp();
      status[i] = trans.get_response_status();
      answerOrder.push_back(i);
    });
  }

private:
  void run() {
    const size_t n = requests.size();
    payloads_ = std::vector<tlm::tlm_generic_payload>(n);
    sentAt.assign(n, sc_core::SC_ZERO_TIME);
    answeredAt.assign(n, sc_core::SC_ZERO_TIME);
    status.assign(n, tlm::TLM_INCOMPLETE_RESPONSE);
    data.resize(n);
    for (size_t i = 0; i < n; ++i) {
      const DramRequest &r = requests[i];
      data[i].resize(r.length);
      if (prefill)
        prefill(i, data[i]);
      if (r.at > sc_core::sc_time_stamp())
        wait(r.at - sc_core::sc_time_stamp());
      while (port.inFlight() >= maxOutstanding)
        wait(port.responded());
      tlm::tlm_generic_payload &t = payloads_[i];
      t.set_command(r.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
      t.set_address(r.address);
      t.set_data_ptr(data[i].data());
      t.set_data_length(r.length);
      t.set_streaming_width(r.length);
      t.set_byte_enable_ptr(nullptr);
      t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      sentAt[i] = sc_core::sc_time_stamp();
      port.send(t);
    }
  }

  std::vector<tlm::tlm_generic_payload> payloads_;
};

/// The top of a DRAM test: the store, the controller and the driver, bound in the constructor.
class DramBench : public sc_core::sc_module {
public:
  BackingStore store;
  DramController dram;
  DramDriver driver;
  std::vector<std::pair<unsigned, DramIssued>> issued;

  DramBench(sc_core::sc_module_name name, const DramParams &params)
      : sc_module(name), store(params.capacityBytes()), dram("dram", params, store),
        driver("driver") {
    driver.port.socket.bind(dram.ports[0]);
    dram.setIssueObserver([this](unsigned ch, const DramIssued &i) { issued.emplace_back(ch, i); });
  }
};

} // namespace wf::cycle::test

//===- cycle_bench.cpp - Speed of the cycle model's memory system --------------===//
//
// Simulation speed of the SystemC platform (sim/cycle): DRAM transactions simulated per second of
// host CPU time for streaming and random reads on the DDR4 and HBM2 presets, and a host-to-card DMA
// through the PCIe model. Each scenario runs in a process of its own (SystemC elaborates once a
// process). The simulated bandwidth is printed beside the speed, so a fast wrong model shows.
//
//   wf_bench_cycle [--quick] [scenario]
//
//===----------------------------------------------------------------------===//

#include "warpforge/cycle/at_port.h"
#include "warpforge/cycle/platform.h"

#include <cstdio>
#include <cstring>
#include <ctime>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <vector>

extern char **environ;

using namespace wf::cycle;
using sc_core::sc_time;

namespace {

/// CPU time of this process: the machine may be shared, and wall time would count the others.
double cpuSeconds() { return double(std::clock()) / CLOCKS_PER_SEC; }

/// Sends `transactions` reads of `lineBytes`, sequential or at pseudo-random lines, keeping
/// `outstanding` in flight from a reused pool of payloads (no per-request allocation, so the
/// figure is the memory model's speed, not the generator's).
class ReadGenerator : public sc_core::sc_module {
public:
  AtPort port{"port"};
  SC_HAS_PROCESS(ReadGenerator);
  ReadGenerator(sc_core::sc_module_name name, uint64_t lines, unsigned lineBytes, bool random,
                unsigned outstanding, uint64_t transactions)
      : sc_module(name), lines_(lines), lineBytes_(lineBytes), random_(random),
        transactions_(transactions), pool_(outstanding), data_(size_t(outstanding) * lineBytes) {
    for (size_t i = 0; i < pool_.size(); ++i)
      free_.push_back(&pool_[i]);
    port.onResponse([this](tlm::tlm_generic_payload &t) { free_.push_back(&t); });
    SC_THREAD(run);
  }

private:
  void run() {
    uint64_t lcg = 12345;
    for (uint64_t i = 0; i < transactions_; ++i) {
      while (free_.empty())
        wait(port.responded());
      tlm::tlm_generic_payload &t = *free_.back();
      free_.pop_back();
      uint64_t line = i;
      if (random_) {
        lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
        line = (lcg >> 17) % lines_;
      }
      t.set_command(tlm::TLM_READ_COMMAND);
      t.set_address(line * lineBytes_);
      t.set_data_ptr(data_.data() + size_t(&t - pool_.data()) * lineBytes_);
      t.set_data_length(lineBytes_);
      t.set_streaming_width(lineBytes_);
      t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      port.send(t);
    }
  }

  uint64_t lines_;
  unsigned lineBytes_;
  bool random_;
  uint64_t transactions_;
  std::vector<tlm::tlm_generic_payload> pool_;
  std::vector<uint8_t> data_;
  std::vector<tlm::tlm_generic_payload *> free_;
};

class DramTop : public sc_core::sc_module {
public:
  BackingStore store;
  DramController dram;
  ReadGenerator generator;
  DramTop(sc_core::sc_module_name name, const DramParams &p, unsigned lineBytes, bool random,
          unsigned outstanding, uint64_t transactions)
      : sc_module(name), store(p.capacityBytes()), dram("dram", p, store),
        generator("generator", p.capacityBytes() / lineBytes, lineBytes, random, outstanding,
                  transactions) {
    generator.port.socket.bind(dram.ports[0]);
  }
};

int dramScenario(const std::string &preset, bool random, unsigned lineBytes, unsigned outstanding,
                 uint64_t transactions) {
  DramParams p = *DramParams::fromPreset(preset).value;
  DramTop top("top", p, lineBytes, random, outstanding, transactions);
  const double start = cpuSeconds();
  sc_core::sc_start();
  const double host = cpuSeconds() - start;
  DramChannelCounters k = top.dram.totalCounters();
  double simulated = sc_core::sc_time_stamp().to_seconds();
  std::printf(
      "%-28s %9.0f transactions/s  %7.2f s cpu  %8.2f GB/s simulated (peak %.1f)  "
      "row hits %.1f%%\n",
      (preset + (random ? " random " : " stream ") + std::to_string(lineBytes) + "B").c_str(),
      double(transactions) / host, host, double(transactions) * lineBytes / simulated / 1e9,
      p.peakBytesPerSecond() / 1e9, 100.0 * double(k.rowHits) / double(k.reads + k.writes));
  return 0;
}

class DmaTop : public sc_core::sc_module {
public:
  Platform platform;
  uint64_t bytes;
  SC_HAS_PROCESS(DmaTop);
  DmaTop(sc_core::sc_module_name name, const PlatformParams &params, uint64_t bytes)
      : sc_module(name), platform("platform", params), bytes(bytes) {
    SC_THREAD(run);
  }
  void run() {
    platform.dma.submit({DmaDirection::HostToCard, 0, 0, bytes});
    while (platform.dma.completed(DmaDirection::HostToCard) == 0)
      wait(platform.dma.completion(DmaDirection::HostToCard));
  }
};

int dmaScenario(const std::string &dram, const std::string &pcie, uint64_t bytes) {
  PlatformParams p = *PlatformParams::fromPresets(dram, pcie).value;
  p.hostWindowBytes = bytes;
  DmaTop top("top", p, bytes);
  const double start = cpuSeconds();
  sc_core::sc_start();
  const double host = cpuSeconds() - start;
  double simulated = sc_core::sc_time_stamp().to_seconds();
  uint64_t requests = bytes / p.dma.cardRequestBytes;
  std::printf("%-28s %9.0f card requests/s  %7.2f s cpu  %8.2f GB/s simulated "
              "(link payload rate %.2f)\n",
              ("dma h2c " + pcie + " -> " + dram).c_str(), double(requests) / host, host,
              double(bytes) / simulated / 1e9, p.pcie.readThroughput() / 1e9);
  return 0;
}

int runScenario(const std::string &name, bool quick) {
  const uint64_t n = quick ? 100000 : 1000000;
  if (name == "ddr4-stream")
    return dramScenario("ddr4-2400", false, 64, 64, n);
  if (name == "ddr4-random")
    return dramScenario("ddr4-2400", true, 64, 64, n);
  if (name == "hbm2-stream")
    return dramScenario("hbm2-u55c", false, 128, 1024, n);
  if (name == "hbm2-random")
    return dramScenario("hbm2-u55c", true, 64, 1024, n);
  if (name == "dma")
    return dmaScenario("ddr4-2400", "gen3x16", (quick ? 16ull : 256ull) << 20);
  std::fprintf(stderr, "unknown scenario '%s'\n", name.c_str());
  return 2;
}

} // namespace

int sc_main(int, char **) { return 0; } // libsystemc wants one; main below is the entry point

int main(int argc, char **argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  bool quick = false;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0)
      quick = true;
    else
      only = argv[i];
  }
  if (!only.empty())
    return runScenario(only, quick);
  int failed = 0;
  for (const char *scenario : {"ddr4-stream", "ddr4-random", "hbm2-stream", "hbm2-random", "dma"}) {
    std::vector<char *> args = {argv[0], const_cast<char *>(scenario)};
    if (quick)
      args.push_back(const_cast<char *>("--quick"));
    args.push_back(nullptr);
    pid_t pid = 0;
    if (posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, args.data(), environ) != 0)
      return 1;
    int status = 0;
    waitpid(pid, &status, 0);
    failed += !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  return failed ? 1 : 0;
}

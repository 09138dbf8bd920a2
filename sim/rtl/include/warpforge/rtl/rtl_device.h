// The Verilated GPU as a device (docs/rtl-sim.md): rtl/soc/wf_gpu.sv clocked by the host, its
// AXI4-Lite control port driven from register reads and writes, its host-DMA master served from
// the host-DMA port, its DRAM masters served by the `fixed` DRAM model, its interrupt and its
// commit-record streams collected. The device plugin (plugin/rtl_plugin.cpp) is a thin C layer
// over this class.
#pragma once

#include "warpforge/isa/config.gen.h"
#include "warpforge/isa/device_plugin.h"
#include "warpforge/rtl/axi.h"
#include "warpforge/rtl/commit_packer.h"
#include "warpforge/rtl/fixed_dram.h"
#include "warpforge/rtl/gpu_top.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace wf::rtl {

/// What the user asks of a run, from the plugin's options string and the WARPFORGE_RTL_*
/// environment (docs/rtl-sim.md).
struct RtlOptions {
  std::string wavePath;                 ///< FST file; empty: no waves
  uint64_t waveFrom = 0;                ///< first cycle dumped
  uint64_t waveTo = UINT64_MAX;         ///< one past the last cycle dumped
  double progressSeconds = 10;          ///< a progress line this often on long runs; 0: never
  std::string commitPath;               ///< the RTL's commit records, binary; empty: not written
  bool lockstep = false;                ///< compare the RTL's commit records with the emulator
  /// The GPU counts as stuck (the device is lost, with that reason) after this many cycles in
  /// which it is busy and shows no progress: no commit record, no DRAM or host-DMA beat, no
  /// register write from the host. 0: never.
  uint64_t stallCycles = 1000000;

  /// Parses "wave=FILE,wave-cycles=FROM:TO,progress=SECONDS,commit=FILE,lockstep,
  /// stall-cycles=N" after the environment (WARPFORGE_RTL_WAVE, WARPFORGE_RTL_WAVE_CYCLES,
  /// WARPFORGE_RTL_PROGRESS, WARPFORGE_RTL_COMMIT, WARPFORGE_RTL_LOCKSTEP,
  /// WARPFORGE_RTL_STALL_CYCLES); an empty string or why the text is wrong.
  std::string parse(const std::string &options);
};

/// Receives each commit record the RTL emits (core, the record's bytes).
using RtlCommitSink = std::function<void(unsigned core, std::span<const uint8_t> record)>;

class RtlDevice {
public:
  /// Builds and resets the GPU Verilated for `config`; null with `error` when it cannot.
  static std::unique_ptr<RtlDevice> create(const isa::Config &config, const RtlOptions &options,
                                           std::string &error);
  ~RtlDevice();
  RtlDevice(const RtlDevice &) = delete;
  RtlDevice &operator=(const RtlDevice &) = delete;

  const isa::Config &config() const { return config_; }

  /// Control registers, as AXI4-Lite transactions (the clock runs while they take).
  uint32_t readReg(uint32_t offset);
  void writeReg(uint32_t offset, uint32_t value);
  /// Whether the RTL stopped answering (a register access that never completed), and why.
  bool lost(std::string *why) const;

  void attachHostDma(const wf_host_dma_port &port);
  /// The backdoor into DRAM at device addresses (not through the L2: docs/rtl-sim.md).
  bool memRead(uint64_t address, void *dst, uint64_t bytes);
  bool memWrite(uint64_t address, const void *src, uint64_t bytes);

  /// Runs up to `cycles` clock cycles; returns early (after the cycle) when the GPU wrote host
  /// memory or raised its interrupt, so the host looks at the news at once, and at once when the
  /// GPU is known idle. Returns the cycles run.
  uint64_t advance(uint64_t cycles);
  bool idle();
  bool irqPending();
  uint64_t cycle() const { return cycle_; }

  void setCommitSink(RtlCommitSink sink) { commitSink_ = std::move(sink); }
  /// Emits the records still waiting for their register rows (a launch has completed).
  void flushCommits();
  /// Completes and closes the wave and commit files (at exit, or when the device goes).
  void closeFiles();
  /// Why the run must stop (a lockstep difference), set by the commit sink's owner.
  void stop(std::string why);

private:
  RtlDevice(const isa::Config &config, const RtlOptions &options);
  bool build(std::string &error);
  void resetGpu();
  void step(); ///< one clock cycle
  bool regAccess(uint32_t offset, bool write, uint32_t value, uint32_t &result);
  void collectCommits();
  void progress();
  /// Counts every sign of progress (commit headers, AXI beats and responses on every port).
  uint64_t activity() const;
  /// After stallCycles without progress: the device is lost unless STATUS says IDLE.
  void checkStall();

  class DramBackend;
  class HostBackend;

  const isa::Config &config_;
  RtlOptions options_;
  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<GpuTop> top_;
  std::unique_ptr<AxiLiteMaster> ctrl_;
  std::unique_ptr<HostBackend> hostMemory_;
  std::unique_ptr<AxiSlave> host_;
  uint8_t *dram_ = nullptr; ///< device memory, global_mem_mib MiB, mapped on demand
  uint64_t dramBytes_ = 0;
  std::vector<std::unique_ptr<DramBackend>> dramChannels_;
  std::vector<std::unique_ptr<AxiSlave>> dramPorts_;
  std::vector<std::unique_ptr<CommitPacker>> commitPackers_; ///< per core
  RtlCommitSink commitSink_;
  std::FILE *commitFile_ = nullptr;

  uint64_t cycle_ = 0;
  uint64_t commitHeaders_ = 0;
  uint64_t lastActivity_ = 0;      ///< activity() when it last changed
  uint64_t lastActiveCycle_ = 0;   ///< the cycle it last changed (or the host wrote a register)
  bool knownIdle_ = false;
  bool news_ = false; ///< a host write completed or the interrupt rose this cycle
  bool irq_ = false;
  std::string lost_;
  bool tracing_ = false;
  // The progress line's rate counts only the time the clock runs, not the host's time between calls.
  std::chrono::steady_clock::time_point started_, lastProgress_, callStart_;
  std::chrono::steady_clock::duration busy_{}, busyAtProgress_{};
  uint64_t progressCycle_ = 0;
  bool printedProgress_ = false;
};

} // namespace wf::rtl

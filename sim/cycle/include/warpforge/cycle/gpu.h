// The GPU of the cycle model (docs/cycle-model.md, "GPU"): the SIMT cores, the block dispatcher,
// the crossbar and the L2 banks, clocked at the configuration's core clock, on the platform's card
// memory (DRAM timing model) through an approximately-timed TLM port. A launch runs here instead
// of in the emulator's scheduler: the cores decide when each warp instruction issues, and the
// golden model (the emulator behind its plugin, isa::GoldenModel) executes it then.
#pragma once

#include "warpforge/cycle/at_port.h"
#include "warpforge/cycle/platform.h"
#include "warpforge/cycle/simt_core.h"
#include "warpforge/cycle/tag_array.h"
#include "warpforge/isa/golden.h"
#include "warpforge/stats/stats.h"

#include <deque>
#include <memory>
#include <vector>

namespace wf::cycle {

struct L2Params {
  unsigned bytes = 524288;
  unsigned ways = 8;
  unsigned banks = 4;
  unsigned lineBytes = 64;
  unsigned mshrsPerBank = 16;
  unsigned hitLatency = 2; ///< tag lookup in t, data RAM in t + 1, response in t + 2
};

struct GpuParams {
  unsigned cores = 4;
  unsigned clockMhz = 250;
  CoreParams core;
  L2Params l2;
  PlatformParams platform;

  /// Everything a named configuration selects (isa/config.toml).
  static Result<GpuParams> fromConfig(const isa::Config &config);
};

/// How a launch runs (what the command processor asks of it).
struct LaunchOptions {
  /// Fault when the launch issues more warp instructions than this.
  uint64_t watchdogWarpInsts = 1ull << 32;
};

struct L2Counters {
  uint64_t requests = 0, hits = 0, misses = 0, mshrMerges = 0, writebacks = 0, atomics = 0;
  uint64_t bankBusyCycles = 0;
};

class Gpu : public sc_core::sc_module {
public:
  Platform platform;

  /// `params` must come from GpuParams::fromConfig.
  Gpu(sc_core::sc_module_name name, const GpuParams &params);
  ~Gpu() override;

  /// Runs one grid on `model`'s memory (the golden model executes, this model times); returns
  /// what the emulator's own launch would, with this model's cycles. Call outside any SystemC
  /// process (it runs sc_start until the grid has finished).
  isa::LaunchResult launch(isa::GoldenModel &model, const isa::LaunchDesc &desc,
                           const LaunchOptions &options = {});

  /// Called for every issued warp instruction: core, warp slot, pc, cycle of the launch.
  std::function<void(unsigned, unsigned, uint32_t, uint64_t)> issueObserver;

  /// Core cycles of every launch so far.
  uint64_t cycles() const { return cyclesTotal_; }
  const GpuParams &params() const { return params_; }
  const SimtCore &core(unsigned i) const { return *cores_[i]; }
  /// gpu.core<i>.*, gpu.l2.*, gpu.cycles ... and the platform's groups (dram, pcie, dma).
  void registerStats(stats::Group &group) const;

private:
  struct Bank;
  struct DramRequest;
  void clockThread();
  void dramThread();
  void tick();
  void dispatchBlock();
  void crossbar();
  void l2Step();
  void l2Fill(unsigned bank, uint64_t line);
  void sendDram(uint64_t address, bool write, unsigned bank, uint64_t line);
  bool launchDone() const;

  GpuParams params_;
  sc_core::sc_time period_;
  AtPort l2Port_;
  std::vector<std::unique_ptr<SimtCore>> cores_;
  std::vector<std::unique_ptr<Bank>> banks_;
  L2Counters l2Counters_;

  // The launch that runs.
  const isa::LaunchDesc *desc_ = nullptr;
  std::unique_ptr<isa::GoldenLaunch> stepper_;
  std::vector<uint8_t> lastRecord_;
  std::vector<DecodedTiming> code_;
  SimtCore::LaunchContext ctx_;
  uint64_t warpInstsTotal_ = 0;
  uint64_t totalBlocks_ = 0, nextBlock_ = 0, retired_ = 0;
  unsigned offerCore_ = 0;
  std::vector<unsigned> xbarLast_; ///< per bank: the requester granted last
  uint64_t now_ = 0;               ///< core cycles since the model started
  uint64_t launchStart_ = 0;
  uint64_t cyclesTotal_ = 0, launches_ = 0;
  bool running_ = false;
  bool stopped_ = false;
  sc_core::sc_event launchEvent_, dramEvent_;
  std::deque<std::unique_ptr<DramRequest>> dramQueue_, inFlightDram_, dramFree_;
  struct Fill {
    sc_core::sc_time at;
    unsigned bank;
    uint64_t line;
    bool write;
  };
  std::deque<Fill> fills_;
};

} // namespace wf::cycle

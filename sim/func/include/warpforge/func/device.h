// The functional emulator: the golden model of Warpforge's architectural state.
//
// It executes native code only (never PTX). The host side places code, constants and data into
// device memory and describes a launch; the emulator runs the grid and reports a fault or success.
#pragma once

#include "warpforge/func/commit.h"
#include "warpforge/isa/launch.h"
#include "warpforge/isa/config.gen.h"
#include "warpforge/isa/device.gen.h"
#include "warpforge/stats/stats.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace wf::func {

class Launch;

using isa::Dim3;
using isa::Fault;
using isa::FaultDetail;
using isa::FaultKind;
using isa::faultKindName;
using isa::LaunchDesc;
using isa::LaunchResult;

struct RunOptions {
  /// Fault when the launch executes more warp instructions than this.
  uint64_t watchdogWarpInsts = 1ull << 32;
  /// Host threads running the cores (each host thread owns every hostThreads-th core; more than
  /// `cores` are not used). Tracing and commit records force one.
  unsigned hostThreads = 1;
  /// Commit trace, one text line per commit record (format: docs/commit-trace.md).
  std::ostream *trace = nullptr;
  /// Commit records (commit.h), one per warp instruction and barrier release, in the order the
  /// emulator commits them.
  CommitSink commit;
  /// Per-instruction warp execution counters, one per 8-byte instruction of the code segment
  /// (index pc / 8), added to; for profiles (bench/). Counting forces one host thread.
  uint64_t *pcProfile = nullptr;
  /// Timeline of warp activity (Chrome trace-event JSON, docs/emulator.md "Timeline"): block
  /// residency and runs of warp instructions per core and warp slot, written after the launch.
  std::ostream *timeline = nullptr;
};


/// Device (global) memory: `globalMemMib` of zeroed bytes at isa::kGlobalBase.
class Memory {
public:
  explicit Memory(uint64_t bytes);
  /// Device memory over `bytes` of memory the caller owns and keeps mapped (a shared-memory
  /// segment the board server shares with its clients).
  Memory(uint8_t *external, uint64_t bytes);
  ~Memory();
  Memory(const Memory &) = delete;
  Memory &operator=(const Memory &) = delete;

  uint64_t base() const;
  uint64_t size() const;
  bool contains(uint64_t addr, uint64_t bytes) const;
  /// Host access; false when the range is outside device memory.
  bool read(uint64_t addr, void *dst, uint64_t bytes) const;
  bool write(uint64_t addr, const void *src, uint64_t bytes);
  bool fill(uint64_t addr, uint8_t value, uint64_t bytes);
  /// Raw host pointer to device byte `addr` (must be inside).
  uint8_t *host(uint64_t addr);
  const uint8_t *host(uint64_t addr) const;
  /// True when host(addr) == addr: the memory sits at its device addresses in this process
  /// (the first device a process creates, when the range is free).
  bool identityMapped() const;
  /// Zeroes all of device memory, giving its pages back to the host where it can.
  void scrub();

private:
  uint8_t *data_;
  uint64_t size_;
  bool owned_ = true;
};

/// A whole GPU of one named configuration.
class Device {
  friend class Stepper; // runs launches warp by warp and advances the cycle counter

public:
  explicit Device(const isa::Config &config);
  /// A device whose memory is the caller's mapping of the configuration's globalMemMib.
  Device(const isa::Config &config, uint8_t *externalMemory);
  ~Device();

  const isa::Config &config() const { return config_; }
  Memory &memory() { return memory_; }
  /// The cycle counter (CLOCK64); advances with every launch.
  uint64_t cycles() const { return cycles_; }
  /// Statistics of every launch so far, under the group "gpu" (docs/emulator.md, "Statistics");
  /// stats::writeJsonFile(device.stats(), path) dumps them.
  stats::Group &stats() { return stats_; }

  /// Run a grid to completion or to its first fault.
  LaunchResult launch(const LaunchDesc &desc, const RunOptions &options = {});

private:
  struct Counters;
  /// Adds a finished (or faulted) launch to the statistics.
  void count(const Launch &launch, const LaunchResult &result);

  isa::Config config_;
  Memory memory_;
  uint64_t cycles_ = 0;
  stats::Group stats_{"gpu"};
  std::unique_ptr<Counters> counters_;
};

} // namespace wf::func

// Execution profiles of runtime-API launches (WARPFORGE_PROFILE=FILE; docs/runtime.md).
//
// Each profiled launch names a buffer of per-instruction warp execution counters in device memory
// (LaunchDesc.profile_addr, isa/device.toml); the device adds to it and the runtime reads it back
// after the launch. At exit, one row per kernel and device function is appended to FILE: the
// native instructions executed, next to an estimate of the PTX instructions executed.
#pragma once

#include "warpforge/runtime/device.h"

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace wf::rt {

struct ModuleRecord;

class Profiler {
public:
  /// The process's profiler when WARPFORGE_PROFILE names a file, else nullptr.
  static Profiler *fromEnvironment();

  /// Device address of `module`'s zeroed counters (allocated on first use); 0 when out of memory.
  uint64_t countersFor(Device &device, const ModuleRecord &module);
  /// Adds the counters of the launch that just ran to the module's totals and zeroes them.
  void collect(Device &device, const ModuleRecord &module, const std::string &kernel);
  /// The device forgot its memory (cudaDeviceReset): counters are allocated again when needed.
  void forgetDevice();
  /// Appends the report to the file (at exit).
  void writeReport();

private:
  struct ModuleProfile {
    const ModuleRecord *module = nullptr;
    uint64_t counters = 0;                    ///< device address, 0 when not allocated
    std::vector<uint64_t> totals;             ///< per instruction, over every launch
    std::map<std::string, uint64_t> launches; ///< per kernel
  };
  explicit Profiler(std::string path) : path_(std::move(path)) {}
  std::string path_;
  std::mutex mutex_;
  std::map<const ModuleRecord *, ModuleProfile> modules_;
};

} // namespace wf::rt

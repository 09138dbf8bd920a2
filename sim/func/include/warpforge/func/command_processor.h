// The emulator's command processor: the device side of the device protocol
// (docs/device-protocol.md, isa/device.toml). It owns the control registers, reads commands from
// the ring in device memory, runs them on a Device and reports completions. Every transport
// (in-process, the board server) drives the emulator only through readReg/writeReg, the host-DMA
// port and device memory (isa/include/warpforge/isa/device_plugin.h).
#pragma once

#include "warpforge/func/device.h"
#include "warpforge/isa/device.gen.h"
#include "warpforge/isa/device_plugin.h"

#include <cstdint>
#include <functional>
#include <mutex>

namespace wf::func {

/// Host memory the device reaches by DMA (COPY with SRC_HOST/DST_HOST), as a plain buffer.
struct DmaWindow {
  uint8_t *data = nullptr;
  uint64_t size = 0;
};

class CommandProcessor {
public:
  /// The device reaches host memory only through `port` (offsets, never host pointers).
  CommandProcessor(Device &device, const wf_host_dma_port &port);
  /// No host memory until attachHostDma.
  explicit CommandProcessor(Device &device);
  /// A port over a buffer of this process.
  CommandProcessor(Device &device, DmaWindow window);
  CommandProcessor(const CommandProcessor &) = delete;
  CommandProcessor &operator=(const CommandProcessor &) = delete;

  /// A 32-bit control register; unknown offsets read as 0.
  uint32_t readReg(uint32_t offset);
  /// Writes a control register. Writing QUEUE_TAIL (the doorbell) runs every command up to the new
  /// tail before it returns: the emulator has no concurrent engine, so the queue drains at once.
  void writeReg(uint32_t offset, uint32_t value);
  /// Replaces the host-DMA port (a transport attaching after creation).
  void attachHostDma(const wf_host_dma_port &port);
  /// Whether every command has run.
  bool idle();
  /// Whether an enabled interrupt is pending.
  bool irqPending() const;

  /// What runs a LAUNCH in place of Device::launch: a timing model that takes the emulator's
  /// behaviour through its Stepper (the cycle device). Empty: Device::launch.
  using Launcher = std::function<LaunchResult(const LaunchDesc &, const RunOptions &)>;
  void setLauncher(Launcher launcher) { launcher_ = std::move(launcher); }

  /// Commit trace of launches (docs/commit-trace.md), for debugging through the protocol.
  void setTrace(std::ostream *trace) { trace_ = trace; }

  /// Statistics for the device's report.
  uint64_t commandsRun() const { return commandsRun_; }

private:
  void reset();
  void drain();
  isa::dev::Status run(const isa::dev::Command &cmd, isa::dev::Completion &done);
  isa::dev::Status launch(uint64_t descAddr, isa::dev::Completion &done);
  bool hostRange(uint64_t offset, uint64_t bytes) const;
  bool hostRead(uint64_t offset, void *dst, uint64_t bytes) const;
  bool hostWrite(uint64_t offset, const void *src, uint64_t bytes) const;

  Device &device_;
  DmaWindow buffer_; ///< the buffer behind port_ when constructed from a DmaWindow
  wf_host_dma_port port_{};
  std::recursive_mutex mutex_;
  std::ostream *trace_ = nullptr;
  Launcher launcher_;

  uint64_t queueBase_ = 0;
  uint32_t queueSize_ = 0;
  uint32_t head_ = 0, tail_ = 0;
  uint64_t completedSeq_ = 0;
  uint32_t latchedSeqHi_ = 0, latchedCyclesHi_ = 0;
  uint32_t irqStatus_ = 0, irqEnable_ = 0;
  uint32_t watchdogMinsts_;
  bool faulted_ = false;
  uint64_t gridCount_ = 0;
  uint64_t commandsRun_ = 0;
};

} // namespace wf::func

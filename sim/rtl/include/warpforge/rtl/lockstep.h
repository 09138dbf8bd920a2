// Lockstep of the RTL against the emulator (docs/rtl-sim.md, "Lockstep"): a shadow emulator runs
// the same command stream as the RTL. The shadow is a device of the emulator's plugin, loaded by
// name at run time through the golden-model interface (isa/golden.h, docs/golden-model.md): the RTL
// device links nothing of sim/func. Copies and fills are applied to the shadow's memory in order;
// a LAUNCH is run warp by warp from the RTL's commit records through isa's LockstepChecker, which
// injects the RTL's nondeterministic values (special registers, load bytes, atomics' old values)
// and compares every record. The first difference stops the run with both states printed.
//
// The shadow knows the device only through what the host writes (the ring, through the host-DMA
// port) and the hooks below, so it runs against any source of RTL-shaped records: the Verilated
// GPU, or a test that feeds records of its own.
#pragma once

#include "warpforge/isa/config.gen.h"
#include "warpforge/isa/device.gen.h"
#include "warpforge/isa/device_plugin.h"
#include "warpforge/isa/golden.h"
#include "warpforge/isa/lockstep.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>

namespace wf::rtl {

class RtlLockstep {
public:
  struct Hooks {
    /// The device's COMPLETED_SEQ (a LAUNCH is over once it reaches the launch's sequence).
    std::function<uint64_t()> completedSeq;
    /// Stops the run: the device reports itself lost with this message.
    std::function<void(const std::string &)> stop;
    /// Emits the records the device still holds (called before a launch is closed).
    std::function<void()> flush;
  };

  /// When the emulator's plugin cannot be loaded, the lockstep is stopped at once (stopped() says
  /// why, and hooks.stop is called).
  RtlLockstep(const isa::Config &config, Hooks hooks, const isa::Injection &inject = {});
  ~RtlLockstep();

  /// A control-register write the host makes (before the device sees it).
  void writeReg(uint32_t offset, uint32_t value);
  void attachHostDma(const wf_host_dma_port &port);
  /// A commit record from the RTL; false once the run has been stopped.
  bool onRecord(unsigned core, std::span<const uint8_t> record);
  /// Closes launches the device has completed; call after the device has run.
  void poll();
  /// The end of the run: closes a launch still open. False when a difference was found.
  bool finish();

  /// Records compared so far, over every launch.
  uint64_t compared() const { return comparedBefore_ + (checker_ ? checker_->compared() : 0); }
  uint64_t launches() const { return launches_; }
  /// Why the run was stopped, or empty.
  const std::string &stopped() const { return stopped_; }
  /// The shadow (null when it could not be created).
  isa::GoldenModel *shadow() { return shadow_.get(); }

private:
  void fetch(uint32_t tail);
  void runShadow();
  bool startLaunch(const isa::dev::Command &cmd);
  void closeLaunch();
  void fail(const std::string &why);
  bool hostRead(uint64_t offset, void *dst, uint64_t bytes) const;

  const isa::Config &config_;
  Hooks hooks_;
  uint64_t codeBase_ = 0; ///< the running launch's code segment (records lacking the word)
  isa::Injection inject_;
  std::unique_ptr<isa::GoldenModel> shadow_;
  wf_host_dma_port port_{};
  uint64_t queueBase_ = 0;
  uint32_t queueSize_ = 0, head_ = 0;
  std::deque<isa::dev::Command> pending_; ///< rung but not yet run by the shadow
  std::unique_ptr<isa::LockstepChecker> checker_;
  uint64_t launchSeq_ = 0, launchCompletion_ = ~0ull;
  uint64_t comparedBefore_ = 0, launches_ = 0;
  std::string stopped_;
};

} // namespace wf::rtl

// The golden model through its plugin (golden_model.h), in C++: a func device model created by the
// emulator's plugin, found by name at run time like every device, whose memory a timing model uses
// as its own and whose launches it steps warp by warp (GoldenLaunch, an isa::WarpStepper). No
// layer but sim/func links the emulator (docs/golden-model.md).
#pragma once

#include "warpforge/isa/device_plugin.h"
#include "warpforge/isa/golden_model.h"
#include "warpforge/isa/launch.h"
#include "warpforge/isa/lockstep.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace wf::isa {

class GoldenLaunch;

/// One device model of the emulator's plugin, and its golden-model functions.
class GoldenModel {
public:
  /// Creates a device of configuration `config` from the plugin `plugin` ("func"), with `memory`
  /// (the configuration's globalMemMib, owned by the caller) as its device memory, or memory of its
  /// own when null. Null with `error` set when the plugin is missing, lacks the golden-model
  /// interface, or refuses the device.
  static std::unique_ptr<GoldenModel> open(const std::string &plugin, const std::string &config,
                                           std::string &error, uint8_t *memory = nullptr);
  ~GoldenModel();
  GoldenModel(const GoldenModel &) = delete;
  GoldenModel &operator=(const GoldenModel &) = delete;

  /// The device model, for its device-plugin operations (registers, host DMA, ...).
  wf_device_model *model() const { return model_; }
  const wf_device_model_ops &ops() const { return *plugin_->ops; }

  /// The device-memory port (device addresses); false when the range is outside.
  bool read(uint64_t address, void *dst, uint64_t bytes) const;
  bool write(uint64_t address, const void *src, uint64_t bytes);
  /// Fills `bytes` at `address` with `value`.
  bool fill(uint64_t address, uint8_t value, uint64_t bytes);

  /// Begins a launch; every commit record goes to `sink` (may be empty).
  std::unique_ptr<GoldenLaunch> begin(const LaunchDesc &desc, CommitSink sink = {});

  /// What runs a LAUNCH of the model's command processor in place of the emulator.
  using Launcher = std::function<LaunchResult(const LaunchDesc &, uint64_t watchdogWarpInsts)>;
  void setLauncher(Launcher launcher);

private:
  GoldenModel(const wf_device_plugin *plugin, const wf_golden_model_api *api,
              wf_device_model *model)
      : plugin_(plugin), api_(api), model_(model) {}

  const wf_device_plugin *plugin_;
  const wf_golden_model_api *api_;
  wf_device_model *model_;
  Launcher launcher_;
};

/// A launch of a GoldenModel, stepped through the plugin.
class GoldenLaunch final : public WarpStepper {
public:
  ~GoldenLaunch() override;
  GoldenLaunch(const GoldenLaunch &) = delete;
  GoldenLaunch &operator=(const GoldenLaunch &) = delete;

  StepResult step(const WarpRef &warp, uint32_t count, const CommitView *reference = nullptr,
                  const Injection &inject = {}) override;
  bool finished(const WarpRef &warp) const override;
  WarpStatus status(const WarpRef &warp) override;
  std::vector<WarpRef> warps() const override;
  const std::optional<Fault> &fault() const override;
  LaunchResult finish(std::optional<uint64_t> timedCycles = std::nullopt) override;

private:
  friend class GoldenModel;
  GoldenLaunch(const wf_golden_model_api *api, std::string kernel, CommitSink sink)
      : api_(api), kernel_(std::move(kernel)), sink_(std::move(sink)) {}
  static void deliver(void *context, const uint8_t *record, uint32_t bytes);

  const wf_golden_model_api *api_;
  wf_golden_launch *launch_ = nullptr;
  std::string kernel_;
  CommitSink sink_;
  mutable std::optional<Fault> fault_;
};

/// Conversions between the C interface's structures and isa's types; the plugin side uses them too.
namespace golden {
/// A view of `desc` (its params and kernel name stay owned by `desc`).
wf_golden_launch_desc toC(const LaunchDesc &desc);
LaunchDesc fromC(const wf_golden_launch_desc &desc);
wf_golden_warp toC(const WarpRef &warp);
WarpRef fromC(const wf_golden_warp &warp);
uint32_t toC(const Injection &inject);
Injection injectionFromC(uint32_t bits);
/// A launch's counts and fault as a completion record's fields, and back.
dev::Completion toCompletion(const LaunchResult &result);
LaunchResult fromCompletion(const dev::Completion &record, uint64_t blocks, std::string kernel);
} // namespace golden

} // namespace wf::isa

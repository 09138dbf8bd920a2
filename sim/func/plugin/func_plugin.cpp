//===- func_plugin.cpp - The functional emulator as a device plugin -------===//
//
// libwf-device-func.so: the emulator (func::Device) and its command processor behind the device
// plugin interface (isa/include/warpforge/isa/device_plugin.h), and the emulator as the golden
// model (isa/include/warpforge/isa/golden_model.h): launches stepped warp by warp through its
// Stepper, for the cycle model and the RTL lockstep. The host loads it at run time; no host
// program and no other model links the emulator.
//
//===----------------------------------------------------------------------===//

#include "warpforge/func/command_processor.h"
#include "warpforge/func/lockstep.h"
#include "warpforge/isa/device_plugin.h"
#include "warpforge/isa/golden.h"
#include "warpforge/isa/golden_model.h"

#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <optional>

struct wf_device_model {
  // Every hardware queue on a thread of its own: copies overlap kernels (docs/device-protocol.md).
  explicit wf_device_model(const wf::isa::Config &config)
      : device(config), processor(device, wf::func::CommandProcessorParams::concurrent()) {}
  wf_device_model(const wf::isa::Config &config, uint8_t *memory)
      : device(config, memory),
        processor(device, wf::func::CommandProcessorParams::concurrent()) {}

  wf::func::Device device;
  wf::func::CommandProcessor processor;
};

// After wf_device_model: the shared operations use its members.
#include "warpforge/func/plugin_ops.h"

namespace {

const char *kind(wf_device_model *) { return "func"; }
const char *describe(wf_device_model *) { return "in-process emulator"; }

const wf_device_model_ops kOps = wf::func::plugin_ops::make(kind, describe);

wf_device_model *create(const wf_device_create_params *params, char *error, size_t errorSize) {
  auto fail = [&](const std::string &why) -> wf_device_model * {
    std::snprintf(error, errorSize, "%s", why.c_str());
    return nullptr;
  };
  if (!params || params->abi_version != WF_DEVICE_PLUGIN_ABI_VERSION)
    return fail("func: the host speaks another plugin interface version");
  const wf::isa::Config *config = wf::isa::findConfig(params->config ? params->config : "default");
  if (!config)
    return fail(std::string("func: no configuration '") + params->config + "'");
  try {
    if (!params->device_memory)
      return new wf_device_model(*config);
    if (params->device_memory_bytes != uint64_t(config->globalMemMib) << 20)
      return fail("func: the device memory passed in does not match configuration '" +
                  std::string(config->name) + "'");
    return new wf_device_model(*config, params->device_memory);
  } catch (const std::bad_alloc &) {
    return fail("func: not enough host memory for the device");
  }
}

// --- the golden-model interface ---------------------------------------------------------------

} // namespace

struct wf_golden_launch {
  wf_golden_launch(wf::func::Device &device, const wf::isa::LaunchDesc &desc,
                   wf_golden_commit_sink sink, void *context)
      : stepper(device, desc, [sink, context](std::span<const uint8_t> r) {
          if (sink)
            sink(context, r.data(), uint32_t(r.size()));
        }) {}
  wf::func::Stepper stepper;
  std::vector<wf::isa::WarpRef> warps; ///< filled at the first warp_at
};

namespace {

namespace golden = wf::isa::golden;

wf_golden_launch *begin(wf_device_model *m, const wf_golden_launch_desc *desc,
                        wf_golden_commit_sink sink, void *context) {
  try {
    return new wf_golden_launch(m->device, golden::fromC(*desc), sink, context);
  } catch (const std::bad_alloc &) {
    return nullptr;
  }
}

uint64_t warpCount(wf_golden_launch *l) {
  if (l->warps.empty())
    l->warps = l->stepper.warps();
  return l->warps.size();
}

int warpAt(wf_golden_launch *l, uint64_t index, wf_golden_warp *warp) {
  if (index >= warpCount(l))
    return 1;
  *warp = golden::toC(l->warps[index]);
  return 0;
}

int status(wf_golden_launch *l, const wf_golden_warp *warp, wf_golden_warp_status *out) {
  wf::isa::WarpStatus s = l->stepper.status(golden::fromC(*warp));
  *out = wf_golden_warp_status{s.started, s.finished, s.idle, 0, s.group, s.pc};
  return 0;
}

uint32_t step(wf_golden_launch *l, const wf_golden_warp *warp, uint32_t count,
              const uint8_t *reference, uint32_t referenceBytes, uint32_t inject,
              uint32_t *executed) {
  std::optional<wf::isa::CommitView> view;
  if (reference) {
    std::span<const uint8_t> bytes(reference, referenceBytes);
    if (!wf::isa::CommitView::validate(bytes).empty()) {
      *executed = 0;
      return WF_GOLDEN_STEP_INVALID;
    }
    view.emplace(bytes);
  }
  wf::isa::StepResult r = l->stepper.step(golden::fromC(*warp), count, view ? &*view : nullptr,
                                          golden::injectionFromC(inject));
  *executed = r.executed;
  return uint32_t(r.status);
}

int finished(wf_golden_launch *l, const wf_golden_warp *warp) {
  return l->stepper.finished(golden::fromC(*warp)) ? 1 : 0;
}

int fault(wf_golden_launch *l, void *completion) {
  const std::optional<wf::isa::Fault> &f = l->stepper.fault();
  if (!f)
    return 0;
  wf::isa::dev::Completion c = f->record();
  std::memcpy(completion, &c, sizeof c);
  return 1;
}

void finish(wf_golden_launch *l, int timed, uint64_t timedCycles, void *completion,
            uint64_t *blocks) {
  wf::isa::LaunchResult r =
      l->stepper.finish(timed ? std::optional<uint64_t>(timedCycles) : std::nullopt);
  wf::isa::dev::Completion c = golden::toCompletion(r);
  std::memcpy(completion, &c, sizeof c);
  *blocks = r.blocks;
}

void release(wf_golden_launch *l) { delete l; }

void setLauncher(wf_device_model *m, wf_golden_launcher launcher, void *context) {
  if (!launcher) {
    m->processor.setLauncher({});
    return;
  }
  m->processor.setLauncher([m, launcher, context](const wf::func::LaunchDesc &desc,
                                                  const wf::func::RunOptions &options) {
    wf_golden_launch_desc c = golden::toC(desc);
    wf::isa::dev::Completion done{};
    uint64_t blocks = 0;
    launcher(context, m, &c, options.watchdogWarpInsts, &done, &blocks);
    return golden::fromCompletion(done, blocks, desc.kernelName);
  });
}

const wf_golden_model_api kGolden = {
    WF_GOLDEN_MODEL_ABI_VERSION, 0, begin, warpCount, warpAt, status, step, finished, fault,
    finish, release, setLauncher,
};

const wf_device_plugin kPlugin = {
    WF_DEVICE_PLUGIN_ABI_VERSION, 0, "func",
    "the functional emulator (golden model of architectural state)", &kOps, create,
};

} // namespace

extern "C" __attribute__((visibility("default"))) const wf_device_plugin *
wf_device_plugin_entry(void) {
  return &kPlugin;
}

extern "C" __attribute__((visibility("default"))) const wf_golden_model_api *
wf_golden_model_entry(void) {
  return &kGolden;
}

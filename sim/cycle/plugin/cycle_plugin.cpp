//===- cycle_plugin.cpp - The cycle model as a device plugin --------------===//
//
// libwf-device-cycle.so: the emulator's command processor and device memory with every LAUNCH run
// by the cycle model (Gpu::launch), behind the device plugin interface
// (isa/include/warpforge/isa/device_plugin.h). COPY, FILL, FENCE and TIMESTAMP run as in the
// emulator (functionally, without the platform's DMA timing: docs/cycle-model.md, "Gaps").
//
// SystemC elaborates once per process, so the GPU top is built at the first create and kept for
// the life of the process; later devices of the same configuration reuse it, another
// configuration is refused.
//
//===----------------------------------------------------------------------===//

#include "warpforge/cycle/gpu.h"
#include "warpforge/func/command_processor.h"
#include "warpforge/isa/device_plugin.h"
#include "warpforge/stats/stats.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>

namespace {

struct Top {
  std::string config;
  std::unique_ptr<wf::cycle::Gpu> gpu;
  wf::stats::Group stats{"gpu"};
};

Top &top() {
  static Top t;
  return t;
}

} // namespace

struct wf_device_model {
  wf_device_model(const wf::isa::Config &config, uint8_t *memory, wf::cycle::Gpu &gpu)
      : owned(memory ? std::make_unique<wf::func::Device>(config, memory)
                     : std::make_unique<wf::func::Device>(config)),
        device(*owned), processor(device) {
    processor.setLauncher([this, &gpu](const wf::func::LaunchDesc &desc,
                                       const wf::func::RunOptions &options) {
      wf::func::LaunchResult r = gpu.launch(device, desc, options);
      // WARPFORGE_STATS=FILE: the model's statistics (JSON), rewritten after every launch so
      // that a program which never tears its device down still leaves them.
      if (const char *path = std::getenv("WARPFORGE_STATS"); path && *path)
        wf::stats::writeJsonFile(top().stats, path);
      return r;
    });
  }

  std::unique_ptr<wf::func::Device> owned;
  wf::func::Device &device;
  wf::func::CommandProcessor processor;
};

// After wf_device_model: the shared operations use its members.
#include "warpforge/func/plugin_ops.h"

namespace {

const char *kind(wf_device_model *) { return "cycle"; }
const char *describe(wf_device_model *) { return "in-process SystemC cycle model"; }

const wf_device_model_ops kOps = wf::func::plugin_ops::make(kind, describe);

wf_device_model *create(const wf_device_create_params *params, char *error, size_t errorSize) {
  auto fail = [&](const std::string &why) -> wf_device_model * {
    std::snprintf(error, errorSize, "%s", why.c_str());
    return nullptr;
  };
  if (!params || params->abi_version != WF_DEVICE_PLUGIN_ABI_VERSION)
    return fail("cycle: the host speaks another plugin interface version");
  const char *name = params->config ? params->config : "default";
  const wf::isa::Config *config = wf::isa::findConfig(name);
  if (!config)
    return fail(std::string("cycle: no configuration '") + name + "'");
  if (params->device_memory && params->device_memory_bytes != uint64_t(config->globalMemMib) << 20)
    return fail("cycle: the device memory passed in does not match configuration '" +
                std::string(config->name) + "'");
  Top &t = top();
  if (!t.gpu) {
    wf::cycle::Result<wf::cycle::GpuParams> gp = wf::cycle::GpuParams::fromConfig(*config);
    if (!gp)
      return fail("cycle: " + gp.error);
    // SystemC prints a banner at elaboration unless told not to; a CUDA program's output is its own.
    ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
    try {
      t.gpu = std::make_unique<wf::cycle::Gpu>("gpu", *gp.value);
    } catch (const std::exception &e) {
      return fail(std::string("cycle: building the model failed: ") + e.what());
    }
    t.config = config->name;
    t.gpu->registerStats(t.stats);
  } else if (t.config != config->name) {
    return fail("cycle: this process already runs configuration '" + t.config +
                "' (SystemC elaborates one model per process)");
  }
  try {
    return new wf_device_model(*config, params->device_memory, *t.gpu);
  } catch (const std::bad_alloc &) {
    return fail("cycle: not enough host memory for the device");
  }
}

const wf_device_plugin kPlugin = {
    WF_DEVICE_PLUGIN_ABI_VERSION, 0, "cycle",
    "the SystemC cycle model (timing from docs/microarchitecture.md, behaviour from the emulator)",
    &kOps, create,
};

} // namespace

extern "C" __attribute__((visibility("default"))) const wf_device_plugin *
wf_device_plugin_entry(void) {
  return &kPlugin;
}

//===- func_plugin.cpp - The functional emulator as a device plugin -------===//
//
// libwf-device-func.so: the emulator (func::Device) and its command processor behind the device
// plugin interface (isa/include/warpforge/isa/device_plugin.h). The host loads it at run time; no
// host program links the emulator.
//
//===----------------------------------------------------------------------===//

#include "warpforge/func/command_processor.h"
#include "warpforge/isa/device_plugin.h"

#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <optional>

struct wf_device_model {
  explicit wf_device_model(const wf::isa::Config &config) : device(config), processor(device) {}
  wf_device_model(const wf::isa::Config &config, uint8_t *memory)
      : device(config, memory), processor(device) {}

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

const wf_device_plugin kPlugin = {
    WF_DEVICE_PLUGIN_ABI_VERSION, 0, "func",
    "the functional emulator (golden model of architectural state)", &kOps, create,
};

} // namespace

extern "C" __attribute__((visibility("default"))) const wf_device_plugin *
wf_device_plugin_entry(void) {
  return &kPlugin;
}

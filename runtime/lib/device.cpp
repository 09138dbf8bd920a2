// Device selection: WARPFORGE_DEVICE picks the transport/device, WARPFORGE_CONFIG the named
// configuration.
#include "warpforge/runtime/device.h"

namespace wf::rt {

std::unique_ptr<Device> openInProcDevice(const isa::Config &config);

std::unique_ptr<Device> openDevice(const std::string &kind, const std::string &configName,
                                   std::string &error) {
  const isa::Config *config = isa::findConfig(configName);
  if (!config) {
    std::string names;
    for (const isa::Config &c : isa::kConfigs)
      names += (names.empty() ? "" : ", ") + std::string(c.name);
    error = "no configuration '" + configName + "' (WARPFORGE_CONFIG; there are: " + names + ")";
    return nullptr;
  }
  if (kind == "func" || kind.empty())
    return openInProcDevice(*config);
  if (kind == "cycle" || kind == "rtl" || kind == "board") {
    error = "device '" + kind + "' is not available yet in this build (WARPFORGE_DEVICE; only 'func' is)";
    return nullptr;
  }
  error = "unknown device '" + kind + "' (WARPFORGE_DEVICE: func, cycle, rtl or board)";
  return nullptr;
}

} // namespace wf::rt

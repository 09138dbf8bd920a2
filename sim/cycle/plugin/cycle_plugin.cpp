//===- cycle_plugin.cpp - The cycle model as a device plugin --------------===//
//
// libwf-device-cycle.so: a device of the emulator's plugin (libwf-device-func.so, loaded by name at
// run time: docs/golden-model.md) with every LAUNCH its command processor takes run by the cycle
// model (Gpu::launch), which steps the emulator through the golden-model interface. Registers,
// host DMA, device memory, COPY, FILL, FENCE and TIMESTAMP are the emulator's (functionally,
// without the platform's DMA timing: docs/cycle-model.md, "Gaps"); this plugin forwards them.
//
// SystemC elaborates once per process, so the GPU top is built at the first create and kept for
// the life of the process; later devices of the same configuration reuse it, another
// configuration is refused.
//
//===----------------------------------------------------------------------===//

#include "warpforge/cycle/gpu.h"
#include "warpforge/isa/device_plugin.h"
#include "warpforge/isa/golden.h"
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
  wf_device_model(std::unique_ptr<wf::isa::GoldenModel> model, wf::cycle::Gpu &gpu)
      : golden(std::move(model)) {
    golden->setLauncher([this, &gpu](const wf::isa::LaunchDesc &desc, uint64_t watchdog) {
      wf::isa::LaunchResult r = gpu.launch(*golden, desc, {watchdog});
      // WARPFORGE_STATS=FILE: the model's statistics (JSON), rewritten after every launch so
      // that a program which never tears its device down still leaves them.
      if (const char *path = std::getenv("WARPFORGE_STATS"); path && *path)
        wf::stats::writeJsonFile(top().stats, path);
      return r;
    });
  }

  std::unique_ptr<wf::isa::GoldenModel> golden;
  /// The emulator's device model and its operations, which this plugin's operations forward to.
  wf_device_model *func() const { return golden->model(); }
  const wf_device_model_ops &ops() const { return golden->ops(); }
};

namespace {

const char *kind(wf_device_model *) { return "cycle"; }
const char *describe(wf_device_model *) { return "in-process SystemC cycle model"; }

uint32_t readReg(wf_device_model *m, uint32_t offset) { return m->ops().read_reg(m->func(), offset); }
void writeReg(wf_device_model *m, uint32_t offset, uint32_t value) {
  m->ops().write_reg(m->func(), offset, value);
}
int lost(wf_device_model *m, char *why, size_t size) { return m->ops().lost(m->func(), why, size); }
void attachHostDma(wf_device_model *m, const wf_host_dma_port *port) {
  m->ops().attach_host_dma(m->func(), port);
}
int memRead(wf_device_model *m, uint64_t address, void *dst, uint64_t bytes) {
  return m->ops().mem_read(m->func(), address, dst, bytes);
}
int memWrite(wf_device_model *m, uint64_t address, const void *src, uint64_t bytes) {
  return m->ops().mem_write(m->func(), address, src, bytes);
}
uint8_t *memMap(wf_device_model *m, uint64_t *base, uint64_t *bytes) {
  return m->ops().mem_map ? m->ops().mem_map(m->func(), base, bytes) : nullptr;
}
int idle(wf_device_model *m) { return m->ops().idle(m->func()); }
int irqPending(wf_device_model *m) { return m->ops().irq_pending(m->func()); }
void destroy(wf_device_model *m) { delete m; }

const wf_device_model_ops kOps = {
    kind,    describe, readReg, writeReg, lost,   attachHostDma, /*host_memory=*/nullptr,
    memRead, memWrite, memMap,  /*advance=*/nullptr, // commands run when the doorbell rings
    idle,    irqPending, destroy,
};

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
  std::string why;
  std::unique_ptr<wf::isa::GoldenModel> golden =
      wf::isa::GoldenModel::open("func", std::string(config->name), why, params->device_memory);
  if (!golden)
    return fail("cycle: the golden model (the emulator's plugin) is not available: " + why);
  try {
    return new wf_device_model(std::move(golden), *t.gpu);
  } catch (const std::bad_alloc &) {
    return fail("cycle: not enough host memory for the device");
  }
}

const wf_device_plugin kPlugin = {
    WF_DEVICE_PLUGIN_ABI_VERSION, 0, "cycle",
    "the SystemC cycle model (timing from docs/microarchitecture.md, behaviour from the emulator's "
    "plugin)",
    &kOps, create,
};

} // namespace

extern "C" __attribute__((visibility("default"))) const wf_device_plugin *
wf_device_plugin_entry(void) {
  return &kPlugin;
}

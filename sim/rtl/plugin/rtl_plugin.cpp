//===- rtl_plugin.cpp - The Verilated GPU as a device plugin ---------------===//
//
// libwf-device-rtl.so: rtl/soc/wf_gpu.sv, Verilated once per configuration, behind the device
// plugin interface (isa/include/warpforge/isa/device_plugin.h). A clocked model: it moves only in
// advance() and while a register access takes (docs/rtl-sim.md).
//
//===----------------------------------------------------------------------===//

#include "warpforge/isa/device_plugin.h"
#include "warpforge/rtl/lockstep.h"
#include "warpforge/rtl/rtl_device.h"

#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <string>

struct wf_device_model {
  std::mutex mutex; // the runtime may poll from several threads; the model is one clock
  std::unique_ptr<wf::rtl::RtlDevice> device;
  std::unique_ptr<wf::rtl::RtlLockstep> lockstep;
  std::string description;
};

namespace {

using Lock = std::lock_guard<std::mutex>;

const char *kind(wf_device_model *) { return "rtl"; }
const char *describe(wf_device_model *m) { return m->description.c_str(); }

uint32_t readReg(wf_device_model *m, uint32_t offset) {
  Lock lock(m->mutex);
  return m->device->readReg(offset);
}
void writeReg(wf_device_model *m, uint32_t offset, uint32_t value) {
  Lock lock(m->mutex);
  if (m->lockstep)
    m->lockstep->writeReg(offset, value);
  m->device->writeReg(offset, value);
}
int lost(wf_device_model *m, char *why, size_t whySize) {
  Lock lock(m->mutex);
  std::string reason;
  if (!m->device->lost(&reason))
    return 0;
  if (why && whySize)
    std::snprintf(why, whySize, "%s", reason.c_str());
  return 1;
}
void attachHostDma(wf_device_model *m, const wf_host_dma_port *port) {
  Lock lock(m->mutex);
  m->device->attachHostDma(*port);
  if (m->lockstep)
    m->lockstep->attachHostDma(*port);
}
int memRead(wf_device_model *m, uint64_t address, void *dst, uint64_t bytes) {
  Lock lock(m->mutex);
  return m->device->memRead(address, dst, bytes) ? 0 : 1;
}
int memWrite(wf_device_model *m, uint64_t address, const void *src, uint64_t bytes) {
  Lock lock(m->mutex);
  return m->device->memWrite(address, src, bytes) ? 0 : 1;
}
uint64_t advance(wf_device_model *m, uint64_t cycles) {
  Lock lock(m->mutex);
  uint64_t ran = m->device->advance(cycles);
  if (m->lockstep)
    m->lockstep->poll();
  return ran;
}
int idle(wf_device_model *m) {
  Lock lock(m->mutex);
  return m->device->idle() ? 1 : 0;
}
int irqPending(wf_device_model *m) {
  Lock lock(m->mutex);
  return m->device->irqPending() ? 1 : 0;
}
void destroy(wf_device_model *m) {
  if (m->lockstep && m->lockstep->finish())
    std::fprintf(stderr, "rtl lockstep: %llu records of %llu launches agree with the emulator\n",
                 static_cast<unsigned long long>(m->lockstep->compared()),
                 static_cast<unsigned long long>(m->lockstep->launches()));
  delete m;
}

const wf_device_model_ops kOps = {
    kind,
    describe,
    readReg,
    writeReg,
    lost,
    attachHostDma,
    /*host_memory=*/nullptr,
    memRead,
    memWrite,
    /*mem_map=*/nullptr, // device memory sits behind the L2: only the ports reach it coherently
    advance,
    idle,
    irqPending,
    destroy,
};

wf_device_model *create(const wf_device_create_params *params, char *error, size_t errorSize) {
  auto fail = [&](const std::string &why) -> wf_device_model * {
    std::snprintf(error, errorSize, "%s", why.c_str());
    return nullptr;
  };
  if (!params || params->abi_version != WF_DEVICE_PLUGIN_ABI_VERSION)
    return fail("rtl: the host speaks another plugin interface version");
  const char *name = params->config ? params->config : "default";
  const wf::isa::Config *config = wf::isa::findConfig(name);
  if (!config)
    return fail(std::string("rtl: no configuration '") + name + "'");
  if (params->device_memory)
    return fail("rtl: the RTL device keeps its own device memory (its DRAM model); it cannot use "
                "memory passed in");
  wf::rtl::RtlOptions options;
  if (std::string why = options.parse(params->options ? params->options : ""); !why.empty())
    return fail("rtl: " + why);
  try {
    auto model = std::make_unique<wf_device_model>();
    std::string why;
    model->device = wf::rtl::RtlDevice::create(*config, options, why);
    if (!model->device)
      return fail(why);
    if (options.lockstep) {
      wf::rtl::RtlDevice *device = model->device.get();
      wf::rtl::RtlLockstep::Hooks hooks;
      hooks.completedSeq = [device] {
        uint64_t lo = device->readReg(uint32_t(wf::isa::dev::Reg::CompletedSeqLo));
        uint64_t hi = device->readReg(uint32_t(wf::isa::dev::Reg::CompletedSeqHi));
        return hi << 32 | lo;
      };
      hooks.stop = [device](const std::string &why) { device->stop(why); };
      hooks.flush = [device] { device->flushCommits(); };
      model->lockstep = std::make_unique<wf::rtl::RtlLockstep>(*config, std::move(hooks));
      wf::rtl::RtlLockstep *lockstep = model->lockstep.get();
      device->setCommitSink([lockstep](unsigned core, std::span<const uint8_t> record) {
        lockstep->onRecord(core, record);
      });
    }
    model->description = "Verilated RTL (rtl/soc/wf_gpu.sv), configuration " +
                         std::string(config->name) + (options.lockstep ? ", in lockstep" : "");
    return model.release();
  } catch (const std::bad_alloc &) {
    return fail("rtl: not enough host memory for the device");
  }
}

const wf_device_plugin kPlugin = {
    WF_DEVICE_PLUGIN_ABI_VERSION, 0, "rtl",
    "the Verilated RTL GPU (rtl/soc/wf_gpu.sv) with a fixed-latency DRAM model", &kOps, create,
};

} // namespace

extern "C" __attribute__((visibility("default"))) const wf_device_plugin *
wf_device_plugin_entry(void) {
  return &kPlugin;
}

//===- plugin_ops.h - Device-plugin ops over the command processor -----===//
//
// The device-plugin operations of a model whose registers, host DMA and device memory are the
// emulator's CommandProcessor and Device: the func plugin (the cycle plugin forwards to a device of
// it and replaces only how a LAUNCH runs: docs/golden-model.md). Include after defining
// `struct wf_device_model` with the members `device` (a wf::func::Device, or a reference to one)
// and `processor` (its CommandProcessor).
//
//===----------------------------------------------------------------------===//

#ifndef WARPFORGE_FUNC_PLUGIN_OPS_H
#define WARPFORGE_FUNC_PLUGIN_OPS_H

#include "warpforge/func/command_processor.h"
#include "warpforge/isa/device_plugin.h"

namespace wf::func::plugin_ops {

inline uint32_t readReg(wf_device_model *m, uint32_t offset) {
  return m->processor.readReg(offset);
}
inline void writeReg(wf_device_model *m, uint32_t offset, uint32_t value) {
  m->processor.writeReg(offset, value);
}
inline int lost(wf_device_model *, char *, size_t) { return 0; }
inline void attachHostDma(wf_device_model *m, const wf_host_dma_port *port) {
  m->processor.attachHostDma(*port);
}
inline int memRead(wf_device_model *m, uint64_t address, void *dst, uint64_t bytes) {
  return m->device.memory().read(address, dst, bytes) ? 0 : 1;
}
inline int memWrite(wf_device_model *m, uint64_t address, const void *src, uint64_t bytes) {
  return m->device.memory().write(address, src, bytes) ? 0 : 1;
}
inline uint8_t *memMap(wf_device_model *m, uint64_t *base, uint64_t *bytes) {
  Memory &mem = m->device.memory();
  *base = mem.base();
  *bytes = mem.size();
  return mem.host(mem.base());
}
inline int idle(wf_device_model *m) { return m->processor.idle() ? 1 : 0; }
inline int irqPending(wf_device_model *m) { return m->processor.irqPending() ? 1 : 0; }
inline void destroy(wf_device_model *m) { delete m; }

/// The operations table; only the plugin's name and description differ between plugins.
constexpr wf_device_model_ops make(const char *(*kind)(wf_device_model *),
                                   const char *(*describe)(wf_device_model *)) {
  return {
      kind,
      describe,
      readReg,
      writeReg,
      lost,
      attachHostDma,
      /*host_memory=*/nullptr,
      memRead,
      memWrite,
      memMap,
      /*advance=*/nullptr, // commands run when the doorbell rings
      idle,
      irqPending,
      destroy,
  };
}

} // namespace wf::func::plugin_ops

#endif // WARPFORGE_FUNC_PLUGIN_OPS_H

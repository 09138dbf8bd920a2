/* The device-model plugin interface: how a host process drives a Warpforge device model that lives
 * in a shared library (docs/device-protocol.md, "Device plugins").
 *
 * A model speaks the device protocol (device.gen.h) through four ports:
 *   - control registers: read_reg / write_reg (BAR0 on a board);
 *   - a device-memory port: mem_read / mem_write, the backdoor a loader or a debugger uses, and
 *     mem_map when device memory is ordinary memory of this process;
 *   - a host-DMA port (wf_host_dma_port), which the host hands the model and through which the model
 *     reaches host memory: the command ring, completion records, launch descriptors and staging
 *     buffers. A model never assumes a host pointer: it reads and writes host memory by offset;
 *   - advance / idle / irq_pending, for clocked models that only move when the host clocks them.
 *
 * This header is plain C with fixed-width types so that a plugin built by any compiler, and both the
 * runtime and the device models, can include it: it depends on nothing of Warpforge's.
 *
 * Each plugin is a shared library named libwf-device-NAME.so that exports one C symbol,
 * WF_DEVICE_PLUGIN_ENTRY, returning a descriptor whose abi_version must equal
 * WF_DEVICE_PLUGIN_ABI_VERSION. */
#ifndef WARPFORGE_ISA_DEVICE_PLUGIN_H
#define WARPFORGE_ISA_DEVICE_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever any structure or function type below changes. */
#define WF_DEVICE_PLUGIN_ABI_VERSION 1u
/* The symbol every plugin exports (type wf_device_plugin_entry_fn). */
#define WF_DEVICE_PLUGIN_ENTRY "wf_device_plugin_entry"
/* File names: WF_DEVICE_PLUGIN_PREFIX NAME WF_DEVICE_PLUGIN_SUFFIX. */
#define WF_DEVICE_PLUGIN_PREFIX "libwf-device-"
#define WF_DEVICE_PLUGIN_SUFFIX ".so"

/* Host memory as the device sees it: `size` bytes at offsets [0, size). The callbacks return 0 on
 * success and nonzero when the range is outside; they may be called from any of the model's
 * threads. */
typedef struct wf_host_dma_port {
  void *context;
  uint64_t size;
  int (*read)(void *context, uint64_t offset, void *dst, uint64_t bytes);
  int (*write)(void *context, uint64_t offset, const void *src, uint64_t bytes);
} wf_host_dma_port;

typedef struct wf_device_create_params {
  uint32_t abi_version;  /* WF_DEVICE_PLUGIN_ABI_VERSION */
  uint32_t reserved0;
  const char *config;    /* a named configuration of isa/config.toml */
  /* Memory the caller owns for device (global) memory, or NULL for the model's own. A board server
   * passes a shared-memory segment here. A model that cannot use it fails creation. */
  uint8_t *device_memory;
  uint64_t device_memory_bytes;
  /* Plugin-specific, or NULL (the board plugin: the server's socket path). */
  const char *options;
} wf_device_create_params;

typedef struct wf_device_model wf_device_model; /* opaque, one per created device */

typedef struct wf_device_model_ops {
  /* The kind of model that runs the commands ("func", "cycle", "rtl"); a board reports the model
   * or hardware behind it. */
  const char *(*kind)(wf_device_model *model);
  /* One line: how the model is reached ("in-process emulator", "board server at PATH"). */
  const char *(*describe)(wf_device_model *model);

  /* Control registers (isa/device.toml). A model that has lost its device returns all ones and
   * reports it through lost(). */
  uint32_t (*read_reg)(wf_device_model *model, uint32_t offset);
  void (*write_reg)(wf_device_model *model, uint32_t offset, uint32_t value);
  /* Nonzero when the device has gone away; `why` gets a message (NUL-terminated, truncated). */
  int (*lost)(wf_device_model *model, char *why, size_t why_size);

  /* The host-DMA port: where the model reaches host memory. The host calls it once, before the
   * first command; the port stays valid until destroy. NULL in a model that provides its own host
   * memory (host_memory below). */
  void (*attach_host_dma)(wf_device_model *model, const wf_host_dma_port *port);
  /* Host memory the model itself provides for DMA (the shared buffer of a board server, the pinned
   * buffers of a PCIe driver); NULL when the host provides it through attach_host_dma. */
  uint8_t *(*host_memory)(wf_device_model *model, uint64_t *bytes);

  /* The device-memory port (device addresses). 0 on success. */
  int (*mem_read)(wf_device_model *model, uint64_t address, void *dst, uint64_t bytes);
  int (*mem_write)(wf_device_model *model, uint64_t address, const void *src, uint64_t bytes);
  /* Device memory as memory of this process, or NULL when it is reachable only through the
   * ports (a board behind PCIe, a model with its own memory system). `*base` gets the device
   * address of the first byte, `*bytes` the size. */
  uint8_t *(*mem_map)(wf_device_model *model, uint64_t *base, uint64_t *bytes);

  /* Clocked models: run up to `cycles` device cycles and return the cycles run. NULL for models
   * that run on their own threads (the emulator). */
  uint64_t (*advance)(wf_device_model *model, uint64_t cycles);
  /* Nonzero when every queue is empty and nothing runs. */
  int (*idle)(wf_device_model *model);
  /* Nonzero while an enabled interrupt (IRQ_STATUS & IRQ_ENABLE) is pending. */
  int (*irq_pending)(wf_device_model *model);

  void (*destroy)(wf_device_model *model);
} wf_device_model_ops;

typedef struct wf_device_plugin {
  uint32_t abi_version; /* WF_DEVICE_PLUGIN_ABI_VERSION */
  uint32_t reserved0;
  const char *name;        /* "func": what WARPFORGE_DEVICE names */
  const char *description; /* one line, for the list of installed plugins */
  const wf_device_model_ops *ops;
  /* Creates a device. NULL on failure, with a message in `error` (NUL-terminated, truncated). */
  wf_device_model *(*create)(const wf_device_create_params *params, char *error,
                             size_t error_size);
} wf_device_plugin;

typedef const wf_device_plugin *(*wf_device_plugin_entry_fn)(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* WARPFORGE_ISA_DEVICE_PLUGIN_H */

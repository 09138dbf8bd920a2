/* The golden-model interface: how a timing model or a lockstep harness drives the emulator, the
 * golden model of architectural state, warp instruction by warp instruction, without linking it
 * (docs/golden-model.md). It extends a device plugin (device_plugin.h): the emulator's plugin,
 * libwf-device-func.so, exports a second C symbol, WF_GOLDEN_MODEL_ENTRY, whose functions work on
 * the device models that plugin's create() made. A caller
 *   - creates a func device model through the device plugin and uses its device-memory port
 *     (mem_read, mem_write, mem_map) as the device memory of its own model;
 *   - begins a launch on it, steps warps one instruction at a time in the order its own scheduler
 *     (or the reference it checks) decides, receives each commit record (docs/commit-trace.md;
 *     layout isa/device.toml) in a sink, and finishes the launch with its own cycle count;
 *   - or lets the model's command processor hand every LAUNCH to a launcher of its own
 *     (set_launcher), which then runs it through the calls above.
 *
 * Plain C with fixed-width types, like device_plugin.h. Results and faults are binary records of
 * isa/device.toml: a completion record (WF_GOLDEN_COMPLETION_BYTES, dev::Completion) carries the
 * fault fields and the counts. */
#ifndef WARPFORGE_ISA_GOLDEN_MODEL_H
#define WARPFORGE_ISA_GOLDEN_MODEL_H

#include "warpforge/isa/device_plugin.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever any structure or function type below changes. */
#define WF_GOLDEN_MODEL_ABI_VERSION 1u
/* The symbol the emulator's plugin exports (type wf_golden_model_entry_fn). */
#define WF_GOLDEN_MODEL_ENTRY "wf_golden_model_entry"
/* Bytes of a completion record (isa/device.toml `Completion`). */
#define WF_GOLDEN_COMPLETION_BYTES 128u

/* What a step did (isa::StepStatus). */
#define WF_GOLDEN_STEP_RAN 0u      /* the warp committed every instruction asked for */
#define WF_GOLDEN_STEP_WAITING 1u  /* its lanes wait at a barrier */
#define WF_GOLDEN_STEP_FINISHED 2u /* every lane has exited */
#define WF_GOLDEN_STEP_FAULT 3u    /* the launch faulted */
#define WF_GOLDEN_STEP_INVALID 4u  /* no such warp, or the launch itself is invalid */

/* Which of a reference record's values a step takes instead of computing them. */
#define WF_GOLDEN_INJECT_SREGS 1u   /* CLOCK, CLOCK64, GLOBALTIMER, SMID, WARPID */
#define WF_GOLDEN_INJECT_LOADS 2u   /* the bytes every load read */
#define WF_GOLDEN_INJECT_ATOMICS 4u /* atomics' old values */

typedef struct wf_golden_launch wf_golden_launch; /* opaque: one launch being stepped */

/* One grid (the fields of isa::LaunchDesc). */
typedef struct wf_golden_launch_desc {
  const char *kernel_name; /* NUL-terminated, may be empty */
  uint64_t code_base;      /* device address of the code segment (pc 0) */
  uint32_t code_size;
  uint32_t entry_pc;
  uint32_t grid[3];
  uint32_t block[3];
  uint32_t regs_per_thread;
  uint32_t shared_static;
  uint32_t shared_dynamic;
  uint32_t local_bytes;
  uint64_t const_base;
  uint32_t const_size;
  uint32_t param_bytes;
  const uint8_t *params; /* param_bytes of the parameter buffer */
  uint64_t rtbuf;
  uint64_t grid_id;
} wf_golden_launch_desc;

typedef struct wf_golden_warp {
  uint32_t block[3];
  uint32_t warp; /* index in the block */
} wf_golden_warp;

typedef struct wf_golden_warp_status {
  uint8_t started;  /* its block is resident */
  uint8_t finished; /* every lane has exited */
  uint8_t idle;     /* no group: its lanes wait until another warp releases them */
  uint8_t reserved0;
  uint32_t group; /* lanes of its current group */
  uint32_t pc;    /* the group's pc */
} wf_golden_warp_status;

/* Receives each commit record; the bytes are valid during the call. */
typedef void (*wf_golden_commit_sink)(void *context, const uint8_t *record, uint32_t bytes);

/* Runs a LAUNCH in the model's place: fills `completion` (WF_GOLDEN_COMPLETION_BYTES: fault
 * fields, cycles, warp_insts, thread_insts) and `*blocks` (blocks run to completion). */
typedef void (*wf_golden_launcher)(void *context, wf_device_model *model,
                                   const wf_golden_launch_desc *desc,
                                   uint64_t watchdog_warp_insts, void *completion,
                                   uint64_t *blocks);

typedef struct wf_golden_model_api {
  uint32_t abi_version; /* WF_GOLDEN_MODEL_ABI_VERSION */
  uint32_t reserved0;

  /* Begins a launch on `model`. An impossible launch still begins: it reports its fault (fault
   * kind INVALID_LAUNCH) and steps nothing. NULL only when the host has no memory for it. */
  wf_golden_launch *(*begin)(wf_device_model *model, const wf_golden_launch_desc *desc,
                             wf_golden_commit_sink sink, void *sink_context);
  /* Warps in the grid, in block-linear then warp order: their number, and the one at `index`. */
  uint64_t (*warp_count)(wf_golden_launch *launch);
  int (*warp_at)(wf_golden_launch *launch, uint64_t index, wf_golden_warp *warp);
  /* The warp's group and pc; makes its block resident. 0 on success. */
  int (*status)(wf_golden_launch *launch, const wf_golden_warp *warp,
                wf_golden_warp_status *status);
  /* Runs up to `count` instructions of `warp`; returns a WF_GOLDEN_STEP_ value and sets
   * `*executed`. `reference` (reference_bytes long, or NULL) is the reference's record of the next
   * instruction; `inject` (WF_GOLDEN_INJECT_ bits) names what is taken from it. */
  uint32_t (*step)(wf_golden_launch *launch, const wf_golden_warp *warp, uint32_t count,
                   const uint8_t *reference, uint32_t reference_bytes, uint32_t inject,
                   uint32_t *executed);
  /* Nonzero when every lane of `warp` has exited. */
  int (*finished)(wf_golden_launch *launch, const wf_golden_warp *warp);
  /* Nonzero once the launch has faulted; `completion` gets the fault fields. */
  int (*fault)(wf_golden_launch *launch, void *completion);
  /* The counts and fault so far in `completion`, blocks run in `*blocks`. The first call adds the
   * cycles to the device's counter: the emulator's own, or `timed_cycles` when `timed` is nonzero
   * (a timing model drove the steps), which is then the completion's cycles too. */
  void (*finish)(wf_golden_launch *launch, int timed, uint64_t timed_cycles, void *completion,
                 uint64_t *blocks);
  /* Ends the launch (after finish, or abandoning it). */
  void (*release)(wf_golden_launch *launch);

  /* Hands every LAUNCH the model's command processor runs to `launcher` (NULL: the emulator runs
   * it). The launcher is called on the thread that rang the doorbell. */
  void (*set_launcher)(wf_device_model *model, wf_golden_launcher launcher, void *context);
} wf_golden_model_api;

typedef const wf_golden_model_api *(*wf_golden_model_entry_fn)(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* WARPFORGE_ISA_GOLDEN_MODEL_H */

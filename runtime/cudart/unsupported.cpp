// The entry points of unsupported.def: exported so that programs load and link, answering CUDA's
// documented "not supported" code (801 in both APIs) with the group's reason on stderr, once per
// entry point. Runtime-API entries set the calling thread's last error, as every runtime call
// does; driver entries leave it alone.
//
// The entries are defined without their parameters: they have C linkage (the name is the symbol),
// read no argument and return an int-sized enum in the return register, which is what the caller
// of a CUresult or cudaError_t function expects whatever arguments it passed (every entry of the
// list returns one of the two; runtime.exported_symbols_match_headers reads the headers).
#include "warpforge/runtime/runtime.h"

#include <cstdio>
#include <cstring>
#include <mutex>
#include <set>
#include <string>

namespace {

using wf::rt::Error;
using wf::rt::Runtime;

// Each group's reason; docs/cuda-features.md ("Entry points not supported") has the same rows.
constexpr const char *kInterop =
    "graphics interop: Warpforge has no graphics API (OpenGL, EGL, VDPAU, Direct3D) to share with";
constexpr const char *kExternalResources =
    "external memory and semaphores: no other API or device exports memory or semaphores to import";
constexpr const char *kIpc =
    "interprocess sharing: a device serves one program at a time (the board server serves programs "
    "in turn, each on a scrubbed device), so no second process can open a handle";
constexpr const char *kVmm =
    "virtual memory management: device addresses are physical (no device page tables), so virtual "
    "ranges cannot be reserved and mapped (CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED "
    "is 0)";
constexpr const char *kMulticast = "multicast objects: one device, no NVLink switch";
constexpr const char *kGreenContexts =
    "green contexts and device resources: the device is not partitioned between contexts";
constexpr const char *kSparseMipmapped =
    "mipmapped and sparse CUDA arrays: the texture unit has no mip levels and memory has no tiles";
constexpr const char *kNvSci = "NvSci interop: no NvSci library";
constexpr const char *kProcessTools =
    "checkpoint, coredump and driver logs of NVIDIA's driver: no such driver facility here";
constexpr const char *kTensorMaps = "tensor maps: the device has no tensor memory accelerator";
constexpr const char *kClusters = "thread block clusters: the device runs blocks one per core "
                                  "without distributed shared memory (cluster size 1 only)";
constexpr const char *kDecompression = "memory decompression: the device has no decompression engine";
constexpr const char *kTextureReferences =
    "texture and surface references (deprecated; texture and surface objects are supported)";
constexpr const char *kAsyncNotifications =
    "asynchronous device notifications: the device sends none (no memory budget events)";
constexpr const char *kGpuDirectRdma = "GPUDirect RDMA: no third-party device writes to device memory";
constexpr const char *kExportTables = "NVIDIA's private export tables";
constexpr const char *kMultiDeviceLaunch =
    "multi-device cooperative launches (deprecated; one device here)";
constexpr const char *kNotYet = "not implemented yet";

int unsupported(const char *name, const char *reason) {
  {
    static std::mutex told_mutex;
    static std::set<std::string> told;
    std::lock_guard lock(told_mutex);
    if (told.insert(name).second)
      std::fprintf(stderr, "warpforge: %s is not supported: %s (returns %s)\n", name, reason,
                   std::strncmp(name, "cuda", 4) == 0 ? "cudaErrorNotSupported"
                                                      : "CUDA_ERROR_NOT_SUPPORTED");
  }
  constexpr Error kNotSupported = Error::cudaErrorNotSupported;
  if (std::strncmp(name, "cuda", 4) == 0) {
    Runtime &rt = Runtime::get();
    rt.record(kNotSupported);
    if (rt.tracing())
      rt.trace(name, {}, kNotSupported);
  }
  return int(kNotSupported); // CUDA_ERROR_NOT_SUPPORTED has the same number
}

} // namespace

#define WF_ENTRY(name, group)                                                                      \
  extern "C" int name() { return unsupported(#name, k##group); }
#include "unsupported.def"
#undef WF_ENTRY

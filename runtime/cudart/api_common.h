// Pieces every file of the CUDA API layer shares: the runtime, the recording of each call's result
// (last error, tracing) and the argument-check macros. Every entry point holds the runtime's one
// context lock (docs/runtime.md, "Locks"): API(name) in api.cpp, TEX_API(name) in texture_api.cpp,
// each defining `apiName` for RETURN.
#pragma once

#include "cuda_types.h"
#include "warpforge/runtime/runtime.h"

#include <string>

namespace wf::cudart {

inline wf::rt::Runtime &rt() { return wf::rt::Runtime::get(); }

/// Records `e` as the calling thread's last error, traces the call, and returns it as CUDA's type.
inline cudaError_t done(const char *name, wf::rt::Error e, const std::string &args = {}) {
  rt().record(e);
  if (rt().tracing())
    rt().trace(name, args, e);
  return cudaError_t(int(e));
}

inline uint64_t addr(const void *p) { return reinterpret_cast<uint64_t>(p); }

/// A device attribute (cudaDeviceAttr and CUdevice_attribute share their numbers); the device is
/// open. Touches no error state: the runtime and the driver API both call it.
wf::rt::Error deviceAttribute(int *value, int attribute);
/// cudaGetDeviceProperties' answer for the open device (both API layers ask here).
void deviceProperties(cudaDeviceProp &props);

/// Stream attributes (both API layers; the ids are cudaLaunchAttributeID's): the access policy
/// window (1), synchronization policy (3), priority (8), memory synchronization domain map (9) and
/// domain (10). Values are kept and reported; only the priority orders anything (see
/// docs/runtime.md, "Streams"). `value` is a 64-byte cudaLaunchAttributeValue.
wf::rt::Error streamAttribute(CUstream_st *stream, int id, void *value);
wf::rt::Error setStreamAttribute(CUstream_st *stream, int id, const void *value);
wf::rt::Error copyStreamAttributes(CUstream_st *dst, const CUstream_st *src);
/// The device a PCI bus id names ("[domain:]bus:device[.function]"): 0, or an error.
wf::rt::Error deviceByPciBusId(const char *pciBusId, int &device);

} // namespace wf::cudart

#define RETURN(e) return ::wf::cudart::done(apiName, (e))
/// Opens the device on first use; every call fails with the sticky error after a device fault.
#define REQUIRE_DEVICE()                                                                           \
  do {                                                                                             \
    if (::wf::rt::Error e_ = ::wf::cudart::rt().ensureDevice();                                    \
        e_ != ::wf::rt::Error::cudaSuccess)                                                        \
      RETURN(e_);                                                                                  \
    if (::wf::cudart::rt().sticky() != ::wf::rt::Error::cudaSuccess)                               \
      RETURN(::wf::cudart::rt().sticky());                                                         \
  } while (0)

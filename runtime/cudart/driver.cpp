// The CUDA driver API subset (docs/runtime.md): devices, contexts, modules loaded from PTX, a
// fatbinary or a .wfx image, functions, globals, launches, memory, streams and events.
//
// It lives in the same library as the runtime API, and build/lib/libcuda.so.1 names that same file,
// so a program that uses both APIs (most do) shares one device, one set of modules and one error
// state, as it does with NVIDIA's libcudart over libcuda. Driver calls never set the runtime's
// last error. CUresult values are NVIDIA's; most equal the cudaError_t of the same meaning.
#include "api_common.h"
#include "cuda_types.h"
#include "warpforge/module/wfx.h"
#include "warpforge/runtime/fatbin.h"
#include "warpforge/runtime/graphs.h"
#include "warpforge/runtime/occupancy.h"
#include "warpforge/runtime/runtime.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <set>
#include <string>
#include <sys/uio.h>
#include <unistd.h>
#include <vector>

using wf::rt::Dim3;
using wf::rt::Error;
using wf::rt::Runtime;

// Handles: one context (the device's primary context), modules and functions we own.
struct CUctx_st {
  int device = 0;
  int refs = 0;
};
struct CUmod_st {
  std::string image;        ///< a private copy of what was loaded
  uint32_t wrapper[4] = {}; ///< a clang-style wrapper pointing at `image`
  wf::rt::ModuleRecord *record = nullptr;
  std::map<std::string, std::unique_ptr<struct CUfunc_st>> functions;
  bool unloaded = false;
};
struct CUfunc_st {
  CUmod_st *module = nullptr;
  std::string name;
};

typedef int CUresult;
typedef int CUdevice;
typedef CUctx_st *CUcontext;
typedef CUmod_st *CUmodule;
typedef CUfunc_st *CUfunction;
typedef unsigned long long CUdeviceptr;
typedef cudaStream_t CUstream;
typedef cudaEvent_t CUevent;

namespace {

// CUresult values (NVIDIA's cuda.h).
constexpr CUresult kSuccess = 0;
constexpr CUresult kInvalidValue = 1;
constexpr CUresult kNotInitialized = 3;
constexpr CUresult kInvalidDevice = 101;
constexpr CUresult kInvalidImage = 200;
constexpr CUresult kInvalidContext = 201;
constexpr CUresult kFileNotFound = 301;
constexpr CUresult kInvalidHandle = 400;
constexpr CUresult kNotFound = 500;

bool gInitialized = false;
CUctx_st gPrimary;
unsigned gPrimaryFlags = 0; ///< the primary context's CU_CTX_* flags
thread_local std::vector<CUcontext> tContextStack;
std::map<CUmodule, std::unique_ptr<CUmod_st>> gModules;

Runtime &rt() { return Runtime::get(); }

/// The runtime's error as a CUresult: the same number where CUDA defines the same meaning.
CUresult toResult(Error e) {
  switch (e) {
  case Error::cudaErrorInvalidConfiguration:
  case Error::cudaErrorInvalidDevicePointer:
  case Error::cudaErrorInvalidMemcpyDirection:
  case Error::cudaErrorInvalidPitchValue:
    return kInvalidValue;
  case Error::cudaErrorInvalidDeviceFunction:
    return kInvalidHandle;
  case Error::cudaErrorInvalidSymbol:
    return kNotFound;
  default:
    return CUresult(int(e));
  }
}

/// The common layer's answer as a CUresult (the driver API keeps no last error).
CUresult result(Error e) { return toResult(e); }

/// The runtime's stream behind a CUstream (0 and CU_STREAM_LEGACY the legacy default stream,
/// CU_STREAM_PER_THREAD the thread's own); nullptr for a bad handle.
/// Set while a *_ptsz/*_ptds entry point runs (cuda.h's CUDA_API_PER_THREAD_DEFAULT_STREAM): there
/// the null stream is the calling thread's default stream.
thread_local bool tPerThreadDefault = false;
struct PerThreadDefault {
  bool saved = tPerThreadDefault;
  PerThreadDefault() { tPerThreadDefault = true; }
  ~PerThreadDefault() { tPerThreadDefault = saved; }
};
CUstream_st *streamOf(CUstream s) { return rt().stream(s, tPerThreadDefault); }

CUresult ready() {
  if (!gInitialized)
    return kNotInitialized;
  if (Error e = rt().ensureDevice(); e != Error::cudaSuccess)
    return toResult(e);
  return toResult(rt().sticky());
}

#define DRIVER_CALL()                                                                              \
  std::lock_guard<wf::rt::ContextLock> driverLock(rt().contextLock());                             \
  if (CUresult r_ = ready(); r_ != kSuccess)                                                       \
  return r_

/// Set when this thread destroyed its current context and has made none current since: it then
/// has no current context, and calls that need one return CUDA_ERROR_INVALID_CONTEXT, as CUDA's
/// do. A thread that never touched contexts uses the primary one (as after a runtime API call).
thread_local bool tContextGone = false;

/// DRIVER_CALL for calls that work in the current context (memory, copies, fills).
#define CONTEXT_CALL()                                                                             \
  DRIVER_CALL();                                                                                   \
  if (tContextStack.empty() && tContextGone)                                                       \
  return kInvalidContext

CUresult validDevice(CUdevice dev) { return dev == 0 ? kSuccess : kInvalidDevice; }

CUmod_st *liveModule(CUmodule m) {
  auto it = gModules.find(m);
  return it == gModules.end() || it->second->unloaded ? nullptr : it->second.get();
}

/// Appends up to `bytes` of this process's memory at `p` to `out`, stopping at the first byte that
/// cannot be read: process_vm_readv reports an unmapped page as an error where a plain read would
/// fault. Returns the bytes appended.
size_t copyReadable(const uint8_t *p, size_t bytes, std::string &out) {
  size_t done = 0;
  while (done < bytes) {
    size_t chunk = std::min<size_t>(bytes - done, size_t(1) << 20);
    size_t old = out.size();
    out.resize(old + chunk);
    iovec local{out.data() + old, chunk};
    iovec remote{const_cast<uint8_t *>(p + done), chunk};
    ssize_t n = process_vm_readv(::getpid(), &local, 1, &remote, 1, 0);
    size_t got = n > 0 ? size_t(n) : 0;
    out.resize(old + got);
    done += got;
    if (got < chunk)
      break;
  }
  return done;
}

/// The bytes of the module at `image`, which comes with no size: a fatbinary or a .wfx as long as
/// its header claims (at most fatbin::kMaxFatbinBytes), PTX text up to its NUL. No size in the
/// image is trusted: the bytes are copied only as far as memory can be read, and an image that
/// claims more than that, or text with no end, is refused (false).
bool copyImage(const void *image, std::string &bytes) {
  const auto *p = static_cast<const uint8_t *>(image);
  std::string head;
  copyReadable(p, 24, head);
  uint32_t magic = 0;
  if (head.size() >= 4)
    std::memcpy(&magic, head.data(), 4);
  uint64_t claimed = 0;
  if (magic == wf::rt::fatbin::kFatbinMagic) {
    if (head.size() < sizeof(wf::rt::fatbin::Header))
      return false;
    uint16_t header;
    uint64_t body;
    std::memcpy(&header, head.data() + 6, 2); // magic, version, header size, then the body size
    std::memcpy(&body, head.data() + 8, 8);
    if (body > wf::rt::fatbin::kMaxFatbinBytes)
      return false;
    claimed = header + body;
  } else if (head.size() >= 20 && std::memcmp(head.data(), "WFXM", 4) == 0) {
    uint32_t total;
    std::memcpy(&total, head.data() + 16, 4);
    claimed = total;
  } else {
    // PTX text: read until the NUL, a page-sized step at a time.
    const size_t step = 4096;
    while (bytes.size() < wf::rt::fatbin::kMaxFatbinBytes) {
      size_t from = bytes.size();
      size_t got = copyReadable(p + from, step, bytes);
      if (const void *nul = std::memchr(bytes.data() + from, 0, got)) {
        bytes.resize(size_t(static_cast<const char *>(nul) - bytes.data()) + 1);
        return true;
      }
      if (got < step)
        return false;
    }
    return false;
  }
  return copyReadable(p, claimed, bytes) == claimed;
}

/// True when the container in `bytes` (a fatbinary or a .wfx) reads cleanly; PTX text is checked
/// by the compiler.
bool containerReads(const std::string &bytes) {
  const auto *p = reinterpret_cast<const uint8_t *>(bytes.data());
  uint32_t magic = 0;
  std::memcpy(&magic, p, std::min<size_t>(4, bytes.size()));
  std::string error;
  if (magic == wf::rt::fatbin::kFatbinMagic) {
    wf::rt::fatbin::Parsed parsed;
    if (wf::rt::fatbin::parse(p, bytes.size(), parsed, error))
      return true;
  } else if (bytes.size() >= 4 && std::memcmp(p, "WFXM", 4) == 0) {
    auto module = wf::wfx::read({p, bytes.size()});
    if (module)
      return true;
    error = module.error().str();
  } else {
    return true;
  }
  std::fprintf(stderr, "warpforge: cuModuleLoadData: a damaged image: %s\n", error.c_str());
  return false;
}

CUresult loadImage(CUmodule *module, std::string image) {
  auto m = std::make_unique<CUmod_st>();
  m->image = std::move(image);
  m->image.push_back('\0'); // PTX text must end in NUL; harmless padding for binaries
  m->wrapper[0] = wf::rt::fatbin::kWrapperMagic;
  m->wrapper[1] = 1;
  const char *data = m->image.data();
  std::memcpy(&m->wrapper[2], &data, sizeof data);
  m->record = rt().registerFatbin(m->wrapper);
  // Compile now: cuModuleLoadData reports a bad image at once, not at the first launch.
  if (Error e = rt().ensureLoaded(*m->record); e != Error::cudaSuccess) {
    if (!m->record->noPtxWhy.empty())
      std::fprintf(stderr, "warpforge: cuModuleLoadData: %s\n", m->record->noPtxWhy.c_str());
    return e == Error::cudaErrorInvalidPtx || e == Error::cudaErrorNoKernelImageForDevice
               ? toResult(e)
               : kInvalidImage;
  }
  CUmod_st *raw = m.get();
  gModules[raw] = std::move(m);
  *module = raw;
  return kSuccess;
}

} // namespace

extern "C" {

// --- initialization, errors, versions ---------------------------------------------------------

CUresult cuInit(unsigned flags) {
  std::lock_guard<wf::rt::ContextLock> lock(rt().contextLock());
  if (flags != 0)
    return kInvalidValue;
  if (Error e = rt().ensureDevice(); e != Error::cudaSuccess)
    return toResult(e);
  gInitialized = true;
  return kSuccess;
}

CUresult cuDriverGetVersion(int *version) {
  if (!version)
    return kInvalidValue;
  *version = 13000;
  return kSuccess;
}

namespace {
/// NVIDIA's CUresult table: the name and the text of each code.
struct DriverErrorText {
  CUresult code;
  const char *name;
  const char *text;
};
constexpr DriverErrorText kDriverErrors[] = {
#define WF_CU_ERROR(name, value, text) {value, #name, text},
#include "warpforge/runtime/driver_errors.def"
#undef WF_CU_ERROR
};

const DriverErrorText *findDriverError(CUresult error) {
  for (const DriverErrorText &e : kDriverErrors)
    if (e.code == error)
      return &e;
  return nullptr;
}
} // namespace

CUresult cuGetErrorName(CUresult error, const char **name) {
  if (!name)
    return kInvalidValue;
  const DriverErrorText *e = findDriverError(error);
  *name = e ? e->name : nullptr;
  return e ? kSuccess : kInvalidValue;
}

CUresult cuGetErrorString(CUresult error, const char **text) {
  if (!text)
    return kInvalidValue;
  const DriverErrorText *e = findDriverError(error);
  *text = e ? e->text : nullptr;
  return e ? kSuccess : kInvalidValue;
}

// --- devices ------------------------------------------------------------------------------------

CUresult cuDeviceGetCount(int *count) {
  DRIVER_CALL();
  if (!count)
    return kInvalidValue;
  *count = 1;
  return kSuccess;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  DRIVER_CALL();
  if (!device)
    return kInvalidValue;
  if (ordinal != 0)
    return kInvalidDevice;
  *device = 0;
  return kSuccess;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev) {
  DRIVER_CALL();
  if (!name || len <= 0)
    return kInvalidValue;
  if (CUresult r = validDevice(dev))
    return r;
  std::snprintf(name, size_t(len), "%s", rt().device()->info().name.c_str());
  return kSuccess;
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev) {
  DRIVER_CALL();
  if (!bytes)
    return kInvalidValue;
  if (CUresult r = validDevice(dev))
    return r;
  *bytes = rt().device()->info().memSize;
  return kSuccess;
}

CUresult cuDeviceGetAttribute(int *value, int attribute, CUdevice dev) {
  DRIVER_CALL();
  if (!value)
    return kInvalidValue;
  if (CUresult r = validDevice(dev))
    return r;
  return result(wf::cudart::deviceAttribute(value, attribute));
}

CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice dev) {
  DRIVER_CALL();
  if (!major || !minor)
    return kInvalidValue;
  if (CUresult r = validDevice(dev))
    return r;
  // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR/MINOR (75, 76).
  if (CUresult r = result(wf::cudart::deviceAttribute(major, 75)))
    return r;
  return result(wf::cudart::deviceAttribute(minor, 76));
}

// --- contexts: one per device, the primary one ---------------------------------------------------

CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice dev) {
  DRIVER_CALL();
  if (!ctx)
    return kInvalidValue;
  if (CUresult r = validDevice(dev))
    return r;
  ++gPrimary.refs;
  *ctx = &gPrimary;
  return kSuccess;
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev) {
  DRIVER_CALL();
  if (CUresult r = validDevice(dev))
    return r;
  if (gPrimary.refs <= 0)
    return kInvalidContext;
  --gPrimary.refs;
  return kSuccess;
}

CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev) {
  // The way out of a sticky fault: it must work while every other call reports the fault.
  std::lock_guard<wf::rt::ContextLock> lock(rt().contextLock());
  if (!gInitialized)
    return kNotInitialized;
  if (CUresult r = validDevice(dev))
    return r;
  gModules.clear();
  rt().reset();
  return kSuccess;
}

CUresult cuCtxCreate_v2(CUcontext *ctx, unsigned flags, CUdevice dev) {
  DRIVER_CALL();
  (void)flags; // scheduling hints: the emulator has one way to wait
  if (!ctx)
    return kInvalidValue;
  if (CUresult r = validDevice(dev))
    return r;
  ++gPrimary.refs;
  tContextStack.push_back(&gPrimary);
  tContextGone = false;
  *ctx = &gPrimary;
  return kSuccess;
}

CUresult cuCtxCreate_v4(CUcontext *ctx, void *params, unsigned flags, CUdevice dev) {
  (void)params; // execution affinity and CIG parameters: nothing to partition here
  return cuCtxCreate_v2(ctx, flags, dev);
}

CUresult cuCtxDestroy_v2(CUcontext ctx) {
  DRIVER_CALL();
  if (ctx != &gPrimary || gPrimary.refs <= 0)
    return kInvalidContext;
  --gPrimary.refs;
  std::erase(tContextStack, ctx);
  tContextGone = tContextStack.empty();
  return kSuccess;
}

CUresult cuCtxGetCurrent(CUcontext *ctx) {
  std::lock_guard<wf::rt::ContextLock> lock(rt().contextLock());
  if (!gInitialized)
    return kNotInitialized;
  if (!ctx)
    return kInvalidValue;
  *ctx = tContextStack.empty() ? nullptr : tContextStack.back();
  return kSuccess;
}

CUresult cuCtxSetCurrent(CUcontext ctx) {
  DRIVER_CALL();
  if (ctx && ctx != &gPrimary)
    return kInvalidContext;
  if (!tContextStack.empty())
    tContextStack.pop_back();
  if (ctx) {
    tContextStack.push_back(ctx);
    tContextGone = false;
  }
  return kSuccess;
}

CUresult cuCtxPushCurrent_v2(CUcontext ctx) {
  DRIVER_CALL();
  if (ctx != &gPrimary)
    return kInvalidContext;
  tContextStack.push_back(ctx);
  tContextGone = false;
  return kSuccess;
}

CUresult cuCtxPopCurrent_v2(CUcontext *ctx) {
  DRIVER_CALL();
  if (tContextStack.empty())
    return kInvalidContext;
  if (ctx)
    *ctx = tContextStack.back();
  tContextStack.pop_back();
  return kSuccess;
}

CUresult cuCtxGetDevice(CUdevice *dev) {
  DRIVER_CALL();
  if (!dev)
    return kInvalidValue;
  if (tContextStack.empty())
    return kInvalidContext;
  *dev = 0;
  return kSuccess;
}

CUresult cuCtxSynchronize(void) {
  DRIVER_CALL();
  return result(rt().synchronizeDevice());
}

// CUlimit's values are cudaLimit's (stack 0, printf FIFO 1, malloc heap 2, ...).
CUresult cuCtxSetLimit(int limit, size_t value) {
  DRIVER_CALL();
  return result(rt().setLimit(limit, value));
}

CUresult cuCtxGetLimit(size_t *value, int limit) {
  DRIVER_CALL();
  if (!value)
    return kInvalidValue;
  uint64_t v = 0;
  Error e = rt().getLimit(limit, v);
  if (e == Error::cudaSuccess)
    *value = v;
  return result(e);
}

// --- modules ------------------------------------------------------------------------------------

CUresult cuModuleLoadData(CUmodule *module, const void *image) {
  DRIVER_CALL();
  if (!module || !image)
    return kInvalidValue;
  std::string bytes;
  if (!copyImage(image, bytes)) {
    std::fprintf(stderr, "warpforge: cuModuleLoadData: the image's header claims more bytes than "
                         "can be read, or its text has no end\n");
    return kInvalidImage;
  }
  if (!containerReads(bytes))
    return kInvalidImage;
  return loadImage(module, std::move(bytes));
}

CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned numOptions, int *options,
                            void **optionValues) {
  // JIT options (log buffers, optimization level, target): accepted; our compiler has one mode.
  (void)numOptions, (void)options, (void)optionValues;
  return cuModuleLoadData(module, image);
}

CUresult cuModuleLoadFatBinary(CUmodule *module, const void *fatbin) {
  return cuModuleLoadData(module, fatbin);
}

CUresult cuModuleLoad(CUmodule *module, const char *path) {
  DRIVER_CALL();
  if (!module || !path)
    return kInvalidValue;
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return kFileNotFound;
  std::stringstream bytes;
  bytes << in.rdbuf();
  if (!containerReads(bytes.str()))
    return kInvalidImage;
  return loadImage(module, bytes.str());
}

CUresult cuModuleUnload(CUmodule module) {
  DRIVER_CALL();
  CUmod_st *m = liveModule(module);
  if (!m)
    return kInvalidHandle;
  // The code stays in device memory until the context is reset: functions already launched
  // asynchronously would otherwise run freed code. Handles die now.
  m->unloaded = true;
  return kSuccess;
}

CUresult cuModuleGetFunction(CUfunction *function, CUmodule module, const char *name) {
  DRIVER_CALL();
  if (!function || !name)
    return kInvalidValue;
  CUmod_st *m = liveModule(module);
  if (!m)
    return kInvalidHandle;
  auto &slot = m->functions[name];
  if (!slot) {
    if (!m->record->image.findKernel(name)) {
      m->functions.erase(name);
      return kNotFound;
    }
    slot = std::make_unique<CUfunc_st>(CUfunc_st{m, name});
    // The handle is the key the runtime knows the kernel by, as a host stub is for <<<>>>.
    rt().registerFunction(m->record, slot.get(), name);
  }
  *function = slot.get();
  return kSuccess;
}

CUresult cuModuleGetGlobal_v2(CUdeviceptr *address, size_t *bytes, CUmodule module,
                              const char *name) {
  DRIVER_CALL();
  if (!name)
    return kInvalidValue;
  CUmod_st *m = liveModule(module);
  if (!m)
    return kInvalidHandle;
  const wf::wfx::Module &image = m->record->image;
  for (const wf::wfx::Symbol &s : image.symbols) {
    if (s.name != name)
      continue;
    uint64_t a = m->record->placed.symbolAddress(image, name);
    if (!a)
      break;
    if (address)
      *address = a;
    if (bytes)
      *bytes = s.size;
    return kSuccess;
  }
  return kNotFound;
}

// --- launches -----------------------------------------------------------------------------------

} // extern "C"

/// cuLaunchKernel on a stream already resolved (the driver route hands over the runtime's).
static CUresult launchKernel(CUfunction f, Dim3 grid, Dim3 block, unsigned sharedBytes,
                             CUstream_st *stream, void **kernelParams, void **extra,
                             bool cooperative = false) {
  if (!f || !liveModule(f->module))
    return kInvalidHandle;
  if (!stream)
    return kInvalidHandle;
  wf::rt::FunctionRecord *fn = rt().findFunction(f);
  if (!fn)
    return kInvalidHandle;
  const wf::wfx::Kernel *k = rt().kernelOf(*fn);
  if (!k)
    return kInvalidHandle;
  std::vector<void *> args;
  if (extra) {
    // CU_LAUNCH_PARAM_BUFFER_POINTER (1), CU_LAUNCH_PARAM_BUFFER_SIZE (2), CU_LAUNCH_PARAM_END (0).
    if (kernelParams)
      return kInvalidValue;
    uint8_t *buffer = nullptr;
    size_t size = 0;
    for (void **p = extra; *p; p += 2) {
      if (*p == reinterpret_cast<void *>(1))
        buffer = static_cast<uint8_t *>(p[1]);
      else if (*p == reinterpret_cast<void *>(2))
        size = *static_cast<size_t *>(p[1]);
      else
        return kInvalidValue;
    }
    if (!buffer || size < k->paramBytes)
      return kInvalidValue;
    for (const auto &param : k->params)
      args.push_back(buffer + param.offset);
    kernelParams = args.data();
  } else if (!kernelParams && !k->params.empty()) {
    return kInvalidValue;
  }
  if (stream->capture) { // a kernel node, its argument values copied
    wf::rt::GraphNode n;
    n.type = cudaGraphNodeTypeKernel;
    n.fn = fn;
    n.func = f;
    n.grid = dim3{grid.x, grid.y, grid.z};
    n.block = dim3{block.x, block.y, block.z};
    n.shared = sharedBytes;
    n.cooperative = cooperative;
    if (Error e = wf::rt::Graphs::copyArgs(rt(), *fn, kernelParams, n.args); e != Error::cudaSuccess)
      return toResult(e);
    return toResult(wf::rt::graphs().capture(stream, std::move(n)));
  }
  return toResult(rt().launch(*fn, grid, block, kernelParams, sharedBytes, stream, cooperative));
}

extern "C" {

CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                        unsigned by, unsigned bz, unsigned sharedBytes, CUstream stream,
                        void **kernelParams, void **extra) {
  DRIVER_CALL();
  return launchKernel(f, Dim3{gx, gy, gz}, Dim3{bx, by, bz}, sharedBytes, streamOf(stream),
                      kernelParams, extra);
}

CUresult cuFuncGetAttribute(int *value, int attribute, CUfunction f) {
  DRIVER_CALL();
  if (!value)
    return kInvalidValue;
  if (!f || !liveModule(f->module))
    return kInvalidHandle;
  wf::rt::FunctionRecord *fn = rt().findFunction(f);
  if (!fn)
    return kInvalidHandle;
  wf::rt::FunctionAttributes a;
  if (CUresult r = result(rt().functionAttributes(*fn, a)))
    return r;
  switch (attribute) { // CUfunction_attribute
  case 0:
    *value = a.maxThreadsPerBlock;
    return kSuccess;
  case 1:
    *value = int(a.sharedBytes);
    return kSuccess;
  case 2:
    *value = int(a.constBytes);
    return kSuccess;
  case 3:
    *value = int(a.localBytes);
    return kSuccess;
  case 4:
    *value = a.numRegs;
    return kSuccess;
  case 5:
    *value = a.ptxVersion;
    return kSuccess;
  case 6:
    *value = a.binaryVersion;
    return kSuccess;
  case 7:
    *value = 0; // CU_FUNC_ATTRIBUTE_CACHE_MODE_CA: no -Xptxas -dlcm=ca here
    return kSuccess;
  case 8:
    *value = a.maxDynamicShared;
    return kSuccess;
  case 9:
    *value = a.preferredCarveout;
    return kSuccess;
  default:
    return kInvalidValue;
  }
}

CUresult cuFuncSetAttribute(CUfunction f, int attribute, int value) {
  DRIVER_CALL();
  if (!f || !liveModule(f->module))
    return kInvalidHandle;
  // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES (8) and the carveout (9) have the runtime's
  // numbers.
  wf::rt::FunctionRecord *fn = rt().findFunction(f);
  if (!fn)
    return kInvalidHandle;
  return result(rt().setFunctionAttribute(*fn, attribute, value));
}

// --- memory -------------------------------------------------------------------------------------

CUresult cuMemAlloc_v2(CUdeviceptr *address, size_t bytes) {
  CONTEXT_CALL();
  if (!address || !bytes)
    return kInvalidValue;
  uint64_t a = 0;
  Error e = rt().malloc(bytes, a);
  *address = a;
  return result(e);
}

CUresult cuMemFree_v2(CUdeviceptr address) {
  CONTEXT_CALL();
  return result(rt().free(address));
}

CUresult cuMemGetInfo_v2(size_t *free, size_t *total) {
  CONTEXT_CALL();
  if (!free || !total)
    return kInvalidValue;
  *total = rt().device()->info().memSize;
  *free = *total - rt().liveDeviceBytes();
  return kSuccess;
}

CUresult cuMemAllocHost_v2(void **ptr, size_t bytes) {
  CONTEXT_CALL();
  if (!ptr)
    return kInvalidValue;
  return result(rt().hostAlloc(bytes, 0, ptr));
}

CUresult cuMemHostAlloc(void **ptr, size_t bytes, unsigned flags) {
  CONTEXT_CALL();
  // CU_MEMHOSTALLOC_* have cudaHostAlloc*'s values.
  if (!ptr || flags > 0xf)
    return kInvalidValue;
  return result(rt().hostAlloc(bytes, flags, ptr));
}

CUresult cuMemFreeHost(void *ptr) {
  CONTEXT_CALL();
  return result(rt().hostFree(ptr));
}

CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *address, void *host, unsigned flags) {
  CONTEXT_CALL();
  if (!address)
    return kInvalidValue;
  if (flags)
    return kInvalidValue;
  uint64_t a = rt().hostToDevice(host);
  if (!a)
    return kInvalidValue;
  *address = a;
  return kSuccess;
}

// Copies and fills go through the common layer in stream order (0: the legacy default stream).
static CUresult copy(void *dst, const void *src, size_t bytes, Runtime::CopyKind kind, CUstream s,
                     bool async) {
  CUstream_st *stream = streamOf(s);
  if (!stream)
    return kInvalidHandle;
  if (stream->capture) { // a memcpy node (a synchronous copy cannot be captured)
    if (!async)
      return toResult(Error::cudaErrorStreamCaptureUnsupported);
    wf::rt::GraphNode n;
    n.type = cudaGraphNodeTypeMemcpy;
    n.setCopy1D(dst, src, bytes, cudaMemcpyKind(int(kind)));
    return toResult(wf::rt::graphs().capture(stream, std::move(n)));
  }
  return result(rt().memcpy(dst, src, bytes, kind, stream, async));
}

static void *ptr(CUdeviceptr p) { return reinterpret_cast<void *>(p); }

CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t bytes) {
  CONTEXT_CALL();
  return copy(ptr(dst), src, bytes, Runtime::CopyKind::HostToDevice, nullptr, false);
}

CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t bytes) {
  CONTEXT_CALL();
  return copy(dst, ptr(src), bytes, Runtime::CopyKind::DeviceToHost, nullptr, false);
}

CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t bytes) {
  CONTEXT_CALL();
  return copy(ptr(dst), ptr(src), bytes, Runtime::CopyKind::DeviceToDevice, nullptr, false);
}

CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t bytes, CUstream s) {
  CONTEXT_CALL();
  return copy(ptr(dst), src, bytes, Runtime::CopyKind::HostToDevice, s, true);
}

CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t bytes, CUstream s) {
  CONTEXT_CALL();
  return copy(dst, ptr(src), bytes, Runtime::CopyKind::DeviceToHost, s, true);
}

CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream s) {
  CONTEXT_CALL();
  return copy(ptr(dst), ptr(src), bytes, Runtime::CopyKind::DeviceToDevice, s, true);
}

/// `count` elements of `width` bytes on the legacy default stream (asynchronous, as CUDA's).
static CUresult fill(CUdeviceptr dst, uint32_t value, size_t count, unsigned width) {
  if (dst % width)
    return kInvalidValue;
  return result(rt().memset(dst, value, width, count, streamOf(nullptr)));
}

CUresult cuMemsetD8_v2(CUdeviceptr dst, unsigned char value, size_t count) {
  CONTEXT_CALL();
  return fill(dst, value, count, 1);
}

CUresult cuMemsetD16_v2(CUdeviceptr dst, unsigned short value, size_t count) {
  CONTEXT_CALL();
  return fill(dst, value, count, 2);
}

CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned value, size_t count) {
  CONTEXT_CALL();
  return fill(dst, value, count, 4);
}

// --- streams and events (the common layer's objects: CUstream is cudaStream_t) -----------------

CUresult cuStreamCreate(CUstream *stream, unsigned flags) {
  DRIVER_CALL();
  if (!stream || flags > 1)
    return kInvalidValue;
  *stream = rt().createStream(flags, 0);
  return kSuccess;
}
CUresult cuStreamDestroy_v2(CUstream stream) {
  DRIVER_CALL();
  if (CUstream_st *s = streamOf(stream); s && !s->legacy && !s->perThread)
    wf::rt::graphs().forgetStream(s);
  return result(rt().destroyStream(stream));
}
CUresult cuStreamSynchronize(CUstream stream) {
  DRIVER_CALL();
  CUstream_st *s = streamOf(stream);
  if (!s)
    return kInvalidHandle;
  if (s->capture)
    return toResult(Error::cudaErrorStreamCaptureUnsupported);
  return result(rt().synchronize(s));
}
CUresult cuStreamQuery(CUstream stream) {
  DRIVER_CALL();
  CUstream_st *s = streamOf(stream);
  if (!s)
    return kInvalidHandle;
  return result(rt().query(s));
}
CUresult cuStreamWaitEvent(CUstream stream, CUevent event, unsigned flags) {
  DRIVER_CALL();
  CUstream_st *s = streamOf(stream);
  if (!s || !rt().isEvent(event))
    return kInvalidHandle;
  if (flags > 1)
    return kInvalidValue;
  if (flags == 1) { // CU_EVENT_WAIT_EXTERNAL: an event wait node, only in a capture
    if (!s->capture)
      return kInvalidValue;
    wf::rt::GraphNode n;
    n.type = cudaGraphNodeTypeWaitEvent;
    n.event = event;
    return toResult(wf::rt::graphs().capture(s, std::move(n)));
  }
  if (s->capture || wf::rt::graphs().capturedEvent(event))
    return toResult(wf::rt::graphs().captureWait(s, event));
  return result(rt().waitEvent(s, event));
}
CUresult cuLaunchHostFunc(CUstream stream, void (*fn)(void *), void *data) {
  DRIVER_CALL();
  CUstream_st *s = streamOf(stream);
  if (!s)
    return kInvalidHandle;
  if (!fn)
    return kInvalidValue;
  if (s->capture) {
    wf::rt::GraphNode n;
    n.type = cudaGraphNodeTypeHost;
    n.hostFn = fn;
    n.userData = data;
    return toResult(wf::rt::graphs().capture(s, std::move(n)));
  }
  rt().enqueueHost(s, [fn, data] { fn(data); });
  return kSuccess;
}
CUresult cuEventCreate(CUevent *event, unsigned flags) {
  DRIVER_CALL();
  if (!event || flags > 0xf)
    return kInvalidValue;
  *event = rt().createEvent(flags);
  return kSuccess;
}
CUresult cuEventRecord(CUevent event, CUstream stream) {
  DRIVER_CALL();
  CUstream_st *s = streamOf(stream);
  if (!s || !rt().isEvent(event))
    return kInvalidHandle;
  if (s->capture)
    return toResult(wf::rt::graphs().captureRecord(event, s));
  wf::rt::graphs().forgetEvent(event);
  return result(rt().recordEvent(event, s));
}
CUresult cuEventSynchronize(CUevent event) {
  DRIVER_CALL();
  if (!rt().isEvent(event))
    return kInvalidHandle;
  return result(rt().synchronizeEvent(event));
}
CUresult cuEventQuery(CUevent event) {
  DRIVER_CALL();
  if (!rt().isEvent(event))
    return kInvalidHandle;
  return result(rt().queryEvent(event));
}
CUresult cuEventElapsedTime_v2(float *ms, CUevent start, CUevent end) {
  DRIVER_CALL();
  if (!ms)
    return kInvalidValue;
  if (!rt().isEvent(start) || !rt().isEvent(end))
    return kInvalidHandle;
  return result(rt().elapsedTime(*ms, start, end));
}
CUresult cuEventElapsedTime(float *ms, CUevent start, CUevent end) {
  return cuEventElapsedTime_v2(ms, start, end);
}
CUresult cuEventDestroy_v2(CUevent event) {
  DRIVER_CALL();
  wf::rt::graphs().forgetEvent(event);
  return result(rt().destroyEvent(event));
}

// --- devices and contexts: queries ------------------------------------------------------------

struct CUdevprop_st { // CUdevprop
  int maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3], sharedMemPerBlock, totalConstantMemory,
      SIMDWidth, memPitch, regsPerBlock, clockRate, textureAlign;
};
CUresult cuDeviceGetProperties(CUdevprop_st *prop, CUdevice dev) {
  DRIVER_CALL();
  if (!prop)
    return kInvalidValue;
  if (CUresult r = validDevice(dev))
    return r;
  // CUdevice_attribute numbers 1 to 14, in the struct's order.
  int *fields[] = {&prop->maxThreadsPerBlock, &prop->maxThreadsDim[0], &prop->maxThreadsDim[1],
                   &prop->maxThreadsDim[2], &prop->maxGridSize[0], &prop->maxGridSize[1],
                   &prop->maxGridSize[2], &prop->sharedMemPerBlock, &prop->totalConstantMemory,
                   &prop->SIMDWidth, &prop->memPitch, &prop->regsPerBlock, &prop->clockRate,
                   &prop->textureAlign};
  for (int i = 0; i < 14; ++i)
    if (CUresult r = result(wf::cudart::deviceAttribute(fields[i], i + 1)))
      return r;
  return kSuccess;
}
CUresult cuDeviceGetUuid_v2(char *uuid, CUdevice dev) { // CUuuid: 16 bytes
  DRIVER_CALL();
  if (!uuid)
    return kInvalidValue;
  if (CUresult r = validDevice(dev))
    return r;
  cudaDeviceProp p;
  wf::cudart::deviceProperties(p);
  std::memcpy(uuid, p.uuid.bytes, 16);
  return kSuccess;
}
CUresult cuDeviceGetPCIBusId(char *busId, int len, CUdevice dev) {
  DRIVER_CALL();
  if (!busId || len <= 0)
    return kInvalidValue;
  if (CUresult r = validDevice(dev))
    return r;
  cudaDeviceProp p;
  wf::cudart::deviceProperties(p);
  std::snprintf(busId, size_t(len), "%04x:%02x:%02x.0", p.pciDomainID, p.pciBusID, p.pciDeviceID);
  return kSuccess;
}
CUresult cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev, CUdevice peer) {
  DRIVER_CALL();
  if (!canAccessPeer)
    return kInvalidValue;
  if (validDevice(dev) || validDevice(peer))
    return kInvalidDevice;
  *canAccessPeer = 0; // a device is not its own peer
  return kSuccess;
}
CUresult cuDeviceGetP2PAttribute(int *value, int attribute, CUdevice src, CUdevice dst) {
  DRIVER_CALL();
  if (!value || attribute < 1 || attribute > 4)
    return kInvalidValue;
  (void)src, (void)dst;
  return kInvalidDevice; // a pair of two different devices; there is one
}
CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned *flags, int *active) {
  DRIVER_CALL();
  if (!flags || !active)
    return kInvalidValue;
  if (CUresult r = validDevice(dev))
    return r;
  *flags = gPrimaryFlags;
  *active = gPrimary.refs > 0 ? 1 : 0;
  return kSuccess;
}
CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned flags) {
  DRIVER_CALL();
  if (CUresult r = validDevice(dev))
    return r;
  // CU_CTX_SCHED_* (0-4) | CU_CTX_MAP_HOST (8) | CU_CTX_LMEM_RESIZE_TO_MAX (0x10) | COREDUMP/SYNC
  if (flags & ~0xffu)
    return kInvalidValue;
  gPrimaryFlags = flags;
  return kSuccess;
}
CUresult cuCtxGetFlags(unsigned *flags) {
  DRIVER_CALL();
  if (!flags)
    return kInvalidValue;
  if (tContextStack.empty() || !tContextStack.back())
    return kInvalidContext;
  *flags = gPrimaryFlags;
  return kSuccess;
}
CUresult cuCtxSetFlags(unsigned flags) {
  DRIVER_CALL();
  if (tContextStack.empty() || !tContextStack.back())
    return kInvalidContext;
  if (flags & ~0xffu)
    return kInvalidValue;
  gPrimaryFlags = flags;
  return kSuccess;
}
CUresult cuCtxGetId(CUcontext ctx, unsigned long long *id) {
  DRIVER_CALL();
  if (!id)
    return kInvalidValue;
  if (!ctx && (tContextStack.empty() || !tContextStack.back()))
    return kInvalidContext;
  *id = 1; // the one (primary) context
  return kSuccess;
}
CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned *version) {
  DRIVER_CALL();
  if (!version)
    return kInvalidValue;
  if (!ctx && (tContextStack.empty() || !tContextStack.back()))
    return kInvalidContext;
  *version = 3020; // the context API version of every context since CUDA 3.2
  return kSuccess;
}
CUresult cuCtxGetStreamPriorityRange(int *least, int *greatest) {
  DRIVER_CALL();
  // As cudaDeviceGetStreamPriorityRange: priorities are kept and reported (they order nothing).
  if (least)
    *least = 0;
  if (greatest)
    *greatest = -5;
  return kSuccess;
}
CUresult cuCtxSynchronize_v2(CUcontext ctx) {
  if (ctx && ctx != &gPrimary)
    return kInvalidContext;
  return cuCtxSynchronize();
}
CUresult cuCtxGetDevice_v2(CUdevice *dev, CUcontext ctx) {
  if (ctx && ctx != &gPrimary)
    return kInvalidContext;
  return cuCtxGetDevice(dev);
}
// No L2 lines are set aside for persisting accesses, so there is nothing to reset.
CUresult cuCtxResetPersistingL2Cache(void) {
  DRIVER_CALL();
  return kSuccess;
}
// No profiler is attached to a Warpforge device; CUDA answers success then.
CUresult cuProfilerStart(void) {
  DRIVER_CALL();
  return kSuccess;
}
CUresult cuProfilerStop(void) {
  DRIVER_CALL();
  return kSuccess;
}

// --- functions and occupancy (runtime/lib/occupancy.cpp) -----------------------------------------

static wf::rt::FunctionRecord *recordOf(CUfunction f) {
  return f && liveModule(f->module) ? rt().findFunction(f) : nullptr;
}
CUresult cuFuncGetName(const char **name, CUfunction f) {
  DRIVER_CALL();
  if (!name)
    return kInvalidValue;
  if (!recordOf(f))
    return kInvalidHandle;
  *name = f->name.c_str();
  return kSuccess;
}
CUresult cuFuncGetModule(CUmodule *module, CUfunction f) {
  DRIVER_CALL();
  if (!module)
    return kInvalidValue;
  if (!recordOf(f))
    return kInvalidHandle;
  *module = f->module;
  return kSuccess;
}
// Modules compile at load, so every function of a live module is loaded.
CUresult cuFuncIsLoaded(int *state, CUfunction f) { // CUfunctionLoadingState: 1 loaded
  DRIVER_CALL();
  if (!state)
    return kInvalidValue;
  if (!recordOf(f))
    return kInvalidHandle;
  *state = 1;
  return kSuccess;
}
CUresult cuFuncLoad(CUfunction f) {
  DRIVER_CALL();
  return recordOf(f) ? kSuccess : kInvalidHandle;
}
CUresult cuFuncSetCacheConfig(CUfunction f, int config) {
  DRIVER_CALL();
  if (!recordOf(f))
    return kInvalidHandle;
  return config < 0 || config > 3 ? kInvalidValue : kSuccess; // a preference only
}
CUresult cuFuncSetSharedMemConfig(CUfunction f, int config) {
  DRIVER_CALL();
  if (!recordOf(f))
    return kInvalidHandle;
  return config < 0 || config > 2 ? kInvalidValue : kSuccess; // banks are four bytes wide
}
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *blocks, CUfunction f,
                                                              int blockSize, size_t dynamicShared,
                                                              unsigned flags) {
  DRIVER_CALL();
  if (!blocks || flags > 1)
    return kInvalidValue;
  wf::rt::FunctionRecord *fn = recordOf(f);
  if (!fn)
    return kInvalidHandle;
  return result(wf::rt::maxActiveBlocksPerCore(rt(), *fn, blockSize, dynamicShared, *blocks));
}
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, CUfunction f, int blockSize,
                                                     size_t dynamicShared) {
  return cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(blocks, f, blockSize, dynamicShared,
                                                              0);
}
CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize, CUfunction f,
                                                   size_t (*blockToShared)(int),
                                                   size_t dynamicShared, int blockSizeLimit,
                                                   unsigned flags) {
  DRIVER_CALL();
  if (!minGridSize || !blockSize || flags > 1)
    return kInvalidValue;
  wf::rt::FunctionRecord *fn = recordOf(f);
  if (!fn)
    return kInvalidHandle;
  auto shared = [&](int size) -> uint64_t {
    return blockToShared ? blockToShared(size) : dynamicShared;
  };
  return result(
      wf::rt::maxPotentialBlockSize(rt(), *fn, shared, blockSizeLimit, *minGridSize, *blockSize));
}
CUresult cuOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, CUfunction f,
                                          size_t (*blockToShared)(int), size_t dynamicShared,
                                          int blockSizeLimit) {
  return cuOccupancyMaxPotentialBlockSizeWithFlags(minGridSize, blockSize, f, blockToShared,
                                                   dynamicShared, blockSizeLimit, 0);
}
CUresult cuOccupancyAvailableDynamicSMemPerBlock(size_t *bytes, CUfunction f, int numBlocks,
                                                 int blockSize) {
  DRIVER_CALL();
  if (!bytes)
    return kInvalidValue;
  wf::rt::FunctionRecord *fn = recordOf(f);
  if (!fn)
    return kInvalidHandle;
  uint64_t b = 0;
  CUresult r = result(wf::rt::availableDynamicSharedPerBlock(rt(), *fn, numBlocks, blockSize, b));
  *bytes = size_t(b);
  return r;
}

// --- memory: more forms ----------------------------------------------------------------------------

CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t bytes) {
  DRIVER_CALL();
  return copy(ptr(dst), ptr(src), bytes, Runtime::CopyKind::Default, nullptr, false);
}
CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream s) {
  DRIVER_CALL();
  return copy(ptr(dst), ptr(src), bytes, Runtime::CopyKind::Default, s, true);
}
CUresult cuMemcpyPeer(CUdeviceptr dst, CUcontext dstCtx, CUdeviceptr src, CUcontext srcCtx,
                      size_t bytes) {
  DRIVER_CALL();
  if (dstCtx != &gPrimary || srcCtx != &gPrimary)
    return kInvalidContext;
  return copy(ptr(dst), ptr(src), bytes, Runtime::CopyKind::DeviceToDevice, nullptr, false);
}
CUresult cuMemcpyPeerAsync(CUdeviceptr dst, CUcontext dstCtx, CUdeviceptr src, CUcontext srcCtx,
                           size_t bytes, CUstream s) {
  DRIVER_CALL();
  if (dstCtx != &gPrimary || srcCtx != &gPrimary)
    return kInvalidContext;
  return copy(ptr(dst), ptr(src), bytes, Runtime::CopyKind::DeviceToDevice, s, true);
}
static CUresult fillAsync(CUdeviceptr dst, uint32_t value, size_t count, unsigned width,
                          CUstream s) {
  if (dst % width)
    return kInvalidValue;
  CUstream_st *stream = streamOf(s);
  if (!stream)
    return kInvalidHandle;
  if (stream->capture) { // a memset node of one row
    wf::rt::GraphNode n;
    n.type = cudaGraphNodeTypeMemset;
    n.memset = cudaMemsetParams{ptr(dst), count * width, value, width, count, 1};
    return toResult(wf::rt::graphs().capture(stream, std::move(n)));
  }
  return result(rt().memset(dst, value, width, count, stream));
}
CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char value, size_t count, CUstream s) {
  DRIVER_CALL();
  return fillAsync(dst, value, count, 1, s);
}
CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short value, size_t count, CUstream s) {
  DRIVER_CALL();
  return fillAsync(dst, value, count, 2, s);
}
CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned value, size_t count, CUstream s) {
  DRIVER_CALL();
  return fillAsync(dst, value, count, 4, s);
}
/// A 2D fill: `height` rows of `width` elements, `pitch` bytes apart.
static CUresult fill2D(CUdeviceptr dst, size_t pitch, uint32_t value, size_t width, size_t height,
                       unsigned widthBytes, CUstream s) {
  if (height > 1 && pitch < width * widthBytes)
    return kInvalidValue;
  for (size_t row = 0; row < height; ++row)
    if (CUresult r = fillAsync(dst + row * pitch, value, width, widthBytes, s))
      return r;
  return kSuccess;
}
CUresult cuMemsetD2D8_v2(CUdeviceptr dst, size_t pitch, unsigned char v, size_t w, size_t h) {
  DRIVER_CALL();
  return fill2D(dst, pitch, v, w, h, 1, nullptr);
}
CUresult cuMemsetD2D16_v2(CUdeviceptr dst, size_t pitch, unsigned short v, size_t w, size_t h) {
  DRIVER_CALL();
  return fill2D(dst, pitch, v, w, h, 2, nullptr);
}
CUresult cuMemsetD2D32_v2(CUdeviceptr dst, size_t pitch, unsigned v, size_t w, size_t h) {
  DRIVER_CALL();
  return fill2D(dst, pitch, v, w, h, 4, nullptr);
}
CUresult cuMemsetD2D8Async(CUdeviceptr dst, size_t pitch, unsigned char v, size_t w, size_t h,
                           CUstream s) {
  DRIVER_CALL();
  return fill2D(dst, pitch, v, w, h, 1, s);
}
CUresult cuMemsetD2D16Async(CUdeviceptr dst, size_t pitch, unsigned short v, size_t w, size_t h,
                            CUstream s) {
  DRIVER_CALL();
  return fill2D(dst, pitch, v, w, h, 2, s);
}
CUresult cuMemsetD2D32Async(CUdeviceptr dst, size_t pitch, unsigned v, size_t w, size_t h,
                            CUstream s) {
  DRIVER_CALL();
  return fill2D(dst, pitch, v, w, h, 4, s);
}
CUresult cuMemAllocPitch_v2(CUdeviceptr *address, size_t *pitch, size_t widthBytes, size_t height,
                            unsigned elementBytes) {
  DRIVER_CALL();
  if (!address || !pitch || (elementBytes != 4 && elementBytes != 8 && elementBytes != 16))
    return kInvalidValue;
  // Rows padded to 256 bytes, as cudaMallocPitch pads them.
  size_t p = (widthBytes + 255) / 256 * 256;
  uint64_t a = 0;
  if (CUresult r = result(rt().malloc(uint64_t(p) * height, a)))
    return r;
  *address = a;
  *pitch = p;
  return kSuccess;
}
CUresult cuMemAllocManaged(CUdeviceptr *address, size_t bytes, unsigned flags) {
  DRIVER_CALL();
  // CU_MEM_ATTACH_GLOBAL (1) or CU_MEM_ATTACH_HOST (2)
  if (!address || bytes == 0 || (flags != 1 && flags != 2))
    return kInvalidValue;
  uint64_t a = 0;
  if (CUresult r = result(rt().mallocManaged(bytes, a)))
    return r;
  *address = a;
  return kSuccess;
}
CUresult cuMemHostRegister_v2(void *p, size_t bytes, unsigned flags) {
  DRIVER_CALL();
  if (!p || bytes == 0)
    return kInvalidValue;
  return result(rt().hostRegister(p, bytes, flags)); // CU_MEMHOSTREGISTER_* = cudaHostRegister*
}
CUresult cuMemHostUnregister(void *p) {
  DRIVER_CALL();
  return result(rt().hostUnregister(p));
}
CUresult cuMemHostGetFlags(unsigned *flags, void *p) {
  DRIVER_CALL();
  if (!flags || !p)
    return kInvalidValue;
  std::optional<wf::rt::HostAllocation> a = rt().findHost(p);
  if (!a)
    return kInvalidValue;
  *flags = a->flags;
  return kSuccess;
}

// --- stream-ordered allocation and memory pools (runtime/lib/mempools.cpp) -----------------------

struct CUmemLocation_st { // CUmemLocation
  int type, id;
};
struct CUmemAccessDesc_st { // CUmemAccessDesc
  CUmemLocation_st location;
  int flags;
};
static bool deviceLocation(const CUmemLocation_st &l) { return l.type == 1 && l.id == 0; }

CUresult cuDeviceGetDefaultMemPool(CUmemPoolHandle_st **pool, CUdevice dev) {
  DRIVER_CALL();
  if (!pool)
    return kInvalidValue;
  if (CUresult r = validDevice(dev))
    return r;
  *pool = rt().memPools().defaultPool();
  return kSuccess;
}
CUresult cuDeviceGetMemPool(CUmemPoolHandle_st **pool, CUdevice dev) {
  DRIVER_CALL();
  if (!pool)
    return kInvalidValue;
  if (CUresult r = validDevice(dev))
    return r;
  *pool = rt().memPools().current();
  return kSuccess;
}
CUresult cuDeviceSetMemPool(CUdevice dev, CUmemPoolHandle_st *pool) {
  DRIVER_CALL();
  if (CUresult r = validDevice(dev))
    return r;
  return result(rt().memPools().setCurrent(pool));
}
CUresult cuMemPoolCreate(CUmemPoolHandle_st **pool, const void *props) {
  DRIVER_CALL();
  if (!pool || !props)
    return kInvalidValue;
  *pool = rt().memPools().create();
  return kSuccess;
}
CUresult cuMemPoolDestroy(CUmemPoolHandle_st *pool) {
  DRIVER_CALL();
  return result(rt().memPools().destroy(pool));
}
CUresult cuMemPoolTrimTo(CUmemPoolHandle_st *pool, size_t) {
  DRIVER_CALL();
  return rt().memPools().valid(pool) ? kSuccess : kInvalidValue; // nothing is held to trim
}
CUresult cuMemPoolSetAttribute(CUmemPoolHandle_st *pool, int attribute, void *value) {
  DRIVER_CALL();
  return result(rt().memPools().setAttribute(pool, attribute, value));
}
CUresult cuMemPoolGetAttribute(CUmemPoolHandle_st *pool, int attribute, void *value) {
  DRIVER_CALL();
  return result(rt().memPools().getAttribute(pool, attribute, value));
}
CUresult cuMemPoolSetAccess(CUmemPoolHandle_st *pool, const CUmemAccessDesc_st *map, size_t count) {
  DRIVER_CALL();
  if (!rt().memPools().valid(pool) || (count && !map))
    return kInvalidValue;
  for (size_t i = 0; i < count; ++i) {
    if (!deviceLocation(map[i].location))
      return kInvalidDevice;
    if (map[i].flags != 3) // CU_MEM_ACCESS_FLAGS_PROT_READWRITE: the device always has it
      return kInvalidValue;
  }
  return kSuccess;
}
CUresult cuMemPoolGetAccess(int *flags, CUmemPoolHandle_st *pool, CUmemLocation_st *location) {
  DRIVER_CALL();
  if (!flags || !location || !rt().memPools().valid(pool))
    return kInvalidValue;
  if (!deviceLocation(*location))
    return kInvalidDevice;
  *flags = 3;
  return kSuccess;
}
CUresult cuMemAllocFromPoolAsync(CUdeviceptr *address, size_t bytes, CUmemPoolHandle_st *pool,
                                 CUstream s) {
  DRIVER_CALL();
  if (!address || !rt().memPools().valid(pool))
    return kInvalidValue;
  if (!streamOf(s))
    return kInvalidHandle;
  uint64_t a = 0;
  if (CUresult r = result(rt().malloc(bytes, a)))
    return r;
  rt().memPools().allocated(pool, a, bytes);
  *address = a;
  return kSuccess;
}
CUresult cuMemAllocAsync(CUdeviceptr *address, size_t bytes, CUstream s) {
  return cuMemAllocFromPoolAsync(address, bytes, rt().memPools().current(), s);
}
CUresult cuMemFreeAsync(CUdeviceptr address, CUstream s) {
  DRIVER_CALL();
  CUstream_st *stream = streamOf(s);
  if (!stream)
    return kInvalidHandle;
  CUresult r = result(rt().freeAsync(address, stream));
  if (r == kSuccess)
    rt().memPools().released(address);
  return r;
}

// --- streams and events: more forms ---------------------------------------------------------------

CUresult cuStreamCreateWithPriority(CUstream *stream, unsigned flags, int priority) {
  DRIVER_CALL();
  if (!stream || flags > 1)
    return kInvalidValue;
  *stream = rt().createStream(flags, std::clamp(priority, -5, 0));
  return kSuccess;
}
CUresult cuStreamGetPriority(CUstream stream, int *priority) {
  DRIVER_CALL();
  CUstream_st *s = streamOf(stream);
  if (!s)
    return kInvalidHandle;
  if (!priority)
    return kInvalidValue;
  *priority = s->priority;
  return kSuccess;
}
CUresult cuStreamGetFlags(CUstream stream, unsigned *flags) {
  DRIVER_CALL();
  CUstream_st *s = streamOf(stream);
  if (!s)
    return kInvalidHandle;
  if (!flags)
    return kInvalidValue;
  *flags = s->flags;
  return kSuccess;
}
CUresult cuStreamGetId(CUstream stream, unsigned long long *id) {
  DRIVER_CALL();
  CUstream_st *s = streamOf(stream);
  if (!s)
    return kInvalidHandle;
  if (!id)
    return kInvalidValue;
  *id = reinterpret_cast<uintptr_t>(s); // unique while the stream lives
  return kSuccess;
}
CUresult cuStreamGetCtx(CUstream stream, CUcontext *ctx) {
  DRIVER_CALL();
  if (!streamOf(stream))
    return kInvalidHandle;
  if (!ctx)
    return kInvalidValue;
  *ctx = &gPrimary;
  return kSuccess;
}
CUresult cuStreamGetCtx_v2(CUstream stream, CUcontext *ctx, void **greenCtx) {
  DRIVER_CALL();
  if (!streamOf(stream))
    return kInvalidHandle;
  if (!ctx || !greenCtx)
    return kInvalidValue;
  *ctx = &gPrimary;
  *greenCtx = nullptr; // no green contexts
  return kSuccess;
}
CUresult cuStreamGetDevice(CUstream stream, CUdevice *dev) {
  DRIVER_CALL();
  if (!streamOf(stream))
    return kInvalidHandle;
  if (!dev)
    return kInvalidValue;
  *dev = 0;
  return kSuccess;
}
CUresult cuStreamAddCallback(CUstream stream, void (*callback)(CUstream, CUresult, void *),
                             void *data, unsigned flags) {
  DRIVER_CALL();
  CUstream_st *s = streamOf(stream);
  if (!s)
    return kInvalidHandle;
  if (!callback || flags != 0)
    return kInvalidValue;
  rt().enqueueHost(s, [callback, stream, data] { callback(stream, kSuccess, data); });
  return kSuccess;
}
CUresult cuEventRecordWithFlags(CUevent event, CUstream stream, unsigned flags) {
  if (flags > 1)
    return kInvalidValue;
  if (flags == 1) { // CU_EVENT_RECORD_EXTERNAL: in a capture, an event record node
    DRIVER_CALL();
    CUstream_st *s = streamOf(stream);
    if (!s || !rt().isEvent(event))
      return kInvalidHandle;
    if (s->capture) {
      wf::rt::GraphNode n;
      n.type = cudaGraphNodeTypeEventRecord;
      n.event = event;
      return toResult(wf::rt::graphs().capture(s, std::move(n)));
    }
  }
  return cuEventRecord(event, stream);
}


// --- graphs and stream capture (runtime/lib/graphs.cpp, shared with the runtime API) -----------

struct CUDA_KERNEL_NODE_PARAMS_st { // CUDA_KERNEL_NODE_PARAMS_v2
  CUfunction func;
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  void **kernelParams;
  void **extra;
  void *kern; ///< CUkernel: a library kernel instead of func (cuLibrary* is not written yet)
  CUcontext ctx;
};
struct CUDA_GRAPH_INSTANTIATE_PARAMS_st {
  unsigned long long flags;
  CUstream hUploadStream;
  CUgraphNode_st *hErrNode_out;
  int result_out; ///< CUgraphInstantiateResult
};
// CUDA_MEMSET_NODE_PARAMS, CUDA_HOST_NODE_PARAMS, CUgraphEdgeData and
// CUgraphExecUpdateResultInfo have the runtime's layouts (cudaMemsetParams, cudaHostNodeParams,
// cudaGraphEdgeData, cudaGraphExecUpdateResultInfo; a CUdeviceptr where the runtime has a pointer).

} // extern "C"

namespace {

using wf::rt::graphs;
using GraphNode = wf::rt::GraphNode;

bool nodeOf(const CUgraphNode_st *node, cudaGraphNodeType type) {
  return graphs().validNode(node) && node->type == type;
}

bool defaultEdges(const cudaGraphEdgeData *edges, size_t count) {
  for (size_t i = 0; edges && i < count; ++i)
    if (edges[i].from_port || edges[i].to_port || edges[i].type)
      return false;
  return true;
}

/// A kernel node's parameters into `out` (unchanged on error), the argument values copied.
CUresult kernelNode(const CUDA_KERNEL_NODE_PARAMS_st *p, GraphNode &out) {
  if (!p)
    return kInvalidValue;
  if (p->kern || p->extra)
    return toResult(rt().notSupported(p->kern ? "CUDA_KERNEL_NODE_PARAMS::kern (library kernels)"
                                              : "CUDA_KERNEL_NODE_PARAMS::extra"));
  if (p->ctx && p->ctx != &gPrimary)
    return kInvalidContext;
  if (!p->func || !liveModule(p->func->module))
    return kInvalidHandle;
  GraphNode n;
  n.type = cudaGraphNodeTypeKernel;
  n.fn = rt().findFunction(p->func);
  if (!n.fn)
    return kInvalidHandle;
  n.func = p->func;
  n.grid = dim3{p->gridDimX, p->gridDimY, p->gridDimZ};
  n.block = dim3{p->blockDimX, p->blockDimY, p->blockDimZ};
  n.shared = p->sharedMemBytes;
  if (Error e = wf::rt::Graphs::copyArgs(rt(), *n.fn, p->kernelParams, n.args);
      e != Error::cudaSuccess)
    return toResult(e);
  static_cast<GraphNode &>(out) = std::move(n);
  return kSuccess;
}

CUresult memsetNode(const cudaMemsetParams *p, GraphNode &out) {
  if (!p || !p->dst)
    return kInvalidValue;
  if (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4)
    return kInvalidValue;
  if (p->height > 1 && uint64_t(p->width) * p->elementSize > p->pitch)
    return kInvalidValue;
  GraphNode n;
  n.type = cudaGraphNodeTypeMemset;
  n.memset = *p;
  static_cast<GraphNode &>(out) = std::move(n);
  return kSuccess;
}

CUresult hostNode(const cudaHostNodeParams *p, GraphNode &out) {
  if (!p || !p->fn)
    return kInvalidValue;
  GraphNode n;
  n.type = cudaGraphNodeTypeHost;
  n.hostFn = p->fn;
  n.userData = p->userData;
  static_cast<GraphNode &>(out) = std::move(n);
  return kSuccess;
}

/// A new node of `graph` after `deps`, once `make` filled it in.
template <typename Make>
CUresult addNode(CUgraphNode_st **node, CUgraph_st *graph, CUgraphNode_st *const *deps,
                 size_t count, Make make) {
  if (!node || !graphs().valid(graph) || !graphs().validDeps(graph, deps, count))
    return kInvalidValue;
  GraphNode n;
  if (CUresult r = make(n))
    return r;
  *node = graphs().add(graph, std::move(n), deps, count);
  return kSuccess;
}

wf::rt::ExecNode *execNodeOf(CUgraphExec_st *exec, const CUgraphNode_st *node, int type) {
  if (!graphs().validExec(exec) || !node)
    return nullptr;
  wf::rt::ExecNode *e = wf::rt::Graphs::execNode(exec, node);
  return e && (type < 0 || int(e->type) == type) ? e : nullptr;
}

void setExec(wf::rt::ExecNode &e, GraphNode n) {
  n.type = e.type;
  static_cast<GraphNode &>(e) = std::move(n);
}

} // namespace

extern "C" {

CUresult cuStreamBeginCapture_v2(CUstream stream, int mode) {
  DRIVER_CALL();
  CUstream_st *s = streamOf(stream);
  if (!s)
    return kInvalidHandle;
  if (unsigned(mode) > 2) // CU_STREAM_CAPTURE_MODE_GLOBAL, THREAD_LOCAL, RELAXED
    return kInvalidValue;
  return toResult(graphs().beginCapture(s, cudaStreamCaptureMode(mode)));
}
CUresult cuStreamEndCapture(CUstream stream, CUgraph_st **graph) {
  DRIVER_CALL();
  if (!graph)
    return kInvalidValue;
  CUstream_st *s = streamOf(stream);
  if (!s)
    return kInvalidHandle;
  return toResult(graphs().endCapture(s, *graph));
}
CUresult cuStreamIsCapturing(CUstream stream, int *status) {
  DRIVER_CALL();
  if (!status)
    return kInvalidValue;
  CUstream_st *s = streamOf(stream);
  if (!s)
    return kInvalidHandle;
  *status = int(graphs().captureInfo(s).status);
  return kSuccess;
}
CUresult cuStreamGetCaptureInfo_v3(CUstream stream, int *status, unsigned long long *id,
                                   CUgraph_st **graph, CUgraphNode_st *const **deps,
                                   const cudaGraphEdgeData **edges, size_t *numDeps) {
  DRIVER_CALL();
  if (!status)
    return kInvalidValue;
  CUstream_st *s = streamOf(stream);
  if (!s)
    return kInvalidHandle;
  wf::rt::Graphs::CaptureInfo info = graphs().captureInfo(s);
  *status = int(info.status);
  if (info.status == cudaStreamCaptureStatusNone)
    return kSuccess;
  if (id)
    *id = info.id;
  if (graph)
    *graph = info.graph;
  if (deps)
    *deps = info.frontier->empty() ? nullptr : info.frontier->data();
  static const cudaGraphEdgeData kZeroEdges[64] = {};
  if (edges) {
    if (info.frontier->size() > std::size(kZeroEdges))
      return toResult(rt().notSupported("edge data of more than 64 dependencies"));
    *edges = info.frontier->empty() ? nullptr : kZeroEdges;
  }
  if (numDeps)
    *numDeps = info.frontier->size();
  return info.status == cudaStreamCaptureStatusInvalidated
             ? toResult(Error::cudaErrorStreamCaptureInvalidated)
             : kSuccess;
}

CUresult cuGraphCreate(CUgraph_st **graph, unsigned flags) {
  DRIVER_CALL();
  if (!graph || flags)
    return kInvalidValue;
  *graph = graphs().create();
  return kSuccess;
}
CUresult cuGraphDestroy(CUgraph_st *graph) {
  DRIVER_CALL();
  return toResult(graphs().destroy(graph));
}
CUresult cuGraphClone(CUgraph_st **clone, CUgraph_st *graph) {
  DRIVER_CALL();
  if (!clone || !graphs().valid(graph))
    return kInvalidValue;
  *clone = graphs().clone(graph);
  return kSuccess;
}
CUresult cuGraphNodeFindInClone(CUgraphNode_st **node, CUgraphNode_st *original,
                                CUgraph_st *clone) {
  DRIVER_CALL();
  if (!node || !original || !graphs().valid(clone))
    return kInvalidValue;
  auto it = clone->cloneOf.find(original);
  if (it == clone->cloneOf.end())
    return kInvalidValue;
  *node = it->second;
  return kSuccess;
}
CUresult cuGraphGetNodes(CUgraph_st *graph, CUgraphNode_st **nodes, size_t *count) {
  DRIVER_CALL();
  if (!graphs().valid(graph) || !count)
    return kInvalidValue;
  std::vector<CUgraphNode_st *> all;
  for (const auto &n : graph->nodes)
    all.push_back(n.get());
  wf::rt::Graphs::listOut(all, nodes, nullptr, count);
  return kSuccess;
}
CUresult cuGraphGetRootNodes(CUgraph_st *graph, CUgraphNode_st **nodes, size_t *count) {
  DRIVER_CALL();
  if (!graphs().valid(graph) || !count)
    return kInvalidValue;
  std::vector<CUgraphNode_st *> roots;
  for (const auto &n : graph->nodes)
    if (n->deps.empty())
      roots.push_back(n.get());
  wf::rt::Graphs::listOut(roots, nodes, nullptr, count);
  return kSuccess;
}
CUresult cuGraphGetEdges_v2(CUgraph_st *graph, CUgraphNode_st **from, CUgraphNode_st **to,
                            cudaGraphEdgeData *edges, size_t *count) {
  DRIVER_CALL();
  if (!graphs().valid(graph) || !count || bool(from) != bool(to))
    return kInvalidValue;
  std::vector<CUgraphNode_st *> src, dst;
  for (const auto &n : graph->nodes)
    for (CUgraphNode_st *d : n->deps) {
      src.push_back(d);
      dst.push_back(n.get());
    }
  if (from) {
    size_t want = *count;
    wf::rt::Graphs::listOut(src, from, edges, count);
    wf::rt::Graphs::listOut(dst, to, nullptr, &want);
  } else {
    *count = src.size();
  }
  return kSuccess;
}
CUresult cuGraphNodeGetDependencies_v2(CUgraphNode_st *node, CUgraphNode_st **deps,
                                       cudaGraphEdgeData *edges, size_t *count) {
  DRIVER_CALL();
  if (!graphs().validNode(node) || !count)
    return kInvalidValue;
  wf::rt::Graphs::listOut(node->deps, deps, edges, count);
  return kSuccess;
}
CUresult cuGraphNodeGetDependentNodes_v2(CUgraphNode_st *node, CUgraphNode_st **nodes,
                                         cudaGraphEdgeData *edges, size_t *count) {
  DRIVER_CALL();
  if (!graphs().validNode(node) || !count)
    return kInvalidValue;
  wf::rt::Graphs::listOut(wf::rt::Graphs::dependents(node), nodes, edges, count);
  return kSuccess;
}
CUresult cuGraphAddDependencies_v2(CUgraph_st *graph, CUgraphNode_st *const *from,
                                   CUgraphNode_st *const *to, const cudaGraphEdgeData *edges,
                                   size_t count) {
  DRIVER_CALL();
  if (!graphs().valid(graph))
    return kInvalidValue;
  if (!defaultEdges(edges, count))
    return toResult(rt().notSupported("graph edge data (ports, programmatic edges)"));
  return toResult(graphs().addEdges(graph, from, to, count));
}
CUresult cuGraphRemoveDependencies_v2(CUgraph_st *graph, CUgraphNode_st *const *from,
                                      CUgraphNode_st *const *to, const cudaGraphEdgeData *edges,
                                      size_t count) {
  DRIVER_CALL();
  if (!graphs().valid(graph))
    return kInvalidValue;
  if (!defaultEdges(edges, count))
    return toResult(rt().notSupported("graph edge data (ports, programmatic edges)"));
  return toResult(graphs().removeEdges(graph, from, to, count));
}
CUresult cuGraphDestroyNode(CUgraphNode_st *node) {
  DRIVER_CALL();
  if (!graphs().validNode(node))
    return kInvalidValue;
  graphs().destroyNode(node);
  return kSuccess;
}
CUresult cuGraphNodeGetType(CUgraphNode_st *node, int *type) {
  DRIVER_CALL();
  if (!type || !graphs().validNode(node))
    return kInvalidValue;
  *type = int(node->type);
  return kSuccess;
}
CUresult cuGraphDebugDotPrint(CUgraph_st *graph, const char *path, unsigned flags) {
  DRIVER_CALL();
  (void)flags; // verbosity: every node is printed with its kind
  if (!path || !graphs().valid(graph))
    return kInvalidValue;
  std::ofstream out(path);
  out << wf::rt::Graphs::dot(graph);
  out.close();
  return out ? kSuccess : toResult(Error::cudaErrorOperatingSystem);
}

CUresult cuGraphAddKernelNode_v2(CUgraphNode_st **node, CUgraph_st *graph,
                                 CUgraphNode_st *const *deps, size_t count,
                                 const CUDA_KERNEL_NODE_PARAMS_st *p) {
  DRIVER_CALL();
  return addNode(node, graph, deps, count, [p](GraphNode &n) { return kernelNode(p, n); });
}
CUresult cuGraphKernelNodeGetParams_v2(CUgraphNode_st *node, CUDA_KERNEL_NODE_PARAMS_st *p) {
  DRIVER_CALL();
  if (!p || !nodeOf(node, cudaGraphNodeTypeKernel))
    return kInvalidValue;
  // The argument array is the node's own (valid while the node's parameters stay as they are).
  static thread_local std::vector<void *> argPtrs;
  argPtrs.clear();
  for (auto &a : node->args)
    argPtrs.push_back(a.data());
  *p = CUDA_KERNEL_NODE_PARAMS_st{};
  p->func = static_cast<CUfunction>(const_cast<void *>(node->func));
  p->gridDimX = node->grid.x, p->gridDimY = node->grid.y, p->gridDimZ = node->grid.z;
  p->blockDimX = node->block.x, p->blockDimY = node->block.y, p->blockDimZ = node->block.z;
  p->sharedMemBytes = unsigned(node->shared);
  p->kernelParams = argPtrs.data();
  p->ctx = &gPrimary;
  return kSuccess;
}
CUresult cuGraphKernelNodeSetParams_v2(CUgraphNode_st *node, const CUDA_KERNEL_NODE_PARAMS_st *p) {
  DRIVER_CALL();
  if (!nodeOf(node, cudaGraphNodeTypeKernel))
    return kInvalidValue;
  return kernelNode(p, *node);
}
CUresult cuGraphAddMemsetNode(CUgraphNode_st **node, CUgraph_st *graph,
                              CUgraphNode_st *const *deps, size_t count, const cudaMemsetParams *p,
                              CUcontext ctx) {
  DRIVER_CALL();
  if (ctx && ctx != &gPrimary)
    return kInvalidContext;
  return addNode(node, graph, deps, count, [p](GraphNode &n) { return memsetNode(p, n); });
}
CUresult cuGraphMemsetNodeGetParams(CUgraphNode_st *node, cudaMemsetParams *p) {
  DRIVER_CALL();
  if (!p || !nodeOf(node, cudaGraphNodeTypeMemset))
    return kInvalidValue;
  *p = node->memset;
  return kSuccess;
}
CUresult cuGraphMemsetNodeSetParams(CUgraphNode_st *node, const cudaMemsetParams *p) {
  DRIVER_CALL();
  if (!nodeOf(node, cudaGraphNodeTypeMemset))
    return kInvalidValue;
  return memsetNode(p, *node);
}
CUresult cuGraphAddHostNode(CUgraphNode_st **node, CUgraph_st *graph, CUgraphNode_st *const *deps,
                            size_t count, const cudaHostNodeParams *p) {
  DRIVER_CALL();
  return addNode(node, graph, deps, count, [p](GraphNode &n) { return hostNode(p, n); });
}
CUresult cuGraphHostNodeGetParams(CUgraphNode_st *node, cudaHostNodeParams *p) {
  DRIVER_CALL();
  if (!p || !nodeOf(node, cudaGraphNodeTypeHost))
    return kInvalidValue;
  *p = cudaHostNodeParams{node->hostFn, node->userData};
  return kSuccess;
}
CUresult cuGraphHostNodeSetParams(CUgraphNode_st *node, const cudaHostNodeParams *p) {
  DRIVER_CALL();
  if (!nodeOf(node, cudaGraphNodeTypeHost))
    return kInvalidValue;
  return hostNode(p, *node);
}
CUresult cuGraphAddEmptyNode(CUgraphNode_st **node, CUgraph_st *graph, CUgraphNode_st *const *deps,
                             size_t count) {
  DRIVER_CALL();
  return addNode(node, graph, deps, count, [](GraphNode &) { return kSuccess; });
}
CUresult cuGraphAddChildGraphNode(CUgraphNode_st **node, CUgraph_st *graph,
                                  CUgraphNode_st *const *deps, size_t count, CUgraph_st *child) {
  DRIVER_CALL();
  if (!node || !graphs().valid(graph) || !graphs().valid(child) || child == graph ||
      !graphs().validDeps(graph, deps, count))
    return kInvalidValue;
  *node = graphs().addChild(graph, child, deps, count);
  return kSuccess;
}
CUresult cuGraphChildGraphNodeGetGraph(CUgraphNode_st *node, CUgraph_st **graph) {
  DRIVER_CALL();
  if (!graph || !nodeOf(node, cudaGraphNodeTypeGraph))
    return kInvalidValue;
  *graph = node->childGraph.get();
  return kSuccess;
}
CUresult cuGraphAddEventRecordNode(CUgraphNode_st **node, CUgraph_st *graph,
                                   CUgraphNode_st *const *deps, size_t count, CUevent event) {
  DRIVER_CALL();
  if (!rt().isEvent(event))
    return kInvalidHandle;
  return addNode(node, graph, deps, count, [event](GraphNode &n) {
    n.type = cudaGraphNodeTypeEventRecord;
    n.event = event;
    return kSuccess;
  });
}
CUresult cuGraphAddEventWaitNode(CUgraphNode_st **node, CUgraph_st *graph,
                                 CUgraphNode_st *const *deps, size_t count, CUevent event) {
  DRIVER_CALL();
  if (!rt().isEvent(event))
    return kInvalidHandle;
  return addNode(node, graph, deps, count, [event](GraphNode &n) {
    n.type = cudaGraphNodeTypeWaitEvent;
    n.event = event;
    return kSuccess;
  });
}
static CUresult eventOfNode(CUgraphNode_st *node, CUevent *event, cudaGraphNodeType type) {
  DRIVER_CALL();
  if (!event || !nodeOf(node, type))
    return kInvalidValue;
  *event = node->event;
  return kSuccess;
}
static CUresult setEventOfNode(CUgraphNode_st *node, CUevent event, cudaGraphNodeType type) {
  DRIVER_CALL();
  if (!nodeOf(node, type))
    return kInvalidValue;
  if (!rt().isEvent(event))
    return kInvalidHandle;
  node->event = event;
  return kSuccess;
}
CUresult cuGraphEventRecordNodeGetEvent(CUgraphNode_st *node, CUevent *event) {
  return eventOfNode(node, event, cudaGraphNodeTypeEventRecord);
}
CUresult cuGraphEventRecordNodeSetEvent(CUgraphNode_st *node, CUevent event) {
  return setEventOfNode(node, event, cudaGraphNodeTypeEventRecord);
}
CUresult cuGraphEventWaitNodeGetEvent(CUgraphNode_st *node, CUevent *event) {
  return eventOfNode(node, event, cudaGraphNodeTypeWaitEvent);
}
CUresult cuGraphEventWaitNodeSetEvent(CUgraphNode_st *node, CUevent event) {
  return setEventOfNode(node, event, cudaGraphNodeTypeWaitEvent);
}

CUresult cuGraphInstantiateWithFlags(CUgraphExec_st **exec, CUgraph_st *graph,
                                     unsigned long long flags) {
  DRIVER_CALL();
  if (!exec || !graphs().valid(graph) || flags > 0xf)
    return kInvalidValue;
  return toResult(graphs().instantiate(graph, flags, *exec));
}
CUresult cuGraphInstantiateWithParams(CUgraphExec_st **exec, CUgraph_st *graph,
                                      CUDA_GRAPH_INSTANTIATE_PARAMS_st *params) {
  DRIVER_CALL();
  if (!exec || !params || !graphs().valid(graph) || params->flags > 0xf) {
    if (params)
      params->result_out = 1; // CUDA_GRAPH_INSTANTIATE_ERROR
    return kInvalidValue;
  }
  if ((params->flags & 2) && !streamOf(params->hUploadStream))
    return kInvalidHandle;
  const CUgraphNode_st *bad = nullptr;
  Error e = graphs().instantiate(graph, params->flags, *exec, &bad);
  params->hErrNode_out = const_cast<CUgraphNode_st *>(bad);
  params->result_out = e == Error::cudaSuccess ? 0 : 2; // SUCCESS, INVALID_STRUCTURE
  return toResult(e);
}
CUresult cuGraphExecGetFlags(CUgraphExec_st *exec, unsigned long long *flags) {
  DRIVER_CALL();
  if (!flags || !graphs().validExec(exec))
    return kInvalidValue;
  *flags = exec->flags;
  return kSuccess;
}
CUresult cuGraphExecDestroy(CUgraphExec_st *exec) {
  DRIVER_CALL();
  return toResult(graphs().destroyExec(exec));
}
CUresult cuGraphUpload(CUgraphExec_st *exec, CUstream stream) {
  DRIVER_CALL();
  if (!graphs().validExec(exec))
    return kInvalidValue;
  // An executable graph lives in host memory and its launch submits its nodes: nothing to upload.
  return streamOf(stream) ? kSuccess : kInvalidHandle;
}
CUresult cuGraphLaunch(CUgraphExec_st *exec, CUstream stream) {
  DRIVER_CALL();
  if (!graphs().validExec(exec))
    return kInvalidValue;
  CUstream_st *s = streamOf(stream);
  if (!s)
    return kInvalidHandle;
  if (s->capture)
    return toResult(Error::cudaErrorStreamCaptureUnsupported);
  return toResult(graphs().launch(rt(), exec, s));
}
CUresult cuGraphNodeSetEnabled(CUgraphExec_st *exec, CUgraphNode_st *node, unsigned enabled) {
  DRIVER_CALL();
  wf::rt::ExecNode *e = execNodeOf(exec, node, -1);
  if (!e || enabled > 1 ||
      (e->type != cudaGraphNodeTypeKernel && e->type != cudaGraphNodeTypeMemcpy &&
       e->type != cudaGraphNodeTypeMemset))
    return kInvalidValue;
  e->enabled = enabled != 0;
  return kSuccess;
}
CUresult cuGraphNodeGetEnabled(CUgraphExec_st *exec, CUgraphNode_st *node, unsigned *enabled) {
  DRIVER_CALL();
  wf::rt::ExecNode *e = execNodeOf(exec, node, -1);
  if (!e || !enabled ||
      (e->type != cudaGraphNodeTypeKernel && e->type != cudaGraphNodeTypeMemcpy &&
       e->type != cudaGraphNodeTypeMemset))
    return kInvalidValue;
  *enabled = e->enabled ? 1 : 0;
  return kSuccess;
}
CUresult cuGraphExecKernelNodeSetParams_v2(CUgraphExec_st *exec, CUgraphNode_st *node,
                                           const CUDA_KERNEL_NODE_PARAMS_st *p) {
  DRIVER_CALL();
  wf::rt::ExecNode *e = execNodeOf(exec, node, cudaGraphNodeTypeKernel);
  if (!e)
    return kInvalidValue;
  GraphNode n;
  if (CUresult r = kernelNode(p, n))
    return r;
  setExec(*e, std::move(n));
  return kSuccess;
}
CUresult cuGraphExecMemsetNodeSetParams(CUgraphExec_st *exec, CUgraphNode_st *node,
                                        const cudaMemsetParams *p, CUcontext ctx) {
  DRIVER_CALL();
  if (ctx && ctx != &gPrimary)
    return kInvalidContext;
  wf::rt::ExecNode *e = execNodeOf(exec, node, cudaGraphNodeTypeMemset);
  if (!e)
    return kInvalidValue;
  GraphNode n;
  if (CUresult r = memsetNode(p, n))
    return r;
  setExec(*e, std::move(n));
  return kSuccess;
}
CUresult cuGraphExecHostNodeSetParams(CUgraphExec_st *exec, CUgraphNode_st *node,
                                      const cudaHostNodeParams *p) {
  DRIVER_CALL();
  wf::rt::ExecNode *e = execNodeOf(exec, node, cudaGraphNodeTypeHost);
  if (!e)
    return kInvalidValue;
  GraphNode n;
  if (CUresult r = hostNode(p, n))
    return r;
  setExec(*e, std::move(n));
  return kSuccess;
}
static CUresult setExecEvent(CUgraphExec_st *exec, CUgraphNode_st *node, CUevent event,
                             cudaGraphNodeType type) {
  DRIVER_CALL();
  wf::rt::ExecNode *e = execNodeOf(exec, node, type);
  if (!e)
    return kInvalidValue;
  if (!rt().isEvent(event))
    return kInvalidHandle;
  e->event = event;
  return kSuccess;
}
CUresult cuGraphExecEventRecordNodeSetEvent(CUgraphExec_st *exec, CUgraphNode_st *node,
                                            CUevent event) {
  return setExecEvent(exec, node, event, cudaGraphNodeTypeEventRecord);
}
CUresult cuGraphExecEventWaitNodeSetEvent(CUgraphExec_st *exec, CUgraphNode_st *node,
                                          CUevent event) {
  return setExecEvent(exec, node, event, cudaGraphNodeTypeWaitEvent);
}
CUresult cuGraphExecChildGraphNodeSetParams(CUgraphExec_st *exec, CUgraphNode_st *node,
                                            CUgraph_st *child) {
  DRIVER_CALL();
  if (!graphs().validExec(exec) || !nodeOf(node, cudaGraphNodeTypeGraph) || !graphs().valid(child))
    return kInvalidValue;
  return toResult(graphs().updateChild(exec, node, child));
}
CUresult cuGraphExecUpdate_v2(CUgraphExec_st *exec, CUgraph_st *graph,
                              cudaGraphExecUpdateResultInfo *info) {
  DRIVER_CALL();
  if (!info || !graphs().validExec(exec) || !graphs().valid(graph))
    return kInvalidValue;
  const CUgraphNode_st *bad = nullptr;
  wf::rt::UpdateResult r = graphs().update(exec, graph, &bad);
  info->result = cudaGraphExecUpdateResult(int(r));
  info->errorNode = const_cast<CUgraphNode_st *>(bad);
  info->errorFromNode = nullptr;
  return r == wf::rt::UpdateResult::Success ? kSuccess
                                            : toResult(Error::cudaErrorGraphExecUpdateFailure);
}


// --- pointer attributes, address ranges, 2D and 3D copies --------------------------------------

struct CUDA_MEMCPY2D_st {
  size_t srcXInBytes, srcY;
  int srcMemoryType; ///< CUmemorytype: 1 host, 2 device, 3 array, 4 unified
  const void *srcHost;
  CUdeviceptr srcDevice;
  void *srcArray;
  size_t srcPitch;
  size_t dstXInBytes, dstY;
  int dstMemoryType;
  void *dstHost;
  CUdeviceptr dstDevice;
  void *dstArray;
  size_t dstPitch;
  size_t WidthInBytes, Height;
};
struct CUDA_MEMCPY3D_st {
  size_t srcXInBytes, srcY, srcZ, srcLOD;
  int srcMemoryType;
  const void *srcHost;
  CUdeviceptr srcDevice;
  void *srcArray;
  void *reserved0;
  size_t srcPitch, srcHeight;
  size_t dstXInBytes, dstY, dstZ, dstLOD;
  int dstMemoryType;
  void *dstHost;
  CUdeviceptr dstDevice;
  void *dstArray;
  void *reserved1;
  size_t dstPitch, dstHeight;
  size_t WidthInBytes, Height, Depth;
};

} // extern "C"

namespace {

/// What the common layer knows of `address`: CUDA's view of one pointer.
struct PointerInfo {
  int memoryType = 0; ///< CUmemorytype; 0: not a CUDA pointer
  bool managed = false;
  uint64_t device = 0, host = 0, base = 0, size = 0;
};

PointerInfo pointerInfo(uint64_t address) {
  PointerInfo p;
  uint64_t base = 0, size = 0;
  const void *hostPtr = reinterpret_cast<const void *>(address);
  if (rt().deviceAllocation(address, base, size)) {
    p.managed = rt().isManaged(address);
    p.memoryType = 2; // CU_MEMORYTYPE_DEVICE (managed memory too, as CUDA reports it)
    p.device = address;
    p.host = p.managed ? address : 0;
    p.base = base;
    p.size = size;
  } else if (auto h = rt().findHost(hostPtr, &base)) {
    p.memoryType = 1; // CU_MEMORYTYPE_HOST
    p.host = address;
    p.device = h->device ? h->device + (address - base) : rt().hostToDevice(hostPtr);
    p.base = base;
    p.size = h->size;
  }
  return p;
}

/// Addresses whose CU_POINTER_ATTRIBUTE_SYNC_MEMOPS was set (every copy here is synchronous with
/// respect to the device already; the attribute is kept for the query).
std::set<uint64_t> gSyncMemops;

/// One attribute into `data` (its size by the attribute's type).
CUresult pointerAttribute(void *data, int attribute, const PointerInfo &p) {
  auto put = [data](auto value) {
    std::memcpy(data, &value, sizeof value);
    return kSuccess;
  };
  switch (attribute) { // CUpointer_attribute
  case 1: // CONTEXT
    return put(static_cast<CUcontext>(&gPrimary));
  case 2: // MEMORY_TYPE
    return put(unsigned(p.memoryType));
  case 3: // DEVICE_POINTER
    if (!p.device)
      return kInvalidValue;
    return put(CUdeviceptr(p.device));
  case 4: // HOST_POINTER
    if (!p.host)
      return kInvalidValue;
    return put(reinterpret_cast<void *>(p.host));
  case 6: // SYNC_MEMOPS
    return put(int(gSyncMemops.count(p.base) != 0));
  case 8: // IS_MANAGED
    return put(int(p.managed));
  case 9: // DEVICE_ORDINAL
    return put(int(0));
  case 10: // IS_LEGACY_CUDA_IPC_CAPABLE: no IPC here
    return put(int(0));
  case 11: // RANGE_START_ADDR
    return put(CUdeviceptr(p.base));
  case 12: // RANGE_SIZE
    return put(size_t(p.size));
  case 13: // MAPPED
    return put(int(1));
  case 14: // ALLOWED_HANDLE_TYPES: CU_MEM_HANDLE_TYPE_NONE (no shareable handles)
    return put(0ull);
  case 15: // IS_GPU_DIRECT_RDMA_CAPABLE
    return put(int(0));
  case 16: // ACCESS_FLAGS: CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE
    return put(int(3));
  case 21: // IS_HW_DECOMPRESS_CAPABLE
    return put(int(0));
  case 5:  // P2P_TOKENS (GPUDirect RDMA)
  case 7:  // BUFFER_ID
  case 17: // MEMPOOL_HANDLE
  case 18: // MAPPING_SIZE
  case 19: // MAPPING_BASE_ADDR
  case 20: // MEMORY_BLOCK_ID
    return toResult(rt().notSupported("this CU_POINTER_ATTRIBUTE"));
  default:
    return kInvalidValue;
  }
}

/// One side of a 2D/3D copy: its address and whether it is device memory.
bool copySide(int type, const void *host, CUdeviceptr device, const void *array, uint64_t &base,
              int &kindBit, CUresult &error) {
  switch (type) {
  case 1: // CU_MEMORYTYPE_HOST
    base = reinterpret_cast<uint64_t>(host);
    kindBit = 0;
    return true;
  case 2: // CU_MEMORYTYPE_DEVICE
    base = device;
    kindBit = 1;
    return true;
  case 4: // CU_MEMORYTYPE_UNIFIED: the pointer is in srcDevice/dstDevice; the kind inferred
    base = device;
    kindBit = 2;
    return true;
  case 3: // CU_MEMORYTYPE_ARRAY
    (void)array;
    error = toResult(rt().notSupported("driver API copies with CUDA arrays (cuArrayCreate is not written yet)"));
    return false;
  default:
    error = kInvalidValue;
    return false;
  }
}

/// cuMemcpy3D's work (2D copies are one slice): row by row in `s`'s order, or captured as a
/// memcpy node when `s` is capturing.
CUresult copy3D(const CUDA_MEMCPY3D_st *p, CUstream s, bool async) {
  if (!p)
    return kInvalidValue;
  uint64_t src = 0, dst = 0;
  int srcBit = 0, dstBit = 0;
  CUresult error = kSuccess;
  if (!copySide(p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, src, srcBit, error) ||
      !copySide(p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, dst, dstBit, error))
    return error;
  if (!src || !dst)
    return kInvalidValue;
  size_t width = p->WidthInBytes, height = p->Height, depth = p->Depth;
  // A pitch narrower than the rows (of several rows), or a slice shorter than its rows (of
  // several slices), is invalid.
  if ((height > 1 || depth > 1) &&
      (p->srcXInBytes + width > p->srcPitch || p->dstXInBytes + width > p->dstPitch))
    return kInvalidValue;
  if (depth > 1 && (p->srcY + height > p->srcHeight || p->dstY + height > p->dstHeight))
    return kInvalidValue;
  Runtime::CopyKind kind = Runtime::CopyKind::Default;
  if (srcBit != 2 && dstBit != 2)
    kind = Runtime::CopyKind(srcBit * 2 + dstBit); // HtoH 0, HtoD 1, DtoH 2, DtoD 3
  CUstream_st *stream = streamOf(s);
  if (!stream)
    return kInvalidHandle;
  if (!width || !height || !depth)
    return kSuccess;
  if (stream->capture) {
    if (!async)
      return toResult(Error::cudaErrorStreamCaptureUnsupported);
    wf::rt::GraphNode n;
    n.type = cudaGraphNodeTypeMemcpy;
    cudaMemcpy3DParms &c = n.copy;
    c.srcPtr = cudaPitchedPtr{reinterpret_cast<void *>(src), p->srcPitch ? p->srcPitch : width,
                              width, p->srcHeight ? p->srcHeight : height};
    c.dstPtr = cudaPitchedPtr{reinterpret_cast<void *>(dst), p->dstPitch ? p->dstPitch : width,
                              width, p->dstHeight ? p->dstHeight : height};
    c.srcPos = cudaPos{p->srcXInBytes, p->srcY, p->srcZ};
    c.dstPos = cudaPos{p->dstXInBytes, p->dstY, p->dstZ};
    c.extent = cudaExtent{width, height, depth};
    c.kind = cudaMemcpyKind(int(kind));
    return toResult(wf::rt::graphs().capture(stream, std::move(n)));
  }
  for (size_t z = 0; z < depth; ++z)
    for (size_t y = 0; y < height; ++y) {
      uint64_t from = src + ((p->srcZ + z) * p->srcHeight + p->srcY + y) * p->srcPitch + p->srcXInBytes;
      uint64_t to = dst + ((p->dstZ + z) * p->dstHeight + p->dstY + y) * p->dstPitch + p->dstXInBytes;
      if (Error e = rt().memcpy(reinterpret_cast<void *>(to), reinterpret_cast<const void *>(from),
                                width, kind, stream, true);
          e != Error::cudaSuccess)
        return toResult(e);
    }
  // The synchronous forms return when the copy is done.
  return async ? kSuccess : toResult(rt().synchronize(stream));
}

CUresult copy2D(const CUDA_MEMCPY2D_st *p, CUstream s, bool async) {
  if (!p)
    return kInvalidValue;
  CUDA_MEMCPY3D_st q{};
  q.srcXInBytes = p->srcXInBytes, q.srcY = p->srcY, q.srcMemoryType = p->srcMemoryType;
  q.srcHost = p->srcHost, q.srcDevice = p->srcDevice, q.srcArray = p->srcArray;
  q.srcPitch = p->srcPitch, q.srcHeight = p->srcY + p->Height;
  q.dstXInBytes = p->dstXInBytes, q.dstY = p->dstY, q.dstMemoryType = p->dstMemoryType;
  q.dstHost = p->dstHost, q.dstDevice = p->dstDevice, q.dstArray = p->dstArray;
  q.dstPitch = p->dstPitch, q.dstHeight = p->dstY + p->Height;
  q.WidthInBytes = p->WidthInBytes, q.Height = p->Height, q.Depth = 1;
  if (p->Height > 1 && (p->srcXInBytes + p->WidthInBytes > p->srcPitch ||
                        p->dstXInBytes + p->WidthInBytes > p->dstPitch))
    return kInvalidValue;
  return copy3D(&q, s, async);
}

} // namespace

extern "C" {

CUresult cuPointerGetAttribute(void *data, int attribute, CUdeviceptr ptr) {
  CONTEXT_CALL();
  if (!data)
    return kInvalidValue;
  PointerInfo p = pointerInfo(ptr);
  if (!p.memoryType)
    return kInvalidValue; // not memory CUDA knows
  return pointerAttribute(data, attribute, p);
}
CUresult cuPointerGetAttributes(unsigned count, int *attributes, void **data, CUdeviceptr ptr) {
  CONTEXT_CALL();
  if (!count || !attributes || !data)
    return kInvalidValue;
  // Unlike cuPointerGetAttribute, memory CUDA does not know is no error: its attributes read as
  // zero (the context as null, the memory type as 0).
  PointerInfo p = pointerInfo(ptr);
  for (unsigned i = 0; i < count; ++i) {
    if (!data[i])
      return kInvalidValue;
    if (!p.memoryType && attributes[i] >= 1 && attributes[i] <= 21) {
      size_t bytes = attributes[i] == 1 || attributes[i] == 3 || attributes[i] == 4 ||
                             attributes[i] == 11 || attributes[i] == 12 || attributes[i] == 14 ||
                             attributes[i] == 17 || attributes[i] == 18 || attributes[i] == 19 ||
                             attributes[i] == 20 || attributes[i] == 7
                         ? 8
                         : 4;
      std::memset(data[i], 0, bytes);
      continue;
    }
    if (CUresult r = pointerAttribute(data[i], attributes[i], p))
      return r;
  }
  return kSuccess;
}
CUresult cuPointerSetAttribute(const void *value, int attribute, CUdeviceptr ptr) {
  CONTEXT_CALL();
  if (!value)
    return kInvalidValue;
  if (attribute != 6) // only CU_POINTER_ATTRIBUTE_SYNC_MEMOPS may be set
    return kInvalidValue;
  PointerInfo p = pointerInfo(ptr);
  if (p.memoryType != 2)
    return kInvalidValue;
  if (*static_cast<const int *>(value))
    gSyncMemops.insert(p.base);
  else
    gSyncMemops.erase(p.base);
  return kSuccess;
}
CUresult cuMemGetAddressRange_v2(CUdeviceptr *base, size_t *size, CUdeviceptr ptr) {
  CONTEXT_CALL();
  uint64_t b = 0, s = 0;
  if (!rt().deviceAllocation(ptr, b, s))
    return kNotFound;
  if (base)
    *base = b;
  if (size)
    *size = s;
  return kSuccess;
}
CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D_st *p) {
  CONTEXT_CALL();
  return copy2D(p, nullptr, false);
}
CUresult cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D_st *p) {
  CONTEXT_CALL();
  return copy2D(p, nullptr, false); // no alignment rule here to relax
}
CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D_st *p, CUstream s) {
  CONTEXT_CALL();
  return copy2D(p, s, true);
}
CUresult cuMemcpy3D_v2(const CUDA_MEMCPY3D_st *p) {
  CONTEXT_CALL();
  return copy3D(p, nullptr, false);
}
CUresult cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D_st *p, CUstream s) {
  CONTEXT_CALL();
  return copy3D(p, s, true);
}


// --- launch variants, parameter layout, context preferences ---------------------------------------

struct CUlaunchConfig_st { // CUlaunchConfig
  unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
  CUstream hStream;
  cudaLaunchAttribute *attrs; ///< CUlaunchAttribute has cudaLaunchAttribute's layout and ids
  unsigned numAttrs;
};

CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
                                   unsigned bx, unsigned by, unsigned bz, unsigned sharedBytes,
                                   CUstream stream, void **kernelParams) {
  DRIVER_CALL();
  return launchKernel(f, Dim3{gx, gy, gz}, Dim3{bx, by, bz}, sharedBytes, streamOf(stream),
                      kernelParams, nullptr, true);
}
CUresult cuLaunchKernelEx(const CUlaunchConfig_st *config, CUfunction f, void **kernelParams,
                          void **extra) {
  DRIVER_CALL();
  if (!config || (config->numAttrs && !config->attrs))
    return kInvalidValue;
  bool cooperative = false;
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const cudaLaunchAttribute &a = config->attrs[i];
    switch (int(a.id)) {
    case 2: // CU_LAUNCH_ATTRIBUTE_COOPERATIVE
      cooperative = a.val.cooperative != 0;
      break;
    case 4: { // CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION: thread block clusters are not modelled
      unsigned dims[3];
      std::memcpy(dims, a.val.pad, sizeof dims);
      if (dims[0] * dims[1] * dims[2] > 1)
        return toResult(rt().notSupported("thread block clusters"));
      break;
    }
    default: // scheduling and caching hints (priority, access policy, carveout, ...)
      break;
    }
  }
  return launchKernel(f, Dim3{config->gridDimX, config->gridDimY, config->gridDimZ},
                      Dim3{config->blockDimX, config->blockDimY, config->blockDimZ},
                      config->sharedMemBytes, streamOf(config->hStream), kernelParams, extra,
                      cooperative);
}
CUresult cuFuncGetParamInfo(CUfunction f, size_t index, size_t *offset, size_t *size) {
  DRIVER_CALL();
  if (!f || !liveModule(f->module))
    return kInvalidHandle;
  wf::rt::FunctionRecord *fn = rt().findFunction(f);
  const wf::wfx::Kernel *k = fn ? rt().kernelOf(*fn) : nullptr;
  if (!k)
    return kInvalidHandle;
  if (index >= k->params.size())
    return kInvalidValue;
  if (offset)
    *offset = k->params[index].offset;
  if (size)
    *size = k->params[index].size;
  return kSuccess;
}
CUresult cuStreamGetAttribute(CUstream stream, int attr, void *value) {
  DRIVER_CALL();
  CUstream_st *s = streamOf(stream);
  if (!s)
    return kInvalidHandle;
  return toResult(wf::cudart::streamAttribute(s, attr, value));
}
CUresult cuStreamSetAttribute(CUstream stream, int attr, const void *value) {
  DRIVER_CALL();
  CUstream_st *s = streamOf(stream);
  if (!s)
    return kInvalidHandle;
  return toResult(wf::cudart::setStreamAttribute(s, attr, value));
}
CUresult cuStreamCopyAttributes(CUstream dst, CUstream src) {
  DRIVER_CALL();
  CUstream_st *d = streamOf(dst), *s = streamOf(src);
  if (!d || !s)
    return kInvalidHandle;
  return toResult(wf::cudart::copyStreamAttributes(d, s));
}
CUresult cuDeviceGetByPCIBusId(CUdevice *dev, const char *pciBusId) {
  DRIVER_CALL();
  if (!dev || !pciBusId)
    return kInvalidValue;
  return toResult(wf::cudart::deviceByPciBusId(pciBusId, *dev));
}
CUresult cuModuleGetFunctionCount(unsigned *count, CUmodule module) {
  DRIVER_CALL();
  if (!count)
    return kInvalidValue;
  CUmod_st *m = liveModule(module);
  if (!m)
    return kInvalidHandle;
  *count = unsigned(m->record->image.kernels.size());
  return kSuccess;
}
CUresult cuModuleEnumerateFunctions(CUfunction *functions, unsigned count, CUmodule module) {
  DRIVER_CALL();
  if (!functions)
    return kInvalidValue;
  CUmod_st *m = liveModule(module);
  if (!m)
    return kInvalidHandle;
  // The first `count` kernels in the module's order, as cuModuleGetFunction's handles.
  const auto &kernels = m->record->image.kernels;
  for (unsigned i = 0; i < count && i < kernels.size(); ++i)
    if (CUresult r = cuModuleGetFunction(&functions[i], module, kernels[i].name.c_str()))
      return r;
  return kSuccess;
}
CUresult cuModuleGetLoadingMode(int *mode) {
  DRIVER_CALL();
  if (!mode)
    return kInvalidValue;
  *mode = 1; // CU_MODULE_EAGER_LOADING: cuModuleLoadData compiles the whole module at once
  return kSuccess;
}
CUresult cuCtxGetCacheConfig(int *config) {
  CONTEXT_CALL();
  if (!config)
    return kInvalidValue;
  *config = rt().cacheConfig();
  return kSuccess;
}
CUresult cuCtxSetCacheConfig(int config) {
  CONTEXT_CALL();
  if (unsigned(config) > 3) // CU_FUNC_CACHE_PREFER_NONE .. PREFER_EQUAL
    return kInvalidValue;
  rt().setCacheConfig(config); // a preference: there is no L1/shared split to choose
  return kSuccess;
}
CUresult cuCtxGetSharedMemConfig(int *config) {
  CONTEXT_CALL();
  if (!config)
    return kInvalidValue;
  *config = 1; // CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE: the banks are 4 bytes wide
  return kSuccess;
}
CUresult cuCtxSetSharedMemConfig(int config) {
  CONTEXT_CALL();
  return unsigned(config) > 2 ? kInvalidValue : kSuccess; // the bank width is fixed
}

// --- cuda.h's CUDA_API_PER_THREAD_DEFAULT_STREAM: the same calls, the null stream the thread's ---
#define PER_THREAD(name, suffix, params, args)                                                     \
  CUresult name##suffix params {                                                                   \
    PerThreadDefault perThread;                                                                    \
    return name args;                                                                              \
  }
PER_THREAD(cuStreamBeginCapture_v2, _ptsz, (CUstream t, int m), (t, m))
PER_THREAD(cuStreamEndCapture, _ptsz, (CUstream t, CUgraph_st **g), (t, g))
PER_THREAD(cuStreamIsCapturing, _ptsz, (CUstream t, int *c), (t, c))
PER_THREAD(cuStreamGetCaptureInfo_v3, _ptsz, (CUstream t, int *c, unsigned long long *i, CUgraph_st **g, CUgraphNode_st *const **d, const cudaGraphEdgeData **x, size_t *n), (t, c, i, g, d, x, n))
PER_THREAD(cuGraphLaunch, _ptsz, (CUgraphExec_st *g, CUstream t), (g, t))
PER_THREAD(cuGraphUpload, _ptsz, (CUgraphExec_st *g, CUstream t), (g, t))
PER_THREAD(cuGraphInstantiateWithParams, _ptsz, (CUgraphExec_st **e, CUgraph_st *g, CUDA_GRAPH_INSTANTIATE_PARAMS_st *p), (e, g, p))
PER_THREAD(cuMemcpy2D_v2, _ptds, (const CUDA_MEMCPY2D_st *p), (p))
PER_THREAD(cuMemcpy2DUnaligned_v2, _ptds, (const CUDA_MEMCPY2D_st *p), (p))
PER_THREAD(cuMemcpy2DAsync_v2, _ptsz, (const CUDA_MEMCPY2D_st *p, CUstream t), (p, t))
PER_THREAD(cuMemcpy3D_v2, _ptds, (const CUDA_MEMCPY3D_st *p), (p))
PER_THREAD(cuMemcpy3DAsync_v2, _ptsz, (const CUDA_MEMCPY3D_st *p, CUstream t), (p, t))
PER_THREAD(cuLaunchCooperativeKernel, _ptsz, (CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned sh, CUstream t, void **a), (f, gx, gy, gz, bx, by, bz, sh, t, a))
PER_THREAD(cuLaunchKernelEx, _ptsz, (const CUlaunchConfig_st *c, CUfunction f, void **a, void **x), (c, f, a, x))
PER_THREAD(cuStreamGetAttribute, _ptsz, (CUstream t, int a, void *v), (t, a, v))
PER_THREAD(cuStreamSetAttribute, _ptsz, (CUstream t, int a, const void *v), (t, a, v))
PER_THREAD(cuStreamCopyAttributes, _ptsz, (CUstream d, CUstream s), (d, s))
PER_THREAD(cuMemcpy, _ptds, (CUdeviceptr d, CUdeviceptr s, size_t n), (d, s, n))
PER_THREAD(cuMemcpyAsync, _ptsz, (CUdeviceptr d, CUdeviceptr s, size_t n, CUstream t), (d, s, n, t))
PER_THREAD(cuMemcpyPeer, _ptds, (CUdeviceptr d, CUcontext dc, CUdeviceptr s, CUcontext sc, size_t n), (d, dc, s, sc, n))
PER_THREAD(cuMemcpyPeerAsync, _ptsz, (CUdeviceptr d, CUcontext dc, CUdeviceptr s, CUcontext sc, size_t n, CUstream t), (d, dc, s, sc, n, t))
PER_THREAD(cuMemcpyHtoD_v2, _ptds, (CUdeviceptr d, const void *s, size_t n), (d, s, n))
PER_THREAD(cuMemcpyDtoH_v2, _ptds, (void *d, CUdeviceptr s, size_t n), (d, s, n))
PER_THREAD(cuMemcpyDtoD_v2, _ptds, (CUdeviceptr d, CUdeviceptr s, size_t n), (d, s, n))
PER_THREAD(cuMemcpyHtoDAsync_v2, _ptsz, (CUdeviceptr d, const void *s, size_t n, CUstream t), (d, s, n, t))
PER_THREAD(cuMemcpyDtoHAsync_v2, _ptsz, (void *d, CUdeviceptr s, size_t n, CUstream t), (d, s, n, t))
PER_THREAD(cuMemcpyDtoDAsync_v2, _ptsz, (CUdeviceptr d, CUdeviceptr s, size_t n, CUstream t), (d, s, n, t))
PER_THREAD(cuMemsetD8_v2, _ptds, (CUdeviceptr d, unsigned char v, size_t n), (d, v, n))
PER_THREAD(cuMemsetD16_v2, _ptds, (CUdeviceptr d, unsigned short v, size_t n), (d, v, n))
PER_THREAD(cuMemsetD32_v2, _ptds, (CUdeviceptr d, unsigned v, size_t n), (d, v, n))
PER_THREAD(cuMemsetD8Async, _ptsz, (CUdeviceptr d, unsigned char v, size_t n, CUstream t), (d, v, n, t))
PER_THREAD(cuMemsetD16Async, _ptsz, (CUdeviceptr d, unsigned short v, size_t n, CUstream t), (d, v, n, t))
PER_THREAD(cuMemsetD32Async, _ptsz, (CUdeviceptr d, unsigned v, size_t n, CUstream t), (d, v, n, t))
PER_THREAD(cuMemsetD2D8_v2, _ptds, (CUdeviceptr d, size_t p, unsigned char v, size_t w, size_t h), (d, p, v, w, h))
PER_THREAD(cuMemsetD2D16_v2, _ptds, (CUdeviceptr d, size_t p, unsigned short v, size_t w, size_t h), (d, p, v, w, h))
PER_THREAD(cuMemsetD2D32_v2, _ptds, (CUdeviceptr d, size_t p, unsigned v, size_t w, size_t h), (d, p, v, w, h))
PER_THREAD(cuMemsetD2D8Async, _ptsz, (CUdeviceptr d, size_t p, unsigned char v, size_t w, size_t h, CUstream t), (d, p, v, w, h, t))
PER_THREAD(cuMemsetD2D16Async, _ptsz, (CUdeviceptr d, size_t p, unsigned short v, size_t w, size_t h, CUstream t), (d, p, v, w, h, t))
PER_THREAD(cuMemsetD2D32Async, _ptsz, (CUdeviceptr d, size_t p, unsigned v, size_t w, size_t h, CUstream t), (d, p, v, w, h, t))
PER_THREAD(cuMemAllocAsync, _ptsz, (CUdeviceptr *a, size_t n, CUstream t), (a, n, t))
PER_THREAD(cuMemAllocFromPoolAsync, _ptsz, (CUdeviceptr *a, size_t n, CUmemPoolHandle_st *p, CUstream t), (a, n, p, t))
PER_THREAD(cuMemFreeAsync, _ptsz, (CUdeviceptr a, CUstream t), (a, t))
PER_THREAD(cuStreamQuery, _ptsz, (CUstream t), (t))
PER_THREAD(cuStreamSynchronize, _ptsz, (CUstream t), (t))
PER_THREAD(cuStreamWaitEvent, _ptsz, (CUstream t, CUevent e, unsigned f), (t, e, f))
PER_THREAD(cuStreamGetPriority, _ptsz, (CUstream t, int *p), (t, p))
PER_THREAD(cuStreamGetFlags, _ptsz, (CUstream t, unsigned *f), (t, f))
PER_THREAD(cuStreamGetId, _ptsz, (CUstream t, unsigned long long *i), (t, i))
PER_THREAD(cuStreamGetCtx, _ptsz, (CUstream t, CUcontext *c), (t, c))
PER_THREAD(cuStreamGetCtx_v2, _ptsz, (CUstream t, CUcontext *c, void **g), (t, c, g))
PER_THREAD(cuStreamGetDevice, _ptsz, (CUstream t, CUdevice *d), (t, d))
PER_THREAD(cuStreamAddCallback, _ptsz, (CUstream t, void (*c)(CUstream, CUresult, void *), void *d, unsigned f), (t, c, d, f))
PER_THREAD(cuEventRecord, _ptsz, (CUevent e, CUstream t), (e, t))
PER_THREAD(cuEventRecordWithFlags, _ptsz, (CUevent e, CUstream t, unsigned f), (e, t, f))
PER_THREAD(cuLaunchHostFunc, _ptsz, (CUstream t, void (*f)(void *), void *d), (t, f, d))
PER_THREAD(cuLaunchKernel, _ptsz, (CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned sh, CUstream t, void **p, void **x), (f, gx, gy, gz, bx, by, bz, sh, t, p, x))
#undef PER_THREAD

} // extern "C"

// --- the driver route: runtime-API programs whose modules load and launch through the driver API
// ---

namespace wf::rt::driver_route {

bool enabled() {
  static const bool on = [] {
    const char *loader = std::getenv("WARPFORGE_LOADER");
    return loader && std::string(loader) == "driver";
  }();
  return on;
}

namespace {

std::map<ModuleRecord *, CUmodule> gRouteModules;

/// The driver module standing for a registered fatbinary: its PTX, loaded by cuModuleLoadData.
Error moduleFor(ModuleRecord *record, CUmodule &out) {
  std::lock_guard<wf::rt::ContextLock> lock(Runtime::get().contextLock());
  if (auto it = gRouteModules.find(record); it != gRouteModules.end() && liveModule(it->second)) {
    out = it->second;
    return Error::cudaSuccess;
  }
  if (!gInitialized && cuInit(0) != kSuccess)
    return Error::cudaErrorInitializationError;
  if (record->ptx.empty()) {
    std::fprintf(stderr, "warpforge: driver route: %s\n", record->noPtxWhy.c_str());
    return Error::cudaErrorNoKernelImageForDevice;
  }
  CUresult r = cuModuleLoadData(&out, record->ptx.c_str());
  if (r != kSuccess)
    return r == kInvalidImage ? Error::cudaErrorInvalidKernelImage : Error(r);
  gRouteModules[record] = out;
  // The program's __managed__ variables are this module's copies, the ones its kernels use.
  Runtime::get().mapManagedVars(*record, *out->record);
  return Error::cudaSuccess;
}

} // namespace

Error initModule(ModuleRecord *record) {
  CUmodule module = nullptr;
  return moduleFor(record, module);
}

Error launch(FunctionRecord &fn, Dim3 grid, Dim3 block, void **args, uint64_t shared,
             CUstream_st *stream) {
  std::lock_guard<wf::rt::ContextLock> lock(Runtime::get().contextLock());
  CUmodule module = nullptr;
  if (Error e = moduleFor(fn.module, module); e != Error::cudaSuccess)
    return e;
  CUfunction f = nullptr;
  if (CUresult r = cuModuleGetFunction(&f, module, fn.name.c_str()); r != kSuccess)
    return r == kNotFound ? Error::cudaErrorInvalidDeviceFunction : Error(r);
  // The runtime's per-kernel opt-in (cudaFuncSetAttribute) carries over to the driver's handle.
  if (fn.maxDynamicShared >= 0)
    cuFuncSetAttribute(f, 8, fn.maxDynamicShared);
  CUresult r = launchKernel(f, grid, block, unsigned(shared), stream, args, nullptr);
  switch (r) {
  case kSuccess:
    return Error::cudaSuccess;
  case kInvalidValue:
    return Error::cudaErrorInvalidValue;
  case kInvalidHandle:
    return Error::cudaErrorInvalidDeviceFunction;
  default:
    return Error(r);
  }
}

Error symbol(const void *hostVar, uint64_t &address, uint64_t &size) {
  const VarRecord *var = Runtime::get().findVar(hostVar);
  if (!var)
    return Error::cudaErrorInvalidSymbol;
  CUmodule module = nullptr;
  if (Error e = moduleFor(var->module, module); e != Error::cudaSuccess)
    return e;
  CUdeviceptr a = 0;
  size_t bytes = 0;
  if (cuModuleGetGlobal_v2(&a, &bytes, module, var->name.c_str()) != kSuccess)
    return Error::cudaErrorInvalidSymbol;
  address = a;
  size = bytes;
  return Error::cudaSuccess;
}

} // namespace wf::rt::driver_route

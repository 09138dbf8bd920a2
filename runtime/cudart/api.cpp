// The CUDA runtime API over the common layer (runtime/lib): argument checks, the error state and
// tracing happen there or in the small helpers here; each call stays a few lines.
#include "cuda_types.h"
#include "warpforge/runtime/runtime.h"

#include <cstdio>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <vector>

using wf::rt::Dim3;
using wf::rt::Error;
using wf::rt::Runtime;

struct CUstream_st {
  unsigned flags = 0;
  int priority = 0;
};
struct CUevent_st {
  unsigned flags = 0;
  bool recorded = false;
  uint64_t cycles = 0;
};

namespace {

std::recursive_mutex gApi;
std::set<CUstream_st *> gStreams;
std::set<CUevent_st *> gEvents;
int gDevice = 0;
unsigned gDeviceFlags = 0;
std::map<const void *, int> gMaxDynamicShared;

struct CallConfig {
  dim3 grid, block;
  size_t shared;
  void *stream;
};
thread_local std::vector<CallConfig> tConfigs;

Runtime &rt() { return Runtime::get(); }

cudaError_t done(const char *name, Error e, const std::string &args = {}) {
  rt().record(e);
  if (rt().tracing())
    rt().trace(name, args, e);
  return cudaError_t(int(e));
}

#define API(name)                                                                                  \
  std::lock_guard<std::recursive_mutex> apiLock(gApi);                                             \
  const char *apiName = name
#define RETURN(e) return done(apiName, (e))
#define REQUIRE_DEVICE()                                                                           \
  do {                                                                                             \
    if (Error e_ = rt().ensureDevice(); e_ != Error::cudaSuccess)                                  \
      RETURN(e_);                                                                                  \
    if (rt().sticky() != Error::cudaSuccess)                                                       \
      RETURN(rt().sticky());                                                                       \
  } while (0)

uint64_t addr(const void *p) { return reinterpret_cast<uint64_t>(p); }
Dim3 toDim(dim3 d) { return Dim3{d.x, d.y, d.z}; }

bool validStream(cudaStream_t s) {
  return s == nullptr || s == reinterpret_cast<cudaStream_t>(1) ||
         s == reinterpret_cast<cudaStream_t>(2) || gStreams.count(s);
}

/// One contiguous copy; `kind` resolved against the pointers.
Error copy(void *dst, const void *src, size_t count, cudaMemcpyKind kind) {
  if (count == 0)
    return Error::cudaSuccess;
  if (!dst || !src)
    return Error::cudaErrorInvalidValue;
  Runtime &r = rt();
  bool dstDev = r.isDevice(addr(dst), count), srcDev = r.isDevice(addr(src), count);
  switch (kind) {
  case cudaMemcpyHostToHost: dstDev = srcDev = false; break;
  case cudaMemcpyHostToDevice: if (!dstDev) return Error::cudaErrorInvalidValue; srcDev = false; break;
  case cudaMemcpyDeviceToHost: if (!srcDev) return Error::cudaErrorInvalidValue; dstDev = false; break;
  case cudaMemcpyDeviceToDevice: if (!srcDev || !dstDev) return Error::cudaErrorInvalidValue; break;
  case cudaMemcpyDefault: break;
  default: return Error::cudaErrorInvalidMemcpyDirection;
  }
  wf::rt::Device &d = *r.device();
  bool ok = true;
  if (dstDev && srcDev) {
    std::vector<uint8_t> tmp(count);
    ok = d.read(addr(src), tmp.data(), count) && d.write(addr(dst), tmp.data(), count);
  } else if (dstDev) {
    ok = d.write(addr(dst), src, count);
  } else if (srcDev) {
    ok = d.read(addr(src), dst, count);
  } else {
    std::memmove(dst, src, count);
  }
  return ok ? Error::cudaSuccess : Error::cudaErrorInvalidValue;
}

void fillProps(cudaDeviceProp &p) {
  const wf::rt::DeviceInfo &info = rt().device()->info();
  const wf::isa::Config &c = info.config;
  std::memset(&p, 0, sizeof p);
  std::snprintf(p.name, sizeof p.name, "%s", info.name.c_str());
  std::memcpy(p.uuid.bytes, "WARPFORGE-FUNC-0", 16);
  p.totalGlobalMem = info.memSize;
  p.sharedMemPerBlock = c.sharedMemPerBlock;
  p.regsPerBlock = int(c.regsPerCore);
  p.warpSize = 32;
  p.memPitch = 0x7fffffff;
  p.maxThreadsPerBlock = int(c.maxThreadsPerBlock);
  p.maxThreadsDim[0] = p.maxThreadsDim[1] = int(std::min<uint32_t>(1024, c.maxThreadsPerBlock));
  p.maxThreadsDim[2] = int(std::min<uint32_t>(64, c.maxThreadsPerBlock));
  p.maxGridSize[0] = 0x7fffffff;
  p.maxGridSize[1] = p.maxGridSize[2] = 65535;
  p.totalConstMem = c.constMemBytes;
  p.major = 8;
  p.minor = 0;
  p.textureAlignment = 512;
  p.texturePitchAlignment = 32;
  p.multiProcessorCount = int(c.cores);
  p.canMapHostMemory = 1;
  p.surfaceAlignment = 512;
  p.concurrentKernels = 0;
  p.asyncEngineCount = 0;
  p.unifiedAddressing = 1;
  p.memoryBusWidth = 64;
  p.l2CacheSize = 0;
  p.maxThreadsPerMultiProcessor = int(c.warpsPerCore * 32);
  p.streamPrioritiesSupported = 1;
  p.globalL1CacheSupported = 1;
  p.localL1CacheSupported = 1;
  p.sharedMemPerMultiprocessor = c.sharedMemPerCore;
  p.regsPerMultiprocessor = int(c.regsPerCore);
  p.managedMemory = 0;
  p.sharedMemPerBlockOptin = c.sharedMemPerCore;
  p.maxBlocksPerMultiProcessor = int(c.maxBlocksPerCore);
  p.deviceNumaId = -1;
  p.hostNumaId = -1;
}

int occupancy(const wf::wfx::Kernel &k, int blockSize, size_t dyn) {
  const wf::isa::Config &c = rt().device()->info().config;
  if (blockSize <= 0)
    return 0;
  uint64_t warps = (uint64_t(blockSize) + 31) / 32;
  uint64_t n = c.maxBlocksPerCore;
  n = std::min<uint64_t>(n, c.warpsPerCore / warps);
  if (k.regsPerThread)
    n = std::min<uint64_t>(n, c.regsPerCore / (warps * 32 * k.regsPerThread));
  uint64_t shared = k.sharedBytes + dyn;
  if (shared)
    n = std::min<uint64_t>(n, c.sharedMemPerCore / shared);
  return int(n);
}

Error launchImpl(wf::rt::FunctionRecord *fn, dim3 grid, dim3 block, void **args, size_t shared,
                 cudaStream_t stream) {
  if (!fn)
    return Error::cudaErrorInvalidDeviceFunction;
  if (!validStream(stream))
    return Error::cudaErrorInvalidResourceHandle;
  if (auto it = gMaxDynamicShared.find(fn->hostFun); shared > 48 * 1024 &&
      (it == gMaxDynamicShared.end() || size_t(it->second) < shared))
    return Error::cudaErrorInvalidValue;
  return rt().launch(*fn, toDim(grid), toDim(block), args, shared);
}

} // namespace

extern "C" {

// --- errors ---
cudaError_t cudaGetLastError(void) {
  std::lock_guard<std::recursive_mutex> l(gApi);
  Error e = rt().takeLast();
  if (rt().tracing())
    rt().trace("cudaGetLastError", "", e);
  return cudaError_t(int(e));
}
cudaError_t cudaPeekAtLastError(void) {
  std::lock_guard<std::recursive_mutex> l(gApi);
  return cudaError_t(int(rt().peekLast()));
}
const char *cudaGetErrorString(cudaError_t error) { return wf::rt::errorString(int(error)); }
const char *cudaGetErrorName(cudaError_t error) { return wf::rt::errorName(int(error)); }

cudaError_t cudaRuntimeGetVersion(int *v) { if (!v) return cudaErrorInvalidValue; *v = 13000; return cudaSuccess; }
cudaError_t cudaDriverGetVersion(int *v) { if (!v) return cudaErrorInvalidValue; *v = 13000; return cudaSuccess; }

// --- devices ---
cudaError_t cudaGetDeviceCount(int *count) {
  API("cudaGetDeviceCount");
  if (!count) RETURN(Error::cudaErrorInvalidValue);
  Error e = rt().ensureDevice();
  *count = e == Error::cudaSuccess ? 1 : 0;
  RETURN(e);
}
cudaError_t cudaSetDevice(int device) {
  API("cudaSetDevice");
  REQUIRE_DEVICE();
  if (device != 0) RETURN(Error::cudaErrorInvalidDevice);
  gDevice = device;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGetDevice(int *device) {
  API("cudaGetDevice");
  if (!device) RETURN(Error::cudaErrorInvalidValue);
  *device = gDevice;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaSetDeviceFlags(unsigned flags) { API("cudaSetDeviceFlags"); gDeviceFlags = flags; RETURN(Error::cudaSuccess); }
cudaError_t cudaGetDeviceFlags(unsigned *flags) {
  API("cudaGetDeviceFlags");
  if (!flags) RETURN(Error::cudaErrorInvalidValue);
  *flags = gDeviceFlags;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device) {
  API("cudaGetDeviceProperties");
  if (Error e = rt().ensureDevice(); e != Error::cudaSuccess) RETURN(e);
  if (!prop) RETURN(Error::cudaErrorInvalidValue);
  if (device != 0) RETURN(Error::cudaErrorInvalidDevice);
  fillProps(*prop);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device) {
  API("cudaDeviceGetAttribute");
  if (Error e = rt().ensureDevice(); e != Error::cudaSuccess) RETURN(e);
  if (!value) RETURN(Error::cudaErrorInvalidValue);
  if (device != 0) RETURN(Error::cudaErrorInvalidDevice);
  cudaDeviceProp p;
  fillProps(p);
  const wf::isa::Config &c = rt().device()->info().config;
  switch (attr) {
  case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
  case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
  case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
  case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
  case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
  case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
  case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
  case cudaDevAttrMaxSharedMemoryPerBlock: *value = int(p.sharedMemPerBlock); break;
  case cudaDevAttrTotalConstantMemory: *value = int(p.totalConstMem); break;
  case cudaDevAttrWarpSize: *value = 32; break;
  case cudaDevAttrMaxPitch: *value = int(p.memPitch); break;
  case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; break;
  case cudaDevAttrClockRate: *value = int(c.clockMhz * 1000); break;
  case cudaDevAttrMemoryClockRate: *value = int(c.clockMhz * 1000); break;
  case cudaDevAttrTextureAlignment: *value = int(p.textureAlignment); break;
  case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
  case cudaDevAttrIntegrated: *value = 0; break;
  case cudaDevAttrCanMapHostMemory: *value = 1; break;
  case cudaDevAttrConcurrentKernels: *value = 0; break;
  case cudaDevAttrGlobalMemoryBusWidth: *value = p.memoryBusWidth; break;
  case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
  case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
  case cudaDevAttrAsyncEngineCount: *value = p.asyncEngineCount; break;
  case cudaDevAttrUnifiedAddressing: *value = 1; break;
  case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
  case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
  case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = int(p.sharedMemPerMultiprocessor); break;
  case cudaDevAttrMaxRegistersPerMultiprocessor: *value = p.regsPerMultiprocessor; break;
  case cudaDevAttrManagedMemory: *value = 0; break;
  case cudaDevAttrCooperativeLaunch: *value = 0; break;
  case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = int(p.sharedMemPerBlockOptin); break;
  case cudaDevAttrMaxBlocksPerMultiprocessor: *value = p.maxBlocksPerMultiProcessor; break;
  default:
    if (int(attr) <= 0 || int(attr) > 200) RETURN(Error::cudaErrorInvalidValue);
    *value = 0;
  }
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaDeviceSynchronize(void) {
  API("cudaDeviceSynchronize");
  REQUIRE_DEVICE();
  rt().device()->synchronize();
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }
cudaError_t cudaDeviceReset(void) {
  API("cudaDeviceReset");
  rt().reset();
  for (auto *s : gStreams) delete s;
  gStreams.clear();
  for (auto *e : gEvents) delete e;
  gEvents.clear();
  gMaxDynamicShared.clear();
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value) {
  API("cudaDeviceSetLimit");
  REQUIRE_DEVICE();
  switch (limit) {
  case cudaLimitStackSize: rt().stackSize = value; break;
  case cudaLimitPrintfFifoSize: if (value < 64) RETURN(Error::cudaErrorInvalidValue); rt().printfFifoSize = value; break;
  case cudaLimitMallocHeapSize: rt().mallocHeapSize = value; break;
  default: RETURN(Error::cudaErrorUnsupportedLimit);
  }
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaDeviceGetLimit(size_t *value, cudaLimit limit) {
  API("cudaDeviceGetLimit");
  if (!value) RETURN(Error::cudaErrorInvalidValue);
  switch (limit) {
  case cudaLimitStackSize: *value = rt().stackSize; break;
  case cudaLimitPrintfFifoSize: *value = rt().printfFifoSize; break;
  case cudaLimitMallocHeapSize: *value = rt().mallocHeapSize; break;
  default: RETURN(Error::cudaErrorUnsupportedLimit);
  }
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest) {
  API("cudaDeviceGetStreamPriorityRange");
  if (least) *least = 0;
  if (greatest) *greatest = -5;
  RETURN(Error::cudaSuccess);
}

// --- memory ---
cudaError_t cudaMalloc(void **ptr, size_t size) {
  API("cudaMalloc");
  if (!ptr) RETURN(Error::cudaErrorInvalidValue);
  REQUIRE_DEVICE();
  uint64_t a = 0;
  Error e = rt().malloc(size, a);
  *ptr = reinterpret_cast<void *>(a);
  RETURN(e);
}
cudaError_t cudaFree(void *ptr) {
  API("cudaFree");
  REQUIRE_DEVICE();
  RETURN(rt().free(addr(ptr)));
}
cudaError_t cudaMallocHost(void **ptr, size_t size) {
  API("cudaMallocHost");
  if (!ptr) RETURN(Error::cudaErrorInvalidValue);
  REQUIRE_DEVICE();
  RETURN(rt().hostAlloc(size, 0, ptr));
}
cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned flags) {
  API("cudaHostAlloc");
  if (!ptr || flags > 0xf) RETURN(Error::cudaErrorInvalidValue);
  REQUIRE_DEVICE();
  RETURN(rt().hostAlloc(size, flags, ptr));
}
cudaError_t cudaFreeHost(void *ptr) {
  API("cudaFreeHost");
  REQUIRE_DEVICE();
  RETURN(rt().hostFree(ptr));
}
cudaError_t cudaHostGetDevicePointer(void **dev, void *host, unsigned flags) {
  API("cudaHostGetDevicePointer");
  if (!dev || flags) RETURN(Error::cudaErrorInvalidValue);
  REQUIRE_DEVICE();
  uint64_t a = rt().hostToDevice(host);
  if (!a) RETURN(Error::cudaErrorInvalidValue);
  *dev = reinterpret_cast<void *>(a);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaMemGetInfo(size_t *free, size_t *total) {
  API("cudaMemGetInfo");
  REQUIRE_DEVICE();
  if (!free || !total) RETURN(Error::cudaErrorInvalidValue);
  *total = rt().device()->info().memSize;
  *free = *total - rt().liveDeviceBytes();
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, cudaMemcpyKind kind) {
  API("cudaMemcpy");
  REQUIRE_DEVICE();
  RETURN(copy(dst, src, count, kind));
}
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, cudaMemcpyKind kind,
                            cudaStream_t stream) {
  API("cudaMemcpyAsync");
  REQUIRE_DEVICE();
  if (!validStream(stream)) RETURN(Error::cudaErrorInvalidResourceHandle);
  RETURN(copy(dst, src, count, kind));
}
cudaError_t cudaMemset(void *ptr, int value, size_t count) {
  API("cudaMemset");
  REQUIRE_DEVICE();
  if (count == 0) RETURN(Error::cudaSuccess);
  if (!rt().isDevice(addr(ptr), count)) RETURN(Error::cudaErrorInvalidValue);
  RETURN(rt().device()->fill(addr(ptr), uint8_t(value), count) ? Error::cudaSuccess
                                                                : Error::cudaErrorInvalidValue);
}
cudaError_t cudaMemsetAsync(void *ptr, int value, size_t count, cudaStream_t stream) {
  if (!validStream(stream)) return cudaErrorInvalidResourceHandle;
  return cudaMemset(ptr, value, count);
}
cudaError_t cudaMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height) {
  API("cudaMallocPitch");
  if (!ptr || !pitch) RETURN(Error::cudaErrorInvalidValue);
  REQUIRE_DEVICE();
  size_t p = (width + 255) / 256 * 256;
  uint64_t a = 0;
  Error e = rt().malloc(p * height, a);
  *ptr = reinterpret_cast<void *>(a);
  *pitch = p;
  RETURN(e);
}
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, cudaMemcpyKind kind) {
  API("cudaMemcpy2D");
  REQUIRE_DEVICE();
  if (width > dpitch || width > spitch) RETURN(Error::cudaErrorInvalidPitchValue);
  for (size_t row = 0; row < height; ++row)
    if (Error e = copy(static_cast<char *>(dst) + row * dpitch,
                       static_cast<const char *>(src) + row * spitch, width, kind);
        e != Error::cudaSuccess)
      RETURN(e);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, cudaMemcpyKind kind, cudaStream_t s) {
  if (!validStream(s)) return cudaErrorInvalidResourceHandle;
  return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}
cudaError_t cudaMemset2D(void *ptr, size_t pitch, int value, size_t width, size_t height) {
  API("cudaMemset2D");
  REQUIRE_DEVICE();
  if (width > pitch) RETURN(Error::cudaErrorInvalidValue);
  for (size_t row = 0; row < height; ++row) {
    uint64_t a = addr(ptr) + row * pitch;
    if (width && (!rt().isDevice(a, width) || !rt().device()->fill(a, uint8_t(value), width)))
      RETURN(Error::cudaErrorInvalidValue);
  }
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaPointerGetAttributes(cudaPointerAttributes *attr, const void *ptr) {
  API("cudaPointerGetAttributes");
  if (!attr) RETURN(Error::cudaErrorInvalidValue);
  REQUIRE_DEVICE();
  std::memset(attr, 0, sizeof *attr);
  attr->device = 0;
  if (rt().isDevice(addr(ptr))) {
    attr->type = cudaMemoryTypeDevice;
    attr->devicePointer = const_cast<void *>(ptr);
  } else if (uint64_t d = rt().hostToDevice(ptr)) {
    attr->type = cudaMemoryTypeHost;
    attr->hostPointer = const_cast<void *>(ptr);
    attr->devicePointer = reinterpret_cast<void *>(d);
  } else if (rt().findHost(ptr)) {
    attr->type = cudaMemoryTypeHost;
    attr->hostPointer = const_cast<void *>(ptr);
  } else {
    attr->type = cudaMemoryTypeUnregistered;
  }
  RETURN(Error::cudaSuccess);
}

// --- symbols ---
cudaError_t cudaGetSymbolAddress(void **dev, const void *symbol) {
  API("cudaGetSymbolAddress");
  if (!dev) RETURN(Error::cudaErrorInvalidValue);
  REQUIRE_DEVICE();
  uint64_t a = 0, size = 0;
  Error e = rt().symbol(symbol, a, size);
  if (e == Error::cudaSuccess) *dev = reinterpret_cast<void *>(a);
  RETURN(e);
}
cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol) {
  API("cudaGetSymbolSize");
  if (!size) RETURN(Error::cudaErrorInvalidValue);
  REQUIRE_DEVICE();
  uint64_t a = 0, s = 0;
  Error e = rt().symbol(symbol, a, s);
  if (e == Error::cudaSuccess) *size = s;
  RETURN(e);
}
cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                               cudaMemcpyKind kind) {
  API("cudaMemcpyToSymbol");
  REQUIRE_DEVICE();
  uint64_t a = 0, size = 0;
  if (Error e = rt().symbol(symbol, a, size); e != Error::cudaSuccess) RETURN(e);
  if (offset > size || count > size - offset) RETURN(Error::cudaErrorInvalidValue);
  if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
    RETURN(Error::cudaErrorInvalidMemcpyDirection);
  RETURN(copy(reinterpret_cast<void *>(a + offset), src, count, kind));
}
cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                 cudaMemcpyKind kind) {
  API("cudaMemcpyFromSymbol");
  REQUIRE_DEVICE();
  uint64_t a = 0, size = 0;
  if (Error e = rt().symbol(symbol, a, size); e != Error::cudaSuccess) RETURN(e);
  if (offset > size || count > size - offset) RETURN(Error::cudaErrorInvalidValue);
  if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
    RETURN(Error::cudaErrorInvalidMemcpyDirection);
  RETURN(copy(dst, reinterpret_cast<void *>(a + offset), count, kind));
}
cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                    size_t offset, cudaMemcpyKind kind, cudaStream_t s) {
  if (!validStream(s)) return cudaErrorInvalidResourceHandle;
  return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}
cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                      cudaMemcpyKind kind, cudaStream_t s) {
  if (!validStream(s)) return cudaErrorInvalidResourceHandle;
  return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}

// --- streams and events (synchronous: every operation completes when issued) ---
cudaError_t cudaStreamCreateWithPriority(cudaStream_t *stream, unsigned flags, int priority) {
  API("cudaStreamCreate");
  if (!stream || flags > 1) RETURN(Error::cudaErrorInvalidValue);
  REQUIRE_DEVICE();
  auto *s = new CUstream_st{flags, std::max(-5, std::min(0, priority))};
  gStreams.insert(s);
  *stream = s;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned flags) {
  return cudaStreamCreateWithPriority(stream, flags, 0);
}
cudaError_t cudaStreamCreate(cudaStream_t *stream) { return cudaStreamCreateWithPriority(stream, 0, 0); }
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  API("cudaStreamDestroy");
  if (!gStreams.erase(stream)) RETURN(Error::cudaErrorInvalidResourceHandle);
  delete stream;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  API("cudaStreamSynchronize");
  REQUIRE_DEVICE();
  if (!validStream(stream)) RETURN(Error::cudaErrorInvalidResourceHandle);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaStreamQuery(cudaStream_t stream) {
  API("cudaStreamQuery");
  REQUIRE_DEVICE();
  if (!validStream(stream)) RETURN(Error::cudaErrorInvalidResourceHandle);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags) {
  API("cudaStreamWaitEvent");
  REQUIRE_DEVICE();
  (void)flags;
  if (!validStream(stream) || !gEvents.count(event)) RETURN(Error::cudaErrorInvalidResourceHandle);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaStreamGetPriority(cudaStream_t stream, int *priority) {
  API("cudaStreamGetPriority");
  if (!priority || !validStream(stream)) RETURN(Error::cudaErrorInvalidValue);
  *priority = gStreams.count(stream) ? stream->priority : 0;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned *flags) {
  API("cudaStreamGetFlags");
  if (!flags || !validStream(stream)) RETURN(Error::cudaErrorInvalidValue);
  *flags = gStreams.count(stream) ? stream->flags : 0;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *data) {
  API("cudaLaunchHostFunc");
  REQUIRE_DEVICE();
  if (!fn || !validStream(stream)) RETURN(Error::cudaErrorInvalidValue);
  fn(data);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t cb, void *data,
                                  unsigned flags) {
  API("cudaStreamAddCallback");
  REQUIRE_DEVICE();
  if (!cb || flags || !validStream(stream)) RETURN(Error::cudaErrorInvalidValue);
  cb(stream, cudaSuccess, data);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned flags) {
  API("cudaEventCreate");
  if (!event || flags > 0xf) RETURN(Error::cudaErrorInvalidValue);
  REQUIRE_DEVICE();
  auto *e = new CUevent_st{flags, false, 0};
  gEvents.insert(e);
  *event = e;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaEventCreate(cudaEvent_t *event) { return cudaEventCreateWithFlags(event, 0); }
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  API("cudaEventDestroy");
  if (!gEvents.erase(event)) RETURN(Error::cudaErrorInvalidResourceHandle);
  delete event;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  API("cudaEventRecord");
  REQUIRE_DEVICE();
  if (!gEvents.count(event) || !validStream(stream)) RETURN(Error::cudaErrorInvalidResourceHandle);
  event->recorded = true;
  event->cycles = rt().device()->cycles();
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned) {
  return cudaEventRecord(event, stream);
}
cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  API("cudaEventSynchronize");
  REQUIRE_DEVICE();
  if (!gEvents.count(event)) RETURN(Error::cudaErrorInvalidResourceHandle);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaEventQuery(cudaEvent_t event) {
  API("cudaEventQuery");
  REQUIRE_DEVICE();
  if (!gEvents.count(event)) RETURN(Error::cudaErrorInvalidResourceHandle);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end) {
  API("cudaEventElapsedTime");
  REQUIRE_DEVICE();
  if (!ms) RETURN(Error::cudaErrorInvalidValue);
  if (!gEvents.count(start) || !gEvents.count(end)) RETURN(Error::cudaErrorInvalidResourceHandle);
  if ((start->flags | end->flags) & 2) RETURN(Error::cudaErrorInvalidResourceHandle);
  if (!start->recorded || !end->recorded) RETURN(Error::cudaErrorInvalidResourceHandle);
  double mhz = rt().device()->info().config.clockMhz;
  *ms = float((double(end->cycles) - double(start->cycles)) / (mhz * 1000.0));
  RETURN(Error::cudaSuccess);
}

// --- kernels ---
cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args,
                             size_t shared, cudaStream_t stream) {
  API("cudaLaunchKernel");
  REQUIRE_DEVICE();
  RETURN(launchImpl(rt().findFunction(func), grid, block, args, shared, stream));
}
cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 grid, dim3 block, void **args,
                                  size_t shared, cudaStream_t stream) {
  return cudaLaunchKernel(func, grid, block, args, shared, stream);
}
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *attr, const void *func) {
  API("cudaFuncGetAttributes");
  if (!attr) RETURN(Error::cudaErrorInvalidValue);
  REQUIRE_DEVICE();
  wf::rt::FunctionRecord *fn = rt().findFunction(func);
  if (!fn) RETURN(Error::cudaErrorInvalidDeviceFunction);
  const wf::wfx::Kernel *k = rt().kernelOf(*fn);
  if (!k) RETURN(fn->module->loadError != Error::cudaSuccess ? fn->module->loadError
                                                             : Error::cudaErrorInvalidDeviceFunction);
  const wf::isa::Config &c = rt().device()->info().config;
  std::memset(attr, 0, sizeof *attr);
  attr->sharedSizeBytes = k->sharedBytes;
  attr->localSizeBytes = k->localBytes;
  uint32_t maxThreads = c.maxThreadsPerBlock;
  if (k->regsPerThread)
    maxThreads = std::min<uint32_t>(maxThreads, c.regsPerCore / k->regsPerThread / 32 * 32);
  if (k->maxntid.specified())
    maxThreads = std::min<uint32_t>(maxThreads, uint32_t(k->maxntid.count()));
  attr->maxThreadsPerBlock = int(maxThreads);
  attr->numRegs = int(k->regsPerThread);
  attr->ptxVersion = 80;
  attr->binaryVersion = 80;
  auto it = gMaxDynamicShared.find(func);
  attr->maxDynamicSharedSizeBytes =
      it != gMaxDynamicShared.end() ? it->second : int(c.sharedMemPerBlock - k->sharedBytes);
  attr->preferredShmemCarveout = -1;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaFuncSetAttribute(const void *func, cudaFuncAttribute attr, int value) {
  API("cudaFuncSetAttribute");
  REQUIRE_DEVICE();
  wf::rt::FunctionRecord *fn = rt().findFunction(func);
  if (!fn) RETURN(Error::cudaErrorInvalidDeviceFunction);
  if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
    const wf::wfx::Kernel *k = rt().kernelOf(*fn);
    uint32_t cap = rt().device()->info().config.sharedMemPerCore - (k ? k->sharedBytes : 0);
    if (value < 0 || uint32_t(value) > cap) RETURN(Error::cudaErrorInvalidValue);
    gMaxDynamicShared[func] = value;
  }
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaFuncSetCacheConfig(const void *, int) { return cudaSuccess; }
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *n, const void *func,
                                                                    int blockSize, size_t dyn,
                                                                    unsigned) {
  API("cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  if (!n) RETURN(Error::cudaErrorInvalidValue);
  REQUIRE_DEVICE();
  wf::rt::FunctionRecord *fn = rt().findFunction(func);
  if (!fn) RETURN(Error::cudaErrorInvalidDeviceFunction);
  const wf::wfx::Kernel *k = rt().kernelOf(*fn);
  if (!k) RETURN(Error::cudaErrorInvalidDeviceFunction);
  *n = occupancy(*k, blockSize, dyn);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *func, int blockSize,
                                                          size_t dyn) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, func, blockSize, dyn, 0);
}

// --- registration: the host code nvcc generates calls these ---
void **__cudaRegisterFatBinary(void *fatCubin) {
  std::lock_guard<std::recursive_mutex> l(gApi);
  return reinterpret_cast<void **>(rt().registerFatbin(fatCubin));
}
void __cudaRegisterFatBinaryEnd(void **) {}
void __cudaUnregisterFatBinary(void **handle) {
  rt().unregisterFatbin(reinterpret_cast<wf::rt::ModuleRecord *>(handle));
}
void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int, void *, void *, void *, void *, int *) {
  (void)deviceFun;
  rt().registerFunction(reinterpret_cast<wf::rt::ModuleRecord *>(handle), hostFun, deviceName);
}
void __cudaRegisterVar(void **handle, char *hostVar, char *, const char *deviceName, int,
                       size_t size, int constant, int) {
  rt().registerVar(reinterpret_cast<wf::rt::ModuleRecord *>(handle), hostVar, deviceName, size,
                   constant != 0, false, nullptr);
}
void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress, char *,
                              const char *deviceName, int, size_t size, int constant, int) {
  rt().registerVar(reinterpret_cast<wf::rt::ModuleRecord *>(handle), hostVarPtrAddress,
                   deviceName, size, constant != 0, true, hostVarPtrAddress);
}
char __cudaInitModule(void **handle) {
  std::lock_guard<std::recursive_mutex> l(gApi);
  auto *m = reinterpret_cast<wf::rt::ModuleRecord *>(handle);
  if (rt().ensureLoaded(*m) != Error::cudaSuccess)
    return 0;
  // __managed__ variables: the host reads and writes them through their alias in device memory.
  uint64_t a = 0, size = 0;
  (void)a, (void)size;
  return 1;
}
void __cudaRegisterTexture(void **, const void *, const void **, const char *, int, int, int) {}
void __cudaRegisterSurface(void **, const void *, const void **, const char *, int, int) {}
unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared, void *stream) {
  tConfigs.push_back({grid, block, shared, stream});
  return 0;
}
cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shared, void *stream) {
  if (tConfigs.empty())
    return cudaErrorMissingConfiguration;
  CallConfig c = tConfigs.back();
  tConfigs.pop_back();
  *grid = c.grid;
  *block = c.block;
  *shared = c.shared;
  *static_cast<void **>(stream) = c.stream;
  return cudaSuccess;
}
cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *func) {
  wf::rt::FunctionRecord *fn = rt().findFunction(func);
  if (!kernel || !fn)
    return cudaErrorInvalidDeviceFunction;
  *kernel = reinterpret_cast<cudaKernel_t>(fn);
  return cudaSuccess;
}
cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void **args,
                               size_t shared, cudaStream_t stream) {
  API("cudaLaunchKernel");
  REQUIRE_DEVICE();
  RETURN(launchImpl(reinterpret_cast<wf::rt::FunctionRecord *>(kernel), grid, block, args, shared,
                    stream));
}
cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid, dim3 block, void **args,
                                    size_t shared, cudaStream_t stream) {
  return __cudaLaunchKernel(kernel, grid, block, args, shared, stream);
}

// --- not yet implemented: cudaErrorNotSupported with a message (never silent success) ---
#define WF_UNSUPPORTED(name)                                                                       \
  cudaError_t name() {                                                                             \
    std::lock_guard<std::recursive_mutex> l(gApi);                                                 \
    return cudaError_t(int(rt().notSupported(#name)));                                             \
  }
WF_UNSUPPORTED(cudaMallocManaged)
WF_UNSUPPORTED(cudaMalloc3D)
WF_UNSUPPORTED(cudaMemcpy3D)
WF_UNSUPPORTED(cudaMemcpy3DAsync)
WF_UNSUPPORTED(cudaMemset3D)
WF_UNSUPPORTED(cudaMemset3DAsync)
WF_UNSUPPORTED(cudaMemset2DAsync)
WF_UNSUPPORTED(cudaMallocArray)
WF_UNSUPPORTED(cudaMalloc3DArray)
WF_UNSUPPORTED(cudaFreeArray)
WF_UNSUPPORTED(cudaMemcpy2DToArray)
WF_UNSUPPORTED(cudaMemcpy2DFromArray)
WF_UNSUPPORTED(cudaMemcpyToArray)
WF_UNSUPPORTED(cudaCreateTextureObject)
WF_UNSUPPORTED(cudaDestroyTextureObject)
WF_UNSUPPORTED(cudaCreateSurfaceObject)
WF_UNSUPPORTED(cudaDestroySurfaceObject)
WF_UNSUPPORTED(cudaMallocAsync)
WF_UNSUPPORTED(cudaFreeAsync)
WF_UNSUPPORTED(cudaLaunchKernelExC)
WF_UNSUPPORTED(cudaLaunchCooperativeKernel)
WF_UNSUPPORTED(cudaGraphCreate)
WF_UNSUPPORTED(cudaGraphAddKernelNode)
WF_UNSUPPORTED(cudaGraphInstantiate)
WF_UNSUPPORTED(cudaGraphLaunch)
WF_UNSUPPORTED(cudaGraphDestroy)
WF_UNSUPPORTED(cudaGraphExecDestroy)
WF_UNSUPPORTED(cudaStreamBeginCapture)
WF_UNSUPPORTED(cudaStreamEndCapture)
WF_UNSUPPORTED(cudaMemcpyPeer)
WF_UNSUPPORTED(cudaMemPrefetchAsync)
WF_UNSUPPORTED(cudaMemAdvise)
WF_UNSUPPORTED(cudaHostRegister)
WF_UNSUPPORTED(cudaHostUnregister)

} // extern "C"

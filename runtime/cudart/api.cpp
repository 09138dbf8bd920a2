// The CUDA runtime API over the common layer (runtime/lib): argument checks, the error state and
// tracing happen there or in the small helpers here; each call stays a few lines.
#include "api_common.h"
#include "cuda_types.h"
#include "texture_api.h"
#include "warpforge/runtime/runtime.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

// WARPFORGE_LOADER=driver: the driver route (driver.cpp). Kernels load with cuModuleLoadData from
// the program's PTX and launch with cuLaunchKernel; variables resolve with cuModuleGetGlobal.
namespace wf::rt::driver_route {
bool enabled();
Error launch(FunctionRecord &fn, Dim3 grid, Dim3 block, void **args, uint64_t shared,
             cudaStream_t stream);
Error symbol(const void *hostVar, uint64_t &address, uint64_t &size);
/// Loads the driver module standing for a registered fatbinary (__cudaInitModule).
Error initModule(ModuleRecord *record);
} // namespace wf::rt::driver_route

using wf::rt::Dim3;
using wf::rt::Error;
using wf::rt::Runtime;

struct CUgraph_st;
struct CUstream_st {
  unsigned flags = 0;
  int priority = 0;
  CUgraph_st *capture = nullptr; ///< the graph being captured into, while capturing
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
int gCacheConfig = 0; // cudaFuncCache: a preference only (no L1/shared split to choose)

struct CallConfig {
  dim3 grid, block;
  size_t shared;
  void *stream;
};
thread_local std::vector<CallConfig> tConfigs;

using wf::cudart::addr;
using wf::cudart::done;
using wf::cudart::rt;

#define API(name)                                                                                  \
  std::lock_guard<std::recursive_mutex> apiLock(gApi);                                             \
  const char *apiName = name
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
  // Managed memory is device memory at its own host address (in-process device only); the
  // host and the device never run at once (launches are synchronous), so no migration is needed.
  p.managedMemory = rt().managedSupported() ? 1 : 0;
  p.directManagedMemAccessFromHost = p.managedMemory;
  p.cooperativeLaunch = 1;
  p.memoryPoolsSupported = 1;
  p.hostRegisterSupported = 1;
  p.sharedMemPerBlockOptin = c.sharedMemPerCore;
  p.maxBlocksPerMultiProcessor = int(c.maxBlocksPerCore);
  p.deviceNumaId = -1;
  p.hostNumaId = -1;
}

int occupancy(const wf::wfx::Kernel &k, int blockSize, size_t dyn) {
  return blockSize <= 0 ? 0 : int(rt().blocksPerCore(k, uint64_t(blockSize), dyn));
}

/// One recorded operation of a graph (stream capture or the explicit node API). Every stream is
/// synchronous, so the nodes' insertion order is a valid execution order: a node's dependencies
/// always exist before it.
struct Node {
  cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
  std::vector<CUgraphNode_st *> deps;
  // kernel: the argument values are copied when the node is made, as CUDA does
  wf::rt::FunctionRecord *fn = nullptr;
  dim3 grid{1, 1, 1}, block{1, 1, 1};
  size_t shared = 0;
  bool cooperative = false;
  std::vector<std::vector<uint8_t>> args;
  // memcpy
  void *dst = nullptr;
  const void *src = nullptr;
  size_t count = 0;
  cudaMemcpyKind kind = cudaMemcpyDefault;
  // memset
  cudaMemsetParams memset{};
  // host
  cudaHostFn_t hostFn = nullptr;
  void *userData = nullptr;
};

} // namespace

struct CUgraphNode_st : Node {
  CUgraph_st *graph = nullptr;
};
struct CUgraph_st {
  std::vector<std::unique_ptr<CUgraphNode_st>> nodes;
};
struct CUgraphExec_st {
  std::vector<Node> nodes; ///< a snapshot: later changes to the graph do not affect it
};

namespace {

std::set<CUgraph_st *> gGraphs;
std::set<CUgraphExec_st *> gExecs;

bool capturing(cudaStream_t s) { return gStreams.count(s) && s->capture; }

/// Copies the kernel's arguments by the parameter layout of its compiled code.
Error captureArgs(wf::rt::FunctionRecord *fn, void **args, std::vector<std::vector<uint8_t>> &out) {
  const wf::wfx::Kernel *k = rt().kernelOf(*fn);
  if (!k)
    return fn->module->loadError != Error::cudaSuccess ? fn->module->loadError
                                                       : Error::cudaErrorInvalidDeviceFunction;
  out.clear();
  for (const auto &p : k->params) {
    if (!args || !args[out.size()])
      return Error::cudaErrorInvalidValue;
    auto *b = static_cast<const uint8_t *>(args[out.size()]);
    out.emplace_back(b, b + p.size);
  }
  return Error::cudaSuccess;
}

CUgraphNode_st *addNode(CUgraph_st *g, Node n, const cudaGraphNode_t *deps, size_t numDeps) {
  auto node = std::make_unique<CUgraphNode_st>();
  static_cast<Node &>(*node) = std::move(n);
  node->graph = g;
  node->deps.assign(deps, deps + numDeps);
  g->nodes.push_back(std::move(node));
  return g->nodes.back().get();
}

/// Appends to the graph a stream captures into, after the stream's previous operation.
Error captureNode(cudaStream_t s, Node n) {
  CUgraph_st *g = s->capture;
  cudaGraphNode_t last = g->nodes.empty() ? nullptr : g->nodes.back().get();
  addNode(g, std::move(n), &last, last ? 1 : 0);
  return Error::cudaSuccess;
}

bool validDeps(CUgraph_st *g, const cudaGraphNode_t *deps, size_t n) {
  if (n && !deps)
    return false;
  for (size_t i = 0; i < n; ++i)
    if (!deps[i] || deps[i]->graph != g)
      return false;
  return true;
}

/// A registered variable's device address: through the driver API on the driver route.
Error symbolOf(const void *hostVar, uint64_t &address, uint64_t &size) {
  if (wf::rt::driver_route::enabled())
    return wf::rt::driver_route::symbol(hostVar, address, size);
  return rt().symbol(hostVar, address, size);
}

Error launchImpl(wf::rt::FunctionRecord *fn, dim3 grid, dim3 block, void **args, size_t shared,
                 cudaStream_t stream, bool cooperative = false) {
  if (!fn)
    return Error::cudaErrorInvalidDeviceFunction;
  if (!validStream(stream))
    return Error::cudaErrorInvalidResourceHandle;
  if (capturing(stream)) {
    Node n;
    n.type = cudaGraphNodeTypeKernel;
    n.fn = fn;
    n.grid = grid;
    n.block = block;
    n.shared = shared;
    n.cooperative = cooperative;
    if (Error e = captureArgs(fn, args, n.args); e != Error::cudaSuccess)
      return e;
    return captureNode(stream, std::move(n));
  }
  if (wf::rt::driver_route::enabled() && !cooperative)
    return wf::rt::driver_route::launch(*fn, toDim(grid), toDim(block), args, shared, stream);
  return rt().launch(*fn, toDim(grid), toDim(block), args, shared, cooperative);
}

/// cudaMemset2D's work: `height` rows of `width` elements of 1, 2 or 4 bytes.
Error memset2D(void *ptr, size_t pitch, unsigned value, unsigned elementSize, size_t width,
               size_t height) {
  if (elementSize != 1 && elementSize != 2 && elementSize != 4)
    return Error::cudaErrorInvalidValue;
  size_t rowBytes = width * elementSize;
  if (height > 1 && rowBytes > pitch)
    return Error::cudaErrorInvalidValue;
  std::vector<uint8_t> row;
  if (elementSize != 1) {
    row.resize(rowBytes);
    for (size_t i = 0; i < width; ++i)
      std::memcpy(&row[i * elementSize], &value, elementSize);
  }
  for (size_t r = 0; r < height; ++r) {
    uint64_t a = addr(ptr) + r * pitch;
    if (!rowBytes)
      continue;
    if (!rt().isDevice(a, rowBytes))
      return Error::cudaErrorInvalidValue;
    bool ok = elementSize == 1 ? rt().device()->fill(a, uint8_t(value), rowBytes)
                               : rt().device()->write(a, row.data(), rowBytes);
    if (!ok)
      return Error::cudaErrorInvalidValue;
  }
  return Error::cudaSuccess;
}

Error runNode(const Node &n) {
  switch (n.type) {
  case cudaGraphNodeTypeKernel: {
    std::vector<void *> args;
    for (const auto &a : n.args)
      args.push_back(const_cast<uint8_t *>(a.data()));
    return rt().launch(*n.fn, toDim(n.grid), toDim(n.block), args.data(), n.shared, n.cooperative);
  }
  case cudaGraphNodeTypeMemcpy: return copy(n.dst, n.src, n.count, n.kind);
  case cudaGraphNodeTypeMemset:
    return memset2D(n.memset.dst, n.memset.pitch, n.memset.value, n.memset.elementSize,
                    n.memset.width, n.memset.height);
  case cudaGraphNodeTypeHost: n.hostFn(n.userData); return Error::cudaSuccess;
  default: return Error::cudaSuccess;
  }
}

/// A pitched region: 3D copies and sets walk it row by row.
uint64_t pitchedAddress(const cudaPitchedPtr &p, const cudaPos &pos, size_t y, size_t z) {
  return addr(p.ptr) + ((pos.z + z) * p.ysize + pos.y + y) * p.pitch + pos.x;
}

Error memcpy3D(const cudaMemcpy3DParms *p) {
  if (!p)
    return Error::cudaErrorInvalidValue;
  if (p->srcArray || p->dstArray)
    return memcpy3DArray(p); // texture_api.cpp
  const cudaExtent &e = p->extent;
  if (!p->srcPtr.ptr || !p->dstPtr.ptr)
    return Error::cudaErrorInvalidValue;
  if (p->srcPos.x + e.width > p->srcPtr.pitch || p->dstPos.x + e.width > p->dstPtr.pitch)
    return Error::cudaErrorInvalidPitchValue;
  if (e.depth > 1 && (p->srcPos.y + e.height > p->srcPtr.ysize ||
                      p->dstPos.y + e.height > p->dstPtr.ysize))
    return Error::cudaErrorInvalidValue;
  for (size_t z = 0; z < e.depth; ++z)
    for (size_t y = 0; y < e.height; ++y)
      if (Error err = copy(reinterpret_cast<void *>(pitchedAddress(p->dstPtr, p->dstPos, y, z)),
                           reinterpret_cast<const void *>(pitchedAddress(p->srcPtr, p->srcPos, y, z)),
                           e.width, p->kind);
          err != Error::cudaSuccess)
        return err;
  return Error::cudaSuccess;
}

Error memset3D(cudaPitchedPtr p, int value, cudaExtent e) {
  if (e.width > p.pitch)
    return Error::cudaErrorInvalidValue;
  for (size_t z = 0; z < e.depth; ++z)
    if (Error err = memset2D(reinterpret_cast<void *>(pitchedAddress(p, cudaPos{0, 0, 0}, 0, z)),
                             p.pitch, uint8_t(value), 1, e.width, e.height);
        err != Error::cudaSuccess)
      return err;
  return Error::cudaSuccess;
}

} // namespace

/// A memory pool: its attributes and statistics (allocations come from the device allocator).
struct CUmemPoolHandle_st {
  uint64_t releaseThreshold = 0;
  int reuse[3] = {1, 1, 1};
  uint64_t used = 0, usedHigh = 0;
};

namespace {

CUmemPoolHandle_st gDefaultPool;
std::set<cudaMemPool_t> gPools{&gDefaultPool};
cudaMemPool_t gCurrentPool = &gDefaultPool;
std::map<uint64_t, std::pair<cudaMemPool_t, uint64_t>> gPoolAllocs; ///< base -> pool, bytes

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
  case cudaDevAttrManagedMemory: *value = p.managedMemory; break;
  case cudaDevAttrDirectManagedMemAccessFromHost: *value = p.directManagedMemAccessFromHost; break;
  case cudaDevAttrCooperativeLaunch: *value = p.cooperativeLaunch; break;
  case cudaDevAttrMemoryPoolsSupported: *value = p.memoryPoolsSupported; break;
  case cudaDevAttrHostRegisterSupported: *value = p.hostRegisterSupported; break;
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
  for (auto *g : gGraphs) delete g;
  gGraphs.clear();
  for (auto *g : gExecs) delete g;
  gExecs.clear();
  for (auto *p : gPools)
    if (p != &gDefaultPool) delete p;
  gPools = {&gDefaultPool};
  gDefaultPool = CUmemPoolHandle_st{};
  gCurrentPool = &gDefaultPool;
  gPoolAllocs.clear();
  gCacheConfig = 0;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value) {
  API("cudaDeviceSetLimit");
  REQUIRE_DEVICE();
  switch (limit) {
  case cudaLimitStackSize: rt().stackSize = value; break;
  case cudaLimitPrintfFifoSize: if (value < 64) RETURN(Error::cudaErrorInvalidValue); rt().printfFifoSize = value; break;
  case cudaLimitMallocHeapSize:
    // Fixed once a module using the heap has loaded (guide B.18.1).
    if (rt().deviceHeapReserved()) RETURN(Error::cudaErrorInvalidValue);
    rt().mallocHeapSize = value;
    break;
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
  if (capturing(stream)) {
    if (unsigned(kind) > cudaMemcpyDefault) RETURN(Error::cudaErrorInvalidMemcpyDirection);
    Node n;
    n.type = cudaGraphNodeTypeMemcpy;
    n.dst = dst;
    n.src = src;
    n.count = count;
    n.kind = kind;
    RETURN(captureNode(stream, std::move(n)));
  }
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
  API("cudaMemsetAsync");
  REQUIRE_DEVICE();
  if (!validStream(stream)) RETURN(Error::cudaErrorInvalidResourceHandle);
  if (capturing(stream)) {
    Node n;
    n.type = cudaGraphNodeTypeMemset;
    n.memset = cudaMemsetParams{ptr, count, unsigned(uint8_t(value)), 1, count, 1};
    RETURN(captureNode(stream, std::move(n)));
  }
  RETURN(memset2D(ptr, count, uint8_t(value), 1, count, 1));
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
  {
    API("cudaMemcpy2DAsync");
    if (!validStream(s)) RETURN(Error::cudaErrorInvalidResourceHandle);
    if (capturing(s)) RETURN(Error::cudaErrorStreamCaptureUnsupported);
  }
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
  // Pinned host memory may lie inside device memory (mapped transports): ask about it first.
  if (rt().isManaged(addr(ptr))) {
    attr->type = cudaMemoryTypeManaged;
    attr->devicePointer = attr->hostPointer = const_cast<void *>(ptr);
  } else if (uint64_t d = rt().hostToDevice(ptr)) {
    attr->type = cudaMemoryTypeHost;
    attr->hostPointer = const_cast<void *>(ptr);
    attr->devicePointer = reinterpret_cast<void *>(d);
  } else if (rt().isDevice(addr(ptr))) {
    attr->type = cudaMemoryTypeDevice;
    attr->devicePointer = const_cast<void *>(ptr);
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
  Error e = symbolOf(symbol, a, size);
  if (e == Error::cudaSuccess) *dev = reinterpret_cast<void *>(a);
  RETURN(e);
}
cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol) {
  API("cudaGetSymbolSize");
  if (!size) RETURN(Error::cudaErrorInvalidValue);
  REQUIRE_DEVICE();
  uint64_t a = 0, s = 0;
  Error e = symbolOf(symbol, a, s);
  if (e == Error::cudaSuccess) *size = s;
  RETURN(e);
}
cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                               cudaMemcpyKind kind) {
  API("cudaMemcpyToSymbol");
  REQUIRE_DEVICE();
  uint64_t a = 0, size = 0;
  if (Error e = symbolOf(symbol, a, size); e != Error::cudaSuccess) RETURN(e);
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
  if (Error e = symbolOf(symbol, a, size); e != Error::cudaSuccess) RETURN(e);
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
  if (capturing(stream)) RETURN(Error::cudaErrorStreamCaptureUnsupported);
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
  if (capturing(stream)) {
    Node n;
    n.type = cudaGraphNodeTypeHost;
    n.hostFn = fn;
    n.userData = data;
    RETURN(captureNode(stream, std::move(n)));
  }
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
  // In a capture an event joins other streams into it (fork/join); only one stream is captured.
  if (capturing(stream)) RETURN(rt().notSupported("cudaEventRecord in a stream capture"));
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
  // User constant memory is the module's (as on a GPU, where every kernel of a module reports
  // the module's __constant__ bytes).
  for (const wf::wfx::Symbol &s : fn->module->image.symbols)
    if (s.segment == wf::wfx::Segment::Const)
      attr->constSizeBytes = std::max<size_t>(attr->constSizeBytes, size_t(s.offset) + s.size);
  // The binary is compiled for the device (compute capability 8.0); the PTX names its own target.
  attr->binaryVersion = 80;
  attr->ptxVersion = attr->binaryVersion;
  if (fn->module->ptxArch.rfind("compute_", 0) == 0)
    attr->ptxVersion = std::atoi(fn->module->ptxArch.c_str() + 8);
  attr->maxDynamicSharedSizeBytes =
      fn->maxDynamicShared >= 0 ? fn->maxDynamicShared : int(c.sharedMemPerBlock - k->sharedBytes);
  attr->preferredShmemCarveout = fn->preferredCarveout;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaFuncSetAttribute(const void *func, cudaFuncAttribute attr, int value) {
  API("cudaFuncSetAttribute");
  REQUIRE_DEVICE();
  wf::rt::FunctionRecord *fn = rt().findFunction(func);
  if (!fn) RETURN(Error::cudaErrorInvalidDeviceFunction);
  switch (attr) {
  case cudaFuncAttributeMaxDynamicSharedMemorySize: {
    // The opt-in limit: what one core holds, less the kernel's static shared memory.
    const wf::wfx::Kernel *k = rt().kernelOf(*fn);
    if (!k) RETURN(fn->module->loadError);
    uint32_t cap = rt().device()->info().config.sharedMemPerCore - k->sharedBytes;
    if (value < 0 || uint32_t(value) > cap) RETURN(Error::cudaErrorInvalidValue);
    fn->maxDynamicShared = value;
    break;
  }
  case cudaFuncAttributePreferredSharedMemoryCarveout:
    // A hint: shared memory is not carved out of a cache here.
    if (value < -1 || value > 100) RETURN(Error::cudaErrorInvalidValue);
    fn->preferredCarveout = value;
    break;
  default: RETURN(Error::cudaErrorInvalidValue);
  }
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaFuncSetCacheConfig(const void *func, cudaFuncCache config) {
  API("cudaFuncSetCacheConfig");
  REQUIRE_DEVICE();
  if (!rt().findFunction(func)) RETURN(Error::cudaErrorInvalidDeviceFunction);
  if (unsigned(config) > cudaFuncCachePreferEqual) RETURN(Error::cudaErrorInvalidValue);
  RETURN(Error::cudaSuccess); // a preference: there is no L1/shared split to choose
}
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config) {
  API("cudaDeviceSetCacheConfig");
  REQUIRE_DEVICE();
  if (unsigned(config) > cudaFuncCachePreferEqual) RETURN(Error::cudaErrorInvalidValue);
  gCacheConfig = int(config);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache *config) {
  API("cudaDeviceGetCacheConfig");
  if (!config) RETURN(Error::cudaErrorInvalidValue);
  REQUIRE_DEVICE();
  *config = cudaFuncCache(gCacheConfig);
  RETURN(Error::cudaSuccess);
}
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
  // Loading aims the host pointers of the module's __managed__ variables at their device copies
  // (on the driver route, the copies in the module loaded from its PTX, which its kernels use).
  Error e =
      wf::rt::driver_route::enabled() ? wf::rt::driver_route::initModule(m) : rt().ensureLoaded(*m);
  return e == Error::cudaSuccess;
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

// --- managed memory ---
cudaError_t cudaMallocManaged(void **ptr, size_t size, unsigned flags) {
  API("cudaMallocManaged");
  if (!ptr || size == 0 || (flags != 1 && flags != 2)) RETURN(Error::cudaErrorInvalidValue);
  REQUIRE_DEVICE();
  uint64_t a = 0;
  Error e = rt().mallocManaged(size, a);
  *ptr = reinterpret_cast<void *>(a);
  RETURN(e);
}
// Prefetching and advice only steer migration, and managed memory never migrates here: accepted
// for managed ranges as CUDA accepts them.
cudaError_t cudaMemPrefetchAsync(const void *ptr, size_t count, cudaMemLocation, unsigned flags,
                                 cudaStream_t stream) {
  API("cudaMemPrefetchAsync");
  REQUIRE_DEVICE();
  if (!validStream(stream)) RETURN(Error::cudaErrorInvalidResourceHandle);
  if (flags || !count || !rt().isManaged(addr(ptr)) || !rt().isManaged(addr(ptr) + count - 1))
    RETURN(Error::cudaErrorInvalidValue);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaMemAdvise(const void *ptr, size_t count, int advice, cudaMemLocation) {
  API("cudaMemAdvise");
  REQUIRE_DEVICE();
  if (advice < 1 || advice > 6 || !count || !rt().isManaged(addr(ptr)) ||
      !rt().isManaged(addr(ptr) + count - 1))
    RETURN(Error::cudaErrorInvalidValue);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *ptr, size_t length, unsigned flags) {
  API("cudaStreamAttachMemAsync");
  REQUIRE_DEVICE();
  if (!validStream(stream)) RETURN(Error::cudaErrorInvalidResourceHandle);
  if ((flags != 1 && flags != 2 && flags != 4) || !rt().isManaged(addr(ptr)) ||
      (length && !rt().isManaged(addr(ptr) + length - 1)))
    RETURN(Error::cudaErrorInvalidValue);
  RETURN(Error::cudaSuccess);
}

// --- page-locked host memory ---
cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned flags) {
  API("cudaHostRegister");
  REQUIRE_DEVICE();
  RETURN(rt().hostRegister(ptr, size, flags));
}
cudaError_t cudaHostUnregister(void *ptr) {
  API("cudaHostUnregister");
  REQUIRE_DEVICE();
  RETURN(rt().hostUnregister(ptr));
}

// --- pitched 3D memory, 2D/3D async, peer copies (one device: peer is device 0 itself) ---
cudaError_t cudaMalloc3D(cudaPitchedPtr *p, cudaExtent e) {
  API("cudaMalloc3D");
  if (!p) RETURN(Error::cudaErrorInvalidValue);
  REQUIRE_DEVICE();
  size_t pitch = (e.width + 255) / 256 * 256;
  uint64_t a = 0;
  Error err = rt().malloc(pitch * e.height * e.depth, a);
  *p = cudaPitchedPtr{reinterpret_cast<void *>(a), pitch, e.width, e.height};
  RETURN(err);
}
cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms *p) {
  API("cudaMemcpy3D");
  REQUIRE_DEVICE();
  RETURN(memcpy3D(p));
}
cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms *p, cudaStream_t stream) {
  API("cudaMemcpy3DAsync");
  REQUIRE_DEVICE();
  if (!validStream(stream)) RETURN(Error::cudaErrorInvalidResourceHandle);
  if (capturing(stream)) RETURN(Error::cudaErrorStreamCaptureUnsupported);
  RETURN(memcpy3D(p));
}
cudaError_t cudaMemset3D(cudaPitchedPtr p, int value, cudaExtent e) {
  API("cudaMemset3D");
  REQUIRE_DEVICE();
  RETURN(memset3D(p, value, e));
}
cudaError_t cudaMemset3DAsync(cudaPitchedPtr p, int value, cudaExtent e, cudaStream_t stream) {
  API("cudaMemset3DAsync");
  REQUIRE_DEVICE();
  if (!validStream(stream)) RETURN(Error::cudaErrorInvalidResourceHandle);
  if (capturing(stream)) RETURN(Error::cudaErrorStreamCaptureUnsupported);
  RETURN(memset3D(p, value, e));
}
cudaError_t cudaMemset2DAsync(void *ptr, size_t pitch, int value, size_t width, size_t height,
                              cudaStream_t stream) {
  API("cudaMemset2DAsync");
  REQUIRE_DEVICE();
  if (!validStream(stream)) RETURN(Error::cudaErrorInvalidResourceHandle);
  if (capturing(stream)) {
    Node n;
    n.type = cudaGraphNodeTypeMemset;
    n.memset = cudaMemsetParams{ptr, pitch, unsigned(uint8_t(value)), 1, width, height};
    RETURN(captureNode(stream, std::move(n)));
  }
  if (width > pitch) RETURN(Error::cudaErrorInvalidValue);
  RETURN(memset2D(ptr, pitch, uint8_t(value), 1, width, height));
}
cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice,
                           size_t count) {
  API("cudaMemcpyPeer");
  REQUIRE_DEVICE();
  if (dstDevice != 0 || srcDevice != 0) RETURN(Error::cudaErrorInvalidDevice);
  RETURN(copy(dst, src, count, cudaMemcpyDeviceToDevice));
}
cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice,
                                size_t count, cudaStream_t stream) {
  {
    API("cudaMemcpyPeerAsync");
    if (!validStream(stream)) RETURN(Error::cudaErrorInvalidResourceHandle);
    if (capturing(stream)) RETURN(Error::cudaErrorStreamCaptureUnsupported);
  }
  return cudaMemcpyPeer(dst, dstDevice, src, srcDevice, count);
}

// --- launches: cudaLaunchKernelEx, cooperative ---
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args) {
  API("cudaLaunchKernelEx");
  REQUIRE_DEVICE();
  if (!config || (config->numAttrs && !config->attrs)) RETURN(Error::cudaErrorInvalidValue);
  bool cooperative = false;
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const cudaLaunchAttribute &a = config->attrs[i];
    switch (int(a.id)) {
    case cudaLaunchAttributeCooperative: cooperative = a.val.cooperative != 0; break;
    case 4: { // cudaLaunchAttributeClusterDimension: thread block clusters are not modelled
      unsigned dims[3];
      std::memcpy(dims, a.val.pad, sizeof dims);
      if (dims[0] * dims[1] * dims[2] > 1) RETURN(rt().notSupported("thread block clusters"));
      break;
    }
    default: break; // scheduling and caching hints (priority, access policy, carveout, ...)
    }
  }
  RETURN(launchImpl(rt().findFunction(func), config->gridDim, config->blockDim, args,
                    config->dynamicSmemBytes, config->stream, cooperative));
}
cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block, void **args,
                                        size_t shared, cudaStream_t stream) {
  API("cudaLaunchCooperativeKernel");
  REQUIRE_DEVICE();
  RETURN(launchImpl(rt().findFunction(func), grid, block, args, shared, stream, true));
}

// --- stream capture and graphs (every stream is synchronous: a graph runs when launched) ---
cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode) {
  API("cudaStreamBeginCapture");
  REQUIRE_DEVICE();
  if (unsigned(mode) > cudaStreamCaptureModeRelaxed) RETURN(Error::cudaErrorInvalidValue);
  // The legacy default stream cannot be captured; nor can a stream twice.
  if (!gStreams.count(stream)) RETURN(validStream(stream) ? Error::cudaErrorStreamCaptureUnsupported
                                                           : Error::cudaErrorInvalidResourceHandle);
  if (stream->capture) RETURN(Error::cudaErrorIllegalState);
  stream->capture = new CUgraph_st;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *graph) {
  API("cudaStreamEndCapture");
  REQUIRE_DEVICE();
  if (!graph) RETURN(Error::cudaErrorInvalidValue);
  if (!gStreams.count(stream)) RETURN(Error::cudaErrorInvalidResourceHandle);
  if (!stream->capture) RETURN(Error::cudaErrorIllegalState);
  *graph = stream->capture;
  gGraphs.insert(stream->capture);
  stream->capture = nullptr;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus *status) {
  API("cudaStreamIsCapturing");
  if (!status) RETURN(Error::cudaErrorInvalidValue);
  if (!validStream(stream)) RETURN(Error::cudaErrorInvalidResourceHandle);
  *status = capturing(stream) ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphCreate(cudaGraph_t *graph, unsigned flags) {
  API("cudaGraphCreate");
  if (!graph || flags) RETURN(Error::cudaErrorInvalidValue);
  REQUIRE_DEVICE();
  *graph = new CUgraph_st;
  gGraphs.insert(*graph);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  API("cudaGraphDestroy");
  if (!gGraphs.erase(graph)) RETURN(Error::cudaErrorInvalidValue);
  delete graph;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes) {
  API("cudaGraphGetNodes");
  if (!gGraphs.count(graph) || !numNodes) RETURN(Error::cudaErrorInvalidValue);
  if (nodes)
    for (size_t i = 0; i < *numNodes; ++i)
      nodes[i] = i < graph->nodes.size() ? graph->nodes[i].get() : nullptr;
  *numNodes = graph->nodes.size();
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType *type) {
  API("cudaGraphNodeGetType");
  if (!node || !type || !gGraphs.count(node->graph)) RETURN(Error::cudaErrorInvalidValue);
  *type = node->type;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                   const cudaGraphNode_t *deps, size_t numDeps,
                                   const cudaKernelNodeParams *p) {
  API("cudaGraphAddKernelNode");
  REQUIRE_DEVICE();
  if (!node || !p || !gGraphs.count(graph) || !validDeps(graph, deps, numDeps))
    RETURN(Error::cudaErrorInvalidValue);
  if (p->extra) RETURN(rt().notSupported("cudaKernelNodeParams::extra"));
  Node n;
  n.type = cudaGraphNodeTypeKernel;
  n.fn = rt().findFunction(p->func);
  if (!n.fn) RETURN(Error::cudaErrorInvalidDeviceFunction);
  n.grid = p->gridDim;
  n.block = p->blockDim;
  n.shared = p->sharedMemBytes;
  if (Error e = captureArgs(n.fn, p->kernelParams, n.args); e != Error::cudaSuccess) RETURN(e);
  *node = addNode(graph, std::move(n), deps, numDeps);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *node, cudaGraph_t graph,
                                     const cudaGraphNode_t *deps, size_t numDeps, void *dst,
                                     const void *src, size_t count, cudaMemcpyKind kind) {
  API("cudaGraphAddMemcpyNode1D");
  REQUIRE_DEVICE();
  if (!node || !gGraphs.count(graph) || !validDeps(graph, deps, numDeps) || !dst || !src)
    RETURN(Error::cudaErrorInvalidValue);
  if (unsigned(kind) > cudaMemcpyDefault) RETURN(Error::cudaErrorInvalidMemcpyDirection);
  Node n;
  n.type = cudaGraphNodeTypeMemcpy;
  n.dst = dst;
  n.src = src;
  n.count = count;
  n.kind = kind;
  *node = addNode(graph, std::move(n), deps, numDeps);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                   const cudaGraphNode_t *deps, size_t numDeps,
                                   const cudaMemsetParams *p) {
  API("cudaGraphAddMemsetNode");
  REQUIRE_DEVICE();
  if (!node || !p || !gGraphs.count(graph) || !validDeps(graph, deps, numDeps))
    RETURN(Error::cudaErrorInvalidValue);
  if (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4)
    RETURN(Error::cudaErrorInvalidValue);
  Node n;
  n.type = cudaGraphNodeTypeMemset;
  n.memset = *p;
  *node = addNode(graph, std::move(n), deps, numDeps);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                 const cudaGraphNode_t *deps, size_t numDeps,
                                 const cudaHostNodeParams *p) {
  API("cudaGraphAddHostNode");
  if (!node || !p || !p->fn || !gGraphs.count(graph) || !validDeps(graph, deps, numDeps))
    RETURN(Error::cudaErrorInvalidValue);
  Node n;
  n.type = cudaGraphNodeTypeHost;
  n.hostFn = p->fn;
  n.userData = p->userData;
  *node = addNode(graph, std::move(n), deps, numDeps);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                  const cudaGraphNode_t *deps, size_t numDeps) {
  API("cudaGraphAddEmptyNode");
  if (!node || !gGraphs.count(graph) || !validDeps(graph, deps, numDeps))
    RETURN(Error::cudaErrorInvalidValue);
  *node = addNode(graph, Node{}, deps, numDeps);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *exec, cudaGraph_t graph,
                                 unsigned long long flags) {
  API("cudaGraphInstantiate");
  REQUIRE_DEVICE();
  if (!exec || !gGraphs.count(graph)) RETURN(Error::cudaErrorInvalidValue);
  (void)flags; // auto-free-on-launch, upload, device launch, priority: nothing to do here
  auto *e = new CUgraphExec_st;
  for (const auto &n : graph->nodes)
    e->nodes.push_back(static_cast<const Node &>(*n));
  gExecs.insert(e);
  *exec = e;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *exec, cudaGraph_t graph,
                                          unsigned long long flags) {
  return cudaGraphInstantiate(exec, graph, flags);
}
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec) {
  API("cudaGraphExecDestroy");
  if (!gExecs.erase(exec)) RETURN(Error::cudaErrorInvalidValue);
  delete exec;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream) {
  API("cudaGraphLaunch");
  REQUIRE_DEVICE();
  if (!gExecs.count(exec)) RETURN(Error::cudaErrorInvalidValue);
  if (!validStream(stream)) RETURN(Error::cudaErrorInvalidResourceHandle);
  if (capturing(stream)) RETURN(Error::cudaErrorStreamCaptureUnsupported);
  for (const Node &n : exec->nodes) {
    if (Error e = runNode(n); e != Error::cudaSuccess) RETURN(e);
    if (rt().sticky() != Error::cudaSuccess) RETURN(Error::cudaSuccess); // reported at sync
  }
  RETURN(Error::cudaSuccess);
}

// --- stream-ordered allocation and memory pools (streams are synchronous: a free in stream
// order is a free now, and the next allocation may reuse the memory) ---
cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t pool,
                                    cudaStream_t stream) {
  API("cudaMallocFromPoolAsync");
  if (!ptr || !gPools.count(pool)) RETURN(Error::cudaErrorInvalidValue);
  REQUIRE_DEVICE();
  if (!validStream(stream)) RETURN(Error::cudaErrorInvalidResourceHandle);
  if (capturing(stream)) RETURN(Error::cudaErrorStreamCaptureUnsupported);
  uint64_t a = 0;
  Error e = rt().malloc(size, a);
  *ptr = reinterpret_cast<void *>(a);
  if (e == Error::cudaSuccess && a) {
    gPoolAllocs[a] = {pool, size};
    pool->used += size;
    pool->usedHigh = std::max(pool->usedHigh, pool->used);
  }
  RETURN(e);
}
cudaError_t cudaMallocAsync(void **ptr, size_t size, cudaStream_t stream) {
  return cudaMallocFromPoolAsync(ptr, size, gCurrentPool, stream);
}
cudaError_t cudaFreeAsync(void *ptr, cudaStream_t stream) {
  API("cudaFreeAsync");
  REQUIRE_DEVICE();
  if (!validStream(stream)) RETURN(Error::cudaErrorInvalidResourceHandle);
  if (capturing(stream)) RETURN(Error::cudaErrorStreamCaptureUnsupported);
  if (auto it = gPoolAllocs.find(addr(ptr)); it != gPoolAllocs.end()) {
    it->second.first->used -= it->second.second;
    gPoolAllocs.erase(it);
  }
  RETURN(rt().free(addr(ptr)));
}
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *pool, int device) {
  API("cudaDeviceGetDefaultMemPool");
  if (!pool) RETURN(Error::cudaErrorInvalidValue);
  if (device != 0) RETURN(Error::cudaErrorInvalidDevice);
  *pool = &gDefaultPool;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *pool, int device) {
  API("cudaDeviceGetMemPool");
  if (!pool) RETURN(Error::cudaErrorInvalidValue);
  if (device != 0) RETURN(Error::cudaErrorInvalidDevice);
  *pool = gCurrentPool;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t pool) {
  API("cudaDeviceSetMemPool");
  if (device != 0) RETURN(Error::cudaErrorInvalidDevice);
  if (!gPools.count(pool)) RETURN(Error::cudaErrorInvalidValue);
  gCurrentPool = pool;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaMemPoolCreate(cudaMemPool_t *pool, const void *props) {
  API("cudaMemPoolCreate");
  if (!pool || !props) RETURN(Error::cudaErrorInvalidValue);
  REQUIRE_DEVICE();
  *pool = new CUmemPoolHandle_st;
  gPools.insert(*pool);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool) {
  API("cudaMemPoolDestroy");
  if (pool == &gDefaultPool || !gPools.erase(pool)) RETURN(Error::cudaErrorInvalidValue);
  if (gCurrentPool == pool) gCurrentPool = &gDefaultPool;
  delete pool;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, size_t) {
  API("cudaMemPoolTrimTo");
  RETURN(gPools.count(pool) ? Error::cudaSuccess : Error::cudaErrorInvalidValue);
}
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void *value) {
  API("cudaMemPoolSetAttribute");
  if (!gPools.count(pool) || !value) RETURN(Error::cudaErrorInvalidValue);
  switch (attr) {
  case cudaMemPoolReuseFollowEventDependencies:
  case cudaMemPoolReuseAllowOpportunistic:
  case cudaMemPoolReuseAllowInternalDependencies:
    pool->reuse[int(attr) - 1] = *static_cast<int *>(value);
    break;
  case cudaMemPoolAttrReleaseThreshold: pool->releaseThreshold = *static_cast<uint64_t *>(value); break;
  case cudaMemPoolAttrReservedMemHigh:
  case cudaMemPoolAttrUsedMemHigh:
    // Only resetting to zero is allowed: the high-water mark restarts from the current use.
    if (*static_cast<uint64_t *>(value) != 0) RETURN(Error::cudaErrorInvalidValue);
    pool->usedHigh = pool->used;
    break;
  default: RETURN(Error::cudaErrorInvalidValue);
  }
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void *value) {
  API("cudaMemPoolGetAttribute");
  if (!gPools.count(pool) || !value) RETURN(Error::cudaErrorInvalidValue);
  switch (attr) {
  case cudaMemPoolReuseFollowEventDependencies:
  case cudaMemPoolReuseAllowOpportunistic:
  case cudaMemPoolReuseAllowInternalDependencies:
    *static_cast<int *>(value) = pool->reuse[int(attr) - 1];
    break;
  case cudaMemPoolAttrReleaseThreshold: *static_cast<uint64_t *>(value) = pool->releaseThreshold; break;
  // Freed memory goes back to the device at once: reserved equals used.
  case cudaMemPoolAttrReservedMemCurrent:
  case cudaMemPoolAttrUsedMemCurrent: *static_cast<uint64_t *>(value) = pool->used; break;
  case cudaMemPoolAttrReservedMemHigh:
  case cudaMemPoolAttrUsedMemHigh: *static_cast<uint64_t *>(value) = pool->usedHigh; break;
  default: RETURN(Error::cudaErrorInvalidValue);
  }
  RETURN(Error::cudaSuccess);
}

// --- not yet implemented: cudaErrorNotSupported with a message (never silent success) ---
#define WF_UNSUPPORTED(name)                                                                       \
  cudaError_t name() {                                                                             \
    std::lock_guard<std::recursive_mutex> l(gApi);                                                 \
    return cudaError_t(int(rt().notSupported(#name)));                                             \
  }

} // extern "C"

// The CUDA runtime API over the common layer (runtime/lib): argument checks, the error state and
// tracing happen there or in the small helpers here; each call stays a few lines.
#include "api_common.h"
#include "cuda_types.h"
#include "texture_api.h"
#include "warpforge/isa/isa.gen.h"
#include "warpforge/runtime/graphs.h"
#include "warpforge/runtime/occupancy.h"
#include "warpforge/runtime/runtime.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <dlfcn.h>
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
             CUstream_st *stream);
Error symbol(const void *hostVar, uint64_t &address, uint64_t &size);
/// Loads the driver module standing for a registered fatbinary (__cudaInitModule).
Error initModule(ModuleRecord *record);
} // namespace wf::rt::driver_route

using wf::rt::Dim3;
using wf::rt::Error;
using wf::rt::Runtime;

namespace {

int gDevice = 0;
unsigned gDeviceFlags = 0;

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
  std::lock_guard<wf::rt::ContextLock> apiLock(rt().contextLock());                                \
  const char *apiName = name
Dim3 toDim(dim3 d) { return Dim3{d.x, d.y, d.z}; }

/// Set while an entry point of nvcc's --default-stream per-thread runs (the *_ptsz and *_ptds
/// names): there the null stream is the calling thread's default stream.
thread_local bool tPerThreadDefault = false;
struct PerThreadDefault {
  bool saved = tPerThreadDefault;
  PerThreadDefault() { tPerThreadDefault = true; }
  ~PerThreadDefault() { tPerThreadDefault = saved; }
};

/// The runtime's stream behind a handle; nullptr when the handle is not a stream.
CUstream_st *streamOf(cudaStream_t s) { return rt().stream(s, tPerThreadDefault); }
bool validStream(cudaStream_t s) { return streamOf(s) != nullptr; }

/// One contiguous copy in `stream`'s order; `kind` resolved against the pointers. `async`:
/// cudaMemcpyAsync's semantics, else cudaMemcpy's (returns when done).
Error copy(void *dst, const void *src, size_t count, cudaMemcpyKind kind,
           cudaStream_t stream = nullptr, bool async = false) {
  if (unsigned(kind) > cudaMemcpyDefault)
    return Error::cudaErrorInvalidMemcpyDirection;
  CUstream_st *s = streamOf(stream);
  if (!s)
    return Error::cudaErrorInvalidResourceHandle;
  return rt().memcpy(dst, src, count, Runtime::CopyKind(int(kind)), s, async);
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
  p.warpSize = int(wf::isa::kWarpSize);
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
  p.asyncEngineCount = info.queues > 1 ? int(info.queues) - 1 : 0; // copy engines
  p.unifiedAddressing = 1;
  p.memoryBusWidth = 64;
  p.l2CacheSize = 0;
  p.maxThreadsPerMultiProcessor = int(c.warpsPerCore * wf::isa::kWarpSize);
  p.streamPrioritiesSupported = 1;
  p.globalL1CacheSupported = 1;
  p.localL1CacheSupported = 1;
  p.sharedMemPerMultiprocessor = c.sharedMemPerCore;
  p.regsPerMultiprocessor = int(c.regsPerCore);
  // Managed memory is device memory at its own host address (in-process device only); the
  // program synchronizes before the host touches it (concurrentManagedAccess 0), so no migration.
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

} // namespace

namespace {

using Node = wf::rt::GraphNode;
using wf::rt::graphs;

bool capturing(cudaStream_t s) {
  CUstream_st *st = streamOf(s);
  return st && st->capture;
}

/// True in libcudart.so.12: there the graph calls that CUDA 13 gave an edge-data parameter
/// (cudaGraphGetEdges, cudaGraphAddDependencies, ...) have CUDA 12's shorter form, the count
/// where CUDA 13 passes the edge data. Both libraries are built from these objects, so the
/// library asks which file it was loaded from.
bool cuda12Abi() {
  static const bool is12 = [] {
    Dl_info info{};
    if (!dladdr(reinterpret_cast<void *>(&cuda12Abi), &info) || !info.dli_fname)
      return false;
    return std::strstr(info.dli_fname, "libcudart.so.12") != nullptr;
  }();
  return is12;
}

/// Edge data other than the default (full completion, memory visibility) is not supported.
bool noEdgeData(const cudaGraphEdgeData *edges, size_t count) {
  for (size_t i = 0; edges && i < count; ++i)
    if (edges[i].from_port || edges[i].to_port || edges[i].type)
      return false;
  return true;
}

Error listOut(const std::vector<CUgraphNode_st *> &list, cudaGraphNode_t *out,
              cudaGraphEdgeData *edges, size_t *count) {
  wf::rt::Graphs::listOut(list, out, edges, count);
  return Error::cudaSuccess;
}

bool isNode(const CUgraphNode_st *node, cudaGraphNodeType type) {
  return graphs().validNode(node) && node->type == type;
}

/// The executable node made from `node`, of kind `type` when one is given; null if none.
wf::rt::ExecNode *execNodeOf(cudaGraphExec_t exec, cudaGraphNode_t node, int type = -1) {
  if (!graphs().validExec(exec) || !node)
    return nullptr;
  wf::rt::ExecNode *e = wf::rt::Graphs::execNode(exec, node);
  return e && (type < 0 || int(e->type) == type) ? e : nullptr;
}

/// New parameters, made by `make(Node &)`, of the executable node made from `node` of kind
/// `type`; it stays the same node (origin, enabled state). Unchanged on error.
template <typename MakeNode>
Error setExecNode(cudaGraphExec_t exec, cudaGraphNode_t node, cudaGraphNodeType type,
                  MakeNode make) {
  wf::rt::ExecNode *e = execNodeOf(exec, node, type);
  if (!e)
    return Error::cudaErrorInvalidValue;
  Node n;
  if (Error err = make(n); err != Error::cudaSuccess)
    return err;
  n.type = e->type;
  static_cast<Node &>(*e) = std::move(n);
  return Error::cudaSuccess;
}

/// Event record and event wait nodes differ only in their kind (`type`).
Error addEventNode(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *deps,
                   size_t numDeps, cudaEvent_t event, cudaGraphNodeType type) {
  if (!node || !graphs().valid(graph) || !graphs().validDeps(graph, deps, numDeps))
    return Error::cudaErrorInvalidValue;
  if (!rt().isEvent(event))
    return Error::cudaErrorInvalidResourceHandle;
  Node n;
  n.type = type;
  n.event = event;
  *node = graphs().add(graph, std::move(n), deps, numDeps);
  return Error::cudaSuccess;
}
Error nodeEvent(cudaGraphNode_t node, cudaEvent_t *event, cudaGraphNodeType type) {
  if (!event || !isNode(node, type))
    return Error::cudaErrorInvalidValue;
  *event = node->event;
  return Error::cudaSuccess;
}
Error setNodeEvent(cudaGraphNode_t node, cudaEvent_t event, cudaGraphNodeType type) {
  if (!isNode(node, type))
    return Error::cudaErrorInvalidValue;
  if (!rt().isEvent(event))
    return Error::cudaErrorInvalidResourceHandle;
  node->event = event;
  return Error::cudaSuccess;
}
Error setExecNodeEvent(cudaGraphExec_t exec, cudaGraphNode_t node, cudaEvent_t event,
                       cudaGraphNodeType type) {
  wf::rt::ExecNode *e = execNodeOf(exec, node, type);
  if (!e)
    return Error::cudaErrorInvalidValue;
  if (!rt().isEvent(event))
    return Error::cudaErrorInvalidResourceHandle;
  e->event = event;
  return Error::cudaSuccess;
}

Error captureArgs(wf::rt::FunctionRecord *fn, void **args, std::vector<std::vector<uint8_t>> &out);

/// A kernel node's parameters into `out` (unchanged on error): the argument values are copied.
Error kernelNode(const cudaKernelNodeParams *p, Node &out) {
  if (!p)
    return Error::cudaErrorInvalidValue;
  if (p->extra)
    return rt().notSupported("cudaKernelNodeParams::extra");
  Node n;
  n.type = cudaGraphNodeTypeKernel;
  n.fn = rt().findFunction(p->func);
  if (!n.fn)
    return Error::cudaErrorInvalidDeviceFunction;
  n.func = p->func;
  n.grid = p->gridDim;
  n.block = p->blockDim;
  n.shared = p->sharedMemBytes;
  if (Error e = captureArgs(n.fn, p->kernelParams, n.args); e != Error::cudaSuccess)
    return e;
  static_cast<Node &>(out) = std::move(n);
  return Error::cudaSuccess;
}

/// A memcpy node's parameters: a pitched 3D copy between linear memory (CUDA arrays are not
/// supported in graph nodes here).
Error copyNode(const cudaMemcpy3DParms *p, Node &out) {
  if (!p)
    return Error::cudaErrorInvalidValue;
  if (p->srcArray || p->dstArray)
    return rt().notSupported("graph memcpy nodes with CUDA arrays");
  if (unsigned(p->kind) > cudaMemcpyDefault)
    return Error::cudaErrorInvalidMemcpyDirection;
  const cudaExtent &e = p->extent;
  if (!p->srcPtr.ptr || !p->dstPtr.ptr || !e.width || !e.height || !e.depth)
    return Error::cudaErrorInvalidValue;
  if (p->srcPos.x + e.width > p->srcPtr.pitch || p->dstPos.x + e.width > p->dstPtr.pitch)
    return Error::cudaErrorInvalidPitchValue;
  if (e.depth > 1 && (p->srcPos.y + e.height > p->srcPtr.ysize ||
                      p->dstPos.y + e.height > p->dstPtr.ysize))
    return Error::cudaErrorInvalidValue;
  Node n;
  n.type = cudaGraphNodeTypeMemcpy;
  n.copy = *p;
  static_cast<Node &>(out) = std::move(n);
  return Error::cudaSuccess;
}

Error copyNode1D(void *dst, const void *src, size_t count, cudaMemcpyKind kind, Node &out) {
  if (!dst || !src || !count)
    return Error::cudaErrorInvalidValue;
  if (unsigned(kind) > cudaMemcpyDefault)
    return Error::cudaErrorInvalidMemcpyDirection;
  Node n;
  n.type = cudaGraphNodeTypeMemcpy;
  n.setCopy1D(dst, src, count, kind);
  static_cast<Node &>(out) = std::move(n);
  return Error::cudaSuccess;
}

Error symbolOf(const void *hostVar, uint64_t &address, uint64_t &size);

/// A copy to (`toSymbol`) or from a registered variable, `offset` bytes in.
Error symbolCopyNode(const void *symbol, const void *other, size_t count, size_t offset,
                     cudaMemcpyKind kind, bool toSymbol, Node &out) {
  uint64_t address = 0, size = 0;
  if (Error e = symbolOf(symbol, address, size); e != Error::cudaSuccess)
    return e;
  if (offset > size || count > size - offset)
    return Error::cudaErrorInvalidValue;
  bool fromHost = kind == cudaMemcpyHostToDevice, toHost = kind == cudaMemcpyDeviceToHost;
  if (kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault &&
      (toSymbol ? !fromHost : !toHost))
    return Error::cudaErrorInvalidMemcpyDirection;
  auto *at = reinterpret_cast<void *>(address + offset);
  return toSymbol ? copyNode1D(at, other, count, kind, out)
                  : copyNode1D(const_cast<void *>(other), at, count, kind, out);
}

Error memsetNode(const cudaMemsetParams *p, Node &out) {
  if (!p || !p->dst)
    return Error::cudaErrorInvalidValue;
  if (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4)
    return Error::cudaErrorInvalidValue;
  if (p->height > 1 && uint64_t(p->width) * p->elementSize > p->pitch)
    return Error::cudaErrorInvalidValue;
  Node n;
  n.type = cudaGraphNodeTypeMemset;
  n.memset = *p;
  static_cast<Node &>(out) = std::move(n);
  return Error::cudaSuccess;
}

Error hostNode(const cudaHostNodeParams *p, Node &out) {
  if (!p || !p->fn)
    return Error::cudaErrorInvalidValue;
  Node n;
  n.type = cudaGraphNodeTypeHost;
  n.hostFn = p->fn;
  n.userData = p->userData;
  static_cast<Node &>(out) = std::move(n);
  return Error::cudaSuccess;
}

Error captureArgs(wf::rt::FunctionRecord *fn, void **args, std::vector<std::vector<uint8_t>> &out) {
  return wf::rt::Graphs::copyArgs(rt(), *fn, args, out);
}

/// Appends to the graph a stream captures into, after the stream's previous operation.
Error captureNode(cudaStream_t s, Node n) { return graphs().capture(streamOf(s), std::move(n)); }

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
    return wf::rt::driver_route::launch(*fn, toDim(grid), toDim(block), args, shared,
                                        streamOf(stream));
  return rt().launch(*fn, toDim(grid), toDim(block), args, shared, streamOf(stream), cooperative);
}

/// cudaMemset2D's work in `stream`'s order: `height` rows of `width` elements of 1, 2 or 4 bytes.
Error memset2D(void *ptr, size_t pitch, unsigned value, unsigned elementSize, size_t width,
               size_t height, cudaStream_t stream = nullptr) {
  if (elementSize != 1 && elementSize != 2 && elementSize != 4)
    return Error::cudaErrorInvalidValue;
  size_t rowBytes = width * elementSize;
  if (height > 1 && rowBytes > pitch)
    return Error::cudaErrorInvalidValue;
  CUstream_st *s = streamOf(stream);
  if (!s)
    return Error::cudaErrorInvalidResourceHandle;
  for (size_t r = 0; r < height && rowBytes; ++r)
    if (Error e = rt().memset(addr(ptr) + r * pitch, value, elementSize, width, s);
        e != Error::cudaSuccess)
      return e;
  return Error::cudaSuccess;
}

/// A pitched region: 3D copies and sets walk it row by row.
uint64_t pitchedAddress(const cudaPitchedPtr &p, const cudaPos &pos, size_t y, size_t z) {
  return addr(p.ptr) + ((pos.z + z) * p.ysize + pos.y + y) * p.pitch + pos.x;
}

Error memcpy3D(const cudaMemcpy3DParms *p, cudaStream_t stream = nullptr, bool async = false) {
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
                           e.width, p->kind, stream, async);
          err != Error::cudaSuccess)
        return err;
  return Error::cudaSuccess;
}

Error memset3D(cudaPitchedPtr p, int value, cudaExtent e, cudaStream_t stream = nullptr) {
  if (e.width > p.pitch)
    return Error::cudaErrorInvalidValue;
  for (size_t z = 0; z < e.depth; ++z)
    if (Error err = memset2D(reinterpret_cast<void *>(pitchedAddress(p, cudaPos{0, 0, 0}, 0, z)),
                             p.pitch, uint8_t(value), 1, e.width, e.height, stream);
        err != Error::cudaSuccess)
      return err;
  return Error::cudaSuccess;
}

} // namespace

extern "C" {

// --- errors ---
cudaError_t cudaGetLastError(void) {
  std::lock_guard<wf::rt::ContextLock> l(rt().contextLock());
  Error e = rt().takeLast();
  if (rt().tracing())
    rt().trace("cudaGetLastError", "", e);
  return cudaError_t(int(e));
}
cudaError_t cudaPeekAtLastError(void) {
  std::lock_guard<wf::rt::ContextLock> l(rt().contextLock());
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
} // extern "C"

void wf::cudart::deviceProperties(cudaDeviceProp &props) { fillProps(props); }

/// The attribute's value (both API layers ask here; no error state is touched).
wf::rt::Error wf::cudart::deviceAttribute(int *value, int attribute) {
  cudaDeviceAttr attr = cudaDeviceAttr(attribute);
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
  case cudaDevAttrWarpSize: *value = int(wf::isa::kWarpSize); break;
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
    if (int(attr) <= 0 || int(attr) > 200) return wf::rt::Error::cudaErrorInvalidValue;
    *value = 0;
  }
  return wf::rt::Error::cudaSuccess;
}

extern "C" {
cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device) {
  API("cudaDeviceGetAttribute");
  if (Error e = rt().ensureDevice(); e != Error::cudaSuccess) RETURN(e);
  if (!value) RETURN(Error::cudaErrorInvalidValue);
  if (device != 0) RETURN(Error::cudaErrorInvalidDevice);
  RETURN(wf::cudart::deviceAttribute(value, int(attr)));
}
cudaError_t cudaDeviceSynchronize(void) {
  API("cudaDeviceSynchronize");
  REQUIRE_DEVICE();
  RETURN(rt().synchronizeDevice());
}
cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }
cudaError_t cudaDeviceReset(void) {
  API("cudaDeviceReset");
  rt().reset(); // streams and events with it
  graphs().reset();
  rt().setCacheConfig(0);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value) {
  API("cudaDeviceSetLimit");
  REQUIRE_DEVICE();
  RETURN(rt().setLimit(int(limit), value));
}
cudaError_t cudaDeviceGetLimit(size_t *value, cudaLimit limit) {
  API("cudaDeviceGetLimit");
  if (!value) RETURN(Error::cudaErrorInvalidValue);
  uint64_t v = 0;
  Error e = rt().getLimit(int(limit), v);
  if (e == Error::cudaSuccess) *value = v;
  RETURN(e);
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
    n.setCopy1D(dst, src, count, kind);
    RETURN(captureNode(stream, std::move(n)));
  }
  RETURN(copy(dst, src, count, kind, stream, true));
}
cudaError_t cudaMemset(void *ptr, int value, size_t count) {
  API("cudaMemset");
  REQUIRE_DEVICE();
  RETURN(memset2D(ptr, count, uint8_t(value), 1, count, 1));
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
  RETURN(memset2D(ptr, count, uint8_t(value), 1, count, 1, stream));
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
} // extern "C"

namespace wf::cudart {

wf::rt::Error streamAttribute(CUstream_st *stream, int id, void *value) {
  if (!value)
    return wf::rt::Error::cudaErrorInvalidValue;
  std::array<uint8_t, 64> v{};
  switch (id) {
  case 8: { // priority
    int priority = stream->priority;
    std::memcpy(v.data(), &priority, sizeof priority);
    break;
  }
  case 1: case 3: case 9: case 10:
    if (auto it = stream->attributes.find(id); it != stream->attributes.end())
      v = it->second;
    else if (id == 3) // cudaSyncPolicyAuto, the default
      v[0] = 1;
    break;
  default:
    return wf::rt::Error::cudaErrorInvalidValue;
  }
  std::memcpy(value, v.data(), v.size());
  return wf::rt::Error::cudaSuccess;
}

wf::rt::Error setStreamAttribute(CUstream_st *stream, int id, const void *value) {
  if (!value)
    return wf::rt::Error::cudaErrorInvalidValue;
  std::array<uint8_t, 64> v;
  std::memcpy(v.data(), value, v.size());
  switch (id) {
  case 1: { // access policy window: a hit ratio in [0, 1]; the window is a hint (no L2 lines set aside)
    float hitRatio;
    std::memcpy(&hitRatio, v.data() + 16, sizeof hitRatio); // base_ptr, num_bytes, hitRatio
    if (!(hitRatio >= 0.0f && hitRatio <= 1.0f))
      return wf::rt::Error::cudaErrorInvalidValue;
    break;
  }
  case 3: // synchronization policy: auto, spin, yield, blocking sync
    if (v[0] < 1 || v[0] > 4)
      return wf::rt::Error::cudaErrorInvalidValue;
    break;
  case 8: { // priority, clamped to the range cudaDeviceGetStreamPriorityRange reports
    int priority;
    std::memcpy(&priority, v.data(), sizeof priority);
    stream->priority = std::max(-5, std::min(0, priority));
    return wf::rt::Error::cudaSuccess;
  }
  case 9: case 10:
    break;
  default:
    return wf::rt::Error::cudaErrorInvalidValue;
  }
  stream->attributes[id] = v;
  return wf::rt::Error::cudaSuccess;
}

wf::rt::Error copyStreamAttributes(CUstream_st *dst, const CUstream_st *src) {
  dst->attributes = src->attributes;
  dst->priority = src->priority;
  return wf::rt::Error::cudaSuccess;
}

wf::rt::Error deviceByPciBusId(const char *pciBusId, int &device) {
  cudaDeviceProp p;
  fillProps(p);
  // [domain:]bus:device[.function], hexadecimal, as CUDA accepts it.
  unsigned domain = 0, bus = 0, dev = 0, fn = 0;
  int n = std::sscanf(pciBusId, "%x:%x:%x.%x", &domain, &bus, &dev, &fn);
  if (n < 3) {
    domain = 0;
    n = std::sscanf(pciBusId, "%x:%x.%x", &bus, &dev, &fn);
    if (n < 2)
      return wf::rt::Error::cudaErrorInvalidValue;
  }
  if (int(domain) != p.pciDomainID || int(bus) != p.pciBusID || int(dev) != p.pciDeviceID)
    return wf::rt::Error::cudaErrorInvalidDevice;
  device = 0;
  return wf::rt::Error::cudaSuccess;
}

} // namespace wf::cudart

namespace {
/// Rows of a 2D copy in `stream`'s order; the synchronous form returns when all are done.
Error memcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
               size_t height, cudaMemcpyKind kind, cudaStream_t stream, bool async) {
  if (width > dpitch || width > spitch) return Error::cudaErrorInvalidPitchValue;
  for (size_t row = 0; row < height; ++row)
    if (Error e = copy(static_cast<char *>(dst) + row * dpitch,
                       static_cast<const char *>(src) + row * spitch, width, kind, stream, async);
        e != Error::cudaSuccess)
      return e;
  return Error::cudaSuccess;
}
} // namespace

extern "C" {
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, cudaMemcpyKind kind) {
  API("cudaMemcpy2D");
  REQUIRE_DEVICE();
  RETURN(memcpy2D(dst, dpitch, src, spitch, width, height, kind, nullptr, false));
}
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, cudaMemcpyKind kind, cudaStream_t s) {
  API("cudaMemcpy2DAsync");
  REQUIRE_DEVICE();
  if (!validStream(s)) RETURN(Error::cudaErrorInvalidResourceHandle);
  if (capturing(s)) { // a memcpy node: one slice of `height` rows
    if (!width || !height) RETURN(Error::cudaSuccess);
    cudaMemcpy3DParms p{};
    p.srcPtr = cudaPitchedPtr{const_cast<void *>(src), spitch, width, height};
    p.dstPtr = cudaPitchedPtr{dst, dpitch, width, height};
    p.extent = cudaExtent{width, height, 1};
    p.kind = kind;
    Node n;
    if (Error e = copyNode(&p, n); e != Error::cudaSuccess) RETURN(e);
    RETURN(captureNode(s, std::move(n)));
  }
  RETURN(memcpy2D(dst, dpitch, src, spitch, width, height, kind, s, true));
}
cudaError_t cudaMemset2D(void *ptr, size_t pitch, int value, size_t width, size_t height) {
  API("cudaMemset2D");
  REQUIRE_DEVICE();
  if (width > pitch) RETURN(Error::cudaErrorInvalidValue);
  RETURN(memset2D(ptr, pitch, uint8_t(value), 1, width, height));
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
} // extern "C"

namespace {
Error memcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                     cudaMemcpyKind kind, cudaStream_t stream, bool async) {
  uint64_t a = 0, size = 0;
  if (Error e = symbolOf(symbol, a, size); e != Error::cudaSuccess) return e;
  if (offset > size || count > size - offset) return Error::cudaErrorInvalidValue;
  if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
    return Error::cudaErrorInvalidMemcpyDirection;
  return copy(reinterpret_cast<void *>(a + offset), src, count, kind, stream, async);
}
Error memcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                       cudaMemcpyKind kind, cudaStream_t stream, bool async) {
  uint64_t a = 0, size = 0;
  if (Error e = symbolOf(symbol, a, size); e != Error::cudaSuccess) return e;
  if (offset > size || count > size - offset) return Error::cudaErrorInvalidValue;
  if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
    return Error::cudaErrorInvalidMemcpyDirection;
  return copy(dst, reinterpret_cast<void *>(a + offset), count, kind, stream, async);
}
} // namespace

extern "C" {
cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                               cudaMemcpyKind kind) {
  API("cudaMemcpyToSymbol");
  REQUIRE_DEVICE();
  RETURN(memcpyToSymbol(symbol, src, count, offset, kind, nullptr, false));
}
cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                 cudaMemcpyKind kind) {
  API("cudaMemcpyFromSymbol");
  REQUIRE_DEVICE();
  RETURN(memcpyFromSymbol(dst, symbol, count, offset, kind, nullptr, false));
}
cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                    size_t offset, cudaMemcpyKind kind, cudaStream_t s) {
  API("cudaMemcpyToSymbolAsync");
  REQUIRE_DEVICE();
  if (!validStream(s)) RETURN(Error::cudaErrorInvalidResourceHandle);
  if (capturing(s)) RETURN(Error::cudaErrorStreamCaptureUnsupported);
  RETURN(memcpyToSymbol(symbol, src, count, offset, kind, s, true));
}
cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                      cudaMemcpyKind kind, cudaStream_t s) {
  API("cudaMemcpyFromSymbolAsync");
  REQUIRE_DEVICE();
  if (!validStream(s)) RETURN(Error::cudaErrorInvalidResourceHandle);
  if (capturing(s)) RETURN(Error::cudaErrorStreamCaptureUnsupported);
  RETURN(memcpyFromSymbol(dst, symbol, count, offset, kind, s, true));
}

// --- streams and events (runtime/lib/streams.cpp: queued, in order per stream) ---
cudaError_t cudaStreamCreateWithPriority(cudaStream_t *stream, unsigned flags, int priority) {
  API("cudaStreamCreate");
  if (!stream || flags > 1) RETURN(Error::cudaErrorInvalidValue);
  REQUIRE_DEVICE();
  *stream = rt().createStream(flags, std::max(-5, std::min(0, priority)));
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned flags) {
  return cudaStreamCreateWithPriority(stream, flags, 0);
}
cudaError_t cudaStreamCreate(cudaStream_t *stream) { return cudaStreamCreateWithPriority(stream, 0, 0); }
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  API("cudaStreamDestroy");
  if (CUstream_st *s = streamOf(stream); s && !s->legacy && !s->perThread)
    graphs().forgetStream(s);
  RETURN(rt().destroyStream(stream));
}
cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  API("cudaStreamSynchronize");
  REQUIRE_DEVICE();
  CUstream_st *s = streamOf(stream);
  if (!s) RETURN(Error::cudaErrorInvalidResourceHandle);
  if (s->capture) RETURN(Error::cudaErrorStreamCaptureUnsupported);
  RETURN(rt().synchronize(s));
}
cudaError_t cudaStreamQuery(cudaStream_t stream) {
  API("cudaStreamQuery");
  REQUIRE_DEVICE();
  CUstream_st *s = streamOf(stream);
  if (!s) RETURN(Error::cudaErrorInvalidResourceHandle);
  // Not ready is an answer, not an error: it does not become the last error.
  Error e = rt().query(s);
  if (e == Error::cudaErrorNotReady) return cudaErrorNotReady;
  RETURN(e);
}
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags) {
  API("cudaStreamWaitEvent");
  REQUIRE_DEVICE();
  if (flags > 1) RETURN(Error::cudaErrorInvalidValue);
  CUstream_st *s = streamOf(stream);
  if (!s || !rt().isEvent(event)) RETURN(Error::cudaErrorInvalidResourceHandle);
  // cudaEventWaitExternal (1): in a capture, an event wait node (invalid outside one).
  if (flags == 1) {
    if (!s->capture) RETURN(Error::cudaErrorInvalidValue);
    Node n;
    n.type = cudaGraphNodeTypeWaitEvent;
    n.event = event;
    RETURN(captureNode(stream, std::move(n)));
  }
  // A captured event forks a stream into its capture or joins it back (graphs.cpp).
  if (s->capture || graphs().capturedEvent(event)) RETURN(graphs().captureWait(s, event));
  RETURN(rt().waitEvent(s, event));
}
cudaError_t cudaStreamGetAttribute(cudaStream_t stream, int attr, void *value) {
  API("cudaStreamGetAttribute");
  CUstream_st *s = streamOf(stream);
  if (!s) RETURN(Error::cudaErrorInvalidResourceHandle);
  RETURN(wf::cudart::streamAttribute(s, attr, value));
}
cudaError_t cudaStreamSetAttribute(cudaStream_t stream, int attr, const void *value) {
  API("cudaStreamSetAttribute");
  CUstream_st *s = streamOf(stream);
  if (!s) RETURN(Error::cudaErrorInvalidResourceHandle);
  RETURN(wf::cudart::setStreamAttribute(s, attr, value));
}
cudaError_t cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src) {
  API("cudaStreamCopyAttributes");
  CUstream_st *d = streamOf(dst), *s = streamOf(src);
  if (!d || !s) RETURN(Error::cudaErrorInvalidResourceHandle);
  RETURN(wf::cudart::copyStreamAttributes(d, s));
}
cudaError_t cudaStreamGetPriority(cudaStream_t stream, int *priority) {
  API("cudaStreamGetPriority");
  CUstream_st *s = streamOf(stream);
  if (!priority || !s) RETURN(Error::cudaErrorInvalidValue);
  *priority = s->priority;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned *flags) {
  API("cudaStreamGetFlags");
  CUstream_st *s = streamOf(stream);
  if (!flags || !s) RETURN(Error::cudaErrorInvalidValue);
  *flags = s->flags;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *data) {
  API("cudaLaunchHostFunc");
  REQUIRE_DEVICE();
  CUstream_st *s = streamOf(stream);
  if (!fn || !s) RETURN(Error::cudaErrorInvalidValue);
  if (s->capture) {
    Node n;
    n.type = cudaGraphNodeTypeHost;
    n.hostFn = fn;
    n.userData = data;
    RETURN(captureNode(stream, std::move(n)));
  }
  rt().enqueueHost(s, [fn, data] { fn(data); });
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t cb, void *data,
                                  unsigned flags) {
  API("cudaStreamAddCallback");
  REQUIRE_DEVICE();
  CUstream_st *s = streamOf(stream);
  if (!cb || flags || !s) RETURN(Error::cudaErrorInvalidValue);
  if (s->capture) RETURN(Error::cudaErrorStreamCaptureUnsupported);
  rt().enqueueHost(s, [cb, stream, data] { cb(stream, cudaSuccess, data); });
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned flags) {
  API("cudaEventCreate");
  if (!event || flags > 0xf) RETURN(Error::cudaErrorInvalidValue);
  REQUIRE_DEVICE();
  *event = rt().createEvent(flags);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaEventCreate(cudaEvent_t *event) { return cudaEventCreateWithFlags(event, 0); }
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  API("cudaEventDestroy");
  graphs().forgetEvent(event);
  RETURN(rt().destroyEvent(event));
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  API("cudaEventRecord");
  REQUIRE_DEVICE();
  CUstream_st *s = streamOf(stream);
  if (!rt().isEvent(event) || !s) RETURN(Error::cudaErrorInvalidResourceHandle);
  // In a capture an event joins other streams into it (fork/join); only one stream is captured.
  if (s->capture) RETURN(graphs().captureRecord(event, s));
  graphs().forgetEvent(event);
  RETURN(rt().recordEvent(event, s));
}
cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned flags) {
  {
    API("cudaEventRecordWithFlags");
    if (flags > 1) RETURN(Error::cudaErrorInvalidValue);
    CUstream_st *s = streamOf(stream);
    // cudaEventRecordExternal (1): in a capture, an event record node; outside, a plain record.
    if (flags == 1 && s && rt().isEvent(event) && s->capture) {
      Node n;
      n.type = cudaGraphNodeTypeEventRecord;
      n.event = event;
      RETURN(captureNode(stream, std::move(n)));
    }
  }
  return cudaEventRecord(event, stream);
}
cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  API("cudaEventSynchronize");
  REQUIRE_DEVICE();
  if (!rt().isEvent(event)) RETURN(Error::cudaErrorInvalidResourceHandle);
  RETURN(rt().synchronizeEvent(event));
}
cudaError_t cudaEventQuery(cudaEvent_t event) {
  API("cudaEventQuery");
  REQUIRE_DEVICE();
  if (!rt().isEvent(event)) RETURN(Error::cudaErrorInvalidResourceHandle);
  Error e = rt().queryEvent(event);
  if (e == Error::cudaErrorNotReady) return cudaErrorNotReady;
  RETURN(e);
}
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end) {
  API("cudaEventElapsedTime");
  REQUIRE_DEVICE();
  if (!ms) RETURN(Error::cudaErrorInvalidValue);
  if (!rt().isEvent(start) || !rt().isEvent(end)) RETURN(Error::cudaErrorInvalidResourceHandle);
  RETURN(rt().elapsedTime(*ms, start, end));
}

// --- kernels ---
cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args,
                             size_t shared, cudaStream_t stream) {
  API("cudaLaunchKernel");
  REQUIRE_DEVICE();
  RETURN(launchImpl(rt().findFunction(func), grid, block, args, shared, stream));
}

cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *attr, const void *func) {
  API("cudaFuncGetAttributes");
  if (!attr) RETURN(Error::cudaErrorInvalidValue);
  REQUIRE_DEVICE();
  wf::rt::FunctionRecord *fn = rt().findFunction(func);
  if (!fn) RETURN(Error::cudaErrorInvalidDeviceFunction);
  wf::rt::FunctionAttributes a;
  if (Error e = rt().functionAttributes(*fn, a); e != Error::cudaSuccess) RETURN(e);
  std::memset(attr, 0, sizeof *attr);
  attr->sharedSizeBytes = a.sharedBytes;
  attr->constSizeBytes = a.constBytes;
  attr->localSizeBytes = a.localBytes;
  attr->maxThreadsPerBlock = a.maxThreadsPerBlock;
  attr->numRegs = a.numRegs;
  attr->ptxVersion = a.ptxVersion;
  attr->binaryVersion = a.binaryVersion;
  attr->maxDynamicSharedSizeBytes = a.maxDynamicShared;
  attr->preferredShmemCarveout = a.preferredCarveout;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaFuncSetAttribute(const void *func, cudaFuncAttribute attr, int value) {
  API("cudaFuncSetAttribute");
  REQUIRE_DEVICE();
  wf::rt::FunctionRecord *fn = rt().findFunction(func);
  if (!fn) RETURN(Error::cudaErrorInvalidDeviceFunction);
  RETURN(rt().setFunctionAttribute(*fn, int(attr), value));
}
cudaError_t cudaFuncGetParamInfo(const void *func, size_t index, size_t *offset, size_t *size) {
  API("cudaFuncGetParamInfo");
  REQUIRE_DEVICE();
  wf::rt::FunctionRecord *fn = rt().findFunction(func);
  if (!fn) RETURN(Error::cudaErrorInvalidDeviceFunction);
  const wf::wfx::Kernel *k = rt().kernelOf(*fn);
  if (!k) RETURN(Error::cudaErrorInvalidDeviceFunction);
  if (index >= k->params.size()) RETURN(Error::cudaErrorInvalidValue);
  if (offset) *offset = k->params[index].offset;
  if (size) *size = k->params[index].size;
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
  rt().setCacheConfig(int(config));
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache *config) {
  API("cudaDeviceGetCacheConfig");
  if (!config) RETURN(Error::cudaErrorInvalidValue);
  REQUIRE_DEVICE();
  *config = cudaFuncCache(rt().cacheConfig());
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
  RETURN(wf::rt::maxActiveBlocksPerCore(rt(), *fn, blockSize, dyn, *n));
}
cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *bytes, const void *func,
                                                      int numBlocks, int blockSize) {
  API("cudaOccupancyAvailableDynamicSMemPerBlock");
  if (!bytes) RETURN(Error::cudaErrorInvalidValue);
  REQUIRE_DEVICE();
  wf::rt::FunctionRecord *fn = rt().findFunction(func);
  if (!fn) RETURN(Error::cudaErrorInvalidDeviceFunction);
  uint64_t b = 0;
  Error e = wf::rt::availableDynamicSharedPerBlock(rt(), *fn, numBlocks, blockSize, b);
  *bytes = size_t(b);
  RETURN(e);
}
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *func, int blockSize,
                                                          size_t dyn) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, func, blockSize, dyn, 0);
}

// --- registration: the host code nvcc generates calls these ---
void **__cudaRegisterFatBinary(void *fatCubin) {
  std::lock_guard<wf::rt::ContextLock> l(rt().contextLock());
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
  std::lock_guard<wf::rt::ContextLock> l(rt().contextLock());
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
  PerThreadDefault perThread;
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
  if (capturing(stream)) { // a memcpy node (linear memory; CUDA arrays are not supported there)
    Node n;
    if (Error e = copyNode(p, n); e != Error::cudaSuccess) RETURN(e);
    RETURN(captureNode(stream, std::move(n)));
  }
  RETURN(memcpy3D(p, stream, true));
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
  RETURN(memset3D(p, value, e, stream));
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
  RETURN(memset2D(ptr, pitch, uint8_t(value), 1, width, height, stream));
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
  API("cudaMemcpyPeerAsync");
  REQUIRE_DEVICE();
  if (!validStream(stream)) RETURN(Error::cudaErrorInvalidResourceHandle);
  if (capturing(stream)) RETURN(Error::cudaErrorStreamCaptureUnsupported);
  if (dstDevice != 0 || srcDevice != 0) RETURN(Error::cudaErrorInvalidDevice);
  RETURN(copy(dst, src, count, cudaMemcpyDeviceToDevice, stream, true));
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

// --- stream capture and graphs (runtime/lib/graphs.cpp) ---
cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode) {
  API("cudaStreamBeginCapture");
  REQUIRE_DEVICE();
  if (unsigned(mode) > cudaStreamCaptureModeRelaxed) RETURN(Error::cudaErrorInvalidValue);
  // The legacy default stream cannot be captured; nor can a stream twice.
  CUstream_st *s = streamOf(stream);
  if (!s) RETURN(Error::cudaErrorInvalidResourceHandle);
  RETURN(graphs().beginCapture(s, mode));
}
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *graph) {
  API("cudaStreamEndCapture");
  REQUIRE_DEVICE();
  if (!graph) RETURN(Error::cudaErrorInvalidValue);
  CUstream_st *s = streamOf(stream);
  if (!s) RETURN(Error::cudaErrorInvalidResourceHandle);
  RETURN(graphs().endCapture(s, *graph));
}
cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus *status) {
  API("cudaStreamIsCapturing");
  if (!status) RETURN(Error::cudaErrorInvalidValue);
  CUstream_st *s = streamOf(stream);
  if (!s) RETURN(Error::cudaErrorInvalidResourceHandle);
  *status = graphs().captureInfo(s).status;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, cudaStreamCaptureStatus *status,
                                     unsigned long long *id, cudaGraph_t *graph,
                                     const cudaGraphNode_t **deps, const cudaGraphEdgeData **edges,
                                     size_t *numDeps) {
  API("cudaStreamGetCaptureInfo");
  // CUDA 12's form has no edge data: its sixth argument is numDependencies_out.
  if (cuda12Abi()) {
    numDeps = reinterpret_cast<size_t *>(const_cast<cudaGraphEdgeData **>(edges));
    edges = nullptr;
  }
  if (!status) RETURN(Error::cudaErrorInvalidValue);
  CUstream_st *s = streamOf(stream);
  if (!s) RETURN(Error::cudaErrorInvalidResourceHandle);
  wf::rt::Graphs::CaptureInfo info = graphs().captureInfo(s);
  *status = info.status;
  if (info.status == cudaStreamCaptureStatusNone) RETURN(Error::cudaSuccess);
  if (id) *id = info.id;
  if (graph) *graph = info.graph;
  if (deps) *deps = info.frontier->empty() ? nullptr : info.frontier->data();
  static const cudaGraphEdgeData kZeroEdges[64] = {};
  if (edges) {
    if (info.frontier->size() > std::size(kZeroEdges)) RETURN(rt().notSupported("edge data of more than 64 dependencies"));
    *edges = info.frontier->empty() ? nullptr : kZeroEdges;
  }
  if (numDeps) *numDeps = info.frontier->size();
  RETURN(info.status == cudaStreamCaptureStatusInvalidated ? Error::cudaErrorStreamCaptureInvalidated
                                                           : Error::cudaSuccess);
}
cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t *deps,
                                                const cudaGraphEdgeData *edges, size_t numDeps,
                                                unsigned flags) {
  API("cudaStreamUpdateCaptureDependencies");
  if (cuda12Abi()) { // (stream, dependencies, numDependencies, flags)
    flags = unsigned(numDeps);
    numDeps = size_t(reinterpret_cast<uintptr_t>(edges));
    edges = nullptr;
  }
  if (!noEdgeData(edges, numDeps)) RETURN(rt().notSupported("graph edge data (ports, programmatic edges)"));
  CUstream_st *s = streamOf(stream);
  if (!s) RETURN(Error::cudaErrorInvalidResourceHandle);
  RETURN(graphs().updateCaptureDeps(s, deps, numDeps, flags));
}
cudaError_t cudaGraphCreate(cudaGraph_t *graph, unsigned flags) {
  API("cudaGraphCreate");
  if (!graph || flags) RETURN(Error::cudaErrorInvalidValue);
  REQUIRE_DEVICE();
  *graph = graphs().create();
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  API("cudaGraphDestroy");
  RETURN(graphs().destroy(graph));
}
cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes) {
  API("cudaGraphGetNodes");
  if (!graphs().valid(graph) || !numNodes) RETURN(Error::cudaErrorInvalidValue);
  std::vector<cudaGraphNode_t> all;
  for (const auto &n : graph->nodes) all.push_back(n.get());
  RETURN(listOut(all, nodes, nullptr, numNodes));
}
cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes) {
  API("cudaGraphGetRootNodes");
  if (!graphs().valid(graph) || !numNodes) RETURN(Error::cudaErrorInvalidValue);
  std::vector<cudaGraphNode_t> roots;
  for (const auto &n : graph->nodes)
    if (n->deps.empty()) roots.push_back(n.get());
  RETURN(listOut(roots, nodes, nullptr, numNodes));
}
cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                              cudaGraphEdgeData *edges, size_t *numEdges) {
  API("cudaGraphGetEdges");
  if (cuda12Abi()) { // (graph, from, to, numEdges)
    numEdges = reinterpret_cast<size_t *>(edges);
    edges = nullptr;
  }
  if (!graphs().valid(graph) || !numEdges || bool(from) != bool(to)) RETURN(Error::cudaErrorInvalidValue);
  std::vector<cudaGraphNode_t> src, dst;
  for (const auto &n : graph->nodes)
    for (CUgraphNode_st *d : n->deps) {
      src.push_back(d);
      dst.push_back(n.get());
    }
  if (from) {
    // What fits; the rest of the arrays null; the count says how many were written.
    for (size_t i = 0; i < *numEdges; ++i) {
      from[i] = i < src.size() ? src[i] : nullptr;
      to[i] = i < dst.size() ? dst[i] : nullptr;
      if (edges) edges[i] = cudaGraphEdgeData{};
    }
    *numEdges = std::min(*numEdges, src.size());
  } else {
    *numEdges = src.size();
  }
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *deps,
                                         cudaGraphEdgeData *edges, size_t *numDeps) {
  API("cudaGraphNodeGetDependencies");
  if (cuda12Abi()) { // (node, dependencies, numDependencies)
    numDeps = reinterpret_cast<size_t *>(edges);
    edges = nullptr;
  }
  if (!graphs().validNode(node) || !numDeps) RETURN(Error::cudaErrorInvalidValue);
  RETURN(listOut(node->deps, deps, edges, numDeps));
}
cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *nodes,
                                           cudaGraphEdgeData *edges, size_t *numNodes) {
  API("cudaGraphNodeGetDependentNodes");
  if (cuda12Abi()) { // (node, dependentNodes, numDependentNodes)
    numNodes = reinterpret_cast<size_t *>(edges);
    edges = nullptr;
  }
  if (!graphs().validNode(node) || !numNodes) RETURN(Error::cudaErrorInvalidValue);
  RETURN(listOut(wf::rt::Graphs::dependents(node), nodes, edges, numNodes));
}
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                     const cudaGraphNode_t *to, const cudaGraphEdgeData *edges,
                                     size_t count) {
  API("cudaGraphAddDependencies");
  if (cuda12Abi()) { // (graph, from, to, numDependencies)
    count = size_t(reinterpret_cast<uintptr_t>(edges));
    edges = nullptr;
  }
  if (!graphs().valid(graph)) RETURN(Error::cudaErrorInvalidValue);
  if (!noEdgeData(edges, count)) RETURN(rt().notSupported("graph edge data (ports, programmatic edges)"));
  RETURN(graphs().addEdges(graph, from, to, count));
}
cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                        const cudaGraphNode_t *to, const cudaGraphEdgeData *edges,
                                        size_t count) {
  API("cudaGraphRemoveDependencies");
  if (cuda12Abi()) { // (graph, from, to, numDependencies)
    count = size_t(reinterpret_cast<uintptr_t>(edges));
    edges = nullptr;
  }
  if (!graphs().valid(graph)) RETURN(Error::cudaErrorInvalidValue);
  if (!noEdgeData(edges, count)) RETURN(rt().notSupported("graph edge data (ports, programmatic edges)"));
  RETURN(graphs().removeEdges(graph, from, to, count));
}
cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node) {
  API("cudaGraphDestroyNode");
  if (!graphs().validNode(node)) RETURN(Error::cudaErrorInvalidValue);
  graphs().destroyNode(node);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType *type) {
  API("cudaGraphNodeGetType");
  if (!type || !graphs().validNode(node)) RETURN(Error::cudaErrorInvalidValue);
  *type = node->type;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphClone(cudaGraph_t *clone, cudaGraph_t graph) {
  API("cudaGraphClone");
  if (!clone || !graphs().valid(graph)) RETURN(Error::cudaErrorInvalidValue);
  *clone = graphs().clone(graph);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *node, cudaGraphNode_t original,
                                     cudaGraph_t clone) {
  API("cudaGraphNodeFindInClone");
  if (!node || !original || !graphs().valid(clone)) RETURN(Error::cudaErrorInvalidValue);
  auto it = clone->cloneOf.find(original);
  if (it == clone->cloneOf.end()) RETURN(Error::cudaErrorInvalidValue);
  *node = it->second;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphDebugDotPrint(cudaGraph_t graph, const char *path, unsigned flags) {
  API("cudaGraphDebugDotPrint");
  (void)flags; // verbosity: every node is printed with its kind
  if (!path || !graphs().valid(graph)) RETURN(Error::cudaErrorInvalidValue);
  std::FILE *f = std::fopen(path, "w");
  if (!f) RETURN(Error::cudaErrorOperatingSystem);
  std::string text = wf::rt::Graphs::dot(graph);
  bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  ok = std::fclose(f) == 0 && ok;
  RETURN(ok ? Error::cudaSuccess : Error::cudaErrorOperatingSystem);
}

// Node construction and parameters.
cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                   const cudaGraphNode_t *deps, size_t numDeps,
                                   const cudaKernelNodeParams *p) {
  API("cudaGraphAddKernelNode");
  REQUIRE_DEVICE();
  if (!node || !graphs().valid(graph) || !graphs().validDeps(graph, deps, numDeps))
    RETURN(Error::cudaErrorInvalidValue);
  Node n;
  if (Error e = kernelNode(p, n); e != Error::cudaSuccess) RETURN(e);
  *node = graphs().add(graph, std::move(n), deps, numDeps);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, cudaKernelNodeParams *p) {
  API("cudaGraphKernelNodeGetParams");
  if (!p || !isNode(node, cudaGraphNodeTypeKernel)) RETURN(Error::cudaErrorInvalidValue);
  // The argument array is the node's own (valid while the node's parameters stay as they are).
  static thread_local std::vector<void *> argPtrs;
  argPtrs.clear();
  for (auto &a : node->args) argPtrs.push_back(a.data());
  *p = cudaKernelNodeParams{const_cast<void *>(node->fn->hostFun), node->grid, node->block,
                            unsigned(node->shared), argPtrs.data(), nullptr};
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const cudaKernelNodeParams *p) {
  API("cudaGraphKernelNodeSetParams");
  REQUIRE_DEVICE();
  if (!isNode(node, cudaGraphNodeTypeKernel)) RETURN(Error::cudaErrorInvalidValue);
  RETURN(kernelNode(p, *node));
}
cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                   const cudaGraphNode_t *deps, size_t numDeps,
                                   const cudaMemcpy3DParms *p) {
  API("cudaGraphAddMemcpyNode");
  REQUIRE_DEVICE();
  if (!node || !graphs().valid(graph) || !graphs().validDeps(graph, deps, numDeps))
    RETURN(Error::cudaErrorInvalidValue);
  Node n;
  if (Error e = copyNode(p, n); e != Error::cudaSuccess) RETURN(e);
  *node = graphs().add(graph, std::move(n), deps, numDeps);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *node, cudaGraph_t graph,
                                     const cudaGraphNode_t *deps, size_t numDeps, void *dst,
                                     const void *src, size_t count, cudaMemcpyKind kind) {
  API("cudaGraphAddMemcpyNode1D");
  REQUIRE_DEVICE();
  if (!node || !graphs().valid(graph) || !graphs().validDeps(graph, deps, numDeps))
    RETURN(Error::cudaErrorInvalidValue);
  Node n;
  if (Error e = copyNode1D(dst, src, count, kind, n); e != Error::cudaSuccess) RETURN(e);
  *node = graphs().add(graph, std::move(n), deps, numDeps);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t *node, cudaGraph_t graph,
                                           const cudaGraphNode_t *deps, size_t numDeps,
                                           const void *symbol, const void *src, size_t count,
                                           size_t offset, cudaMemcpyKind kind) {
  API("cudaGraphAddMemcpyNodeToSymbol");
  REQUIRE_DEVICE();
  if (!node || !graphs().valid(graph) || !graphs().validDeps(graph, deps, numDeps))
    RETURN(Error::cudaErrorInvalidValue);
  Node n;
  if (Error e = symbolCopyNode(symbol, src, count, offset, kind, true, n); e != Error::cudaSuccess) RETURN(e);
  *node = graphs().add(graph, std::move(n), deps, numDeps);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t *node, cudaGraph_t graph,
                                             const cudaGraphNode_t *deps, size_t numDeps,
                                             void *dst, const void *symbol, size_t count,
                                             size_t offset, cudaMemcpyKind kind) {
  API("cudaGraphAddMemcpyNodeFromSymbol");
  REQUIRE_DEVICE();
  if (!node || !graphs().valid(graph) || !graphs().validDeps(graph, deps, numDeps))
    RETURN(Error::cudaErrorInvalidValue);
  Node n;
  if (Error e = symbolCopyNode(symbol, dst, count, offset, kind, false, n); e != Error::cudaSuccess) RETURN(e);
  *node = graphs().add(graph, std::move(n), deps, numDeps);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node, cudaMemcpy3DParms *p) {
  API("cudaGraphMemcpyNodeGetParams");
  if (!p || !isNode(node, cudaGraphNodeTypeMemcpy)) RETURN(Error::cudaErrorInvalidValue);
  *p = node->copy;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node, const cudaMemcpy3DParms *p) {
  API("cudaGraphMemcpyNodeSetParams");
  if (!isNode(node, cudaGraphNodeTypeMemcpy)) RETURN(Error::cudaErrorInvalidValue);
  RETURN(copyNode(p, *node));
}
cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void *dst, const void *src,
                                           size_t count, cudaMemcpyKind kind) {
  API("cudaGraphMemcpyNodeSetParams1D");
  if (!isNode(node, cudaGraphNodeTypeMemcpy)) RETURN(Error::cudaErrorInvalidValue);
  RETURN(copyNode1D(dst, src, count, kind, *node));
}
cudaError_t cudaGraphMemcpyNodeSetParamsToSymbol(cudaGraphNode_t node, const void *symbol,
                                                 const void *src, size_t count, size_t offset,
                                                 cudaMemcpyKind kind) {
  API("cudaGraphMemcpyNodeSetParamsToSymbol");
  REQUIRE_DEVICE();
  if (!isNode(node, cudaGraphNodeTypeMemcpy)) RETURN(Error::cudaErrorInvalidValue);
  RETURN(symbolCopyNode(symbol, src, count, offset, kind, true, *node));
}
cudaError_t cudaGraphMemcpyNodeSetParamsFromSymbol(cudaGraphNode_t node, void *dst,
                                                   const void *symbol, size_t count,
                                                   size_t offset, cudaMemcpyKind kind) {
  API("cudaGraphMemcpyNodeSetParamsFromSymbol");
  REQUIRE_DEVICE();
  if (!isNode(node, cudaGraphNodeTypeMemcpy)) RETURN(Error::cudaErrorInvalidValue);
  RETURN(symbolCopyNode(symbol, dst, count, offset, kind, false, *node));
}
cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                   const cudaGraphNode_t *deps, size_t numDeps,
                                   const cudaMemsetParams *p) {
  API("cudaGraphAddMemsetNode");
  REQUIRE_DEVICE();
  if (!node || !graphs().valid(graph) || !graphs().validDeps(graph, deps, numDeps))
    RETURN(Error::cudaErrorInvalidValue);
  Node n;
  if (Error e = memsetNode(p, n); e != Error::cudaSuccess) RETURN(e);
  *node = graphs().add(graph, std::move(n), deps, numDeps);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, cudaMemsetParams *p) {
  API("cudaGraphMemsetNodeGetParams");
  if (!p || !isNode(node, cudaGraphNodeTypeMemset)) RETURN(Error::cudaErrorInvalidValue);
  *p = node->memset;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node, const cudaMemsetParams *p) {
  API("cudaGraphMemsetNodeSetParams");
  if (!isNode(node, cudaGraphNodeTypeMemset)) RETURN(Error::cudaErrorInvalidValue);
  RETURN(memsetNode(p, *node));
}
cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                 const cudaGraphNode_t *deps, size_t numDeps,
                                 const cudaHostNodeParams *p) {
  API("cudaGraphAddHostNode");
  if (!node || !graphs().valid(graph) || !graphs().validDeps(graph, deps, numDeps))
    RETURN(Error::cudaErrorInvalidValue);
  Node n;
  if (Error e = hostNode(p, n); e != Error::cudaSuccess) RETURN(e);
  *node = graphs().add(graph, std::move(n), deps, numDeps);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node, cudaHostNodeParams *p) {
  API("cudaGraphHostNodeGetParams");
  if (!p || !isNode(node, cudaGraphNodeTypeHost)) RETURN(Error::cudaErrorInvalidValue);
  *p = cudaHostNodeParams{node->hostFn, node->userData};
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node, const cudaHostNodeParams *p) {
  API("cudaGraphHostNodeSetParams");
  if (!isNode(node, cudaGraphNodeTypeHost)) RETURN(Error::cudaErrorInvalidValue);
  RETURN(hostNode(p, *node));
}
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                  const cudaGraphNode_t *deps, size_t numDeps) {
  API("cudaGraphAddEmptyNode");
  if (!node || !graphs().valid(graph) || !graphs().validDeps(graph, deps, numDeps))
    RETURN(Error::cudaErrorInvalidValue);
  *node = graphs().add(graph, Node{}, deps, numDeps);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                       const cudaGraphNode_t *deps, size_t numDeps,
                                       cudaGraph_t child) {
  API("cudaGraphAddChildGraphNode");
  if (!node || !graphs().valid(graph) || !graphs().valid(child) || child == graph ||
      !graphs().validDeps(graph, deps, numDeps))
    RETURN(Error::cudaErrorInvalidValue);
  *node = graphs().addChild(graph, child, deps, numDeps);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t *graph) {
  API("cudaGraphChildGraphNodeGetGraph");
  if (!graph || !isNode(node, cudaGraphNodeTypeGraph)) RETURN(Error::cudaErrorInvalidValue);
  *graph = node->childGraph.get();
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                        const cudaGraphNode_t *deps, size_t numDeps,
                                        cudaEvent_t event) {
  API("cudaGraphAddEventRecordNode");
  RETURN(addEventNode(node, graph, deps, numDeps, event, cudaGraphNodeTypeEventRecord));
}
cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                      const cudaGraphNode_t *deps, size_t numDeps,
                                      cudaEvent_t event) {
  API("cudaGraphAddEventWaitNode");
  RETURN(addEventNode(node, graph, deps, numDeps, event, cudaGraphNodeTypeWaitEvent));
}
cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event) {
  API("cudaGraphEventRecordNodeGetEvent");
  RETURN(nodeEvent(node, event, cudaGraphNodeTypeEventRecord));
}
cudaError_t cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event) {
  API("cudaGraphEventRecordNodeSetEvent");
  RETURN(setNodeEvent(node, event, cudaGraphNodeTypeEventRecord));
}
cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event) {
  API("cudaGraphEventWaitNodeGetEvent");
  RETURN(nodeEvent(node, event, cudaGraphNodeTypeWaitEvent));
}
cudaError_t cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event) {
  API("cudaGraphEventWaitNodeSetEvent");
  RETURN(setNodeEvent(node, event, cudaGraphNodeTypeWaitEvent));
}

// Executable graphs.
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *exec, cudaGraph_t graph,
                                 unsigned long long flags) {
  API("cudaGraphInstantiate");
  REQUIRE_DEVICE();
  if (!exec || !graphs().valid(graph) || flags > 0xf) RETURN(Error::cudaErrorInvalidValue);
  // Auto-free-on-launch, upload, device launch, node priority: nothing to prepare on this device
  // (graphs hold no allocations and are not launched from the device); kept for the query.
  RETURN(graphs().instantiate(graph, flags, *exec));
}
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *exec, cudaGraph_t graph,
                                          unsigned long long flags) {
  return cudaGraphInstantiate(exec, graph, flags);
}
cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t *exec, cudaGraph_t graph,
                                           cudaGraphInstantiateParams *params) {
  API("cudaGraphInstantiateWithParams");
  REQUIRE_DEVICE();
  if (!exec || !params || !graphs().valid(graph) || params->flags > 0xf) {
    if (params) params->result_out = cudaGraphInstantiateError;
    RETURN(Error::cudaErrorInvalidValue);
  }
  if ((params->flags & 2) && !validStream(params->uploadStream)) // cudaGraphInstantiateFlagUpload
    RETURN(Error::cudaErrorInvalidResourceHandle);
  const CUgraphNode_st *bad = nullptr;
  Error e = graphs().instantiate(graph, params->flags, *exec, &bad);
  params->errNode_out = const_cast<CUgraphNode_st *>(bad);
  params->result_out = e == Error::cudaSuccess ? cudaGraphInstantiateSuccess
                                              : cudaGraphInstantiateInvalidStructure;
  RETURN(e);
}
cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t exec, unsigned long long *flags) {
  API("cudaGraphExecGetFlags");
  if (!flags || !graphs().validExec(exec)) RETURN(Error::cudaErrorInvalidValue);
  *flags = exec->flags;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec) {
  API("cudaGraphExecDestroy");
  RETURN(graphs().destroyExec(exec));
}
cudaError_t cudaGraphUpload(cudaGraphExec_t exec, cudaStream_t stream) {
  API("cudaGraphUpload");
  REQUIRE_DEVICE();
  if (!graphs().validExec(exec)) RETURN(Error::cudaErrorInvalidValue);
  if (!validStream(stream)) RETURN(Error::cudaErrorInvalidResourceHandle);
  // An executable graph lives in host memory and its launch submits its nodes: nothing to upload.
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream) {
  API("cudaGraphLaunch");
  REQUIRE_DEVICE();
  if (!graphs().validExec(exec)) RETURN(Error::cudaErrorInvalidValue);
  if (!validStream(stream)) RETURN(Error::cudaErrorInvalidResourceHandle);
  if (capturing(stream)) RETURN(Error::cudaErrorStreamCaptureUnsupported);
  RETURN(graphs().launch(rt(), exec, streamOf(stream)));
}
cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t exec, cudaGraphNode_t node, unsigned enabled) {
  API("cudaGraphNodeSetEnabled");
  wf::rt::ExecNode *e = execNodeOf(exec, node);
  if (!e || enabled > 1) RETURN(Error::cudaErrorInvalidValue);
  // Kernel, memcpy and memset nodes only (CUDA's rule).
  if (e->type != cudaGraphNodeTypeKernel && e->type != cudaGraphNodeTypeMemcpy &&
      e->type != cudaGraphNodeTypeMemset)
    RETURN(Error::cudaErrorInvalidValue);
  e->enabled = enabled != 0;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t exec, cudaGraphNode_t node, unsigned *enabled) {
  API("cudaGraphNodeGetEnabled");
  wf::rt::ExecNode *e = execNodeOf(exec, node);
  if (!e || !enabled) RETURN(Error::cudaErrorInvalidValue);
  if (e->type != cudaGraphNodeTypeKernel && e->type != cudaGraphNodeTypeMemcpy &&
      e->type != cudaGraphNodeTypeMemset)
    RETURN(Error::cudaErrorInvalidValue);
  *enabled = e->enabled ? 1 : 0;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                             const cudaKernelNodeParams *p) {
  API("cudaGraphExecKernelNodeSetParams");
  REQUIRE_DEVICE();
  RETURN(setExecNode(exec, node, cudaGraphNodeTypeKernel,
                     [&](Node &n) { return kernelNode(p, n); }));
}
cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                             const cudaMemcpy3DParms *p) {
  API("cudaGraphExecMemcpyNodeSetParams");
  RETURN(setExecNode(exec, node, cudaGraphNodeTypeMemcpy, [&](Node &n) { return copyNode(p, n); }));
}
cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t exec, cudaGraphNode_t node,
                                               void *dst, const void *src, size_t count,
                                               cudaMemcpyKind kind) {
  API("cudaGraphExecMemcpyNodeSetParams1D");
  RETURN(setExecNode(exec, node, cudaGraphNodeTypeMemcpy,
                     [&](Node &n) { return copyNode1D(dst, src, count, kind, n); }));
}
cudaError_t cudaGraphExecMemcpyNodeSetParamsToSymbol(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                     const void *symbol, const void *src,
                                                     size_t count, size_t offset,
                                                     cudaMemcpyKind kind) {
  API("cudaGraphExecMemcpyNodeSetParamsToSymbol");
  REQUIRE_DEVICE();
  RETURN(setExecNode(exec, node, cudaGraphNodeTypeMemcpy,
                     [&](Node &n) { return symbolCopyNode(symbol, src, count, offset, kind, true, n); }));
}
cudaError_t cudaGraphExecMemcpyNodeSetParamsFromSymbol(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                       void *dst, const void *symbol,
                                                       size_t count, size_t offset,
                                                       cudaMemcpyKind kind) {
  API("cudaGraphExecMemcpyNodeSetParamsFromSymbol");
  REQUIRE_DEVICE();
  RETURN(setExecNode(exec, node, cudaGraphNodeTypeMemcpy,
                     [&](Node &n) { return symbolCopyNode(symbol, dst, count, offset, kind, false, n); }));
}
cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                             const cudaMemsetParams *p) {
  API("cudaGraphExecMemsetNodeSetParams");
  RETURN(setExecNode(exec, node, cudaGraphNodeTypeMemset,
                     [&](Node &n) { return memsetNode(p, n); }));
}
cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                           const cudaHostNodeParams *p) {
  API("cudaGraphExecHostNodeSetParams");
  RETURN(setExecNode(exec, node, cudaGraphNodeTypeHost, [&](Node &n) { return hostNode(p, n); }));
}
cudaError_t cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                 cudaEvent_t event) {
  API("cudaGraphExecEventRecordNodeSetEvent");
  RETURN(setExecNodeEvent(exec, node, event, cudaGraphNodeTypeEventRecord));
}
cudaError_t cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t exec, cudaGraphNode_t node,
                                               cudaEvent_t event) {
  API("cudaGraphExecEventWaitNodeSetEvent");
  RETURN(setExecNodeEvent(exec, node, event, cudaGraphNodeTypeWaitEvent));
}
cudaError_t cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                 cudaGraph_t child) {
  API("cudaGraphExecChildGraphNodeSetParams");
  if (!graphs().validExec(exec) || !isNode(node, cudaGraphNodeTypeGraph) ||
      !graphs().valid(child))
    RETURN(Error::cudaErrorInvalidValue);
  RETURN(graphs().updateChild(exec, node, child));
}
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph,
                                cudaGraphExecUpdateResultInfo *info) {
  API("cudaGraphExecUpdate");
  if (!info || !graphs().validExec(exec) || !graphs().valid(graph))
    RETURN(Error::cudaErrorInvalidValue);
  const CUgraphNode_st *bad = nullptr;
  wf::rt::UpdateResult r = graphs().update(exec, graph, &bad);
  info->result = cudaGraphExecUpdateResult(int(r));
  info->errorNode = const_cast<CUgraphNode_st *>(bad);
  info->errorFromNode = nullptr;
  RETURN(r == wf::rt::UpdateResult::Success ? Error::cudaSuccess
                                            : Error::cudaErrorGraphExecUpdateFailure);
}

// --- stream-ordered allocation and memory pools (runtime/lib/mempools.cpp): an allocation is
// made at once; a free returns the memory when the stream reaches it ---
cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t pool,
                                    cudaStream_t stream) {
  API("cudaMallocFromPoolAsync");
  if (!ptr || !rt().memPools().valid(pool)) RETURN(Error::cudaErrorInvalidValue);
  REQUIRE_DEVICE();
  if (!validStream(stream)) RETURN(Error::cudaErrorInvalidResourceHandle);
  if (capturing(stream)) RETURN(Error::cudaErrorStreamCaptureUnsupported);
  uint64_t a = 0;
  Error e = rt().malloc(size, a);
  *ptr = reinterpret_cast<void *>(a);
  if (e == Error::cudaSuccess && a) rt().memPools().allocated(pool, a, size);
  RETURN(e);
}
cudaError_t cudaMallocAsync(void **ptr, size_t size, cudaStream_t stream) {
  return cudaMallocFromPoolAsync(ptr, size, rt().memPools().current(), stream);
}
cudaError_t cudaFreeAsync(void *ptr, cudaStream_t stream) {
  API("cudaFreeAsync");
  REQUIRE_DEVICE();
  if (!validStream(stream)) RETURN(Error::cudaErrorInvalidResourceHandle);
  if (capturing(stream)) RETURN(Error::cudaErrorStreamCaptureUnsupported);
  Error e = rt().freeAsync(addr(ptr), streamOf(stream));
  if (e == Error::cudaSuccess) rt().memPools().released(addr(ptr));
  RETURN(e);
}
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *pool, int device) {
  API("cudaDeviceGetDefaultMemPool");
  if (!pool) RETURN(Error::cudaErrorInvalidValue);
  if (device != 0) RETURN(Error::cudaErrorInvalidDevice);
  *pool = rt().memPools().defaultPool();
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *pool, int device) {
  API("cudaDeviceGetMemPool");
  if (!pool) RETURN(Error::cudaErrorInvalidValue);
  if (device != 0) RETURN(Error::cudaErrorInvalidDevice);
  *pool = rt().memPools().current();
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t pool) {
  API("cudaDeviceSetMemPool");
  if (device != 0) RETURN(Error::cudaErrorInvalidDevice);
  RETURN(rt().memPools().setCurrent(pool));
}
// cudaMemLocation: the device's own memory (type 1, id 0) is the only pool location.
static bool deviceLocation(const cudaMemLocation *location) {
  return location && location->type == cudaMemLocationTypeDevice && location->id == 0;
}
cudaError_t cudaMemGetDefaultMemPool(cudaMemPool_t *pool, cudaMemLocation *location,
                                     cudaMemAllocationType type) {
  API("cudaMemGetDefaultMemPool");
  if (!pool || !deviceLocation(location) || type != cudaMemAllocationTypePinned)
    RETURN(Error::cudaErrorInvalidValue);
  *pool = rt().memPools().defaultPool();
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaMemGetMemPool(cudaMemPool_t *pool, cudaMemLocation *location,
                              cudaMemAllocationType type) {
  API("cudaMemGetMemPool");
  if (!pool || !deviceLocation(location) || type != cudaMemAllocationTypePinned)
    RETURN(Error::cudaErrorInvalidValue);
  *pool = rt().memPools().current();
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaMemSetMemPool(cudaMemLocation *location, cudaMemAllocationType type,
                              cudaMemPool_t pool) {
  API("cudaMemSetMemPool");
  if (!deviceLocation(location) || type != cudaMemAllocationTypePinned)
    RETURN(Error::cudaErrorInvalidValue);
  RETURN(rt().memPools().setCurrent(pool));
}
cudaError_t cudaMemPoolCreate(cudaMemPool_t *pool, const void *props) {
  API("cudaMemPoolCreate");
  if (!pool || !props) RETURN(Error::cudaErrorInvalidValue);
  REQUIRE_DEVICE();
  *pool = rt().memPools().create();
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool) {
  API("cudaMemPoolDestroy");
  RETURN(rt().memPools().destroy(pool));
}
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, size_t) {
  API("cudaMemPoolTrimTo");
  // Freed memory is back in the device allocator at once: nothing is held to trim.
  RETURN(rt().memPools().valid(pool) ? Error::cudaSuccess : Error::cudaErrorInvalidValue);
}
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void *value) {
  API("cudaMemPoolSetAttribute");
  RETURN(rt().memPools().setAttribute(pool, int(attr), value));
}
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void *value) {
  API("cudaMemPoolGetAttribute");
  RETURN(rt().memPools().getAttribute(pool, int(attr), value));
}
// Access: the one device reads and writes every pool (cudaMemAccessFlagsProtReadWrite, 3).
cudaError_t cudaMemPoolSetAccess(cudaMemPool_t pool, const cudaMemAccessDesc *descs, size_t count) {
  API("cudaMemPoolSetAccess");
  if (!rt().memPools().valid(pool) || (count && !descs)) RETURN(Error::cudaErrorInvalidValue);
  for (size_t i = 0; i < count; ++i)
    if (!deviceLocation(&descs[i].location)) RETURN(Error::cudaErrorInvalidDevice);
    else if (descs[i].flags != cudaMemAccessFlagsProtReadWrite) RETURN(Error::cudaErrorInvalidValue);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaMemPoolGetAccess(cudaMemAccessFlags *flags, cudaMemPool_t pool,
                                 cudaMemLocation *location) {
  API("cudaMemPoolGetAccess");
  if (!flags || !rt().memPools().valid(pool) || !location) RETURN(Error::cudaErrorInvalidValue);
  if (!deviceLocation(location)) RETURN(Error::cudaErrorInvalidDevice);
  *flags = cudaMemAccessFlagsProtReadWrite;
  RETURN(Error::cudaSuccess);
}

// --- devices, peers and queries (one device: device 0, no peer) ---
cudaError_t cudaChooseDevice(int *device, const cudaDeviceProp *prop) {
  API("cudaChooseDevice");
  if (!device || !prop) RETURN(Error::cudaErrorInvalidValue);
  *device = 0; // the only device is the closest match to any request
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaInitDevice(int device, unsigned deviceFlags, unsigned flags) {
  API("cudaInitDevice");
  if (device != 0) RETURN(Error::cudaErrorInvalidDevice);
  if (flags != 0) RETURN(Error::cudaErrorInvalidValue);
  gDeviceFlags = deviceFlags;
  RETURN(rt().ensureDevice());
}
cudaError_t cudaSetValidDevices(int *devices, int len) {
  API("cudaSetValidDevices");
  if (len < 0 || (len > 0 && !devices)) RETURN(Error::cudaErrorInvalidValue);
  for (int i = 0; i < len; ++i)
    if (devices[i] != 0) RETURN(Error::cudaErrorInvalidDevice);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice) {
  API("cudaDeviceCanAccessPeer");
  if (!canAccessPeer) RETURN(Error::cudaErrorInvalidValue);
  if (device != 0 || peerDevice != 0) RETURN(Error::cudaErrorInvalidDevice);
  *canAccessPeer = 0; // a device is not its own peer
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned flags) {
  API("cudaDeviceEnablePeerAccess");
  if (flags != 0) RETURN(Error::cudaErrorInvalidValue);
  // The only device is the current one, which cannot be its own peer.
  (void)peerDevice;
  RETURN(Error::cudaErrorInvalidDevice);
}
cudaError_t cudaDeviceDisablePeerAccess(int peerDevice) {
  API("cudaDeviceDisablePeerAccess");
  (void)peerDevice;
  RETURN(Error::cudaErrorInvalidDevice);
}
cudaError_t cudaDeviceGetP2PAttribute(int *value, int attr, int srcDevice, int dstDevice) {
  API("cudaDeviceGetP2PAttribute");
  if (!value || attr < 1 || attr > 4) RETURN(Error::cudaErrorInvalidValue);
  // Both must be valid and different; with one device no pair is.
  (void)srcDevice, (void)dstDevice;
  RETURN(Error::cudaErrorInvalidDevice);
}
cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device) {
  API("cudaDeviceGetPCIBusId");
  if (!pciBusId || len <= 0) RETURN(Error::cudaErrorInvalidValue);
  if (device != 0) RETURN(Error::cudaErrorInvalidDevice);
  REQUIRE_DEVICE();
  cudaDeviceProp p;
  fillProps(p);
  std::snprintf(pciBusId, size_t(len), "%04x:%02x:%02x.0", p.pciDomainID, p.pciBusID,
                p.pciDeviceID);
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *pciBusId) {
  API("cudaDeviceGetByPCIBusId");
  if (!device || !pciBusId) RETURN(Error::cudaErrorInvalidValue);
  REQUIRE_DEVICE();
  RETURN(wf::cudart::deviceByPciBusId(pciBusId, *device));
}
// Shared memory bank size: the banks are four bytes wide (deprecated calls; CUDA ignores the
// setting on devices without configurable banks and answers success).
cudaError_t cudaDeviceGetSharedMemConfig(cudaSharedMemConfig *config) {
  API("cudaDeviceGetSharedMemConfig");
  if (!config) RETURN(Error::cudaErrorInvalidValue);
  *config = cudaSharedMemBankSizeFourByte;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig config) {
  API("cudaDeviceSetSharedMemConfig");
  RETURN(unsigned(config) > cudaSharedMemBankSizeEightByte ? Error::cudaErrorInvalidValue
                                                          : Error::cudaSuccess);
}
cudaError_t cudaFuncSetSharedMemConfig(const void *func, cudaSharedMemConfig config) {
  API("cudaFuncSetSharedMemConfig");
  if (!rt().findFunction(func)) RETURN(Error::cudaErrorInvalidDeviceFunction);
  RETURN(unsigned(config) > cudaSharedMemBankSizeEightByte ? Error::cudaErrorInvalidValue
                                                          : Error::cudaSuccess);
}
cudaError_t cudaFuncGetName(const char **name, const void *func) {
  API("cudaFuncGetName");
  if (!name) RETURN(Error::cudaErrorInvalidValue);
  wf::rt::FunctionRecord *fn = rt().findFunction(func);
  if (!fn) RETURN(Error::cudaErrorInvalidDeviceFunction);
  *name = fn->name.c_str(); // the PTX (mangled) name, as CUDA returns it
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGetKernel(cudaKernel_t *kernel, const void *func) {
  API("cudaGetKernel");
  if (!kernel) RETURN(Error::cudaErrorInvalidValue);
  wf::rt::FunctionRecord *fn = rt().findFunction(func);
  if (!fn) RETURN(Error::cudaErrorInvalidDeviceFunction);
  *kernel = reinterpret_cast<cudaKernel_t>(fn); // what __cudaLaunchKernel takes
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaHostGetFlags(unsigned *flags, void *host) {
  API("cudaHostGetFlags");
  if (!flags || !host) RETURN(Error::cudaErrorInvalidValue);
  std::optional<wf::rt::HostAllocation> a = rt().findHost(host);
  if (!a) RETURN(Error::cudaErrorInvalidValue);
  *flags = a->flags;
  RETURN(Error::cudaSuccess);
}
// No profiler is attached to a Warpforge device; CUDA answers success then.
cudaError_t cudaProfilerStart(void) {
  API("cudaProfilerStart");
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaProfilerStop(void) {
  API("cudaProfilerStop");
  RETURN(Error::cudaSuccess);
}
// No L2 lines are set aside for persisting accesses, so there is nothing to reset.
cudaError_t cudaCtxResetPersistingL2Cache(void) {
  API("cudaCtxResetPersistingL2Cache");
  REQUIRE_DEVICE();
  RETURN(Error::cudaSuccess);
}

// --- stream queries ---
cudaError_t cudaStreamGetId(cudaStream_t stream, unsigned long long *id) {
  API("cudaStreamGetId");
  if (!id) RETURN(Error::cudaErrorInvalidValue);
  REQUIRE_DEVICE();
  CUstream_st *s = streamOf(stream);
  if (!s) RETURN(Error::cudaErrorInvalidResourceHandle);
  *id = reinterpret_cast<uintptr_t>(s); // unique while the stream lives
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaStreamGetDevice(cudaStream_t stream, int *device) {
  API("cudaStreamGetDevice");
  if (!device) RETURN(Error::cudaErrorInvalidValue);
  REQUIRE_DEVICE();
  if (!streamOf(stream)) RETURN(Error::cudaErrorInvalidResourceHandle);
  *device = 0;
  RETURN(Error::cudaSuccess);
}
/// The calling thread's stream capture interaction mode (cudaThreadExchangeStreamCaptureMode).
thread_local cudaStreamCaptureMode tCaptureMode = cudaStreamCaptureModeGlobal;
cudaError_t cudaThreadExchangeStreamCaptureMode(cudaStreamCaptureMode *mode) {
  API("cudaThreadExchangeStreamCaptureMode");
  if (!mode || unsigned(*mode) > cudaStreamCaptureModeRelaxed) RETURN(Error::cudaErrorInvalidValue);
  std::swap(*mode, tCaptureMode);
  RETURN(Error::cudaSuccess);
}

// --- copies: peers (device 0 only) and CUDA arrays in stream order ---
static Error peer3DParams(const cudaMemcpy3DPeerParms *p, cudaMemcpy3DParms &out) {
  if (!p) return Error::cudaErrorInvalidValue;
  if (p->srcDevice != 0 || p->dstDevice != 0) return Error::cudaErrorInvalidDevice;
  out = cudaMemcpy3DParms{};
  out.srcArray = p->srcArray;
  out.srcPos = p->srcPos;
  out.srcPtr = p->srcPtr;
  out.dstArray = p->dstArray;
  out.dstPos = p->dstPos;
  out.dstPtr = p->dstPtr;
  out.extent = p->extent;
  out.kind = cudaMemcpyDefault;
  return Error::cudaSuccess;
}
cudaError_t cudaMemcpy3DPeer(const cudaMemcpy3DPeerParms *p) {
  cudaMemcpy3DParms q;
  if (Error e = peer3DParams(p, q); e != Error::cudaSuccess) {
    API("cudaMemcpy3DPeer");
    RETURN(e);
  }
  return cudaMemcpy3D(&q);
}
cudaError_t cudaMemcpy3DPeerAsync(const cudaMemcpy3DPeerParms *p, cudaStream_t stream) {
  cudaMemcpy3DParms q;
  if (Error e = peer3DParams(p, q); e != Error::cudaSuccess) {
    API("cudaMemcpy3DPeerAsync");
    RETURN(e);
  }
  return cudaMemcpy3DAsync(&q, stream);
}
// Copies to and from CUDA arrays wait for the device and run alone (docs/runtime.md, Streams), so
// the asynchronous forms are the synchronous copies once the stream is known to be valid.
#define ARRAY_ASYNC(name, params, args)                                                            \
  cudaError_t name##Async params {                                                                 \
    {                                                                                              \
      API(#name "Async");                                                                          \
      REQUIRE_DEVICE();                                                                            \
      if (!validStream(stream)) RETURN(Error::cudaErrorInvalidResourceHandle);                     \
    }                                                                                              \
    return name args;                                                                              \
  }
ARRAY_ASYNC(cudaMemcpy2DToArray, (cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch, size_t width, size_t height, cudaMemcpyKind kind, cudaStream_t stream), (dst, wOffset, hOffset, src, spitch, width, height, kind))
ARRAY_ASYNC(cudaMemcpy2DFromArray, (void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t width, size_t height, cudaMemcpyKind kind, cudaStream_t stream), (dst, dpitch, src, wOffset, hOffset, width, height, kind))
ARRAY_ASYNC(cudaMemcpyToArray, (cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count, cudaMemcpyKind kind, cudaStream_t stream), (dst, wOffset, hOffset, src, count, kind))
ARRAY_ASYNC(cudaMemcpyFromArray, (void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count, cudaMemcpyKind kind, cudaStream_t stream), (dst, src, wOffset, hOffset, count, kind))
#undef ARRAY_ASYNC

// --- nvcc --default-stream per-thread: the same calls, the null stream being the thread's own ---
#define PER_THREAD(name, suffix, params, args)                                                     \
  cudaError_t name##suffix params {                                                                \
    PerThreadDefault perThread;                                                                    \
    return name args;                                                                              \
  }
PER_THREAD(cudaMemcpy, _ptds, (void *d, const void *s, size_t n, cudaMemcpyKind k), (d, s, n, k))
PER_THREAD(cudaMemcpyToSymbol, _ptds, (const void *y, const void *s, size_t n, size_t o, cudaMemcpyKind k), (y, s, n, o, k))
PER_THREAD(cudaMemcpyFromSymbol, _ptds, (void *d, const void *y, size_t n, size_t o, cudaMemcpyKind k), (d, y, n, o, k))
PER_THREAD(cudaMemcpy2D, _ptds, (void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h, cudaMemcpyKind k), (d, dp, s, sp, w, h, k))
PER_THREAD(cudaMemcpy3D, _ptds, (const cudaMemcpy3DParms *p), (p))
PER_THREAD(cudaMemset, _ptds, (void *d, int v, size_t n), (d, v, n))
PER_THREAD(cudaMemset2D, _ptds, (void *d, size_t p, int v, size_t w, size_t h), (d, p, v, w, h))
PER_THREAD(cudaMemset3D, _ptds, (cudaPitchedPtr p, int v, cudaExtent e), (p, v, e))
PER_THREAD(cudaMemcpyAsync, _ptsz, (void *d, const void *s, size_t n, cudaMemcpyKind k, cudaStream_t t), (d, s, n, k, t))
PER_THREAD(cudaMemcpyToSymbolAsync, _ptsz, (const void *y, const void *s, size_t n, size_t o, cudaMemcpyKind k, cudaStream_t t), (y, s, n, o, k, t))
PER_THREAD(cudaMemcpyFromSymbolAsync, _ptsz, (void *d, const void *y, size_t n, size_t o, cudaMemcpyKind k, cudaStream_t t), (d, y, n, o, k, t))
PER_THREAD(cudaMemcpy2DAsync, _ptsz, (void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h, cudaMemcpyKind k, cudaStream_t t), (d, dp, s, sp, w, h, k, t))
PER_THREAD(cudaMemcpy3DAsync, _ptsz, (const cudaMemcpy3DParms *p, cudaStream_t t), (p, t))
PER_THREAD(cudaMemsetAsync, _ptsz, (void *d, int v, size_t n, cudaStream_t t), (d, v, n, t))
PER_THREAD(cudaMemset2DAsync, _ptsz, (void *d, size_t p, int v, size_t w, size_t h, cudaStream_t t), (d, p, v, w, h, t))
PER_THREAD(cudaMemset3DAsync, _ptsz, (cudaPitchedPtr p, int v, cudaExtent e, cudaStream_t t), (p, v, e, t))
PER_THREAD(cudaStreamQuery, _ptsz, (cudaStream_t t), (t))
PER_THREAD(cudaStreamSynchronize, _ptsz, (cudaStream_t t), (t))
PER_THREAD(cudaStreamGetFlags, _ptsz, (cudaStream_t t, unsigned *f), (t, f))
PER_THREAD(cudaStreamGetPriority, _ptsz, (cudaStream_t t, int *p), (t, p))
PER_THREAD(cudaStreamWaitEvent, _ptsz, (cudaStream_t t, cudaEvent_t e, unsigned f), (t, e, f))
PER_THREAD(cudaStreamAddCallback, _ptsz, (cudaStream_t t, cudaStreamCallback_t c, void *d, unsigned f), (t, c, d, f))
PER_THREAD(cudaStreamAttachMemAsync, _ptsz, (cudaStream_t t, void *p, size_t n, unsigned f), (t, p, n, f))
PER_THREAD(cudaStreamBeginCapture, _ptsz, (cudaStream_t t, cudaStreamCaptureMode m), (t, m))
PER_THREAD(cudaStreamEndCapture, _ptsz, (cudaStream_t t, cudaGraph_t *g), (t, g))
PER_THREAD(cudaStreamIsCapturing, _ptsz, (cudaStream_t t, cudaStreamCaptureStatus *c), (t, c))
PER_THREAD(cudaEventRecord, _ptsz, (cudaEvent_t e, cudaStream_t t), (e, t))
PER_THREAD(cudaEventRecordWithFlags, _ptsz, (cudaEvent_t e, cudaStream_t t, unsigned f), (e, t, f))
PER_THREAD(cudaLaunchKernel, _ptsz, (const void *f, dim3 g, dim3 b, void **a, size_t s, cudaStream_t t), (f, g, b, a, s, t))
PER_THREAD(cudaLaunchKernelExC, _ptsz, (const cudaLaunchConfig_t *c, const void *f, void **a), (c, f, a))
PER_THREAD(cudaLaunchCooperativeKernel, _ptsz, (const void *f, dim3 g, dim3 b, void **a, size_t s, cudaStream_t t), (f, g, b, a, s, t))
PER_THREAD(cudaLaunchHostFunc, _ptsz, (cudaStream_t t, cudaHostFn_t f, void *d), (t, f, d))
PER_THREAD(cudaMemPrefetchAsync, _ptsz, (const void *p, size_t n, cudaMemLocation l, unsigned f, cudaStream_t t), (p, n, l, f, t))
PER_THREAD(cudaMallocAsync, _ptsz, (void **p, size_t n, cudaStream_t t), (p, n, t))
PER_THREAD(cudaFreeAsync, _ptsz, (void *p, cudaStream_t t), (p, t))
PER_THREAD(cudaMallocFromPoolAsync, _ptsz, (void **p, size_t n, cudaMemPool_t m, cudaStream_t t), (p, n, m, t))
PER_THREAD(cudaGraphLaunch, _ptsz, (cudaGraphExec_t g, cudaStream_t t), (g, t))
PER_THREAD(cudaStreamGetAttribute, _ptsz, (cudaStream_t t, int a, void *v), (t, a, v))
PER_THREAD(cudaStreamSetAttribute, _ptsz, (cudaStream_t t, int a, const void *v), (t, a, v))
PER_THREAD(cudaStreamCopyAttributes, _ptsz, (cudaStream_t d, cudaStream_t s), (d, s))
PER_THREAD(cudaGraphUpload, _ptsz, (cudaGraphExec_t g, cudaStream_t t), (g, t))
PER_THREAD(cudaGraphInstantiateWithParams, _ptsz, (cudaGraphExec_t *e, cudaGraph_t g, cudaGraphInstantiateParams *p), (e, g, p))
PER_THREAD(cudaStreamGetCaptureInfo, _ptsz, (cudaStream_t t, cudaStreamCaptureStatus *c, unsigned long long *i, cudaGraph_t *g, const cudaGraphNode_t **d, const cudaGraphEdgeData **x, size_t *n), (t, c, i, g, d, x, n))
PER_THREAD(cudaStreamUpdateCaptureDependencies, _ptsz, (cudaStream_t t, cudaGraphNode_t *d, const cudaGraphEdgeData *x, size_t n, unsigned f), (t, d, x, n, f))
PER_THREAD(cudaStreamGetId, _ptsz, (cudaStream_t t, unsigned long long *i), (t, i))
PER_THREAD(cudaStreamGetDevice, _ptsz, (cudaStream_t t, int *d), (t, d))
PER_THREAD(cudaMemcpy3DPeer, _ptds, (const cudaMemcpy3DPeerParms *p), (p))
PER_THREAD(cudaMemcpy3DPeerAsync, _ptsz, (const cudaMemcpy3DPeerParms *p, cudaStream_t t), (p, t))
PER_THREAD(cudaMemcpy2DToArray, _ptds, (cudaArray_t d, size_t w, size_t h, const void *s, size_t sp, size_t wd, size_t ht, cudaMemcpyKind k), (d, w, h, s, sp, wd, ht, k))
PER_THREAD(cudaMemcpy2DFromArray, _ptds, (void *d, size_t dp, cudaArray_const_t s, size_t w, size_t h, size_t wd, size_t ht, cudaMemcpyKind k), (d, dp, s, w, h, wd, ht, k))
PER_THREAD(cudaMemcpyToArray, _ptds, (cudaArray_t d, size_t w, size_t h, const void *s, size_t n, cudaMemcpyKind k), (d, w, h, s, n, k))
PER_THREAD(cudaMemcpyFromArray, _ptds, (void *d, cudaArray_const_t s, size_t w, size_t h, size_t n, cudaMemcpyKind k), (d, s, w, h, n, k))
PER_THREAD(cudaMemcpy2DToArrayAsync, _ptsz, (cudaArray_t d, size_t w, size_t h, const void *s, size_t sp, size_t wd, size_t ht, cudaMemcpyKind k, cudaStream_t t), (d, w, h, s, sp, wd, ht, k, t))
PER_THREAD(cudaMemcpy2DFromArrayAsync, _ptsz, (void *d, size_t dp, cudaArray_const_t s, size_t w, size_t h, size_t wd, size_t ht, cudaMemcpyKind k, cudaStream_t t), (d, dp, s, w, h, wd, ht, k, t))
PER_THREAD(cudaMemcpyToArrayAsync, _ptsz, (cudaArray_t d, size_t w, size_t h, const void *s, size_t n, cudaMemcpyKind k, cudaStream_t t), (d, w, h, s, n, k, t))
PER_THREAD(cudaMemcpyFromArrayAsync, _ptsz, (void *d, cudaArray_const_t s, size_t w, size_t h, size_t n, cudaMemcpyKind k, cudaStream_t t), (d, s, w, h, n, k, t))
#undef PER_THREAD

// --- not yet implemented: cudaErrorNotSupported with a message (never silent success) ---
#define WF_UNSUPPORTED(name)                                                                       \
  cudaError_t name() {                                                                             \
    std::lock_guard<wf::rt::ContextLock> l(rt().contextLock());                                                 \
    return cudaError_t(int(rt().notSupported(#name)));                                             \
  }

} // extern "C"

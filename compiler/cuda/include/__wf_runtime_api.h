// Warpforge CUDA headers: host-side declarations of the CUDA runtime API (types, enums, functions).
#pragma once
#include "__wf_host_defines.h"
#include "vector_types.h"
#include <stddef.h>
#ifdef __cplusplus
#define __dv(v) = v
#else
#define __dv(v)
#endif

// The CUDA types that cross libcudart's ABI (enums with CUDA's values, structs with CUDA's
// layouts) are written once, here (cuda_types.h, which the runtime includes; checked against
// NVIDIA's headers when they are installed); these headers share that file.
#include <cuda_types.h>
#ifdef __cplusplus
#include <tuple>
#include <utility>
#endif

typedef enum cudaError_t_ cudaError;

extern "C" {

#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaEventInterprocess 0x04
#define cudaEventRecordDefault 0x00
#define cudaEventRecordExternal 0x01
#define cudaEventWaitDefault 0x00
#define cudaEventWaitExternal 0x01
#define cudaStreamAddCaptureDependencies 0x0
#define cudaStreamSetCaptureDependencies 0x1
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
#define cudaHostRegisterIoMemory 0x04
#define cudaHostRegisterReadOnly 0x08
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02
#define cudaMemAttachSingle 0x04
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceScheduleSpin 0x01
#define cudaDeviceScheduleYield 0x02
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceMapHost 0x08
#define cudaDeviceLmemResizeToMax 0x10
#define cudaArrayDefault 0x00
#define cudaArrayLayered 0x01
#define cudaArraySurfaceLoadStore 0x02
#define cudaArrayCubemap 0x04
#define cudaArrayTextureGather 0x08
#define cudaCpuDeviceId ((int)-1)
#define cudaInvalidDeviceId ((int)-2)
#define cudaGraphInstantiateFlagAutoFreeOnLaunch 1

const char *cudaGetErrorString(cudaError_t error);
const char *cudaGetErrorName(cudaError_t error);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);

// Devices.
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaThreadSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaSetDeviceFlags(unsigned int flags);
cudaError_t cudaGetDeviceFlags(unsigned int *flags);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
cudaError_t cudaDeviceGetLimit(size_t *value, enum cudaLimit limit);
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache config);
cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *config);
cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);
cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority);
cudaError_t cudaDriverGetVersion(int *version);
cudaError_t cudaRuntimeGetVersion(int *version);
cudaError_t cudaDeviceCanAccessPeer(int *canAccess, int device, int peerDevice);
cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags);

// Memory.
cudaError_t cudaMalloc(void **ptr, size_t size);
cudaError_t cudaMallocHost(void **ptr, size_t size);
cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned int flags);
cudaError_t cudaMallocManaged(void **ptr, size_t size, unsigned int flags __dv(cudaMemAttachGlobal));
cudaError_t cudaMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height);
cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent);
cudaError_t cudaFree(void *ptr);
cudaError_t cudaFreeHost(void *ptr);
cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags);
cudaError_t cudaHostUnregister(void *ptr);
cudaError_t cudaHostGetDevicePointer(void **device, void *host, unsigned int flags);
cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr);
cudaError_t cudaMemGetInfo(size_t *free, size_t *total);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t stream __dv(0));
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, enum cudaMemcpyKind kind,
                              cudaStream_t stream __dv(0));
cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p);
cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream __dv(0));
cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count);
cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice,
                                size_t count, cudaStream_t stream __dv(0));
cudaError_t cudaMemset(void *ptr, int value, size_t count);
cudaError_t cudaMemsetAsync(void *ptr, int value, size_t count, cudaStream_t stream __dv(0));
cudaError_t cudaMemset2D(void *ptr, size_t pitch, int value, size_t width, size_t height);
cudaError_t cudaMemset2DAsync(void *ptr, size_t pitch, int value, size_t width, size_t height,
                              cudaStream_t stream __dv(0));
cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent);
cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value,
                              struct cudaExtent extent, cudaStream_t stream __dv(0));
cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count,
                               size_t offset __dv(0),
                               enum cudaMemcpyKind kind __dv(cudaMemcpyHostToDevice));
cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset __dv(0),
                                 enum cudaMemcpyKind kind __dv(cudaMemcpyDeviceToHost));
cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                    size_t offset, enum cudaMemcpyKind kind,
                                    cudaStream_t stream __dv(0));
cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                      enum cudaMemcpyKind kind, cudaStream_t stream __dv(0));
cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol);
cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol);
cudaError_t cudaMemPrefetchAsync(const void *ptr, size_t count, struct cudaMemLocation location,
                                 unsigned int flags, cudaStream_t stream __dv(0));
cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *ptr, size_t length __dv(0),
                                     unsigned int flags __dv(cudaMemAttachSingle));

// Stream-ordered allocation and memory pools.
cudaError_t cudaMallocAsync(void **ptr, size_t size, cudaStream_t stream);
cudaError_t cudaFreeAsync(void *ptr, cudaStream_t stream);
cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t pool,
                                    cudaStream_t stream);
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *pool, int device);
cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *pool, int device);
cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t pool);
cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool);
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, size_t minBytesToKeep);
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, enum cudaMemPoolAttr attr, void *value);
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, enum cudaMemPoolAttr attr, void *value);

// Streams, events, host functions.
cudaError_t cudaStreamCreate(cudaStream_t *stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags);
cudaError_t cudaStreamCreateWithPriority(cudaStream_t *stream, unsigned int flags, int priority);
cudaError_t cudaStreamGetPriority(cudaStream_t stream, int *priority);
cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned int *flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags __dv(0));
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData);
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                  void *userData, unsigned int flags);
cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream __dv(0));
cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream __dv(0),
                                     unsigned int flags __dv(0));
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);

// Graphs and stream capture.
cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode);
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *graph);
cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *status);
cudaError_t cudaGraphCreate(cudaGraph_t *graph, unsigned int flags);
cudaError_t cudaGraphDestroy(cudaGraph_t graph);
cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes);
cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *type);
cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                   const cudaGraphNode_t *deps, size_t numDeps,
                                   const struct cudaKernelNodeParams *params);
cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *node, cudaGraph_t graph,
                                     const cudaGraphNode_t *deps, size_t numDeps, void *dst,
                                     const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                   const cudaGraphNode_t *deps, size_t numDeps,
                                   const struct cudaMemsetParams *params);
cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                 const cudaGraphNode_t *deps, size_t numDeps,
                                 const struct cudaHostNodeParams *params);
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                  const cudaGraphNode_t *deps, size_t numDeps);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *exec, cudaGraph_t graph,
                                 unsigned long long flags __dv(0));
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *exec, cudaGraph_t graph,
                                          unsigned long long flags __dv(0));
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec);
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream);
cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, enum cudaStreamCaptureStatus *status,
                                     unsigned long long *id __dv(0), cudaGraph_t *graph __dv(0),
                                     const cudaGraphNode_t **deps __dv(0),
                                     const cudaGraphEdgeData **edges __dv(0),
                                     size_t *numDeps __dv(0));
cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t *deps,
                                                const cudaGraphEdgeData *edges, size_t numDeps,
                                                unsigned flags __dv(0));
cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes);
cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to, cudaGraphEdgeData *edges, size_t *numEdges);
cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *deps, cudaGraphEdgeData *edges, size_t *numDeps);
cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *nodes, cudaGraphEdgeData *edges, size_t *numNodes);
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to, const cudaGraphEdgeData *edges, size_t count);
cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to, const cudaGraphEdgeData *edges, size_t count);
cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node);
cudaError_t cudaGraphClone(cudaGraph_t *clone, cudaGraph_t graph);
cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *node, cudaGraphNode_t original, cudaGraph_t clone);
cudaError_t cudaGraphDebugDotPrint(cudaGraph_t graph, const char *path, unsigned flags);
cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, struct cudaKernelNodeParams *p);
cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const struct cudaKernelNodeParams *p);
cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *deps, size_t numDeps, const struct cudaMemcpy3DParms *p);
cudaError_t cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *deps, size_t numDeps, const void *symbol, const void *src, size_t count, size_t offset, enum cudaMemcpyKind kind);
cudaError_t cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *deps, size_t numDeps, void *dst, const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind);
cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node, struct cudaMemcpy3DParms *p);
cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node, const struct cudaMemcpy3DParms *p);
cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaGraphMemcpyNodeSetParamsToSymbol(cudaGraphNode_t node, const void *symbol, const void *src, size_t count, size_t offset, enum cudaMemcpyKind kind);
cudaError_t cudaGraphMemcpyNodeSetParamsFromSymbol(cudaGraphNode_t node, void *dst, const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind);
cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, struct cudaMemsetParams *p);
cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node, const struct cudaMemsetParams *p);
cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node, struct cudaHostNodeParams *p);
cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node, const struct cudaHostNodeParams *p);
cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *deps, size_t numDeps, cudaGraph_t child);
cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t *graph);
cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *deps, size_t numDeps, cudaEvent_t event);
cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *deps, size_t numDeps, cudaEvent_t event);
cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event);
cudaError_t cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event);
cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event);
cudaError_t cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event);
cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t *exec, cudaGraph_t graph, cudaGraphInstantiateParams *params);
cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t exec, unsigned long long *flags);
cudaError_t cudaGraphUpload(cudaGraphExec_t exec, cudaStream_t stream);
cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t exec, cudaGraphNode_t node, unsigned enabled);
cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t exec, cudaGraphNode_t node, unsigned *enabled);
cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node, const struct cudaKernelNodeParams *p);
cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node, const struct cudaMemcpy3DParms *p);
cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t exec, cudaGraphNode_t node, void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaGraphExecMemcpyNodeSetParamsToSymbol(cudaGraphExec_t exec, cudaGraphNode_t node, const void *symbol, const void *src, size_t count, size_t offset, enum cudaMemcpyKind kind);
cudaError_t cudaGraphExecMemcpyNodeSetParamsFromSymbol(cudaGraphExec_t exec, cudaGraphNode_t node, void *dst, const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind);
cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node, const struct cudaMemsetParams *p);
cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node, const struct cudaHostNodeParams *p);
cudaError_t cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t exec, cudaGraphNode_t node, cudaEvent_t event);
cudaError_t cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t exec, cudaGraphNode_t node, cudaEvent_t event);
cudaError_t cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node, cudaGraph_t child);
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph, cudaGraphExecUpdateResultInfo *info);

// Kernels.
cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                             size_t sharedMem, cudaStream_t stream);
cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim,
                                        void **args, size_t sharedMem, cudaStream_t stream);
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args);
cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);
cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value);
cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache config);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                                          int blockSize, size_t dynamicSMemSize);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks,
                                                                   const void *func, int blockSize,
                                                                   size_t dynamicSMemSize,
                                                                   unsigned int flags);

// CUDA arrays, textures and surfaces.
cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                            size_t width, size_t height __dv(0), unsigned int flags __dv(0));
cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                              struct cudaExtent extent, unsigned int flags __dv(0));
cudaError_t cudaFreeArray(cudaArray_t array);
cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                size_t spitch, size_t width, size_t height,
                                enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                  size_t hOffset, size_t width, size_t height,
                                  enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                              size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaCreateTextureObject(cudaTextureObject_t *tex, const struct cudaResourceDesc *res,
                                    const struct cudaTextureDesc *desc,
                                    const struct cudaResourceViewDesc *view);
cudaError_t cudaDestroyTextureObject(cudaTextureObject_t tex);
cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *surf, const struct cudaResourceDesc *res);
cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surf);

// Kernel launches (`kernel<<<grid, block, shared, stream>>>(...)`) lower to this and
// cudaLaunchKernel in clang.
unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem __dv(0),
                                     void *stream __dv(0));
#ifdef __CUDA_ARCH__
// clang's device pass looks the older configuration call up when it checks a <<<>>> launch; it
// never emits a call to it.
cudaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem __dv(0),
                              cudaStream_t stream __dv(0));
#endif

} // extern "C"

// Value constructors (inline in CUDA too: no library symbols).
static inline __host__ struct cudaPitchedPtr make_cudaPitchedPtr(void *d, size_t p, size_t xsz,
                                                                 size_t ysz) {
  struct cudaPitchedPtr r;
  r.ptr = d, r.pitch = p, r.xsize = xsz, r.ysize = ysz;
  return r;
}
static inline __host__ struct cudaPos make_cudaPos(size_t x, size_t y, size_t z) {
  struct cudaPos r;
  r.x = x, r.y = y, r.z = z;
  return r;
}
static inline __host__ struct cudaExtent make_cudaExtent(size_t w, size_t h, size_t d) {
  struct cudaExtent r;
  r.width = w, r.height = h, r.depth = d;
  return r;
}
static inline __host__ struct cudaChannelFormatDesc
cudaCreateChannelDesc(int x, int y, int z, int w, enum cudaChannelFormatKind f) {
  struct cudaChannelFormatDesc r;
  r.x = x, r.y = y, r.z = z, r.w = w, r.f = f;
  return r;
}

// C++ conveniences of the runtime API: symbols and functions by reference, typed allocation.
template <class T>
static inline cudaError_t cudaMallocAsync(T **ptr, size_t size, cudaStream_t stream) {
  return cudaMallocAsync((void **)(void *)ptr, size, stream);
}
template <class T>
static inline cudaError_t cudaMallocFromPoolAsync(T **ptr, size_t size, cudaMemPool_t pool,
                                                  cudaStream_t stream) {
  return cudaMallocFromPoolAsync((void **)(void *)ptr, size, pool, stream);
}
template <class T>
static inline cudaError_t cudaMemcpyToSymbolAsync(const T &symbol, const void *src, size_t count,
                                                  size_t offset = 0,
                                                  enum cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                                  cudaStream_t stream = 0) {
  return cudaMemcpyToSymbolAsync((const void *)&symbol, src, count, offset, kind, stream);
}
template <class T>
static inline cudaError_t
cudaMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t count, size_t offset = 0,
                          enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                          cudaStream_t stream = 0) {
  return cudaMemcpyFromSymbolAsync(dst, (const void *)&symbol, count, offset, kind, stream);
}
// The arguments are converted to the kernel's parameter types first, then passed by address.
template <class... Params, class... Args>
static inline cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *config,
                                             void (*kernel)(Params...), Args &&...args) {
  std::tuple<Params...> values(std::forward<Args>(args)...);
  return std::apply(
      [&](auto &...value) {
        void *pointers[] = {(void *)&value..., nullptr};
        return cudaLaunchKernelExC(config, (const void *)kernel, pointers);
      },
      values);
}
template <class T>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *n, T func, int blockSize, size_t shared, unsigned int flags) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, (const void *)func, blockSize,
                                                                shared, flags);
}
template <class T> static inline cudaError_t cudaMalloc(T **ptr, size_t size) {
  return cudaMalloc((void **)(void *)ptr, size);
}
template <class T> static inline cudaError_t cudaMallocHost(T **ptr, size_t size) {
  return cudaMallocHost((void **)(void *)ptr, size);
}
template <class T>
static inline cudaError_t cudaMallocManaged(T **ptr, size_t size,
                                            unsigned int flags = cudaMemAttachGlobal) {
  return cudaMallocManaged((void **)(void *)ptr, size, flags);
}
template <class T>
static inline cudaError_t cudaHostAlloc(T **ptr, size_t size, unsigned int flags) {
  return cudaHostAlloc((void **)(void *)ptr, size, flags);
}
template <class T>
static inline cudaError_t cudaMallocPitch(T **ptr, size_t *pitch, size_t width, size_t height) {
  return cudaMallocPitch((void **)(void *)ptr, pitch, width, height);
}
template <class T>
static inline cudaError_t
cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count, size_t offset = 0,
                   enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return cudaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind);
}
template <class T>
static inline cudaError_t
cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count, size_t offset = 0,
                     enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return cudaMemcpyFromSymbol(dst, (const void *)&symbol, count, offset, kind);
}
template <class T> static inline cudaError_t cudaGetSymbolAddress(void **devPtr, const T &symbol) {
  return cudaGetSymbolAddress(devPtr, (const void *)&symbol);
}
template <class T> static inline cudaError_t cudaGetSymbolSize(size_t *size, const T &symbol) {
  return cudaGetSymbolSize(size, (const void *)&symbol);
}
template <class T>
static inline cudaError_t cudaLaunchKernel(T *func, dim3 g, dim3 b, void **args,
                                           size_t shared = 0, cudaStream_t stream = 0) {
  return cudaLaunchKernel((const void *)func, g, b, args, shared, stream);
}
template <class T>
static inline cudaError_t cudaLaunchCooperativeKernel(T *func, dim3 g, dim3 b, void **args,
                                                      size_t shared = 0, cudaStream_t stream = 0) {
  return cudaLaunchCooperativeKernel((const void *)func, g, b, args, shared, stream);
}
template <class T>
static inline cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, T *func) {
  return cudaFuncGetAttributes(attr, (const void *)func);
}
template <class T>
static inline cudaError_t cudaFuncSetAttribute(T *func, enum cudaFuncAttribute attr, int value) {
  return cudaFuncSetAttribute((const void *)func, attr, value);
}
template <class T>
static inline cudaError_t cudaFuncSetCacheConfig(T *func, enum cudaFuncCache config) {
  return cudaFuncSetCacheConfig((const void *)func, config);
}
template <class T>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, T func, int b,
                                                                        size_t shared) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(n, (const void *)func, b, shared);
}
// As in CUDA, a header function over the occupancy calculator: the largest block size (a multiple
// of the warp size, within the kernel's and the caller's limits) with the most resident threads
// per multiprocessor, and the grid that fills the device with it.
template <class T>
static inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize,
                                                             T func, size_t dynamicSMemSize = 0,
                                                             int blockSizeLimit = 0) {
  if (!minGridSize || !blockSize)
    return cudaErrorInvalidValue;
  int device = 0, sms = 0, warp = 0;
  cudaError_t e = cudaGetDevice(&device);
  if (e == cudaSuccess)
    e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (e == cudaSuccess)
    e = cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, device);
  struct cudaFuncAttributes attr;
  if (e == cudaSuccess)
    e = cudaFuncGetAttributes(&attr, (const void *)func);
  if (e != cudaSuccess)
    return e;
  int limit = attr.maxThreadsPerBlock;
  if (blockSizeLimit > 0 && blockSizeLimit < limit)
    limit = blockSizeLimit;
  int bestBlock = 0, bestThreads = 0, bestBlocks = 0;
  for (int b = limit >= warp ? limit - limit % warp : limit; b > 0; b -= warp) {
    int n = 0;
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, (const void *)func, b,
                                                               dynamicSMemSize, 0);
    if (e != cudaSuccess)
      return e;
    if (n * b > bestThreads) {
      bestThreads = n * b;
      bestBlock = b;
      bestBlocks = n;
    }
  }
  *blockSize = bestBlock;
  *minGridSize = bestBlocks * sms;
  return cudaSuccess;
}
template <class T> static inline struct cudaChannelFormatDesc cudaCreateChannelDesc() {
  int bits = int(sizeof(T) * 8);
  return cudaCreateChannelDesc(bits, 0, 0, 0,
                               T(0.5) != T(0) ? cudaChannelFormatKindFloat
                                              : (T(-1) < T(0) ? cudaChannelFormatKindSigned
                                                              : cudaChannelFormatKindUnsigned));
}
// Vector element types: one channel per component.
#define __WF_CHDESC(T, BITS, N, KIND)                                                              \
  template <> inline struct cudaChannelFormatDesc cudaCreateChannelDesc<T>() {                     \
    return cudaCreateChannelDesc(BITS, N > 1 ? BITS : 0, N > 2 ? BITS : 0, N > 3 ? BITS : 0, KIND); \
  }
#define __WF_CHDESC4(B, BITS, KIND)                                                                \
  __WF_CHDESC(B##1, BITS, 1, KIND) __WF_CHDESC(B##2, BITS, 2, KIND) __WF_CHDESC(B##4, BITS, 4, KIND)
__WF_CHDESC4(char, 8, cudaChannelFormatKindSigned)
__WF_CHDESC4(uchar, 8, cudaChannelFormatKindUnsigned)
__WF_CHDESC4(short, 16, cudaChannelFormatKindSigned)
__WF_CHDESC4(ushort, 16, cudaChannelFormatKindUnsigned)
__WF_CHDESC4(int, 32, cudaChannelFormatKindSigned)
__WF_CHDESC4(uint, 32, cudaChannelFormatKindUnsigned)
__WF_CHDESC4(float, 32, cudaChannelFormatKindFloat)
#undef __WF_CHDESC4
#undef __WF_CHDESC
// Half-precision channels (16-bit float components).
static inline struct cudaChannelFormatDesc cudaCreateChannelDescHalf() {
  return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindFloat);
}
static inline struct cudaChannelFormatDesc cudaCreateChannelDescHalf1() { return cudaCreateChannelDescHalf(); }
static inline struct cudaChannelFormatDesc cudaCreateChannelDescHalf2() {
  return cudaCreateChannelDesc(16, 16, 0, 0, cudaChannelFormatKindFloat);
}
static inline struct cudaChannelFormatDesc cudaCreateChannelDescHalf4() {
  return cudaCreateChannelDesc(16, 16, 16, 16, cudaChannelFormatKindFloat);
}

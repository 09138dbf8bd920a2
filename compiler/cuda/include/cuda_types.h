// Warpforge's own declarations of the CUDA runtime types that cross the ABI of libcudart. Layouts
// and numeric values are NVIDIA's (CUDA 13): nvcc-built programs read these structs by offset and
// compare the values with constants from NVIDIA's headers. When the toolkit headers are found at
// build time, runtime/cudart/layout_check.cpp static_asserts the layouts against them. Written
// once, here beside the program-side headers; the runtime includes this file and its two tables
// (cuda_errors.def, cuda_device_attrs.def) from here.
#pragma once

#include <cstddef>
#include <cstdint>

extern "C" {

enum cudaError_t_ {
#define WF_ERROR(name, value, text) name = value,
#include "cuda_errors.def"
#undef WF_ERROR
};
typedef enum cudaError_t_ cudaError_t;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};

enum cudaMemoryType {
  cudaMemoryTypeUnregistered = 0,
  cudaMemoryTypeHost = 1,
  cudaMemoryTypeDevice = 2,
  cudaMemoryTypeManaged = 3
};

enum cudaDeviceAttr {
#define WF_ATTR(name, value) name = value,
#include "cuda_device_attrs.def"
#undef WF_ATTR
};

enum cudaLimit {
  cudaLimitStackSize = 0x00,
  cudaLimitPrintfFifoSize = 0x01,
  cudaLimitMallocHeapSize = 0x02,
  cudaLimitDevRuntimeSyncDepth = 0x03,
  cudaLimitDevRuntimePendingLaunchCount = 0x04,
  cudaLimitMaxL2FetchGranularity = 0x05,
  cudaLimitPersistingL2CacheSize = 0x06
};

enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
};

// The clang CUDA headers (compiler/cuda/include) share this file and define dim3 with CUDA's
// constructors first; the layout is the same.
#ifndef __WF_DIM3_DEFINED
struct dim3 {
  unsigned int x, y, z;
};
#endif

struct CUuuid_st {
  char bytes[16];
};
typedef struct CUuuid_st cudaUUID_t;

struct cudaDeviceProp {
  char name[256];
  cudaUUID_t uuid;
  char luid[8];
  unsigned int luidDeviceNodeMask;
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  size_t texturePitchAlignment;
  int multiProcessorCount;
  int integrated;
  int canMapHostMemory;
  int maxTexture1D;
  int maxTexture1DMipmap;
  int maxTexture2D[2];
  int maxTexture2DMipmap[2];
  int maxTexture2DLinear[3];
  int maxTexture2DGather[2];
  int maxTexture3D[3];
  int maxTexture3DAlt[3];
  int maxTextureCubemap;
  int maxTexture1DLayered[2];
  int maxTexture2DLayered[3];
  int maxTextureCubemapLayered[2];
  int maxSurface1D;
  int maxSurface2D[2];
  int maxSurface3D[3];
  int maxSurface1DLayered[2];
  int maxSurface2DLayered[3];
  int maxSurfaceCubemap;
  int maxSurfaceCubemapLayered[2];
  size_t surfaceAlignment;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int tccDriver;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int hostNativeAtomicSupported;
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int computePreemptionSupported;
  int canUseHostPointerForRegisteredMem;
  int cooperativeLaunch;
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables;
  int directManagedMemAccessFromHost;
  int maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
  int hostRegisterSupported;
  int sparseCudaArraySupported;
  int hostRegisterReadOnlySupported;
  int timelineSemaphoreInteropSupported;
  int memoryPoolsSupported;
  int gpuDirectRDMASupported;
  unsigned int gpuDirectRDMAFlushWritesOptions;
  int gpuDirectRDMAWritesOrdering;
  unsigned int memoryPoolSupportedHandleTypes;
  int deferredMappingCudaArraySupported;
  int ipcEventSupported;
  int clusterLaunch;
  int unifiedFunctionPointers;
  int deviceNumaConfig;
  int deviceNumaId;
  int mpsEnabled;
  int hostNumaId;
  unsigned int gpuPciDeviceID;
  unsigned int gpuPciSubsystemID;
  int hostNumaMultinodeIpcSupported;
  int reserved[56];
};

struct cudaPointerAttributes {
  enum cudaMemoryType type;
  int device;
  void *devicePointer;
  void *hostPointer;
  long reserved[8];
};

struct cudaFuncAttributes {
  size_t sharedSizeBytes;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int cacheModeCA;
  int maxDynamicSharedSizeBytes;
  int preferredShmemCarveout;
  int clusterDimMustBeSet;
  int requiredClusterWidth;
  int requiredClusterHeight;
  int requiredClusterDepth;
  int clusterSchedulingPolicyPreference;
  int nonPortableClusterSizeAllowed;
  int reserved[16];
};

typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef struct CUkern_st *cudaKernel_t;
typedef void (*cudaStreamCallback_t)(cudaStream_t, cudaError_t, void *);
typedef void (*cudaHostFn_t)(void *);

// --- pitched and 3D memory ---
typedef struct cudaArray *cudaArray_t;
struct cudaPitchedPtr {
  void *ptr;
  size_t pitch;
  size_t xsize;
  size_t ysize;
};
struct cudaExtent {
  size_t width, height, depth;
};
struct cudaPos {
  size_t x, y, z;
};
struct cudaMemcpy3DParms {
  cudaArray_t srcArray;
  struct cudaPos srcPos;
  struct cudaPitchedPtr srcPtr;
  cudaArray_t dstArray;
  struct cudaPos dstPos;
  struct cudaPitchedPtr dstPtr;
  struct cudaExtent extent;
  enum cudaMemcpyKind kind;
};
struct cudaMemcpy3DPeerParms {
  cudaArray_t srcArray;
  struct cudaPos srcPos;
  struct cudaPitchedPtr srcPtr;
  int srcDevice;
  cudaArray_t dstArray;
  struct cudaPos dstPos;
  struct cudaPitchedPtr dstPtr;
  int dstDevice;
  struct cudaExtent extent;
};

enum cudaFuncCache {
  cudaFuncCachePreferNone = 0,
  cudaFuncCachePreferShared = 1,
  cudaFuncCachePreferL1 = 2,
  cudaFuncCachePreferEqual = 3
};

// --- launches ---
enum cudaLaunchAttributeID {
  cudaLaunchAttributeCooperative = 2,
};
union cudaLaunchAttributeValue {
  char pad[64];
  int cooperative;
};
struct cudaLaunchAttribute {
  enum cudaLaunchAttributeID id;
  char pad[8 - sizeof(enum cudaLaunchAttributeID)];
  union cudaLaunchAttributeValue val;
};
struct cudaLaunchConfig_t {
  dim3 gridDim;
  dim3 blockDim;
  size_t dynamicSmemBytes;
  cudaStream_t stream;
  struct cudaLaunchAttribute *attrs;
  unsigned int numAttrs;
};

// --- graphs ---
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphNode_st *cudaGraphNode_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;
enum cudaStreamCaptureMode {
  cudaStreamCaptureModeGlobal = 0,
  cudaStreamCaptureModeThreadLocal = 1,
  cudaStreamCaptureModeRelaxed = 2
};
enum cudaStreamCaptureStatus {
  cudaStreamCaptureStatusNone = 0,
  cudaStreamCaptureStatusActive = 1,
  cudaStreamCaptureStatusInvalidated = 2
};
enum cudaGraphNodeType {
  cudaGraphNodeTypeKernel = 0x00,
  cudaGraphNodeTypeMemcpy = 0x01,
  cudaGraphNodeTypeMemset = 0x02,
  cudaGraphNodeTypeHost = 0x03,
  cudaGraphNodeTypeGraph = 0x04,
  cudaGraphNodeTypeEmpty = 0x05,
  cudaGraphNodeTypeWaitEvent = 0x06,
  cudaGraphNodeTypeEventRecord = 0x07,
};
typedef struct cudaGraphEdgeData_st {
  unsigned char from_port;
  unsigned char to_port;
  unsigned char type;
  unsigned char reserved[5];
} cudaGraphEdgeData;
enum cudaGraphExecUpdateResult {
  cudaGraphExecUpdateSuccess = 0x0,
  cudaGraphExecUpdateError = 0x1,
  cudaGraphExecUpdateErrorTopologyChanged = 0x2,
  cudaGraphExecUpdateErrorNodeTypeChanged = 0x3,
  cudaGraphExecUpdateErrorFunctionChanged = 0x4,
  cudaGraphExecUpdateErrorParametersChanged = 0x5,
  cudaGraphExecUpdateErrorNotSupported = 0x6,
};
typedef struct cudaGraphExecUpdateResultInfo_st {
  enum cudaGraphExecUpdateResult result;
  cudaGraphNode_t errorNode;
  cudaGraphNode_t errorFromNode;
} cudaGraphExecUpdateResultInfo;
typedef enum cudaGraphInstantiateResult {
  cudaGraphInstantiateSuccess = 0,
  cudaGraphInstantiateError = 1,
  cudaGraphInstantiateInvalidStructure = 2,
} cudaGraphInstantiateResult;
typedef struct cudaGraphInstantiateParams_st {
  unsigned long long flags;
  cudaStream_t uploadStream;
  cudaGraphNode_t errNode_out;
  cudaGraphInstantiateResult result_out;
} cudaGraphInstantiateParams;
struct cudaKernelNodeParams {
  void *func;
  dim3 gridDim;
  dim3 blockDim;
  unsigned int sharedMemBytes;
  void **kernelParams;
  void **extra;
};
struct cudaMemsetParams {
  void *dst;
  size_t pitch;
  unsigned int value;
  unsigned int elementSize;
  size_t width;
  size_t height;
};
struct cudaHostNodeParams {
  cudaHostFn_t fn;
  void *userData;
};

// --- stream-ordered allocation ---
typedef struct CUmemPoolHandle_st *cudaMemPool_t;
enum cudaMemPoolAttr {
  cudaMemPoolReuseFollowEventDependencies = 0x1,
  cudaMemPoolReuseAllowOpportunistic = 0x2,
  cudaMemPoolReuseAllowInternalDependencies = 0x3,
  cudaMemPoolAttrReleaseThreshold = 0x4,
  cudaMemPoolAttrReservedMemCurrent = 0x5,
  cudaMemPoolAttrReservedMemHigh = 0x6,
  cudaMemPoolAttrUsedMemCurrent = 0x7,
  cudaMemPoolAttrUsedMemHigh = 0x8
};
struct cudaMemLocation {
  int type;
  int id;
};
enum cudaMemLocationType {
  cudaMemLocationTypeInvalid = 0,
  cudaMemLocationTypeDevice = 1,
  cudaMemLocationTypeHost = 2,
  cudaMemLocationTypeHostNuma = 3,
  cudaMemLocationTypeHostNumaCurrent = 4
};
enum cudaMemAccessFlags {
  cudaMemAccessFlagsProtNone = 0,
  cudaMemAccessFlagsProtRead = 1,
  cudaMemAccessFlagsProtReadWrite = 3
};
struct cudaMemAccessDesc {
  struct cudaMemLocation location;
  enum cudaMemAccessFlags flags;
};
enum cudaMemAllocationType {
  cudaMemAllocationTypeInvalid = 0,
  cudaMemAllocationTypePinned = 1,
  cudaMemAllocationTypeManaged = 2
};

// --- textures, surfaces and CUDA arrays ---
typedef const struct cudaArray *cudaArray_const_t;
typedef struct cudaMipmappedArray *cudaMipmappedArray_t;
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;
enum cudaChannelFormatKind {
  cudaChannelFormatKindSigned = 0,
  cudaChannelFormatKindUnsigned = 1,
  cudaChannelFormatKindFloat = 2,
  cudaChannelFormatKindNone = 3
};
struct cudaChannelFormatDesc {
  int x, y, z, w;
  enum cudaChannelFormatKind f;
};
enum cudaResourceType {
  cudaResourceTypeArray = 0,
  cudaResourceTypeMipmappedArray = 1,
  cudaResourceTypeLinear = 2,
  cudaResourceTypePitch2D = 3
};
struct cudaResourceDesc {
  enum cudaResourceType resType;
  union {
    struct {
      cudaArray_t array;
    } array;
    struct {
      cudaMipmappedArray_t mipmap;
    } mipmap;
    struct {
      void *devPtr;
      struct cudaChannelFormatDesc desc;
      size_t sizeInBytes;
    } linear;
    struct {
      void *devPtr;
      struct cudaChannelFormatDesc desc;
      size_t width, height, pitchInBytes;
    } pitch2D;
    struct {
      int reserved[32];
    } reserved;
  } res;
  unsigned int flags;
};
enum cudaTextureAddressMode {
  cudaAddressModeWrap = 0,
  cudaAddressModeClamp = 1,
  cudaAddressModeMirror = 2,
  cudaAddressModeBorder = 3
};
enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
struct cudaTextureDesc {
  enum cudaTextureAddressMode addressMode[3];
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int seamlessCubemap;
};
#ifndef __WF_HAVE_SURFACE_BOUNDARY_MODE // also guarded in compiler/cuda/include/__wf_texture.h
#define __WF_HAVE_SURFACE_BOUNDARY_MODE
enum cudaSurfaceBoundaryMode {
  cudaBoundaryModeZero = 0,
  cudaBoundaryModeClamp = 1,
  cudaBoundaryModeTrap = 2
};
#endif
enum cudaSharedMemConfig {
  cudaSharedMemBankSizeDefault = 0,
  cudaSharedMemBankSizeFourByte = 1,
  cudaSharedMemBankSizeEightByte = 2
};

} // extern "C"

// CUDA 13's size; with the toolkit's headers, layout_check.cpp also compares every field's offset.
static_assert(sizeof(cudaDeviceProp) == 1008, "cudaDeviceProp differs from CUDA 13's 1008 bytes");

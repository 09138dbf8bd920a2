// Entry points of the drop-in libraries beyond the corpus's (docs/runtime.md, "Entry points"),
// through their exported symbols: every entry of runtime/cudart/unsupported.def answers CUDA's
// "not supported" code (the runtime's ones as the last error too), and the entry points that have
// real behaviour do what CUDA documents.
#include "cuda_types.h"
#include "ptx_kernels.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstring>
#include <string>
#include <vector>

extern "C" {
cudaError_t cudaGetLastError(void);
cudaError_t cudaMalloc(void **ptr, size_t size);
cudaError_t cudaFree(void *ptr);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, cudaMemcpyKind kind);
cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device);
cudaError_t cudaStreamCreate(cudaStream_t *stream);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned flags);
cudaError_t cudaFreeHost(void *ptr);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *func, int blockSize,
                                                          size_t dyn);
cudaError_t cudaMallocAsync(void **ptr, size_t size, cudaStream_t stream);
cudaError_t cudaFreeAsync(void *ptr, cudaStream_t stream);
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void *value);
// The new entry points (declared here as the headers declare them).
cudaError_t cudaChooseDevice(int *device, const cudaDeviceProp *prop);
cudaError_t cudaInitDevice(int device, unsigned deviceFlags, unsigned flags);
cudaError_t cudaSetValidDevices(int *devices, int len);
cudaError_t cudaDeviceCanAccessPeer(int *can, int device, int peer);
cudaError_t cudaDeviceEnablePeerAccess(int peer, unsigned flags);
cudaError_t cudaDeviceDisablePeerAccess(int peer);
cudaError_t cudaDeviceGetP2PAttribute(int *value, int attr, int src, int dst);
cudaError_t cudaDeviceGetPCIBusId(char *id, int len, int device);
cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *id);
cudaError_t cudaDeviceGetSharedMemConfig(cudaSharedMemConfig *config);
cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig config);
cudaError_t cudaFuncSetSharedMemConfig(const void *func, cudaSharedMemConfig config);
cudaError_t cudaFuncGetName(const char **name, const void *func);
cudaError_t cudaGetKernel(cudaKernel_t *kernel, const void *func);
cudaError_t cudaHostGetFlags(unsigned *flags, void *host);
cudaError_t cudaProfilerStart(void);
cudaError_t cudaProfilerStop(void);
cudaError_t cudaCtxResetPersistingL2Cache(void);
cudaError_t cudaStreamGetId(cudaStream_t stream, unsigned long long *id);
cudaError_t cudaStreamGetId_ptsz(cudaStream_t stream, unsigned long long *id);
cudaError_t cudaStreamGetDevice(cudaStream_t stream, int *device);
cudaError_t cudaThreadExchangeStreamCaptureMode(cudaStreamCaptureMode *mode);
cudaError_t cudaMemcpy3DPeer(const cudaMemcpy3DPeerParms *p);
cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *bytes, const void *func, int blocks,
                                                      int blockSize);
cudaError_t cudaMemGetDefaultMemPool(cudaMemPool_t *pool, cudaMemLocation *location,
                                     cudaMemAllocationType type);
cudaError_t cudaMemGetMemPool(cudaMemPool_t *pool, cudaMemLocation *location,
                              cudaMemAllocationType type);
cudaError_t cudaMemSetMemPool(cudaMemLocation *location, cudaMemAllocationType type,
                              cudaMemPool_t pool);
cudaError_t cudaMemPoolSetAccess(cudaMemPool_t pool, const cudaMemAccessDesc *descs, size_t n);
cudaError_t cudaMemPoolGetAccess(cudaMemAccessFlags *flags, cudaMemPool_t pool,
                                 cudaMemLocation *location);

// Driver API, with CUDA's handle types as plain pointers.
typedef int CUresult;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUctx_st *CUcontext;
typedef unsigned long long CUdeviceptr;
CUresult cuInit(unsigned flags);
CUresult cuCtxGetCurrent(CUcontext *ctx);
CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, int dev);
CUresult cuCtxSetCurrent(CUcontext ctx);
CUresult cuModuleLoadData(CUmodule *module, const void *image);
CUresult cuModuleGetFunction(CUfunction *f, CUmodule module, const char *name);
CUresult cuFuncGetName(const char **name, CUfunction f);
CUresult cuFuncGetModule(CUmodule *module, CUfunction f);
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, CUfunction f, int blockSize, size_t dyn);
CUresult cuOccupancyMaxPotentialBlockSize(int *minGrid, int *blockSize, CUfunction f,
                                          size_t (*toShared)(int), size_t dyn, int limit);
CUresult cuOccupancyAvailableDynamicSMemPerBlock(size_t *bytes, CUfunction f, int blocks, int size);
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n);
CUresult cuMemFree_v2(CUdeviceptr p);
CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t n);
CUresult cuMemcpyPeer(CUdeviceptr dst, CUcontext dctx, CUdeviceptr src, CUcontext sctx, size_t n);
CUresult cuMemcpyDtoH_v2_ptds(void *dst, CUdeviceptr src, size_t n);
CUresult cuMemsetD2D32_v2(CUdeviceptr dst, size_t pitch, unsigned v, size_t w, size_t h);
CUresult cuMemsetD8Async_ptsz(CUdeviceptr dst, unsigned char v, size_t n, cudaStream_t s);
CUresult cuMemAllocPitch_v2(CUdeviceptr *p, size_t *pitch, size_t w, size_t h, unsigned elem);
CUresult cuStreamSynchronize_ptsz(cudaStream_t s);
CUresult cuStreamCreateWithPriority(cudaStream_t *s, unsigned flags, int priority);
CUresult cuStreamGetPriority(cudaStream_t s, int *priority);
CUresult cuStreamGetFlags(cudaStream_t s, unsigned *flags);
CUresult cuStreamGetCtx(cudaStream_t s, CUcontext *ctx);
CUresult cuStreamDestroy_v2(cudaStream_t s);
CUresult cuMemPoolCreate(cudaMemPool_t *pool, const void *props);
CUresult cuMemPoolDestroy(cudaMemPool_t pool);
CUresult cuMemPoolGetAttribute(cudaMemPool_t pool, int attr, void *value);
CUresult cuMemAllocFromPoolAsync(CUdeviceptr *p, size_t n, cudaMemPool_t pool, cudaStream_t s);
CUresult cuMemFreeAsync(CUdeviceptr p, cudaStream_t s);
CUresult cuDeviceGetDefaultMemPool(cudaMemPool_t *pool, int dev);
CUresult cuDeviceCanAccessPeer(int *can, int dev, int peer);
CUresult cuDeviceGetPCIBusId(char *id, int len, int dev);
struct DevProp {
  int maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3], sharedMemPerBlock, totalConstantMemory,
      SIMDWidth, memPitch, regsPerBlock, clockRate, textureAlign;
};
CUresult cuDeviceGetProperties(DevProp *prop, int dev);
CUresult cuDeviceGetAttribute(int *value, int attribute, int dev);
CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned *version);
}

namespace {

struct Entry {
  const char *name;
  const char *group;
};
const Entry kUnsupported[] = {
#define WF_GROUP(id, reason)
#define WF_ENTRY(name, group) {#name, #group},
#include "unsupported.def"
#undef WF_ENTRY
#undef WF_GROUP
};

TEST(EntryPoints, UnsupportedAnswerNotSupported) {
  ASSERT_GT(std::size(kUnsupported), 0u);
  for (const Entry &e : kUnsupported) {
    SCOPED_TRACE(e.name);
    void *sym = dlsym(RTLD_DEFAULT, e.name);
    ASSERT_NE(sym, nullptr);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    // The entries read no argument (unsupported.cpp), so calling them without any is their call.
    int result = reinterpret_cast<int (*)()>(sym)();
    EXPECT_EQ(result, 801); // cudaErrorNotSupported, CUDA_ERROR_NOT_SUPPORTED
    bool runtimeApi = std::strncmp(e.name, "cuda", 4) == 0;
    EXPECT_EQ(cudaGetLastError(), runtimeApi ? cudaErrorNotSupported : cudaSuccess);
  }
}

// out[i] = i for i < n.
constexpr const char *kPtx = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry iota(.param .u64 p_out, .param .u32 p_n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p_out];
  ld.param.u32 %r1, [p_n];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r5, %r2, %r3, %r4;
  setp.ge.s32 %p1, %r5, %r1;
  @%p1 bra DONE;
  mul.wide.s32 %rd2, %r5, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r5;
DONE:
  ret;
}
)";
const char kIota = 0;
void registerIota() {
  static bool once = [] {
    wf::test::registerPtxKernels(kPtx, {{&kIota, "iota"}});
    return true;
  }();
  (void)once;
}

TEST(EntryPoints, DeviceAndPeerQueries) {
  int dev = -1;
  cudaDeviceProp want{};
  EXPECT_EQ(cudaChooseDevice(&dev, &want), cudaSuccess);
  EXPECT_EQ(dev, 0);
  EXPECT_EQ(cudaInitDevice(0, 0, 0), cudaSuccess);
  EXPECT_EQ(cudaInitDevice(1, 0, 0), cudaErrorInvalidDevice);
  int valid[] = {0};
  EXPECT_EQ(cudaSetValidDevices(valid, 1), cudaSuccess);
  int invalid[] = {0, 3};
  EXPECT_EQ(cudaSetValidDevices(invalid, 2), cudaErrorInvalidDevice);
  int can = -1;
  EXPECT_EQ(cudaDeviceCanAccessPeer(&can, 0, 0), cudaSuccess);
  EXPECT_EQ(can, 0);
  EXPECT_EQ(cudaDeviceCanAccessPeer(&can, 0, 1), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaDeviceEnablePeerAccess(0, 0), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaDeviceDisablePeerAccess(0), cudaErrorInvalidDevice);
  int v = 0;
  EXPECT_EQ(cudaDeviceGetP2PAttribute(&v, 2, 0, 0), cudaErrorInvalidDevice);
  cudaGetLastError();
  char bus[32] = {};
  ASSERT_EQ(cudaDeviceGetPCIBusId(bus, sizeof bus, 0), cudaSuccess);
  EXPECT_EQ(std::strlen(bus), 12u) << bus; // dddd:bb:dd.f
  dev = -1;
  EXPECT_EQ(cudaDeviceGetByPCIBusId(&dev, bus), cudaSuccess);
  EXPECT_EQ(dev, 0);
  EXPECT_EQ(cudaDeviceGetByPCIBusId(&dev, "0000:7f:1f.0"), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaDeviceGetByPCIBusId(&dev, "nonsense"), cudaErrorInvalidValue);
  cudaSharedMemConfig config{};
  EXPECT_EQ(cudaDeviceGetSharedMemConfig(&config), cudaSuccess);
  EXPECT_EQ(config, cudaSharedMemBankSizeFourByte);
  EXPECT_EQ(cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte), cudaSuccess);
  EXPECT_EQ(cudaDeviceSetSharedMemConfig(cudaSharedMemConfig(7)), cudaErrorInvalidValue);
  EXPECT_EQ(cudaProfilerStart(), cudaSuccess);
  EXPECT_EQ(cudaProfilerStop(), cudaSuccess);
  EXPECT_EQ(cudaCtxResetPersistingL2Cache(), cudaSuccess);
  cudaGetLastError();

  // The driver's answers agree with the runtime's.
  ASSERT_EQ(cuInit(0), 0);
  EXPECT_EQ(cuDeviceCanAccessPeer(&can, 0, 0), 0);
  EXPECT_EQ(can, 0);
  char busDriver[32] = {};
  EXPECT_EQ(cuDeviceGetPCIBusId(busDriver, sizeof busDriver, 0), 0);
  EXPECT_STREQ(busDriver, bus);
  DevProp prop{};
  ASSERT_EQ(cuDeviceGetProperties(&prop, 0), 0);
  int threads = 0, warp = 0;
  cuDeviceGetAttribute(&threads, 1, 0);
  cuDeviceGetAttribute(&warp, 10, 0);
  EXPECT_EQ(prop.maxThreadsPerBlock, threads);
  EXPECT_EQ(prop.SIMDWidth, warp);
  EXPECT_EQ(warp, 32);
  EXPECT_EQ(cuDeviceGetProperties(&prop, 1), 101); // CUDA_ERROR_INVALID_DEVICE
}

TEST(EntryPoints, FunctionsAndOccupancy) {
  registerIota();
  const char *name = nullptr;
  ASSERT_EQ(cudaFuncGetName(&name, &kIota), cudaSuccess);
  EXPECT_STREQ(name, "iota");
  int notAKernel = 0;
  EXPECT_EQ(cudaFuncGetName(&name, &notAKernel), cudaErrorInvalidDeviceFunction);
  cudaKernel_t kernel = nullptr;
  EXPECT_EQ(cudaGetKernel(&kernel, &kIota), cudaSuccess);
  EXPECT_NE(kernel, nullptr);
  EXPECT_EQ(cudaFuncSetSharedMemConfig(&kIota, cudaSharedMemBankSizeFourByte), cudaSuccess);
  cudaGetLastError();

  int sms = 0, threadsPerSm = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaDeviceGetAttribute(&threadsPerSm, cudaDevAttrMaxThreadsPerMultiProcessor, 0);
  int sharedPerBlock = 0;
  cudaDeviceGetAttribute(&sharedPerBlock, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);

  // The driver's module of the same PTX: the driver's occupancy calls are the runtime's.
  ASSERT_EQ(cuInit(0), 0);
  CUcontext ctx = nullptr;
  ASSERT_EQ(cuDevicePrimaryCtxRetain(&ctx, 0), 0);
  ASSERT_EQ(cuCtxSetCurrent(ctx), 0);
  unsigned api = 0;
  EXPECT_EQ(cuCtxGetApiVersion(ctx, &api), 0);
  EXPECT_EQ(api, 3020u);
  CUmodule module = nullptr;
  ASSERT_EQ(cuModuleLoadData(&module, kPtx), 0);
  CUfunction f = nullptr;
  ASSERT_EQ(cuModuleGetFunction(&f, module, "iota"), 0);
  EXPECT_EQ(cuFuncGetName(&name, f), 0);
  EXPECT_STREQ(name, "iota");
  CUmodule owner = nullptr;
  EXPECT_EQ(cuFuncGetModule(&owner, f), 0);
  EXPECT_EQ(owner, module);

  auto blocksAt = [&](int size) {
    int n = -1, d = -1;
    EXPECT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, &kIota, size, 0), cudaSuccess);
    EXPECT_EQ(cuOccupancyMaxActiveBlocksPerMultiprocessor(&d, f, size, 0), 0);
    EXPECT_EQ(n, d) << size;
    EXPECT_LE(n * size, threadsPerSm) << size;
    return n;
  };
  EXPECT_GT(blocksAt(128), 0);
  int minGrid = 0, best = 0;
  ASSERT_EQ(cuOccupancyMaxPotentialBlockSize(&minGrid, &best, f, nullptr, 0, 0), 0);
  ASSERT_GT(best, 0);
  EXPECT_EQ(best % 32, 0);
  EXPECT_EQ(minGrid, blocksAt(best) * sms);
  for (int size = 32; size <= 1024; size += 32) // no block size keeps more threads resident
    EXPECT_LE(blocksAt(size) * size, blocksAt(best) * best) << size;
  ASSERT_EQ(cuOccupancyMaxPotentialBlockSize(&minGrid, &best, f, nullptr, 0, 96), 0);
  EXPECT_LE(best, 96);

  // The most dynamic shared memory for two resident blocks still lets two blocks in.
  size_t bytes = 0, driverBytes = 0;
  ASSERT_EQ(cudaOccupancyAvailableDynamicSMemPerBlock(&bytes, &kIota, 2, 128), cudaSuccess);
  EXPECT_EQ(cuOccupancyAvailableDynamicSMemPerBlock(&driverBytes, f, 2, 128), 0);
  EXPECT_EQ(bytes, driverBytes);
  EXPECT_GT(bytes, 0u);
  EXPECT_LE(bytes, size_t(sharedPerBlock));
  int n = 0;
  EXPECT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, &kIota, 128, bytes), cudaSuccess);
  EXPECT_GE(n, 2);
  EXPECT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, &kIota, 128, bytes + 1024),
            cudaSuccess);
  EXPECT_LT(n, 2);
}

TEST(EntryPoints, StreamsHostMemoryAndCaptureMode) {
  cudaStream_t s = nullptr;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  unsigned long long id = 0, other = 0, perThread = 0;
  EXPECT_EQ(cudaStreamGetId(s, &id), cudaSuccess);
  EXPECT_EQ(cudaStreamGetId(nullptr, &other), cudaSuccess);
  EXPECT_NE(id, other);
  EXPECT_EQ(cudaStreamGetId_ptsz(nullptr, &perThread), cudaSuccess);
  EXPECT_NE(perThread, other); // per-thread: the null stream is the thread's own
  int dev = -1;
  EXPECT_EQ(cudaStreamGetDevice(s, &dev), cudaSuccess);
  EXPECT_EQ(dev, 0);
  EXPECT_EQ(cudaStreamGetDevice(reinterpret_cast<cudaStream_t>(0x1234), &dev),
            cudaErrorInvalidResourceHandle);
  cudaGetLastError();
  EXPECT_EQ(cudaStreamDestroy(s), cudaSuccess);

  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  EXPECT_EQ(cudaThreadExchangeStreamCaptureMode(&mode), cudaSuccess);
  EXPECT_EQ(mode, cudaStreamCaptureModeGlobal);
  EXPECT_EQ(cudaThreadExchangeStreamCaptureMode(&mode), cudaSuccess);
  EXPECT_EQ(mode, cudaStreamCaptureModeRelaxed);

  void *host = nullptr;
  ASSERT_EQ(cudaHostAlloc(&host, 4096, 2 /* cudaHostAllocMapped */), cudaSuccess);
  unsigned flags = 0;
  EXPECT_EQ(cudaHostGetFlags(&flags, host), cudaSuccess);
  EXPECT_EQ(flags, 2u);
  int local = 0;
  EXPECT_EQ(cudaHostGetFlags(&flags, &local), cudaErrorInvalidValue);
  cudaGetLastError();
  cudaFreeHost(host);

  // Driver streams: priority and flags as created, the one context.
  ASSERT_EQ(cuInit(0), 0);
  cudaStream_t ds = nullptr;
  ASSERT_EQ(cuStreamCreateWithPriority(&ds, 1, -1), 0);
  int priority = 0;
  EXPECT_EQ(cuStreamGetPriority(ds, &priority), 0);
  EXPECT_EQ(priority, -1);
  EXPECT_EQ(cuStreamGetFlags(ds, &flags), 0);
  EXPECT_EQ(flags, 1u);
  CUcontext ctx = nullptr, streamCtx = nullptr;
  cuDevicePrimaryCtxRetain(&ctx, 0);
  EXPECT_EQ(cuStreamGetCtx(ds, &streamCtx), 0);
  EXPECT_EQ(streamCtx, ctx);
  EXPECT_EQ(cuStreamDestroy_v2(ds), 0);
}

TEST(EntryPoints, DriverCopiesAndFills) {
  ASSERT_EQ(cuInit(0), 0);
  CUcontext ctx = nullptr;
  ASSERT_EQ(cuDevicePrimaryCtxRetain(&ctx, 0), 0);
  ASSERT_EQ(cuCtxSetCurrent(ctx), 0);
  // A pitched 2D fill, rows apart, then read back through the unified and per-thread copies.
  CUdeviceptr buf = 0;
  size_t pitch = 0;
  ASSERT_EQ(cuMemAllocPitch_v2(&buf, &pitch, 40, 3, 4), 0);
  EXPECT_EQ(pitch % 256, 0u);
  EXPECT_GE(pitch, 40u);
  ASSERT_EQ(cuMemsetD8Async_ptsz(buf, 0xab, pitch * 3, nullptr), 0);
  ASSERT_EQ(cuMemsetD2D32_v2(buf, pitch, 0x01020304u, 5, 3), 0); // 5 words of each row
  CUdeviceptr copy = 0;
  ASSERT_EQ(cuMemAlloc_v2(&copy, pitch * 3), 0);
  ASSERT_EQ(cuMemcpy(copy, buf, pitch * 3), 0);
  CUdeviceptr peer = 0;
  ASSERT_EQ(cuMemAlloc_v2(&peer, pitch * 3), 0);
  ASSERT_EQ(cuMemcpyPeer(peer, ctx, copy, ctx, pitch * 3), 0);
  EXPECT_EQ(cuMemcpyPeer(peer, nullptr, copy, ctx, 4), 201); // CUDA_ERROR_INVALID_CONTEXT
  std::vector<uint8_t> host(pitch * 3);
  ASSERT_EQ(cuMemcpyDtoH_v2_ptds(host.data(), peer, host.size()), 0);
  ASSERT_EQ(cuStreamSynchronize_ptsz(nullptr), 0);
  for (size_t row = 0; row < 3; ++row)
    for (size_t b = 0; b < pitch; ++b) {
      uint8_t want = b < 20 ? uint8_t(0x04 - b % 4) : 0xab; // little-endian 0x01020304
      ASSERT_EQ(host[row * pitch + b], want) << row << " " << b;
    }
  cuMemFree_v2(buf);
  cuMemFree_v2(copy);
  cuMemFree_v2(peer);
}

TEST(EntryPoints, MemoryPoolsOfBothApis) {
  ASSERT_EQ(cuInit(0), 0);
  // The default pool is one object for both APIs and both ways of asking.
  cudaMemPool_t driverDefault = nullptr, runtimeDefault = nullptr, current = nullptr;
  ASSERT_EQ(cuDeviceGetDefaultMemPool(&driverDefault, 0), 0);
  cudaMemLocation device{cudaMemLocationTypeDevice, 0};
  ASSERT_EQ(cudaMemGetDefaultMemPool(&runtimeDefault, &device, cudaMemAllocationTypePinned),
            cudaSuccess);
  EXPECT_EQ(driverDefault, runtimeDefault);
  cudaMemLocation host{cudaMemLocationTypeHost, 0};
  EXPECT_EQ(cudaMemGetDefaultMemPool(&runtimeDefault, &host, cudaMemAllocationTypePinned),
            cudaErrorInvalidValue);
  cudaGetLastError();

  // A driver pool: its statistics follow the driver's and the runtime's allocations alike.
  cudaMemPool_t pool = nullptr;
  int props = 0;
  ASSERT_EQ(cuMemPoolCreate(&pool, &props), 0);
  ASSERT_EQ(cudaMemSetMemPool(&device, cudaMemAllocationTypePinned, pool), cudaSuccess);
  ASSERT_EQ(cudaMemGetMemPool(&current, &device, cudaMemAllocationTypePinned), cudaSuccess);
  EXPECT_EQ(current, pool);
  CUdeviceptr a = 0;
  ASSERT_EQ(cuMemAllocFromPoolAsync(&a, 1000, pool, nullptr), 0);
  void *b = nullptr;
  ASSERT_EQ(cudaMallocAsync(&b, 3000, nullptr), cudaSuccess); // from the current pool
  uint64_t used = 0, high = 0;
  EXPECT_EQ(cuMemPoolGetAttribute(pool, 7 /* used current */, &used), 0);
  EXPECT_EQ(used, 4000u);
  ASSERT_EQ(cuMemFreeAsync(a, nullptr), 0);
  EXPECT_EQ(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used), cudaSuccess);
  EXPECT_EQ(used, 3000u);
  EXPECT_EQ(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high), cudaSuccess);
  EXPECT_EQ(high, 4000u);
  ASSERT_EQ(cudaFreeAsync(b, nullptr), cudaSuccess);
  cudaMemAccessDesc access{device, cudaMemAccessFlagsProtReadWrite};
  EXPECT_EQ(cudaMemPoolSetAccess(pool, &access, 1), cudaSuccess);
  cudaMemAccessDesc elsewhere{{cudaMemLocationTypeDevice, 1}, cudaMemAccessFlagsProtReadWrite};
  EXPECT_EQ(cudaMemPoolSetAccess(pool, &elsewhere, 1), cudaErrorInvalidDevice);
  cudaMemAccessFlags flags = cudaMemAccessFlagsProtNone;
  EXPECT_EQ(cudaMemPoolGetAccess(&flags, pool, &device), cudaSuccess);
  EXPECT_EQ(flags, cudaMemAccessFlagsProtReadWrite);
  cudaGetLastError();
  // Destroying the current pool makes the default one current again.
  EXPECT_EQ(cuMemPoolDestroy(pool), 0);
  EXPECT_EQ(cudaMemGetMemPool(&current, &device, cudaMemAllocationTypePinned), cudaSuccess);
  EXPECT_EQ(current, driverDefault);
  EXPECT_EQ(cuMemPoolDestroy(driverDefault), 1); // CUDA_ERROR_INVALID_VALUE
}

TEST(EntryPoints, Copy3DPeer) {
  std::vector<int> src(64), dst(64, -1);
  for (int i = 0; i < 64; ++i)
    src[i] = i * 7;
  void *dev = nullptr;
  ASSERT_EQ(cudaMalloc(&dev, 64 * sizeof(int)), cudaSuccess);
  cudaMemcpy3DPeerParms p{};
  p.srcPtr = cudaPitchedPtr{src.data(), 16 * sizeof(int), 16, 4};
  p.dstPtr = cudaPitchedPtr{dev, 16 * sizeof(int), 16, 4};
  p.extent = cudaExtent{16 * sizeof(int), 4, 1};
  ASSERT_EQ(cudaMemcpy3DPeer(&p), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(dst.data(), dev, 64 * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(dst, src);
  p.dstDevice = 1;
  EXPECT_EQ(cudaMemcpy3DPeer(&p), cudaErrorInvalidDevice);
  cudaGetLastError();
  cudaFree(dev);
}

} // namespace

extern "C" {
CUresult cuPointerGetAttribute(void *data, int attribute, CUdeviceptr ptr);
CUresult cuPointerGetAttributes(unsigned count, int *attributes, void **data, CUdeviceptr ptr);
CUresult cuPointerSetAttribute(const void *value, int attribute, CUdeviceptr ptr);
CUresult cuMemGetAddressRange_v2(CUdeviceptr *base, size_t *size, CUdeviceptr ptr);
CUresult cuMemAllocHost_v2(void **ptr, size_t bytes);
CUresult cuMemFreeHost(void *ptr);
CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n);
CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n);
struct Memcpy2D { // CUDA_MEMCPY2D
  size_t srcXInBytes, srcY;
  int srcMemoryType;
  const void *srcHost;
  CUdeviceptr srcDevice;
  void *srcArray;
  size_t srcPitch, dstXInBytes, dstY;
  int dstMemoryType;
  void *dstHost;
  CUdeviceptr dstDevice;
  void *dstArray;
  size_t dstPitch, WidthInBytes, Height;
};
CUresult cuMemcpy2D_v2(const Memcpy2D *p);
}

TEST(EntryPoints, DriverPointerAttributesAndPitchedCopies) {
  ASSERT_EQ(cuInit(0), 0);
  CUdeviceptr d = 0;
  ASSERT_EQ(cuMemAlloc_v2(&d, 1000), 0);
  unsigned type = 0;
  EXPECT_EQ(cuPointerGetAttribute(&type, 2 /* MEMORY_TYPE */, d + 999), 0);
  EXPECT_EQ(type, 2u); // CU_MEMORYTYPE_DEVICE
  CUdeviceptr base = 0;
  size_t size = 0;
  EXPECT_EQ(cuMemGetAddressRange_v2(&base, &size, d + 500), 0);
  EXPECT_EQ(base, d);
  EXPECT_EQ(size, 1000u);
  // Memory CUDA does not know: an error for one attribute, zeros for several, not found as a range.
  static int unknown[4];
  auto u = reinterpret_cast<CUdeviceptr>(unknown);
  EXPECT_EQ(cuPointerGetAttribute(&type, 2, u), 1); // CUDA_ERROR_INVALID_VALUE
  int attrs[2] = {2, 11 /* RANGE_START_ADDR */};
  type = 7;
  CUdeviceptr start = 7;
  void *data[2] = {&type, &start};
  EXPECT_EQ(cuPointerGetAttributes(2, attrs, data, u), 0);
  EXPECT_EQ(type, 0u);
  EXPECT_EQ(start, 0u);
  EXPECT_EQ(cuMemGetAddressRange_v2(&base, &size, u), 500); // CUDA_ERROR_NOT_FOUND
  // Pinned host memory.
  void *pinned = nullptr;
  ASSERT_EQ(cuMemAllocHost_v2(&pinned, 256), 0);
  void *host = nullptr;
  EXPECT_EQ(cuPointerGetAttribute(&type, 2, reinterpret_cast<CUdeviceptr>(pinned)), 0);
  EXPECT_EQ(type, 1u); // CU_MEMORYTYPE_HOST
  EXPECT_EQ(cuPointerGetAttribute(&host, 4 /* HOST_POINTER */, reinterpret_cast<CUdeviceptr>(pinned)), 0);
  EXPECT_EQ(host, pinned);
  EXPECT_EQ(cuPointerGetAttribute(&host, 4, d), 1); // device memory has no host pointer
  // SYNC_MEMOPS round trip; attributes that do not apply here.
  int one = 1, got = 0;
  EXPECT_EQ(cuPointerSetAttribute(&one, 6, d), 0);
  EXPECT_EQ(cuPointerGetAttribute(&got, 6, d + 8), 0);
  EXPECT_EQ(got, 1);
  EXPECT_EQ(cuPointerSetAttribute(&one, 2, d), 1);
  unsigned long long id = 0;
  EXPECT_EQ(cuPointerGetAttribute(&id, 7 /* BUFFER_ID */, d), 801);

  // A 2D copy of 3 rows of 12 bytes into 16-byte device rows, and bad pitches and kinds.
  int src[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, back[12] = {};
  ASSERT_EQ(cuMemcpyHtoD_v2(d, back, sizeof back), 0);
  Memcpy2D m{};
  m.srcMemoryType = 1;
  m.srcHost = src;
  m.srcPitch = 12;
  m.dstMemoryType = 2;
  m.dstDevice = d;
  m.dstPitch = 16;
  m.WidthInBytes = 12;
  m.Height = 3;
  ASSERT_EQ(cuMemcpy2D_v2(&m), 0);
  ASSERT_EQ(cuMemcpyDtoH_v2(back, d, sizeof back), 0);
  EXPECT_EQ(back[4], 4);
  EXPECT_EQ(back[3], 0);
  EXPECT_EQ(back[10], 9);
  Memcpy2D bad = m;
  bad.dstPitch = 8; // narrower than a row
  EXPECT_EQ(cuMemcpy2D_v2(&bad), 1);
  bad = m;
  bad.dstMemoryType = 3; // a CUDA array: not written yet in the driver API
  EXPECT_EQ(cuMemcpy2D_v2(&bad), 801);
  bad = m;
  bad.srcMemoryType = 9;
  EXPECT_EQ(cuMemcpy2D_v2(&bad), 1);
  EXPECT_EQ(cuMemFreeHost(pinned), 0);
  EXPECT_EQ(cuMemFree_v2(d), 0);
}

extern "C" {
struct LaunchConfig { // CUlaunchConfig
  unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
  cudaStream_t hStream;
  cudaLaunchAttribute *attrs;
  unsigned numAttrs;
};
CUresult cuLaunchKernelEx(const LaunchConfig *config, CUfunction f, void **args, void **extra);
CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                   unsigned by, unsigned bz, unsigned shared, cudaStream_t s,
                                   void **args);
CUresult cuFuncGetParamInfo(CUfunction f, size_t index, size_t *offset, size_t *size);
cudaError_t cudaFuncGetParamInfo(const void *func, size_t index, size_t *offset, size_t *size);
CUresult cuCtxGetCacheConfig(int *config);
CUresult cuCtxSetCacheConfig(int config);
CUresult cuCtxGetSharedMemConfig(int *config);
cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache *config);
CUresult cuStreamGetAttribute(cudaStream_t s, int attr, void *value);
CUresult cuStreamSetAttribute(cudaStream_t s, int attr, const void *value);
CUresult cuStreamCopyAttributes(cudaStream_t dst, cudaStream_t src);
cudaError_t cudaStreamGetAttribute(cudaStream_t s, int attr, void *value);
cudaError_t cudaStreamSetAttribute(cudaStream_t s, int attr, const void *value);
CUresult cuCtxSynchronize(void);
CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned v, size_t n);
}

TEST(EntryPoints, LaunchVariantsParamInfoAndStreamAttributes) {
  registerIota();
  ASSERT_EQ(cuInit(0), 0);
  CUmodule module = nullptr;
  ASSERT_EQ(cuModuleLoadData(&module, kPtx), 0);
  CUfunction iota = nullptr;
  ASSERT_EQ(cuModuleGetFunction(&iota, module, "iota"), 0);
  // Parameter layout: (u64 out, u32 n).
  size_t offset = 9, size = 9;
  ASSERT_EQ(cuFuncGetParamInfo(iota, 1, &offset, &size), 0);
  EXPECT_EQ(offset, 8u);
  EXPECT_EQ(size, 4u);
  EXPECT_EQ(cuFuncGetParamInfo(iota, 2, &offset, &size), 1); // no third parameter
  ASSERT_EQ(cudaFuncGetParamInfo(&kIota, 0, &offset, &size), cudaSuccess);
  EXPECT_EQ(offset, 0u);
  EXPECT_EQ(size, 8u);

  CUdeviceptr out = 0;
  ASSERT_EQ(cuMemAlloc_v2(&out, 256 * 4), 0);
  unsigned n = 256;
  void *args[] = {&out, &n};
  cudaLaunchAttribute coop{};
  coop.id = cudaLaunchAttributeCooperative;
  coop.val.cooperative = 1;
  LaunchConfig config{2, 1, 1, 128, 1, 1, 0, nullptr, &coop, 1};
  ASSERT_EQ(cuLaunchKernelEx(&config, iota, args, nullptr), 0);
  std::vector<unsigned> host(256);
  ASSERT_EQ(cuMemcpyDtoH_v2(host.data(), out, 256 * 4), 0);
  EXPECT_EQ(host[255], 255u);
  // A cluster of several blocks is not supported; a cooperative launch runs.
  cudaLaunchAttribute cluster{};
  cluster.id = cudaLaunchAttributeID(4);
  unsigned dims[3] = {2, 1, 1};
  std::memcpy(cluster.val.pad, dims, sizeof dims);
  config.attrs = &cluster;
  EXPECT_EQ(cuLaunchKernelEx(&config, iota, args, nullptr), 801);
  ASSERT_EQ(cuMemsetD32_v2(out, 0, 256), 0);
  ASSERT_EQ(cuLaunchCooperativeKernel(iota, 2, 1, 1, 128, 1, 1, 0, nullptr, args), 0);
  ASSERT_EQ(cuMemcpyDtoH_v2(host.data(), out, 256 * 4), 0);
  EXPECT_EQ(host[200], 200u);

  // Context preferences, shared with the runtime API.
  int cfg = -1;
  ASSERT_EQ(cuCtxSetCacheConfig(1 /* PREFER_SHARED */), 0);
  ASSERT_EQ(cuCtxGetCacheConfig(&cfg), 0);
  EXPECT_EQ(cfg, 1);
  cudaFuncCache rcfg = cudaFuncCachePreferNone;
  ASSERT_EQ(cudaDeviceGetCacheConfig(&rcfg), cudaSuccess);
  EXPECT_EQ(int(rcfg), 1);
  EXPECT_EQ(cuCtxSetCacheConfig(7), 1);
  ASSERT_EQ(cuCtxSetCacheConfig(0), 0);
  ASSERT_EQ(cuCtxGetSharedMemConfig(&cfg), 0);
  EXPECT_EQ(cfg, 1); // four-byte banks

  // Stream attributes: priority (clamped), an access policy window, copying; bad ids and values.
  cudaStream_t s = nullptr, t = nullptr;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  ASSERT_EQ(cudaStreamCreate(&t), cudaSuccess);
  alignas(8) unsigned char value[64] = {}, got[64] = {};
  int priority = -3;
  std::memcpy(value, &priority, 4);
  ASSERT_EQ(cuStreamSetAttribute(s, 8, value), 0);
  int streamPriority = 0;
  ASSERT_EQ(cuStreamGetPriority(s, &streamPriority), 0);
  EXPECT_EQ(streamPriority, -3);
  std::memset(value, 0, sizeof value);
  void *base = reinterpret_cast<void *>(out);
  size_t bytes = 1024;
  float ratio = 0.5f;
  std::memcpy(value, &base, 8);
  std::memcpy(value + 8, &bytes, 8);
  std::memcpy(value + 16, &ratio, 4);
  ASSERT_EQ(cudaStreamSetAttribute(s, 1, value), cudaSuccess);
  ASSERT_EQ(cudaStreamGetAttribute(s, 1, got), cudaSuccess);
  EXPECT_EQ(std::memcmp(got, value, 24), 0);
  ASSERT_EQ(cuStreamCopyAttributes(t, s), 0);
  ASSERT_EQ(cuStreamGetAttribute(t, 1, got), 0);
  EXPECT_EQ(std::memcmp(got, value, 24), 0);
  ASSERT_EQ(cuStreamGetAttribute(t, 8, got), 0);
  std::memcpy(&priority, got, 4);
  EXPECT_EQ(priority, -3);
  ratio = 2.0f;
  std::memcpy(value + 16, &ratio, 4);
  EXPECT_EQ(cudaStreamSetAttribute(s, 1, value), cudaErrorInvalidValue);
  EXPECT_EQ(cudaStreamGetAttribute(s, 2 /* cooperative: not a stream attribute */, got),
            cudaErrorInvalidValue);
  cudaGetLastError();
  cudaStreamDestroy(s);
  cudaStreamDestroy(t);
  cuMemFree_v2(out);
}

extern "C" {
CUresult cuModuleGetFunctionCount(unsigned *count, CUmodule module);
CUresult cuModuleEnumerateFunctions(CUfunction *functions, unsigned count, CUmodule module);
CUresult cuModuleGetLoadingMode(int *mode);
CUresult cuDeviceGetByPCIBusId(int *dev, const char *id);
}

TEST(EntryPoints, ModuleEnumerationAndDeviceLookups) {
  ASSERT_EQ(cuInit(0), 0);
  CUmodule module = nullptr;
  ASSERT_EQ(cuModuleLoadData(&module, kPtx), 0);
  unsigned count = 0;
  ASSERT_EQ(cuModuleGetFunctionCount(&count, module), 0);
  EXPECT_EQ(count, 1u);
  CUfunction f = nullptr, byName = nullptr;
  ASSERT_EQ(cuModuleEnumerateFunctions(&f, 1, module), 0);
  ASSERT_EQ(cuModuleGetFunction(&byName, module, "iota"), 0);
  EXPECT_EQ(f, byName);
  const char *name = nullptr;
  ASSERT_EQ(cuFuncGetName(&name, f), 0);
  EXPECT_STREQ(name, "iota");
  int mode = 0;
  ASSERT_EQ(cuModuleGetLoadingMode(&mode), 0);
  EXPECT_EQ(mode, 1); // eager
  EXPECT_EQ(cuModuleGetFunctionCount(&count, reinterpret_cast<CUmodule>(0x10)), 400);

  char bus[32] = {};
  ASSERT_EQ(cuDeviceGetPCIBusId(bus, sizeof bus, 0), 0);
  int dev = -1;
  ASSERT_EQ(cuDeviceGetByPCIBusId(&dev, bus), 0);
  EXPECT_EQ(dev, 0);
  EXPECT_EQ(cuDeviceGetByPCIBusId(&dev, "ffff:ff:1f.0"), 101); // CUDA_ERROR_INVALID_DEVICE
  EXPECT_EQ(cuDeviceGetByPCIBusId(&dev, "nonsense"), 1);

}

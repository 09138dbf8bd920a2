// Many host threads at once mixing the runtime API and the driver API on one device: streams
// (created through either API, the legacy and per-thread default streams), events, host
// functions, kernels launched through cudaLaunchKernel and cuLaunchKernel, pinned and pageable
// copies, fills. Each thread checks its own results. Built twice: as it is, and with
// ThreadSanitizer over the runtime (tests/runtime/CMakeLists.txt), where a data race or a lock
// order inversion fails the test. Exit status 0 when every check passed.
#include "cuda_types.h"

#include <atomic>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

typedef int CUresult;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef unsigned long long CUdeviceptr;

extern "C" {
void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int threadLimit, void *tid, void *bid,
                            void *bDim, void *gDim, int *wSize);
cudaError_t cudaMalloc(void **ptr, size_t size);
cudaError_t cudaFree(void *ptr);
cudaError_t cudaMallocHost(void **ptr, size_t size);
cudaError_t cudaFreeHost(void *ptr);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, cudaMemcpyKind kind,
                            cudaStream_t stream);
cudaError_t cudaMemsetAsync(void *ptr, int value, size_t count, cudaStream_t stream);
cudaError_t cudaStreamCreate(cudaStream_t *stream);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags);
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *data);
cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared,
                             cudaStream_t stream);
cudaError_t cudaGetLastError(void);
cudaError_t cudaDeviceSynchronize(void);

CUresult cuInit(unsigned flags);
CUresult cuModuleLoadData(CUmodule *module, const void *image);
CUresult cuModuleGetFunction(CUfunction *f, CUmodule module, const char *name);
CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                        unsigned by, unsigned bz, unsigned shared, cudaStream_t stream,
                        void **params, void **extra);
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t bytes);
CUresult cuMemFree_v2(CUdeviceptr p);
CUresult cuMemAllocHost_v2(void **p, size_t bytes);
CUresult cuMemFreeHost(void *p);
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t bytes, cudaStream_t s);
CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t bytes, cudaStream_t s);
CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t bytes);
CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t bytes);
CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned value, size_t count);
CUresult cuStreamCreate(cudaStream_t *s, unsigned flags);
CUresult cuStreamDestroy_v2(cudaStream_t s);
CUresult cuStreamSynchronize(cudaStream_t s);
CUresult cuStreamQuery(cudaStream_t s);
CUresult cuEventCreate(cudaEvent_t *e, unsigned flags);
CUresult cuEventRecord(cudaEvent_t e, cudaStream_t s);
CUresult cuEventSynchronize(cudaEvent_t e);
CUresult cuEventDestroy_v2(cudaEvent_t e);
CUresult cuCtxSynchronize(void);
}

namespace {

// data[i] = data[i] * mul + add for i < n.
constexpr const char *kPtx = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry scale_add(.param .u64 p_data, .param .u32 p_n, .param .u32 p_mul, .param .u32 p_add)
{
  .reg .pred %p<2>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [p_data];
  ld.param.u32 %r1, [p_n];
  ld.param.u32 %r2, [p_mul];
  ld.param.u32 %r3, [p_add];
  mov.u32 %r4, %ctaid.x;
  mov.u32 %r5, %ntid.x;
  mov.u32 %r6, %tid.x;
  mad.lo.s32 %r7, %r4, %r5, %r6;
  setp.ge.s32 %p1, %r7, %r1;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.s32 %rd3, %r7, 4;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.u32 %r8, [%rd4];
  mad.lo.s32 %r9, %r8, %r2, %r3;
  st.global.u32 [%rd4], %r9;
DONE:
  ret;
}
)";

const char kScaleAdd = 0;
std::atomic<int> gFailures{0};

#define CHECK(cond, ...)                                                                           \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      std::fprintf(stderr, "stress: %s:%d: %s failed: ", __FILE__, __LINE__, #cond);              \
      std::fprintf(stderr, __VA_ARGS__);                                                           \
      std::fprintf(stderr, "\n");                                                                  \
      ++gFailures;                                                                                 \
      return;                                                                                      \
    }                                                                                              \
  } while (0)

struct Counter {
  std::atomic<int> calls{0};
};
void bump(void *p) { ++static_cast<Counter *>(p)->calls; }

/// One host thread's work: `rounds` rounds of fill, copy in, two launches (one through each API),
/// an event, a host function, copy out, check.
void worker(int id, int rounds, CUfunction driverFn) {
  const bool driverSide = id % 2 == 1; // streams, memory and copies through the driver API
  const int n = 512 + 64 * id;
  const size_t bytes = size_t(n) * 4;
  cudaStream_t s = nullptr;
  if (id % 4 == 3) {
    s = reinterpret_cast<cudaStream_t>(2); // cudaStreamPerThread
  } else if (driverSide) {
    CHECK(cuStreamCreate(&s, 0) == 0, "cuStreamCreate");
  } else {
    CHECK(cudaStreamCreate(&s) == cudaSuccess, "cudaStreamCreate");
  }
  uint32_t *host = nullptr;
  CUdeviceptr dev = 0;
  if (driverSide) {
    CHECK(cuMemAllocHost_v2(reinterpret_cast<void **>(&host), bytes) == 0, "cuMemAllocHost");
    CHECK(cuMemAlloc_v2(&dev, bytes) == 0, "cuMemAlloc");
  } else {
    CHECK(cudaMallocHost(reinterpret_cast<void **>(&host), bytes) == cudaSuccess, "cudaMallocHost");
    void *p = nullptr;
    CHECK(cudaMalloc(&p, bytes) == cudaSuccess, "cudaMalloc");
    dev = reinterpret_cast<CUdeviceptr>(p);
  }
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start) == cudaSuccess, "cudaEventCreate");
  CHECK(cuEventCreate(&stop, 0) == 0, "cuEventCreate");
  Counter hostCalls;
  std::vector<uint32_t> pageable(static_cast<size_t>(n));
  for (int round = 0; round < rounds; ++round) {
    for (int i = 0; i < n; ++i)
      host[i] = uint32_t(i + round);
    const uint32_t mul = uint32_t(id + 2), add = uint32_t(round + 1);
    CHECK(cudaEventRecord(start, s) == cudaSuccess, "cudaEventRecord");
    if (driverSide) {
      CHECK(cuMemsetD32_v2(dev, 0xdeadbeef, size_t(n)) == 0, "cuMemsetD32");
      CHECK(cuMemcpyHtoDAsync_v2(dev, host, bytes, s) == 0, "cuMemcpyHtoDAsync");
    } else {
      CHECK(cudaMemsetAsync(reinterpret_cast<void *>(dev), 0x5a, bytes, s) == cudaSuccess, "memset");
      CHECK(cudaMemcpyAsync(reinterpret_cast<void *>(dev), host, bytes, cudaMemcpyHostToDevice, s) ==
                cudaSuccess,
            "cudaMemcpyAsync H2D");
    }
    // x -> x * mul + add, through the runtime API, then x -> x * 1 + 0 through the driver API.
    void *ptr = reinterpret_cast<void *>(dev);
    int count = n;
    unsigned one = 1, zero = 0;
    void *args[] = {&ptr, &count, const_cast<uint32_t *>(&mul), const_cast<uint32_t *>(&add)};
    CHECK(cudaLaunchKernel(&kScaleAdd, dim3{unsigned((n + 127) / 128), 1, 1}, dim3{128, 1, 1},
                           args, 0, s) == cudaSuccess,
          "cudaLaunchKernel");
    void *dargs[] = {&ptr, &count, &one, &zero};
    CHECK(cuLaunchKernel(driverFn, unsigned((n + 63) / 64), 1, 1, 64, 1, 1, 0, s, dargs,
                         nullptr) == 0,
          "cuLaunchKernel");
    CHECK(cudaLaunchHostFunc(s, &bump, &hostCalls) == cudaSuccess, "cudaLaunchHostFunc");
    CHECK(cuEventRecord(stop, s) == 0, "cuEventRecord");
    cudaError_t q = cudaStreamQuery(s);
    CHECK(q == cudaSuccess || q == cudaErrorNotReady, "cudaStreamQuery: %d", int(q));
    if (round % 3 == 0) {
      // Pageable memory: the copy returns when it is done.
      CHECK(cudaMemcpyAsync(pageable.data(), ptr, bytes, cudaMemcpyDeviceToHost, s) == cudaSuccess,
            "cudaMemcpyAsync D2H pageable");
    } else if (driverSide) {
      CHECK(cuMemcpyDtoHAsync_v2(pageable.data(), dev, bytes, s) == 0, "cuMemcpyDtoHAsync");
      CHECK(cuStreamSynchronize(s) == 0, "cuStreamSynchronize");
    } else {
      CHECK(cudaMemcpyAsync(host, ptr, bytes, cudaMemcpyDeviceToHost, s) == cudaSuccess,
            "cudaMemcpyAsync D2H pinned");
      CHECK(cudaStreamSynchronize(s) == cudaSuccess, "cudaStreamSynchronize");
      std::memcpy(pageable.data(), host, bytes);
    }
    CHECK(cuEventSynchronize(stop) == 0, "cuEventSynchronize");
    float ms = -1;
    CHECK(cudaEventElapsedTime(&ms, start, stop) == cudaSuccess && ms >= 0, "elapsed %f", ms);
    for (int i = 0; i < n; ++i)
      CHECK(pageable[size_t(i)] == uint32_t(i + round) * mul + add,
            "thread %d round %d element %d: %u, expected %u", id, round, i, pageable[size_t(i)],
            uint32_t(i + round) * mul + add);
    CHECK(cudaGetLastError() == cudaSuccess, "last error");
  }
  CHECK(cudaStreamSynchronize(s) == cudaSuccess, "final synchronize");
  CHECK(hostCalls.calls.load() == rounds, "host functions ran %d times of %d",
        hostCalls.calls.load(), rounds);
  cudaEventDestroy(start);
  cuEventDestroy_v2(stop);
  if (driverSide) {
    cuMemFree_v2(dev);
    cuMemFreeHost(host);
  } else {
    cudaFree(reinterpret_cast<void *>(dev));
    cudaFreeHost(host);
  }
  if (id % 4 != 3) {
    if (driverSide)
      cuStreamDestroy_v2(s);
    else
      cudaStreamDestroy(s);
  }
}

} // namespace

int main(int argc, char **argv) {
  const int threads = argc > 1 ? std::atoi(argv[1]) : 8;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 6;
  // The runtime API's kernel: registered as nvcc's host code does.
  static uint32_t wrapper[4] = {0x466243b1u, 1, 0, 0};
  const char *data = kPtx;
  std::memcpy(&wrapper[2], &data, sizeof data);
  void **h = __cudaRegisterFatBinary(wrapper);
  __cudaRegisterFunction(h, &kScaleAdd, nullptr, "scale_add", -1, nullptr, nullptr, nullptr,
                         nullptr, nullptr);
  __cudaRegisterFatBinaryEnd(h);
  // The driver API's: the same PTX as a module of its own.
  if (cuInit(0) != 0) {
    std::fprintf(stderr, "stress: cuInit failed\n");
    return 1;
  }
  CUmodule module = nullptr;
  CUfunction fn = nullptr;
  if (cuModuleLoadData(&module, kPtx) != 0 || cuModuleGetFunction(&fn, module, "scale_add") != 0) {
    std::fprintf(stderr, "stress: cannot load the driver module\n");
    return 1;
  }
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back(worker, t, rounds, fn);
  // Meanwhile the main thread synchronizes the device through both APIs.
  for (int i = 0; i < 4; ++i) {
    if (cudaDeviceSynchronize() != cudaSuccess || cuCtxSynchronize() != 0)
      ++gFailures;
    std::this_thread::yield();
  }
  for (auto &t : pool)
    t.join();
  if (gFailures) {
    std::fprintf(stderr, "stress: %d failures\n", gFailures.load());
    return 1;
  }
  std::printf("stress: %d threads x %d rounds passed\n", threads, rounds);
  return 0;
}

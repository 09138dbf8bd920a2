// Asynchronous streams and events through the drop-in libcudart's own entry points (no nvcc):
// cudaStreamQuery and cudaEventQuery answer cudaErrorNotReady while work is pending (a host
// function that blocks on a latch holds the stream), host functions run on a runtime thread in
// stream order, cudaStreamWaitEvent orders one stream after another, the legacy default stream
// synchronizes with blocking streams but not with cudaStreamNonBlocking ones, the per-thread
// default stream of nvcc's --default-stream per-thread, a launch fault surfaces at the next
// synchronization point, and events time a kernel. StreamsOverlap checks that a copy in one
// stream runs while a kernel of another stream is in flight.
#include "cuda_types.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

extern "C" {
void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int threadLimit, void *tid, void *bid,
                            void *bDim, void *gDim, int *wSize);
cudaError_t cudaMalloc(void **ptr, size_t size);
cudaError_t cudaFree(void *ptr);
cudaError_t cudaMallocHost(void **ptr, size_t size);
cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned flags);
cudaError_t cudaHostGetDevicePointer(void **dev, void *host, unsigned flags);
cudaError_t cudaFreeHost(void *ptr);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, cudaMemcpyKind kind,
                            cudaStream_t stream);
cudaError_t cudaMemsetAsync(void *ptr, int value, size_t count, cudaStream_t stream);
cudaError_t cudaStreamCreate(cudaStream_t *stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags);
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *data);
cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn, void *data);
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t cb, void *data,
                                  unsigned flags);
cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared,
                             cudaStream_t stream);
cudaError_t cudaGetLastError(void);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device);
}

namespace {

// add_one(p, n): p[i] += 1; spin_until(started, flag, limit, out): sets *started, then reads
// *flag until it holds 0x600DF00D or `limit` reads were made, and writes the reads and the last
// value to out[0], out[1].
constexpr const char *kPtx = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry add_one(.param .u64 p_data, .param .u32 p_n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [p_data];
  ld.param.u32 %r1, [p_n];
  mov.u32 %r4, %ctaid.x;
  mov.u32 %r5, %ntid.x;
  mov.u32 %r6, %tid.x;
  mad.lo.s32 %r7, %r4, %r5, %r6;
  setp.ge.s32 %p1, %r7, %r1;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.s32 %rd3, %r7, 4;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.u32 %r2, [%rd4];
  add.s32 %r3, %r2, 1;
  st.global.u32 [%rd4], %r3;
DONE:
  ret;
}
.visible .entry spin_until(.param .u64 p_started, .param .u64 p_flag, .param .u32 p_limit,
                           .param .u64 p_out)
{
  .reg .pred %p<3>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p_started];
  ld.param.u64 %rd2, [p_flag];
  ld.param.u32 %r1, [p_limit];
  ld.param.u64 %rd3, [p_out];
  mov.u32 %r2, 1;
  st.volatile.global.u32 [%rd1], %r2;
  membar.sys;
  mov.u32 %r3, 0;
LOOP:
  ld.volatile.global.u32 %r4, [%rd2];
  setp.eq.u32 %p1, %r4, 0x600DF00D;
  @%p1 bra DONE;
  add.u32 %r3, %r3, 1;
  setp.lt.u32 %p2, %r3, %r1;
  @%p2 bra LOOP;
DONE:
  st.global.u32 [%rd3], %r3;
  st.global.u32 [%rd3+4], %r4;
  ret;
}
)";

const char kAddOne = 0, kSpinUntil = 0; // the "host functions" naming the kernels

void registerKernels() {
  static bool done = [] {
    static uint32_t wrapper[4] = {0x466243b1u, 1, 0, 0};
    const char *data = kPtx;
    std::memcpy(&wrapper[2], &data, sizeof data);
    void **h = __cudaRegisterFatBinary(wrapper);
    __cudaRegisterFunction(h, &kAddOne, nullptr, "add_one", -1, nullptr, nullptr, nullptr,
                           nullptr, nullptr);
    __cudaRegisterFunction(h, &kSpinUntil, nullptr, "spin_until", -1, nullptr, nullptr, nullptr,
                           nullptr, nullptr);
    __cudaRegisterFatBinaryEnd(h);
    return true;
  }();
  (void)done;
}

cudaError_t addOne(int *d, int n, cudaStream_t s) {
  void *args[] = {&d, &n};
  return cudaLaunchKernel(&kAddOne, dim3{unsigned((n + 127) / 128), 1, 1}, dim3{128, 1, 1}, args,
                          0, s);
}

/// A latch a host function waits on, so that its stream stays busy until the test opens it.
struct Gate {
  std::mutex m;
  std::condition_variable cv;
  bool open = false;
  std::atomic<bool> entered{false};
  void release() {
    {
      std::lock_guard l(m);
      open = true;
    }
    cv.notify_all();
  }
  static void wait(void *p) {
    auto *g = static_cast<Gate *>(p);
    g->entered = true;
    std::unique_lock l(g->m);
    g->cv.wait(l, [&] { return g->open; });
  }
};

struct Log {
  std::mutex m;
  std::vector<int> order;
  std::vector<std::thread::id> threads;
};
struct Entry {
  Log *log;
  int value;
};
void append(void *p) {
  auto *e = static_cast<Entry *>(p);
  std::lock_guard l(e->log->m);
  e->log->order.push_back(e->value);
  e->log->threads.push_back(std::this_thread::get_id());
}

TEST(Streams, QueryIsNotReadyWhilePending) {
  registerKernels();
  constexpr int n = 1000;
  int *d = nullptr;
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void **>(&d), n * sizeof(int)), cudaSuccess);
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  cudaEvent_t after;
  ASSERT_EQ(cudaEventCreate(&after), cudaSuccess);
  Gate gate;
  ASSERT_EQ(cudaMemsetAsync(d, 0, n * sizeof(int), s), cudaSuccess);
  ASSERT_EQ(cudaLaunchHostFunc(s, &Gate::wait, &gate), cudaSuccess);
  ASSERT_EQ(addOne(d, n, s), cudaSuccess);
  ASSERT_EQ(cudaEventRecord(after, s), cudaSuccess);
  // The kernel and the event follow the host function, which waits for the gate.
  EXPECT_EQ(cudaStreamQuery(s), cudaErrorNotReady);
  EXPECT_EQ(cudaEventQuery(after), cudaErrorNotReady);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess) << "not ready is not an error";
  gate.release();
  EXPECT_EQ(cudaStreamSynchronize(s), cudaSuccess);
  EXPECT_EQ(cudaStreamQuery(s), cudaSuccess);
  EXPECT_EQ(cudaEventQuery(after), cudaSuccess);
  std::vector<int> h(n);
  ASSERT_EQ(cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(h[0], 1);
  EXPECT_EQ(h[n - 1], 1);
  cudaEventDestroy(after);
  cudaStreamDestroy(s);
  cudaFree(d);
}

TEST(Streams, HostFunctionsRunInStreamOrderOnARuntimeThread) {
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  Log log;
  std::vector<Entry> entries;
  for (int i = 0; i < 8; ++i)
    entries.push_back(Entry{&log, i});
  for (int i = 0; i < 8; ++i) {
    if (i % 2)
      ASSERT_EQ(cudaLaunchHostFunc(s, &append, &entries[i]), cudaSuccess);
    else
      ASSERT_EQ(cudaStreamAddCallback(
                    s, [](cudaStream_t, cudaError_t, void *p) { append(p); }, &entries[i], 0),
                cudaSuccess);
  }
  ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
  ASSERT_EQ(log.order.size(), 8u);
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(log.order[i], i);
    EXPECT_NE(log.threads[i], std::this_thread::get_id());
  }
  cudaStreamDestroy(s);
}

TEST(Streams, WaitEventOrdersAnotherStream) {
  cudaStream_t a, b;
  ASSERT_EQ(cudaStreamCreate(&a), cudaSuccess);
  ASSERT_EQ(cudaStreamCreateWithFlags(&b, 1), cudaSuccess); // non-blocking: only the event orders
  cudaEvent_t e;
  ASSERT_EQ(cudaEventCreate(&e), cudaSuccess);
  Gate gate;
  Log log;
  Entry second{&log, 2};
  ASSERT_EQ(cudaLaunchHostFunc(a, &Gate::wait, &gate), cudaSuccess);
  ASSERT_EQ(cudaEventRecord(e, a), cudaSuccess);
  ASSERT_EQ(cudaStreamWaitEvent(b, e, 0), cudaSuccess);
  ASSERT_EQ(cudaLaunchHostFunc(b, &append, &second), cudaSuccess);
  EXPECT_EQ(cudaStreamQuery(b), cudaErrorNotReady);
  gate.release();
  ASSERT_EQ(cudaStreamSynchronize(b), cudaSuccess);
  EXPECT_EQ(log.order, std::vector<int>{2});
  EXPECT_EQ(cudaStreamQuery(a), cudaSuccess);
  cudaEventDestroy(e);
  cudaStreamDestroy(a);
  cudaStreamDestroy(b);
}

TEST(Streams, LegacyDefaultStreamSynchronizesWithBlockingStreamsOnly) {
  void *d = nullptr;
  ASSERT_EQ(cudaMalloc(&d, 4096), cudaSuccess);
  cudaStream_t blocking, nonBlocking, later;
  ASSERT_EQ(cudaStreamCreate(&blocking), cudaSuccess);
  ASSERT_EQ(cudaStreamCreateWithFlags(&nonBlocking, 1), cudaSuccess);
  ASSERT_EQ(cudaStreamCreate(&later), cudaSuccess);
  Gate gate;
  ASSERT_EQ(cudaLaunchHostFunc(blocking, &Gate::wait, &gate), cudaSuccess);
  // Work on the legacy stream waits for the blocking stream; work on a blocking stream issued
  // after it waits for the legacy stream; a non-blocking stream waits for neither.
  ASSERT_EQ(cudaMemsetAsync(d, 1, 1024, nullptr), cudaSuccess);
  ASSERT_EQ(cudaMemsetAsync(static_cast<char *>(d) + 1024, 2, 1024, later), cudaSuccess);
  ASSERT_EQ(cudaMemsetAsync(static_cast<char *>(d) + 2048, 3, 1024, nonBlocking), cudaSuccess);
  EXPECT_EQ(cudaStreamSynchronize(nonBlocking), cudaSuccess);
  EXPECT_EQ(cudaStreamQuery(nullptr), cudaErrorNotReady);
  EXPECT_EQ(cudaStreamQuery(later), cudaErrorNotReady);
  gate.release();
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(cudaStreamQuery(nullptr), cudaSuccess);
  EXPECT_EQ(cudaStreamQuery(later), cudaSuccess);
  unsigned char h[3] = {};
  for (int i = 0; i < 3; ++i)
    ASSERT_EQ(cudaMemcpy(&h[i], static_cast<char *>(d) + 1024 * i + 5, 1, cudaMemcpyDeviceToHost),
              cudaSuccess);
  EXPECT_EQ(h[0], 1);
  EXPECT_EQ(h[1], 2);
  EXPECT_EQ(h[2], 3);
  cudaStreamDestroy(blocking);
  cudaStreamDestroy(nonBlocking);
  cudaStreamDestroy(later);
  cudaFree(d);
}

TEST(Streams, PerThreadDefaultStream) {
  // nvcc --default-stream per-thread calls the *_ptsz entry points, where the null stream is the
  // calling thread's own default stream.
  Gate gate;
  ASSERT_EQ(cudaLaunchHostFunc_ptsz(nullptr, &Gate::wait, &gate), cudaSuccess);
  EXPECT_EQ(cudaStreamQuery_ptsz(nullptr), cudaErrorNotReady);
  EXPECT_EQ(cudaStreamQuery(reinterpret_cast<cudaStream_t>(2)), cudaErrorNotReady);
  // Another thread's per-thread stream is its own.
  cudaError_t other = cudaErrorUnknown;
  std::thread([&] { other = cudaStreamQuery_ptsz(nullptr); }).join();
  EXPECT_EQ(other, cudaSuccess);
  gate.release();
  EXPECT_EQ(cudaStreamSynchronize(reinterpret_cast<cudaStream_t>(2)), cudaSuccess);
  EXPECT_EQ(cudaStreamQuery_ptsz(nullptr), cudaSuccess);
}

TEST(Streams, EventsTimeAKernel) {
  registerKernels();
  constexpr int n = 1 << 14;
  int *d = nullptr;
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void **>(&d), n * sizeof(int)), cudaSuccess);
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  cudaEvent_t start, stop;
  ASSERT_EQ(cudaEventCreate(&start), cudaSuccess);
  ASSERT_EQ(cudaEventCreate(&stop), cudaSuccess);
  float ms = -1;
  EXPECT_EQ(cudaEventElapsedTime(&ms, start, stop), cudaErrorInvalidResourceHandle)
      << "never recorded";
  ASSERT_EQ(cudaEventRecord(start, s), cudaSuccess);
  ASSERT_EQ(addOne(d, n, s), cudaSuccess);
  ASSERT_EQ(cudaEventRecord(stop, s), cudaSuccess);
  ASSERT_EQ(cudaEventSynchronize(stop), cudaSuccess);
  ASSERT_EQ(cudaEventElapsedTime(&ms, start, stop), cudaSuccess);
  int clockKHz = 0;
  ASSERT_EQ(cudaDeviceGetAttribute(&clockKHz, cudaDevAttrClockRate, 0), cudaSuccess);
  // The kernel ran for a positive number of device cycles between the two timestamps.
  EXPECT_GT(ms, 0.0f);
  EXPECT_GE(ms * clockKHz, 1.0f) << "at least one cycle";
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaStreamDestroy(s);
  cudaFree(d);
}

TEST(Streams, LaunchFaultIsReportedAtTheNextSynchronization) {
  registerKernels();
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  int *bad = reinterpret_cast<int *>(uintptr_t(16)); // outside device memory
  EXPECT_EQ(addOne(bad, 32, s), cudaSuccess) << "a launch does not wait for its grid";
  EXPECT_EQ(cudaStreamSynchronize(s), cudaErrorIllegalAddress);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorIllegalAddress) << "sticky";
  EXPECT_EQ(cudaDeviceReset(), cudaSuccess);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

// A copy in one stream and a kernel in another are in flight at once: the kernel (one thread)
// announces that it runs, through mapped host memory, and then waits for a value that only the
// copy writes. The copy is issued after the host saw the kernel start. On a device that runs
// one command at a time the launch returns only when the kernel gave up, and the kernel reports
// that it never saw the value.
TEST(Streams, StreamsOverlap) {
  registerKernels();
  int queues = 0;
  ASSERT_EQ(cudaDeviceGetAttribute(&queues, cudaDevAttrAsyncEngineCount, 0), cudaSuccess);
  void *started = nullptr, *startedDev = nullptr;
  ASSERT_EQ(cudaHostAlloc(&started, 64, 2 /* cudaHostAllocMapped */), cudaSuccess);
  ASSERT_EQ(cudaHostGetDevicePointer(&startedDev, started, 0), cudaSuccess);
  std::atomic_ref<uint32_t> startedFlag(*static_cast<uint32_t *>(started));
  startedFlag.store(0);
  uint32_t *flag = nullptr, *out = nullptr, *value = nullptr;
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void **>(&flag), 4), cudaSuccess);
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void **>(&out), 8), cudaSuccess);
  ASSERT_EQ(cudaMallocHost(reinterpret_cast<void **>(&value), 4), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(flag, value, 0, cudaMemcpyHostToDevice), cudaSuccess);
  *value = 0;
  ASSERT_EQ(cudaMemcpy(flag, value, 4, cudaMemcpyHostToDevice), cudaSuccess);
  *value = 0x600DF00Du;
  cudaStream_t kernelStream, copyStream;
  ASSERT_EQ(cudaStreamCreate(&kernelStream), cudaSuccess);
  ASSERT_EQ(cudaStreamCreate(&copyStream), cudaSuccess);
  uint32_t limit = 4000000;
  void *args[] = {&startedDev, &flag, &limit, &out};
  auto t0 = std::chrono::steady_clock::now();
  ASSERT_EQ(cudaLaunchKernel(&kSpinUntil, dim3{1, 1, 1}, dim3{1, 1, 1}, args, 0, kernelStream),
            cudaSuccess);
  while (!startedFlag.load() && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(30))
    std::this_thread::yield();
  ASSERT_TRUE(startedFlag.load()) << "the kernel never started";
  ASSERT_EQ(cudaMemcpyAsync(flag, value, 4, cudaMemcpyHostToDevice, copyStream), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(copyStream), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(kernelStream), cudaSuccess);
  uint32_t result[2] = {};
  ASSERT_EQ(cudaMemcpy(result, out, 8, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(result[1], 0x600DF00Du)
      << "the kernel read the flag " << result[0] << " times and never saw the copy's value: the "
      << "copy did not run while the kernel was in flight (device copy engines: " << queues << ")";
  EXPECT_LT(result[0], limit);
  cudaStreamDestroy(kernelStream);
  cudaStreamDestroy(copyStream);
  cudaFreeHost(value);
  cudaFreeHost(started);
  cudaFree(flag);
  cudaFree(out);
}

} // namespace

// The drop-in CUDA runtime through its own entry points, with no nvcc: several host threads at
// once (issue 4: concurrency), each with its own stream and buffers, copying and launching a kernel
// many times and checking its results and its own (thread-local) last error; and stream capture
// into a graph, and managed memory. The kernel is registered the way nvcc's host code registers
// one: a fatbinary holding PTX, then __cudaRegisterFunction.
#include "cuda_types.h"
#include "ptx_kernels.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <thread>
#include <vector>

extern "C" {
cudaError_t cudaMalloc(void **ptr, size_t size);
cudaError_t cudaFree(void *ptr);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, cudaMemcpyKind kind,
                            cudaStream_t stream);
cudaError_t cudaStreamCreate(cudaStream_t *stream);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared,
                             cudaStream_t stream);
cudaError_t cudaGetLastError(void);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaMemset(void *ptr, int value, size_t count);
cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode);
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *graph);
cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *exec, cudaGraph_t graph, unsigned long long flags);
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec);
cudaError_t cudaGraphDestroy(cudaGraph_t graph);
cudaError_t cudaMallocManaged(void **ptr, size_t size, unsigned flags);
cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device);
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

const char kScaleAdd = 0; // the "host function" whose address names the kernel

/// Once per process, as a program's static constructors do.
void registerKernel() {
  static const bool registered = [] {
    wf::test::registerPtxKernels(kPtx, {{&kScaleAdd, "scale_add"}});
    return true;
  }();
  (void)registered;
}

struct Outcome {
  std::string failure; ///< empty when every check passed
};

void worker(int t, Outcome &out) {
  auto fail = [&](const std::string &what, int code) {
    if (out.failure.empty())
      out.failure = "thread " + std::to_string(t) + ": " + what + " (" + std::to_string(code) + ")";
  };
  const int n = 1000 + 37 * t; // different sizes: a mix-up between threads shows
  const int mul = t + 2, add = 100 * t + 1, rounds = 6;
  cudaStream_t s = nullptr;
  if (cudaError_t e = cudaStreamCreate(&s)) return fail("cudaStreamCreate", e);
  std::vector<int> host(n), back(n, -1);
  for (int i = 0; i < n; ++i)
    host[i] = i + t;
  for (int iter = 0; iter < 5; ++iter) {
    void *d = nullptr;
    if (cudaError_t e = cudaMalloc(&d, n * sizeof(int))) return fail("cudaMalloc", e);
    if (cudaError_t e = cudaMemcpyAsync(d, host.data(), n * sizeof(int), cudaMemcpyHostToDevice, s))
      return fail("cudaMemcpyAsync H2D", e);
    int nn = n, m = mul, a = add;
    void *args[] = {&d, &nn, &m, &a};
    for (int r = 0; r < rounds; ++r)
      if (cudaError_t e = cudaLaunchKernel(&kScaleAdd, dim3{unsigned(n + 127) / 128, 1, 1},
                                           dim3{128, 1, 1}, args, 0, s))
        return fail("cudaLaunchKernel", e);
    if (cudaError_t e = cudaMemcpyAsync(back.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost, s))
      return fail("cudaMemcpyAsync D2H", e);
    if (cudaError_t e = cudaStreamSynchronize(s)) return fail("cudaStreamSynchronize", e);
    if (cudaError_t e = cudaFree(d)) return fail("cudaFree", e);
    for (int i = 0; i < n; ++i) {
      int want = host[i];
      for (int r = 0; r < rounds; ++r)
        want = want * mul + add;
      if (back[i] != want)
        return fail("result at " + std::to_string(i) + " is " + std::to_string(back[i]) +
                        ", want " + std::to_string(want),
                    0);
    }
  }
  // The last error belongs to the thread that caused it.
  if (t == 0 && cudaMemcpy(nullptr, host.data(), 4, cudaMemcpyHostToDevice) != cudaErrorInvalidValue)
    return fail("a bad cudaMemcpy did not fail", 0);
  cudaError_t last = cudaGetLastError();
  if (last != (t == 0 ? cudaErrorInvalidValue : cudaSuccess))
    return fail("cudaGetLastError", last);
  if (cudaError_t e = cudaStreamDestroy(s)) return fail("cudaStreamDestroy", e);
}

TEST(RuntimeThreads, ConcurrentStreamsCopiesAndLaunches) {
  registerKernel();
  const int kThreads = 6;
  std::vector<Outcome> outcomes(kThreads);
  std::vector<std::thread> pool;
  for (int t = 0; t < kThreads; ++t)
    pool.emplace_back(worker, t, std::ref(outcomes[t]));
  for (auto &th : pool)
    th.join();
  for (const Outcome &o : outcomes)
    EXPECT_TRUE(o.failure.empty()) << o.failure;
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

TEST(RuntimeGraphs, CaptureRecordsInsteadOfRunningAndReplays) {
  registerKernel();
  const int n = 300;
  int *d = nullptr;
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void **>(&d), n * sizeof(int)), cudaSuccess);
  ASSERT_EQ(cudaMemset(d, 0, n * sizeof(int)), cudaSuccess);
  cudaStream_t s = nullptr;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  std::vector<int> host(n, -1);
  int nn = n, mul = 3, add = 5;
  void *args[] = {&d, &nn, &mul, &add};
  ASSERT_EQ(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
  ASSERT_EQ(cudaLaunchKernel(&kScaleAdd, dim3{3, 1, 1}, dim3{128, 1, 1}, args, 0, s), cudaSuccess);
  mul = 100; // captured by value: the replay still multiplies by 3
  ASSERT_EQ(cudaMemcpyAsync(host.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost, s), cudaSuccess);
  EXPECT_EQ(cudaStreamSynchronize(s), cudaErrorStreamCaptureUnsupported);
  cudaGraph_t g = nullptr;
  ASSERT_EQ(cudaStreamEndCapture(s, &g), cudaSuccess);
  EXPECT_EQ(host[0], -1) << "a captured copy ran during the capture";
  size_t nodes = 0;
  ASSERT_EQ(cudaGraphGetNodes(g, nullptr, &nodes), cudaSuccess);
  EXPECT_EQ(nodes, 2u);
  cudaGraphExec_t e = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&e, g, 0), cudaSuccess);
  int want = 0;
  for (int rep = 0; rep < 3; ++rep) {
    ASSERT_EQ(cudaGraphLaunch(e, s), cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
    want = want * 3 + 5;
    for (int i = 0; i < n; ++i)
      ASSERT_EQ(host[i], want) << "replay " << rep << " element " << i;
  }
  EXPECT_EQ(cudaGraphExecDestroy(e), cudaSuccess);
  EXPECT_EQ(cudaGraphDestroy(g), cudaSuccess);
  EXPECT_EQ(cudaGraphDestroy(g), cudaErrorInvalidValue);
  EXPECT_EQ(cudaStreamDestroy(s), cudaSuccess);
  EXPECT_EQ(cudaFree(d), cudaSuccess);
  cudaGetLastError(); // the expected failures above
}

TEST(RuntimeManaged, HostAndKernelShareManagedMemory) {
  registerKernel();
  int supported = 0;
  ASSERT_EQ(cudaDeviceGetAttribute(&supported, cudaDevAttrManagedMemory, 0), cudaSuccess);
  if (!supported)
    GTEST_SKIP() << "this device's memory is not mapped at its own addresses";
  const int n = 500;
  int *m = nullptr;
  ASSERT_EQ(cudaMallocManaged(reinterpret_cast<void **>(&m), n * sizeof(int), 1), cudaSuccess);
  for (int i = 0; i < n; ++i)
    m[i] = i; // the host writes managed memory directly
  int nn = n, mul = 2, add = 1;
  void *args[] = {&m, &nn, &mul, &add};
  ASSERT_EQ(cudaLaunchKernel(&kScaleAdd, dim3{4, 1, 1}, dim3{128, 1, 1}, args, 0, nullptr),
            cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(m[i], 2 * i + 1) << i; // and reads what the kernel wrote
  EXPECT_EQ(cudaMallocManaged(reinterpret_cast<void **>(&m), 0, 1), cudaErrorInvalidValue);
  EXPECT_EQ(cudaFree(m), cudaSuccess);
  cudaGetLastError();
}

} // namespace

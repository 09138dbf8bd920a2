// The launch watchdog through the drop-in CUDA runtime's own entry points (no nvcc): a kernel that
// never ends is stopped after WARPFORGE_WATCHDOG_MINSTS million warp instructions, the next
// synchronization returns cudaErrorLaunchTimeout, the error is sticky as CUDA's is (every later
// call returns it until cudaDeviceReset), and the process goes on. The kernel is PTX registered as
// nvcc's host code registers it.
#include "cuda_types.h"
#include "ptx_kernels.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

extern "C" {
cudaError_t cudaMalloc(void **ptr, size_t size);
cudaError_t cudaFree(void *ptr);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, cudaMemcpyKind kind);
cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared,
                             cudaStream_t stream);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
}

namespace {

// Every thread waits until *flag is nonzero, then writes 1 to done[tid]. With *flag == 0 nothing
// ever sets it: the kernel runs until the watchdog stops it.
constexpr const char *kPtx = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry wait_for_flag(.param .u64 p_flag, .param .u64 p_done)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [p_flag];
  ld.param.u64 %rd2, [p_done];
WAIT:
  ld.volatile.global.u32 %r1, [%rd1];
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra WAIT;
  mov.u32 %r2, %tid.x;
  mul.wide.u32 %rd3, %r2, 4;
  add.u64 %rd4, %rd2, %rd3;
  mov.u32 %r3, 1;
  st.global.u32 [%rd4], %r3;
  ret;
}
)";

const char kWait = 0; // the "host function" whose address names the kernel

void registerKernel() {
  static const bool registered = [] {
    wf::test::registerPtxKernels(kPtx, {{&kWait, "wait_for_flag"}});
    return true;
  }();
  (void)registered;
}

constexpr unsigned kThreads = 64;

cudaError_t launchWait(void *flag, void *done) {
  void *args[] = {&flag, &done};
  return cudaLaunchKernel(&kWait, dim3{1, 1, 1}, dim3{kThreads, 1, 1}, args, 0, nullptr);
}

TEST(RuntimeWatchdog, RunawayKernelEndsWithStickyLaunchTimeout) {
  // 1 M warp instructions; read when the device opens (and again at cudaDeviceReset).
  ASSERT_EQ(setenv("WARPFORGE_WATCHDOG_MINSTS", "1", 1), 0);
  registerKernel();
  void *flag = nullptr, *done = nullptr;
  ASSERT_EQ(cudaMalloc(&flag, 4), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&done, kThreads * 4), cudaSuccess);
  const uint32_t zero = 0;
  ASSERT_EQ(cudaMemcpy(flag, &zero, 4, cudaMemcpyHostToDevice), cudaSuccess);

  EXPECT_EQ(launchWait(flag, done), cudaSuccess) << "a launch does not wait for its grid";
  EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchTimeout);
  // Sticky: every later call returns it, and reading it does not clear it.
  EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchTimeout);
  EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchTimeout);
  EXPECT_EQ(cudaPeekAtLastError(), cudaErrorLaunchTimeout);
  void *more = nullptr;
  EXPECT_EQ(cudaMalloc(&more, 4), cudaErrorLaunchTimeout);
  uint32_t host = 0;
  EXPECT_EQ(cudaMemcpy(&host, flag, 4, cudaMemcpyDeviceToHost), cudaErrorLaunchTimeout);
  EXPECT_EQ(launchWait(flag, done), cudaErrorLaunchTimeout);

  // cudaDeviceReset clears it; the same kernel, released by its flag, then completes.
  ASSERT_EQ(cudaDeviceReset(), cudaSuccess);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&flag, 4), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&done, kThreads * 4), cudaSuccess);
  const uint32_t one = 1;
  ASSERT_EQ(cudaMemcpy(flag, &one, 4, cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(launchWait(flag, done), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<uint32_t> result(kThreads);
  ASSERT_EQ(cudaMemcpy(result.data(), done, kThreads * 4, cudaMemcpyDeviceToHost), cudaSuccess);
  for (unsigned t = 0; t < kThreads; ++t)
    EXPECT_EQ(result[t], 1u) << "thread " << t;
  EXPECT_EQ(cudaFree(flag), cudaSuccess);
  EXPECT_EQ(cudaFree(done), cudaSuccess);
}

} // namespace

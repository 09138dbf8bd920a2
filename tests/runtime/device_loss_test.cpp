// Losing the device for good (a board server that dies under a program), through the drop-in CUDA
// runtime's own entry points: the loss is reported as CUDA's sticky cudaErrorLaunchFailure by
// every later launch, synchronization, allocation and copy, cudaDeviceReset does not clear it (the
// device cannot come back to this process), and the process goes on. The server is a child
// process, killed with SIGKILL as a crash would end it.
#include "cuda_types.h"
#include "warpforge/runtime/board_server.h"
#include "ptx_kernels.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern "C" {
cudaError_t cudaMalloc(void **ptr, size_t size);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, cudaMemcpyKind kind);
cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared,
                             cudaStream_t stream);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaGetLastError(void);
}

namespace {

// Every thread adds 1 to data[tid].
constexpr const char *kPtx = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry add_one(.param .u64 p_data)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p_data];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.u64 %rd3, %rd1, %rd2;
  ld.global.u32 %r2, [%rd3];
  add.u32 %r3, %r2, 1;
  st.global.u32 [%rd3], %r3;
  ret;
}
)";

const char kAddOne = 0; // the "host function" whose address names the kernel

void registerKernel() { wf::test::registerPtxKernels(kPtx, {{&kAddOne, "add_one"}}); }

constexpr unsigned kThreads = 32;

cudaError_t addOne(void *data) {
  void *args[] = {&data};
  return cudaLaunchKernel(&kAddOne, dim3{1, 1, 1}, dim3{kThreads, 1, 1}, args, 0, nullptr);
}

TEST(RuntimeDeviceLoss, LostBoardServerIsAStickyLaunchFailure) {
  std::string path = (std::filesystem::temp_directory_path() /
                      ("wf-test-loss-" + std::to_string(::getpid()) + ".sock"))
                         .string();
  // The server forks before this process has touched CUDA, so the child holds no runtime state.
  pid_t server = ::fork();
  ASSERT_GE(server, 0);
  if (server == 0) {
    wf::rt::board::ServerOptions options;
    options.config = "default";
    options.socketPath = path;
    options.quiet = true;
    std::_Exit(wf::rt::board::serve(options));
  }
  for (int i = 0; i < 500 && !std::filesystem::exists(path); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_TRUE(std::filesystem::exists(path)) << "no board server socket at " << path;
  ASSERT_EQ(::setenv("WARPFORGE_SERVER", path.c_str(), 1), 0);

  registerKernel();
  void *data = nullptr;
  ASSERT_EQ(cudaMalloc(&data, kThreads * 4), cudaSuccess);
  std::vector<uint32_t> host(kThreads, 41);
  ASSERT_EQ(cudaMemcpy(data, host.data(), kThreads * 4, cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(addOne(data), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(host.data(), data, kThreads * 4, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(host[0], 42u) << "the board server ran the kernel";

  ::kill(server, SIGKILL);
  ::waitpid(server, nullptr, 0);

  // The launch may return before it reaches the device (launches are asynchronous); it must not
  // report a launch-resource error, and the next synchronization reports the loss.
  cudaError_t launched = addOne(data);
  EXPECT_TRUE(launched == cudaSuccess || launched == cudaErrorLaunchFailure) << launched;
  EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
  // Sticky: every later call returns it.
  EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
  void *more = nullptr;
  EXPECT_EQ(cudaMalloc(&more, 256), cudaErrorLaunchFailure);
  EXPECT_EQ(cudaMemcpy(host.data(), data, kThreads * 4, cudaMemcpyDeviceToHost),
            cudaErrorLaunchFailure);
  EXPECT_EQ(addOne(data), cudaErrorLaunchFailure);
  EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure);
  EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure) << "reading it does not clear it";
  // A reset does not bring the device back.
  cudaDeviceReset();
  EXPECT_EQ(cudaMalloc(&more, 256), cudaErrorLaunchFailure);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
  ::unsetenv("WARPFORGE_SERVER");
  std::filesystem::remove(path);
}

} // namespace

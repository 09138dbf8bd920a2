// Every kind of device fault, one after another in one process: each surfaces as CUDA's error code,
// sticks until cudaDeviceReset, and after the reset the device runs a kernel correctly again.
// Warpforge-specific (a real GPU has no watchdog for compute kernels and its behaviour at a
// divergent barrier is undefined), so it is not part of the tests/cuda corpus.
// Run with WARPFORGE_WATCHDOG_MINSTS=1 so the runaway kernel is stopped after 1M warp instructions.
#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>

static int failures = 0;
#define EXPECT(cond, what)                                                                         \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      std::printf("FAILED (%s): %s\n", what, #cond);                                               \
      ++failures;                                                                                  \
    }                                                                                              \
  } while (0)

__global__ void out_of_bounds(int *p) { p[(1 << 28) + threadIdx.x] = 1; }
__global__ void misaligned(char *p) { *reinterpret_cast<int *>(p + 1 + threadIdx.x * 4) = 1; }
__global__ void trap_in_one(int bad) {
  if (int(blockIdx.x * blockDim.x + threadIdx.x) == bad) // block 1, thread 6
    __trap();
}
__global__ void assert_in_one(int bad) { assert((int)threadIdx.x != bad); }
__global__ void barrier_deadlock() {
  // Warp 0 waits at barrier 1 and warp 1 at barrier 2, each for 64 threads: neither completes.
  if (threadIdx.x < 32)
    asm volatile("bar.sync 1, 64;");
  else
    asm volatile("bar.sync 2, 64;");
}
__global__ void runaway(volatile int *flag) {
  while (*flag == 0) {
  }
}
__global__ void square(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = i * i;
}

/// After a reset the device must be fully usable: allocate, launch, copy back, check.
static void deviceWorks(const char *after) {
  const int n = 1000;
  int *d = nullptr;
  EXPECT(cudaMalloc(&d, n * sizeof(int)) == cudaSuccess, after);
  square<<<(n + 255) / 256, 256>>>(d, n);
  EXPECT(cudaDeviceSynchronize() == cudaSuccess, after);
  static int h[n];
  EXPECT(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess, after);
  for (int i = 0; i < n; ++i)
    if (h[i] != i * i) {
      EXPECT(h[i] == i * i, after);
      break;
    }
  cudaFree(d);
}

template <class Launch>
static void faultKind(const char *what, cudaError_t expected, Launch launch) {
  std::printf("== %s\n", what);
  std::fflush(stdout);
  int *keep = nullptr;
  EXPECT(cudaMalloc(&keep, 256) == cudaSuccess, what);
  launch();
  cudaError_t launched = cudaGetLastError();
  EXPECT(launched == cudaSuccess, what); // the launch itself is valid
  cudaError_t e = cudaDeviceSynchronize();
  if (e != expected)
    std::printf("  got %s, expected %s\n", cudaGetErrorName(e), cudaGetErrorName(expected));
  EXPECT(e == expected, what);
  // Sticky: later calls report it until the reset.
  void *p = nullptr;
  EXPECT(cudaMalloc(&p, 16) == expected, what);
  EXPECT(cudaDeviceReset() == cudaSuccess, what);
  EXPECT(cudaGetLastError() == cudaSuccess, what);
  deviceWorks(what);
}

int main() {
  char *buf = nullptr;
  int *flag = nullptr;
  faultKind("out of bounds", cudaErrorIllegalAddress, [&] {
    cudaMalloc(&buf, 64);
    out_of_bounds<<<1, 32>>>(reinterpret_cast<int *>(buf));
  });
  faultKind("misaligned", cudaErrorMisalignedAddress, [&] {
    cudaMalloc(&buf, 256);
    misaligned<<<1, 32>>>(buf);
  });
  faultKind("trap", cudaErrorLaunchFailure, [] { trap_in_one<<<2, 64>>>(70); });
  faultKind("assert", cudaErrorAssert, [] { assert_in_one<<<1, 64>>>(3); });
  faultKind("barrier deadlock", cudaErrorLaunchFailure, [] { barrier_deadlock<<<1, 64>>>(); });
  faultKind("runaway kernel", cudaErrorLaunchTimeout, [&] {
    cudaMalloc(&flag, sizeof(int));
    cudaMemset(flag, 0, sizeof(int));
    runaway<<<1, 32>>>(flag);
  });
  std::printf("%s (%d failures)\n", failures ? "FAIL" : "PASS", failures);
  return failures ? 1 : 0;
}

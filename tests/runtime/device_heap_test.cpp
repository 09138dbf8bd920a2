// The device heap through the drop-in CUDA runtime's own entry points (no nvcc): the size set with
// cudaDeviceSetLimit(cudaLimitMallocHeapSize) bounds what in-kernel malloc hands out, blocks
// outlive their launch and a later launch frees them, the limit is fixed once a module that uses
// the heap has loaded, and cudaDeviceReset lets a new size take effect (guide B.18.1). The kernels
// are PTX that declares malloc/free `.extern`, registered as nvcc's host code registers them.
#include "cuda_types.h"
#include "ptx_kernels.h"

#include <gtest/gtest.h>

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
cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value);
cudaError_t cudaDeviceGetLimit(size_t *value, cudaLimit limit);
}

namespace {

constexpr const char *kPtx = R"(.version 8.0
.target sm_80
.address_size 64
.extern .func (.param .b64 r) malloc (.param .b64 s);
.extern .func free (.param .b64 p);

// One thread: ptrs[i] = malloc(size) until it returns NULL or max blocks; *count = blocks.
.visible .entry fill_heap(.param .u64 p_ptrs, .param .u32 p_max, .param .u64 p_size,
                          .param .u64 p_count)
{
  .reg .pred %p<3>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [p_ptrs];
  ld.param.u32 %r1, [p_max];
  ld.param.u64 %rd2, [p_size];
  ld.param.u64 %rd3, [p_count];
  mov.u32 %r2, 0;
AGAIN:
  setp.ge.u32 %p1, %r2, %r1;
  @%p1 bra DONE;
  {
  .param .b64 a;
  .param .b64 r;
  st.param.b64 [a], %rd2;
  call.uni (r), malloc, (a);
  ld.param.b64 %rd4, [r];
  }
  setp.eq.u64 %p2, %rd4, 0;
  @%p2 bra DONE;
  mul.wide.u32 %rd5, %r2, 8;
  add.u64 %rd5, %rd1, %rd5;
  st.global.u64 [%rd5], %rd4;
  add.u32 %r2, %r2, 1;
  bra.uni AGAIN;
DONE:
  st.global.u32 [%rd3], %r2;
  ret;
}

// One thread: free(ptrs[i]) for i < *count.
.visible .entry drain_heap(.param .u64 p_ptrs, .param .u64 p_count)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [p_ptrs];
  ld.param.u64 %rd2, [p_count];
  ld.global.u32 %r1, [%rd2];
  mov.u32 %r2, 0;
AGAIN:
  setp.ge.u32 %p1, %r2, %r1;
  @%p1 bra DONE;
  mul.wide.u32 %rd3, %r2, 8;
  add.u64 %rd3, %rd1, %rd3;
  ld.global.u64 %rd4, [%rd3];
  {
  .param .b64 a;
  st.param.b64 [a], %rd4;
  call.uni free, (a);
  }
  add.u32 %r2, %r2, 1;
  bra.uni AGAIN;
DONE:
  ret;
}
)";

const char kFill = 0, kDrain = 0; // the "host functions" whose addresses name the kernels

void registerKernels() {
  static const bool registered = [] {
    wf::test::registerPtxKernels(kPtx, {{&kFill, "fill_heap"}, {&kDrain, "drain_heap"}});
    return true;
  }();
  (void)registered;
}

constexpr uint32_t kMaxBlocks = 1024;
constexpr uint64_t kBlockBytes = 64 << 10;

/// Allocates kBlockBytes blocks until malloc returns NULL; returns how many it got.
uint32_t fillHeap(void *ptrs, void *count) {
  uint32_t max = kMaxBlocks;
  uint64_t size = kBlockBytes;
  void *args[] = {&ptrs, &max, &size, &count};
  EXPECT_EQ(cudaLaunchKernel(&kFill, dim3{1, 1, 1}, dim3{1, 1, 1}, args, 0, nullptr), cudaSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  uint32_t n = 0;
  EXPECT_EQ(cudaMemcpy(&n, count, 4, cudaMemcpyDeviceToHost), cudaSuccess);
  return n;
}

void drainHeap(void *ptrs, void *count) {
  void *args[] = {&ptrs, &count};
  EXPECT_EQ(cudaLaunchKernel(&kDrain, dim3{1, 1, 1}, dim3{1, 1, 1}, args, 0, nullptr), cudaSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

TEST(RuntimeDeviceHeap, LimitSizesTheHeapAndIsFixedOnceItIsReserved) {
  registerKernels();
  size_t limit = 0;
  ASSERT_EQ(cudaDeviceGetLimit(&limit, cudaLimitMallocHeapSize), cudaSuccess);
  EXPECT_EQ(limit, size_t(8) << 20); // CUDA's default

  for (size_t heap : {size_t(1) << 20, size_t(2) << 20}) {
    ASSERT_EQ(cudaDeviceSetLimit(cudaLimitMallocHeapSize, heap), cudaSuccess);
    void *ptrs = nullptr, *count = nullptr;
    ASSERT_EQ(cudaMalloc(&ptrs, kMaxBlocks * 8), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&count, 4), cudaSuccess);
    // Every block has a header, so the heap holds a little less than heap / kBlockBytes blocks.
    uint32_t n = fillHeap(ptrs, count);
    EXPECT_LE(n * kBlockBytes, heap);
    EXPECT_GE(n + 1, heap / kBlockBytes);
    // The heap's size is fixed now.
    EXPECT_EQ(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 4 * heap), cudaErrorInvalidValue);
    ASSERT_EQ(cudaDeviceGetLimit(&limit, cudaLimitMallocHeapSize), cudaSuccess);
    EXPECT_EQ(limit, heap);
    // The blocks outlive the launch: a later one frees them, and the heap holds as many again.
    drainHeap(ptrs, count);
    EXPECT_EQ(fillHeap(ptrs, count), n);
    drainHeap(ptrs, count);
    EXPECT_EQ(cudaFree(ptrs), cudaSuccess);
    EXPECT_EQ(cudaFree(count), cudaSuccess);
    // A reset releases the heap; the next size applies to the next one.
    ASSERT_EQ(cudaDeviceReset(), cudaSuccess);
  }
}

} // namespace

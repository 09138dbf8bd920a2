// Copies and fills checked against live allocations (issue 16 defect 4), through libcudart's own
// runtime and driver entry points: a freed pointer, a range past an allocation's end and a pointer
// kept from before cudaDeviceReset are refused with cudaErrorInvalidValue
// (CUDA_ERROR_INVALID_VALUE) and disturb no other allocation; cuMemAlloc with no current context
// (after cuCtxDestroy) is CUDA_ERROR_INVALID_CONTEXT.
#include "cuda_types.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

extern "C" {
cudaError_t cudaMalloc(void **ptr, size_t size);
cudaError_t cudaFree(void *ptr);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, cudaMemcpyKind kind,
                            cudaStream_t stream);
cudaError_t cudaMemset(void *ptr, int value, size_t count);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaGetLastError(void);

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
CUresult cuInit(unsigned flags);
CUresult cuCtxCreate_v2(CUcontext *ctx, unsigned flags, int dev);
CUresult cuCtxDestroy_v2(CUcontext ctx);
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t bytes);
CUresult cuMemFree_v2(CUdeviceptr p);
CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t bytes);
CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t bytes);
CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned value, size_t count);
}

namespace {

constexpr CUresult kSuccess = 0, kInvalidValue = 1, kInvalidContext = 201;
constexpr size_t kBytes = 4096;

/// Two neighbouring allocations: `victim` holds a pattern that no refused call may change.
struct Neighbours {
  void *probe = nullptr, *victim = nullptr;
  std::vector<uint8_t> pattern = std::vector<uint8_t>(kBytes);

  Neighbours() {
    EXPECT_EQ(cudaMalloc(&probe, kBytes), cudaSuccess);
    EXPECT_EQ(cudaMalloc(&victim, kBytes), cudaSuccess);
    for (size_t i = 0; i < kBytes; ++i)
      pattern[i] = uint8_t(i * 7 + 3);
    EXPECT_EQ(cudaMemcpy(victim, pattern.data(), kBytes, cudaMemcpyHostToDevice), cudaSuccess);
  }
  bool victimIntact() {
    std::vector<uint8_t> back(kBytes);
    return cudaMemcpy(back.data(), victim, kBytes, cudaMemcpyDeviceToHost) == cudaSuccess &&
           back == pattern;
  }
  ~Neighbours() {
    cudaFree(victim);
    cudaFree(probe);
  }
};

TEST(RuntimeMemcheck, FreedPointersAreRefused) {
  Neighbours n;
  std::vector<uint8_t> host(2 * kBytes, 0x5a);
  ASSERT_EQ(cudaFree(n.probe), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(n.probe, host.data(), 16, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(host.data(), n.probe, 16, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(n.victim, n.probe, 16, cudaMemcpyDeviceToDevice), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(n.probe, host.data(), 16, cudaMemcpyDefault), cudaErrorInvalidValue)
      << "a freed device pointer must not be taken for host memory";
  EXPECT_EQ(cudaMemcpyAsync(n.probe, host.data(), 16, cudaMemcpyHostToDevice, nullptr),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemset(n.probe, 0, 16), cudaErrorInvalidValue);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess) << "a refused call is not a sticky error";
  n.probe = nullptr;
  EXPECT_TRUE(n.victimIntact());
}

TEST(RuntimeMemcheck, RangesPastAnAllocationsEndAreRefused) {
  Neighbours n;
  std::vector<uint8_t> host(2 * kBytes, 0x5a);
  auto *probe = static_cast<uint8_t *>(n.probe);
  EXPECT_EQ(cudaMemcpy(probe, host.data(), kBytes + 1, cudaMemcpyHostToDevice),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(probe + kBytes - 8, host.data(), 16, cudaMemcpyHostToDevice),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(host.data(), probe + 8, kBytes, cudaMemcpyDeviceToHost),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemset(probe + 1, 0, kBytes), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(n.victim, n.probe, 2 * kBytes, cudaMemcpyDeviceToDevice),
            cudaErrorInvalidValue);
  // The last byte itself is inside.
  EXPECT_EQ(cudaMemcpy(probe + kBytes - 1, host.data(), 1, cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_TRUE(n.victimIntact());
}

TEST(RuntimeMemcheck, PointersFromBeforeAResetAreRefused) {
  const size_t big = 1 << 20;
  void *old = nullptr;
  ASSERT_EQ(cudaMalloc(&old, big), cudaSuccess);
  ASSERT_EQ(cudaDeviceReset(), cudaSuccess);
  Neighbours n;                                         // new allocations, where the old block was
  auto *inside = static_cast<uint8_t *>(old) + big / 2; // inside the old block, beyond the new
  std::vector<uint8_t> host(kBytes, 0x5a);
  EXPECT_EQ(cudaMemcpy(inside, host.data(), kBytes, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(host.data(), inside, kBytes, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemset(inside, 0, kBytes), cudaErrorInvalidValue);
  // The old pointer with the old size runs over whatever now lies there.
  EXPECT_EQ(cudaMemset(old, 0, big), cudaErrorInvalidValue);
  EXPECT_TRUE(n.victimIntact());
}

TEST(DriverMemcheck, FreedPointersAndRangesPastTheEndAreRefused) {
  ASSERT_EQ(cuInit(0), kSuccess);
  CUcontext ctx = nullptr;
  ASSERT_EQ(cuCtxCreate_v2(&ctx, 0, 0), kSuccess);
  CUdeviceptr a = 0, b = 0;
  ASSERT_EQ(cuMemAlloc_v2(&a, kBytes), kSuccess);
  ASSERT_EQ(cuMemAlloc_v2(&b, kBytes), kSuccess);
  std::vector<uint32_t> host(kBytes / 2, 9);
  ASSERT_EQ(cuMemcpyHtoD_v2(b, host.data(), kBytes), kSuccess);
  EXPECT_EQ(cuMemcpyHtoD_v2(a, host.data(), kBytes + 4), kInvalidValue);
  EXPECT_EQ(cuMemsetD32_v2(a + 4, 0, kBytes / 4), kInvalidValue);
  ASSERT_EQ(cuMemFree_v2(a), kSuccess);
  EXPECT_EQ(cuMemcpyHtoD_v2(a, host.data(), 16), kInvalidValue);
  EXPECT_EQ(cuMemcpyDtoH_v2(host.data(), a, 16), kInvalidValue);
  std::vector<uint32_t> back(kBytes / 4);
  ASSERT_EQ(cuMemcpyDtoH_v2(back.data(), b, kBytes), kSuccess);
  EXPECT_EQ(back, std::vector<uint32_t>(kBytes / 4, 9));
  ASSERT_EQ(cuMemFree_v2(b), kSuccess);
  ASSERT_EQ(cuCtxDestroy_v2(ctx), kSuccess);
  CUdeviceptr c = 0;
  EXPECT_EQ(cuMemAlloc_v2(&c, 256), kInvalidContext) << "no context is current any more";
  ASSERT_EQ(cuCtxCreate_v2(&ctx, 0, 0), kSuccess);
  EXPECT_EQ(cuMemAlloc_v2(&c, 256), kSuccess);
  EXPECT_EQ(cuMemFree_v2(c), kSuccess);
  EXPECT_EQ(cuCtxDestroy_v2(ctx), kSuccess);
}

} // namespace

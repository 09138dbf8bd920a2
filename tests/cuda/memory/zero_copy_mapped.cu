// WF-CHAPTER: memory
// WF-FEATURES: mem.mapped_host, rt.memory.pinned, sync.threadfence_system
// WF-DESCRIPTION: mapped page-locked host memory (cudaHostAllocMapped + cudaHostGetDevicePointer): kernels read and write host memory directly (guide 3.2.4.3)
#include "../common/check.h"
#include <vector>

// Atomics on mapped host memory need hardware support for them (compute-sanitizer rejects them on PCIe
// hosts), so each block reports completion with a plain store after __threadfence_system.
__global__ void square_in_place(int* host_mapped, int n, volatile unsigned* done) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) host_mapped[i] = host_mapped[i] * host_mapped[i];
  __threadfence_system();
  __syncthreads();
  if (threadIdx.x == 0) done[blockIdx.x] = 1u + blockIdx.x;
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  if (!prop.canMapHostMemory) {
    printf("device cannot map host memory\n");
    return 1;
  }
  const int n = 3000;
  int* h;
  unsigned* flag;
  CHECK(cudaHostAlloc(&h, n * sizeof(int), cudaHostAllocMapped));
  const int blocks = (n + 127) / 128;
  CHECK(cudaHostAlloc(&flag, blocks * sizeof(unsigned), cudaHostAllocMapped));
  for (int i = 0; i < n; ++i) h[i] = i - 1500;
  for (int b = 0; b < blocks; ++b) flag[b] = 0;
  int* dptr;
  unsigned* dflag;
  CHECK(cudaHostGetDevicePointer((void**)&dptr, h, 0));
  CHECK(cudaHostGetDevicePointer((void**)&dflag, flag, 0));
  square_in_place<<<blocks, 128>>>(dptr, n, dflag);
  CHECK_KERNEL();
  for (int i = 0; i < n; ++i) EXPECT_EQ(h[i], (i - 1500) * (i - 1500), "mapped", i);
  for (int b = 0; b < blocks; ++b) EXPECT_EQ(flag[b], 1u + b, "per-block completion flag in host memory", b);
  CHECK(cudaFreeHost(h));
  CHECK(cudaFreeHost(flag));
  return wf::finish();
}

// WF-CHAPTER: runtime
// WF-FEATURES: rt.trap
// WF-DESCRIPTION: __trap() in one thread aborts the kernel and the launch reports cudaErrorLaunchFailure at synchronisation; work launched before it completed normally (done last: the context is unusable afterwards on NVIDIA GPUs)
#include "../common/check.h"

__global__ void fill(int* d) { d[threadIdx.x] = threadIdx.x; }
__global__ void maybe_trap(int* d, int bad) {
  if ((int)threadIdx.x == bad) __trap();
  d[threadIdx.x] += 1;
}

int main() {
  int* d;
  CHECK(cudaMalloc(&d, 64 * sizeof(int)));
  fill<<<1, 64>>>(d);
  CHECK_KERNEL();
  maybe_trap<<<1, 64>>>(d, -1);  // no thread traps
  CHECK_KERNEL();
  int h[64];
  CHECK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 64; ++i) EXPECT_EQ(h[i], i + 1, "before the trap", i);
  maybe_trap<<<1, 64>>>(d, 5);
  CHECK(cudaGetLastError());
  cudaError_t e = cudaDeviceSynchronize();
  EXPECT_EQ((int)e, (int)cudaErrorLaunchFailure, "cudaDeviceSynchronize after __trap()", 0);
  return wf::finish();
}

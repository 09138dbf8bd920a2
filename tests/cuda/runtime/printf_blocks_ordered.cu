// WF-CHAPTER: runtime
// WF-FEATURES: rt.printf.per_launch, rt.printf.flush_on_sync
// WF-DESCRIPTION: device printf from thread 0 of single-block launches in sequence, from device functions and loops, with per-launch values; deterministic order because each launch is synchronised before the next
// WF-EXPECTED-OUTPUT: printf_blocks_ordered.expected
#include "../common/check.h"

__device__ void report(int launch, int value) { printf("launch %d: block %d of %d, value %d\n", launch, blockIdx.x, gridDim.x, value); }

__global__ void step(int launch, const int* data) {
  __shared__ int sum;
  if (threadIdx.x == 0) sum = 0;
  __syncthreads();
  atomicAdd(&sum, data[threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0) {
    report(launch, sum);
    for (int k = 0; k < launch % 3; ++k) printf("  detail %d.%d\n", launch, k);
  }
}

int main() {
  int h[64];
  for (int i = 0; i < 64; ++i) h[i] = i;
  int* d;
  CHECK(cudaMalloc(&d, sizeof(h)));
  CHECK(cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice));
  for (int launch = 0; launch < 5; ++launch) {
    step<<<1, 32 + launch * 8>>>(launch, d);
    CHECK_KERNEL();
  }
  return wf::finish();
}

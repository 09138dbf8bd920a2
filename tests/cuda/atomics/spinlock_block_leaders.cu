// WF-CHAPTER: atomics
// WF-FEATURES: atomics.cas.int.global, atomics.exch.int.global, atomics.mutex, sync.threadfence
// WF-DESCRIPTION: a global mutex built from atomicCAS/atomicExch, taken by one leader thread per block (no intra-warp contention): a non-atomic read-modify-write inside the critical section must not lose updates
#include "../common/check.h"
#include <vector>

__device__ void lock(int* m) { while (atomicCAS(m, 0, 1) != 0) { } __threadfence(); }
__device__ void unlock(int* m) { __threadfence(); atomicExch(m, 0); }

__global__ void critical(int* mutex, volatile int* counter, volatile long long* log_sum, int reps) {
  if (threadIdx.x == 0) {
    for (int r = 0; r < reps; ++r) {
      lock(mutex);
      int c = *counter;          // plain (volatile) read-modify-write protected by the lock
      *counter = c + 1;
      *log_sum = *log_sum + (long long)c * (blockIdx.x + 1);  // order-independent? no: checked loosely below
      unlock(mutex);
    }
  }
}

int main() {
  const int blocks = 64, reps = 20;
  int *m, *c; long long* s;
  CHECK(cudaMalloc(&m, 4)); CHECK(cudaMalloc(&c, 4)); CHECK(cudaMalloc(&s, 8));
  CHECK(cudaMemset(m, 0, 4)); CHECK(cudaMemset(c, 0, 4)); CHECK(cudaMemset(s, 0, 8));
  critical<<<blocks, 32>>>(m, c, s, reps);
  CHECK_KERNEL();
  int hc, hm; long long hs;
  CHECK(cudaMemcpy(&hc, c, 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&hm, m, 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&hs, s, 8, cudaMemcpyDeviceToHost));
  EXPECT_EQ(hc, blocks * reps, "no lost updates", 0);
  EXPECT_EQ(hm, 0, "mutex released", 0);
  // each value c = 0..N-1 was seen exactly once, weighted by its block: sum lies between the extremes
  long long n = blocks * reps, lo = n * (n - 1) / 2, hi = lo * blocks;
  EXPECT_TRUE(hs >= lo && hs <= hi, "weighted sum within bounds");
  return wf::finish();
}

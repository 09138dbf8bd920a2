// WF-CHAPTER: sync
// WF-FEATURES: sync.independent_thread_scheduling, atomics.mutex, atomics.cas.int.shared
// WF-DESCRIPTION: compute capability 7.x+ independent thread scheduling: lanes of one warp contend for a lock and one lane waits on another lane's flag; both terminate only if diverged lanes make forward progress
#include "../common/check.h"
#include <vector>

__global__ void intra_warp_lock(int* out) {
  __shared__ int mutex;
  __shared__ int counter;
  if (threadIdx.x == 0) { mutex = 0; counter = 0; }
  __syncthreads();
  for (int r = 0; r < 4; ++r) {
    bool done = false;
    while (!done) {
      if (atomicCAS(&mutex, 0, 1) == 0) {  // every lane of every warp fights for the same lock
        int c = *(volatile int*)&counter;
        *(volatile int*)&counter = c + 1;
        __threadfence_block();
        atomicExch(&mutex, 0);
        done = true;
      }
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) out[0] = counter;
}

// Lane 0 waits until lane 31 (same warp) publishes; lane 31 first does unrelated work.
__global__ void lane_wait(int* out) {
  __shared__ volatile int flag;
  int lane = threadIdx.x % 32;
  if (threadIdx.x == 0) flag = 0;
  __syncwarp();
  if (lane == 0) {
    while (flag == 0) { }
    out[1] = flag;
  } else if (lane == 31) {
    int s = 0;
    for (int i = 0; i < 1000; ++i) s += i;
    flag = s;
  }
  __syncwarp();
}

int main() {
  int* d;
  CHECK(cudaMalloc(&d, 2 * sizeof(int)));
  CHECK(cudaMemset(d, 0, 2 * sizeof(int)));
  intra_warp_lock<<<1, 96>>>(d);
  CHECK_KERNEL();
  lane_wait<<<1, 32>>>(d);
  CHECK_KERNEL();
  int h[2];
  CHECK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  EXPECT_EQ(h[0], 96 * 4, "lock-protected increments", 0);
  EXPECT_EQ(h[1], 999 * 1000 / 2, "intra-warp flag", 1);
  return wf::finish();
}

// WF-CHAPTER: runtime
// WF-FEATURES: rt.event.create, rt.event.record, rt.event.sync, rt.event.query, rt.event.elapsed_time, rt.event.disable_timing
// WF-DESCRIPTION: events recorded around kernels in a stream: cudaEventSynchronize, cudaEventQuery, cudaEventElapsedTime > 0 across real work and ordered (start-mid <= start-end), cudaEventCreateWithFlags(cudaEventDisableTiming) refuses timing, cudaEventBlockingSync
#include "../common/check.h"
#include <vector>

__global__ void busy(int* d, long long cycles) {
  if (threadIdx.x != 0) return;  // one thread per block keeps the block busy
  long long t0 = clock64();
  int acc = 0;
  while (clock64() - t0 < cycles) acc += 1;
  d[blockIdx.x] = acc > 0;
}

int main() {
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  cudaEvent_t start, mid, stop, notime, blocking;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&mid));
  CHECK(cudaEventCreateWithFlags(&stop, cudaEventDefault));
  CHECK(cudaEventCreateWithFlags(&notime, cudaEventDisableTiming));
  CHECK(cudaEventCreateWithFlags(&blocking, cudaEventBlockingSync));
  int* d;
  CHECK(cudaMalloc(&d, 64 * 4));
  CHECK(cudaEventRecord(start, s));
  busy<<<4, 32, 0, s>>>(d, 100000);
  CHECK(cudaEventRecord(mid, s));
  busy<<<4, 32, 0, s>>>(d, 100000);
  CHECK(cudaEventRecord(stop, s));
  CHECK(cudaEventRecord(notime, s));
  CHECK(cudaEventRecord(blocking, s));
  CHECK(cudaGetLastError());
  CHECK(cudaEventSynchronize(stop));
  CHECK(cudaEventSynchronize(blocking));
  EXPECT_EQ((int)cudaEventQuery(stop), (int)cudaSuccess, "query of a completed event", 0);
  EXPECT_EQ((int)cudaEventQuery(notime), (int)cudaSuccess, "query of a completed non-timing event", 0);
  float ms_mid = -1, ms_all = -1;
  CHECK(cudaEventElapsedTime(&ms_mid, start, mid));
  CHECK(cudaEventElapsedTime(&ms_all, start, stop));
  EXPECT_TRUE(ms_mid > 0.0f, "elapsed time over real work is positive");
  EXPECT_TRUE(ms_all >= ms_mid, "later event, longer elapsed time");
  EXPECT_TRUE(ms_all < 60000.0f, "elapsed time is plausible (milliseconds)");
  float dummy;
  cudaError_t e = cudaEventElapsedTime(&dummy, start, notime);
  EXPECT_EQ((int)e, (int)cudaErrorInvalidResourceHandle, "elapsed time with a cudaEventDisableTiming event", 0);
  (void)cudaGetLastError();  // the failed call set the last error: read and clear it
  // an event recorded on the legacy default stream
  CHECK(cudaEventRecord(start));
  busy<<<1, 32>>>(d, 1000);
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  CHECK(cudaEventElapsedTime(&ms_all, start, stop));
  EXPECT_TRUE(ms_all >= 0.0f, "default-stream elapsed time non-negative");
  CHECK(cudaEventDestroy(start)); CHECK(cudaEventDestroy(mid)); CHECK(cudaEventDestroy(stop));
  CHECK(cudaEventDestroy(notime)); CHECK(cudaEventDestroy(blocking));
  CHECK(cudaStreamDestroy(s));
  return wf::finish();
}

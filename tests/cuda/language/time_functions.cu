// WF-CHAPTER: language
// WF-FEATURES: lang.clock, lang.nanosleep
// WF-DESCRIPTION: clock() and clock64() (guide B.11) advance monotonically within a thread and across a loop of work; __nanosleep suspends for a while and returns; results do not depend on timing values
#include "../common/check.h"
#include <vector>

__global__ void timed(long long* out, int work) {
  long long t0 = clock64();
  unsigned c0 = (unsigned)clock();
  volatile int sink = 0;
  for (int i = 0; i < work; ++i) sink = sink + i;
  long long t1 = clock64();
  __nanosleep(1000);
  long long t2 = clock64();
  unsigned c1 = (unsigned)clock();
  int t = threadIdx.x;
  out[t * 4 + 0] = t1 - t0;
  out[t * 4 + 1] = t2 - t1;
  out[t * 4 + 2] = (long long)(unsigned)(c1 - c0);  // 32-bit counter: difference modulo 2^32
  out[t * 4 + 3] = sink;
}

int main() {
  long long* d;
  CHECK(cudaMalloc(&d, 64 * 4 * 8));
  const int work = 2000;
  timed<<<1, 64>>>(d, work);
  CHECK_KERNEL();
  std::vector<long long> h(64 * 4);
  CHECK(cudaMemcpy(h.data(), d, h.size() * 8, cudaMemcpyDeviceToHost));
  for (int t = 0; t < 64; ++t) {
    EXPECT_TRUE(h[t * 4 + 0] > 0, "clock64 advances over a loop");
    EXPECT_TRUE(h[t * 4 + 1] >= 0, "clock64 monotonic across __nanosleep");
    EXPECT_TRUE(h[t * 4 + 2] > 0 && h[t * 4 + 2] < (1LL << 31), "clock() advances (modulo 2^32)");
    EXPECT_EQ(h[t * 4 + 3], (long long)work * (work - 1) / 2, "work done", t);
  }
  return wf::finish();
}

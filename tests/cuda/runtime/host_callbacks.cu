// WF-CHAPTER: runtime
// WF-FEATURES: rt.host_func, rt.stream_callback, rt.stream.ordering
// WF-DESCRIPTION: host functions enqueued with cudaLaunchHostFunc and cudaStreamAddCallback run in stream order, after the preceding device work is complete (they see its results in pinned memory) and before later work starts
#include "../common/check.h"
#include <vector>

struct Log { int entries[16]; int n; const int* pinned; int seen[16]; };

static void CUDART_CB host_fn(void* p) {
  Log* log = (Log*)p;
  int k = log->n++;
  log->entries[k] = 100 + k;
  log->seen[k] = log->pinned[0];  // result of the kernel before it
}
static void CUDART_CB callback(cudaStream_t, cudaError_t status, void* p) {
  Log* log = (Log*)p;
  int k = log->n++;
  log->entries[k] = status == cudaSuccess ? 200 + k : -1;
  log->seen[k] = log->pinned[0];
}

__global__ void set(int* p, int v) { p[0] = v; }

int main() {
  int* pinned;
  CHECK(cudaHostAlloc(&pinned, sizeof(int), cudaHostAllocMapped));
  int* dp;
  CHECK(cudaHostGetDevicePointer((void**)&dp, pinned, 0));
  *pinned = 0;
  Log log = {};
  log.pinned = pinned;
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  for (int k = 0; k < 6; ++k) {
    set<<<1, 1, 0, s>>>(dp, 10 + k);
    if (k % 2 == 0) CHECK(cudaLaunchHostFunc(s, host_fn, &log));
    else CHECK(cudaStreamAddCallback(s, callback, &log, 0));
  }
  CHECK(cudaStreamSynchronize(s));
  EXPECT_EQ(log.n, 6, "callbacks ran", 0);
  for (int k = 0; k < 6; ++k) {
    EXPECT_EQ(log.entries[k], (k % 2 == 0 ? 100 : 200) + k, "callback order", k);
    EXPECT_EQ(log.seen[k], 10 + k, "callback sees the preceding kernel's result", k);
  }
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFreeHost(pinned));
  return wf::finish();
}

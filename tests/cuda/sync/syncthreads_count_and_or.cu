// WF-CHAPTER: sync
// WF-FEATURES: sync.syncthreads_count, sync.syncthreads_and, sync.syncthreads_or
// WF-DESCRIPTION: __syncthreads_count/_and/_or evaluate a predicate over all threads of the block (guide B.6), with several predicate patterns and block sizes
#include "../common/check.h"
#include <vector>

__global__ void votes(const int* pred, int* out, int pattern_count) {
  int t = threadIdx.x;
  for (int p = 0; p < pattern_count; ++p) {
    int v = pred[p * blockDim.x + t];
    int c = __syncthreads_count(v);
    int a = __syncthreads_and(v);
    int o = __syncthreads_or(v);
    if (t == (p * 7) % blockDim.x) {  // some thread reports: every thread gets the same value
      out[p * 3 + 0] = c;
      out[p * 3 + 1] = a;
      out[p * 3 + 2] = o;
    }
    // all threads must agree
    int c2 = __syncthreads_count(v);  // evaluated by every thread (no short-circuit around a barrier)
    int a2 = __syncthreads_and(v);
    if (c != c2 || (a != 0) != (a2 != 0)) out[p * 3] = -1000;
  }
}

int main() {
  const int sizes[] = {256, 1000, 32, 77};
  const int P = 6;
  for (int n : sizes) {
    std::vector<int> pred(P * n);
    for (int t = 0; t < n; ++t) {
      pred[0 * n + t] = 0;                  // none
      pred[1 * n + t] = 1;                  // all
      pred[2 * n + t] = (t == n - 1);       // only the last thread
      pred[3 * n + t] = (t % 3 == 0) * 5;   // non-zero values other than 1
      pred[4 * n + t] = (t != 17 % n);      // all but one
      pred[5 * n + t] = (t / 32) % 2 ? -1 : 0;  // whole warps
    }
    int *dp, *dout;
    CHECK(cudaMalloc(&dp, pred.size() * sizeof(int)));
    CHECK(cudaMalloc(&dout, P * 3 * sizeof(int)));
    CHECK(cudaMemcpy(dp, pred.data(), pred.size() * sizeof(int), cudaMemcpyHostToDevice));
    votes<<<1, n>>>(dp, dout, P);
    CHECK_KERNEL();
    std::vector<int> o(P * 3);
    CHECK(cudaMemcpy(o.data(), dout, o.size() * sizeof(int), cudaMemcpyDeviceToHost));
    for (int p = 0; p < P; ++p) {
      int c = 0;
      for (int t = 0; t < n; ++t) c += pred[p * n + t] != 0;
      EXPECT_EQ(o[p * 3 + 0], c, "count", n * 100 + p);
      EXPECT_EQ(o[p * 3 + 1] != 0, c == n, "and", n * 100 + p);
      EXPECT_EQ(o[p * 3 + 2] != 0, c > 0, "or", n * 100 + p);
    }
    CHECK(cudaFree(dp)); CHECK(cudaFree(dout));
  }
  return wf::finish();
}

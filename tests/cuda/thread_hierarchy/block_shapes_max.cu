// WF-CHAPTER: thread_hierarchy
// WF-FEATURES: th.block.max_threads, th.block.3d, th.warp.formation, th.builtin.warpSize, lang.inline_ptx
// WF-DESCRIPTION: blocks of 1024 threads in every shape the limits allow (1024x1x1, 1x1024x1, 16x1x64, 32x32x1, 8x8x16); warps are consecutive linear thread IDs
#include "../common/check.h"
#include <vector>

__global__ void shape(int* lin, int* lane, int* warp_first) {
  int t = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
  unsigned l;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
  lin[t] = t;
  lane[t] = (int)l;
  // The lowest linear thread ID in my warp (warps are built from consecutive IDs, guide 4.1).
  int first = __shfl_sync(0xffffffffu, t, 0);
  warp_first[t] = first;
  if (warpSize != 32) lane[t] = -1000;
}

int main() {
  const int shapes[][3] = {{1024, 1, 1}, {1, 1024, 1}, {16, 1, 64}, {32, 32, 1}, {8, 8, 16}, {1, 1, 64}, {3, 5, 7}};
  for (auto& s : shapes) {
    int n = s[0] * s[1] * s[2];
    int *lin, *lane, *wf;
    CHECK(cudaMalloc(&lin, n * sizeof(int)));
    CHECK(cudaMalloc(&lane, n * sizeof(int)));
    CHECK(cudaMalloc(&wf, n * sizeof(int)));
    shape<<<2, dim3(s[0], s[1], s[2])>>>(lin, lane, wf);  // two blocks write the same values
    CHECK_KERNEL();
    std::vector<int> a(n), b(n), c(n);
    CHECK(cudaMemcpy(a.data(), lin, n * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(b.data(), lane, n * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(c.data(), wf, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int t = 0; t < n; ++t) {
      EXPECT_EQ(a[t], t, "linear id", t);
      EXPECT_EQ(b[t], t % 32, "lane id", t);
      EXPECT_EQ(c[t], t - t % 32, "first thread of warp", t);
    }
    CHECK(cudaFree(lin)); CHECK(cudaFree(lane)); CHECK(cudaFree(wf));
  }
  return wf::finish();
}

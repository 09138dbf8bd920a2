// WF-CHAPTER: coop_groups
// WF-FEATURES: cg.thread_block, cg.sync
// WF-DESCRIPTION: cooperative_groups::this_thread_block(): size/num_threads, thread_rank, group_index, thread_index, dim_threads, sync() and cg::sync(), in 1D and 3D blocks
#include "../common/check.h"
#include <cooperative_groups.h>
#include <vector>
namespace cg = cooperative_groups;

__global__ void info(int* out) {
  cg::thread_block b = cg::this_thread_block();
  __shared__ int s[512];
  int r = (int)b.thread_rank();
  dim3 gi = b.group_index(), ti = b.thread_index(), dt = b.dim_threads();
  int lin = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
  int bl = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  int n = (int)b.size();
  s[r] = r * 2;
  b.sync();
  int nb = s[(r + 1) % n];
  cg::sync(b);
  s[r] = nb + 1;
  b.sync();
  int* o = out + (bl * n + r) * 8;
  o[0] = r == lin;
  o[1] = (gi.x == blockIdx.x && gi.y == blockIdx.y && gi.z == blockIdx.z);
  o[2] = (ti.x == threadIdx.x && ti.y == threadIdx.y && ti.z == threadIdx.z);
  o[3] = (dt.x == blockDim.x && dt.y == blockDim.y && dt.z == blockDim.z);
  o[4] = n;
  o[5] = (int)b.num_threads();
  o[6] = s[(r + 5) % n];
  o[7] = 1;
}

int main() {
  struct Cfg { dim3 g, b; } cfgs[] = {{dim3(3), dim3(128)}, {dim3(2, 2), dim3(8, 4, 3)}, {dim3(1, 1, 2), dim3(5, 7, 1)}};
  int* d;
  CHECK(cudaMalloc(&d, 8 * 1024 * sizeof(int)));
  for (auto& c : cfgs) {
    int nb = c.g.x * c.g.y * c.g.z, n = c.b.x * c.b.y * c.b.z;
    CHECK(cudaMemset(d, 0, 8 * 1024 * sizeof(int)));
    info<<<c.g, c.b>>>(d);
    CHECK_KERNEL();
    std::vector<int> h(nb * n * 8);
    CHECK(cudaMemcpy(h.data(), d, h.size() * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < nb * n; ++i) {
      int r = i % n;
      const int* o = &h[i * 8];
      EXPECT_EQ(o[0], 1, "thread_rank", i);
      EXPECT_EQ(o[1], 1, "group_index", i);
      EXPECT_EQ(o[2], 1, "thread_index", i);
      EXPECT_EQ(o[3], 1, "dim_threads", i);
      EXPECT_EQ(o[4], n, "size", i);
      EXPECT_EQ(o[5], n, "num_threads", i);
      EXPECT_EQ(o[6], ((r + 5) % n + 1) % n * 2 + 1, "exchange across sync", i);
    }
  }
  return wf::finish();
}

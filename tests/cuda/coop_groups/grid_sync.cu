// WF-CHAPTER: coop_groups
// WF-FEATURES: cg.grid.sync, cg.launch.cooperative, cg.grid.info, rt.device.attribute
// WF-DESCRIPTION: grid-wide synchronisation with this_grid().sync() under cudaLaunchCooperativeKernel, grid sized from the occupancy API: multi-phase computation where each phase reads other blocks' results
#include "../common/check.h"
#include <cooperative_groups.h>
#include <algorithm>
#include <vector>
namespace cg = cooperative_groups;

__global__ void phases(int* a, int* b, int n, int* info) {
  cg::grid_group grid = cg::this_grid();
  unsigned long long r = grid.thread_rank(), total = grid.size();
  if (r == 0) {
    info[0] = grid.is_valid();
    info[1] = (int)grid.size();
    info[2] = (int)grid.num_blocks();
    info[3] = (int)grid.num_threads();
  }
  if (threadIdx.x == 0) info[4 + blockIdx.x] = (int)grid.block_rank();
  for (int step = 0; step < 6; ++step) {
    // b[i] = a[i] + a[(i + stride) % n]: reads values written by other blocks in the previous phase
    int stride = 1 << step;
    for (unsigned long long i = r; i < (unsigned long long)n; i += total) b[i] = a[i] + a[(i + stride) % n];
    grid.sync();
    for (unsigned long long i = r; i < (unsigned long long)n; i += total) a[i] = b[i] % 1000003;
    grid.sync();
  }
}

int main() {
  int coop = 0, sms = 0, per = 0;
  CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0));
  if (!coop) { printf("no cooperative launch\n"); return 1; }
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int threads = 128;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, phases, threads, 0));
  int blocks = std::min(per * sms, 48);
  EXPECT_TRUE(blocks >= 1, "co-resident blocks");
  const int n = 5000;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = (i * 37 + 11) % 1000;
  int *a, *b, *info;
  CHECK(cudaMalloc(&a, n * 4)); CHECK(cudaMalloc(&b, n * 4)); CHECK(cudaMalloc(&info, (4 + blocks) * 4));
  CHECK(cudaMemcpy(a, h.data(), n * 4, cudaMemcpyHostToDevice));
  int nn = n;
  void* args[] = {&a, &b, &nn, &info};
  CHECK(cudaLaunchCooperativeKernel((void*)phases, blocks, threads, args, 0, 0));
  CHECK_KERNEL();
  std::vector<int> o(n), in(4 + blocks);
  CHECK(cudaMemcpy(o.data(), a, n * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(in.data(), info, in.size() * 4, cudaMemcpyDeviceToHost));
  std::vector<int> ha(h), hb(n);
  for (int step = 0; step < 6; ++step) {
    int stride = 1 << step;
    for (int i = 0; i < n; ++i) hb[i] = ha[i] + ha[(i + stride) % n];
    for (int i = 0; i < n; ++i) ha[i] = hb[i] % 1000003;
  }
  for (int i = 0; i < n; ++i) EXPECT_EQ(o[i], ha[i], "phased result", i);
  EXPECT_EQ(in[0], 1, "grid is_valid", 0);
  EXPECT_EQ(in[1], blocks * threads, "grid size", 0);
  EXPECT_EQ(in[2], blocks, "grid num_blocks", 0);
  EXPECT_EQ(in[3], blocks * threads, "grid num_threads", 0);
  for (int bl = 0; bl < blocks; ++bl) EXPECT_EQ(in[4 + bl], bl, "block_rank", bl);
  return wf::finish();
}

// WF-CHAPTER: sync
// WF-FEATURES: sync.syncthreads.loop, sync.syncthreads, mem.shared.static
// WF-DESCRIPTION: barriers inside loops with uniform trip counts: iterative Jacobi smoothing ping-ponging two shared buffers, and a tree reduction with a barrier per level
#include "../common/check.h"
#include <vector>

#define N 512
__global__ void smooth(const int* in, int* out, int iters) {
  __shared__ int buf[2][N];
  int t = threadIdx.x;
  buf[0][t] = in[blockIdx.x * N + t];
  __syncthreads();
  int cur = 0;
  for (int it = 0; it < iters; ++it) {  // trip count uniform across the block
    int l = buf[cur][(t + N - 1) % N], r = buf[cur][(t + 1) % N], c = buf[cur][t];
    buf[cur ^ 1][t] = (l + 2 * c + r) / 4;
    __syncthreads();
    cur ^= 1;
  }
  out[blockIdx.x * N + t] = buf[cur][t];
}

__global__ void tree_reduce(const int* in, int* out) {
  __shared__ int s[N];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * N + t];
  __syncthreads();
  for (int stride = N / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();  // reached by all threads, inside the loop
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

int main() {
  const int blocks = 4, iters = 25;
  std::vector<int> in(blocks * N);
  wf::Rng r(11);
  for (auto& x : in) x = (int)(r.next() % 100000);
  int *din, *dout;
  CHECK(cudaMalloc(&din, in.size() * sizeof(int)));
  CHECK(cudaMalloc(&dout, in.size() * sizeof(int)));
  CHECK(cudaMemcpy(din, in.data(), in.size() * sizeof(int), cudaMemcpyHostToDevice));
  smooth<<<blocks, N>>>(din, dout, iters);
  CHECK_KERNEL();
  std::vector<int> o(in.size());
  CHECK(cudaMemcpy(o.data(), dout, o.size() * sizeof(int), cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) {
    std::vector<int> cur(in.begin() + b * N, in.begin() + (b + 1) * N), nxt(N);
    for (int it = 0; it < iters; ++it) {
      for (int t = 0; t < N; ++t) nxt[t] = (cur[(t + N - 1) % N] + 2 * cur[t] + cur[(t + 1) % N]) / 4;
      cur.swap(nxt);
    }
    for (int t = 0; t < N; ++t) EXPECT_EQ(o[b * N + t], cur[t], "smooth", b * N + t);
  }
  tree_reduce<<<blocks, N>>>(din, dout);
  CHECK_KERNEL();
  CHECK(cudaMemcpy(o.data(), dout, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) {
    long long s = 0;
    for (int t = 0; t < N; ++t) s += in[b * N + t];
    EXPECT_EQ((long long)o[b], s, "tree reduce", b);
  }
  CHECK(cudaFree(din)); CHECK(cudaFree(dout));
  return wf::finish();
}

// WF-CHAPTER: memory
// WF-FEATURES: mem.shared.static, sync.syncthreads, mem.shared.2d_array
// WF-DESCRIPTION: statically sized __shared__ arrays (1D and 2D, several per kernel, several types): block-wide reverse and neighbour exchange
#include "../common/check.h"
#include <vector>

#define N 256
__global__ void reverse_and_mix(const int* in, int* out, double* dout) {
  __shared__ int s[N];
  __shared__ double sd[N];
  __shared__ short tile[16][17];
  int t = threadIdx.x;
  int g = blockIdx.x * N + t;
  s[t] = in[g];
  sd[t] = in[g] * 0.5;
  tile[t / 16][t % 16] = (short)(in[g] & 0x7fff);
  __syncthreads();
  int r = s[N - 1 - t];
  // transpose read through the 2D array
  int tr = tile[t % 16][t / 16];
  out[g] = r + tr * 3;
  dout[g] = sd[(t + 1) % N] + sd[(t + N - 1) % N];
}

int main() {
  const int blocks = 9;
  std::vector<int> h(blocks * N);
  wf::Rng r(1);
  for (auto& x : h) x = (int)(r.next() % 100000);
  int *din, *dout;
  double* dd;
  CHECK(cudaMalloc(&din, h.size() * sizeof(int)));
  CHECK(cudaMalloc(&dout, h.size() * sizeof(int)));
  CHECK(cudaMalloc(&dd, h.size() * sizeof(double)));
  CHECK(cudaMemcpy(din, h.data(), h.size() * sizeof(int), cudaMemcpyHostToDevice));
  reverse_and_mix<<<blocks, N>>>(din, dout, dd);
  CHECK_KERNEL();
  std::vector<int> o(h.size());
  std::vector<double> od(h.size());
  CHECK(cudaMemcpy(o.data(), dout, o.size() * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(od.data(), dd, od.size() * sizeof(double), cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < N; ++t) {
      const int* in = &h[b * N];
      int tr = (int)(short)(in[(t % 16) * 16 + t / 16] & 0x7fff);
      EXPECT_EQ(o[b * N + t], in[N - 1 - t] + tr * 3, "reverse+transpose", b * N + t);
      EXPECT_EQ(od[b * N + t], in[(t + 1) % N] * 0.5 + in[(t + N - 1) % N] * 0.5, "double neighbours", b * N + t);
    }
  CHECK(cudaFree(din)); CHECK(cudaFree(dout)); CHECK(cudaFree(dd));
  return wf::finish();
}

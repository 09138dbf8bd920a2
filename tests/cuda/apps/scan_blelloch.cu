// WF-CHAPTER: apps
// WF-FEATURES: app.scan, mem.shared.static, sync.syncthreads.loop
// WF-DESCRIPTION: work-efficient (Blelloch) exclusive prefix sum: up-sweep/down-sweep per 1024-element block with bank-conflict-avoiding padding, a recursive scan of the block sums, and a uniform add; odd total length
#include "../common/check.h"
#include <vector>

constexpr int B = 1024;  // elements per block (512 threads x 2)
#define PAD(i) ((i) + ((i) >> 5))

__global__ void scan_block(const int* in, int* out, int* sums, int n) {
  __shared__ int s[PAD(B) + 1];
  int t = threadIdx.x, base = blockIdx.x * B;
  int a = t, b = t + B / 2;
  s[PAD(a)] = base + a < n ? in[base + a] : 0;
  s[PAD(b)] = base + b < n ? in[base + b] : 0;
  int off = 1;
  for (int d = B >> 1; d > 0; d >>= 1) {  // up-sweep
    __syncthreads();
    if (t < d) { int ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1; s[PAD(bi)] += s[PAD(ai)]; }
    off <<= 1;
  }
  if (t == 0) { if (sums) sums[blockIdx.x] = s[PAD(B - 1)]; s[PAD(B - 1)] = 0; }
  for (int d = 1; d < B; d <<= 1) {       // down-sweep
    off >>= 1;
    __syncthreads();
    if (t < d) {
      int ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1;
      int x = s[PAD(ai)];
      s[PAD(ai)] = s[PAD(bi)];
      s[PAD(bi)] += x;
    }
  }
  __syncthreads();
  if (base + a < n) out[base + a] = s[PAD(a)];
  if (base + b < n) out[base + b] = s[PAD(b)];
}
__global__ void add_offsets(int* out, const int* offs, int n) {
  int i = blockIdx.x * B + threadIdx.x;
  if (i < n) out[i] += offs[blockIdx.x];
  if (i + B / 2 < n && threadIdx.x + B / 2 < B) out[i + B / 2] += offs[blockIdx.x];
}

// exclusive scan of n elements in place (d_out), recursing on block sums
void scan(const int* d_in, int* d_out, int n) {
  int blocks = (n + B - 1) / B;
  int *sums, *sums_scanned;
  CHECK(cudaMalloc(&sums, blocks * 4));
  CHECK(cudaMalloc(&sums_scanned, blocks * 4));
  scan_block<<<blocks, B / 2>>>(d_in, d_out, sums, n);
  CHECK(cudaGetLastError());
  if (blocks > 1) {
    scan(sums, sums_scanned, blocks);
    add_offsets<<<blocks, B / 2>>>(d_out, sums_scanned, n);
    CHECK(cudaGetLastError());
  }
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(sums));
  CHECK(cudaFree(sums_scanned));
}

int main() {
  const int n = 40009;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = (int)((i * 7919u) % 13) - 4;
  int *d, *o;
  CHECK(cudaMalloc(&d, n * 4)); CHECK(cudaMalloc(&o, n * 4));
  CHECK(cudaMemcpy(d, h.data(), n * 4, cudaMemcpyHostToDevice));
  scan(d, o, n);
  std::vector<int> r(n);
  CHECK(cudaMemcpy(r.data(), o, n * 4, cudaMemcpyDeviceToHost));
  long long acc = 0;
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ((long long)r[i], acc, "exclusive scan", i);
    acc += h[i];
  }
  return wf::finish();
}

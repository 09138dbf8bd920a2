// WF-CHAPTER: memory
// WF-FEATURES: mem.shared.bank_conflicts, mem.shared.broadcast, mem.shared.static, mem.shared.subword
// WF-DESCRIPTION: shared-memory access patterns that conflict or not (strides 1..33 words, 64-bit words, broadcast, bytes); results must not depend on the pattern
#include "../common/check.h"
#include <vector>

#define WORDS 2048
// Each thread reads and writes with a stride; every pattern is a permutation inside the block
// except broadcast, so results are exact.
__global__ void strided(const int* in, int* out, int stride) {
  __shared__ int s[WORDS];
  for (int i = threadIdx.x; i < WORDS; i += blockDim.x) s[i] = in[i];
  __syncthreads();
  // thread t of each pass touches word (t * stride) mod WORDS (odd stride => permutation of 0..WORDS-1
  // only when gcd(stride, WORDS) == 1; even strides revisit words, reads only)
  int acc = 0;
  for (int pass = 0; pass < 4; ++pass) {
    int idx = ((threadIdx.x + pass * blockDim.x) * stride) % WORDS;
    acc += s[idx] * (pass + 1);
  }
  __syncthreads();
  // write back through a conflicting pattern (stride 32 within each warp) then read linearly
  int w = (threadIdx.x % 32) * 32 + threadIdx.x / 32;  // column-major over a 32x(blockDim/32) tile
  s[w] = acc;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x + 0] + s[w] + s[0] /* broadcast */;
}

__global__ void wide_and_bytes(const double* in, double* out, unsigned char* bytes_out) {
  __shared__ double d[64 * 2];
  __shared__ unsigned char b[256];
  int t = threadIdx.x;  // 64 threads
  d[t * 2] = in[t];      // stride-2 doubles
  d[t * 2 + 1] = -in[t];
  for (int i = t; i < 256; i += 64) b[i] = (unsigned char)(i * 5);
  __syncthreads();
  out[t] = d[((t * 17) % 64) * 2] + d[((t * 3) % 64) * 2 + 1];
  // each thread updates 4 adjacent bytes individually (sub-word stores into one bank word)
  for (int k = 0; k < 4; ++k) b[t * 4 + k] = (unsigned char)(b[t * 4 + k] + k + t);
  __syncthreads();
  for (int i = t; i < 256; i += 64) bytes_out[i] = b[255 - i];
}

int main() {
  std::vector<int> h(WORDS);
  for (int i = 0; i < WORDS; ++i) h[i] = i * 3 + 7;
  int *din, *dout;
  CHECK(cudaMalloc(&din, WORDS * sizeof(int)));
  CHECK(cudaMalloc(&dout, 512 * sizeof(int)));
  CHECK(cudaMemcpy(din, h.data(), WORDS * sizeof(int), cudaMemcpyHostToDevice));
  const int strides[] = {1, 2, 3, 4, 8, 16, 17, 32, 33, 64};
  const int threads = 512;
  for (int stride : strides) {
    strided<<<1, threads>>>(din, dout, stride);
    CHECK_KERNEL();
    std::vector<int> o(threads), acc(threads), s(h);
    CHECK(cudaMemcpy(o.data(), dout, threads * sizeof(int), cudaMemcpyDeviceToHost));
    for (int t = 0; t < threads; ++t) {
      int a = 0;
      for (int pass = 0; pass < 4; ++pass) a += h[((t + pass * threads) * stride) % WORDS] * (pass + 1);
      acc[t] = a;
    }
    for (int t = 0; t < threads; ++t) s[(t % 32) * 32 + t / 32] = acc[t];
    for (int t = 0; t < threads; ++t) {
      int w = (t % 32) * 32 + t / 32;
      EXPECT_EQ(o[t], s[t] + s[w] + s[0], "strided pattern", stride * 10000 + t);
    }
  }
  std::vector<double> hd(64);
  for (int i = 0; i < 64; ++i) hd[i] = i * 1.5 - 20;
  double *dd, *dd2;
  unsigned char* db;
  CHECK(cudaMalloc(&dd, 64 * sizeof(double)));
  CHECK(cudaMalloc(&dd2, 64 * sizeof(double)));
  CHECK(cudaMalloc(&db, 256));
  CHECK(cudaMemcpy(dd, hd.data(), 64 * sizeof(double), cudaMemcpyHostToDevice));
  wide_and_bytes<<<1, 64>>>(dd, dd2, db);
  CHECK_KERNEL();
  std::vector<double> od(64);
  std::vector<unsigned char> ob(256);
  CHECK(cudaMemcpy(od.data(), dd2, 64 * sizeof(double), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ob.data(), db, 256, cudaMemcpyDeviceToHost));
  for (int t = 0; t < 64; ++t) EXPECT_EQ(od[t], hd[(t * 17) % 64] - hd[(t * 3) % 64], "double stride", t);
  std::vector<unsigned char> b(256);
  for (int i = 0; i < 256; ++i) b[i] = (unsigned char)(i * 5);
  for (int t = 0; t < 64; ++t)
    for (int k = 0; k < 4; ++k) b[t * 4 + k] = (unsigned char)(b[t * 4 + k] + k + t);
  for (int i = 0; i < 256; ++i) EXPECT_EQ(ob[i], b[255 - i], "bytes", i);
  CHECK(cudaFree(din)); CHECK(cudaFree(dout)); CHECK(cudaFree(dd)); CHECK(cudaFree(dd2)); CHECK(cudaFree(db));
  return wf::finish();
}

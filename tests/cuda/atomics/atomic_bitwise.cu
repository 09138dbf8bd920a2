// WF-CHAPTER: atomics
// WF-FEATURES: atomics.and.int.global, atomics.and.int.shared, atomics.and.uint.global, atomics.and.uint.shared, atomics.and.ull.global, atomics.and.ull.shared, atomics.or.int.global, atomics.or.int.shared, atomics.or.uint.global, atomics.or.uint.shared, atomics.or.ull.global, atomics.or.ull.shared, atomics.xor.int.global, atomics.xor.int.shared, atomics.xor.uint.global, atomics.xor.uint.shared, atomics.xor.ull.global, atomics.xor.ull.shared, atomics.return_old
// WF-DESCRIPTION: atomicAnd/atomicOr/atomicXor on int, unsigned and unsigned long long, each in global and in shared memory, with every thread of several blocks clearing/setting/toggling bits of the same words; returned old values checked through the toggle parity
#include "../common/check.h"
#include <vector>

template <class T> __host__ __device__ T and_mask(int t) { return ~((T)1 << (t % (8 * sizeof(T) - 1))); }
template <class T> __host__ __device__ T or_mask(int t) { return (T)(1ull << ((t * 7) % (8 * sizeof(T)))); }
template <class T> __host__ __device__ T xor_mask(int t) { return (T)((unsigned long long)t * 0x9E3779B97F4A7C15ull >> 3); }

// g: 3 words in global memory (and, or, xor); sh_out: the block's shared results; parity: count of odd old values of a toggled word
template <class T>
__device__ void bitwise(T* g, T* sh_out, int* parity, T init_and, T init_or, T init_xor) {
  __shared__ T s[4];
  int t = threadIdx.x, gt = blockIdx.x * blockDim.x + t;
  if (t == 0) { s[0] = init_and; s[1] = init_or; s[2] = init_xor; s[3] = 0; }
  __syncthreads();
  atomicAnd(&g[0], and_mask<T>(gt));
  atomicOr(&g[1], or_mask<T>(gt));
  atomicXor(&g[2], xor_mask<T>(gt));
  atomicAnd(&s[0], and_mask<T>(t));
  atomicOr(&s[1], or_mask<T>(t));
  atomicXor(&s[2], xor_mask<T>(t));
  T old = atomicXor(&s[3], (T)1);  // toggles: exactly half the old values are odd
  atomicAdd(parity, (int)(old & 1));
  __syncthreads();
  if (t < 3) sh_out[blockIdx.x * 3 + t] = s[t];
}

__global__ void all_types(int* gi, unsigned* gu, unsigned long long* gl, int* si, unsigned* su, unsigned long long* sl, int* parity) {
  bitwise<int>(gi, si, parity + 0, -1, 0, 0x12345678);
  bitwise<unsigned>(gu, su, parity + 1, 0xffffffffu, 0x80000000u, 0);
  bitwise<unsigned long long>(gl, sl, parity + 2, ~0ull, 1ull << 63, 0xdeadbeefcafef00dull);
}

template <class T>
void check(const char* tname, const T* g, const std::vector<T>& s, int blocks, int threads, T init_and, T init_or, T init_xor) {
  T a = init_and, o = init_or, x = init_xor;  // global words start from the same values
  for (int gt = 0; gt < blocks * threads; ++gt) { a &= and_mask<T>(gt); o |= or_mask<T>(gt); x ^= xor_mask<T>(gt); }
  char what[64];
  snprintf(what, sizeof what, "atomicAnd global %s", tname); EXPECT_EQ(g[0], a, what, 0);
  snprintf(what, sizeof what, "atomicOr global %s", tname); EXPECT_EQ(g[1], o, what, 0);
  snprintf(what, sizeof what, "atomicXor global %s", tname); EXPECT_EQ(g[2], x, what, 0);
  T sa = init_and, so = init_or, sx = init_xor;
  for (int t = 0; t < threads; ++t) { sa &= and_mask<T>(t); so |= or_mask<T>(t); sx ^= xor_mask<T>(t); }
  for (int b = 0; b < blocks; ++b) {
    snprintf(what, sizeof what, "atomicAnd shared %s", tname); EXPECT_EQ(s[b * 3 + 0], sa, what, b);
    snprintf(what, sizeof what, "atomicOr shared %s", tname); EXPECT_EQ(s[b * 3 + 1], so, what, b);
    snprintf(what, sizeof what, "atomicXor shared %s", tname); EXPECT_EQ(s[b * 3 + 2], sx, what, b);
  }
}

int main() {
  const int blocks = 5, threads = 96;
  int *gi, *si, *par; unsigned *gu, *su; unsigned long long *gl, *sl;
  CHECK(cudaMalloc(&gi, 12)); CHECK(cudaMalloc(&gu, 12)); CHECK(cudaMalloc(&gl, 24));
  CHECK(cudaMalloc(&si, blocks * 12)); CHECK(cudaMalloc(&su, blocks * 12)); CHECK(cudaMalloc(&sl, blocks * 24)); CHECK(cudaMalloc(&par, 12));
  int hi[3] = {-1, 0, 0x12345678}; unsigned hu[3] = {0xffffffffu, 0x80000000u, 0}; unsigned long long hl[3] = {~0ull, 1ull << 63, 0xdeadbeefcafef00dull};
  CHECK(cudaMemcpy(gi, hi, 12, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(gu, hu, 12, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(gl, hl, 24, cudaMemcpyHostToDevice)); CHECK(cudaMemset(par, 0, 12));
  all_types<<<blocks, threads>>>(gi, gu, gl, si, su, sl, par);
  CHECK_KERNEL();
  std::vector<int> rsi(blocks * 3); std::vector<unsigned> rsu(blocks * 3); std::vector<unsigned long long> rsl(blocks * 3);
  int hp[3];
  CHECK(cudaMemcpy(hi, gi, 12, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(hu, gu, 12, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hl, gl, 24, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(hp, par, 12, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(rsi.data(), si, blocks * 12, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(rsu.data(), su, blocks * 12, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(rsl.data(), sl, blocks * 24, cudaMemcpyDeviceToHost));
  check<int>("int", hi, rsi, blocks, threads, -1, 0, 0x12345678);
  check<unsigned>("unsigned", hu, rsu, blocks, threads, 0xffffffffu, 0x80000000u, 0);
  check<unsigned long long>("unsigned long long", hl, rsl, blocks, threads, ~0ull, 1ull << 63, 0xdeadbeefcafef00dull);
  for (int k = 0; k < 3; ++k) EXPECT_EQ(hp[k], blocks * threads / 2, "old values of a toggled word", k);
  return wf::finish();
}

// WF-CHAPTER: memory
// WF-FEATURES: mem.global.rw, mem.global.subword, arith.int.sign_extension, rt.memory.malloc_memcpy
// WF-DESCRIPTION: global loads and stores of every scalar width (8/16/32/64-bit, signed and unsigned, float, double, bool), with sign/zero extension and wraparound
#include "../common/check.h"
#include <vector>

template <class T>
__global__ void transform(const T* in, T* out, long long* widened, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    T v = in[i];
    out[i] = (T)(v * (T)3 + (T)1);
    widened[i] = (long long)v;  // sign or zero extension by type
  }
}

__global__ void bools(const bool* in, bool* out, int* cnt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = !in[i];
    if (in[i]) atomicAdd(cnt, 1);
  }
}

template <class T>
void run(const char* name, int n) {
  std::vector<T> h(n);
  wf::Rng r(n);
  for (int i = 0; i < n; ++i) h[i] = (T)(r.next64());
  if constexpr (std::is_signed<T>::value && sizeof(T) >= 4)  // keep v*3+1 free of signed overflow
    for (int i = 0; i < n; ++i) h[i] = h[i] / 4;
  if constexpr (std::is_floating_point<T>::value)
    for (int i = 0; i < n; ++i) h[i] = (T)((int)(r.next() % 2001) - 1000) * (T)0.25;
  T *din, *dout;
  long long* dw;
  CHECK(cudaMalloc(&din, n * sizeof(T)));
  CHECK(cudaMalloc(&dout, n * sizeof(T)));
  CHECK(cudaMalloc(&dw, n * sizeof(long long)));
  CHECK(cudaMemcpy(din, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  transform<T><<<(n + 63) / 64, 64>>>(din, dout, dw, n);
  CHECK_KERNEL();
  std::vector<T> o(n);
  std::vector<long long> w(n);
  CHECK(cudaMemcpy(o.data(), dout, n * sizeof(T), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(w.data(), dw, n * sizeof(long long), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(o[i], (T)(h[i] * (T)3 + (T)1), name, i);
    EXPECT_EQ(w[i], (long long)h[i], name, i);
  }
  CHECK(cudaFree(din)); CHECK(cudaFree(dout)); CHECK(cudaFree(dw));
}

int main() {
  run<signed char>("int8", 333);
  run<unsigned char>("uint8", 333);
  run<short>("int16", 257);
  run<unsigned short>("uint16", 257);
  run<int>("int32", 1001);
  run<unsigned>("uint32", 1001);
  run<long long>("int64", 515);
  run<unsigned long long>("uint64", 515);
  run<float>("float", 700);
  run<double>("double", 700);
  const int n = 301;
  std::vector<char> hb(n);
  int expect = 0;
  for (int i = 0; i < n; ++i) { hb[i] = (i * 7 % 5) < 2; expect += hb[i]; }
  bool *bi, *bo;
  int* cnt;
  CHECK(cudaMalloc(&bi, n)); CHECK(cudaMalloc(&bo, n)); CHECK(cudaMalloc(&cnt, sizeof(int)));
  CHECK(cudaMemset(cnt, 0, sizeof(int)));
  CHECK(cudaMemcpy(bi, hb.data(), n, cudaMemcpyHostToDevice));
  bools<<<3, 128>>>(bi, bo, cnt, n);
  CHECK_KERNEL();
  std::vector<char> ob(n);
  int hc;
  CHECK(cudaMemcpy(ob.data(), bo, n, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&hc, cnt, sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) EXPECT_EQ((int)ob[i], hb[i] ? 0 : 1, "bool", i);
  EXPECT_EQ(hc, expect, "bool count", 0);
  CHECK(cudaFree(bi)); CHECK(cudaFree(bo)); CHECK(cudaFree(cnt));
  return wf::finish();
}

// WF-CHAPTER: language
// WF-FEATURES: lang.noinline, lang.forceinline, lang.device_function_calls, lang.struct_return
// WF-DESCRIPTION: __noinline__ and __forceinline__ device functions: real calls with many arguments (spilled to the stack), struct and 64-bit returns, references and pointers to locals, calls inside divergent branches and loops
#include "../common/check.h"
#include <vector>

struct Big { long long a; double b; int c[6]; };

__device__ __noinline__ long long many_args(int a0, int a1, int a2, int a3, int a4, int a5, int a6, int a7, long long a8,
                                            double a9, float a10, int a11, int a12, int a13, int a14, int a15, int a16) {
  return a0 + 2LL * a1 + 3LL * a2 + 4LL * a3 + 5LL * a4 + 6LL * a5 + 7LL * a6 + 8LL * a7 + 9 * a8 + (long long)(a9 * 10) +
         (long long)(a10 * 11) + 12LL * a11 + 13LL * a12 + 14LL * a13 + 15LL * a14 + 16LL * a15 + 17LL * a16;
}
__device__ __noinline__ Big make_big(int s) {
  Big b;
  b.a = (long long)s << 33;
  b.b = s * 0.5;
  for (int i = 0; i < 6; ++i) b.c[i] = s * i;
  return b;
}
__device__ __noinline__ void by_ref(int& x, int* y, Big& b) { x += b.c[5]; *y -= (int)b.b; b.a ^= 0xff; }
__device__ __forceinline__ int fi(int x) { return x * x - 1; }
__device__ __noinline__ int ni_rec_free(int x) { return fi(x) + 1; }

__global__ void calls(int* out, long long* out64, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  long long r = many_args(i, i + 1, i + 2, i + 3, i + 4, i + 5, i + 6, i + 7, (long long)i << 32, i * 0.5, i * 0.25f, -i, -2 * i,
                          3, 4, 5, i % 7);
  Big b = make_big(i);
  int x = i, y = 100;
  by_ref(x, &y, b);
  int z = 0;
  if (i % 3 == 0) z = ni_rec_free(i);       // divergent call
  else for (int k = 0; k < i % 4; ++k) z += fi(k + i);
  out[i * 3 + 0] = x; out[i * 3 + 1] = y; out[i * 3 + 2] = z;
  out64[i * 2 + 0] = r; out64[i * 2 + 1] = b.a;
}

int main() {
  const int n = 200;
  int* d; long long* d64;
  CHECK(cudaMalloc(&d, n * 3 * 4)); CHECK(cudaMalloc(&d64, n * 2 * 8));
  calls<<<(n + 63) / 64, 64>>>(d, d64, n);
  CHECK_KERNEL();
  std::vector<int> h(n * 3);
  std::vector<long long> h64(n * 2);
  CHECK(cudaMemcpy(h.data(), d, h.size() * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h64.data(), d64, h64.size() * 8, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    long long r = i + 2LL * (i + 1) + 3LL * (i + 2) + 4LL * (i + 3) + 5LL * (i + 4) + 6LL * (i + 5) + 7LL * (i + 6) + 8LL * (i + 7) +
                  9 * ((long long)i << 32) + (long long)(i * 0.5 * 10) + (long long)(i * 0.25f * 11) + 12LL * -i + 13LL * (-2 * i) +
                  14LL * 3 + 15LL * 4 + 16LL * 5 + 17LL * (i % 7);
    int z = 0;
    if (i % 3 == 0) z = i * i;
    else for (int k = 0; k < i % 4; ++k) z += (k + i) * (k + i) - 1;
    EXPECT_EQ(h[i * 3 + 0], i + 5 * i, "reference argument", i);
    EXPECT_EQ(h[i * 3 + 1], 100 - (int)(i * 0.5), "pointer argument", i);
    EXPECT_EQ(h[i * 3 + 2], z, "inline/noinline calls", i);
    EXPECT_EQ(h64[i * 2 + 0], r, "17 arguments", i);
    EXPECT_EQ(h64[i * 2 + 1], ((long long)i << 33) ^ 0xff, "struct return and struct reference", i);
  }
  return wf::finish();
}

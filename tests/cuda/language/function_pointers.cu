// WF-CHAPTER: language
// WF-FEATURES: lang.function_pointers, lang.function_pointer_table, mem.symbol.memcpy_from
// WF-DESCRIPTION: device function pointers: a __device__ table of pointers indexed at run time (divergent calls within a warp), pointers passed as kernel arguments after cudaMemcpyFromSymbol, pointers to templated functions
#include "../common/check.h"
#include <vector>

typedef int (*binop)(int, int);
__device__ int add(int a, int b) { return a + b; }
__device__ int sub(int a, int b) { return a - b; }
__device__ int mul(int a, int b) { return a * b; }
__device__ int maxi(int a, int b) { return a > b ? a : b; }
template <int K> __device__ int shl_k(int a, int b) { return (a << K) ^ b; }

__device__ binop table[6] = {add, sub, mul, maxi, shl_k<3>, shl_k<7>};
__device__ binop single = mul;

__global__ void dispatch(const int* a, const int* b, const int* op, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  binop f = table[op[i]];          // different function per lane
  out[i] = f(a[i], b[i]);
}

__global__ void via_argument(binop f, const int* a, const int* b, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = f(a[i], b[i]) + (f == single ? 1 : 0);
}

__device__ int apply_twice(binop f, int x) { return f(f(x, 1), 2); }
__global__ void local_pointer(int* out, int sel) {
  binop f = sel ? &sub : &add;
  out[threadIdx.x] = apply_twice(f, (int)threadIdx.x);
}

int main() {
  const int n = 500;
  std::vector<int> a(n), b(n), op(n);
  for (int i = 0; i < n; ++i) { a[i] = i % 37 - 10; b[i] = (i * 13) % 29 - 7; op[i] = (i * 7 + i / 32) % 6; }
  int *da, *db, *dop, *dout;
  CHECK(cudaMalloc(&da, n * 4)); CHECK(cudaMalloc(&db, n * 4)); CHECK(cudaMalloc(&dop, n * 4)); CHECK(cudaMalloc(&dout, n * 4));
  CHECK(cudaMemcpy(da, a.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dop, op.data(), n * 4, cudaMemcpyHostToDevice));
  dispatch<<<(n + 127) / 128, 128>>>(da, db, dop, dout, n);
  CHECK_KERNEL();
  std::vector<int> h(n);
  CHECK(cudaMemcpy(h.data(), dout, n * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    int x = a[i], y = b[i], w = 0;
    switch (op[i]) {
      case 0: w = x + y; break; case 1: w = x - y; break; case 2: w = x * y; break; case 3: w = x > y ? x : y; break;
      case 4: w = (int)((unsigned)x << 3) ^ y; break; default: w = (int)((unsigned)x << 7) ^ y;
    }
    EXPECT_EQ(h[i], w, "table dispatch", i);
  }
  binop hf;
  CHECK(cudaMemcpyFromSymbol(&hf, single, sizeof(binop)));  // device address of mul, usable only on the device
  via_argument<<<(n + 127) / 128, 128>>>(hf, da, db, dout, n);
  CHECK_KERNEL();
  CHECK(cudaMemcpy(h.data(), dout, n * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) EXPECT_EQ(h[i], a[i] * b[i] + 1, "pointer as kernel argument", i);
  binop t2[6];
  CHECK(cudaMemcpyFromSymbol(t2, table, sizeof(t2)));
  via_argument<<<(n + 127) / 128, 128>>>(t2[3], da, db, dout, n);
  CHECK_KERNEL();
  CHECK(cudaMemcpy(h.data(), dout, n * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) EXPECT_EQ(h[i], a[i] > b[i] ? a[i] : b[i], "table entry as kernel argument", i);
  for (int sel = 0; sel < 2; ++sel) {
    local_pointer<<<1, 32>>>(dout, sel);
    CHECK_KERNEL();
    CHECK(cudaMemcpy(h.data(), dout, 32 * 4, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 32; ++t) EXPECT_EQ(h[t], sel ? t - 3 : t + 3, "address-of function", t);
  }
  return wf::finish();
}

// WF-CHAPTER: language
// WF-FEATURES: lang.lambda.device, lang.lambda.capture, lang.lambda.generic, lang.templates
// WF-DESCRIPTION: lambdas defined inside kernels and device functions: captures by value and by reference, mutable lambdas, generic (auto) lambdas, lambdas passed to device function templates, immediately invoked and recursive-through-parameter lambdas
#include "../common/check.h"
#include <algorithm>
#include <vector>

template <class F> __device__ int apply_n(F f, int x, int n) { for (int i = 0; i < n; ++i) x = f(x); return x; }
template <class T, class Op> __device__ T reduce3(T a, T b, T c, Op op) { return op(op(a, b), c); }

__global__ void lambdas(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = in[i], acc = 0;
  auto add_v = [v](int x) { return x + v; };                 // by value
  auto accumulate = [&acc](int x) { acc += x; };              // by reference
  auto counter = [c = 0]() mutable { return ++c; };           // init-capture, mutable
  auto generic = [](auto a, auto b) { return a * b; };        // generic lambda
  int r0 = apply_n(add_v, 1, 3);                              // 1 + 3v
  accumulate(v); accumulate(2 * v);
  counter(); counter();
  int r1 = counter();                                          // 3
  double r2 = generic(1.5, (double)v) + generic(2, v);         // double and int instantiations
  int r3 = reduce3(v, 7, -2, [](int a, int b) { return a > b ? a : b; });
  int r4 = [&]() { return acc * 10 + r1; }();                  // immediately invoked
  auto fact = [](auto self, int k) -> int { return k <= 1 ? 1 : k * self(self, k - 1); };
  int r5 = fact(fact, (v % 6) + 1);
  out[i * 6 + 0] = r0; out[i * 6 + 1] = acc; out[i * 6 + 2] = (int)(r2 * 2);
  out[i * 6 + 3] = r3; out[i * 6 + 4] = r4; out[i * 6 + 5] = r5;
}

int main() {
  const int n = 200;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = i % 17 - 5;
  int *d, *o;
  CHECK(cudaMalloc(&d, n * 4)); CHECK(cudaMalloc(&o, n * 6 * 4));
  CHECK(cudaMemcpy(d, in.data(), n * 4, cudaMemcpyHostToDevice));
  lambdas<<<(n + 63) / 64, 64>>>(d, o, n);
  CHECK_KERNEL();
  std::vector<int> h(n * 6);
  CHECK(cudaMemcpy(h.data(), o, h.size() * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    int v = in[i], acc = 3 * v, f = 1;
    for (int k = 2; k <= (v % 6) + 1; ++k) f *= k;
    if ((v % 6) + 1 <= 1) f = 1;
    EXPECT_EQ(h[i * 6 + 0], 1 + 3 * v, "capture by value", i);
    EXPECT_EQ(h[i * 6 + 1], acc, "capture by reference", i);
    EXPECT_EQ(h[i * 6 + 2], (int)((1.5 * v + 2 * v) * 2), "generic lambda", i);
    EXPECT_EQ(h[i * 6 + 3], std::max(std::max(v, 7), -2), "lambda as template argument", i);
    EXPECT_EQ(h[i * 6 + 4], acc * 10 + 3, "mutable counter + immediately invoked", i);
    EXPECT_EQ(h[i * 6 + 5], f, "self-recursive generic lambda", i);
  }
  return wf::finish();
}

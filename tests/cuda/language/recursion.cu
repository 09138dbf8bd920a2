// WF-CHAPTER: language
// WF-FEATURES: lang.recursion, lang.call_stack, rt.limit.stack_size
// WF-DESCRIPTION: recursive device functions with per-thread depth: Fibonacci, Ackermann A(2..3, n), recursive quicksort of a per-thread local array, mutual recursion; the stack limit raised with cudaDeviceSetLimit(cudaLimitStackSize)
#include "../common/check.h"
#include <algorithm>
#include <vector>

__device__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ int ack(int m, int n) {
  if (m == 0) return n + 1;
  if (n == 0) return ack(m - 1, 1);
  return ack(m - 1, ack(m, n - 1));
}
__device__ bool is_odd(int n);
__device__ bool is_even(int n) { return n == 0 ? true : is_odd(n - 1); }
__device__ bool is_odd(int n) { return n == 0 ? false : is_even(n - 1); }
__device__ void quicksort(int* a, int lo, int hi) {
  if (lo >= hi) return;
  int p = a[(lo + hi) / 2], i = lo, j = hi;
  while (i <= j) {
    while (a[i] < p) ++i;
    while (a[j] > p) --j;
    if (i <= j) { int t = a[i]; a[i] = a[j]; a[j] = t; ++i; --j; }
  }
  quicksort(a, lo, j);
  quicksort(a, i, hi);
}

__global__ void recurse(const int* seeds, int* out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  int s = seeds[t];
  int arr[16];
  for (int k = 0; k < 16; ++k) arr[k] = (s * (k + 3) * 2654435761u) >> 20;
  quicksort(arr, 0, 15);
  int* o = out + t * 20;
  o[0] = fib(t % 16);
  o[1] = ack(2 + t % 2, t % 5);
  o[2] = is_even(t % 40);
  o[3] = 0;
  for (int k = 0; k < 16; ++k) o[4 + k] = arr[k];
}

static int hfib(int n) { return n < 2 ? n : hfib(n - 1) + hfib(n - 2); }
static int hack(int m, int n) { return m == 0 ? n + 1 : n == 0 ? hack(m - 1, 1) : hack(m - 1, hack(m, n - 1)); }

int main() {
  size_t stack = 0;
  CHECK(cudaDeviceSetLimit(cudaLimitStackSize, 16 * 1024));
  CHECK(cudaDeviceGetLimit(&stack, cudaLimitStackSize));
  EXPECT_TRUE(stack >= 16 * 1024, "stack limit raised");
  const int n = 64;
  std::vector<int> seeds(n);
  for (int i = 0; i < n; ++i) seeds[i] = i * 31 + 7;
  int *ds, *d;
  CHECK(cudaMalloc(&ds, n * 4)); CHECK(cudaMalloc(&d, n * 20 * 4));
  CHECK(cudaMemcpy(ds, seeds.data(), n * 4, cudaMemcpyHostToDevice));
  recurse<<<2, 32>>>(ds, d, n);
  CHECK_KERNEL();
  std::vector<int> h(n * 20);
  CHECK(cudaMemcpy(h.data(), d, h.size() * 4, cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; ++t) {
    const int* o = &h[t * 20];
    EXPECT_EQ(o[0], hfib(t % 16), "fib", t);
    EXPECT_EQ(o[1], hack(2 + t % 2, t % 5), "ackermann", t);
    EXPECT_EQ(o[2], (t % 40) % 2 == 0 ? 1 : 0, "mutual recursion", t);
    std::vector<int> arr(16);
    for (int k = 0; k < 16; ++k) arr[k] = (int)(((unsigned)seeds[t] * (k + 3) * 2654435761u) >> 20);
    std::sort(arr.begin(), arr.end());
    for (int k = 0; k < 16; ++k) EXPECT_EQ(o[4 + k], arr[k], "recursive quicksort", t * 16 + k);
  }
  return wf::finish();
}

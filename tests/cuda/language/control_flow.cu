// WF-CHAPTER: language
// WF-FEATURES: lang.control_flow, lang.switch_jump_table, lang.goto, th.simt.divergent_loops
// WF-DESCRIPTION: control flow the compiler must lower faithfully per thread: dense switch (jump table) and sparse switch, goto, break/continue in nested loops, do-while, short-circuit evaluation with side effects, ternaries, early return from nested loops
#include "../common/check.h"
#include <vector>

__device__ int dense_switch(int v) {
  switch (v & 15) {
    case 0: return 11; case 1: return 23; case 2: return -4; case 3: return 99; case 4: return 7; case 5: return 1000;
    case 6: return -77; case 7: return 5; case 8: return 64; case 9: return 3; case 10: return -1; case 11: return 42;
    case 12: return 8; case 13: return 13; case 14: return 21; default: return 34;
  }
}
__device__ int sparse_switch(int v) {
  switch (v) { case -1000: return 1; case 7: return 2; case 4096: return 3; case 123456: return 4; default: return 0; }
}
__device__ int with_goto(int v) {
  int steps = 0;
again:
  if (v <= 1) goto done;
  v = (v & 1) ? 3 * v + 1 : v / 2;
  if (++steps > 500) goto done;
  goto again;
done:
  return steps;
}
__device__ int find_pair(const int* a, int n, int target) {
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      if (a[i] + a[j] == target) return i * 100 + j;  // early return from a nested loop
      if (a[j] < 0) break;
      if ((a[i] ^ a[j]) & 1) continue;
    }
  return -1;
}
__device__ int side = 0;

__global__ void flow(const int* in, int* out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  int v = in[t];
  int counter = 0;
  auto bump = [&](bool r) { ++counter; return r; };
  bool sc = (v > 0 && bump(v % 2 == 0)) || bump(v < -5);  // short-circuit: bump called 0, 1 or 2 times
  int dw = 0, k = v & 7;
  do { dw += k; --k; } while (k > 0);
  int local[8] = {v, v - 3, -v, v * 2, 5, v + 7, -2, v % 5};
  out[t * 8 + 0] = dense_switch(v);
  out[t * 8 + 1] = sparse_switch(v % 2 ? v : (t % 5 == 0 ? 4096 : v));
  out[t * 8 + 2] = with_goto(v > 0 ? v : -v);
  out[t * 8 + 3] = find_pair(local, 8, v % 3);
  out[t * 8 + 4] = sc * 10 + counter;
  out[t * 8 + 5] = dw;
  out[t * 8 + 6] = v > 100 ? 1 : v > 0 ? 2 : v == 0 ? 3 : 4;
  out[t * 8 + 7] = 0;
}

static int h_dense(int v) {
  static const int tab[16] = {11, 23, -4, 99, 7, 1000, -77, 5, 64, 3, -1, 42, 8, 13, 21, 34};
  return tab[v & 15];
}
static int h_sparse(int v) { return v == -1000 ? 1 : v == 7 ? 2 : v == 4096 ? 3 : v == 123456 ? 4 : 0; }
static int h_goto(int v) { int s = 0; while (v > 1 && s <= 500) { v = (v & 1) ? 3 * v + 1 : v / 2; ++s; } return s; }
static int h_find(const int* a, int n, int target) {
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      if (a[i] + a[j] == target) return i * 100 + j;
      if (a[j] < 0) break;
      if ((a[i] ^ a[j]) & 1) continue;
    }
  return -1;
}

int main() {
  std::vector<int> in = {-1000, 7, 123456, 0, 1, -1, 27, -6, 100, 101};
  wf::Rng r(6);
  for (int k = 0; k < 400; ++k) in.push_back(r.range(-300, 300));
  int n = (int)in.size();
  int *d, *o;
  CHECK(cudaMalloc(&d, n * 4)); CHECK(cudaMalloc(&o, n * 8 * 4));
  CHECK(cudaMemcpy(d, in.data(), n * 4, cudaMemcpyHostToDevice));
  flow<<<(n + 63) / 64, 64>>>(d, o, n);
  CHECK_KERNEL();
  std::vector<int> h(n * 8);
  CHECK(cudaMemcpy(h.data(), o, h.size() * 4, cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; ++t) {
    int v = in[t], counter = 0;
    bool sc;
    if (v > 0) { ++counter; sc = v % 2 == 0; } else sc = false;
    if (!sc) { ++counter; sc = v < -5; }
    int dw = 0, k = v & 7;
    do { dw += k; --k; } while (k > 0);
    int local[8] = {v, v - 3, -v, v * 2, 5, v + 7, -2, v % 5};
    EXPECT_EQ(h[t * 8 + 0], h_dense(v), "dense switch", t);
    EXPECT_EQ(h[t * 8 + 1], h_sparse(v % 2 ? v : (t % 5 == 0 ? 4096 : v)), "sparse switch", t);
    EXPECT_EQ(h[t * 8 + 2], h_goto(v > 0 ? v : -v), "goto loop", t);
    EXPECT_EQ(h[t * 8 + 3], h_find(local, 8, v % 3), "nested loops with break/continue/return", t);
    EXPECT_EQ(h[t * 8 + 4], sc * 10 + counter, "short-circuit side effects", t);
    EXPECT_EQ(h[t * 8 + 5], dw, "do-while", t);
    EXPECT_EQ(h[t * 8 + 6], v > 100 ? 1 : v > 0 ? 2 : v == 0 ? 3 : 4, "nested ternary", t);
  }
  return wf::finish();
}

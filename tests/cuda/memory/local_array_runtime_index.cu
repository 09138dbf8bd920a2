// WF-CHAPTER: memory
// WF-FEATURES: mem.local.array_dynamic_index, mem.local.large_struct
// WF-DESCRIPTION: per-thread local arrays indexed with run-time values (forces local memory): private histograms, bubble sort, struct arrays
#include "../common/check.h"
#include <algorithm>
#include <vector>

struct Rec { int key; float w; char tag; };

__global__ void local_work(const int* in, int* out_sorted, int* out_hist, float* out_w, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  int a[24];
  int hist[16];
  Rec recs[8];
  for (int i = 0; i < 16; ++i) hist[i] = 0;
  for (int i = 0; i < 24; ++i) {
    a[i] = in[t * 24 + i];
    hist[a[i] & 15]++;  // run-time index
  }
  // bubble sort with data-dependent swaps
  for (int i = 0; i < 24; ++i)
    for (int j = 0; j + 1 < 24 - i; ++j)
      if (a[j] > a[j + 1]) { int x = a[j]; a[j] = a[j + 1]; a[j + 1] = x; }
  for (int i = 0; i < 8; ++i) recs[i] = Rec{a[i], a[i] * 0.5f, (char)i};
  int k = in[t * 24] & 7;  // run-time selection
  float w = 0;
  for (int i = 0; i < 8; ++i) w += recs[(k + i) & 7].w * recs[(k * i) & 7].tag;
  for (int i = 0; i < 24; ++i) out_sorted[t * 24 + i] = a[i];
  for (int i = 0; i < 16; ++i) out_hist[t * 16 + i] = hist[i];
  out_w[t] = w;
}

int main() {
  const int n = 200;
  std::vector<int> in(n * 24);
  wf::Rng r(7);
  for (auto& x : in) x = (int)(r.next() % 1000) - 500;
  int *din, *ds, *dh;
  float* dw;
  CHECK(cudaMalloc(&din, in.size() * sizeof(int)));
  CHECK(cudaMalloc(&ds, in.size() * sizeof(int)));
  CHECK(cudaMalloc(&dh, n * 16 * sizeof(int)));
  CHECK(cudaMalloc(&dw, n * sizeof(float)));
  CHECK(cudaMemcpy(din, in.data(), in.size() * sizeof(int), cudaMemcpyHostToDevice));
  local_work<<<(n + 63) / 64, 64>>>(din, ds, dh, dw, n);
  CHECK_KERNEL();
  std::vector<int> s(in.size()), h(n * 16);
  std::vector<float> w(n);
  CHECK(cudaMemcpy(s.data(), ds, s.size() * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h.data(), dh, h.size() * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(w.data(), dw, w.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; ++t) {
    std::vector<int> a(in.begin() + t * 24, in.begin() + t * 24 + 24);
    int hist[16] = {0};
    for (int v : a) hist[v & 15]++;
    std::sort(a.begin(), a.end());
    for (int i = 0; i < 24; ++i) EXPECT_EQ(s[t * 24 + i], a[i], "sorted", t * 24 + i);
    for (int i = 0; i < 16; ++i) EXPECT_EQ(h[t * 16 + i], hist[i], "hist", t * 16 + i);
    int k = in[t * 24] & 7;
    float ww = 0;
    for (int i = 0; i < 8; ++i) ww += a[(k + i) & 7] * 0.5f * (float)((k * i) & 7);
    EXPECT_EQ(w[t], ww, "struct array", t);
  }
  CHECK(cudaFree(din)); CHECK(cudaFree(ds)); CHECK(cudaFree(dh)); CHECK(cudaFree(dw));
  return wf::finish();
}

// WF-CHAPTER: apps
// WF-FEATURES: app.thrust.scan
// WF-DESCRIPTION: Thrust from the CUDA toolkit: thrust::inclusive_scan (sum) and thrust::exclusive_scan (sum, initial value 7) of 200003 ints, checked against a sequential host prefix sum
#include "../common/check.h"
#include <thrust/device_vector.h>
#include <thrust/scan.h>

#include <vector>

int main() {
  const int n = 200003;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = (int)((i * 2654435761u) >> 22) - 512;
  thrust::device_vector<int> d(h.begin(), h.end());
  thrust::device_vector<int> out(n);

  thrust::inclusive_scan(d.begin(), d.end(), out.begin());
  CHECK_KERNEL();
  std::vector<int> got(n);
  thrust::copy(out.begin(), out.end(), got.begin());
  int run = 0;
  for (int i = 0; i < n; ++i) { run += h[i]; EXPECT_EQ(got[i], run, "inclusive_scan", i); }

  thrust::exclusive_scan(d.begin(), d.end(), out.begin(), 7);
  CHECK_KERNEL();
  thrust::copy(out.begin(), out.end(), got.begin());
  run = 7;
  for (int i = 0; i < n; ++i) { EXPECT_EQ(got[i], run, "exclusive_scan", i); run += h[i]; }
  return wf::finish();
}

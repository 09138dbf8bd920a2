// WF-CHAPTER: apps
// WF-FEATURES: app.thrust.sort, app.thrust.sort_by_key
// WF-DESCRIPTION: Thrust from the CUDA toolkit: thrust::sort of 100003 signed ints (radix sort through CUB) and thrust::sort_by_key of 50021 unsigned keys carrying int values, checked against std::sort and std::stable_sort on the host
#include "../common/check.h"
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>

#include <algorithm>
#include <numeric>
#include <vector>

int main() {
  // Keys spread over the whole int range, negatives included, with repeats.
  const int n = 100003;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = (int)(i * 2654435761u) >> (i % 3 == 0 ? 8 : 0);
  thrust::device_vector<int> d(h.begin(), h.end());
  thrust::sort(d.begin(), d.end());
  CHECK_KERNEL();
  std::vector<int> got(n);
  thrust::copy(d.begin(), d.end(), got.begin());
  std::vector<int> want = h;
  std::sort(want.begin(), want.end());
  for (int i = 0; i < n; ++i) EXPECT_EQ(got[i], want[i], "thrust::sort", i);

  // Key-value sort: Thrust's sort_by_key is stable, so equal keys keep their values' input order.
  const int m = 50021;
  std::vector<unsigned> hk(m);
  std::vector<int> hv(m);
  for (int i = 0; i < m; ++i) { hk[i] = (i * 40503u) % 997u; hv[i] = i; }
  thrust::device_vector<unsigned> dk(hk.begin(), hk.end());
  thrust::device_vector<int> dv(hv.begin(), hv.end());
  thrust::sort_by_key(dk.begin(), dk.end(), dv.begin());
  CHECK_KERNEL();
  std::vector<unsigned> gk(m);
  std::vector<int> gv(m);
  thrust::copy(dk.begin(), dk.end(), gk.begin());
  thrust::copy(dv.begin(), dv.end(), gv.begin());
  std::vector<int> order(m);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return hk[a] < hk[b]; });
  for (int i = 0; i < m; ++i) {
    EXPECT_EQ(gk[i], hk[order[i]], "sort_by_key key", i);
    EXPECT_EQ(gv[i], hv[order[i]], "sort_by_key value", i);
  }
  return wf::finish();
}

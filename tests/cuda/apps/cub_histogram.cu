// WF-CHAPTER: apps
// WF-FEATURES: app.cub.histogram
// WF-DESCRIPTION: CUB from the CUDA toolkit: cub::DeviceHistogram::HistogramEven of 300007 floats into 64 even bins over [-1, 1) (samples outside the range dropped) and of 100003 unsigned chars into 256 bins, checked against host counts
#include "../common/check.h"
#include <cub/device/device_histogram.cuh>

#include <vector>

template <typename Sample, typename Level>
static void run_histogram(const std::vector<Sample>& h, int bins, Level lower, Level upper,
                          const std::vector<int>& want, const char* what) {
  const int n = (int)h.size();
  Sample* d_samples;
  int* d_hist;
  CHECK(cudaMalloc(&d_samples, n * sizeof(Sample)));
  CHECK(cudaMalloc(&d_hist, bins * sizeof(int)));
  CHECK(cudaMemcpy(d_samples, h.data(), n * sizeof(Sample), cudaMemcpyHostToDevice));
  void* temp = nullptr;
  size_t temp_bytes = 0;
  // HistogramEven takes the number of level boundaries: bins + 1.
  CHECK(cub::DeviceHistogram::HistogramEven(temp, temp_bytes, d_samples, d_hist, bins + 1, lower,
                                            upper, n));
  CHECK(cudaMalloc(&temp, temp_bytes));
  CHECK(cub::DeviceHistogram::HistogramEven(temp, temp_bytes, d_samples, d_hist, bins + 1, lower,
                                            upper, n));
  CHECK_KERNEL();
  std::vector<int> got(bins);
  CHECK(cudaMemcpy(got.data(), d_hist, bins * sizeof(int), cudaMemcpyDeviceToHost));
  for (int b = 0; b < bins; ++b) EXPECT_EQ(got[b], want[b], what, b);
  CHECK(cudaFree(temp)); CHECK(cudaFree(d_samples)); CHECK(cudaFree(d_hist));
}

int main() {
  // Floats on a grid of 1/128 in [-1.25, 1.25): bin boundaries (multiples of 1/32) are exact, so
  // the host's bin of each sample is the device's.
  const int n = 300007, bins = 64;
  std::vector<float> h(n);
  std::vector<int> want(bins, 0);
  for (int i = 0; i < n; ++i) {
    int step = (int)((i * 2654435761u) >> 8) % 320;
    h[i] = (float)(step - 160) / 128.0f;
    if (h[i] >= -1.0f && h[i] < 1.0f) ++want[(int)((h[i] + 1.0f) * 32.0f)];
  }
  run_histogram<float, float>(h, bins, -1.0f, 1.0f, want, "HistogramEven float");

  const int m = 100003;
  std::vector<unsigned char> hb(m);
  std::vector<int> want8(256, 0);
  for (int i = 0; i < m; ++i) { hb[i] = (unsigned char)((i * 2654435761u) >> 24); ++want8[hb[i]]; }
  run_histogram<unsigned char, int>(hb, 256, 0, 256, want8, "HistogramEven uchar");
  return wf::finish();
}

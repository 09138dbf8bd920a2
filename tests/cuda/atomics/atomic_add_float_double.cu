// WF-CHAPTER: atomics
// WF-FEATURES: atomics.add.float.global, atomics.add.float.shared, atomics.add.double.global, atomics.add.double.shared, atomics.return_old
// WF-DESCRIPTION: atomicAdd on float and double in global and shared memory under contention; addends chosen so every order of summation is exact, so the result is order-independent
#include "../common/check.h"
#include <algorithm>
#include <vector>

__global__ void fadd(float* gf, double* gd, float* old_f, float* shared_out, double* shared_outd) {
  __shared__ float sf[2];
  __shared__ double sd[2];
  int t = threadIdx.x, gt = blockIdx.x * blockDim.x + t;
  if (t < 2) { sf[t] = 0.0f; sd[t] = 0.0; }
  __syncthreads();
  // multiples of 1/4 with partial sums below 2^22: exact in float, so any order gives one answer
  float a = (float)((gt % 7) - 3) * 0.25f;
  atomicAdd(&gf[0], a);
  old_f[gt] = atomicAdd(&gf[1], 1.0f);  // returns old: 0,1,2,... in some order
  atomicAdd(&sf[t & 1], 0.5f * (float)(t % 5));
  double d = (double)(gt % 11) * 0.125 + 1024.0;
  atomicAdd(&gd[0], d);
  atomicAdd(&gd[1], -0.0625);
  atomicAdd(&sd[t & 1], (double)t * 0.75 + 1e6);
  __syncthreads();
  if (t < 2) { shared_out[blockIdx.x * 2 + t] = sf[t]; shared_outd[blockIdx.x * 2 + t] = sd[t]; }
}

int main() {
  const int blocks = 16, threads = 256, N = blocks * threads;
  float *gf, *oldf, *so;
  double *gd, *sod;
  CHECK(cudaMalloc(&gf, 2 * sizeof(float)));
  CHECK(cudaMalloc(&gd, 2 * sizeof(double)));
  CHECK(cudaMalloc(&oldf, N * sizeof(float)));
  CHECK(cudaMalloc(&so, blocks * 2 * sizeof(float)));
  CHECK(cudaMalloc(&sod, blocks * 2 * sizeof(double)));
  CHECK(cudaMemset(gf, 0, 2 * sizeof(float)));
  CHECK(cudaMemset(gd, 0, 2 * sizeof(double)));
  fadd<<<blocks, threads>>>(gf, gd, oldf, so, sod);
  CHECK_KERNEL();
  float hf[2]; double hd[2];
  std::vector<float> ho(N), hso(blocks * 2);
  std::vector<double> hsod(blocks * 2);
  CHECK(cudaMemcpy(hf, gf, sizeof(hf), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hd, gd, sizeof(hd), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ho.data(), oldf, N * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hso.data(), so, hso.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hsod.data(), sod, hsod.size() * sizeof(double), cudaMemcpyDeviceToHost));
  double wf0 = 0, wd0 = 0;
  for (int gt = 0; gt < N; ++gt) { wf0 += ((gt % 7) - 3) * 0.25; wd0 += (gt % 11) * 0.125 + 1024.0; }
  EXPECT_EQ(hf[0], (float)wf0, "float sum", 0);
  EXPECT_EQ(hf[1], (float)N, "float counter", 1);
  EXPECT_EQ(hd[0], wd0, "double sum", 0);
  EXPECT_EQ(hd[1], -0.0625 * N, "double negative sum", 1);
  std::sort(ho.begin(), ho.end());
  for (int i = 0; i < N; ++i) EXPECT_EQ(ho[i], (float)i, "float old values", i);
  float ws[2] = {0, 0};
  double wsd[2] = {0, 0};
  for (int t = 0; t < threads; ++t) { ws[t & 1] += 0.5f * (float)(t % 5); wsd[t & 1] += (double)t * 0.75 + 1e6; }
  for (int b = 0; b < blocks; ++b)
    for (int s = 0; s < 2; ++s) {
      EXPECT_EQ(hso[b * 2 + s], ws[s], "shared float", b * 2 + s);
      EXPECT_EQ(hsod[b * 2 + s], wsd[s], "shared double", b * 2 + s);
    }
  return wf::finish();
}

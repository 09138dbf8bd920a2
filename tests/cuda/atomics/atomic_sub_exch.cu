// WF-CHAPTER: atomics
// WF-FEATURES: atomics.sub.int.global, atomics.sub.int.shared, atomics.sub.uint.global, atomics.sub.uint.shared, atomics.exch.int.global, atomics.exch.uint.shared, atomics.exch.ull.global, atomics.exch.float.global, atomics.exch.float.shared, atomics.return_old
// WF-DESCRIPTION: atomicSub (int, unsigned, with wraparound) and atomicExch (int, unsigned, unsigned long long, float) in global and shared memory; exchange chains must pass every value exactly once
#include "../common/check.h"
#include <algorithm>
#include <vector>

__global__ void sub_exch(int* gi, unsigned* gu, int* gx, unsigned long long* gxl, float* gxf, int* got_i,
                         unsigned long long* got_l, float* got_f, int* shared_out) {
  __shared__ int si;
  __shared__ unsigned su;
  __shared__ unsigned sxu;
  __shared__ float sxf;
  int t = threadIdx.x, gt = blockIdx.x * blockDim.x + t;
  if (t == 0) { si = 1000; su = 5; sxu = 0xdeadbeefu; sxf = -1.0f; }
  __syncthreads();
  atomicSub(&si, t);
  atomicSub(&su, 1u);  // wraps below zero
  atomicSub(&gi[0], gt % 10);
  atomicSub(&gu[0], 3u);
  // exchange chains: every thread puts its own id and gets back someone's id (or the initial value)
  got_i[gt] = atomicExch(gx, gt);
  got_l[gt] = atomicExch(gxl, 0x100000000ull + gt);
  got_f[gt] = atomicExch(gxf, (float)gt);
  unsigned prev = atomicExch(&sxu, (unsigned)t);
  float prevf = atomicExch(&sxf, (float)t);
  __syncthreads();
  // the shared chains: collect via a shared histogram of returned values
  __shared__ int seen[257];
  __shared__ int seenf[257];
  for (int i = t; i < 257; i += blockDim.x) { seen[i] = 0; seenf[i] = 0; }
  __syncthreads();
  atomicAdd(&seen[prev == 0xdeadbeefu ? 256 : (int)prev], 1);
  atomicAdd(&seenf[prevf < 0 ? 256 : (int)prevf], 1);
  __syncthreads();
  int bad = 0;
  for (int i = 0; i < 257; ++i) {
    // exactly one value is never returned (the last one written), all others exactly once
    if (seen[i] > 1 || seenf[i] > 1) bad = 1;
  }
  if (t == 0) {
    shared_out[blockIdx.x * 6 + 0] = si;
    shared_out[blockIdx.x * 6 + 1] = (int)su;
    shared_out[blockIdx.x * 6 + 2] = bad;
    shared_out[blockIdx.x * 6 + 3] = seen[256] + seenf[256];
    shared_out[blockIdx.x * 6 + 4] = (sxu < 256) && seen[sxu] == 0;      // final value never returned
    shared_out[blockIdx.x * 6 + 5] = (sxf >= 0) && seenf[(int)sxf] == 0;
  }
}

int main() {
  const int blocks = 8, threads = 256, N = blocks * threads;
  int *gi, *gx, *gotI, *so;
  unsigned* gu;
  unsigned long long *gxl, *gotL;
  float *gxf, *gotF;
  CHECK(cudaMalloc(&gi, sizeof(int))); CHECK(cudaMalloc(&gu, sizeof(unsigned))); CHECK(cudaMalloc(&gx, sizeof(int)));
  CHECK(cudaMalloc(&gxl, 8)); CHECK(cudaMalloc(&gxf, 4));
  CHECK(cudaMalloc(&gotI, N * 4)); CHECK(cudaMalloc(&gotL, N * 8)); CHECK(cudaMalloc(&gotF, N * 4));
  CHECK(cudaMalloc(&so, blocks * 6 * sizeof(int)));
  int i0 = 0, x0 = -1; unsigned u0 = 100; unsigned long long l0 = 7; float f0 = -5.0f;
  CHECK(cudaMemcpy(gi, &i0, 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(gu, &u0, 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(gx, &x0, 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(gxl, &l0, 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(gxf, &f0, 4, cudaMemcpyHostToDevice));
  sub_exch<<<blocks, threads>>>(gi, gu, gx, gxl, gxf, gotI, gotL, gotF, so);
  CHECK_KERNEL();
  int hi, hx; unsigned hu; unsigned long long hl; float hf;
  CHECK(cudaMemcpy(&hi, gi, 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&hu, gu, 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&hx, gx, 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&hl, gxl, 8, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&hf, gxf, 4, cudaMemcpyDeviceToHost));
  int wi = 0;
  for (int g = 0; g < N; ++g) wi -= g % 10;
  EXPECT_EQ(hi, wi, "global atomicSub int", 0);
  EXPECT_EQ(hu, 100u - 3u * N, "global atomicSub unsigned (wraps)", 0);
  std::vector<int> gI(N); std::vector<unsigned long long> gL(N); std::vector<float> gF(N);
  CHECK(cudaMemcpy(gI.data(), gotI, N * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gL.data(), gotL, N * 8, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gF.data(), gotF, N * 4, cudaMemcpyDeviceToHost));
  // returned values = {initial} U {all ids} minus {final}
  gI.push_back(hx); std::sort(gI.begin(), gI.end());
  EXPECT_EQ(gI[0], -1, "int chain initial", 0);
  for (int g = 0; g < N; ++g) EXPECT_EQ(gI[g + 1], g, "int chain", g);
  gL.push_back(hl); std::sort(gL.begin(), gL.end());
  EXPECT_EQ(gL[0], 7ull, "ull chain initial", 0);
  for (int g = 0; g < N; ++g) EXPECT_EQ(gL[g + 1], 0x100000000ull + g, "ull chain", g);
  gF.push_back(hf); std::sort(gF.begin(), gF.end());
  EXPECT_EQ(gF[0], -5.0f, "float chain initial", 0);
  for (int g = 0; g < N; ++g) EXPECT_EQ(gF[g + 1], (float)g, "float chain", g);
  std::vector<int> s(blocks * 6);
  CHECK(cudaMemcpy(s.data(), so, s.size() * 4, cudaMemcpyDeviceToHost));
  int wsi = 1000;
  for (int t = 0; t < threads; ++t) wsi -= t;
  for (int b = 0; b < blocks; ++b) {
    EXPECT_EQ(s[b * 6 + 0], wsi, "shared atomicSub int", b);
    EXPECT_EQ((unsigned)s[b * 6 + 1], 5u - threads, "shared atomicSub unsigned", b);
    EXPECT_EQ(s[b * 6 + 2], 0, "shared exch values returned at most once", b);
    EXPECT_EQ(s[b * 6 + 3], 2, "shared exch initial values returned once", b);
    EXPECT_EQ(s[b * 6 + 4], 1, "shared exch uint final never returned", b);
    EXPECT_EQ(s[b * 6 + 5], 1, "shared exch float final never returned", b);
  }
  return wf::finish();
}

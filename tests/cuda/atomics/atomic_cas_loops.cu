// WF-CHAPTER: atomics
// WF-FEATURES: atomics.cas_loop, atomics.cas.int.global, atomics.cas.ull.global, atomics.cas.uint.shared
// WF-DESCRIPTION: read-modify-write operations built from atomicCAS loops (guide B.12): double add on 64-bit CAS, float max, integer multiply, byte add inside a 32-bit word, and a packed (min, argmin) pair
#include "../common/check.h"
#include <algorithm>
#include <vector>

__device__ double cas_add_double(double* address, double val) {
  unsigned long long* p = (unsigned long long*)address;
  unsigned long long old = *p, assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, __double_as_longlong(val + __longlong_as_double(assumed)));
  } while (assumed != old);  // integer comparison: no hang on NaN
  return __longlong_as_double(old);
}
__device__ float cas_max_float(float* address, float val) {
  int* p = (int*)address;
  int old = *p, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= val) break;
    old = atomicCAS(p, assumed, __float_as_int(val));
  } while (assumed != old);
  return __int_as_float(old);
}
__device__ int cas_mul(int* address, int val) {
  int old = *address, assumed;
  do { assumed = old; old = atomicCAS(address, assumed, assumed * val); } while (assumed != old);
  return old;
}
__device__ void cas_add_byte(unsigned* word_base, int byte_index, unsigned char v) {
  unsigned* w = word_base + byte_index / 4;
  int sh = (byte_index % 4) * 8;
  unsigned old = *w, assumed;
  do {
    assumed = old;
    unsigned b = ((assumed >> sh) + v) & 0xffu;
    old = atomicCAS(w, assumed, (assumed & ~(0xffu << sh)) | (b << sh));
  } while (assumed != old);
}
// (value, index) packed with the value in the high half: min of the pair = min value, then min index
__device__ void cas_argmin(unsigned long long* p, unsigned value, unsigned index) {
  unsigned long long mine = ((unsigned long long)value << 32) | index, old = *p, assumed;
  do {
    assumed = old;
    if (assumed <= mine) return;
    old = atomicCAS(p, assumed, mine);
  } while (assumed != old);
}

__global__ void loops(double* dsum, float* fmax_, int* prod, unsigned* bytes, unsigned long long* amin, unsigned* shared_bytes_out) {
  __shared__ unsigned sb[4];  // 16 bytes, each incremented concurrently
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  if (t < 4) sb[t] = 0;
  __syncthreads();
  cas_add_double(dsum, 0.5 * (g % 9));
  cas_max_float(fmax_, (float)((g * 37) % 1001) * 0.5f - 100.0f);
  if (g < 30) cas_mul(prod, (g % 3 == 0) ? -2 : 1);  // 10 factors of -2
  cas_add_byte(bytes, g % 16, (unsigned char)(g % 5 + 1));
  cas_add_byte(sb, t % 16, 1);
  cas_argmin(amin, (unsigned)((g * 7919) % 1009), (unsigned)g);
  __syncthreads();
  if (t < 4) atomicAdd(&shared_bytes_out[t], sb[t]);  // per-byte counts: no carries (threads/16 < 256)
}

int main() {
  const int blocks = 8, threads = 128, N = blocks * threads;
  double* ds; float* fm; int* pr; unsigned *by, *sbo; unsigned long long* am;
  CHECK(cudaMalloc(&ds, 8)); CHECK(cudaMalloc(&fm, 4)); CHECK(cudaMalloc(&pr, 4)); CHECK(cudaMalloc(&by, 16));
  CHECK(cudaMalloc(&am, 8)); CHECK(cudaMalloc(&sbo, 16));
  double d0 = 0; float f0 = -1e30f; int p0 = 3; unsigned long long a0 = ~0ull;
  CHECK(cudaMemcpy(ds, &d0, 8, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(fm, &f0, 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(pr, &p0, 4, cudaMemcpyHostToDevice)); CHECK(cudaMemset(by, 0, 16));
  CHECK(cudaMemcpy(am, &a0, 8, cudaMemcpyHostToDevice)); CHECK(cudaMemset(sbo, 0, 16));
  loops<<<blocks, threads>>>(ds, fm, pr, by, am, sbo);
  CHECK_KERNEL();
  double hd; float hf; int hp; unsigned char hb[16], hsb[16]; unsigned long long ha;
  CHECK(cudaMemcpy(&hd, ds, 8, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(&hf, fm, 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&hp, pr, 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(hb, by, 16, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&ha, am, 8, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(hsb, sbo, 16, cudaMemcpyDeviceToHost));
  double wd = 0; float wf_ = -1e30f; unsigned char wb[16] = {0}; unsigned long long wa = ~0ull;
  for (int g = 0; g < N; ++g) {
    wd += 0.5 * (g % 9);
    wf_ = std::max(wf_, (float)((g * 37) % 1001) * 0.5f - 100.0f);
    wb[g % 16] = (unsigned char)(wb[g % 16] + g % 5 + 1);
    wa = std::min(wa, ((unsigned long long)((g * 7919) % 1009) << 32) | (unsigned)g);
  }
  EXPECT_EQ(hd, wd, "CAS double add", 0);
  EXPECT_EQ(hf, wf_, "CAS float max", 0);
  EXPECT_EQ(hp, 3 * 1024, "CAS multiply", 0);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(hb[i], wb[i], "CAS byte add", i);
  for (int i = 0; i < 16; ++i) EXPECT_EQ((int)hsb[i], blocks * threads / 16, "shared CAS byte add", i);
  EXPECT_EQ(ha, wa, "CAS argmin", 0);
  return wf::finish();
}

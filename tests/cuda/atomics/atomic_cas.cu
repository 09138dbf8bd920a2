// WF-CHAPTER: atomics
// WF-FEATURES: atomics.cas.int.global, atomics.cas.int.shared, atomics.cas.uint.global, atomics.cas.ull.global, atomics.cas.ull.shared, atomics.cas.ushort.global, atomics.cas.ushort.shared, atomics.return_old
// WF-DESCRIPTION: atomicCAS on int, unsigned, unsigned long long and unsigned short (global and shared): exact success/failure semantics, and a contended "first writer wins" election
#include "../common/check.h"
#include <vector>

__global__ void semantics(int* gi, unsigned* gu, unsigned long long* gl, unsigned short* gs, long long* out) {
  __shared__ int si;
  __shared__ unsigned long long sl;
  __shared__ unsigned short ss[4];
  int k = 0;
  *gi = 5; si = -3; *gu = 0xfffffffeu; *gl = 0x123456789ull; sl = ~0ull;
  gs[0] = 1; gs[1] = 2; gs[2] = 0xffff; gs[3] = 4; ss[0] = 10; ss[1] = 11; ss[2] = 12; ss[3] = 13;
  out[k++] = atomicCAS(gi, 4, 100); out[k++] = *gi;          // fails
  out[k++] = atomicCAS(gi, 5, 100); out[k++] = *gi;          // succeeds
  out[k++] = atomicCAS(&si, -3, 7); out[k++] = si;
  out[k++] = atomicCAS(gu, 0xfffffffeu, 1u); out[k++] = *gu;
  out[k++] = (long long)atomicCAS(gl, 0x123456789ull, 0xfedcba9876543210ull); out[k++] = (long long)*gl;
  out[k++] = (long long)atomicCAS(&sl, 0ull, 1ull); out[k++] = (long long)sl;
  // 16-bit CAS must leave the neighbouring halves of the 32-bit word alone
  out[k++] = atomicCAS(&gs[2], (unsigned short)0xffff, (unsigned short)0x1234);
  out[k++] = gs[1] | ((long long)gs[2] << 16) | ((long long)gs[3] << 32);
  out[k++] = atomicCAS(&ss[1], (unsigned short)11, (unsigned short)0xbeef);
  out[k++] = atomicCAS(&ss[3], (unsigned short)99, (unsigned short)1);
  out[k++] = ss[0] | ((long long)ss[1] << 16) | ((long long)ss[2] << 32) | ((long long)ss[3] << 48);
}

// Election: every thread tries to install its id into an empty slot; exactly one wins per slot.
__global__ void elect(int* slots, int* wins, unsigned short* s16, int* wins16) {
  __shared__ unsigned short local[8];
  __shared__ int lw[8];
  int t = threadIdx.x, gt = blockIdx.x * blockDim.x + t;
  if (t < 8) { local[t] = 0; lw[t] = 0; }
  __syncthreads();
  int slot = gt % 16;
  if (atomicCAS(&slots[slot], -1, gt) == -1) atomicAdd(&wins[slot], 1);
  if (atomicCAS(&local[t % 8], (unsigned short)0, (unsigned short)(t + 1)) == 0) atomicAdd(&lw[t % 8], 1);
  if (atomicCAS(&s16[gt % 3], (unsigned short)0, (unsigned short)(gt + 1)) == 0) atomicAdd(&wins16[gt % 3], 1);
  __syncthreads();
  if (t < 8) {
    // the winner's id is stored and it must be congruent to the slot
    int ok = lw[t] == 1 && local[t] != 0 && ((local[t] - 1) % 8) == t;
    atomicAdd(&wins[16 + t], ok);
  }
}

int main() {
  int* gi; unsigned* gu; unsigned long long* gl; unsigned short* gs; long long* out;
  CHECK(cudaMalloc(&gi, 4)); CHECK(cudaMalloc(&gu, 4)); CHECK(cudaMalloc(&gl, 8)); CHECK(cudaMalloc(&gs, 8)); CHECK(cudaMalloc(&out, 20 * 8));
  semantics<<<1, 1>>>(gi, gu, gl, gs, out);
  CHECK_KERNEL();
  long long h[17];
  CHECK(cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost));
  long long want[17] = {5, 5, 5, 100, -3, 7, 0xfffffffe, 1, 0x123456789LL, (long long)0xfedcba9876543210ull, -1, -1,
                        0xffff, 2 | (0x1234 << 16) | (4LL << 32), 11, 13, 10 | (0xbeefLL << 16) | (12LL << 32) | (13LL << 48)};
  for (int i = 0; i < 17; ++i) EXPECT_EQ(h[i], want[i], "CAS semantics", i);
  const int blocks = 6, threads = 256;
  int *slots, *wins, *w16; unsigned short* s16;
  CHECK(cudaMalloc(&slots, 16 * 4)); CHECK(cudaMalloc(&wins, 24 * 4)); CHECK(cudaMalloc(&s16, 8)); CHECK(cudaMalloc(&w16, 12));
  CHECK(cudaMemset(slots, 0xff, 16 * 4)); CHECK(cudaMemset(wins, 0, 24 * 4)); CHECK(cudaMemset(s16, 0, 8)); CHECK(cudaMemset(w16, 0, 12));
  elect<<<blocks, threads>>>(slots, wins, s16, w16);
  CHECK_KERNEL();
  int hs[16], hw[24], hw16[3]; unsigned short h16[4];
  CHECK(cudaMemcpy(hs, slots, sizeof(hs), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hw, wins, sizeof(hw), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h16, s16, sizeof(h16), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hw16, w16, sizeof(hw16), cudaMemcpyDeviceToHost));
  for (int s = 0; s < 16; ++s) {
    EXPECT_EQ(hw[s], 1, "one winner per global slot", s);
    EXPECT_EQ(hs[s] % 16, s, "winner id matches slot", s);
  }
  for (int s = 0; s < 8; ++s) EXPECT_EQ(hw[16 + s], blocks, "one winner per shared 16-bit slot", s);
  for (int s = 0; s < 3; ++s) {
    EXPECT_EQ(hw16[s], 1, "one winner per global 16-bit slot", s);
    EXPECT_EQ((h16[s] - 1) % 3, s, "16-bit winner id", s);
  }
  EXPECT_EQ(h16[3], (unsigned short)0, "untouched 16-bit neighbour", 3);
  return wf::finish();
}

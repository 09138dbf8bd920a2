// WF-CHAPTER: atomics
// WF-FEATURES: atomics.builtin.fetch_ops, atomics.builtin.exchange, atomics.builtin.compare_exchange, atomics.builtin.load_store, atomics.builtin.thread_fence, atomics.builtin.scopes, atomics.builtin.release_acquire
// WF-DESCRIPTION: the __nv_atomic_* compiler built-ins (CUDA 12.8+): fetch_add/sub/and/or/xor/min/max on several types, exchange(_n), compare_exchange(_n) including 2- and 8-byte objects, load/store with acquire/release at block and device scope, thread fences
#include "../common/check.h"
#include <algorithm>
#include <vector>

#ifndef __CUDACC_DEVICE_ATOMIC_BUILTINS__
#error "__nv_atomic_* built-ins not supported by this compiler"
#endif

struct Pair { int a, b; };  // 8 bytes: compare_exchange / exchange on a user type

__global__ void fetch_ops(int* i, unsigned* u, unsigned long long* ul, float* f, double* d, int* olds) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  olds[g] = __nv_atomic_fetch_add(&i[0], 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_sub(&i[1], g, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_fetch_min(&i[2], 1000 - g, __NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_max(&i[3], g - 7, __NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_fetch_and(&u[0], ~(1u << (g % 32)), __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_or(&u[1], 1u << (g % 29), __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_SYSTEM);
  __nv_atomic_fetch_xor(&u[2], (unsigned)g, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_fetch_add(&ul[0], 0x100000000ull, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_fetch_max(&ul[1], (unsigned long long)g << 40, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_fetch_add(f, 0.25f, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_add(d, 0.5, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
}

__global__ void exchanges(int* xi, Pair* xp, unsigned short* s16, int* out) {
  // single thread: exact semantics
  int old = __nv_atomic_exchange_n(xi, 42, __NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_DEVICE);
  out[0] = old; out[1] = *xi;
  Pair np = {7, 8}, ret;
  __nv_atomic_exchange(xp, &np, &ret, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  out[2] = ret.a; out[3] = ret.b; out[4] = xp->a; out[5] = xp->b;
  int expected = 41;
  bool ok = __nv_atomic_compare_exchange_n(xi, &expected, 50, false, __NV_ATOMIC_ACQ_REL, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE);
  out[6] = ok; out[7] = expected; out[8] = *xi;  // failed: expected updated to 42
  ok = __nv_atomic_compare_exchange_n(xi, &expected, 50, true, __NV_ATOMIC_SEQ_CST, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK);
  out[9] = ok; out[10] = *xi;
  Pair want = {7, 8}, desired = {-1, -2};
  ok = __nv_atomic_compare_exchange(xp, &want, &desired, false, __NV_ATOMIC_RELAXED, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  out[11] = ok; out[12] = xp->a; out[13] = xp->b;
  unsigned short e16 = 0x1111;
  ok = __nv_atomic_compare_exchange_n(&s16[1], &e16, (unsigned short)0xabcd, false, __NV_ATOMIC_RELAXED, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  out[14] = ok; out[15] = (int)((unsigned)s16[0] | ((unsigned)s16[1] << 16));
  unsigned char c = __nv_atomic_load_n((unsigned char*)&s16[1], __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE);
  out[16] = c;  // low byte of 0xabcd (little endian)
  long long l8 = 0;
  __nv_atomic_load((long long*)xp, &l8, __NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_DEVICE);
  out[17] = (int)(l8 >> 32); out[18] = (int)l8;
  __nv_atomic_store_n(&out[19], 123, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_DEVICE);
  int v = 321;
  __nv_atomic_store(&out[20], &v, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_SYSTEM);
}

// Message passing between warps of one block with release/acquire at block scope.
__global__ void message(int* out, int rounds) {
  __shared__ int data[32];
  __shared__ int flag;
  int w = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (threadIdx.x == 0) flag = 0;
  __syncthreads();
  for (int r = 1; r <= rounds; ++r) {
    if (w == 1) {
      data[lane] = r * 100 + lane;
      __syncwarp();
      if (lane == 0) __nv_atomic_store_n(&flag, r, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_BLOCK);
      // wait for the consumer to take it
      if (lane == 0) while (__nv_atomic_load_n(&flag, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_BLOCK) != -r) { }
      __syncwarp();
    } else if (w == 0) {
      if (lane == 0) while (__nv_atomic_load_n(&flag, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_BLOCK) != r) { }
      __syncwarp();
      __nv_atomic_thread_fence(__NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_BLOCK);
      out[(r - 1) * 32 + lane] = data[(lane + r) % 32];
      __syncwarp();
      if (lane == 0) __nv_atomic_store_n(&flag, -r, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_BLOCK);
    }
  }
}

int main() {
  const int blocks = 4, threads = 128, N = blocks * threads;
  int *i, *olds; unsigned* u; unsigned long long* ul; float* f; double* d;
  CHECK(cudaMalloc(&i, 16)); CHECK(cudaMalloc(&u, 12)); CHECK(cudaMalloc(&ul, 16)); CHECK(cudaMalloc(&f, 4)); CHECK(cudaMalloc(&d, 8));
  CHECK(cudaMalloc(&olds, N * 4));
  int hi[4] = {0, 0, 5000, -100}; unsigned hu[3] = {~0u, 0, 0}; unsigned long long hul[2] = {0, 0};
  CHECK(cudaMemcpy(i, hi, 16, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(u, hu, 12, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(ul, hul, 16, cudaMemcpyHostToDevice)); CHECK(cudaMemset(f, 0, 4)); CHECK(cudaMemset(d, 0, 8));
  fetch_ops<<<blocks, threads>>>(i, u, ul, f, d, olds);
  CHECK_KERNEL();
  float hf; double hd; std::vector<int> ho(N);
  CHECK(cudaMemcpy(hi, i, 16, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(hu, u, 12, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hul, ul, 16, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(&hf, f, 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&hd, d, 8, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(ho.data(), olds, N * 4, cudaMemcpyDeviceToHost));
  unsigned wx = 0, wor = 0;
  for (int g = 0; g < N; ++g) { wx ^= (unsigned)g; wor |= 1u << (g % 29); }
  EXPECT_EQ(hi[0], N, "fetch_add", 0);
  EXPECT_EQ(hi[1], -N * (N - 1) / 2, "sub", 0);
  EXPECT_EQ(hi[2], 1000 - (N - 1), "fetch_min", 0);
  EXPECT_EQ(hi[3], N - 1 - 7, "max", 0);
  EXPECT_EQ(hu[0], 0u, "fetch_and", 0);
  EXPECT_EQ(hu[1], wor, "or", 0);
  EXPECT_EQ(hu[2], wx, "fetch_xor", 0);
  EXPECT_EQ(hul[0], (unsigned long long)N << 32, "fetch_add ull", 0);
  EXPECT_EQ(hul[1], (unsigned long long)(N - 1) << 40, "fetch_max ull", 0);
  EXPECT_EQ(hf, 0.25f * N, "fetch_add float", 0);
  EXPECT_EQ(hd, 0.5 * N, "add double", 0);
  std::sort(ho.begin(), ho.end());
  for (int g = 0; g < N; ++g) EXPECT_EQ(ho[g], g, "fetch_add old values", g);

  int* xi; Pair* xp; unsigned short* s16; int* out;
  CHECK(cudaMalloc(&xi, 4)); CHECK(cudaMalloc(&xp, 8)); CHECK(cudaMalloc(&s16, 4)); CHECK(cudaMalloc(&out, 32 * 4));
  int x0 = 41; Pair p0 = {1, 2}; unsigned short s0[2] = {0x2222, 0x1111};
  CHECK(cudaMemcpy(xi, &x0, 4, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(xp, &p0, 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(s16, s0, 4, cudaMemcpyHostToDevice));
  exchanges<<<1, 1>>>(xi, xp, s16, out);
  CHECK_KERNEL();
  int h[21];
  CHECK(cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost));
  int want[21] = {41, 42, 1, 2, 7, 8, 0, 42, 42, 1, 50, 1, -1, -2, 1, (int)(0x2222u | (0xabcdu << 16)), 0xcd, -2, -1, 123, 321};
  for (int k = 0; k < 21; ++k) EXPECT_EQ(h[k], want[k], "exchange semantics", k);

  const int rounds = 16;
  int* msg;
  CHECK(cudaMalloc(&msg, rounds * 32 * 4));
  message<<<1, 64>>>(msg, rounds);
  CHECK_KERNEL();
  std::vector<int> hm(rounds * 32);
  CHECK(cudaMemcpy(hm.data(), msg, hm.size() * 4, cudaMemcpyDeviceToHost));
  for (int r = 1; r <= rounds; ++r)
    for (int l = 0; l < 32; ++l) EXPECT_EQ(hm[(r - 1) * 32 + l], r * 100 + (l + r) % 32, "release/acquire message", (r - 1) * 32 + l);
  return wf::finish();
}

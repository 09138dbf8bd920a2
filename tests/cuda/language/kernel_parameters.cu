// WF-CHAPTER: language
// WF-FEATURES: lang.kernel_params.struct, lang.kernel_params.large, lang.grid_constant, lang.kernel_params.scalar_types
// WF-DESCRIPTION: kernel parameters of every scalar type and of structs passed by value: mixed alignments, arrays inside structs, a 4 KB parameter block, and __grid_constant__ const parameters whose address is taken
#include "../common/check.h"
#include <vector>

struct Mixed { char c; double d; short s; int i; float f; long long ll; unsigned char uc; };
struct Arr { int v[1000]; };  // 4000 bytes of parameters
struct Small { float x, y; };

__global__ void scalars(char c, unsigned char uc, short s, unsigned short us, int i, unsigned u, long long ll,
                        unsigned long long ull, float f, double d, bool b, Small sm, long long* out) {
  out[0] = c; out[1] = uc; out[2] = s; out[3] = us; out[4] = i; out[5] = u; out[6] = ll; out[7] = (long long)ull;
  out[8] = (long long)(f * 4); out[9] = (long long)(d * 8); out[10] = b; out[11] = (long long)(sm.x * 2 + sm.y * 100);
}
__global__ void structs(Mixed m, Arr a, long long* out) {
  int t = threadIdx.x;
  long long s = 0;
  for (int k = t; k < 1000; k += blockDim.x) s += a.v[k];
  atomicAdd((unsigned long long*)&out[0], (unsigned long long)s);
  if (t == 0) out[1] = m.c + (long long)(m.d * 2) + m.s + m.i + (long long)(m.f * 4) + m.ll + m.uc;
}
__device__ long long read_through(const Mixed* p) { return p->ll + p->i; }
__global__ void grid_const(const __grid_constant__ Mixed m, long long* out) {
  const Mixed* p = &m;  // taking the address is allowed for __grid_constant__ parameters
  out[2 + threadIdx.x] = read_through(p) + threadIdx.x;
}

int main() {
  long long* d;
  CHECK(cudaMalloc(&d, 64 * 8));
  scalars<<<1, 1>>>((char)-5, (unsigned char)250, (short)-30000, (unsigned short)60000, -123456789, 4000000000u,
                    -9000000000000LL, 18000000000000000000ull, 2.25f, -3.125, true, Small{1.5f, -2.0f}, d);
  CHECK_KERNEL();
  long long h[64];
  CHECK(cudaMemcpy(h, d, 12 * 8, cudaMemcpyDeviceToHost));
  long long want[12] = {-5, 250, -30000, 60000, -123456789, 4000000000LL, -9000000000000LL, (long long)18000000000000000000ull,
                        9, -25, 1, 3 - 200};
  for (int k = 0; k < 12; ++k) EXPECT_EQ(h[k], want[k], "scalar parameter", k);
  Mixed m{'A', 1.5, -7, 123456, 0.75f, 1LL << 40, 200};
  Arr a;
  long long sum = 0;
  for (int k = 0; k < 1000; ++k) { a.v[k] = k * k - 500; sum += a.v[k]; }
  CHECK(cudaMemset(d, 0, 64 * 8));
  structs<<<1, 128>>>(m, a, d);
  CHECK_KERNEL();
  grid_const<<<1, 8>>>(m, d);
  CHECK_KERNEL();
  CHECK(cudaMemcpy(h, d, 10 * 8, cudaMemcpyDeviceToHost));
  EXPECT_EQ(h[0], sum, "4 KB array parameter", 0);
  EXPECT_EQ(h[1], 'A' + 3LL - 7 + 123456 + 3 + (1LL << 40) + 200, "mixed struct parameter", 1);
  for (int t = 0; t < 8; ++t) EXPECT_EQ(h[2 + t], (1LL << 40) + 123456 + t, "__grid_constant__ parameter", t);
  return wf::finish();
}

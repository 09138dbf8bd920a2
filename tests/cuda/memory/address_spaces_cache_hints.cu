// WF-CHAPTER: memory
// WF-FEATURES: mem.address_space.predicates, mem.address_space.conversion, mem.cache_hint.load, mem.cache_hint.store, mem.generic_pointer
// WF-DESCRIPTION: generic pointers into global/shared/local/constant memory, __isGlobal/__isShared/__isLocal/__isConstant, __cvta_generic_to_shared and back, __ldcg/__ldca/__ldcs/__ldlu/__ldcv and __stwb/__stcg/__stcs/__stwt
#include "../common/check.h"
#include <vector>

__constant__ int cvals[32];

__device__ __noinline__ int classify(const void* p) {
  return (__isGlobal(p) ? 1 : 0) | (__isShared(p) ? 2 : 0) | (__isLocal(p) ? 4 : 0) | (__isConstant(p) ? 8 : 0);
}
__device__ __noinline__ int read_generic(const int* p) { return *p; }  // one function, any space

__global__ void spaces(const int* g, int* out, int* kinds) {
  __shared__ int s[32];
  int local[4];
  int t = threadIdx.x;
  s[t] = t * 10;
  for (int k = 0; k < 4; ++k) local[k] = t + k;
  __syncthreads();
  volatile int sel = t % 4;  // keep local[] in local memory
  const int* ptrs[4] = {&g[t], &s[(t + 1) % 32], &local[sel], &cvals[t]};
  int sum = 0;
  for (int k = 0; k < 4; ++k) sum += read_generic(ptrs[k]) * (k + 1);
  out[t] = sum;
  if (t == 0)
    for (int k = 0; k < 4; ++k) kinds[k] = classify(ptrs[k]);
  // shared-window address conversion round trip
  size_t sa = __cvta_generic_to_shared(&s[t]);
  int* back = (int*)__cvta_shared_to_generic(sa);
  out[32 + t] = (back == &s[t]) ? *back : -1;
  size_t ga = __cvta_generic_to_global(&g[t]);
  out[64 + t] = *(const int*)__cvta_global_to_generic(ga);
}

__global__ void hints(const int* in, int* out) {
  int t = threadIdx.x;
  int a = __ldcg(&in[t]), b = __ldca(&in[t]), c = __ldcs(&in[t]), d = __ldlu(&in[t]), e = __ldcv(&in[t]);
  __stwb(&out[t * 4 + 0], a + b);
  __stcg(&out[t * 4 + 1], c);
  __stcs(&out[t * 4 + 2], d);
  __stwt(&out[t * 4 + 3], e * 2);
  float4 f = __ldcg((const float4*)in + (t % 8));
  if (__float_as_int(f.x) != in[(t % 8) * 4]) out[t * 4] = -999;
}

int main() {
  std::vector<int> hc(32), hg(32);
  for (int i = 0; i < 32; ++i) { hc[i] = 1000 + i; hg[i] = -i * 3; }
  CHECK(cudaMemcpyToSymbol(cvals, hc.data(), sizeof(int) * 32));
  int *g, *out, *kinds;
  CHECK(cudaMalloc(&g, 32 * sizeof(int)));
  CHECK(cudaMalloc(&out, 128 * sizeof(int)));
  CHECK(cudaMalloc(&kinds, 4 * sizeof(int)));
  CHECK(cudaMemcpy(g, hg.data(), 32 * sizeof(int), cudaMemcpyHostToDevice));
  spaces<<<1, 32>>>(g, out, kinds);
  CHECK_KERNEL();
  std::vector<int> o(128), k(4);
  CHECK(cudaMemcpy(o.data(), out, 96 * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(k.data(), kinds, 4 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int t = 0; t < 32; ++t) {
    int sel = t % 4;
    EXPECT_EQ(o[t], hg[t] * 1 + ((t + 1) % 32) * 10 * 2 + (t + sel) * 3 + hc[t] * 4, "generic reads", t);
    EXPECT_EQ(o[32 + t], t * 10, "cvta shared round trip", t);
    EXPECT_EQ(o[64 + t], hg[t], "cvta global round trip", t);
  }
  EXPECT_EQ(k[0], 1, "global predicate", 0);
  EXPECT_EQ(k[1], 2, "shared predicate", 1);
  EXPECT_EQ(k[2], 4, "local predicate", 2);
  EXPECT_EQ(k[3], 8, "constant predicate", 3);
  hints<<<1, 32>>>(g, out);
  CHECK_KERNEL();
  CHECK(cudaMemcpy(o.data(), out, 128 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int t = 0; t < 32; ++t) {
    EXPECT_EQ(o[t * 4 + 0], 2 * hg[t], "stwb", t);
    EXPECT_EQ(o[t * 4 + 1], hg[t], "stcg", t);
    EXPECT_EQ(o[t * 4 + 2], hg[t], "stcs", t);
    EXPECT_EQ(o[t * 4 + 3], 2 * hg[t], "stwt", t);
  }
  return wf::finish();
}

// WF-CHAPTER: atomics
// WF-FEATURES: atomics.min.int.global, atomics.min.int.shared, atomics.min.uint.global, atomics.min.uint.shared, atomics.min.ll.global, atomics.min.ll.shared, atomics.min.ull.global, atomics.min.ull.shared, atomics.max.int.global, atomics.max.int.shared, atomics.max.uint.global, atomics.max.uint.shared, atomics.max.ll.global, atomics.max.ll.shared, atomics.max.ull.global, atomics.max.ull.shared
// WF-DESCRIPTION: atomicMin/atomicMax on int, unsigned, long long and unsigned long long in global and shared memory, with negative values and values above 2^31/2^63 (signedness matters)
#include "../common/check.h"
#include <algorithm>
#include <vector>

__device__ int vi(int g) { return (int)((g * 2654435761u) ^ 0x9e3779b9u); }
__device__ long long vl(int g) { return (long long)(((unsigned long long)g * 0x9E3779B97F4A7C15ull) ^ 0xabcdef1234567ull); }

__global__ void minmax(int* gi, unsigned* gu, long long* gl, unsigned long long* gul, int* sout, long long* slout,
                       unsigned* uout, unsigned long long* ulout) {  // uout/slout hold 2 values per block
  __shared__ int smin, smax;
  __shared__ unsigned sumax, sumin;
  __shared__ long long slmin, slmax;
  __shared__ unsigned long long sulmin, sulmax;
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  if (t == 0) { smin = 0x7fffffff; smax = (int)0x80000000; sumax = 0; sumin = ~0u; slmin = 0x7fffffffffffffffLL; slmax = (long long)0x8000000000000000ull; sulmin = ~0ull; sulmax = 0; }
  __syncthreads();
  int a = vi(g);
  long long l = vl(g);
  atomicMin(&gi[0], a); atomicMax(&gi[1], a);
  atomicMin(&gu[0], (unsigned)a); atomicMax(&gu[1], (unsigned)a);
  atomicMin(&gl[0], l); atomicMax(&gl[1], l);
  atomicMin(&gul[0], (unsigned long long)l); atomicMax(&gul[1], (unsigned long long)l);
  atomicMin(&smin, a); atomicMax(&smax, a); atomicMax(&sumax, (unsigned)a);
  atomicMin(&sumin, (unsigned)a); atomicMax(&slmax, l);
  atomicMin(&slmin, l); atomicMin(&sulmin, (unsigned long long)l); atomicMax(&sulmax, (unsigned long long)l);
  __syncthreads();
  if (t == 0) {
    sout[blockIdx.x * 2] = smin; sout[blockIdx.x * 2 + 1] = smax;
    uout[blockIdx.x * 2] = sumax; uout[blockIdx.x * 2 + 1] = sumin;
    slout[blockIdx.x * 2] = slmin; slout[blockIdx.x * 2 + 1] = slmax;
    ulout[blockIdx.x * 2] = sulmin; ulout[blockIdx.x * 2 + 1] = sulmax;
  }
}

static int hvi(int g) { return (int)((g * 2654435761u) ^ 0x9e3779b9u); }
static long long hvl(int g) { return (long long)(((unsigned long long)g * 0x9E3779B97F4A7C15ull) ^ 0xabcdef1234567ull); }

int main() {
  const int blocks = 12, threads = 192;
  int *gi, *so; unsigned *gu, *uo; long long *gl, *slo; unsigned long long *gul, *ulo;
  CHECK(cudaMalloc(&gi, 8)); CHECK(cudaMalloc(&gu, 8)); CHECK(cudaMalloc(&gl, 16)); CHECK(cudaMalloc(&gul, 16));
  CHECK(cudaMalloc(&so, blocks * 8)); CHECK(cudaMalloc(&uo, blocks * 8)); CHECK(cudaMalloc(&slo, blocks * 16)); CHECK(cudaMalloc(&ulo, blocks * 16));
  int ii[2] = {0x7fffffff, (int)0x80000000}; unsigned uu[2] = {~0u, 0};
  long long ll[2] = {0x7fffffffffffffffLL, (long long)0x8000000000000000ull}; unsigned long long ul[2] = {~0ull, 0};
  CHECK(cudaMemcpy(gi, ii, 8, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(gu, uu, 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(gl, ll, 16, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(gul, ul, 16, cudaMemcpyHostToDevice));
  minmax<<<blocks, threads>>>(gi, gu, gl, gul, so, slo, uo, ulo);
  CHECK_KERNEL();
  CHECK(cudaMemcpy(ii, gi, 8, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(uu, gu, 8, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ll, gl, 16, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(ul, gul, 16, cudaMemcpyDeviceToHost));
  std::vector<int> hso(blocks * 2); std::vector<unsigned> huo(blocks * 2); std::vector<long long> hslo(blocks * 2);
  std::vector<unsigned long long> hulo(blocks * 2);
  CHECK(cudaMemcpy(hso.data(), so, blocks * 8, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(huo.data(), uo, blocks * 8, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hslo.data(), slo, blocks * 16, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(hulo.data(), ulo, blocks * 16, cudaMemcpyDeviceToHost));
  int mi = 0x7fffffff, ma = (int)0x80000000; unsigned umi = ~0u, uma = 0;
  long long lmi = 0x7fffffffffffffffLL, lma = (long long)0x8000000000000000ull; unsigned long long ulmi = ~0ull, ulma = 0;
  for (int g = 0; g < blocks * threads; ++g) {
    int a = hvi(g); long long l = hvl(g);
    mi = std::min(mi, a); ma = std::max(ma, a); umi = std::min(umi, (unsigned)a); uma = std::max(uma, (unsigned)a);
    lmi = std::min(lmi, l); lma = std::max(lma, l);
    ulmi = std::min(ulmi, (unsigned long long)l); ulma = std::max(ulma, (unsigned long long)l);
  }
  EXPECT_EQ(ii[0], mi, "global min int", 0); EXPECT_EQ(ii[1], ma, "global max int", 0);
  EXPECT_EQ(uu[0], umi, "global min unsigned", 0); EXPECT_EQ(uu[1], uma, "global max unsigned", 0);
  EXPECT_EQ(ll[0], lmi, "global min long long", 0); EXPECT_EQ(ll[1], lma, "global max long long", 0);
  EXPECT_EQ(ul[0], ulmi, "global min ull", 0); EXPECT_EQ(ul[1], ulma, "global max ull", 0);
  for (int b = 0; b < blocks; ++b) {
    int bmi = 0x7fffffff, bma = (int)0x80000000; unsigned buma = 0, bumi = ~0u; long long blmi = 0x7fffffffffffffffLL, blma = (long long)0x8000000000000000ull;
    unsigned long long bulmi = ~0ull, bulma = 0;
    for (int t = 0; t < threads; ++t) {
      int g = b * threads + t, a = hvi(g); long long l = hvl(g);
      bmi = std::min(bmi, a); bma = std::max(bma, a); buma = std::max(buma, (unsigned)a); bumi = std::min(bumi, (unsigned)a); blmi = std::min(blmi, l); blma = std::max(blma, l);
      bulmi = std::min(bulmi, (unsigned long long)l); bulma = std::max(bulma, (unsigned long long)l);
    }
    EXPECT_EQ(hso[b * 2], bmi, "shared min int", b); EXPECT_EQ(hso[b * 2 + 1], bma, "shared max int", b);
    EXPECT_EQ(huo[b * 2], buma, "shared max unsigned", b); EXPECT_EQ(huo[b * 2 + 1], bumi, "shared min unsigned", b);
    EXPECT_EQ(hslo[b * 2], blmi, "shared min long long", b); EXPECT_EQ(hslo[b * 2 + 1], blma, "shared max long long", b);
    EXPECT_EQ(hulo[b * 2], bulmi, "shared min ull", b); EXPECT_EQ(hulo[b * 2 + 1], bulma, "shared max ull", b);
  }
  return wf::finish();
}

// WF-CHAPTER: memory
// WF-FEATURES: mem.shared.dynamic, mem.shared.dynamic_partition, mem.shared.static
// WF-DESCRIPTION: extern __shared__ arrays sized at launch, partitioned into several typed arrays (guide B.2.3), combined with static shared memory
#include "../common/check.h"
#include <vector>

// Guide B.2.3: all extern shared arrays start at the same address; partition by offsets,
// respecting alignment of each type.
__global__ void partitioned(int nshort, int nfloat, int nint, const int* in, int* out) {
  extern __shared__ double array[];  // double alignment for the whole region
  __shared__ int fixed[32];
  double* d = array;                                  // blockDim.x doubles
  int* ints = (int*)&d[blockDim.x];                   // nint ints
  float* floats = (float*)&ints[nint];                // nfloat floats
  short* shorts = (short*)&floats[nfloat];            // nshort shorts
  int t = threadIdx.x;
  if (t < 32) fixed[t] = t * t;
  d[t] = in[t] * 0.25;
  for (int i = t; i < nint; i += blockDim.x) ints[i] = i * 3;
  for (int i = t; i < nfloat; i += blockDim.x) floats[i] = i * 0.5f;
  for (int i = t; i < nshort; i += blockDim.x) shorts[i] = (short)(-i);
  __syncthreads();
  int r = (int)(d[blockDim.x - 1 - t] * 4.0) + ints[(t * 7) % nint] + (int)(floats[(t * 5) % nfloat] * 2.0f) +
          shorts[(t * 3) % nshort] + fixed[t % 32];
  out[blockIdx.x * blockDim.x + t] = r;
}

int main() {
  const int cfg[][4] = {{64, 100, 50, 77}, {128, 7, 300, 3}, {33, 1000, 1, 1}, {256, 2, 2, 2}};
  for (auto& c : cfg) {
    int threads = c[0], nshort = c[1], nfloat = c[2], nint = c[3];
    size_t bytes = threads * sizeof(double) + nint * sizeof(int) + nfloat * sizeof(float) + nshort * sizeof(short);
    std::vector<int> h(threads);
    for (int i = 0; i < threads; ++i) h[i] = i * 11 - 50;
    int *din, *dout;
    CHECK(cudaMalloc(&din, threads * sizeof(int)));
    CHECK(cudaMalloc(&dout, 2 * threads * sizeof(int)));
    CHECK(cudaMemcpy(din, h.data(), threads * sizeof(int), cudaMemcpyHostToDevice));
    partitioned<<<2, threads, bytes>>>(nshort, nfloat, nint, din, dout);
    CHECK_KERNEL();
    std::vector<int> o(2 * threads);
    CHECK(cudaMemcpy(o.data(), dout, o.size() * sizeof(int), cudaMemcpyDeviceToHost));
    for (int b = 0; b < 2; ++b)
      for (int t = 0; t < threads; ++t) {
        int want = h[threads - 1 - t] + ((t * 7) % nint) * 3 + ((t * 5) % nfloat) - ((t * 3) % nshort) + (t % 32) * (t % 32);
        EXPECT_EQ(o[b * threads + t], want, "partitioned dynamic shared", b * threads + t);
      }
    CHECK(cudaFree(din)); CHECK(cudaFree(dout));
  }
  return wf::finish();
}

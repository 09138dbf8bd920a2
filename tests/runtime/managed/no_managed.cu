// A program without __managed__ variables: it builds without the pass plugin as with it.
#include "../../cuda/common/check.h"

__device__ int doubled[32];

__global__ void twice(const int *in) { doubled[threadIdx.x] = 2 * in[threadIdx.x]; }

int main() {
  int host[32], *in;
  for (int i = 0; i < 32; ++i)
    host[i] = i - 10;
  CHECK(cudaMalloc(&in, sizeof host));
  CHECK(cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice));
  twice<<<1, 32>>>(in);
  CHECK_KERNEL();
  int out[32];
  CHECK(cudaMemcpyFromSymbol(out, doubled, sizeof out));
  for (int i = 0; i < 32; ++i)
    EXPECT_EQ(out[i], 2 * host[i], "doubled", i);
  CHECK(cudaFree(in));
  return wf::finish();
}

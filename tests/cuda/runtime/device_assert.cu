// WF-CHAPTER: runtime
// WF-FEATURES: rt.assert
// WF-DESCRIPTION: device-side assert (guide B.16): a passing assert is silent; a failing assert in one thread stops the kernel and cudaDeviceSynchronize returns cudaErrorAssert (done last: the context is unusable afterwards on NVIDIA GPUs)
#include "../common/check.h"
#include <cassert>

__global__ void check_values(const int* d, int n, int* ok) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    assert(d[i] >= 0);
    atomicAdd(ok, 1);
  }
}

int main() {
  const int n = 256;
  int h[n];
  for (int i = 0; i < n; ++i) h[i] = i;
  int *d, *ok;
  CHECK(cudaMalloc(&d, sizeof(h)));
  CHECK(cudaMalloc(&ok, sizeof(int)));
  CHECK(cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(ok, 0, sizeof(int)));
  check_values<<<2, 128>>>(d, n, ok);  // every assert holds
  CHECK_KERNEL();
  int hok = 0;
  CHECK(cudaMemcpy(&hok, ok, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT_EQ(hok, n, "passing asserts", 0);
  h[77] = -1;
  CHECK(cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice));
  check_values<<<2, 128>>>(d, n, ok);  // thread 77 fails
  CHECK(cudaGetLastError());           // the launch itself is fine
  cudaError_t e = cudaDeviceSynchronize();
  EXPECT_EQ((int)e, (int)cudaErrorAssert, "cudaDeviceSynchronize after a failed device assert", 0);
  fflush(stdout);
  return wf::finish();
}

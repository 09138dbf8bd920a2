// WF-CHAPTER: memory
// WF-FEATURES: mem.managed.malloc, mem.managed.variable
// WF-DESCRIPTION: unified memory: cudaMallocManaged buffers and __managed__ variables used by host and kernels alternately (small sizes)
#include "../common/check.h"
#include <vector>

__managed__ int total = 0;
__managed__ float mscale = 1.5f;

__global__ void kernel(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    v[i] = v[i] * mscale;
    atomicAdd(&total, 1);
  }
}

int main() {
  int attr = 0;
  CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrManagedMemory, 0));
  if (!attr) { printf("managed memory not supported\n"); return 1; }
  const int n = 1000;
  float* v;
  CHECK(cudaMallocManaged(&v, n * sizeof(float)));
  for (int i = 0; i < n; ++i) v[i] = (float)i;
  kernel<<<(n + 255) / 256, 256>>>(v, n);
  CHECK_KERNEL();
  for (int i = 0; i < n; ++i) EXPECT_EQ(v[i], i * 1.5f, "first pass", i);
  EXPECT_EQ(total, n, "managed counter", 0);
  mscale = 2.0f;  // host writes a __managed__ variable between launches
  for (int i = 0; i < n; i += 2) v[i] = -1.0f;
  kernel<<<(n + 255) / 256, 256>>>(v, n);
  CHECK_KERNEL();
  for (int i = 0; i < n; ++i) EXPECT_EQ(v[i], (i % 2 == 0) ? -2.0f : i * 3.0f, "second pass", i);
  EXPECT_EQ(total, 2 * n, "managed counter", 1);
  CHECK(cudaFree(v));
  return wf::finish();
}

// WF-CHAPTER: sync
// WF-FEATURES: sync.threadfence, sync.volatile, atomics.inc.global, sync.syncthreads
// WF-DESCRIPTION: the guide's B.5 "last block done" sum: each block stores a partial result, __threadfence, atomicInc a ticket; the last block reads every partial through volatile loads
#include "../common/check.h"
#include <vector>

__device__ unsigned int count = 0;

__device__ long long block_sum(const int* in, int n) {
  __shared__ long long s[256];
  long long v = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += in[i];
  s[threadIdx.x] = v;
  __syncthreads();
  for (int st = blockDim.x / 2; st > 0; st >>= 1) {
    if (threadIdx.x < st) s[threadIdx.x] += s[threadIdx.x + st];
    __syncthreads();
  }
  return s[0];
}

__global__ void sum(const int* in, int n, volatile long long* partial, long long* result) {
  __shared__ bool isLastBlockDone;
  long long ps = block_sum(in, n);
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = ps;
    __threadfence();  // the partial is visible device-wide before the ticket is taken
    unsigned int value = atomicInc(&count, gridDim.x);
    isLastBlockDone = (value == (gridDim.x - 1));
  }
  __syncthreads();
  if (isLastBlockDone && threadIdx.x == 0) {
    long long total = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) total += partial[b];  // volatile: really read memory
    *result = total;
    count = 0;  // atomicInc wrapped to 0 already; reset anyway for the next launch
  }
}

int main() {
  const int n = 100003;
  std::vector<int> h(n);
  long long want = 0;
  for (int i = 0; i < n; ++i) { h[i] = (int)((i * 7919u) % 20001) - 10000; want += h[i]; }
  int* d;
  long long *partial, *res;
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  CHECK(cudaMalloc(&partial, 512 * sizeof(long long)));
  CHECK(cudaMalloc(&res, sizeof(long long)));
  CHECK(cudaMemcpy(d, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  const int grids[] = {1, 7, 64, 300};
  for (int g : grids) {
    CHECK(cudaMemset(res, 0, sizeof(long long)));
    sum<<<g, 256>>>(d, n, partial, res);
    CHECK_KERNEL();
    long long got;
    CHECK(cudaMemcpy(&got, res, sizeof(got), cudaMemcpyDeviceToHost));
    EXPECT_EQ(got, want, "last-block sum", g);
  }
  unsigned c;
  CHECK(cudaMemcpyFromSymbol(&c, count, sizeof(c)));
  EXPECT_EQ(c, 0u, "counter wrapped", 0);
  CHECK(cudaFree(d)); CHECK(cudaFree(partial)); CHECK(cudaFree(res));
  return wf::finish();
}

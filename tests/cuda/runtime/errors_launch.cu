// WF-CHAPTER: runtime
// WF-FEATURES: rt.error.invalid_configuration, rt.error.shared_memory_limit, rt.error.last_error, rt.error.non_sticky
// WF-DESCRIPTION: bad launches report errors without running and without poisoning the context (guide 3.2.9): too many threads per block, block z > 64, zero-sized grid or block, grid y > 65535, dynamic shared memory above the limit; cudaPeekAtLastError keeps and cudaGetLastError clears the error
#include "../common/check.h"
#include <vector>

__global__ void mark(int* d) { atomicAdd(d, 1); }
__global__ void dyn(int* d) { extern __shared__ int s[]; s[threadIdx.x] = 1; __syncthreads(); atomicAdd(d, s[0]); }

// The runtime documents cudaErrorInvalidConfiguration for bad execution configurations; CUDA 13.0 on an
// H200 (driver 580) returns cudaErrorInvalidValue for them. Either is accepted; anything else fails.
static void expect_launch_error(const char* what, cudaError_t want, int* d) {
  cudaError_t peek = cudaPeekAtLastError();
  cudaError_t again = cudaPeekAtLastError();
  cudaError_t got = cudaGetLastError();
  cudaError_t cleared = cudaGetLastError();
  if (want == cudaErrorInvalidConfiguration && peek == cudaErrorInvalidValue) want = cudaErrorInvalidValue;
  EXPECT_EQ((int)peek, (int)want, what, 0);
  EXPECT_EQ((int)again, (int)peek, "cudaPeekAtLastError does not clear", 0);
  EXPECT_EQ((int)got, (int)peek, "cudaGetLastError returns the error", 0);
  EXPECT_EQ((int)cleared, (int)cudaSuccess, "cudaGetLastError cleared it", 0);
  CHECK(cudaDeviceSynchronize());
  int h = -1;
  CHECK(cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost));
  EXPECT_EQ(h, 0, "a failed launch runs nothing", 0);
}

int main() {
  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, 0));
  int* d;
  CHECK(cudaMalloc(&d, 4));
  CHECK(cudaMemset(d, 0, 4));
  mark<<<1, p.maxThreadsPerBlock + 1>>>(d);
  expect_launch_error("too many threads per block", cudaErrorInvalidConfiguration, d);
  mark<<<1, dim3(1, 1, p.maxThreadsDim[2] + 1)>>>(d);
  expect_launch_error("block z above maxThreadsDim[2]", cudaErrorInvalidConfiguration, d);
  mark<<<1, dim3(2048, 1, 1)>>>(d);
  expect_launch_error("block x above maxThreadsDim[0]", cudaErrorInvalidConfiguration, d);
  mark<<<0, 32>>>(d);
  expect_launch_error("empty grid", cudaErrorInvalidConfiguration, d);
  mark<<<1, 0>>>(d);
  expect_launch_error("empty block", cudaErrorInvalidConfiguration, d);
  mark<<<dim3(1, p.maxGridSize[1] + 1), 1>>>(d);
  expect_launch_error("grid y above maxGridSize[1]", cudaErrorInvalidConfiguration, d);
  dyn<<<1, 32, p.sharedMemPerBlockOptin + 1024>>>(d);
  expect_launch_error("dynamic shared memory above the opt-in limit", cudaErrorInvalidValue, d);
  dyn<<<1, 32, p.sharedMemPerBlock + 4>>>(d);  // above the default 48 KB without opting in
  expect_launch_error("dynamic shared memory above the default limit without opt-in", cudaErrorInvalidValue, d);
  // the context is still good
  mark<<<3, 32>>>(d);
  CHECK_KERNEL();
  int h;
  CHECK(cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost));
  EXPECT_EQ(h, 96, "good launch after bad ones", 0);
  return wf::finish();
}

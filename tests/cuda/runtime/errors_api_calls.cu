// WF-CHAPTER: runtime
// WF-FEATURES: rt.error.invalid_value, rt.error.invalid_device, rt.error.memcpy_direction, rt.error.memory_allocation, rt.error.names
// WF-DESCRIPTION: runtime calls with bad arguments return the documented error codes and leave the context usable: cudaMemcpy with an invalid direction or null pointers, cudaFree of a non-allocation, cudaSetDevice/cudaGetDeviceProperties out of range, an impossible cudaMalloc; cudaGetErrorName/String
#include "../common/check.h"
#include <cstring>
#include <vector>

int main() {
  int count = 0;
  CHECK(cudaGetDeviceCount(&count));
  int* d;
  CHECK(cudaMalloc(&d, 256));
  int h[64] = {0};
  cudaError_t e;
  e = cudaMemcpy(d, h, 256, (cudaMemcpyKind)7);
  EXPECT_EQ((int)e, (int)cudaErrorInvalidMemcpyDirection, "cudaMemcpy with a bad direction", 0);
  cudaGetLastError();
  e = cudaMemcpy(nullptr, h, 256, cudaMemcpyHostToDevice);
  EXPECT_EQ((int)e, (int)cudaErrorInvalidValue, "cudaMemcpy to a null pointer", 0);
  cudaGetLastError();
  e = cudaMemcpy(h, nullptr, 256, cudaMemcpyDeviceToHost);
  EXPECT_EQ((int)e, (int)cudaErrorInvalidValue, "cudaMemcpy from a null pointer", 0);
  cudaGetLastError();
  e = cudaFree(h);  // host stack address, not an allocation
  EXPECT_EQ((int)e, (int)cudaErrorInvalidValue, "cudaFree of a non-allocation", 0);
  cudaGetLastError();
  e = cudaFree(nullptr);
  EXPECT_EQ((int)e, (int)cudaSuccess, "cudaFree(nullptr) is a no-op", 0);
  e = cudaSetDevice(count);
  EXPECT_EQ((int)e, (int)cudaErrorInvalidDevice, "cudaSetDevice out of range", 0);
  cudaGetLastError();
  e = cudaSetDevice(-1);
  EXPECT_EQ((int)e, (int)cudaErrorInvalidDevice, "cudaSetDevice(-1)", 0);
  cudaGetLastError();
  cudaDeviceProp p;
  e = cudaGetDeviceProperties(&p, count + 3);
  EXPECT_EQ((int)e, (int)cudaErrorInvalidDevice, "cudaGetDeviceProperties out of range", 0);
  cudaGetLastError();
  void* huge = nullptr;
  e = cudaMalloc(&huge, (size_t)1 << 62);
  EXPECT_EQ((int)e, (int)cudaErrorMemoryAllocation, "cudaMalloc of 2^62 bytes", 0);
  cudaGetLastError();
  e = cudaMemset(nullptr, 0, 16);
  EXPECT_EQ((int)e, (int)cudaErrorInvalidValue, "cudaMemset of a null pointer", 0);
  cudaGetLastError();
  e = cudaMemcpyToSymbol(nullptr, h, 4);
  EXPECT_TRUE(e != cudaSuccess, "cudaMemcpyToSymbol of a non-symbol fails");
  cudaGetLastError();
  // names and strings
  EXPECT_TRUE(strcmp(cudaGetErrorName(cudaSuccess), "cudaSuccess") == 0, "cudaGetErrorName(cudaSuccess)");
  EXPECT_TRUE(strcmp(cudaGetErrorName(cudaErrorInvalidValue), "cudaErrorInvalidValue") == 0, "cudaGetErrorName(cudaErrorInvalidValue)");
  EXPECT_TRUE(strcmp(cudaGetErrorName(cudaErrorInvalidConfiguration), "cudaErrorInvalidConfiguration") == 0, "cudaGetErrorName(cudaErrorInvalidConfiguration)");
  EXPECT_TRUE(strlen(cudaGetErrorString(cudaErrorMemoryAllocation)) > 0, "cudaGetErrorString is non-empty");
  EXPECT_EQ((int)cudaErrorInvalidValue, 1, "enum value cudaErrorInvalidValue", 0);
  EXPECT_EQ((int)cudaErrorMemoryAllocation, 2, "enum value cudaErrorMemoryAllocation", 0);
  EXPECT_EQ((int)cudaErrorInvalidConfiguration, 9, "enum value cudaErrorInvalidConfiguration", 0);
  // still usable
  CHECK(cudaMemcpy(d, h, 256, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(h, d, 256, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d));
  CHECK(cudaGetLastError());
  return wf::finish();
}

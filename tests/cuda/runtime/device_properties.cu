// WF-CHAPTER: runtime
// WF-FEATURES: rt.device.count, rt.device.properties, rt.device.attribute, rt.device.select, rt.version
// WF-DESCRIPTION: cudaGetDeviceCount/SetDevice/GetDevice, cudaGetDeviceProperties with sane values (warpSize 32, maxThreadsPerBlock >= 256, limits consistent with each other), cudaDeviceGetAttribute agreeing with the properties, driver and runtime versions
#include "../common/check.h"
#include <cstring>
#include <vector>

int main() {
  int count = 0;
  CHECK(cudaGetDeviceCount(&count));
  EXPECT_TRUE(count >= 1, "at least one device");
  CHECK(cudaSetDevice(0));
  int dev = -1;
  CHECK(cudaGetDevice(&dev));
  EXPECT_EQ(dev, 0, "current device", 0);
  int drv = 0, rt = 0;
  CHECK(cudaDriverGetVersion(&drv));
  CHECK(cudaRuntimeGetVersion(&rt));
  EXPECT_TRUE(rt >= 12000, "runtime version >= 12.0");
  EXPECT_TRUE(drv >= rt || drv >= 12000, "driver version plausible");
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, d));
    EXPECT_TRUE(strlen(p.name) > 0, "device has a name");
    EXPECT_EQ(p.warpSize, 32, "warpSize", d);
    EXPECT_TRUE(p.maxThreadsPerBlock >= 256 && p.maxThreadsPerBlock <= 1024 && p.maxThreadsPerBlock % 32 == 0, "maxThreadsPerBlock in [256, 1024], multiple of 32");
    EXPECT_TRUE(p.maxThreadsDim[0] >= 256 && p.maxThreadsDim[0] <= p.maxThreadsPerBlock, "maxThreadsDim[0]");
    EXPECT_TRUE(p.maxThreadsDim[1] >= 1 && p.maxThreadsDim[1] <= p.maxThreadsPerBlock, "maxThreadsDim[1]");
    EXPECT_TRUE(p.maxThreadsDim[2] >= 1 && p.maxThreadsDim[2] <= 64, "maxThreadsDim[2] <= 64");
    EXPECT_TRUE(p.maxGridSize[0] >= 65535 && p.maxGridSize[1] >= 65535 && p.maxGridSize[2] >= 65535, "maxGridSize");
    EXPECT_TRUE(p.sharedMemPerBlock >= 16384, "sharedMemPerBlock >= 16 KB");
    EXPECT_TRUE(p.sharedMemPerBlockOptin >= p.sharedMemPerBlock, "opt-in shared >= default");
    EXPECT_TRUE(p.sharedMemPerMultiprocessor >= p.sharedMemPerBlock, "shared per SM >= per block");
    EXPECT_TRUE(p.totalConstMem >= 64 * 1024, "64 KB constant memory");
    EXPECT_TRUE(p.totalGlobalMem >= (size_t)64 << 20, "global memory >= 64 MB");
    EXPECT_TRUE(p.multiProcessorCount >= 1, "at least one multiprocessor");
    EXPECT_TRUE(p.maxThreadsPerMultiProcessor >= p.maxThreadsPerBlock, "threads per SM >= threads per block");
    EXPECT_TRUE(p.maxBlocksPerMultiProcessor >= 1, "blocks per SM");
    EXPECT_TRUE(p.regsPerBlock >= 8192 && p.regsPerMultiprocessor >= p.regsPerBlock, "registers");
    EXPECT_TRUE(p.major >= 1 && p.minor >= 0, "compute capability");
    EXPECT_TRUE(p.l2CacheSize >= 0 && p.memPitch >= 65536 && p.textureAlignment > 0, "misc limits");
    EXPECT_TRUE(p.unifiedAddressing == 1, "unified addressing");
    struct { cudaDeviceAttr a; long long v; const char* n; } attrs[] = {
        {cudaDevAttrWarpSize, p.warpSize, "WarpSize"},
        {cudaDevAttrMaxThreadsPerBlock, p.maxThreadsPerBlock, "MaxThreadsPerBlock"},
        {cudaDevAttrMaxBlockDimX, p.maxThreadsDim[0], "MaxBlockDimX"},
        {cudaDevAttrMaxBlockDimZ, p.maxThreadsDim[2], "MaxBlockDimZ"},
        {cudaDevAttrMaxGridDimX, p.maxGridSize[0], "MaxGridDimX"},
        {cudaDevAttrMaxGridDimY, p.maxGridSize[1], "MaxGridDimY"},
        {cudaDevAttrMaxSharedMemoryPerBlock, (long long)p.sharedMemPerBlock, "MaxSharedMemoryPerBlock"},
        {cudaDevAttrMaxSharedMemoryPerBlockOptin, (long long)p.sharedMemPerBlockOptin, "MaxSharedMemoryPerBlockOptin"},
        {cudaDevAttrMultiProcessorCount, p.multiProcessorCount, "MultiProcessorCount"},
        {cudaDevAttrComputeCapabilityMajor, p.major, "ComputeCapabilityMajor"},
        {cudaDevAttrComputeCapabilityMinor, p.minor, "ComputeCapabilityMinor"},
        {cudaDevAttrMaxThreadsPerMultiProcessor, p.maxThreadsPerMultiProcessor, "MaxThreadsPerMultiProcessor"},
        {cudaDevAttrTotalConstantMemory, (long long)p.totalConstMem, "TotalConstantMemory"},
        {cudaDevAttrCooperativeLaunch, p.cooperativeLaunch, "CooperativeLaunch"},
        {cudaDevAttrMaxRegistersPerBlock, p.regsPerBlock, "MaxRegistersPerBlock"},
    };
    for (auto& a : attrs) {
      int v = -1;
      CHECK(cudaDeviceGetAttribute(&v, a.a, d));
      EXPECT_EQ((long long)v, a.v, a.n, d);
    }
  }
  return wf::finish();
}

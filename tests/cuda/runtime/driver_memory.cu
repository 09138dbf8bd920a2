// WF-CHAPTER: runtime
// WF-FEATURES: rt.driver.memory
// WF-DESCRIPTION: the driver API's pointer queries and pitched copies (cuda.h, -lcuda): cuPointerGetAttribute(s) of device, pinned host and unknown memory, cuMemGetAddressRange of an inner pointer, cuMemcpy2D (host to pitched device rows and back), cuMemcpy3D of a sub-box, cuMemcpy2DAsync into a captured graph; cudaMemcpy2DAsync and cudaMemcpy3DAsync captured by the runtime API
// WF-NVCC-FLAGS: -lcuda
#include <cuda.h>
#include "../common/check.h"

#define CU(call)                                                                          \
  do {                                                                                    \
    CUresult r_ = (call);                                                                 \
    if (r_ != CUDA_SUCCESS) {                                                             \
      const char* name_ = nullptr;                                                        \
      cuGetErrorName(r_, &name_);                                                         \
      printf("%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, name_ ? name_ : "?");   \
      exit(1);                                                                            \
    }                                                                                     \
  } while (0)

int main() {
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));

  // ---- pointer attributes ----
  const size_t bytes = 2 << 20;  // 2 MiB: no allocation granularity rounds it
  CUdeviceptr d;
  CU(cuMemAlloc(&d, bytes));
  unsigned type = 0;
  CU(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d + 4096));
  EXPECT_EQ((int)type, (int)CU_MEMORYTYPE_DEVICE, "device memory type", 0);
  CUcontext owner = nullptr;
  CU(cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, d));
  EXPECT_TRUE(owner == ctx, "device memory context");
  CUdeviceptr start = 0;
  size_t size = 0;
  CU(cuPointerGetAttribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, d + 100));
  CU(cuPointerGetAttribute(&size, CU_POINTER_ATTRIBUTE_RANGE_SIZE, d + 100));
  EXPECT_TRUE(start == d, "range start of an inner pointer");
  EXPECT_EQ((long long)size, (long long)bytes, "range size", 0);
  int managed = -1, ordinal = -1;
  CU(cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, d));
  CU(cuPointerGetAttribute(&ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, d));
  EXPECT_EQ(managed, 0, "not managed", 0);
  EXPECT_EQ(ordinal, 0, "device ordinal", 0);
  CUdeviceptr base = 0;
  size_t rangeSize = 0;
  CU(cuMemGetAddressRange(&base, &rangeSize, d + bytes - 1));
  EXPECT_TRUE(base == d, "cuMemGetAddressRange base");
  EXPECT_EQ((long long)rangeSize, (long long)bytes, "cuMemGetAddressRange size", 0);

  float* pinned;
  CU(cuMemAllocHost((void**)&pinned, 4096));
  CU(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)pinned));
  EXPECT_EQ((int)type, (int)CU_MEMORYTYPE_HOST, "pinned host memory type", 0);
  void* hostPtr = nullptr;
  CU(cuPointerGetAttribute(&hostPtr, CU_POINTER_ATTRIBUTE_HOST_POINTER, (CUdeviceptr)pinned));
  EXPECT_TRUE(hostPtr == pinned, "pinned host pointer");

  // Several at once; memory CUDA does not know reads as zeros, not as an error.
  static int unknown[16];
  CUpointer_attribute attrs[2] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_CONTEXT};
  unsigned t2 = 99;
  CUcontext c2 = ctx;
  void* data[2] = {&t2, &c2};
  CU(cuPointerGetAttributes(2, attrs, data, (CUdeviceptr)unknown));
  EXPECT_EQ((int)t2, 0, "unknown memory type", 0);
  EXPECT_TRUE(c2 == nullptr, "unknown memory context");
  CU(cuPointerGetAttributes(2, attrs, data, d));
  EXPECT_EQ((int)t2, (int)CU_MEMORYTYPE_DEVICE, "device memory, several attributes", 0);

  // ---- cuMemcpy2D: 6 rows of 40 bytes from a packed host array into 128-byte device rows ----
  const int rows = 6, cols = 10, pitch = 128;
  int src[rows * cols], back[rows * pitch / 4];
  for (int i = 0; i < rows * cols; ++i) src[i] = 1000 + i;
  CU(cuMemsetD8(d, 0xff, rows * pitch));
  CUDA_MEMCPY2D m = {};
  m.srcMemoryType = CU_MEMORYTYPE_HOST;
  m.srcHost = src;
  m.srcPitch = cols * 4;
  m.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  m.dstDevice = d;
  m.dstPitch = pitch;
  m.WidthInBytes = cols * 4;
  m.Height = rows;
  CU(cuMemcpy2D(&m));
  CU(cuMemcpyDtoH(back, d, rows * pitch));
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < pitch / 4; ++c)
      EXPECT_EQ(back[r * pitch / 4 + c], c < cols ? 1000 + r * cols + c : -1, "cuMemcpy2D rows", r * pitch / 4 + c);

  // ---- cuMemcpy3D: the box x 2..5, y 1..3, z 1 of a 8x4x3 int volume (pitch 32 bytes) ----
  int volume[3 * 4 * 8], box[2 * 3 * 4];
  for (int i = 0; i < 96; ++i) volume[i] = i;
  CU(cuMemcpyHtoD(d, volume, sizeof volume));
  CUDA_MEMCPY3D q = {};
  q.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  q.srcDevice = d;
  q.srcPitch = 32;
  q.srcHeight = 4;
  q.srcXInBytes = 2 * 4;
  q.srcY = 1;
  q.srcZ = 1;
  q.dstMemoryType = CU_MEMORYTYPE_HOST;
  q.dstHost = box;
  q.dstPitch = 4 * 4;
  q.dstHeight = 3;
  q.WidthInBytes = 4 * 4;
  q.Height = 3;
  q.Depth = 2;
  CU(cuMemcpy3D(&q));
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 4; ++x)
        EXPECT_EQ(box[(z * 3 + y) * 4 + x], ((1 + z) * 4 + 1 + y) * 8 + 2 + x, "cuMemcpy3D box", (z * 3 + y) * 4 + x);

  // ---- captured pitched copies: the driver's cuMemcpy2DAsync, the runtime's 2D and 3D ----
  int* hostOut;
  CU(cuMemAllocHost((void**)&hostOut, rows * cols * 4));
  CUDA_MEMCPY2D back2 = {};
  back2.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  back2.srcDevice = d;
  back2.srcPitch = pitch;
  back2.dstMemoryType = CU_MEMORYTYPE_HOST;
  back2.dstHost = hostOut;
  back2.dstPitch = cols * 4;
  back2.WidthInBytes = cols * 4;
  back2.Height = rows;
  CUstream s;
  CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  int* pinnedSrc;
  CU(cuMemAllocHost((void**)&pinnedSrc, rows * cols * 4));
  for (int i = 0; i < rows * cols; ++i) pinnedSrc[i] = 5000 + i;
  CU(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
  CHECK(cudaMemcpy2DAsync((void*)d, pitch, pinnedSrc, cols * 4, cols * 4, rows, cudaMemcpyHostToDevice, (cudaStream_t)s));
  CU(cuMemcpy2DAsync(&back2, s));
  CUgraph g;
  CU(cuStreamEndCapture(s, &g));
  size_t count = 0;
  CU(cuGraphGetNodes(g, nullptr, &count));
  EXPECT_EQ((int)count, 2, "captured pitched copies", 0);
  CUgraphExec ge;
  CU(cuGraphInstantiate(&ge, g, 0));
  CU(cuGraphLaunch(ge, s));
  CU(cuStreamSynchronize(s));
  for (int i = 0; i < rows * cols; ++i) EXPECT_EQ(hostOut[i], 5000 + i, "captured 2D round trip", i);
  // The runtime's 3D form captured: the same box as above, out of the volume put back first.
  CU(cuMemcpyHtoD(d, volume, sizeof volume));
  for (int i = 0; i < 24; ++i) box[i] = -1;
  int* pinnedBox;
  CU(cuMemAllocHost((void**)&pinnedBox, sizeof box));
  cudaMemcpy3DParms p3 = {};
  p3.srcPtr = make_cudaPitchedPtr((void*)d, 32, 8 * 4, 4);
  p3.srcPos = make_cudaPos(2 * 4, 1, 1);
  p3.dstPtr = make_cudaPitchedPtr(pinnedBox, 4 * 4, 4 * 4, 3);
  p3.extent = make_cudaExtent(4 * 4, 3, 2);
  p3.kind = cudaMemcpyDeviceToHost;
  cudaGraph_t g3;
  CHECK(cudaStreamBeginCapture((cudaStream_t)s, cudaStreamCaptureModeGlobal));
  CHECK(cudaMemcpy3DAsync(&p3, (cudaStream_t)s));
  CHECK(cudaStreamEndCapture((cudaStream_t)s, &g3));
  cudaGraphExec_t ge3;
  CHECK(cudaGraphInstantiate(&ge3, g3, 0));
  CHECK(cudaGraphLaunch(ge3, (cudaStream_t)s));
  CHECK(cudaStreamSynchronize((cudaStream_t)s));
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 4; ++x)
        EXPECT_EQ(pinnedBox[(z * 3 + y) * 4 + x], ((1 + z) * 4 + 1 + y) * 8 + 2 + x, "captured cudaMemcpy3DAsync", (z * 3 + y) * 4 + x);

  CHECK(cudaGraphExecDestroy(ge3));
  CHECK(cudaGraphDestroy(g3));
  CU(cuGraphExecDestroy(ge));
  CU(cuGraphDestroy(g));
  CU(cuStreamDestroy(s));
  CU(cuMemFreeHost(pinned));
  CU(cuMemFreeHost(pinnedSrc));
  CU(cuMemFreeHost(pinnedBox));
  CU(cuMemFreeHost(hostOut));
  CU(cuMemFree(d));
  CU(cuDevicePrimaryCtxRelease(dev));
  return wf::finish();
}

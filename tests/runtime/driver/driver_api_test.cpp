// A driver-API program as users write one (NVIDIA's cuda.h, linked with -lcuda), run against
// Warpforge's libcuda.so.1: devices, contexts, modules from PTX, functions, globals, both launch
// parameter forms, memory, events, errors, a fault and recovery, and sharing with the runtime API.
// usage: driver_api_test KERNELS.ptx
#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

static int failures = 0;

#define EXPECT(cond)                                                                               \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      std::printf("FAILED line %d: %s\n", __LINE__, #cond);                                        \
      ++failures;                                                                                  \
    }                                                                                              \
  } while (0)
#define CHECK(call) EXPECT((call) == CUDA_SUCCESS)

int main(int argc, char **argv) {
  if (argc != 2) {
    std::printf("usage: driver_api_test KERNELS.ptx\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  std::stringstream text;
  text << in.rdbuf();
  std::string ptx = text.str();
  EXPECT(!ptx.empty());

  // Nothing works before cuInit.
  CUdevice dev = -1;
  EXPECT(cuDeviceGet(&dev, 0) == CUDA_ERROR_NOT_INITIALIZED);
  EXPECT(cuInit(1) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuInit(0));
  int count = 0, version = 0;
  CHECK(cuDeviceGetCount(&count));
  EXPECT(count == 1);
  CHECK(cuDriverGetVersion(&version));
  EXPECT(version >= 12000);
  EXPECT(cuDeviceGet(&dev, 1) == CUDA_ERROR_INVALID_DEVICE);
  CHECK(cuDeviceGet(&dev, 0));
  char name[128] = {};
  CHECK(cuDeviceGetName(name, sizeof name, dev));
  EXPECT(std::strstr(name, "Warpforge") != nullptr);
  size_t total = 0;
  CHECK(cuDeviceTotalMem(&total, dev));
  EXPECT(total >= (64u << 20));
  int major = 0, minor = 0, warp = 0;
  CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
  CHECK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
  CHECK(cuDeviceGetAttribute(&warp, CU_DEVICE_ATTRIBUTE_WARP_SIZE, dev));
  EXPECT(major * 10 + minor >= 75);
  EXPECT(warp == 32);

  CUcontext ctx = nullptr, current = nullptr;
  CHECK(cuCtxCreate(&ctx, nullptr, 0, dev));
  CHECK(cuCtxGetCurrent(&current));
  EXPECT(current == ctx);

  // Modules: a bad image is refused with an error and nothing else changes.
  CUmodule bad = nullptr;
  CUresult badLoad = cuModuleLoadData(&bad, ".version 8.0\n.target sm_80\n.address_size 64\n"
                                            ".visible .entry k( { bogus }\n");
  EXPECT(badLoad == CUDA_ERROR_INVALID_PTX || badLoad == CUDA_ERROR_INVALID_IMAGE);
  CUmodule module = nullptr;
  CHECK(cuModuleLoadData(&module, ptx.c_str()));
  CUfunction saxpy = nullptr, fill = nullptr, oob = nullptr, missing = nullptr;
  CHECK(cuModuleGetFunction(&saxpy, module, "saxpy"));
  CHECK(cuModuleGetFunction(&fill, module, "fill_index"));
  CHECK(cuModuleGetFunction(&oob, module, "out_of_bounds"));
  EXPECT(cuModuleGetFunction(&missing, module, "no_such_kernel") == CUDA_ERROR_NOT_FOUND);
  int regs = 0;
  CHECK(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, saxpy));
  EXPECT(regs > 0);

  CUdeviceptr scale = 0, offsets = 0;
  size_t scaleBytes = 0, offsetBytes = 0;
  CHECK(cuModuleGetGlobal(&scale, &scaleBytes, module, "scale"));
  CHECK(cuModuleGetGlobal(&offsets, &offsetBytes, module, "offsets"));
  EXPECT(scaleBytes == 4 && offsetBytes == 16);
  EXPECT(cuModuleGetGlobal(&scale, nullptr, module, "nope") == CUDA_ERROR_NOT_FOUND);
  float two = 2.0f;
  int offs[4] = {0, 10, 20, 30};
  CHECK(cuMemcpyHtoD(scale, &two, 4));
  CHECK(cuMemcpyHtoD(offsets, offs, sizeof offs));

  const int n = 1000;
  std::vector<float> x(n), y(n), out(n);
  for (int i = 0; i < n; ++i)
    x[i] = float(i), y[i] = 1.0f;
  CUdeviceptr dx = 0, dy = 0;
  CHECK(cuMemAlloc(&dx, n * sizeof(float)));
  CHECK(cuMemAlloc(&dy, n * sizeof(float)));
  CHECK(cuMemcpyHtoD(dx, x.data(), n * sizeof(float)));
  CHECK(cuMemcpyHtoD(dy, y.data(), n * sizeof(float)));

  CUevent start, stop;
  CHECK(cuEventCreate(&start, CU_EVENT_DEFAULT));
  CHECK(cuEventCreate(&stop, CU_EVENT_DEFAULT));
  CHECK(cuEventRecord(start, nullptr));
  int nn = n;
  float a = 3.0f;
  void *args[] = {&nn, &a, &dx, &dy};
  CHECK(cuLaunchKernel(saxpy, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr));
  CHECK(cuEventRecord(stop, nullptr));
  CHECK(cuEventSynchronize(stop));
  float ms = -1;
  CHECK(cuEventElapsedTime(&ms, start, stop));
  EXPECT(ms > 0);
  CHECK(cuMemcpyDtoH(out.data(), dy, n * sizeof(float)));
  for (int i = 0; i < n; ++i)
    EXPECT(out[i] == 3.0f * 2.0f * x[i] + 1.0f + float(offs[i % 4]) ||
           (std::printf("i=%d %f\n", i, out[i]), false));

  // The packed-buffer form of the parameters.
  struct {
    CUdeviceptr out;
    unsigned base;
  } packed = {dx, 7};
  size_t packedSize = sizeof packed;
  void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE,
                   &packedSize, CU_LAUNCH_PARAM_END};
  CHECK(cuLaunchKernel(fill, 4, 1, 1, 64, 1, 1, 0, nullptr, nullptr, extra));
  std::vector<unsigned> idx(256);
  CHECK(cuMemcpyDtoH(idx.data(), dx, 256 * 4));
  for (unsigned i = 0; i < 256; ++i)
    EXPECT(idx[i] == 7 + i);
  CHECK(cuMemsetD32(dx, 0xdeadbeef, 4));
  CHECK(cuMemcpyDtoH(idx.data(), dx, 16));
  EXPECT(idx[0] == 0xdeadbeef && idx[3] == 0xdeadbeef);
  EXPECT(cuMemsetD32(dx + 2, 0, 1) == CUDA_ERROR_INVALID_VALUE); // misaligned

  // One device shared with the runtime API: a cudaMalloc pointer is a CUdeviceptr.
  void *rtPtr = nullptr;
  EXPECT(cudaMalloc(&rtPtr, 256) == cudaSuccess);
  unsigned seven = 7, back = 0;
  CHECK(cuMemcpyHtoD(reinterpret_cast<CUdeviceptr>(rtPtr), &seven, 4));
  EXPECT(cudaMemcpy(&back, rtPtr, 4, cudaMemcpyDeviceToHost) == cudaSuccess);
  EXPECT(back == 7);

  // Bad launches are refused; a fault is reported, sticks, and a context reset recovers.
  EXPECT(cuLaunchKernel(fill, 1, 1, 1, 2048, 1, 1, 0, nullptr, nullptr, extra) != CUDA_SUCCESS);
  EXPECT(cuLaunchKernel(nullptr, 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr) ==
         CUDA_ERROR_INVALID_HANDLE);
  void *oobArgs[] = {&dx};
  CUresult launched = cuLaunchKernel(oob, 1, 1, 1, 32, 1, 1, 0, nullptr, oobArgs, nullptr);
  CUresult synced = cuCtxSynchronize();
  EXPECT(launched == CUDA_ERROR_ILLEGAL_ADDRESS || synced == CUDA_ERROR_ILLEGAL_ADDRESS);
  EXPECT(cuMemAlloc(&dx, 16) == CUDA_ERROR_ILLEGAL_ADDRESS);
  const char *errName = nullptr, *errText = nullptr;
  CHECK(cuGetErrorName(CUDA_ERROR_ILLEGAL_ADDRESS, &errName));
  CHECK(cuGetErrorString(CUDA_ERROR_ILLEGAL_ADDRESS, &errText));
  EXPECT(errName && std::strcmp(errName, "CUDA_ERROR_ILLEGAL_ADDRESS") == 0);
  EXPECT(errText && std::strlen(errText) > 0);
  CHECK(cuDevicePrimaryCtxReset(dev));
  CUmodule again = nullptr;
  CHECK(cuModuleLoadData(&again, ptx.c_str()));
  CHECK(cuModuleGetFunction(&fill, again, "fill_index"));
  CUdeviceptr fresh = 0;
  CHECK(cuMemAlloc(&fresh, 256 * 4));
  packed = {fresh, 100};
  CHECK(cuLaunchKernel(fill, 4, 1, 1, 64, 1, 1, 0, nullptr, nullptr, extra));
  CHECK(cuMemcpyDtoH(idx.data(), fresh, 256 * 4));
  EXPECT(idx[255] == 355);
  CHECK(cuModuleUnload(again));
  EXPECT(cuModuleGetFunction(&fill, again, "fill_index") == CUDA_ERROR_INVALID_HANDLE);
  CHECK(cuCtxDestroy(ctx));

  std::printf("%s (%d failures)\n", failures ? "FAIL" : "PASS", failures);
  return failures ? 1 : 0;
}

// WF-CHAPTER: runtime
// WF-FEATURES: rt.driver.launch
// WF-DESCRIPTION: the driver API's launch variants and stream attributes (cuda.h, -lcuda): cuLaunchKernelEx with launch attributes (cooperative, priority), cuLaunchCooperativeKernel, cuFuncGetParamInfo of a PTX kernel, cuStreamSetAttribute/GetAttribute (priority, access policy window) and cuStreamCopyAttributes, cuCtxSetCacheConfig/GetCacheConfig
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

// d[i] += v for i < n
static const char* kPtx = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry add_n(.param .u64 p_d, .param .u32 p_n, .param .u32 p_v)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p_d];
  ld.param.u32 %r1, [p_n];
  ld.param.u32 %r6, [p_v];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r5, %r2, %r3, %r4;
  setp.ge.s32 %p1, %r5, %r1;
  @%p1 bra DONE;
  mul.wide.s32 %rd2, %r5, 4;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.u32 %r7, [%rd3];
  add.s32 %r7, %r7, %r6;
  st.global.u32 [%rd3], %r7;
DONE:
  ret;
}
)";

static const int n = 256;

int main() {
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));
  CUmodule module;
  CU(cuModuleLoadData(&module, kPtx));
  CUfunction add;
  CU(cuModuleGetFunction(&add, module, "add_n"));

  // ---- the parameter layout of add_n(u64, u32, u32) ----
  size_t offset = 0, size = 0;
  const size_t wantOffset[3] = {0, 8, 12}, wantSize[3] = {8, 4, 4};
  for (int i = 0; i < 3; ++i) {
    CU(cuFuncGetParamInfo(add, i, &offset, &size));
    EXPECT_EQ((int)offset, (int)wantOffset[i], "parameter offset", i);
    EXPECT_EQ((int)size, (int)wantSize[i], "parameter size", i);
  }
  EXPECT_TRUE(cuFuncGetParamInfo(add, 3, &offset, &size) == CUDA_ERROR_INVALID_VALUE, "no fourth parameter");

  // ---- stream attributes ----
  CUstream s, t;
  CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  CU(cuStreamCreate(&t, CU_STREAM_NON_BLOCKING));
  int least = 0, greatest = 0;
  CU(cuCtxGetStreamPriorityRange(&least, &greatest));
  CUstreamAttrValue value = {};
  value.priority = greatest;
  CU(cuStreamSetAttribute(s, CU_STREAM_ATTRIBUTE_PRIORITY, &value));
  int priority = 0;
  CU(cuStreamGetPriority(s, &priority));
  EXPECT_EQ(priority, greatest, "priority set as an attribute", 0);
  CUdeviceptr d;
  CU(cuMemAlloc(&d, n * 4));
  CUstreamAttrValue window = {};
  window.accessPolicyWindow.base_ptr = (void*)d;
  window.accessPolicyWindow.num_bytes = n * 4;
  window.accessPolicyWindow.hitRatio = 0.5f;
  window.accessPolicyWindow.hitProp = CU_ACCESS_PROPERTY_PERSISTING;
  window.accessPolicyWindow.missProp = CU_ACCESS_PROPERTY_STREAMING;
  CU(cuStreamSetAttribute(s, CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW, &window));
  CU(cuStreamCopyAttributes(t, s));
  CUstreamAttrValue got = {};
  CU(cuStreamGetAttribute(t, CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW, &got));
  EXPECT_TRUE(got.accessPolicyWindow.base_ptr == (void*)d, "copied window base");
  EXPECT_EQ((int)got.accessPolicyWindow.num_bytes, n * 4, "copied window size", 0);
  EXPECT_EQ(got.accessPolicyWindow.hitRatio, 0.5f, "copied window hit ratio", 0);
  CU(cuStreamGetAttribute(t, CU_STREAM_ATTRIBUTE_PRIORITY, &got));
  EXPECT_EQ(got.priority, greatest, "copied priority", 0);

  // ---- cuLaunchKernelEx (cooperative and priority attributes) and cuLaunchCooperativeKernel ----
  CU(cuMemsetD32(d, 0, n));
  CU(cuCtxSynchronize());
  int nn = n, five = 5, seven = 7;
  void* args5[] = {&d, &nn, &five};
  void* args7[] = {&d, &nn, &seven};
  CUlaunchAttribute attrs[2] = {};
  attrs[0].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
  attrs[0].value.cooperative = 1;
  attrs[1].id = CU_LAUNCH_ATTRIBUTE_PRIORITY;
  attrs[1].value.priority = least;
  CUlaunchConfig config = {};
  config.gridDimX = n / 64;
  config.gridDimY = config.gridDimZ = 1;
  config.blockDimX = 64;
  config.blockDimY = config.blockDimZ = 1;
  config.hStream = s;
  config.attrs = attrs;
  config.numAttrs = 2;
  CU(cuLaunchKernelEx(&config, add, args5, nullptr));
  CU(cuLaunchCooperativeKernel(add, n / 64, 1, 1, 64, 1, 1, 0, s, args7));
  CU(cuStreamSynchronize(s));
  int host[n];
  CU(cuMemcpyDtoH(host, d, n * 4));
  for (int i = 0; i < n; ++i) EXPECT_EQ(host[i], 12, "cuLaunchKernelEx then a cooperative launch", i);

  // ---- the context's cache preference ----
  CU(cuCtxSetCacheConfig(CU_FUNC_CACHE_PREFER_SHARED));
  CUfunc_cache cache = CU_FUNC_CACHE_PREFER_NONE;
  CU(cuCtxGetCacheConfig(&cache));
  EXPECT_EQ((int)cache, (int)CU_FUNC_CACHE_PREFER_SHARED, "cache preference", 0);
  CU(cuCtxSetCacheConfig(CU_FUNC_CACHE_PREFER_NONE));

  CU(cuStreamDestroy(s));
  CU(cuStreamDestroy(t));
  CU(cuMemFree(d));
  CU(cuModuleUnload(module));
  CU(cuDevicePrimaryCtxRelease(dev));
  return wf::finish();
}

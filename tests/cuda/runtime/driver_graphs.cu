// WF-CHAPTER: runtime
// WF-FEATURES: rt.driver.graphs
// WF-DESCRIPTION: the driver API's graphs (cuda.h, -lcuda): a capture across two streams with cuStreamBeginCapture/cuEventRecord/cuStreamWaitEvent of a kernel, an async fill, an async copy and a host function, replayed; an explicit graph of kernel and memset nodes ordered by cuGraphAddDependencies, cuGraphGetEdges, node and executable-node parameters and cuGraphExecUpdate; kernels loaded from PTX text with cuModuleLoadData
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

static void count_call(void* p) { ++*(int*)p; }

static int first(CUdeviceptr d) {
  int h = 0;
  CU(cuMemcpyDtoH(&h, d, 4));
  return h;
}

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
  CUdeviceptr d, e;
  CU(cuMemAlloc(&d, n * 4));
  CU(cuMemAlloc(&e, n * 4));
  CU(cuMemsetD32(d, 0, n));
  CU(cuCtxSynchronize());
  int* host;
  CU(cuMemAllocHost((void**)&host, n * 4));
  CUstream s1, s2;
  CU(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
  CU(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
  CUevent fork, join;
  CU(cuEventCreate(&fork, CU_EVENT_DEFAULT));
  CU(cuEventCreate(&join, CU_EVENT_DEFAULT));

  // ---- capture: d += 1 (s1) ; fork ; e = 7, e += 2 (s2) ; join ; copy e out, host function (s1) ----
  int nn = n, one = 1, two = 2, calls = 0;
  void* argsD[] = {&d, &nn, &one};
  void* argsE[] = {&e, &nn, &two};
  CU(cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
  CU(cuLaunchKernel(add, n / 64, 1, 1, 64, 1, 1, 0, s1, argsD, nullptr));
  CU(cuEventRecord(fork, s1));
  CU(cuStreamWaitEvent(s2, fork, 0));
  CU(cuMemsetD32Async(e, 7, n, s2));
  CU(cuLaunchKernel(add, n / 64, 1, 1, 64, 1, 1, 0, s2, argsE, nullptr));
  CUstreamCaptureStatus status;
  cuuint64_t id1 = 0, id2 = 0;
  CU(cuStreamGetCaptureInfo(s1, &status, &id1, nullptr, nullptr, nullptr, nullptr));
  CU(cuStreamGetCaptureInfo(s2, &status, &id2, nullptr, nullptr, nullptr, nullptr));
  EXPECT_EQ((int)status, (int)CU_STREAM_CAPTURE_STATUS_ACTIVE, "forked stream captures", 0);
  EXPECT_TRUE(id1 == id2, "one capture sequence");
  CU(cuEventRecord(join, s2));
  CU(cuStreamWaitEvent(s1, join, 0));
  CU(cuMemcpyDtoHAsync(host, e, n * 4, s1));
  CU(cuLaunchHostFunc(s1, count_call, &calls));
  CUgraph g;
  CU(cuStreamEndCapture(s1, &g));
  size_t count = 0;
  CU(cuGraphGetNodes(g, nullptr, &count));
  EXPECT_EQ((int)count, 5, "captured nodes", 0);
  CUgraphExec ge;
  CU(cuGraphInstantiate(&ge, g, 0));
  for (int rep = 0; rep < 2; ++rep) CU(cuGraphLaunch(ge, s1));
  CU(cuStreamSynchronize(s1));
  EXPECT_EQ(first(d), 2, "captured kernel ran twice", 0);
  for (int i = 0; i < n; ++i) EXPECT_EQ(host[i], 9, "captured fill, kernel and copy", i);
  EXPECT_EQ(calls, 2, "captured host function", 0);

  // ---- explicit graph: a kernel node and a memset node, the edge memset -> kernel added after ----
  CUgraph g2;
  CU(cuGraphCreate(&g2, 0));
  CUDA_KERNEL_NODE_PARAMS kp = {};
  kp.func = add;
  kp.gridDimX = n / 64;
  kp.gridDimY = kp.gridDimZ = 1;
  kp.blockDimX = 64;
  kp.blockDimY = kp.blockDimZ = 1;
  int ten = 10;
  void* argsK[] = {&d, &nn, &ten};
  kp.kernelParams = argsK;
  CUgraphNode kern, fill;
  CU(cuGraphAddKernelNode(&kern, g2, nullptr, 0, &kp));
  ten = 1000;  // the node copied the argument values
  CUDA_MEMSET_NODE_PARAMS mp = {};
  mp.dst = d;
  mp.value = 5;
  mp.elementSize = 4;
  mp.width = n;
  mp.height = 1;
  CU(cuGraphAddMemsetNode(&fill, g2, nullptr, 0, &mp, ctx));
  CU(cuGraphAddDependencies(g2, &fill, &kern, nullptr, 1));
  CUgraphNode from[2], to[2];
  count = 2;
  CU(cuGraphGetEdges(g2, from, to, nullptr, &count));
  EXPECT_EQ((int)count, 1, "one edge", 0);
  EXPECT_TRUE(from[0] == fill && to[0] == kern, "the edge added");
  CUgraphNodeType type;
  CU(cuGraphNodeGetType(fill, &type));
  EXPECT_EQ((int)type, (int)CU_GRAPH_NODE_TYPE_MEMSET, "memset node type", 0);
  CUDA_KERNEL_NODE_PARAMS got = {};
  CU(cuGraphKernelNodeGetParams(kern, &got));
  EXPECT_TRUE(got.func == add, "kernel node function");
  EXPECT_EQ(*(int*)got.kernelParams[2], 10, "kernel node argument copy", 0);
  CUgraphExec ge2;
  CU(cuGraphInstantiate(&ge2, g2, 0));
  CU(cuGraphLaunch(ge2, s2));
  CU(cuStreamSynchronize(s2));
  EXPECT_EQ(first(d), 15, "explicit graph", 0);
  // Executable-node parameters: add 20 instead.
  int twenty = 20;
  void* args20[] = {&d, &nn, &twenty};
  kp.kernelParams = args20;
  CU(cuGraphExecKernelNodeSetParams(ge2, kern, &kp));
  CU(cuGraphLaunch(ge2, s2));
  CU(cuStreamSynchronize(s2));
  EXPECT_EQ(first(d), 25, "executable kernel node parameters", 0);
  // Update from a graph of the same shape working on e: fill 1, add 3.
  CUgraph g3;
  CU(cuGraphCreate(&g3, 0));
  int three = 3;
  void* args3[] = {&e, &nn, &three};
  kp.kernelParams = args3;
  CUgraphNode kern3, fill3;
  CU(cuGraphAddKernelNode(&kern3, g3, nullptr, 0, &kp));
  mp.dst = e;
  mp.value = 1;
  CU(cuGraphAddMemsetNode(&fill3, g3, nullptr, 0, &mp, ctx));
  CU(cuGraphAddDependencies(g3, &fill3, &kern3, nullptr, 1));
  CUgraphExecUpdateResultInfo info = {};
  CU(cuGraphExecUpdate(ge2, g3, &info));
  EXPECT_EQ((int)info.result, (int)CU_GRAPH_EXEC_UPDATE_SUCCESS, "update result", 0);
  CU(cuGraphLaunch(ge2, s2));
  CU(cuStreamSynchronize(s2));
  EXPECT_EQ(first(e), 4, "updated executable graph", 0);
  EXPECT_EQ(first(d), 25, "the old buffer untouched", 0);

  CU(cuGraphExecDestroy(ge));
  CU(cuGraphExecDestroy(ge2));
  CU(cuGraphDestroy(g));
  CU(cuGraphDestroy(g2));
  CU(cuGraphDestroy(g3));
  CU(cuEventDestroy(fork));
  CU(cuEventDestroy(join));
  CU(cuStreamDestroy(s1));
  CU(cuStreamDestroy(s2));
  CU(cuMemFreeHost(host));
  CU(cuMemFree(d));
  CU(cuMemFree(e));
  CU(cuModuleUnload(module));
  CU(cuDevicePrimaryCtxRelease(dev));
  return wf::finish();
}

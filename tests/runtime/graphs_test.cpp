// CUDA graphs through the drop-in libcudart's exports (docs/runtime.md, "Graphs"): edges and
// topology queries, node parameters, executable-graph updates, child graphs, clones, event nodes,
// and stream capture across streams (fork and join through events), on the emulator.
#include "cuda_types.h"
#include "ptx_kernels.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <utility>
#include <vector>

extern "C" {
cudaError_t cudaGetLastError(void);
cudaError_t cudaMalloc(void **ptr, size_t size);
cudaError_t cudaFree(void *ptr);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, cudaMemcpyKind kind);
cudaError_t cudaMemset(void *ptr, int value, size_t count);
cudaError_t cudaStreamCreate(cudaStream_t *stream);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags);
cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared,
                             cudaStream_t stream);
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *data);
cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode);
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *graph);
cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus *status);
cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, cudaStreamCaptureStatus *status,
                                     unsigned long long *id, cudaGraph_t *graph,
                                     const cudaGraphNode_t **deps, const cudaGraphEdgeData **edges,
                                     size_t *numDeps);
cudaError_t cudaGraphCreate(cudaGraph_t *graph, unsigned flags);
cudaError_t cudaGraphDestroy(cudaGraph_t graph);
cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *n);
cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *n);
cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                              cudaGraphEdgeData *edges, size_t *n);
cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *deps,
                                         cudaGraphEdgeData *edges, size_t *n);
cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *deps,
                                           cudaGraphEdgeData *edges, size_t *n);
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                     const cudaGraphNode_t *to, const cudaGraphEdgeData *edges,
                                     size_t n);
cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                        const cudaGraphNode_t *to, const cudaGraphEdgeData *edges,
                                        size_t n);
cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node);
cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType *type);
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                  const cudaGraphNode_t *deps, size_t n);
cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                   const cudaGraphNode_t *deps, size_t n,
                                   const cudaKernelNodeParams *p);
cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, cudaKernelNodeParams *p);
cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const cudaKernelNodeParams *p);
cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                   const cudaGraphNode_t *deps, size_t n,
                                   const cudaMemsetParams *p);
cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, cudaMemsetParams *p);
cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                   const cudaGraphNode_t *deps, size_t n,
                                   const cudaMemcpy3DParms *p);
cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *node, cudaGraph_t graph,
                                     const cudaGraphNode_t *deps, size_t n, void *dst,
                                     const void *src, size_t count, cudaMemcpyKind kind);
cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node, cudaMemcpy3DParms *p);
cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                 const cudaGraphNode_t *deps, size_t n,
                                 const cudaHostNodeParams *p);
cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                       const cudaGraphNode_t *deps, size_t n, cudaGraph_t child);
cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t *graph);
cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                        const cudaGraphNode_t *deps, size_t n, cudaEvent_t e);
cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                      const cudaGraphNode_t *deps, size_t n, cudaEvent_t e);
cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *e);
cudaError_t cudaGraphClone(cudaGraph_t *clone, cudaGraph_t graph);
cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *node, cudaGraphNode_t original,
                                     cudaGraph_t clone);
cudaError_t cudaGraphDebugDotPrint(cudaGraph_t graph, const char *path, unsigned flags);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *exec, cudaGraph_t graph,
                                 unsigned long long flags);
cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t *exec, cudaGraph_t graph,
                                           cudaGraphInstantiateParams *params);
cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t exec, unsigned long long *flags);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec);
cudaError_t cudaGraphUpload(cudaGraphExec_t exec, cudaStream_t stream);
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream);
cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t exec, cudaGraphNode_t node, unsigned on);
cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t exec, cudaGraphNode_t node, unsigned *on);
cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                             const cudaKernelNodeParams *p);
cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                             const cudaMemsetParams *p);
cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t exec, cudaGraphNode_t node,
                                               void *dst, const void *src, size_t count,
                                               cudaMemcpyKind kind);
cudaError_t cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                 cudaGraph_t child);
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph,
                                cudaGraphExecUpdateResultInfo *info);

// The driver API, with CUDA's handle types as the project's own.
typedef int CUresult;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef unsigned long long CUdeviceptr;
struct KernelNodeParams { // CUDA_KERNEL_NODE_PARAMS_v2
  CUfunction func;
  unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
  void **kernelParams, **extra;
  void *kern, *ctx;
};
CUresult cuInit(unsigned flags);
CUresult cuModuleLoadData(CUmodule *module, const void *image);
CUresult cuModuleGetFunction(CUfunction *f, CUmodule module, const char *name);
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n);
CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n);
CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned v, size_t n, cudaStream_t s);
CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                        unsigned by, unsigned bz, unsigned shared, cudaStream_t s, void **args,
                        void **extra);
CUresult cuStreamSynchronize(cudaStream_t s);
CUresult cuStreamBeginCapture_v2(cudaStream_t s, int mode);
CUresult cuStreamEndCapture(cudaStream_t s, cudaGraph_t *graph);
CUresult cuStreamIsCapturing(cudaStream_t s, int *status);
CUresult cuGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *n);
CUresult cuGraphGetEdges_v2(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                            cudaGraphEdgeData *edges, size_t *n);
CUresult cuGraphCreate(cudaGraph_t *graph, unsigned flags);
CUresult cuGraphAddKernelNode_v2(cudaGraphNode_t *node, cudaGraph_t graph,
                                 const cudaGraphNode_t *deps, size_t n, const KernelNodeParams *p);
CUresult cuGraphKernelNodeGetParams_v2(cudaGraphNode_t node, KernelNodeParams *p);
CUresult cuGraphInstantiateWithFlags(cudaGraphExec_t *exec, cudaGraph_t graph,
                                     unsigned long long flags);
CUresult cuGraphLaunch(cudaGraphExec_t exec, cudaStream_t s);
CUresult cuGraphExecDestroy(cudaGraphExec_t exec);
CUresult cuGraphDestroy(cudaGraph_t graph);
}

namespace {

// d[i] += v for i < n.
constexpr const char *kPtx = R"(.version 8.0
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
const char kAdd = 0;
void registerKernels() {
  static bool once = [] {
    wf::test::registerPtxKernels(kPtx, {{&kAdd, "add_n"}});
    return true;
  }();
  (void)once;
}

constexpr int kN = 64;

/// A kernel node's parameters for add_n(d, kN, v); the argument storage lives in the struct.
struct AddParams {
  int *d;
  int n = kN;
  int v;
  void *args[3] = {&d, &n, &v};
  cudaKernelNodeParams params() {
    return cudaKernelNodeParams{const_cast<char *>(&kAdd), dim3{1, 1, 1}, dim3{kN, 1, 1}, 0, args,
                                nullptr};
  }
};

std::vector<int> readBack(const int *d) {
  std::vector<int> h(kN);
  EXPECT_EQ(cudaMemcpy(h.data(), d, kN * 4, cudaMemcpyDeviceToHost), cudaSuccess);
  return h;
}

std::set<std::pair<cudaGraphNode_t, cudaGraphNode_t>> edgesOf(cudaGraph_t g) {
  size_t n = 0;
  EXPECT_EQ(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &n), cudaSuccess);
  std::vector<cudaGraphNode_t> from(n), to(n);
  EXPECT_EQ(cudaGraphGetEdges(g, from.data(), to.data(), nullptr, &n), cudaSuccess);
  std::set<std::pair<cudaGraphNode_t, cudaGraphNode_t>> out;
  for (size_t i = 0; i < n; ++i)
    out.insert({from[i], to[i]});
  return out;
}

TEST(Graphs, EdgesAndTopologyQueries) {
  registerKernels();
  cudaGraph_t g = nullptr;
  ASSERT_EQ(cudaGraphCreate(&g, 0), cudaSuccess);
  cudaGraphNode_t a, b, c, d;
  ASSERT_EQ(cudaGraphAddEmptyNode(&a, g, nullptr, 0), cudaSuccess);
  ASSERT_EQ(cudaGraphAddEmptyNode(&b, g, nullptr, 0), cudaSuccess);
  ASSERT_EQ(cudaGraphAddEmptyNode(&c, g, &a, 1), cudaSuccess);
  ASSERT_EQ(cudaGraphAddEmptyNode(&d, g, nullptr, 0), cudaSuccess);
  // a -> c (at creation), then a -> b, b -> d and c -> d.
  cudaGraphNode_t from[] = {a, b, c}, to[] = {b, d, d};
  ASSERT_EQ(cudaGraphAddDependencies(g, from, to, nullptr, 3), cudaSuccess);
  using E = std::pair<cudaGraphNode_t, cudaGraphNode_t>;
  EXPECT_EQ(edgesOf(g), (std::set<E>{{a, c}, {a, b}, {b, d}, {c, d}}));
  // An edge that exists already, a self edge, a node of another graph: invalid, nothing changes.
  EXPECT_EQ(cudaGraphAddDependencies(g, &a, &b, nullptr, 1), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGraphAddDependencies(g, &a, &a, nullptr, 1), cudaErrorInvalidValue);
  cudaGraph_t other = nullptr;
  cudaGraphNode_t x;
  ASSERT_EQ(cudaGraphCreate(&other, 0), cudaSuccess);
  ASSERT_EQ(cudaGraphAddEmptyNode(&x, other, nullptr, 0), cudaSuccess);
  EXPECT_EQ(cudaGraphAddDependencies(g, &a, &x, nullptr, 1), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGraphAddEmptyNode(&x, g, &x, 1), cudaErrorInvalidValue);
  cudaGetLastError();
  EXPECT_EQ(edgesOf(g).size(), 4u);

  size_t n = 0;
  cudaGraphNode_t list[4] = {};
  n = 4;
  ASSERT_EQ(cudaGraphGetRootNodes(g, list, &n), cudaSuccess);
  ASSERT_EQ(n, 1u);
  EXPECT_EQ(list[0], a);
  n = 0;
  ASSERT_EQ(cudaGraphNodeGetDependencies(d, nullptr, nullptr, &n), cudaSuccess);
  EXPECT_EQ(n, 2u);
  n = 4;
  ASSERT_EQ(cudaGraphNodeGetDependentNodes(a, list, nullptr, &n), cudaSuccess);
  ASSERT_EQ(n, 2u);
  EXPECT_EQ((std::set<cudaGraphNode_t>{list[0], list[1]}), (std::set<cudaGraphNode_t>{b, c}));
  EXPECT_EQ(list[2], nullptr); // the rest of the array is null
  // A too-short array gets what fits.
  n = 1;
  ASSERT_EQ(cudaGraphNodeGetDependentNodes(a, list, nullptr, &n), cudaSuccess);
  EXPECT_EQ(n, 1u);

  // Removing an edge, and one that does not exist.
  ASSERT_EQ(cudaGraphRemoveDependencies(g, &c, &d, nullptr, 1), cudaSuccess);
  EXPECT_EQ(cudaGraphRemoveDependencies(g, &c, &d, nullptr, 1), cudaErrorInvalidValue);
  cudaGetLastError();
  EXPECT_EQ(edgesOf(g), (std::set<E>{{a, c}, {a, b}, {b, d}}));
  // Destroying a node takes its edges with it.
  ASSERT_EQ(cudaGraphDestroyNode(b), cudaSuccess);
  EXPECT_EQ(edgesOf(g), (std::set<E>{{a, c}}));
  n = 0;
  ASSERT_EQ(cudaGraphGetNodes(g, nullptr, &n), cudaSuccess);
  EXPECT_EQ(n, 3u);
  n = 4;
  ASSERT_EQ(cudaGraphGetRootNodes(g, list, &n), cudaSuccess);
  EXPECT_EQ(n, 2u); // a and d

  // A cycle: instantiation fails and names a node on it.
  ASSERT_EQ(cudaGraphAddDependencies(g, &c, &a, nullptr, 1), cudaSuccess);
  cudaGraphInstantiateParams ip{};
  cudaGraphExec_t exec = nullptr;
  EXPECT_EQ(cudaGraphInstantiateWithParams(&exec, g, &ip), cudaErrorInvalidValue);
  EXPECT_EQ(ip.result_out, cudaGraphInstantiateInvalidStructure);
  EXPECT_TRUE(ip.errNode_out == a || ip.errNode_out == c);
  cudaGetLastError();
  ASSERT_EQ(cudaGraphRemoveDependencies(g, &c, &a, nullptr, 1), cudaSuccess);
  ip = cudaGraphInstantiateParams{4 /* device launch */, nullptr, nullptr, cudaGraphInstantiateError};
  ASSERT_EQ(cudaGraphInstantiateWithParams(&exec, g, &ip), cudaSuccess);
  EXPECT_EQ(ip.result_out, cudaGraphInstantiateSuccess);
  unsigned long long flags = 0;
  EXPECT_EQ(cudaGraphExecGetFlags(exec, &flags), cudaSuccess);
  EXPECT_EQ(flags, 4u);
  EXPECT_EQ(cudaGraphExecDestroy(exec), cudaSuccess);
  EXPECT_EQ(cudaGraphDestroy(other), cudaSuccess);
  EXPECT_EQ(cudaGraphDestroy(g), cudaSuccess);
}

TEST(Graphs, EdgesAddedLaterOrderTheLaunch) {
  registerKernels();
  int *d = nullptr, *h = nullptr;
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void **>(&d), kN * 4), cudaSuccess);
  ASSERT_EQ(cudaMemset(d, 0, kN * 4), cudaSuccess);
  std::vector<int> host(kN, -1);
  h = host.data();
  cudaGraph_t g = nullptr;
  ASSERT_EQ(cudaGraphCreate(&g, 0), cudaSuccess);
  // Created in the reverse of their order: copy-out first, then the kernel, then the fill; the
  // edges added afterwards make the launch run fill -> kernel -> copy.
  cudaGraphNode_t copy, kernel, fill;
  ASSERT_EQ(cudaGraphAddMemcpyNode1D(&copy, g, nullptr, 0, h, d, kN * 4, cudaMemcpyDeviceToHost),
            cudaSuccess);
  AddParams add{d, kN, 5};
  cudaKernelNodeParams kp = add.params();
  ASSERT_EQ(cudaGraphAddKernelNode(&kernel, g, nullptr, 0, &kp), cudaSuccess);
  cudaMemsetParams mp{d, 0, 7, 4, kN, 1};
  ASSERT_EQ(cudaGraphAddMemsetNode(&fill, g, nullptr, 0, &mp), cudaSuccess);
  cudaGraphNode_t from[] = {fill, kernel}, to[] = {kernel, copy};
  ASSERT_EQ(cudaGraphAddDependencies(g, from, to, nullptr, 2), cudaSuccess);
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&exec, g, 0), cudaSuccess);
  ASSERT_EQ(cudaGraphLaunch(exec, nullptr), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(nullptr), cudaSuccess);
  for (int i = 0; i < kN; ++i)
    ASSERT_EQ(host[i], 12) << i;
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(g);
  cudaFree(d);
}

TEST(Graphs, NodeParamsExecSetParamsAndUpdate) {
  registerKernels();
  int *d = nullptr, *e = nullptr;
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void **>(&d), kN * 4), cudaSuccess);
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void **>(&e), kN * 4), cudaSuccess);
  cudaGraph_t g = nullptr;
  ASSERT_EQ(cudaGraphCreate(&g, 0), cudaSuccess);
  cudaMemsetParams mp{d, 0, 1, 4, kN, 1};
  cudaGraphNode_t fill, kernel;
  ASSERT_EQ(cudaGraphAddMemsetNode(&fill, g, nullptr, 0, &mp), cudaSuccess);
  AddParams add{d, kN, 10};
  cudaKernelNodeParams kp = add.params();
  ASSERT_EQ(cudaGraphAddKernelNode(&kernel, g, &fill, 1, &kp), cudaSuccess);
  add.v = 999; // the node copied the argument values when it was made

  cudaKernelNodeParams got{};
  ASSERT_EQ(cudaGraphKernelNodeGetParams(kernel, &got), cudaSuccess);
  EXPECT_EQ(got.func, &kAdd);
  EXPECT_EQ(got.blockDim.x, unsigned(kN));
  ASSERT_NE(got.kernelParams, nullptr);
  EXPECT_EQ(*static_cast<int *>(got.kernelParams[2]), 10);
  cudaMemsetParams gotSet{};
  ASSERT_EQ(cudaGraphMemsetNodeGetParams(fill, &gotSet), cudaSuccess);
  EXPECT_EQ(gotSet.value, 1u);
  EXPECT_EQ(gotSet.dst, d);
  // The wrong kind of node.
  EXPECT_EQ(cudaGraphMemsetNodeGetParams(kernel, &gotSet), cudaErrorInvalidValue);
  cudaGetLastError();

  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&exec, g, 0), cudaSuccess);
  ASSERT_EQ(cudaGraphLaunch(exec, nullptr), cudaSuccess);
  EXPECT_EQ(readBack(d)[3], 11);

  // Executable-graph parameters: fill 2, add 20, and the graph itself is unchanged.
  cudaMemsetParams mp2{d, 0, 2, 4, kN, 1};
  ASSERT_EQ(cudaGraphExecMemsetNodeSetParams(exec, fill, &mp2), cudaSuccess);
  AddParams add2{d, kN, 20};
  cudaKernelNodeParams kp2 = add2.params();
  ASSERT_EQ(cudaGraphExecKernelNodeSetParams(exec, kernel, &kp2), cudaSuccess);
  EXPECT_EQ(cudaGraphExecMemsetNodeSetParams(exec, kernel, &mp2), cudaErrorInvalidValue);
  cudaGetLastError();
  ASSERT_EQ(cudaGraphLaunch(exec, nullptr), cudaSuccess);
  EXPECT_EQ(readBack(d)[3], 22);
  ASSERT_EQ(cudaGraphMemsetNodeGetParams(fill, &gotSet), cudaSuccess);
  EXPECT_EQ(gotSet.value, 1u);

  // A disabled kernel node does nothing.
  unsigned on = 7;
  ASSERT_EQ(cudaGraphNodeGetEnabled(exec, kernel, &on), cudaSuccess);
  EXPECT_EQ(on, 1u);
  ASSERT_EQ(cudaGraphNodeSetEnabled(exec, kernel, 0), cudaSuccess);
  ASSERT_EQ(cudaGraphLaunch(exec, nullptr), cudaSuccess);
  EXPECT_EQ(readBack(d)[3], 2);
  ASSERT_EQ(cudaGraphNodeSetEnabled(exec, kernel, 1), cudaSuccess);

  // Graph update: a graph of the same shape (on e, fill 3, add 30) updates the executable graph.
  cudaGraph_t g2 = nullptr;
  ASSERT_EQ(cudaGraphCreate(&g2, 0), cudaSuccess);
  cudaMemsetParams mp3{e, 0, 3, 4, kN, 1};
  cudaGraphNode_t fill2, kernel2;
  ASSERT_EQ(cudaGraphAddMemsetNode(&fill2, g2, nullptr, 0, &mp3), cudaSuccess);
  AddParams add3{e, kN, 30};
  cudaKernelNodeParams kp3 = add3.params();
  ASSERT_EQ(cudaGraphAddKernelNode(&kernel2, g2, &fill2, 1, &kp3), cudaSuccess);
  cudaGraphExecUpdateResultInfo info{};
  ASSERT_EQ(cudaGraphExecUpdate(exec, g2, &info), cudaSuccess);
  EXPECT_EQ(info.result, cudaGraphExecUpdateSuccess);
  ASSERT_EQ(cudaGraphLaunch(exec, nullptr), cudaSuccess);
  EXPECT_EQ(readBack(e)[5], 33);
  // The original node handles still name the updated nodes.
  AddParams add4{e, kN, 40};
  cudaKernelNodeParams kp4 = add4.params();
  ASSERT_EQ(cudaGraphExecKernelNodeSetParams(exec, kernel, &kp4), cudaSuccess);
  ASSERT_EQ(cudaGraphLaunch(exec, nullptr), cudaSuccess);
  EXPECT_EQ(readBack(e)[5], 43);

  // Another shape (an extra node) is refused and the executable graph stays as it was.
  cudaGraphNode_t extra;
  ASSERT_EQ(cudaGraphAddEmptyNode(&extra, g2, &kernel2, 1), cudaSuccess);
  EXPECT_EQ(cudaGraphExecUpdate(exec, g2, &info), cudaErrorGraphExecUpdateFailure);
  EXPECT_EQ(info.result, cudaGraphExecUpdateErrorTopologyChanged);
  cudaGetLastError();
  ASSERT_EQ(cudaGraphDestroyNode(extra), cudaSuccess);
  // A node of another kind in the same place.
  cudaGraph_t g3 = nullptr;
  ASSERT_EQ(cudaGraphCreate(&g3, 0), cudaSuccess);
  cudaGraphNode_t k3, f3;
  ASSERT_EQ(cudaGraphAddKernelNode(&k3, g3, nullptr, 0, &kp3), cudaSuccess);
  ASSERT_EQ(cudaGraphAddMemsetNode(&f3, g3, &k3, 1, &mp3), cudaSuccess);
  EXPECT_EQ(cudaGraphExecUpdate(exec, g3, &info), cudaErrorGraphExecUpdateFailure);
  EXPECT_EQ(info.result, cudaGraphExecUpdateErrorNodeTypeChanged);
  EXPECT_EQ(info.errorNode, k3);
  cudaGetLastError();
  ASSERT_EQ(cudaGraphLaunch(exec, nullptr), cudaSuccess);
  EXPECT_EQ(readBack(e)[5], 43);

  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(g);
  cudaGraphDestroy(g2);
  cudaGraphDestroy(g3);
  cudaFree(d);
  cudaFree(e);
}

void countCall(void *p) { ++*static_cast<int *>(p); }

TEST(Graphs, ChildGraphsClonesEventNodesAndDot) {
  registerKernels();
  int *d = nullptr;
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void **>(&d), kN * 4), cudaSuccess);
  ASSERT_EQ(cudaMemset(d, 0, kN * 4), cudaSuccess);
  cudaGraph_t child = nullptr, g = nullptr;
  ASSERT_EQ(cudaGraphCreate(&child, 0), cudaSuccess);
  AddParams add{d, kN, 1};
  cudaKernelNodeParams kp = add.params();
  cudaGraphNode_t k1, k2;
  ASSERT_EQ(cudaGraphAddKernelNode(&k1, child, nullptr, 0, &kp), cudaSuccess);
  ASSERT_EQ(cudaGraphAddKernelNode(&k2, child, &k1, 1, &kp), cudaSuccess);
  ASSERT_EQ(cudaGraphCreate(&g, 0), cudaSuccess);
  cudaGraphNode_t childNode, host, rec;
  ASSERT_EQ(cudaGraphAddChildGraphNode(&childNode, g, nullptr, 0, child), cudaSuccess);
  // The node holds a clone: a later change to `child` does not reach it.
  cudaGraphNode_t k3;
  ASSERT_EQ(cudaGraphAddKernelNode(&k3, child, &k2, 1, &kp), cudaSuccess);
  cudaGraph_t inner = nullptr;
  ASSERT_EQ(cudaGraphChildGraphNodeGetGraph(childNode, &inner), cudaSuccess);
  size_t n = 0;
  ASSERT_EQ(cudaGraphGetNodes(inner, nullptr, &n), cudaSuccess);
  EXPECT_EQ(n, 2u);
  EXPECT_EQ(cudaGraphDestroy(inner), cudaErrorInvalidValue); // owned by the node
  cudaGetLastError();
  int calls = 0;
  cudaHostNodeParams hp{countCall, &calls};
  ASSERT_EQ(cudaGraphAddHostNode(&host, g, &childNode, 1, &hp), cudaSuccess);
  cudaEvent_t ev = nullptr;
  ASSERT_EQ(cudaEventCreate(&ev), cudaSuccess);
  ASSERT_EQ(cudaGraphAddEventRecordNode(&rec, g, &host, 1, ev), cudaSuccess);
  cudaEvent_t got = nullptr;
  ASSERT_EQ(cudaGraphEventRecordNodeGetEvent(rec, &got), cudaSuccess);
  EXPECT_EQ(got, ev);
  cudaGraphNodeType type;
  ASSERT_EQ(cudaGraphNodeGetType(rec, &type), cudaSuccess);
  EXPECT_EQ(type, cudaGraphNodeTypeEventRecord);

  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&exec, g, 0), cudaSuccess);
  cudaStream_t s = nullptr;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  ASSERT_EQ(cudaGraphUpload(exec, s), cudaSuccess);
  ASSERT_EQ(cudaGraphLaunch(exec, s), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
  EXPECT_EQ(readBack(d)[0], 2);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(cudaEventQuery(ev), cudaSuccess);
  // The executable child graph takes a new graph of the same shape (adds of 5).
  cudaGraph_t child2 = nullptr;
  ASSERT_EQ(cudaGraphCreate(&child2, 0), cudaSuccess);
  AddParams add5{d, kN, 5};
  cudaKernelNodeParams kp5 = add5.params();
  cudaGraphNode_t m1, m2;
  ASSERT_EQ(cudaGraphAddKernelNode(&m1, child2, nullptr, 0, &kp5), cudaSuccess);
  ASSERT_EQ(cudaGraphAddKernelNode(&m2, child2, &m1, 1, &kp5), cudaSuccess);
  ASSERT_EQ(cudaGraphExecChildGraphNodeSetParams(exec, childNode, child2), cudaSuccess);
  EXPECT_EQ(cudaGraphExecChildGraphNodeSetParams(exec, childNode, child), cudaErrorInvalidValue);
  cudaGetLastError();
  ASSERT_EQ(cudaGraphLaunch(exec, s), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
  EXPECT_EQ(readBack(d)[0], 12);

  // A wait node on an event recorded elsewhere orders the graph after it.
  cudaGraph_t gw = nullptr;
  ASSERT_EQ(cudaGraphCreate(&gw, 0), cudaSuccess);
  cudaGraphNode_t wait, after;
  ASSERT_EQ(cudaGraphAddEventWaitNode(&wait, gw, nullptr, 0, ev), cudaSuccess);
  ASSERT_EQ(cudaGraphAddKernelNode(&after, gw, &wait, 1, &kp), cudaSuccess);
  cudaGraphExec_t execWait = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&execWait, gw, 0), cudaSuccess);
  ASSERT_EQ(cudaEventRecord(ev, s), cudaSuccess);
  ASSERT_EQ(cudaGraphLaunch(execWait, nullptr), cudaSuccess);
  EXPECT_EQ(readBack(d)[0], 13);

  // Clones: every node has its counterpart.
  cudaGraph_t copy = nullptr;
  ASSERT_EQ(cudaGraphClone(&copy, g), cudaSuccess);
  cudaGraphNode_t inCopy = nullptr;
  ASSERT_EQ(cudaGraphNodeFindInClone(&inCopy, host, copy), cudaSuccess);
  EXPECT_NE(inCopy, host);
  ASSERT_EQ(cudaGraphNodeGetType(inCopy, &type), cudaSuccess);
  EXPECT_EQ(type, cudaGraphNodeTypeHost);
  EXPECT_EQ(cudaGraphNodeFindInClone(&inCopy, host, g), cudaErrorInvalidValue);
  cudaGetLastError();
  n = 0;
  ASSERT_EQ(cudaGraphGetEdges(copy, nullptr, nullptr, nullptr, &n), cudaSuccess);
  EXPECT_EQ(n, 2u);

  // Graphviz text: three nodes and two edges.
  std::string path = ::testing::TempDir() + "wf_graph.dot";
  ASSERT_EQ(cudaGraphDebugDotPrint(g, path.c_str(), 0), cudaSuccess);
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("digraph"), std::string::npos);
  EXPECT_EQ(std::count(text.begin(), text.end(), '>'), 2);
  EXPECT_NE(text.find("event_record"), std::string::npos);
  std::remove(path.c_str());

  cudaGraphExecDestroy(exec);
  cudaGraphExecDestroy(execWait);
  cudaGraphDestroy(g);
  cudaGraphDestroy(gw);
  cudaGraphDestroy(copy);
  cudaGraphDestroy(child);
  cudaGraphDestroy(child2);
  cudaEventDestroy(ev);
  cudaStreamDestroy(s);
  cudaFree(d);
}

TEST(Graphs, CaptureForkJoinAcrossStreams) {
  registerKernels();
  int *a = nullptr, *b = nullptr;
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void **>(&a), kN * 4), cudaSuccess);
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void **>(&b), kN * 4), cudaSuccess);
  ASSERT_EQ(cudaMemset(a, 0, kN * 4), cudaSuccess);
  ASSERT_EQ(cudaMemset(b, 0, kN * 4), cudaSuccess);
  cudaStream_t s1 = nullptr, s2 = nullptr;
  ASSERT_EQ(cudaStreamCreate(&s1), cudaSuccess);
  ASSERT_EQ(cudaStreamCreate(&s2), cudaSuccess);
  cudaEvent_t fork = nullptr, join = nullptr;
  ASSERT_EQ(cudaEventCreate(&fork), cudaSuccess);
  ASSERT_EQ(cudaEventCreate(&join), cudaSuccess);

  ASSERT_EQ(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal), cudaSuccess);
  AddParams addA{a, kN, 1}, addB{b, kN, 2};
  ASSERT_EQ(cudaLaunchKernel(&kAdd, dim3{1, 1, 1}, dim3{kN, 1, 1}, addA.args, 0, s1), cudaSuccess);
  ASSERT_EQ(cudaEventRecord(fork, s1), cudaSuccess);
  ASSERT_EQ(cudaStreamWaitEvent(s2, fork, 0), cudaSuccess); // s2 joins the capture
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  ASSERT_EQ(cudaStreamIsCapturing(s2, &status), cudaSuccess);
  EXPECT_EQ(status, cudaStreamCaptureStatusActive);
  ASSERT_EQ(cudaLaunchKernel(&kAdd, dim3{1, 1, 1}, dim3{kN, 1, 1}, addB.args, 0, s2), cudaSuccess);
  ASSERT_EQ(cudaLaunchKernel(&kAdd, dim3{1, 1, 1}, dim3{kN, 1, 1}, addA.args, 0, s1), cudaSuccess);
  unsigned long long id1 = 0, id2 = 0;
  cudaGraph_t captureGraph = nullptr;
  const cudaGraphNode_t *deps = nullptr;
  size_t numDeps = 0;
  ASSERT_EQ(cudaStreamGetCaptureInfo(s1, &status, &id1, &captureGraph, &deps, nullptr, &numDeps),
            cudaSuccess);
  ASSERT_EQ(cudaStreamGetCaptureInfo(s2, &status, &id2, nullptr, nullptr, nullptr, nullptr),
            cudaSuccess);
  EXPECT_EQ(id1, id2); // one capture sequence
  EXPECT_EQ(numDeps, 1u);
  ASSERT_NE(captureGraph, nullptr);
  // s2 joins back; ending the capture takes both streams out of capture mode.
  cudaGraph_t g = nullptr;
  ASSERT_EQ(cudaEventRecord(join, s2), cudaSuccess);
  ASSERT_EQ(cudaStreamWaitEvent(s1, join, 0), cudaSuccess);
  ASSERT_EQ(cudaStreamEndCapture(s1, &g), cudaSuccess);
  ASSERT_EQ(cudaStreamIsCapturing(s2, &status), cudaSuccess);
  EXPECT_EQ(status, cudaStreamCaptureStatusNone);
  size_t n = 0;
  ASSERT_EQ(cudaGraphGetNodes(g, nullptr, &n), cudaSuccess);
  EXPECT_EQ(n, 3u);
  // Edges: A1 -> B (fork) and A1 -> A2; B is joined at the end, so A2 and B are both leaves.
  ASSERT_EQ(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &n), cudaSuccess);
  EXPECT_EQ(n, 2u);
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&exec, g, 0), cudaSuccess);
  ASSERT_EQ(cudaGraphLaunch(exec, s1), cudaSuccess);
  ASSERT_EQ(cudaGraphLaunch(exec, s1), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(s1), cudaSuccess);
  EXPECT_EQ(readBack(a)[9], 4);
  EXPECT_EQ(readBack(b)[9], 4);

  // An unjoined fork: the capture fails with cudaErrorStreamCaptureUnjoined and no graph.
  ASSERT_EQ(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal), cudaSuccess);
  ASSERT_EQ(cudaEventRecord(fork, s1), cudaSuccess);
  ASSERT_EQ(cudaStreamWaitEvent(s2, fork, 0), cudaSuccess);
  ASSERT_EQ(cudaLaunchKernel(&kAdd, dim3{1, 1, 1}, dim3{kN, 1, 1}, addB.args, 0, s2), cudaSuccess);
  cudaGraph_t bad = reinterpret_cast<cudaGraph_t>(0x1);
  EXPECT_EQ(cudaStreamEndCapture(s1, &bad), cudaErrorStreamCaptureUnjoined);
  EXPECT_EQ(bad, nullptr);
  ASSERT_EQ(cudaStreamIsCapturing(s2, &status), cudaSuccess);
  EXPECT_EQ(status, cudaStreamCaptureStatusNone);
  cudaGetLastError();

  // Waiting on an event recorded outside capture: isolation; the capture is invalidated.
  ASSERT_EQ(cudaEventRecord(join, s2), cudaSuccess);
  ASSERT_EQ(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal), cudaSuccess);
  EXPECT_EQ(cudaStreamWaitEvent(s1, join, 0), cudaErrorStreamCaptureIsolation);
  ASSERT_EQ(cudaStreamIsCapturing(s1, &status), cudaSuccess);
  EXPECT_EQ(status, cudaStreamCaptureStatusInvalidated);
  EXPECT_EQ(cudaStreamEndCapture(s1, &bad), cudaErrorStreamCaptureInvalidated);
  cudaGetLastError();
  // The streams work normally afterwards.
  ASSERT_EQ(cudaLaunchKernel(&kAdd, dim3{1, 1, 1}, dim3{kN, 1, 1}, addA.args, 0, s1), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(s1), cudaSuccess);
  EXPECT_EQ(readBack(a)[9], 5);

  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(g);
  cudaEventDestroy(fork);
  cudaEventDestroy(join);
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
  cudaFree(a);
  cudaFree(b);
}

TEST(Graphs, DriverApiCaptureAndNodes) {
  ASSERT_EQ(cuInit(0), 0);
  CUmodule module = nullptr;
  ASSERT_EQ(cuModuleLoadData(&module, kPtx), 0);
  CUfunction add = nullptr;
  ASSERT_EQ(cuModuleGetFunction(&add, module, "add_n"), 0);
  CUdeviceptr d = 0;
  ASSERT_EQ(cuMemAlloc_v2(&d, kN * 4), 0);
  cudaStream_t s = nullptr;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  // Captured: a fill of 4, then add 3.
  ASSERT_EQ(cuStreamBeginCapture_v2(s, 0), 0);
  int status = 0;
  ASSERT_EQ(cuStreamIsCapturing(s, &status), 0);
  EXPECT_EQ(status, 1); // CU_STREAM_CAPTURE_STATUS_ACTIVE
  ASSERT_EQ(cuMemsetD32Async(d, 4, kN, s), 0);
  int n = kN, v = 3;
  void *args[] = {&d, &n, &v};
  ASSERT_EQ(cuLaunchKernel(add, 1, 1, 1, kN, 1, 1, 0, s, args, nullptr), 0);
  EXPECT_EQ(cuStreamSynchronize(s), 900); // CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED
  cudaGraph_t g = nullptr;
  ASSERT_EQ(cuStreamEndCapture(s, &g), 0);
  size_t count = 0;
  ASSERT_EQ(cuGraphGetNodes(g, nullptr, &count), 0);
  EXPECT_EQ(count, 2u);
  ASSERT_EQ(cuGraphGetEdges_v2(g, nullptr, nullptr, nullptr, &count), 0);
  EXPECT_EQ(count, 1u);
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cuGraphInstantiateWithFlags(&exec, g, 0), 0);
  ASSERT_EQ(cuGraphLaunch(exec, s), 0);
  ASSERT_EQ(cuStreamSynchronize(s), 0);
  int h = 0;
  ASSERT_EQ(cuMemcpyDtoH_v2(&h, d + 4 * 10, 4), 0);
  EXPECT_EQ(h, 7);

  // An explicit kernel node: its parameters come back, argument values copied.
  cudaGraph_t g2 = nullptr;
  ASSERT_EQ(cuGraphCreate(&g2, 0), 0);
  KernelNodeParams kp{add, 1, 1, 1, kN, 1, 1, 0, args, nullptr, nullptr, nullptr};
  cudaGraphNode_t kernel = nullptr;
  ASSERT_EQ(cuGraphAddKernelNode_v2(&kernel, g2, nullptr, 0, &kp), 0);
  v = 100;
  KernelNodeParams got{};
  ASSERT_EQ(cuGraphKernelNodeGetParams_v2(kernel, &got), 0);
  EXPECT_EQ(got.func, add);
  EXPECT_EQ(got.blockDimX, unsigned(kN));
  EXPECT_EQ(*static_cast<int *>(got.kernelParams[2]), 3);
  KernelNodeParams bad = kp;
  bad.func = nullptr;
  EXPECT_EQ(cuGraphAddKernelNode_v2(&kernel, g2, nullptr, 0, &bad), 400); // INVALID_HANDLE
  cudaGraphExec_t exec2 = nullptr;
  ASSERT_EQ(cuGraphInstantiateWithFlags(&exec2, g2, 0), 0);
  ASSERT_EQ(cuGraphLaunch(exec2, s), 0);
  ASSERT_EQ(cuStreamSynchronize(s), 0);
  ASSERT_EQ(cuMemcpyDtoH_v2(&h, d + 4 * 10, 4), 0);
  EXPECT_EQ(h, 10);
  EXPECT_EQ(cuGraphExecDestroy(exec), 0);
  EXPECT_EQ(cuGraphExecDestroy(exec2), 0);
  EXPECT_EQ(cuGraphDestroy(g), 0);
  EXPECT_EQ(cuGraphDestroy(g2), 0);
  cudaStreamDestroy(s);
}

} // namespace

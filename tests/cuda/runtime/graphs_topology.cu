// WF-CHAPTER: runtime
// WF-FEATURES: rt.graph.topology, rt.graph.node_params, rt.graph.update
// WF-DESCRIPTION: CUDA graph structure and parameters: edges added after the nodes (reverse creation order) order a launch; edge, root, dependency and dependent queries; node removal; kernel/memset/memcpy(3D) node get/set parameters; executable-graph parameter changes, enabled nodes and cudaGraphExecUpdate (success and a refused topology change); symbol copy nodes
#include "../common/check.h"
#include <algorithm>
#include <utility>
#include <vector>

__global__ void add(int* d, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] += v;
}

__device__ int dev_table[64];

static const int n = 256;

// The edge set of a graph as (from, to) pairs, sorted (CUDA gives no order).
static std::vector<std::pair<cudaGraphNode_t, cudaGraphNode_t>> edges(cudaGraph_t g) {
  size_t count = 0;
  CHECK(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &count));
  std::vector<cudaGraphNode_t> from(count), to(count);
  if (count) CHECK(cudaGraphGetEdges(g, from.data(), to.data(), nullptr, &count));
  std::vector<std::pair<cudaGraphNode_t, cudaGraphNode_t>> out;
  for (size_t i = 0; i < count; ++i) out.push_back({from[i], to[i]});
  std::sort(out.begin(), out.end());
  return out;
}

int main() {
  int *d, *e;
  CHECK(cudaMalloc(&d, n * 4));
  CHECK(cudaMalloc(&e, n * 4));
  // Host buffers of copy nodes are pinned (cudaMallocHost), as asynchronous copies want.
  int *host, *host2, *table, *grid;
  CHECK(cudaMallocHost(&host, n * 4));
  CHECK(cudaMallocHost(&host2, n * 4));
  CHECK(cudaMallocHost(&table, 64 * 4));
  CHECK(cudaMallocHost(&grid, 64 * 4));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  // ---- nodes created in reverse order, ordered by edges added afterwards: fill -> add -> copy ----
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphNode_t copy, kern, fill;
  CHECK(cudaGraphAddMemcpyNode1D(&copy, g, nullptr, 0, host, d, n * 4, cudaMemcpyDeviceToHost));
  int nn = n, v = 5;
  void* args[] = {&d, &nn, &v};
  cudaKernelNodeParams kp = {};
  kp.func = (void*)add;
  kp.gridDim = dim3(n / 64);
  kp.blockDim = dim3(64);
  kp.kernelParams = args;
  CHECK(cudaGraphAddKernelNode(&kern, g, nullptr, 0, &kp));
  v = 1000;  // the node holds a copy of the argument values
  cudaMemsetParams mp = {};
  mp.dst = d;
  mp.value = 7;
  mp.elementSize = 4;
  mp.width = n;
  mp.height = 1;
  CHECK(cudaGraphAddMemsetNode(&fill, g, nullptr, 0, &mp));
  cudaGraphNode_t from[2] = {fill, kern}, to[2] = {kern, copy};
  CHECK(cudaGraphAddDependencies(g, from, to, nullptr, 2));
  std::vector<std::pair<cudaGraphNode_t, cudaGraphNode_t>> want = {{fill, kern}, {kern, copy}};
  std::sort(want.begin(), want.end());
  EXPECT_TRUE(edges(g) == want, "edges added after the nodes");
  size_t count = 3;
  cudaGraphNode_t list[3] = {};
  CHECK(cudaGraphGetRootNodes(g, list, &count));
  EXPECT_EQ((int)count, 1, "root node count", 0);
  EXPECT_TRUE(list[0] == fill, "the fill is the root");
  count = 0;
  CHECK(cudaGraphNodeGetDependencies(kern, nullptr, nullptr, &count));
  EXPECT_EQ((int)count, 1, "kernel dependency count", 0);
  count = 3;
  CHECK(cudaGraphNodeGetDependentNodes(kern, list, nullptr, &count));
  EXPECT_EQ((int)count, 1, "kernel dependent count", 0);
  EXPECT_TRUE(list[0] == copy, "the copy depends on the kernel");

  cudaGraphExec_t ge;
  CHECK(cudaGraphInstantiate(&ge, g, 0));
  CHECK(cudaGraphLaunch(ge, s));
  CHECK(cudaStreamSynchronize(s));
  for (int i = 0; i < n; ++i) EXPECT_EQ(host[i], 12, "ordered by added edges", i);

  // ---- node parameters ----
  cudaKernelNodeParams got = {};
  CHECK(cudaGraphKernelNodeGetParams(kern, &got));
  EXPECT_TRUE(got.func == (void*)add, "kernel node function");
  EXPECT_EQ((int)got.gridDim.x, n / 64, "kernel node grid", 0);
  EXPECT_EQ(*(int*)got.kernelParams[2], 5, "kernel node argument copy", 0);
  cudaMemsetParams gotm = {};
  CHECK(cudaGraphMemsetNodeGetParams(fill, &gotm));
  EXPECT_EQ((int)gotm.value, 7, "memset node value", 0);
  cudaMemcpy3DParms gotc = {};
  CHECK(cudaGraphMemcpyNodeGetParams(copy, &gotc));
  EXPECT_TRUE(gotc.dstPtr.ptr == host && gotc.srcPtr.ptr == d, "memcpy node pointers");
  EXPECT_EQ((int)gotc.extent.width, n * 4, "memcpy node width", 0);
  // The graph's own parameters change the next instantiation only.
  mp.value = 100;
  CHECK(cudaGraphMemsetNodeSetParams(fill, &mp));
  CHECK(cudaGraphLaunch(ge, s));
  CHECK(cudaStreamSynchronize(s));
  EXPECT_EQ(host[0], 12, "instantiated graph unchanged by node set", 0);

  // ---- executable-graph parameters: fill 20, add 30, copy into another buffer ----
  mp.value = 20;
  CHECK(cudaGraphExecMemsetNodeSetParams(ge, fill, &mp));
  int v30 = 30;
  void* args30[] = {&d, &nn, &v30};
  kp.kernelParams = args30;
  CHECK(cudaGraphExecKernelNodeSetParams(ge, kern, &kp));
  CHECK(cudaGraphExecMemcpyNodeSetParams1D(ge, copy, host2, d, n * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaGraphLaunch(ge, s));
  CHECK(cudaStreamSynchronize(s));
  for (int i = 0; i < n; ++i) EXPECT_EQ(host2[i], 50, "exec node parameters", i);
  // A disabled kernel node does not run.
  CHECK(cudaGraphNodeSetEnabled(ge, kern, 0));
  unsigned enabled = 1;
  CHECK(cudaGraphNodeGetEnabled(ge, kern, &enabled));
  EXPECT_EQ((int)enabled, 0, "node disabled", 0);
  CHECK(cudaGraphLaunch(ge, s));
  CHECK(cudaStreamSynchronize(s));
  EXPECT_EQ(host2[0], 20, "disabled kernel node", 0);
  CHECK(cudaGraphNodeSetEnabled(ge, kern, 1));

  // ---- cudaGraphExecUpdate from a graph of the same shape: fill 1 in e, add 2, copy e out ----
  cudaGraph_t g2;
  CHECK(cudaGraphCreate(&g2, 0));
  cudaGraphNode_t copy2, kern2, fill2;
  CHECK(cudaGraphAddMemcpyNode1D(&copy2, g2, nullptr, 0, host, e, n * 4, cudaMemcpyDeviceToHost));
  int v2 = 2;
  void* args2[] = {&e, &nn, &v2};
  kp.kernelParams = args2;
  CHECK(cudaGraphAddKernelNode(&kern2, g2, nullptr, 0, &kp));
  mp.dst = e;
  mp.value = 1;
  CHECK(cudaGraphAddMemsetNode(&fill2, g2, nullptr, 0, &mp));
  cudaGraphNode_t from2[2] = {fill2, kern2}, to2[2] = {kern2, copy2};
  CHECK(cudaGraphAddDependencies(g2, from2, to2, nullptr, 2));
  cudaGraphExecUpdateResultInfo info = {};
  CHECK(cudaGraphExecUpdate(ge, g2, &info));
  EXPECT_EQ((int)info.result, (int)cudaGraphExecUpdateSuccess, "update result", 0);
  CHECK(cudaGraphLaunch(ge, s));
  CHECK(cudaStreamSynchronize(s));
  for (int i = 0; i < n; ++i) EXPECT_EQ(host[i], 3, "updated executable graph", i);
  // One more edge is a topology change: refused, and the executable graph is as it was.
  cudaGraphNode_t extra;
  CHECK(cudaGraphAddEmptyNode(&extra, g2, &copy2, 1));
  EXPECT_EQ((int)cudaGraphExecUpdate(ge, g2, &info), (int)cudaErrorGraphExecUpdateFailure, "refused update", 0);
  EXPECT_EQ((int)info.result, (int)cudaGraphExecUpdateErrorTopologyChanged, "refused update reason", 0);
  cudaGetLastError();
  for (int i = 0; i < n; ++i) host[i] = -1;
  CHECK(cudaGraphLaunch(ge, s));
  CHECK(cudaStreamSynchronize(s));
  EXPECT_EQ(host[0], 3, "executable graph after a refused update", 0);
  // Removing the node takes its edge too.
  CHECK(cudaGraphDestroyNode(extra));
  EXPECT_EQ((int)edges(g2).size(), 2, "edges after node removal", 0);
  CHECK(cudaGraphRemoveDependencies(g2, &kern2, &copy2, nullptr, 1));
  EXPECT_EQ((int)edges(g2).size(), 1, "edges after removal", 0);

  // ---- a 2D memcpy node (pitched rows) and symbol copy nodes ----
  cudaGraph_t g3;
  CHECK(cudaGraphCreate(&g3, 0));
  for (int i = 0; i < 64; ++i) table[i] = i * i;
  cudaGraphNode_t toSym, fromSym, rows;
  CHECK(cudaGraphAddMemcpyNodeToSymbol(&toSym, g3, nullptr, 0, (const void*)&dev_table, table,
                                       64 * 4, 0, cudaMemcpyHostToDevice));
  CHECK(cudaGraphAddMemcpyNodeFromSymbol(&fromSym, g3, &toSym, 1, e, (const void*)&dev_table, 32 * 4,
                                         32 * 4, cudaMemcpyDeviceToDevice));
  // rows: 4 rows of 8 ints from e (pitch 8 ints) into host rows of pitch 16 ints
  for (int i = 0; i < 64; ++i) grid[i] = -1;
  cudaMemcpy3DParms p3 = {};
  p3.srcPtr = make_cudaPitchedPtr(e, 8 * 4, 8 * 4, 4);
  p3.dstPtr = make_cudaPitchedPtr(grid, 16 * 4, 16 * 4, 4);
  p3.extent = make_cudaExtent(8 * 4, 4, 1);
  p3.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaGraphAddMemcpyNode(&rows, g3, &fromSym, 1, &p3));
  cudaGraphExec_t ge3;
  CHECK(cudaGraphInstantiate(&ge3, g3, 0));
  CHECK(cudaGraphLaunch(ge3, s));
  CHECK(cudaStreamSynchronize(s));
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 16; ++c) {
      int want3 = c < 8 ? (32 + r * 8 + c) * (32 + r * 8 + c) : -1;
      EXPECT_EQ(grid[r * 16 + c], want3, "pitched memcpy node from a symbol", r * 16 + c);
    }

  CHECK(cudaGraphExecDestroy(ge));
  CHECK(cudaGraphExecDestroy(ge3));
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaGraphDestroy(g2));
  CHECK(cudaGraphDestroy(g3));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(d));
  CHECK(cudaFree(e));
  CHECK(cudaFreeHost(host));
  CHECK(cudaFreeHost(host2));
  CHECK(cudaFreeHost(table));
  CHECK(cudaFreeHost(grid));
  return wf::finish();
}

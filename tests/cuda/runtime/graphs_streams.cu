// WF-CHAPTER: runtime
// WF-FEATURES: rt.graph.capture_cross_stream, rt.graph.child_clone_events
// WF-DESCRIPTION: CUDA graphs across streams: a capture forked into a second stream with an event and joined back (capture info: one sequence, the frontier), replayed; child graph nodes (a clone of the child), cudaGraphClone/NodeFindInClone, event record and wait nodes, host nodes, cudaGraphExecChildGraphNodeSetParams; an unjoined fork fails the capture
#include "../common/check.h"

__global__ void add(int* d, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] += v;
}

static const int n = 128;

static void count_call(void* p) { ++*(int*)p; }

static int first(const int* d) {
  int h = 0;
  CHECK(cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost));
  return h;
}

int main() {
  int *a, *b;
  CHECK(cudaMalloc(&a, n * 4));
  CHECK(cudaMalloc(&b, n * 4));
  CHECK(cudaMemset(a, 0, n * 4));
  CHECK(cudaMemset(b, 0, n * 4));
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  cudaEvent_t fork, join;
  CHECK(cudaEventCreate(&fork));
  CHECK(cudaEventCreate(&join));

  // ---- fork/join capture: a += 1 ; fork ; { b += 2 (s2), a += 10 (s1) } ; join ; a += 100 ----
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  add<<<1, n, 0, s1>>>(a, n, 1);
  CHECK(cudaEventRecord(fork, s1));
  CHECK(cudaStreamWaitEvent(s2, fork, 0));
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  CHECK(cudaStreamIsCapturing(s2, &status));
  EXPECT_EQ((int)status, (int)cudaStreamCaptureStatusActive, "forked stream captures", 0);
  add<<<1, n, 0, s2>>>(b, n, 2);
  add<<<1, n, 0, s1>>>(a, n, 10);
  unsigned long long id1 = 0, id2 = 0;
  const cudaGraphNode_t* frontier = nullptr;
  size_t numDeps = 0;
  CHECK(cudaStreamGetCaptureInfo(s1, &status, &id1, nullptr, &frontier, nullptr, &numDeps));
  CHECK(cudaStreamGetCaptureInfo(s2, &status, &id2, nullptr, nullptr, nullptr, nullptr));
  EXPECT_TRUE(id1 == id2, "one capture sequence for both streams");
  EXPECT_EQ((int)numDeps, 1, "origin stream frontier", 0);
  CHECK(cudaEventRecord(join, s2));
  CHECK(cudaStreamWaitEvent(s1, join, 0));
  add<<<1, n, 0, s1>>>(a, n, 100);
  cudaGraph_t g;
  CHECK(cudaStreamEndCapture(s1, &g));
  CHECK(cudaStreamIsCapturing(s2, &status));
  EXPECT_EQ((int)status, (int)cudaStreamCaptureStatusNone, "end of capture ends the fork", 0);
  size_t count = 0;
  CHECK(cudaGraphGetNodes(g, nullptr, &count));
  EXPECT_EQ((int)count, 4, "captured kernels", 0);
  CHECK(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &count));
  EXPECT_EQ((int)count, 4, "fork and join edges", 0);
  cudaGraphExec_t ge;
  CHECK(cudaGraphInstantiate(&ge, g, 0));
  for (int rep = 0; rep < 2; ++rep) CHECK(cudaGraphLaunch(ge, s1));
  CHECK(cudaStreamSynchronize(s1));
  EXPECT_EQ(first(a), 222, "fork/join graph, a", 0);
  EXPECT_EQ(first(b), 4, "fork/join graph, b", 0);

  // ---- a child graph, a host node, an event record node; the child is cloned into its node ----
  cudaGraph_t child;
  CHECK(cudaGraphCreate(&child, 0));
  int nn = n, one = 1, five = 5;
  void* args1[] = {&b, &nn, &one};
  cudaKernelNodeParams kp = {};
  kp.func = (void*)add;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(n);
  kp.kernelParams = args1;
  cudaGraphNode_t k1, k2, k3;
  CHECK(cudaGraphAddKernelNode(&k1, child, nullptr, 0, &kp));
  CHECK(cudaGraphAddKernelNode(&k2, child, &k1, 1, &kp));
  cudaGraph_t parent;
  CHECK(cudaGraphCreate(&parent, 0));
  cudaGraphNode_t childNode, hostNode, recNode;
  CHECK(cudaGraphAddChildGraphNode(&childNode, parent, nullptr, 0, child));
  CHECK(cudaGraphAddKernelNode(&k3, child, &k2, 1, &kp));  // not in the parent's clone
  cudaGraph_t inner;
  CHECK(cudaGraphChildGraphNodeGetGraph(childNode, &inner));
  CHECK(cudaGraphGetNodes(inner, nullptr, &count));
  EXPECT_EQ((int)count, 2, "child node holds a clone", 0);
  int calls = 0;
  cudaHostNodeParams hp = {count_call, &calls};
  CHECK(cudaGraphAddHostNode(&hostNode, parent, &childNode, 1, &hp));
  cudaEvent_t done;
  CHECK(cudaEventCreate(&done));
  CHECK(cudaGraphAddEventRecordNode(&recNode, parent, &hostNode, 1, done));
  cudaEvent_t got;
  CHECK(cudaGraphEventRecordNodeGetEvent(recNode, &got));
  EXPECT_TRUE(got == done, "event record node event");
  cudaGraphExec_t gp;
  CHECK(cudaGraphInstantiate(&gp, parent, 0));
  CHECK(cudaGraphLaunch(gp, s2));
  CHECK(cudaEventSynchronize(done));
  EXPECT_EQ(calls, 1, "host node ran before the event", 0);
  EXPECT_EQ(first(b), 6, "child graph", 0);
  // The executable child graph takes a graph of the same shape: two adds of 5.
  cudaGraph_t child2;
  CHECK(cudaGraphCreate(&child2, 0));
  void* args5[] = {&b, &nn, &five};
  kp.kernelParams = args5;
  cudaGraphNode_t m1, m2;
  CHECK(cudaGraphAddKernelNode(&m1, child2, nullptr, 0, &kp));
  CHECK(cudaGraphAddKernelNode(&m2, child2, &m1, 1, &kp));
  CHECK(cudaGraphExecChildGraphNodeSetParams(gp, childNode, child2));
  CHECK(cudaGraphLaunch(gp, s2));
  CHECK(cudaStreamSynchronize(s2));
  EXPECT_EQ(first(b), 16, "updated child graph", 0);
  EXPECT_EQ(calls, 2, "host node ran again", 0);

  // ---- an event wait node orders a graph after work in another stream ----
  cudaGraph_t gw;
  CHECK(cudaGraphCreate(&gw, 0));
  cudaGraphNode_t waitNode, after;
  CHECK(cudaGraphAddEventWaitNode(&waitNode, gw, nullptr, 0, join));
  void* argsA[] = {&a, &nn, &five};
  kp.kernelParams = argsA;
  CHECK(cudaGraphAddKernelNode(&after, gw, &waitNode, 1, &kp));
  cudaGraphExec_t gwe;
  CHECK(cudaGraphInstantiate(&gwe, gw, 0));
  add<<<1, n, 0, s2>>>(a, n, 1000);
  CHECK(cudaEventRecord(join, s2));
  CHECK(cudaGraphLaunch(gwe, s1));
  CHECK(cudaStreamSynchronize(s1));
  EXPECT_EQ(first(a), 1227, "event wait node", 0);

  // ---- clones ----
  cudaGraph_t copy;
  CHECK(cudaGraphClone(&copy, parent));
  cudaGraphNode_t inCopy;
  CHECK(cudaGraphNodeFindInClone(&inCopy, hostNode, copy));
  EXPECT_TRUE(inCopy != hostNode, "clone has its own nodes");
  cudaGraphNodeType type;
  CHECK(cudaGraphNodeGetType(inCopy, &type));
  EXPECT_EQ((int)type, (int)cudaGraphNodeTypeHost, "cloned node kind", 0);
  CHECK(cudaGraphGetEdges(copy, nullptr, nullptr, nullptr, &count));
  EXPECT_EQ((int)count, 2, "cloned edges", 0);

  CHECK(cudaGraphExecDestroy(ge));
  CHECK(cudaGraphExecDestroy(gp));
  CHECK(cudaGraphExecDestroy(gwe));
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaGraphDestroy(child));
  CHECK(cudaGraphDestroy(child2));
  CHECK(cudaGraphDestroy(parent));
  CHECK(cudaGraphDestroy(gw));
  CHECK(cudaGraphDestroy(copy));

  // ---- last: a fork that never joins back fails the capture with no graph ----
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  CHECK(cudaEventRecord(fork, s1));
  CHECK(cudaStreamWaitEvent(s2, fork, 0));
  add<<<1, n, 0, s2>>>(b, n, 1);
  cudaGraph_t bad = nullptr;
  EXPECT_EQ((int)cudaStreamEndCapture(s1, &bad), (int)cudaErrorStreamCaptureUnjoined, "unjoined fork", 0);
  EXPECT_TRUE(bad == nullptr, "no graph from a failed capture");
  cudaGetLastError();
  return wf::finish();
}

// CUDA graphs (graphs.h): nodes recorded by stream capture or the node API, snapshotted by
// instantiation and queued in stream order by a launch.
#include "warpforge/runtime/graphs.h"
#include "warpforge/runtime/runtime.h"

namespace wf::rt {

Graphs &graphs() {
  static Graphs *all = new Graphs; // never destroyed: host threads may outlive static destructors
  return *all;
}

CUgraph_st *Graphs::create() {
  auto *graph = new CUgraph_st;
  graphs_.insert(graph);
  return graph;
}

Error Graphs::destroy(CUgraph_st *graph) {
  if (!graphs_.erase(graph))
    return Error::cudaErrorInvalidValue;
  delete graph;
  return Error::cudaSuccess;
}

bool Graphs::validDeps(const CUgraph_st *graph, CUgraphNode_st *const *deps, size_t count) const {
  if (count && !deps)
    return false;
  for (size_t i = 0; i < count; ++i)
    if (!deps[i] || deps[i]->graph != graph)
      return false;
  return true;
}

CUgraphNode_st *Graphs::add(CUgraph_st *graph, GraphNode node, CUgraphNode_st *const *deps,
                            size_t count) {
  auto n = std::make_unique<CUgraphNode_st>();
  static_cast<GraphNode &>(*n) = std::move(node);
  n->graph = graph;
  n->deps.assign(deps, deps + count);
  graph->nodes.push_back(std::move(n));
  return graph->nodes.back().get();
}

Error Graphs::beginCapture(CUstream_st *stream) {
  if (stream->legacy)
    return Error::cudaErrorStreamCaptureUnsupported;
  if (stream->capture)
    return Error::cudaErrorIllegalState;
  stream->capture = new CUgraph_st;
  return Error::cudaSuccess;
}

Error Graphs::endCapture(CUstream_st *stream, CUgraph_st *&graph) {
  if (!stream->capture)
    return Error::cudaErrorIllegalState;
  graph = stream->capture;
  graphs_.insert(graph);
  stream->capture = nullptr;
  return Error::cudaSuccess;
}

void Graphs::capture(CUstream_st *stream, GraphNode node) {
  CUgraph_st *graph = stream->capture;
  CUgraphNode_st *last = graph->nodes.empty() ? nullptr : graph->nodes.back().get();
  add(graph, std::move(node), &last, last ? 1 : 0);
}

Error Graphs::copyArgs(Runtime &rt, FunctionRecord &fn, void **args,
                       std::vector<std::vector<uint8_t>> &out) {
  const wfx::Kernel *k = rt.kernelOf(fn);
  if (!k)
    return fn.module->loadError != Error::cudaSuccess ? fn.module->loadError
                                                      : Error::cudaErrorInvalidDeviceFunction;
  out.clear();
  for (const auto &p : k->params) {
    if (!args || !args[out.size()])
      return Error::cudaErrorInvalidValue;
    auto *b = static_cast<const uint8_t *>(args[out.size()]);
    out.emplace_back(b, b + p.size);
  }
  return Error::cudaSuccess;
}

CUgraphExec_st *Graphs::instantiate(const CUgraph_st *graph) {
  auto *exec = new CUgraphExec_st;
  for (const auto &n : graph->nodes)
    exec->nodes.push_back(static_cast<const GraphNode &>(*n));
  execs_.insert(exec);
  return exec;
}

Error Graphs::destroyExec(CUgraphExec_st *exec) {
  if (!execs_.erase(exec))
    return Error::cudaErrorInvalidValue;
  delete exec;
  return Error::cudaSuccess;
}

namespace {

/// Queues one node on `stream`.
Error runNode(Runtime &rt, const GraphNode &n, CUstream_st *stream) {
  switch (n.type) {
  case cudaGraphNodeTypeKernel: {
    std::vector<void *> args;
    for (const auto &a : n.args)
      args.push_back(const_cast<uint8_t *>(a.data()));
    return rt.launch(*n.fn, Dim3{n.grid.x, n.grid.y, n.grid.z},
                     Dim3{n.block.x, n.block.y, n.block.z}, args.data(), n.shared, stream,
                     n.cooperative);
  }
  case cudaGraphNodeTypeMemcpy:
    return rt.memcpy(n.dst, n.src, n.count, Runtime::CopyKind(int(n.kind)), stream, true);
  case cudaGraphNodeTypeMemset: {
    // Rows of `width` elements, `pitch` bytes apart.
    const cudaMemsetParams &m = n.memset;
    if (m.height > 1 && uint64_t(m.width) * m.elementSize > m.pitch)
      return Error::cudaErrorInvalidValue;
    uint64_t base = reinterpret_cast<uint64_t>(m.dst);
    for (size_t row = 0; row < m.height && m.width; ++row)
      if (Error e = rt.memset(base + row * m.pitch, m.value, m.elementSize, m.width, stream);
          e != Error::cudaSuccess)
        return e;
    return Error::cudaSuccess;
  }
  case cudaGraphNodeTypeHost: {
    cudaHostFn_t fn = n.hostFn;
    void *data = n.userData;
    rt.enqueueHost(stream, [fn, data] { fn(data); });
    return Error::cudaSuccess;
  }
  default:
    return Error::cudaSuccess;
  }
}

} // namespace

Error Graphs::launch(Runtime &rt, const CUgraphExec_st *exec, CUstream_st *stream) {
  for (const GraphNode &n : exec->nodes) {
    if (Error e = runNode(rt, n, stream); e != Error::cudaSuccess)
      return e;
    if (rt.sticky() != Error::cudaSuccess)
      return Error::cudaSuccess; // reported at the next synchronization point
  }
  return Error::cudaSuccess;
}

void Graphs::reset() {
  for (CUgraph_st *g : graphs_)
    delete g;
  graphs_.clear();
  for (CUgraphExec_st *e : execs_)
    delete e;
  execs_.clear();
}

} // namespace wf::rt

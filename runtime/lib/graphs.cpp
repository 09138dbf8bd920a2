// CUDA graphs (graphs.h): nodes and edges recorded by stream capture or the node API, snapshotted
// in a topological order by instantiation and queued in that order on one stream by a launch.
#include "warpforge/runtime/graphs.h"
#include "warpforge/runtime/runtime.h"

#include <algorithm>
#include <sstream>

CUgraphNode_st::~CUgraphNode_st() {
  if (childGraph)
    wf::rt::graphs().forgetChild(childGraph.get());
}

namespace wf::rt {

Graphs &graphs() {
  static Graphs *all = new Graphs; // never destroyed: host threads may outlive static destructors
  return *all;
}

void GraphNode::setCopy1D(void *dst, const void *src, size_t count, cudaMemcpyKind kind) {
  copy = cudaMemcpy3DParms{};
  copy.srcPtr = cudaPitchedPtr{const_cast<void *>(src), count, count, 1};
  copy.dstPtr = cudaPitchedPtr{dst, count, count, 1};
  copy.extent = cudaExtent{count, 1, 1};
  copy.kind = kind;
}

CUgraph_st *Graphs::create() {
  auto *graph = new CUgraph_st;
  graphs_.insert(graph);
  return graph;
}

bool Graphs::valid(const CUgraph_st *graph) const {
  auto *g = const_cast<CUgraph_st *>(graph);
  return graphs_.count(g) != 0 || children_.count(g) != 0;
}

Error Graphs::destroy(CUgraph_st *graph) {
  if (!graphs_.count(graph))
    return Error::cudaErrorInvalidValue; // unknown, or owned by a child-graph node
  graphs_.erase(graph);
  delete graph;
  return Error::cudaSuccess;
}

bool Graphs::validDeps(const CUgraph_st *graph, CUgraphNode_st *const *deps, size_t count) const {
  if (count && !deps)
    return false;
  for (size_t i = 0; i < count; ++i) {
    if (!deps[i] || deps[i]->graph != graph)
      return false;
    for (size_t j = 0; j < i; ++j)
      if (deps[j] == deps[i])
        return false;
  }
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

namespace {

/// Copies `from`'s nodes and edges into the empty graph `to`; `map` gets each original's copy.
void copyGraph(const CUgraph_st &from, CUgraph_st &to,
               std::map<const CUgraphNode_st *, CUgraphNode_st *> &map, std::set<CUgraph_st *> &children) {
  for (const auto &n : from.nodes) {
    auto c = std::make_unique<CUgraphNode_st>();
    static_cast<GraphNode &>(*c) = static_cast<const GraphNode &>(*n);
    c->graph = &to;
    if (n->childGraph) {
      c->childGraph = std::make_unique<CUgraph_st>();
      std::map<const CUgraphNode_st *, CUgraphNode_st *> inner;
      copyGraph(*n->childGraph, *c->childGraph, inner, children);
      children.insert(c->childGraph.get());
    }
    map[n.get()] = c.get();
    to.nodes.push_back(std::move(c));
  }
  for (const auto &n : from.nodes)
    for (CUgraphNode_st *d : n->deps)
      map[n.get()]->deps.push_back(map[d]);
}

} // namespace

CUgraphNode_st *Graphs::addChild(CUgraph_st *graph, const CUgraph_st *child,
                                 CUgraphNode_st *const *deps, size_t count) {
  GraphNode g;
  g.type = cudaGraphNodeTypeGraph;
  CUgraphNode_st *node = add(graph, std::move(g), deps, count);
  node->childGraph = std::make_unique<CUgraph_st>();
  std::map<const CUgraphNode_st *, CUgraphNode_st *> map;
  copyGraph(*child, *node->childGraph, map, children_);
  children_.insert(node->childGraph.get());
  return node;
}

void Graphs::destroyNode(CUgraphNode_st *node) {
  CUgraph_st *graph = node->graph;
  for (auto &n : graph->nodes)
    std::erase(n->deps, node);
  for (auto &[stream, cap] : capturing_)
    std::erase(cap.frontier, node);
  for (auto &[event, rec] : events_)
    std::erase(rec.nodes, node);
  std::erase_if(graph->cloneOf, [node](const auto &kv) { return kv.second == node; });
  std::erase_if(graph->nodes, [node](const auto &n) { return n.get() == node; });
}

Error Graphs::addEdges(CUgraph_st *graph, CUgraphNode_st *const *from, CUgraphNode_st *const *to,
                       size_t count) {
  if (count && (!from || !to))
    return Error::cudaErrorInvalidValue;
  for (size_t i = 0; i < count; ++i) {
    if (!from[i] || !to[i] || from[i]->graph != graph || to[i]->graph != graph || from[i] == to[i])
      return Error::cudaErrorInvalidValue;
    const auto &deps = to[i]->deps;
    if (std::find(deps.begin(), deps.end(), from[i]) != deps.end())
      return Error::cudaErrorInvalidValue;
    for (size_t j = 0; j < i; ++j)
      if (from[j] == from[i] && to[j] == to[i])
        return Error::cudaErrorInvalidValue;
  }
  for (size_t i = 0; i < count; ++i)
    to[i]->deps.push_back(from[i]);
  return Error::cudaSuccess;
}

Error Graphs::removeEdges(CUgraph_st *graph, CUgraphNode_st *const *from,
                          CUgraphNode_st *const *to, size_t count) {
  if (count && (!from || !to))
    return Error::cudaErrorInvalidValue;
  for (size_t i = 0; i < count; ++i) {
    if (!from[i] || !to[i] || from[i]->graph != graph || to[i]->graph != graph)
      return Error::cudaErrorInvalidValue;
    const auto &deps = to[i]->deps;
    if (std::find(deps.begin(), deps.end(), from[i]) == deps.end())
      return Error::cudaErrorInvalidValue;
  }
  for (size_t i = 0; i < count; ++i)
    std::erase(to[i]->deps, from[i]);
  return Error::cudaSuccess;
}

void Graphs::listOut(const std::vector<CUgraphNode_st *> &list, CUgraphNode_st **out,
                     cudaGraphEdgeData *edges, size_t *count) {
  if (!out) {
    *count = list.size();
    return;
  }
  for (size_t i = 0; i < *count; ++i) {
    out[i] = i < list.size() ? list[i] : nullptr;
    if (edges)
      edges[i] = cudaGraphEdgeData{};
  }
  *count = std::min(*count, list.size());
}

std::vector<CUgraphNode_st *> Graphs::dependents(const CUgraphNode_st *node) {
  std::vector<CUgraphNode_st *> out;
  for (const auto &n : node->graph->nodes)
    if (std::find(n->deps.begin(), n->deps.end(), node) != n->deps.end())
      out.push_back(n.get());
  return out;
}

CUgraph_st *Graphs::clone(const CUgraph_st *graph) {
  CUgraph_st *copy = create();
  std::map<const CUgraphNode_st *, CUgraphNode_st *> map;
  copyGraph(*graph, *copy, map, children_);
  copy->cloneOf = std::move(map);
  return copy;
}

std::string Graphs::dot(const CUgraph_st *graph) {
  static const char *const kKinds[] = {"kernel", "memcpy", "memset",     "host",
                                       "graph",  "empty",  "wait_event", "event_record"};
  std::ostringstream out;
  std::map<const CUgraphNode_st *, size_t> index;
  for (const auto &n : graph->nodes)
    index[n.get()] = index.size();
  out << "digraph warpforge_graph {\n";
  for (const auto &n : graph->nodes) {
    unsigned kind = unsigned(n->type);
    out << "  n" << index[n.get()] << " [label=\"" << index[n.get()] << ": "
        << (kind < std::size(kKinds) ? kKinds[kind] : "node") << "\"];\n";
  }
  for (const auto &n : graph->nodes)
    for (const CUgraphNode_st *d : n->deps)
      out << "  n" << index[d] << " -> n" << index[n.get()] << ";\n";
  out << "}\n";
  return out.str();
}

// --- stream capture ---

Error Graphs::beginCapture(CUstream_st *stream, cudaStreamCaptureMode mode) {
  if (stream->legacy)
    return Error::cudaErrorStreamCaptureUnsupported;
  if (stream->capture)
    return Error::cudaErrorIllegalState;
  auto seq = std::make_shared<CaptureSeq>();
  seq->graph = new CUgraph_st;
  seq->origin = stream;
  seq->id = nextCaptureId_++;
  seq->mode = mode;
  stream->capture = seq->graph;
  capturing_[stream] = CapturingStream{std::move(seq), {}};
  return Error::cudaSuccess;
}

namespace {

/// True when `target` is `from` or one of its ancestors.
bool reaches(const CUgraphNode_st *from, const CUgraphNode_st *target,
             std::set<const CUgraphNode_st *> &seen) {
  if (from == target)
    return true;
  if (!seen.insert(from).second)
    return false;
  for (const CUgraphNode_st *d : from->deps)
    if (reaches(d, target, seen))
      return true;
  return false;
}

} // namespace

Error Graphs::endCapture(CUstream_st *stream, CUgraph_st *&graph) {
  graph = nullptr;
  auto it = capturing_.find(stream);
  if (it == capturing_.end())
    return Error::cudaErrorIllegalState;
  std::shared_ptr<CaptureSeq> seq = it->second.seq;
  if (seq->origin != stream)
    return Error::cudaErrorStreamCaptureUnmatched;
  // Every other stream of the capture must have joined back: its frontier is behind the
  // origin's.
  const std::vector<CUgraphNode_st *> &originTail = it->second.frontier;
  bool unjoined = false;
  for (auto &[s, cap] : capturing_) {
    if (cap.seq != seq || s == stream)
      continue;
    for (const CUgraphNode_st *n : cap.frontier) {
      bool joined = false;
      for (const CUgraphNode_st *t : originTail) {
        std::set<const CUgraphNode_st *> seen;
        joined = joined || reaches(t, n, seen);
      }
      unjoined = unjoined || !joined;
    }
  }
  // Every stream of the capture leaves capture mode, whatever the outcome.
  for (auto i = capturing_.begin(); i != capturing_.end();) {
    if (i->second.seq == seq) {
      const_cast<CUstream_st *>(i->first)->capture = nullptr;
      i = capturing_.erase(i);
    } else {
      ++i;
    }
  }
  std::erase_if(events_, [&seq](const auto &kv) { return kv.second.seq == seq; });
  if (seq->invalidated || unjoined) {
    delete seq->graph;
    return seq->invalidated ? Error::cudaErrorStreamCaptureInvalidated
                            : Error::cudaErrorStreamCaptureUnjoined;
  }
  graph = seq->graph;
  graphs_.insert(graph);
  return Error::cudaSuccess;
}

Error Graphs::capture(CUstream_st *stream, GraphNode node) {
  auto it = capturing_.find(stream);
  if (it == capturing_.end())
    return Error::cudaErrorIllegalState;
  CapturingStream &cap = it->second;
  if (cap.seq->invalidated)
    return Error::cudaErrorStreamCaptureInvalidated;
  CUgraphNode_st *n = add(cap.seq->graph, std::move(node), cap.frontier.data(), cap.frontier.size());
  cap.frontier.assign(1, n);
  return Error::cudaSuccess;
}

Error Graphs::captureRecord(CUevent_st *event, CUstream_st *stream) {
  auto it = capturing_.find(stream);
  if (it == capturing_.end())
    return Error::cudaErrorIllegalState;
  if (it->second.seq->invalidated)
    return Error::cudaErrorStreamCaptureInvalidated;
  events_[event] = CapturedEvent{it->second.seq, it->second.frontier};
  return Error::cudaSuccess;
}

Error Graphs::captureWait(CUstream_st *stream, CUevent_st *event) {
  auto ev = events_.find(event);
  auto it = capturing_.find(stream);
  if (ev == events_.end()) {
    // A non-captured event: a capturing stream may not wait on it (isolation).
    if (it != capturing_.end()) {
      it->second.seq->invalidated = true;
      return Error::cudaErrorStreamCaptureIsolation;
    }
    return Error::cudaSuccess;
  }
  const CapturedEvent &rec = ev->second;
  if (rec.seq->invalidated)
    return Error::cudaErrorStreamCaptureInvalidated;
  if (it == capturing_.end()) {
    if (stream->legacy)
      return Error::cudaErrorStreamCaptureImplicit;
    // Fork: the stream joins the event's capture.
    stream->capture = rec.seq->graph;
    capturing_[stream] = CapturingStream{rec.seq, rec.nodes};
    return Error::cudaSuccess;
  }
  if (it->second.seq != rec.seq) {
    it->second.seq->invalidated = true;
    return Error::cudaErrorStreamCaptureMerge;
  }
  // Join: the next node follows the event's nodes too.
  for (CUgraphNode_st *n : rec.nodes)
    if (std::find(it->second.frontier.begin(), it->second.frontier.end(), n) ==
        it->second.frontier.end())
      it->second.frontier.push_back(n);
  return Error::cudaSuccess;
}

void Graphs::invalidate(CUstream_st *stream) {
  auto it = capturing_.find(stream);
  if (it != capturing_.end())
    it->second.seq->invalidated = true;
}

Graphs::CaptureInfo Graphs::captureInfo(CUstream_st *stream) const {
  CaptureInfo info;
  auto it = capturing_.find(stream);
  if (it == capturing_.end())
    return info;
  const CaptureSeq &seq = *it->second.seq;
  info.status = seq.invalidated ? cudaStreamCaptureStatusInvalidated : cudaStreamCaptureStatusActive;
  info.id = seq.id;
  info.graph = seq.graph;
  info.frontier = &it->second.frontier;
  return info;
}

Error Graphs::updateCaptureDeps(CUstream_st *stream, CUgraphNode_st *const *deps, size_t count,
                                unsigned flags) {
  auto it = capturing_.find(stream);
  if (it == capturing_.end())
    return Error::cudaErrorIllegalState;
  if (flags > 1 || !validDeps(it->second.seq->graph, deps, count))
    return Error::cudaErrorInvalidValue;
  std::vector<CUgraphNode_st *> &f = it->second.frontier;
  if (flags == 1) // cudaStreamSetCaptureDependencies
    f.clear();
  for (size_t i = 0; i < count; ++i)
    if (std::find(f.begin(), f.end(), deps[i]) == f.end())
      f.push_back(deps[i]);
  return Error::cudaSuccess;
}

void Graphs::forgetStream(CUstream_st *stream) {
  auto it = capturing_.find(stream);
  if (it == capturing_.end())
    return;
  it->second.seq->invalidated = true;
  if (it->second.seq->origin == stream)
    it->second.seq->origin = nullptr;
  capturing_.erase(it);
}

// --- instantiation and launch ---

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

namespace {

/// `graph`'s nodes in a topological order (Kahn's algorithm, ties in creation order); false and
/// `cycleNode` when the edges have a cycle.
bool topoOrder(const CUgraph_st &graph, std::vector<const CUgraphNode_st *> &order,
               const CUgraphNode_st *&cycleNode) {
  std::map<const CUgraphNode_st *, size_t> pending;
  for (const auto &n : graph.nodes)
    pending[n.get()] = n->deps.size();
  std::vector<bool> done(graph.nodes.size(), false);
  order.clear();
  while (order.size() < graph.nodes.size()) {
    bool progressed = false;
    for (size_t i = 0; i < graph.nodes.size(); ++i) {
      const CUgraphNode_st *n = graph.nodes[i].get();
      if (done[i] || pending[n] != 0)
        continue;
      done[i] = true;
      order.push_back(n);
      for (const auto &m : graph.nodes)
        for (const CUgraphNode_st *d : m->deps)
          if (d == n)
            --pending[m.get()];
      progressed = true;
    }
    if (!progressed) {
      for (size_t i = 0; i < graph.nodes.size(); ++i)
        if (!done[i]) {
          cycleNode = graph.nodes[i].get();
          break;
        }
      return false;
    }
  }
  return true;
}

/// Appends `graph`'s nodes to `out` in a topological order, child graphs inlined.
bool flatten(const CUgraph_st &graph, const CUgraphNode_st *child, std::vector<ExecNode> &out,
             const CUgraphNode_st *&cycleNode) {
  std::vector<const CUgraphNode_st *> order;
  if (!topoOrder(graph, order, cycleNode))
    return false;
  for (const CUgraphNode_st *n : order) {
    if (n->type == cudaGraphNodeTypeGraph) {
      if (!flatten(*n->childGraph, child ? child : n, out, cycleNode))
        return false;
      continue;
    }
    ExecNode e;
    static_cast<GraphNode &>(e) = static_cast<const GraphNode &>(*n);
    e.origin = n;
    e.child = child;
    out.push_back(std::move(e));
  }
  return true;
}

} // namespace

Error Graphs::instantiate(const CUgraph_st *graph, unsigned long long flags,
                          CUgraphExec_st *&exec, const CUgraphNode_st **errNode) {
  auto e = std::make_unique<CUgraphExec_st>();
  const CUgraphNode_st *cycle = nullptr;
  if (!flatten(*graph, nullptr, e->nodes, cycle)) {
    if (errNode)
      *errNode = cycle;
    return Error::cudaErrorInvalidValue;
  }
  e->flags = flags;
  std::map<const CUgraphNode_st *, size_t> index;
  for (const auto &n : graph->nodes) {
    index[n.get()] = e->top.size();
    e->top.push_back(n.get());
  }
  for (const auto &n : graph->nodes) {
    std::vector<size_t> deps;
    for (const CUgraphNode_st *d : n->deps)
      deps.push_back(index[d]);
    std::sort(deps.begin(), deps.end());
    e->shape.emplace_back(n->type, std::move(deps));
  }
  exec = e.release();
  execs_.insert(exec);
  return Error::cudaSuccess;
}

Error Graphs::destroyExec(CUgraphExec_st *exec) {
  if (!execs_.erase(exec))
    return Error::cudaErrorInvalidValue;
  delete exec;
  return Error::cudaSuccess;
}

ExecNode *Graphs::execNode(CUgraphExec_st *exec, const CUgraphNode_st *node) {
  for (ExecNode &e : exec->nodes)
    if (e.origin == node && !e.child)
      return &e;
  return nullptr;
}

UpdateResult Graphs::update(CUgraphExec_st *exec, const CUgraph_st *graph,
                            const CUgraphNode_st **errNode) {
  *errNode = nullptr;
  if (graph->nodes.size() != exec->shape.size())
    return UpdateResult::TopologyChanged;
  std::map<const CUgraphNode_st *, size_t> index;
  for (const auto &n : graph->nodes)
    index[n.get()] = index.size();
  for (size_t i = 0; i < graph->nodes.size(); ++i) {
    const CUgraphNode_st &n = *graph->nodes[i];
    *errNode = &n;
    if (n.type != exec->shape[i].first)
      return UpdateResult::NodeTypeChanged;
    std::vector<size_t> deps;
    for (const CUgraphNode_st *d : n.deps)
      deps.push_back(index[d]);
    std::sort(deps.begin(), deps.end());
    if (deps != exec->shape[i].second)
      return UpdateResult::TopologyChanged;
    if (n.type == cudaGraphNodeTypeGraph)
      return UpdateResult::NotSupported; // child graphs: cudaGraphExecChildGraphNodeSetParams
  }
  *errNode = nullptr;
  for (size_t i = 0; i < graph->nodes.size(); ++i) {
    ExecNode *e = execNode(exec, exec->top[i]);
    if (e) {
      bool enabled = e->enabled;
      static_cast<GraphNode &>(*e) = static_cast<const GraphNode &>(*graph->nodes[i]);
      e->enabled = enabled;
    }
  }
  return UpdateResult::Success;
}

Error Graphs::updateChild(CUgraphExec_st *exec, const CUgraphNode_st *node,
                          const CUgraph_st *child) {
  std::vector<ExecNode *> inside;
  for (ExecNode &e : exec->nodes)
    if (e.child == node)
      inside.push_back(&e);
  std::vector<ExecNode> fresh;
  const CUgraphNode_st *cycle = nullptr;
  if (!flatten(*child, node, fresh, cycle) || fresh.size() != inside.size())
    return Error::cudaErrorInvalidValue;
  for (size_t i = 0; i < fresh.size(); ++i)
    if (fresh[i].type != inside[i]->type)
      return Error::cudaErrorInvalidValue;
  for (size_t i = 0; i < fresh.size(); ++i) {
    const CUgraphNode_st *origin = inside[i]->origin;
    *inside[i] = std::move(fresh[i]);
    inside[i]->origin = origin;
  }
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
  case cudaGraphNodeTypeMemcpy: {
    // Row by row through the pitched 3D region (a 1D copy is one row).
    const cudaMemcpy3DParms &p = n.copy;
    const cudaExtent &e = p.extent;
    auto at = [](const cudaPitchedPtr &ptr, const cudaPos &pos, size_t y, size_t z) {
      return reinterpret_cast<uint64_t>(ptr.ptr) + ((pos.z + z) * ptr.ysize + pos.y + y) * ptr.pitch +
             pos.x;
    };
    for (size_t z = 0; z < e.depth; ++z)
      for (size_t y = 0; y < e.height; ++y)
        if (Error err = rt.memcpy(reinterpret_cast<void *>(at(p.dstPtr, p.dstPos, y, z)),
                                  reinterpret_cast<const void *>(at(p.srcPtr, p.srcPos, y, z)),
                                  e.width, Runtime::CopyKind(int(p.kind)), stream, true);
            err != Error::cudaSuccess)
          return err;
    return Error::cudaSuccess;
  }
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
  case cudaGraphNodeTypeEventRecord:
    return rt.isEvent(n.event) ? rt.recordEvent(n.event, stream)
                               : Error::cudaErrorInvalidResourceHandle;
  case cudaGraphNodeTypeWaitEvent:
    return rt.isEvent(n.event) ? rt.waitEvent(stream, n.event)
                               : Error::cudaErrorInvalidResourceHandle;
  default:
    return Error::cudaSuccess;
  }
}

} // namespace

Error Graphs::launch(Runtime &rt, const CUgraphExec_st *exec, CUstream_st *stream) {
  for (const ExecNode &n : exec->nodes) {
    if (!n.enabled)
      continue; // a disabled node acts as an empty node (cudaGraphNodeSetEnabled)
    if (Error e = runNode(rt, n, stream); e != Error::cudaSuccess)
      return e;
    if (rt.sticky() != Error::cudaSuccess)
      return Error::cudaSuccess; // reported at the next synchronization point
  }
  return Error::cudaSuccess;
}

void Graphs::reset() {
  for (auto &[stream, cap] : capturing_)
    const_cast<CUstream_st *>(stream)->capture = nullptr;
  std::set<CUgraph_st *> captureGraphs;
  for (auto &[stream, cap] : capturing_)
    captureGraphs.insert(cap.seq->graph);
  capturing_.clear();
  events_.clear();
  for (CUgraph_st *g : captureGraphs)
    if (!graphs_.count(g))
      delete g;
  for (CUgraph_st *g : graphs_)
    delete g;
  graphs_.clear();
  children_.clear();
  for (CUgraphExec_st *e : execs_)
    delete e;
  execs_.clear();
}

} // namespace wf::rt

// CUDA graphs in the common layer (docs/runtime.md, "Graphs"): graphs, their nodes and edges,
// executable graphs, stream capture (with cross-stream forks and joins through events) and graph
// launch, for both API layers (the runtime's cudaGraph* and the driver's cuGraph* are thin over
// it). Guarded by the context lock.
#pragma once

#include "cuda_types.h"
#include "warpforge/runtime/streams.h"

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

struct CUgraph_st;
struct CUgraphNode_st;

namespace wf::rt {

enum class Error : int;
class Runtime;
struct FunctionRecord;

/// One operation of a graph (stream capture or the explicit node API): its kind and parameters.
struct GraphNode {
  cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
  // kernel: the argument values are copied when the node is made or set, as CUDA does
  FunctionRecord *fn = nullptr;
  const void *func = nullptr; ///< the handle the program named it by (host stub or CUfunction)
  dim3 grid{1, 1, 1}, block{1, 1, 1};
  size_t shared = 0;
  bool cooperative = false;
  std::vector<std::vector<uint8_t>> args;
  // memcpy: a pitched 3D copy between linear memory (a 1D copy is one row of one slice)
  cudaMemcpy3DParms copy{};
  // memset
  cudaMemsetParams memset{};
  // host
  cudaHostFn_t hostFn = nullptr;
  void *userData = nullptr;
  // event record / wait
  CUevent_st *event = nullptr;

  /// A 1D copy of `count` bytes as the 3D parameters CUDA reports for it.
  void setCopy1D(void *dst, const void *src, size_t count, cudaMemcpyKind kind);
};

/// A node of an executable graph: a snapshot of a graph node, which may come from a child graph.
struct ExecNode : GraphNode {
  const CUgraphNode_st *origin = nullptr; ///< the graph node it was instantiated from
  const CUgraphNode_st *child = nullptr;  ///< the top-level child-graph node it is inside
  bool enabled = true;
};

} // namespace wf::rt

struct CUgraphNode_st : wf::rt::GraphNode {
  CUgraph_st *graph = nullptr;
  std::vector<CUgraphNode_st *> deps;  ///< edges into this node, in the order they were added
  std::unique_ptr<CUgraph_st> childGraph; ///< cudaGraphNodeTypeGraph: the node's own clone
  ~CUgraphNode_st();
};
struct CUgraph_st {
  std::vector<std::unique_ptr<CUgraphNode_st>> nodes; ///< in creation order
  /// cudaGraphClone: the original node of each cloned node (cudaGraphNodeFindInClone).
  std::map<const CUgraphNode_st *, CUgraphNode_st *> cloneOf;
};
struct CUgraphExec_st {
  std::vector<wf::rt::ExecNode> nodes; ///< a topological order; later graph edits do not touch it
  unsigned long long flags = 0;
  /// The instantiated graph's shape, for cudaGraphExecUpdate: each top-level node's kind and the
  /// indices of its dependencies, in creation order, and the nodes themselves.
  std::vector<const CUgraphNode_st *> top;
  std::vector<std::pair<cudaGraphNodeType, std::vector<size_t>>> shape;
};

namespace wf::rt {

/// Why cudaGraphExecUpdate refused (cudaGraphExecUpdateResult numbers).
enum class UpdateResult : int {
  Success = 0,
  TopologyChanged = 2,
  NodeTypeChanged = 3,
  ParametersChanged = 5,
  NotSupported = 6,
};

class Graphs {
public:
  CUgraph_st *create();
  bool valid(const CUgraph_st *graph) const;
  bool validNode(const CUgraphNode_st *node) const { return node && valid(node->graph); }
  Error destroy(CUgraph_st *graph);
  /// Every dependency is a distinct node of `graph`.
  bool validDeps(const CUgraph_st *graph, CUgraphNode_st *const *deps, size_t count) const;
  CUgraphNode_st *add(CUgraph_st *graph, GraphNode node, CUgraphNode_st *const *deps,
                      size_t count);
  /// A child-graph node holding a clone of `child`.
  CUgraphNode_st *addChild(CUgraph_st *graph, const CUgraph_st *child,
                           CUgraphNode_st *const *deps, size_t count);
  /// Removes `node` and every edge that touches it.
  void destroyNode(CUgraphNode_st *node);
  /// Edges from[i] -> to[i]. Adding an edge that exists, or removing one that does not, is
  /// cudaErrorInvalidValue (nothing changes then).
  Error addEdges(CUgraph_st *graph, CUgraphNode_st *const *from, CUgraphNode_st *const *to,
                 size_t count);
  Error removeEdges(CUgraph_st *graph, CUgraphNode_st *const *from, CUgraphNode_st *const *to,
                    size_t count);
  /// A node list as CUDA's queries return it: with no array, the count; with one, what fits (the
  /// rest null, edge data default) and how many were written.
  static void listOut(const std::vector<CUgraphNode_st *> &list, CUgraphNode_st **out,
                      cudaGraphEdgeData *edges, size_t *count);
  /// The nodes that depend on `node`, in creation order.
  static std::vector<CUgraphNode_st *> dependents(const CUgraphNode_st *node);
  /// A deep copy of `graph` (child graphs too) that remembers each original node.
  CUgraph_st *clone(const CUgraph_st *graph);
  /// Graphviz text of `graph` (cudaGraphDebugDotPrint).
  static std::string dot(const CUgraph_st *graph);

  // Stream capture (programming guide, "Stream Capture"). `stream->capture` is the graph while a
  // stream captures; the capture's other state lives here.
  Error beginCapture(CUstream_st *stream, cudaStreamCaptureMode mode);
  Error endCapture(CUstream_st *stream, CUgraph_st *&graph);
  /// Appends `node` to the graph `stream` captures into, after the stream's capture frontier.
  Error capture(CUstream_st *stream, GraphNode node);
  /// cudaEventRecord into a capturing stream: the event stands for the stream's frontier.
  Error captureRecord(CUevent_st *event, CUstream_st *stream);
  /// True when `event` was last recorded in a capture (then it stands for captured nodes).
  bool capturedEvent(const CUevent_st *event) const { return events_.count(event) != 0; }
  /// cudaStreamWaitEvent on a captured event: `stream` joins the event's capture (fork/join).
  /// An event recorded outside capture is an isolation error unless waited on as external.
  Error captureWait(CUstream_st *stream, CUevent_st *event);
  /// Marks the capture `stream` belongs to as invalidated (an illegal call during capture).
  void invalidate(CUstream_st *stream);
  struct CaptureInfo {
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    unsigned long long id = 0;
    CUgraph_st *graph = nullptr;
    const std::vector<CUgraphNode_st *> *frontier = nullptr;
  };
  CaptureInfo captureInfo(CUstream_st *stream) const;
  /// Replaces (flags 1: cudaStreamSetCaptureDependencies) or extends (0) the stream's frontier.
  Error updateCaptureDeps(CUstream_st *stream, CUgraphNode_st *const *deps, size_t count,
                          unsigned flags);
  /// The stream left the program (cudaStreamDestroy): forget its capture state.
  void forgetStream(CUstream_st *stream);
  void forgetEvent(CUevent_st *event) { events_.erase(event); }

  /// Copies a kernel's argument values by the parameter layout of its compiled code.
  static Error copyArgs(Runtime &rt, FunctionRecord &fn, void **args,
                        std::vector<std::vector<uint8_t>> &out);
  /// A snapshot of `graph` in a topological order (child graphs inlined); a cycle is
  /// cudaErrorInvalidValue with `errNode` set to a node on it.
  Error instantiate(const CUgraph_st *graph, unsigned long long flags, CUgraphExec_st *&exec,
                    const CUgraphNode_st **errNode = nullptr);
  bool validExec(const CUgraphExec_st *exec) const {
    return execs_.count(const_cast<CUgraphExec_st *>(exec)) != 0;
  }
  Error destroyExec(CUgraphExec_st *exec);
  /// The executable node made from `node` (a top-level node of the instantiated graph).
  static ExecNode *execNode(CUgraphExec_st *exec, const CUgraphNode_st *node);
  /// cudaGraphExecUpdate: `graph` must have the instantiated graph's topology and node kinds.
  UpdateResult update(CUgraphExec_st *exec, const CUgraph_st *graph,
                      const CUgraphNode_st **errNode);
  /// cudaGraphExecChildGraphNodeSetParams: the child graph's nodes take `child`'s parameters.
  Error updateChild(CUgraphExec_st *exec, const CUgraphNode_st *node, const CUgraph_st *child);
  /// Queues the enabled nodes on `stream` in order; a fault is reported at the next
  /// synchronization point.
  Error launch(Runtime &rt, const CUgraphExec_st *exec, CUstream_st *stream);
  /// cudaDeviceReset: every graph and executable graph is gone.
  void reset();
  /// A child graph's node died (~CUgraphNode_st).
  void forgetChild(const CUgraph_st *child) { children_.erase(const_cast<CUgraph_st *>(child)); }

private:
  struct CaptureSeq {
    CUgraph_st *graph = nullptr;
    CUstream_st *origin = nullptr;
    unsigned long long id = 0;
    bool invalidated = false;
    cudaStreamCaptureMode mode = cudaStreamCaptureModeGlobal;
  };
  struct CapturingStream {
    std::shared_ptr<CaptureSeq> seq;
    std::vector<CUgraphNode_st *> frontier; ///< what the stream's next captured node follows
  };
  struct CapturedEvent {
    std::shared_ptr<CaptureSeq> seq;
    std::vector<CUgraphNode_st *> nodes;
  };
  std::set<CUgraph_st *> graphs_;   ///< the program's graphs (cudaGraphCreate, capture, clone)
  std::set<CUgraph_st *> children_; ///< graphs owned by child-graph nodes
  std::set<CUgraphExec_st *> execs_;
  std::map<const CUstream_st *, CapturingStream> capturing_;
  std::map<const CUevent_st *, CapturedEvent> events_;
  unsigned long long nextCaptureId_ = 1;
};

/// The process's graphs (one device context). Callers hold the context lock; cudaDeviceReset
/// resets them.
Graphs &graphs();

} // namespace wf::rt

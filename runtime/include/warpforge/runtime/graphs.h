// CUDA graphs in the common layer (docs/runtime.md, "Graphs"): graphs, their nodes, executable
// graphs, stream capture and graph launch, for the runtime API (and the driver API's graph calls
// when they are written). Guarded by the context lock.
#pragma once

#include "cuda_types.h"
#include "warpforge/runtime/streams.h"

#include <cstdint>
#include <memory>
#include <set>
#include <vector>

namespace wf::rt {

enum class Error : int;
class Runtime;
struct FunctionRecord;

/// One recorded operation of a graph (stream capture or the explicit node API). A node's
/// dependencies exist before it, so the nodes' insertion order is a valid execution order.
struct GraphNode {
  cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
  std::vector<CUgraphNode_st *> deps;
  // kernel: the argument values are copied when the node is made, as CUDA does
  FunctionRecord *fn = nullptr;
  dim3 grid{1, 1, 1}, block{1, 1, 1};
  size_t shared = 0;
  bool cooperative = false;
  std::vector<std::vector<uint8_t>> args;
  // memcpy
  void *dst = nullptr;
  const void *src = nullptr;
  size_t count = 0;
  cudaMemcpyKind kind = cudaMemcpyDefault;
  // memset
  cudaMemsetParams memset{};
  // host
  cudaHostFn_t hostFn = nullptr;
  void *userData = nullptr;
};

} // namespace wf::rt

struct CUgraphNode_st : wf::rt::GraphNode {
  CUgraph_st *graph = nullptr;
};
struct CUgraph_st {
  std::vector<std::unique_ptr<CUgraphNode_st>> nodes;
};
struct CUgraphExec_st {
  std::vector<wf::rt::GraphNode> nodes; ///< a snapshot: later changes to the graph do not affect it
};

namespace wf::rt {

class Graphs {
public:
  CUgraph_st *create();
  bool valid(const CUgraph_st *graph) const {
    return graphs_.count(const_cast<CUgraph_st *>(graph)) != 0;
  }
  Error destroy(CUgraph_st *graph);
  /// Every dependency is a node of `graph`.
  bool validDeps(const CUgraph_st *graph, CUgraphNode_st *const *deps, size_t count) const;
  CUgraphNode_st *add(CUgraph_st *graph, GraphNode node, CUgraphNode_st *const *deps,
                      size_t count);
  /// The legacy default stream cannot be captured, nor a stream twice.
  Error beginCapture(CUstream_st *stream);
  Error endCapture(CUstream_st *stream, CUgraph_st *&graph);
  /// Appends `node` to the graph `stream` captures into, after the stream's previous node.
  void capture(CUstream_st *stream, GraphNode node);
  /// Copies a kernel's argument values by the parameter layout of its compiled code.
  static Error copyArgs(Runtime &rt, FunctionRecord &fn, void **args,
                        std::vector<std::vector<uint8_t>> &out);
  CUgraphExec_st *instantiate(const CUgraph_st *graph);
  bool validExec(const CUgraphExec_st *exec) const {
    return execs_.count(const_cast<CUgraphExec_st *>(exec)) != 0;
  }
  Error destroyExec(CUgraphExec_st *exec);
  /// Queues the nodes on `stream` in insertion order; a fault is reported at the next
  /// synchronization point.
  Error launch(Runtime &rt, const CUgraphExec_st *exec, CUstream_st *stream);
  /// cudaDeviceReset: every graph and executable graph is gone.
  void reset();

private:
  std::set<CUgraph_st *> graphs_;
  std::set<CUgraphExec_st *> execs_;
};

/// The process's graphs (one device context). Callers hold the context lock; cudaDeviceReset
/// resets them.
Graphs &graphs();

} // namespace wf::rt

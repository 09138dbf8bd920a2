// WF-CHAPTER: apps
// WF-FEATURES: app.bfs, atomics.cas.int.global, atomics.add.int.global
// WF-DESCRIPTION: level-synchronous breadth-first search on a random graph in CSR form: each level expands the frontier in parallel, claims unvisited vertices with atomicCAS and appends them to the next frontier with atomicAdd; the distances are unique and checked against a host BFS
#include "../common/check.h"
#include <queue>
#include <utility>
#include <vector>

__global__ void expand(const int* rp, const int* adj, const int* frontier, int fsize, int* dist, int level, int* next, int* nsize) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= fsize) return;
  int v = frontier[k];
  for (int e = rp[v]; e < rp[v + 1]; ++e) {
    int u = adj[e];
    if (atomicCAS(&dist[u], -1, level + 1) == -1) next[atomicAdd(nsize, 1)] = u;
  }
}

int main() {
  const int V = 5000;
  std::vector<std::vector<int>> g(V);
  wf::Rng r(77);
  for (int v = 1; v < V; ++v) { int u = r.range(0, v - 1); g[v].push_back(u); g[u].push_back(v); }  // spanning tree
  for (int k = 0; k < 6000; ++k) { int a = r.range(0, V - 1), b = r.range(0, V - 1); g[a].push_back(b); }  // extra directed edges
  std::vector<int> rp(V + 1, 0), adj;
  for (int v = 0; v < V; ++v) { for (int u : g[v]) adj.push_back(u); rp[v + 1] = (int)adj.size(); }
  int *drp, *dadj, *dist, *fa, *fb, *ns;
  CHECK(cudaMalloc(&drp, (V + 1) * 4)); CHECK(cudaMalloc(&dadj, adj.size() * 4)); CHECK(cudaMalloc(&dist, V * 4));
  CHECK(cudaMalloc(&fa, V * 4)); CHECK(cudaMalloc(&fb, V * 4)); CHECK(cudaMalloc(&ns, 4));
  CHECK(cudaMemcpy(drp, rp.data(), (V + 1) * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dadj, adj.data(), adj.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dist, 0xff, V * 4));
  const int src = 17, zero = 0;
  CHECK(cudaMemcpy(dist + src, &zero, 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(fa, &src, 4, cudaMemcpyHostToDevice));
  int fsize = 1, level = 0, visited = 1;
  while (fsize > 0) {
    CHECK(cudaMemset(ns, 0, 4));
    expand<<<(fsize + 127) / 128, 128>>>(drp, dadj, fa, fsize, dist, level, fb, ns);
    CHECK_KERNEL();
    CHECK(cudaMemcpy(&fsize, ns, 4, cudaMemcpyDeviceToHost));
    visited += fsize;
    std::swap(fa, fb);
    ++level;
  }
  std::vector<int> hd(V), want(V, -1);
  CHECK(cudaMemcpy(hd.data(), dist, V * 4, cudaMemcpyDeviceToHost));
  std::queue<int> q;
  want[src] = 0;
  q.push(src);
  while (!q.empty()) { int v = q.front(); q.pop(); for (int u : g[v]) if (want[u] < 0) { want[u] = want[v] + 1; q.push(u); } }
  for (int v = 0; v < V; ++v) EXPECT_EQ(hd[v], want[v], "BFS distance", v);
  EXPECT_EQ(visited, V, "every vertex entered a frontier exactly once", 0);
  return wf::finish();
}

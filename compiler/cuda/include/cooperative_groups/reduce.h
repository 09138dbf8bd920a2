// Warpforge CUDA headers: cooperative_groups/reduce.h. cg::reduce over a thread_block_tile or a
// coalesced_group with the function objects plus, less (minimum), greater (maximum), bit_and,
// bit_or and bit_xor (or any callable T(T, T)). Every thread of the group gets the result.
// Written for Warpforge.
#pragma once
#include "../cooperative_groups.h"

namespace cooperative_groups {
template <class T> struct plus {
  __device__ __forceinline__ T operator()(const T &a, const T &b) const { return a + b; }
};
template <class T> struct less {
  __device__ __forceinline__ T operator()(const T &a, const T &b) const { return b < a ? b : a; }
};
template <class T> struct greater {
  __device__ __forceinline__ T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};
template <class T> struct bit_and {
  __device__ __forceinline__ T operator()(const T &a, const T &b) const { return a & b; }
};
template <class T> struct bit_or {
  __device__ __forceinline__ T operator()(const T &a, const T &b) const { return a | b; }
};
template <class T> struct bit_xor {
  __device__ __forceinline__ T operator()(const T &a, const T &b) const { return a ^ b; }
};

// Tiles: a butterfly over log2(N) xor shuffles; every lane ends with the whole reduction.
template <unsigned N, class P, class T, class Op>
__device__ __forceinline__ T reduce(const thread_block_tile<N, P> &g, T v, Op op) {
#pragma unroll
  for (unsigned m = N / 2; m > 0; m >>= 1) v = op(v, g.shfl_xor(v, (int)m));
  return v;
}
// Coalesced groups (any size): a tree towards rank 0 by rank-based shuffles, then a broadcast.
template <class T, class Op>
__device__ __forceinline__ T reduce(const coalesced_group &g, T v, Op op) {
  unsigned n = g.size(), r = g.thread_rank();
#pragma unroll
  for (unsigned d = 1; d < 32; d <<= 1) {
    T o = g.shfl_down(v, d);
    if (d < n && r + d < n && (r & (2 * d - 1)) == 0) v = op(v, o);
  }
  return g.shfl(v, 0);
}
}  // namespace cooperative_groups

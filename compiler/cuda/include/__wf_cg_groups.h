// Warpforge CUDA headers: cooperative groups (part of cooperative_groups.h). Written for Warpforge.
#pragma once
#include "__wf_host_defines.h"
#include "__wf_device_functions.h"
#include "vector_types.h"

// Grid barrier state: [0] arrivals in the current round, [1] the round (generation).
static __device__ unsigned __wf_cg_grid_barrier[2];

namespace cooperative_groups {
#define __WF_CG static __device__ __forceinline__
#define __WF_CGM __device__ __forceinline__

namespace __wf {
__WF_CG unsigned lane() {
  unsigned r;
  asm("mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}
__WF_CG unsigned lanemask_lt() {
  unsigned r;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(r));
  return r;
}
__WF_CG unsigned block_rank() {  // linear rank of the thread in its block
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
__WF_CG unsigned block_size() { return blockDim.x * blockDim.y * blockDim.z; }
// Lanes of the aligned tile of n lanes (n a power of two <= 32) that holds this lane.
__WF_CG unsigned tile_mask(unsigned n) {
  if (n >= 32) return 0xffffffffu;
  return ((1u << n) - 1) << (lane() & ~(n - 1));
}
__WF_CG unsigned low_bits(unsigned n) { return n >= 32 ? 0xffffffffu : (1u << n) - 1; }
// The lane of the r-th (0-based) set bit of mask: binary search with popcounts, no loop.
__WF_CG unsigned nth_lane(unsigned mask, unsigned r) {
  unsigned pos = 0;
#pragma unroll
  for (unsigned step = 16; step > 0; step >>= 1) {
    unsigned c = __popc((mask >> pos) & ((1u << step) - 1));
    bool up = r >= c;
    r = up ? r - c : r;
    pos = up ? pos + step : pos;
  }
  return pos;
}
// The bits of b at the set positions of mask, packed towards bit 0 (ranks in the group).
__WF_CG unsigned compress(unsigned b, unsigned mask) {
  unsigned r = 0, k = 0;
#pragma unroll
  for (unsigned i = 0; i < 32; ++i) {
    unsigned in = (mask >> i) & 1u;
    r |= (((b >> i) & in) << k);
    k += in;
  }
  return r;
}
// Grid-wide barrier (all blocks must be resident). Generation counting: a block reads the round,
// arrives; the last arrival resets the count and starts the next round; the others wait for it.
__WF_CG void grid_barrier() {
  __syncthreads();
  if (block_rank() == 0) {
    unsigned nblocks = gridDim.x * gridDim.y * gridDim.z;
    volatile unsigned *round = &__wf_cg_grid_barrier[1];
    unsigned r0 = *round;
    __threadfence();
    unsigned arrived = atomicAdd(&__wf_cg_grid_barrier[0], 1u);
    if (arrived == nblocks - 1) {
      atomicExch(&__wf_cg_grid_barrier[0], 0u);
      __threadfence();
      atomicAdd(&__wf_cg_grid_barrier[1], 1u);
    } else {
      while (*round == r0) __nanosleep(32);
    }
    __threadfence();
  }
  __syncthreads();
}
}  // namespace __wf

// ---- thread_group: any group, its kind known at run time ----------------------------------------
class thread_group {
 protected:
  enum : unsigned { __k_block = 0, __k_tile = 1, __k_coalesced = 2, __k_grid = 3 };
  unsigned __kind, __size, __rank, __mask;  // __mask: the group's lanes in the warp (tiles, coalesced)
  unsigned __meta_rank, __meta_size;
  __WF_CGM thread_group(unsigned kind, unsigned size, unsigned rank, unsigned mask,
                        unsigned meta_rank = 0, unsigned meta_size = 1)
      : __kind(kind), __size(size), __rank(rank), __mask(mask), __meta_rank(meta_rank),
        __meta_size(meta_size) {}
  friend __WF_CGM thread_group tiled_partition(const thread_group &parent, unsigned n);

 public:
  __WF_CGM unsigned long long size() const { return __size; }
  __WF_CGM unsigned long long num_threads() const { return __size; }
  __WF_CGM unsigned long long thread_rank() const { return __rank; }
  __WF_CGM bool is_valid() const { return true; }
  __WF_CGM unsigned get_type() const { return __kind; }
  __WF_CGM void sync() const {
    if (__kind == __k_block)
      __syncthreads();
    else if (__kind == __k_grid)
      __wf::grid_barrier();
    else
      __syncwarp(__mask);
  }
};

// ---- thread_block ----------------------------------------------------------------------------------
class thread_block : public thread_group {
  __WF_CGM thread_block() : thread_group(__k_block, __wf::block_size(), __wf::block_rank(), 0xffffffffu) {}
  friend __WF_CGM thread_block this_thread_block();

 public:
  __WF_CGM static void sync() { __syncthreads(); }
  __WF_CGM static unsigned thread_rank() { return __wf::block_rank(); }
  __WF_CGM static unsigned size() { return __wf::block_size(); }
  __WF_CGM static unsigned num_threads() { return __wf::block_size(); }
  __WF_CGM static dim3 group_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  __WF_CGM static dim3 thread_index() { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  __WF_CGM static dim3 group_dim() { return dim3(blockDim.x, blockDim.y, blockDim.z); }
  __WF_CGM static dim3 dim_threads() { return dim3(blockDim.x, blockDim.y, blockDim.z); }
};
__WF_CGM thread_block this_thread_block() { return thread_block(); }

// ---- grid_group ------------------------------------------------------------------------------------
class grid_group : public thread_group {
  __WF_CGM grid_group() : thread_group(__k_grid, 0, 0, 0xffffffffu) {}
  friend __WF_CGM grid_group this_grid();

 public:
  __WF_CGM static bool is_valid() { return true; }
  __WF_CGM static void sync() { __wf::grid_barrier(); }
  __WF_CGM static unsigned long long block_rank() {
    return blockIdx.x + (unsigned long long)gridDim.x * (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
  }
  __WF_CGM static unsigned long long num_blocks() {
    return (unsigned long long)gridDim.x * gridDim.y * gridDim.z;
  }
  __WF_CGM static unsigned long long thread_rank() {
    return block_rank() * __wf::block_size() + __wf::block_rank();
  }
  __WF_CGM static unsigned long long size() { return num_blocks() * __wf::block_size(); }
  __WF_CGM static unsigned long long num_threads() { return size(); }
  __WF_CGM static dim3 group_dim() { return dim3(gridDim.x, gridDim.y, gridDim.z); }
  __WF_CGM static dim3 dim_blocks() { return dim3(gridDim.x, gridDim.y, gridDim.z); }
  __WF_CGM static dim3 block_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
};
__WF_CGM grid_group this_grid() { return grid_group(); }

// ---- coalesced_group: the lanes given by a mask ----------------------------------------------------
class coalesced_group : public thread_group {
 public:
  __WF_CGM explicit coalesced_group(unsigned mask)
      : thread_group(__k_coalesced, __popc(mask), __popc(mask & __wf::lanemask_lt()), mask) {}
  __WF_CGM unsigned size() const { return __size; }
  __WF_CGM unsigned num_threads() const { return __size; }
  __WF_CGM unsigned thread_rank() const { return __rank; }
  __WF_CGM unsigned meta_group_rank() const { return __meta_rank; }
  __WF_CGM unsigned meta_group_size() const { return __meta_size; }
  __WF_CGM void sync() const { __syncwarp(__mask); }
  template <class T> __WF_CGM T shfl(T v, unsigned src_rank) const {
    return __shfl_sync(__mask, v, (int)__wf::nth_lane(__mask, src_rank));
  }
  template <class T> __WF_CGM T shfl_up(T v, unsigned d) const {
    unsigned src = __rank >= d ? __wf::nth_lane(__mask, __rank - d) : __wf::lane();
    return __shfl_sync(__mask, v, (int)src);
  }
  template <class T> __WF_CGM T shfl_down(T v, unsigned d) const {
    unsigned src = __rank + d < __size ? __wf::nth_lane(__mask, __rank + d) : __wf::lane();
    return __shfl_sync(__mask, v, (int)src);
  }
  __WF_CGM int any(int p) const { return __any_sync(__mask, p); }
  __WF_CGM int all(int p) const { return __all_sync(__mask, p); }
  __WF_CGM unsigned ballot(int p) const { return __wf::compress(__ballot_sync(__mask, p), __mask); }
  template <class T> __WF_CGM unsigned match_any(T v) const {
    return __wf::compress(__match_any_sync(__mask, v), __mask);
  }
  template <class T> __WF_CGM unsigned match_all(T v, int &pred) const {
    return __wf::compress(__match_all_sync(__mask, v, &pred), __mask);
  }
  __WF_CGM unsigned __lanes() const { return __mask; }
};
__WF_CGM coalesced_group coalesced_threads() { return coalesced_group(__activemask()); }

// ---- thread_block_tile<N>: N threads (a power of two up to 32) of one warp -------------------------
template <unsigned N, class Parent = void> class thread_block_tile;

template <unsigned N> class thread_block_tile<N, void> : public thread_group {
  static_assert(N >= 1 && N <= 32 && (N & (N - 1)) == 0,
                "Warpforge: thread_block_tile<N> needs N a power of two from 1 to 32");

 public:
  __WF_CGM thread_block_tile(unsigned meta_rank, unsigned meta_size)
      : thread_group(__k_tile, N, __wf::lane() & (N - 1), __wf::tile_mask(N), meta_rank, meta_size) {}
  __WF_CGM static constexpr unsigned size() { return N; }
  __WF_CGM static constexpr unsigned num_threads() { return N; }
  __WF_CGM unsigned thread_rank() const { return __wf::lane() & (N - 1); }
  __WF_CGM unsigned meta_group_rank() const { return __meta_rank; }
  __WF_CGM unsigned meta_group_size() const { return __meta_size; }
  __WF_CGM void sync() const { __syncwarp(__wf::tile_mask(N)); }
  template <class T> __WF_CGM T shfl(T v, int src) const {
    return __shfl_sync(__wf::tile_mask(N), v, src, (int)N);
  }
  template <class T> __WF_CGM T shfl_up(T v, unsigned d) const {
    return __shfl_up_sync(__wf::tile_mask(N), v, d, (int)N);
  }
  template <class T> __WF_CGM T shfl_down(T v, unsigned d) const {
    return __shfl_down_sync(__wf::tile_mask(N), v, d, (int)N);
  }
  template <class T> __WF_CGM T shfl_xor(T v, int m) const {
    return __shfl_xor_sync(__wf::tile_mask(N), v, m, (int)N);
  }
  __WF_CGM int any(int p) const { return __any_sync(__wf::tile_mask(N), p); }
  __WF_CGM int all(int p) const { return __all_sync(__wf::tile_mask(N), p); }
  __WF_CGM unsigned ballot(int p) const {
    return __ballot_sync(__wf::tile_mask(N), p) >> (__wf::lane() & ~(N - 1) & 31u) & __wf::low_bits(N);
  }
  template <class T> __WF_CGM unsigned match_any(T v) const {
    return __match_any_sync(__wf::tile_mask(N), v) >> (__wf::lane() & ~(N - 1) & 31u) & __wf::low_bits(N);
  }
  template <class T> __WF_CGM unsigned match_all(T v, int &pred) const {
    return __match_all_sync(__wf::tile_mask(N), v, &pred) >> (__wf::lane() & ~(N - 1) & 31u) & __wf::low_bits(N);
  }
  __WF_CGM unsigned __lanes() const { return __wf::tile_mask(N); }
};
template <unsigned N, class Parent> class thread_block_tile : public thread_block_tile<N, void> {
 public:
  __WF_CGM thread_block_tile(unsigned meta_rank, unsigned meta_size)
      : thread_block_tile<N, void>(meta_rank, meta_size) {}
};

// tiled_partition<N>(parent): from a block, or from a larger tile.
template <unsigned N> __WF_CGM thread_block_tile<N, thread_block> tiled_partition(const thread_block &) {
  unsigned n = __wf::block_size();
  return thread_block_tile<N, thread_block>(__wf::block_rank() / N, (n + N - 1) / N);
}
template <unsigned N, unsigned M, class P>
__WF_CGM thread_block_tile<N, thread_block_tile<M, P>> tiled_partition(const thread_block_tile<M, P> &parent) {
  static_assert(N <= M, "a tile can be partitioned only into smaller tiles");
  return thread_block_tile<N, thread_block_tile<M, P>>(parent.thread_rank() / N, M / N);
}

// tiled_partition(parent, n): dynamic tile size (a power of two up to 32).
__WF_CGM thread_group tiled_partition(const thread_group &parent, unsigned n) {
  unsigned rank = (unsigned)parent.thread_rank();
  unsigned psize = (unsigned)parent.size();
  return thread_group(thread_group::__k_tile, n, rank & (n - 1), __wf::tile_mask(n), rank / n,
                      (psize + n - 1) / n);
}
__WF_CGM thread_group tiled_partition(const thread_block &parent, unsigned n) {
  return tiled_partition((const thread_group &)parent, n);
}

// labeled_partition / binary_partition: coalesced groups of the lanes with equal labels.
template <unsigned N, class P>
__WF_CGM coalesced_group labeled_partition(const thread_block_tile<N, P> &g, int label) {
  return coalesced_group(__match_any_sync(g.__lanes(), label));
}
__WF_CGM coalesced_group labeled_partition(const coalesced_group &g, int label) {
  return coalesced_group(__match_any_sync(g.__lanes(), label));
}
__WF_CGM coalesced_group labeled_partition(const coalesced_group &g, unsigned label) {
  return coalesced_group(__match_any_sync(g.__lanes(), label));
}
template <unsigned N, class P>
__WF_CGM coalesced_group binary_partition(const thread_block_tile<N, P> &g, bool pred) {
  unsigned m = g.__lanes(), b = __ballot_sync(m, pred);
  return coalesced_group(pred ? b : m & ~b);
}
__WF_CGM coalesced_group binary_partition(const coalesced_group &g, bool pred) {
  unsigned m = g.__lanes(), b = __ballot_sync(m, pred);
  return coalesced_group(pred ? b : m & ~b);
}

// Free functions.
template <class G> __WF_CGM void sync(const G &g) { g.sync(); }
template <class G> __WF_CGM unsigned long long thread_rank(const G &g) { return g.thread_rank(); }
template <class G> __WF_CGM unsigned long long group_size(const G &g) { return g.size(); }

#undef __WF_CG
#undef __WF_CGM
}  // namespace cooperative_groups

// Warpforge CUDA headers: cooperative_groups.h for clang's CUDA mode. Written for Warpforge.
//
// namespace cooperative_groups: thread_block, thread_group (dynamic tiles), thread_block_tile<N>
// (N a power of two, 1..32), coalesced_group, labeled_partition / binary_partition, grid_group.
// Built on the warp intrinsics of __wf_device_functions.h (__shfl_*_sync, __ballot_sync,
// __match_*_sync, __activemask, __syncwarp) and bar.sync.
//
// Limitations:
// - tiles are at most 32 threads (one warp); a tile's lanes are the aligned group of N lanes of
//   the warp that holds the thread (tiles of the linear thread rank, as warps are formed).
// - grid_group::sync() is a software barrier on a counter pair in global memory (a __device__
//   variable of the module). It needs every block of the grid resident at once, as a launch by
//   cudaLaunchCooperativeKernel sized from the occupancy API guarantees; with more blocks than fit
//   it deadlocks. Two cooperative kernels of one module must not run concurrently.
//   grid_group::is_valid() cannot tell how the kernel was launched and returns true.
#pragma once
#include "cuda_runtime.h"
#include "__wf_cg_groups.h"

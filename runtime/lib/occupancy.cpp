// The occupancy calculator (occupancy.h) over Runtime::blocksPerCore, which applies the
// configuration's limits: blocks and warps per core, registers and shared memory.
#include "warpforge/runtime/occupancy.h"
#include "warpforge/runtime/runtime.h"
#include "warpforge/isa/isa.gen.h"

#include <algorithm>

namespace wf::rt {

namespace {

Error kernelOf(Runtime &rt, FunctionRecord &fn, const wfx::Kernel *&k) {
  k = rt.kernelOf(fn);
  return k ? Error::cudaSuccess : Error::cudaErrorInvalidDeviceFunction;
}

} // namespace

Error maxActiveBlocksPerCore(Runtime &rt, FunctionRecord &fn, int blockSize,
                             uint64_t dynamicShared, int &blocks) {
  const wfx::Kernel *k = nullptr;
  if (Error e = kernelOf(rt, fn, k); e != Error::cudaSuccess)
    return e;
  blocks = blockSize <= 0 ? 0 : int(rt.blocksPerCore(*k, uint64_t(blockSize), dynamicShared));
  return Error::cudaSuccess;
}

Error maxPotentialBlockSize(Runtime &rt, FunctionRecord &fn,
                            const std::function<uint64_t(int)> &dynamicShared, int blockSizeLimit,
                            int &minGridSize, int &blockSize) {
  if (blockSizeLimit < 0)
    return Error::cudaErrorInvalidValue;
  FunctionAttributes attrs;
  if (Error e = rt.functionAttributes(fn, attrs); e != Error::cudaSuccess)
    return e;
  const wfx::Kernel *k = nullptr;
  if (Error e = kernelOf(rt, fn, k); e != Error::cudaSuccess)
    return e;
  int limit = attrs.maxThreadsPerBlock;
  if (blockSizeLimit > 0)
    limit = std::min(limit, blockSizeLimit);
  int bestSize = 0, bestBlocks = 0;
  uint64_t bestThreads = 0;
  // Whole warps, largest first, then the limit itself when it is not a multiple of the warp.
  for (int size = limit; size > 0;
       size = size % int(isa::kWarpSize) ? size - size % int(isa::kWarpSize)
                                          : size - int(isa::kWarpSize)) {
    uint32_t blocks = rt.blocksPerCore(*k, uint64_t(size), dynamicShared ? dynamicShared(size) : 0);
    uint64_t threads = uint64_t(blocks) * uint64_t(size);
    if (threads > bestThreads) {
      bestThreads = threads;
      bestSize = size;
      bestBlocks = int(blocks);
    }
  }
  blockSize = bestSize;
  minGridSize = bestBlocks * int(rt.device()->info().config.cores);
  return Error::cudaSuccess;
}

Error availableDynamicSharedPerBlock(Runtime &rt, FunctionRecord &fn, int numBlocks,
                                     int blockSize, uint64_t &bytes) {
  if (numBlocks <= 0 || blockSize <= 0)
    return Error::cudaErrorInvalidValue;
  const wfx::Kernel *k = nullptr;
  if (Error e = kernelOf(rt, fn, k); e != Error::cudaSuccess)
    return e;
  const isa::Config &c = rt.device()->info().config;
  bytes = 0;
  if (rt.blocksPerCore(*k, uint64_t(blockSize), 0) < uint32_t(numBlocks))
    return Error::cudaSuccess;
  // Shared memory is the only limit that depends on the dynamic bytes: split what the blocks'
  // static bytes leave, within the per-block limit.
  uint64_t perBlock = c.sharedMemPerCore / uint64_t(numBlocks);
  perBlock = perBlock > k->sharedBytes ? perBlock - k->sharedBytes : 0;
  uint64_t blockLimit = c.sharedMemPerCore > k->sharedBytes ? c.sharedMemPerCore - k->sharedBytes : 0;
  bytes = std::min(perBlock, blockLimit);
  return Error::cudaSuccess;
}

} // namespace wf::rt

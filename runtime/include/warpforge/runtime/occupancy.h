// The occupancy calculator of the common layer (docs/runtime.md, "Occupancy"), for both APIs:
// cudaOccupancy* and cuOccupancy* answer from the same functions. The caller holds the context lock.
#pragma once

#include <cstdint>
#include <functional>

namespace wf::rt {

enum class Error : int;
class Runtime;
struct FunctionRecord;

/// Blocks of `fn` one core holds at once with `blockSize` threads and `dynamicShared` bytes (0
/// when one does not fit, or blockSize <= 0).
Error maxActiveBlocksPerCore(Runtime &rt, FunctionRecord &fn, int blockSize,
                             uint64_t dynamicShared, int &blocks);

/// The block size that gives the most resident threads per core (ties: the larger block), and
/// the grid that fills every core with it. `dynamicShared(blockSize)` is the dynamic shared
/// memory a block of that size needs; `blockSizeLimit` 0 means the kernel's own limit.
Error maxPotentialBlockSize(Runtime &rt, FunctionRecord &fn,
                            const std::function<uint64_t(int)> &dynamicShared, int blockSizeLimit,
                            int &minGridSize, int &blockSize);

/// The most dynamic shared memory a block may use so that `numBlocks` blocks of `blockSize`
/// threads still fit on one core (0 when they do not fit at all).
Error availableDynamicSharedPerBlock(Runtime &rt, FunctionRecord &fn, int numBlocks,
                                     int blockSize, uint64_t &bytes);

} // namespace wf::rt

// Memory pools (mempools.h): attributes and statistics; freed memory goes back to the device
// allocator at once, so a pool's reserved bytes equal its used bytes.
#include "warpforge/runtime/mempools.h"
#include "warpforge/runtime/runtime.h"

#include <algorithm>

namespace wf::rt {

Error MemPools::setCurrent(CUmemPoolHandle_st *pool) {
  if (!valid(pool))
    return Error::cudaErrorInvalidValue;
  current_ = pool;
  return Error::cudaSuccess;
}

CUmemPoolHandle_st *MemPools::create() {
  auto *pool = new CUmemPoolHandle_st;
  pools_.insert(pool);
  return pool;
}

Error MemPools::destroy(CUmemPoolHandle_st *pool) {
  if (pool == &default_ || !pools_.erase(pool))
    return Error::cudaErrorInvalidValue;
  if (current_ == pool)
    current_ = &default_;
  for (auto it = allocations_.begin(); it != allocations_.end();)
    it = it->second.first == pool ? allocations_.erase(it) : std::next(it);
  delete pool;
  return Error::cudaSuccess;
}

void MemPools::allocated(CUmemPoolHandle_st *pool, uint64_t address, uint64_t bytes) {
  allocations_[address] = {pool, bytes};
  pool->used += bytes;
  pool->usedHigh = std::max(pool->usedHigh, pool->used);
}

void MemPools::released(uint64_t address) {
  auto it = allocations_.find(address);
  if (it == allocations_.end())
    return;
  it->second.first->used -= it->second.second;
  allocations_.erase(it);
}

Error MemPools::setAttribute(CUmemPoolHandle_st *pool, int attribute, const void *value) {
  if (!valid(pool) || !value)
    return Error::cudaErrorInvalidValue;
  switch (attribute) {
  case 1: // reuse: follow event dependencies, opportunistic, internal dependencies
  case 2:
  case 3:
    pool->reuse[attribute - 1] = *static_cast<const int *>(value);
    return Error::cudaSuccess;
  case 4: // release threshold
    pool->releaseThreshold = *static_cast<const uint64_t *>(value);
    return Error::cudaSuccess;
  case 6: // reserved high
  case 8: // used high: only resetting to zero is allowed; the mark restarts from the current use
    if (*static_cast<const uint64_t *>(value) != 0)
      return Error::cudaErrorInvalidValue;
    pool->usedHigh = pool->used;
    return Error::cudaSuccess;
  default:
    return Error::cudaErrorInvalidValue;
  }
}

Error MemPools::getAttribute(const CUmemPoolHandle_st *pool, int attribute, void *value) const {
  if (!valid(pool) || !value)
    return Error::cudaErrorInvalidValue;
  switch (attribute) {
  case 1:
  case 2:
  case 3:
    *static_cast<int *>(value) = pool->reuse[attribute - 1];
    return Error::cudaSuccess;
  case 4:
    *static_cast<uint64_t *>(value) = pool->releaseThreshold;
    return Error::cudaSuccess;
  case 5: // reserved current: equal to the used bytes
  case 7:
    *static_cast<uint64_t *>(value) = pool->used;
    return Error::cudaSuccess;
  case 6:
  case 8:
    *static_cast<uint64_t *>(value) = pool->usedHigh;
    return Error::cudaSuccess;
  default:
    return Error::cudaErrorInvalidValue;
  }
}

void MemPools::reset() {
  for (CUmemPoolHandle_st *pool : pools_)
    if (pool != &default_)
      delete pool;
  default_ = CUmemPoolHandle_st{};
  pools_ = {&default_};
  current_ = &default_;
  allocations_.clear();
}

} // namespace wf::rt

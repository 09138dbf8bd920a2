// Memory pools of stream-ordered allocation (docs/runtime.md, "Memory"), in the common layer so
// that cudaMemPool* and cuMemPool* (and cudaMallocAsync/cuMemAllocAsync) share them. A pool carries
// CUDA's attributes and statistics; its memory comes from the device allocator. Guarded by the
// context lock.
#pragma once

#include <cstdint>
#include <map>
#include <set>

/// A memory pool: cudaMemPool_t and CUmemoryPool point at one.
struct CUmemPoolHandle_st {
  uint64_t releaseThreshold = 0;
  int reuse[3] = {1, 1, 1}; ///< the three reuse policies, attributes 1 to 3
  uint64_t used = 0, usedHigh = 0;
};

namespace wf::rt {

enum class Error : int;

class MemPools {
public:
  MemPools() { reset(); }
  CUmemPoolHandle_st *defaultPool() { return &default_; }
  /// The pool cudaMallocAsync allocates from (cudaDeviceSetMemPool).
  CUmemPoolHandle_st *current() const { return current_; }
  bool valid(const CUmemPoolHandle_st *pool) const {
    return pools_.count(const_cast<CUmemPoolHandle_st *>(pool)) != 0;
  }
  Error setCurrent(CUmemPoolHandle_st *pool);
  CUmemPoolHandle_st *create();
  /// The default pool cannot be destroyed.
  Error destroy(CUmemPoolHandle_st *pool);
  /// Counts an allocation of `bytes` at `address` against `pool`.
  void allocated(CUmemPoolHandle_st *pool, uint64_t address, uint64_t bytes);
  /// Forgets a pool allocation when it is freed (no-op for other addresses).
  void released(uint64_t address);
  /// CUDA's attribute numbers (cudaMemPoolAttr and CUmemPool_attribute agree): 1-3 reuse policies
  /// (int), 4 release threshold, 5-8 reserved/used current/high (uint64_t; the highs reset to 0
  /// only).
  Error setAttribute(CUmemPoolHandle_st *pool, int attribute, const void *value);
  Error getAttribute(const CUmemPoolHandle_st *pool, int attribute, void *value) const;
  /// cudaDeviceReset: every pool but the default one is gone; the default one is new.
  void reset();

private:
  CUmemPoolHandle_st default_;
  CUmemPoolHandle_st *current_ = &default_;
  std::set<CUmemPoolHandle_st *> pools_;
  std::map<uint64_t, std::pair<CUmemPoolHandle_st *, uint64_t>> allocations_; ///< base -> pool, bytes
};

} // namespace wf::rt

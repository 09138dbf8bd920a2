// The common layer of the runtime (docs/runtime.md): one process-wide Runtime owning the device
// context, the module registry (fatbinaries, kernels, __device__ variables), the error state,
// argument checks and call tracing. The CUDA API layer (runtime/cudart) stays thin over it.
// Errors are CUDA's numeric cudaError_t values.
#pragma once

#include "warpforge/runtime/device.h"
#include "warpforge/runtime/mempools.h"
#include "warpforge/runtime/streams.h"
#include "warpforge/module/wfx.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace wf::rt {

enum class Error : int {
#define WF_ERROR(name, value, text) name = value,
#include "cuda_errors.def"
#undef WF_ERROR
};

/// "cudaErrorInvalidValue"; "unrecognized error code" for unknown values.
const char *errorName(int code);
/// NVIDIA's short text ("invalid argument").
const char *errorString(int code);

/// A fatbinary registered by a program (one per translation unit with device code).
struct ModuleRecord {
  const void *wrapper = nullptr;
  std::string ptx;       ///< extracted PTX ("" when the fatbinary has none)
  std::string ptxArch;   ///< "compute_80"
  std::string noPtxWhy;  ///< why there is no PTX (message), when ptx is empty
  bool precompiled = false; ///< image came embedded as a .wfx module (no PTX to compile)
  bool loaded = false;
  Error loadError = Error::cudaSuccess;
  wfx::Module image;
  wfx::LoadedModule placed;
  uint64_t deviceBase = 0; ///< the allocation holding code, constants and globals
};

struct FunctionRecord {
  ModuleRecord *module = nullptr;
  std::string name; ///< the PTX (mangled) name
  const void *hostFun = nullptr;
  /// cudaFuncAttributeMaxDynamicSharedMemorySize; -1: not set (the default per-block limit).
  int maxDynamicShared = -1;
  /// cudaFuncAttributePreferredSharedMemoryCarveout (a hint); -1: not set.
  int preferredCarveout = -1;
};

struct VarRecord {
  ModuleRecord *module = nullptr;
  std::string name;
  uint64_t size = 0;
  bool constant = false;
  bool managed = false;
  void **managedHostPtr = nullptr;
};

/// Host allocations made by cudaMallocHost/cudaHostAlloc (inside device memory when the transport
/// can map it, so that mapped and managed memory work).
struct HostAllocation {
  uint64_t size = 0;
  uint64_t device = 0; ///< device address when mapped, 0 otherwise
  unsigned flags = 0;
  bool registered = false; ///< cudaHostRegister: the program's memory, never freed by us
};

/// What cudaFuncGetAttributes and cuFuncGetAttribute report of a kernel.
struct FunctionAttributes {
  uint64_t sharedBytes = 0, constBytes = 0, localBytes = 0;
  int maxThreadsPerBlock = 0, numRegs = 0, ptxVersion = 0, binaryVersion = 0;
  int maxDynamicShared = 0, preferredCarveout = -1;
};

class Runtime {
public:
  static Runtime &get();

  /// Opens the device on first use (WARPFORGE_DEVICE, WARPFORGE_CONFIG).
  Error ensureDevice();
  Device *device() { return device_.get(); }
  /// The one lock of the runtime (docs/runtime.md, "Locks"): every API call, runtime or driver,
  /// holds it; waits release it (Unlocked); completions on device threads never take it.
  ContextLock &contextLock() { return lock_; }

  // --- errors ---
  /// The sticky error: a device fault until cudaDeviceReset, or the loss of the device for good.
  Error sticky();
  void setSticky(Error e) { sticky_ = e; }
  /// Records `e` as the calling thread's last error (unless success) and returns it.
  Error record(Error e);
  Error takeLast();
  Error peekLast() const;
  bool tracing() const { return trace_; }
  /// Writes one trace line (WARPFORGE_TRACE=1) to stderr.
  void trace(const char *call, const std::string &args, Error result);
  /// An unimplemented call: message on stderr once, then cudaErrorNotSupported.
  Error notSupported(const char *call);

  // --- registration (nvcc and clang host code) ---
  ModuleRecord *registerFatbin(const void *wrapper);
  void unregisterFatbin(ModuleRecord *module);
  void registerFunction(ModuleRecord *module, const void *hostFun, const char *name);
  void registerVar(ModuleRecord *module, const void *hostVar, const char *name, uint64_t size,
                   bool constant, bool managed, void **managedHostPtr);
  FunctionRecord *findFunction(const void *hostFun);
  /// The registered __device__/__constant__/__managed__ variable at `hostVar`, or nullptr.
  const VarRecord *findVar(const void *hostVar);

  // --- modules, symbols, launches ---
  Error ensureLoaded(ModuleRecord &module);
  /// Aims the host pointers of `registered`'s __managed__ variables at their copies in the loaded
  /// module `copy` (the module itself, or the driver route's module loaded from its PTX).
  void mapManagedVars(const ModuleRecord &registered, const ModuleRecord &copy);
  /// Device address and size of a registered __device__/__constant__ variable.
  Error symbol(const void *hostVar, uint64_t &address, uint64_t &size);
  /// A cooperative launch requires every block to be co-resident and gives the kernel a grid
  /// barrier workspace (cooperative_groups::this_grid().sync()).
  /// Queues the grid on `stream` and returns; a fault becomes the sticky error at the next
  /// synchronization point.
  Error launch(FunctionRecord &fn, Dim3 grid, Dim3 block, void **args, uint64_t sharedDynamic,
               CUstream_st *stream, bool cooperative = false);
  const wfx::Kernel *kernelOf(FunctionRecord &fn);
  Error functionAttributes(FunctionRecord &fn, FunctionAttributes &out);
  /// cudaFuncAttribute / CUfunction_attribute numbers: 8 the dynamic shared memory opt-in, 9 the
  /// preferred carveout (a hint).
  Error setFunctionAttribute(FunctionRecord &fn, int attribute, int value);
  /// cudaLimit / CUlimit numbers: 0 stack, 1 printf FIFO, 2 device heap.
  Error setLimit(int limit, uint64_t value);
  Error getLimit(int limit, uint64_t &value);
  /// Blocks of `k` one core holds at once with `threads` threads and `sharedDynamic` bytes
  /// (the occupancy calculator; 0 when a block does not fit).
  uint32_t blocksPerCore(const wfx::Kernel &k, uint64_t threads, uint64_t sharedDynamic) const;

  // --- streams and events (streams.cpp) ---
  /// The stream a handle names: null and cudaStreamLegacy (1) the legacy default stream (with
  /// `perThreadDefault`, as nvcc's --default-stream per-thread compiles it, null names the
  /// calling thread's), cudaStreamPerThread (2) the calling thread's; nullptr for a bad handle.
  CUstream_st *stream(const void *handle, bool perThreadDefault = false);
  CUstream_st *createStream(unsigned flags, int priority);
  Error destroyStream(CUstream_st *stream);
  CUevent_st *createEvent(unsigned flags);
  bool isEvent(const CUevent_st *event) const { return events_.count(const_cast<CUevent_st *>(event)) != 0; }
  Error destroyEvent(CUevent_st *event);
  /// Queues a device command in `stream`'s order (and the legacy default stream's implicit
  /// synchronization); returns at once.
  WorkRef enqueue(CUstream_st *stream, SubmitFn submit);
  /// Queues a host function: it runs on the runtime's host thread when everything before it in
  /// `stream` is done, and the stream's later work waits for it.
  WorkRef enqueueHost(CUstream_st *stream, std::function<void()> fn);
  /// Synchronization points: wait, then report what the device finished (device printf,
  /// faults); return the sticky error or the first failure of an asynchronous command.
  Error synchronize(CUstream_st *stream);
  Error synchronizeDevice();
  /// Waits for every queued operation without reporting (before direct device access).
  void quiesce() { waitAll(); }
  Error synchronizeEvent(CUevent_st *event);
  /// cudaErrorNotReady while work is pending.
  Error query(CUstream_st *stream);
  Error queryEvent(CUevent_st *event);
  Error recordEvent(CUevent_st *event, CUstream_st *stream);
  /// The stream's later work follows the event's last record.
  Error waitEvent(CUstream_st *stream, CUevent_st *event);
  Error elapsedTime(float &ms, CUevent_st *start, CUevent_st *end);

  // --- copies and fills in stream order (streams.cpp) ---
  enum class CopyKind { HostToHost, HostToDevice, DeviceToHost, DeviceToDevice, Default };
  /// `async` false: returns when the copy is done (a synchronization point). `async`: returns at
  /// once for device and page-locked host memory; pageable host memory is staged (to the device)
  /// or waited for (from the device), as CUDA documents.
  Error memcpy(void *dst, const void *src, uint64_t bytes, CopyKind kind, CUstream_st *stream,
               bool async);
  /// `count` elements of `width` (1, 2 or 4) bytes of `value`. Returns at once unless the target
  /// is host-accessible (managed or page-locked memory), as CUDA's cudaMemset.
  Error memset(uint64_t address, uint32_t value, unsigned width, uint64_t count,
               CUstream_st *stream);
  /// cudaFreeAsync: the memory returns to the allocator when the stream reaches the free.
  Error freeAsync(uint64_t address, CUstream_st *stream);

  // --- memory ---
  Error malloc(uint64_t bytes, uint64_t &address);
  /// Managed memory: device memory whose address is also its host address (needs a transport
  /// that maps device memory at its own addresses; cudaErrorNotSupported otherwise).
  Error mallocManaged(uint64_t bytes, uint64_t &address);
  bool managedSupported();
  /// True when `address` lies in a managed allocation or a __managed__ variable.
  bool isManaged(uint64_t address) const;
  /// The context's cache preference (cudaFuncCache / CUfunc_cache): kept for the query; there is no
  /// L1/shared split to choose. Shared by both API layers (one primary context).
  int cacheConfig() const { return cacheConfig_; }
  void setCacheConfig(int config) { cacheConfig_ = config; }
  /// The cudaMalloc/cudaMallocManaged allocation holding `address`: its base and requested size.
  bool deviceAllocation(uint64_t address, uint64_t &base, uint64_t &bytes) const;
  Error free(uint64_t address);
  /// True when [address, address+bytes) lies in one live device allocation (or module data),
  /// within the bytes asked for: every copy, fill and symbol access is checked with it.
  bool isDevice(uint64_t address, uint64_t bytes = 1) const;
  /// True when `address` is a device-memory address at all, live or not (a freed pointer, one kept
  /// from before cudaDeviceReset, one past an allocation's end).
  bool inDeviceMemory(uint64_t address) const;
  Error hostAlloc(uint64_t bytes, unsigned flags, void **ptr);
  Error hostFree(void *ptr);
  /// cudaHostRegister/cudaHostUnregister: page-locked only (the in-process device cannot map
  /// arbitrary host pages, so cudaHostRegisterMapped is not supported).
  Error hostRegister(void *ptr, uint64_t bytes, unsigned flags);
  Error hostUnregister(void *ptr);
  /// Device address of a pointer returned by hostAlloc (0 when not such a pointer).
  uint64_t hostToDevice(const void *ptr, uint64_t *sizeLeft = nullptr);
  /// Host pointer aliasing a device address (mapped memory), or nullptr.
  void *deviceToHost(uint64_t address, uint64_t bytes);
  std::optional<HostAllocation> findHost(const void *ptr, uint64_t *base = nullptr) const;
  uint64_t liveDeviceBytes() const;

  // --- memory pools (mempools.cpp) ---
  MemPools &memPools() { return pools_; }

  // --- limits ---
  uint64_t printfFifoSize = 1 << 20;
  uint64_t stackSize = 8192;
  uint64_t mallocHeapSize = 8 << 20;
  /// True once the device heap is reserved: its size can no longer change (until a reset).
  bool deviceHeapReserved() const { return deviceHeap_ != 0; }

  /// cudaDeviceReset: frees everything, clears the sticky error; modules load again on demand.
  void reset();
  /// Drains the printf FIFO of the runtime area to stdout (no launch may be in flight).
  void drainPrintf();

private:
  Runtime();
  struct Finished {
    FunctionRecord *fn = nullptr;
    Dim3 grid, block;
    uint64_t sharedDynamic = 0;
    CommandResult result;
  };
  std::vector<WorkRef> dependencies(CUstream_st *stream);
  bool isComplete(const WorkRef &work);
  void prune(std::vector<WorkRef> &works);
  void submitNow(Work &work, SubmitFn &submit);
  void flushDeferred();
  void hostWorker();
  /// Blocks (the context lock released) until `work` is done.
  void waitFor(const WorkRef &work);
  /// Waits for every queued operation and the device.
  void waitAll();
  /// Reports what completed (device printf when nothing runs, faults): the sticky error, or the
  /// first failure of an asynchronous command.
  Error collect();
  void finished(Finished f);
  void reapFrees();
  void forgetPerThread(CUstream_st *stream);
  friend struct PerThreadStream;
  Error openDevice();
  Error compile(ModuleRecord &module);
  Error reportFault(FunctionRecord &fn, const DeviceFault &fault, Dim3 grid, Dim3 block);
  Error prepareRtbuf();
  /// The local-memory area for a launch needing `bytesPerThread` of local memory a thread.
  Error prepareLocalArea(uint64_t bytesPerThread, uint64_t &base);
  /// Reserves the device heap (mallocHeapSize bytes of arena) if it is not yet.
  Error ensureDeviceHeap();

  ContextLock lock_;
  std::unique_ptr<Device> device_;
  // streams and events (guarded by lock_)
  CUstream_st legacy_;
  std::set<CUstream_st *> streams_, perThread_;
  std::set<CUevent_st *> events_;
  std::vector<WorkRef> orphans_;  ///< tails of destroyed streams (the legacy stream follows them)
  std::vector<WorkRef> deferred_; ///< device commands behind host functions not yet run
  std::vector<std::pair<uint64_t, WorkRef>> pendingFrees_; ///< cudaFreeAsync, until reached
  // the host-function thread (hostMutex_ is a leaf lock)
  std::mutex hostMutex_;
  std::condition_variable hostCv_;
  std::deque<WorkRef> hostQueue_;
  uint64_t hostProgress_ = 0;
  bool hostThread_ = false;
  // completions, written on device threads (finishedMutex_ is a leaf lock)
  std::mutex finishedMutex_;
  std::vector<Finished> finished_;
  Error asyncError_ = Error::cudaSuccess;
  std::atomic<int> launchesInFlight_{0};
  Error openError_ = Error::cudaSuccess;
  bool opened_ = false;
  Error sticky_ = Error::cudaSuccess;
  bool deviceLost_ = false; ///< the device is gone; sticky_ stays cudaErrorLaunchFailure
  /// Notices a lost device and makes its error sticky for the rest of the process.
  void noteDeviceLoss();
  bool trace_ = false;
  std::vector<std::unique_ptr<ModuleRecord>> modules_;
  std::map<const void *, FunctionRecord> functions_;
  std::map<const void *, VarRecord> vars_;
  std::map<uint64_t, uint64_t> deviceAllocs_; ///< base -> requested bytes (cudaMalloc)
  int cacheConfig_ = 0;
  std::map<uint64_t, uint64_t> managed_;      ///< base -> bytes (cudaMallocManaged)
  std::map<uintptr_t, HostAllocation> hostAllocs_;
  uint64_t rtbuf_ = 0;     ///< runtime area (64 bytes) followed by the printf FIFO
  uint64_t rtbufFifo_ = 0; ///< FIFO size the area was made for
  uint64_t rtbufHeap_ = 0; ///< device heap the area's header names
  uint64_t gridWorkspace_ = 0; ///< grid barrier of cooperative launches
  uint64_t localArea_ = 0;      ///< local memory of launches (LaunchDesc::local_base)
  uint64_t localAreaBytes_ = 0; ///< its size: the largest a launch has needed so far
  uint64_t deviceHeap_ = 0;    ///< the device heap (isa::dev::DeviceHeap header, then its arena)
  MemPools pools_;
};

} // namespace wf::rt

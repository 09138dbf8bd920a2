// The common layer of the runtime (docs/runtime.md): one process-wide Runtime owning the device
// context, the module registry (fatbinaries, kernels, __device__ variables), the error state,
// argument checks and call tracing. The CUDA API layer (runtime/cudart) stays thin over it.
// Errors are CUDA's numeric cudaError_t values.
#pragma once

#include "warpforge/runtime/device.h"
#include "warpforge/module/wfx.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace wf::rt {

enum class Error : int {
#define WF_ERROR(name, value, text) name = value,
#include "warpforge/runtime/errors.def"
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

class Runtime {
public:
  static Runtime &get();

  /// Opens the device on first use (WARPFORGE_DEVICE, WARPFORGE_CONFIG).
  Error ensureDevice();
  Device *device() { return device_.get(); }
  std::mutex &mutex() { return mutex_; }

  // --- errors ---
  Error sticky() const { return sticky_; }
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
  Error launch(FunctionRecord &fn, Dim3 grid, Dim3 block, void **args, uint64_t sharedDynamic,
               bool cooperative = false);
  const wfx::Kernel *kernelOf(FunctionRecord &fn);
  /// Blocks of `k` one core holds at once with `threads` threads and `sharedDynamic` bytes
  /// (the occupancy calculator; 0 when a block does not fit).
  uint32_t blocksPerCore(const wfx::Kernel &k, uint64_t threads, uint64_t sharedDynamic) const;

  // --- memory ---
  Error malloc(uint64_t bytes, uint64_t &address);
  /// Managed memory: device memory whose address is also its host address (needs a transport
  /// that maps device memory at its own addresses; cudaErrorNotSupported otherwise).
  Error mallocManaged(uint64_t bytes, uint64_t &address);
  bool managedSupported();
  /// True when `address` lies in a managed allocation or a __managed__ variable.
  bool isManaged(uint64_t address) const;
  Error free(uint64_t address);
  /// True when [address, address+bytes) lies in one live device allocation (or module data).
  bool isDevice(uint64_t address, uint64_t bytes = 1) const;
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

  // --- limits ---
  uint64_t printfFifoSize = 1 << 20;
  uint64_t stackSize = 8192;
  uint64_t mallocHeapSize = 8 << 20;
  /// True once the device heap is reserved: its size can no longer change (until a reset).
  bool deviceHeapReserved() const { return deviceHeap_ != 0; }

  /// cudaDeviceReset: frees everything, clears the sticky error; modules load again on demand.
  void reset();
  /// Drains the printf FIFO of the runtime area to stdout (after each launch).
  void drainPrintf();

private:
  Runtime();
  Error openDevice();
  Error compile(ModuleRecord &module);
  Error reportFault(FunctionRecord &fn, const DeviceFault &fault, Dim3 grid, Dim3 block);
  Error prepareRtbuf();
  /// Reserves the device heap (mallocHeapSize bytes of arena) if it is not yet.
  Error ensureDeviceHeap();

  std::mutex mutex_;
  std::unique_ptr<Device> device_;
  Error openError_ = Error::cudaSuccess;
  bool opened_ = false;
  Error sticky_ = Error::cudaSuccess;
  bool trace_ = false;
  std::vector<std::unique_ptr<ModuleRecord>> modules_;
  std::map<const void *, FunctionRecord> functions_;
  std::map<const void *, VarRecord> vars_;
  std::map<uint64_t, uint64_t> deviceAllocs_; ///< base -> requested bytes (cudaMalloc)
  std::map<uint64_t, uint64_t> managed_;      ///< base -> bytes (cudaMallocManaged)
  std::map<uintptr_t, HostAllocation> hostAllocs_;
  uint64_t rtbuf_ = 0;     ///< runtime area (64 bytes) followed by the printf FIFO
  uint64_t rtbufFifo_ = 0; ///< FIFO size the area was made for
  uint64_t gridWorkspace_ = 0; ///< grid barrier of cooperative launches
  uint64_t deviceHeap_ = 0;    ///< the device heap (isa::dev::DeviceHeap header, then its arena)
};

} // namespace wf::rt

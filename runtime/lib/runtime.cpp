#include "warpforge/runtime/runtime.h"
#include "warpforge/runtime/texture.h"

#include "warpforge/codegen/Codegen.h"
#include "warpforge/isa/device.gen.h"
#include "warpforge/isa/isa.gen.h"
#include "warpforge/ptx/Parser.h"
#include "warpforge/runtime/fatbin.h"
#include "profile.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <filesystem>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

namespace wf::rt {

std::string formatPrintf(Device &device, const std::string &format, const uint8_t *args,
                         size_t argBytes);
std::string readDeviceString(Device &device, uint64_t address, size_t limit = 65536);

namespace {

struct ErrorText {
  int code;
  const char *name;
  const char *doc;
};
constexpr ErrorText kErrors[] = {
#define WF_ERROR(name, value, text) {value, #name, text},
#include "cuda_errors.def"
#undef WF_ERROR
};

/// NVIDIA's strings for the errors programs print most.
const char *shortString(int code) {
  switch (code) {
  case 0: return "no error";
  case 1: return "invalid argument";
  case 2: return "out of memory";
  case 3: return "initialization error";
  case 4: return "driver shutting down";
  case 9: return "invalid configuration argument";
  case 12: return "invalid pitch argument";
  case 13: return "invalid device symbol";
  case 21: return "invalid copy direction for memcpy";
  case 98: return "invalid device function";
  case 100: return "no CUDA-capable device is detected";
  case 101: return "invalid device ordinal";
  case 200: return "device kernel image is invalid";
  case 209: return "no kernel image is available for execution on the device";
  case 218: return "a PTX JIT compilation failed";
  case 400: return "invalid resource handle";
  case 500: return "named symbol not found";
  case 600: return "device not ready";
  case 700: return "an illegal memory access was encountered";
  case 701: return "too many resources requested for launch";
  case 702: return "the launch timed out and was terminated";
  case 710: return "device-side assert triggered";
  case 715: return "an illegal instruction was encountered";
  case 716: return "misaligned address";
  case 719: return "unspecified launch failure";
  case 801: return "operation not supported";
  case 999: return "unknown error";
  }
  return nullptr;
}

thread_local Error tLastError = Error::cudaSuccess;

uint64_t fnv1a(const void *data, size_t n, uint64_t h = 0xcbf29ce484222325ull) {
  auto *p = static_cast<const uint8_t *>(data);
  for (size_t i = 0; i < n; ++i)
    h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

std::string envOr(const char *name, const char *fallback) {
  const char *v = std::getenv(name);
  return v && *v ? v : fallback;
}

/// Identifies this build of the runtime (and so of the compiler linked into it).
std::string libraryIdentity() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void *>(&libraryIdentity), &info) && info.dli_fname) {
    struct stat st{};
    if (stat(info.dli_fname, &st) == 0)
      return std::to_string(st.st_size) + ":" + std::to_string(st.st_mtime);
  }
  return __DATE__ " " __TIME__;
}

std::filesystem::path cacheDir() {
  if (const char *d = std::getenv("WARPFORGE_CACHE_DIR"); d && *d)
    return d;
  if (const char *x = std::getenv("XDG_CACHE_HOME"); x && *x)
    return std::filesystem::path(x) / "warpforge";
  if (const char *h = std::getenv("HOME"); h && *h)
    return std::filesystem::path(h) / ".cache" / "warpforge";
  return {};
}

Error faultError(FaultKind kind) {
  switch (kind) {
  case FaultKind::OutOfBounds:
  case FaultKind::ReadOnlyWrite: return Error::cudaErrorIllegalAddress;
  case FaultKind::Misaligned: return Error::cudaErrorMisalignedAddress;
  case FaultKind::IllegalInstruction: return Error::cudaErrorIllegalInstruction;
  case FaultKind::Assert: return Error::cudaErrorAssert;
  case FaultKind::Watchdog: return Error::cudaErrorLaunchTimeout;
  case FaultKind::InvalidLaunch: return Error::cudaErrorLaunchOutOfResources;
  case FaultKind::Trap:
  case FaultKind::Breakpoint:
  case FaultKind::BarrierDeadlock:
  case FaultKind::None: break;
  }
  return Error::cudaErrorLaunchFailure;
}

using isa::dev::RuntimeArea;
constexpr uint64_t kRtHeader = sizeof(RuntimeArea);
constexpr uint64_t kRtGridWorkspace = offsetof(RuntimeArea, gridWorkspace);

} // namespace

const char *errorName(int code) {
  for (const ErrorText &e : kErrors)
    if (e.code == code)
      return e.name;
  return "cudaErrorUnknown";
}

const char *errorString(int code) {
  if (const char *s = shortString(code))
    return s;
  for (const ErrorText &e : kErrors)
    if (e.code == code)
      return e.doc;
  return "unrecognized error code";
}

Runtime &Runtime::get() {
  static Runtime *runtime = new Runtime(); // never destroyed: host code calls us from atexit
  return *runtime;
}

Runtime::Runtime() {
  trace_ = envOr("WARPFORGE_TRACE", "0") != "0";
  legacy_.legacy = true;
}

Error Runtime::record(Error e) {
  if (e != Error::cudaSuccess)
    tLastError = e;
  return e;
}
Error Runtime::takeLast() {
  Error e = tLastError;
  tLastError = sticky_;
  if (sticky_ == Error::cudaSuccess)
    tLastError = Error::cudaSuccess;
  return e;
}
Error Runtime::peekLast() const { return tLastError; }

Error Runtime::sticky() {
  noteDeviceLoss();
  return sticky_;
}

// CUDA's documented sticky error is cudaErrorLaunchFailure: "the process [is] in an inconsistent
// state and any further CUDA work will return the same error"; cudaErrorDevicesUnavailable means
// busy or prohibited "at the current time", which a dead board server is not. Unlike a fault,
// cudaDeviceReset does not clear it: the device cannot come back to this process.
void Runtime::noteDeviceLoss() {
  if (deviceLost_ || !device_ || !device_->lost())
    return;
  deviceLost_ = true;
  sticky_ = Error::cudaErrorLaunchFailure;
  tLastError = sticky_;
  std::fprintf(stderr,
               "warpforge: lost the device (%s); every later call returns "
               "cudaErrorLaunchFailure\n",
               device_->info().transport.c_str());
}

void Runtime::trace(const char *call, const std::string &args, Error result) {
  std::fprintf(stderr, "[warpforge] %s(%s) -> %s\n", call, args.c_str(), errorName(int(result)));
}

Error Runtime::notSupported(const char *call) {
  static std::mutex m;
  static std::set<std::string> told;
  std::lock_guard lock(m);
  if (told.insert(call).second)
    std::fprintf(stderr, "warpforge: %s is not implemented yet (returns cudaErrorNotSupported)\n",
                 call);
  return record(Error::cudaErrorNotSupported);
}

Error Runtime::ensureDevice() {
  std::lock_guard lock(lock_);
  if (opened_)
    return openError_;
  opened_ = true;
  std::string error;
  device_ = rt::openDevice(envOr("WARPFORGE_DEVICE", "func"), envOr("WARPFORGE_CONFIG", "default"),
                           error);
  if (!device_) {
    std::fprintf(stderr, "warpforge: %s\n", error.c_str());
    openError_ = Error::cudaErrorNoDevice;
    return openError_;
  }
  // As when CUDA destroys the context at exit: queued work finishes and its printf output and
  // faults are reported.
  std::atexit([] {
    Runtime &r = Runtime::get();
    std::lock_guard lock(r.lock_);
    r.waitAll();
    r.collect();
    std::fflush(stdout);
  });
  return openError_;
}

// --- registration ---

ModuleRecord *Runtime::registerFatbin(const void *wrapper) {
  std::lock_guard lock(lock_);
  auto m = std::make_unique<ModuleRecord>();
  m->wrapper = wrapper;
  fatbin::Parsed parsed;
  std::string error;
  if (!fatbin::parseWrapper(wrapper, parsed, error)) {
    m->noPtxWhy = "cannot read the program's fatbinary: " + error;
  } else if (const fatbin::Entry *ptx = parsed.bestPtx()) {
    m->ptx.assign(ptx->payload.begin(), ptx->payload.end());
    m->ptxArch = "compute_" + std::to_string(ptx->arch);
  } else if (const fatbin::Entry *w = parsed.wfx()) {
    // A module compiled ahead of time (clang's wrapper around a .wfx): loaded as it is.
    if (auto image = wfx::read(w->payload, "<embedded .wfx module>")) {
      m->image = std::move(*image);
      m->precompiled = true;
    } else {
      m->noPtxWhy = "cannot read the program's embedded .wfx module: " + image.error().str();
    }
  } else {
    m->noPtxWhy = "the program's fatbinary holds no PTX (only machine code for " +
                  parsed.elfArchs() +
                  "); Warpforge compiles kernels from PTX. Rebuild with PTX embedded, e.g. "
                  "nvcc -arch=sm_80 (which embeds compute_80 PTX) or add "
                  "-gencode arch=compute_80,code=compute_80";
  }
  modules_.push_back(std::move(m));
  return modules_.back().get();
}

void Runtime::unregisterFatbin(ModuleRecord *) {
  // Nothing to release: the process is ending and the device goes with it.
}

void Runtime::registerFunction(ModuleRecord *module, const void *hostFun, const char *name) {
  std::lock_guard lock(lock_);
  functions_[hostFun] = FunctionRecord{module, name ? name : "", hostFun};
}

void Runtime::registerVar(ModuleRecord *module, const void *hostVar, const char *name,
                          uint64_t size, bool constant, bool managed, void **managedHostPtr) {
  std::lock_guard lock(lock_);
  vars_[hostVar] = VarRecord{module, name ? name : "", size, constant, managed, managedHostPtr};
}

FunctionRecord *Runtime::findFunction(const void *hostFun) {
  std::lock_guard lock(lock_);
  auto it = functions_.find(hostFun);
  return it == functions_.end() ? nullptr : &it->second;
}

const VarRecord *Runtime::findVar(const void *hostVar) {
  std::lock_guard lock(lock_);
  auto it = vars_.find(hostVar);
  if (it != vars_.end())
    return &it->second;
  // A __managed__ variable named by its storage: host code reaches it through the registered
  // pointer, so `&var` in a program is the address the pointer holds.
  for (auto &[key, var] : vars_)
    if (var.managed && var.managedHostPtr && *var.managedHostPtr == hostVar)
      return &var;
  return nullptr;
}

// --- modules ---

Error Runtime::compile(ModuleRecord &module) {
  const std::string config(device_->info().config.name);
  std::string key = module.ptx;
  key += '\0' + config + '\0' + std::to_string(stackSize) + '\0' + libraryIdentity();
  uint64_t h1 = fnv1a(key.data(), key.size());
  uint64_t h2 = fnv1a(key.data(), key.size(), 0x84222325cbf29ce4ull ^ key.size());
  char name[64];
  std::snprintf(name, sizeof name, "%016llx%016llx.wfx", (unsigned long long)h1,
                (unsigned long long)h2);
  std::filesystem::path dir = envOr("WARPFORGE_CACHE", "1") == "0" ? "" : cacheDir();
  if (!dir.empty()) {
    std::error_code ec;
    if (std::filesystem::exists(dir / name, ec)) {
      if (auto m = wfx::readFile((dir / name).string())) {
        module.image = std::move(*m);
        return Error::cudaSuccess;
      }
    }
  }
  ptx::ParseOptions po;
  po.fileName = "<PTX " + module.ptxArch + " from the fatbinary>";
  auto parsed = ptx::parseModule(module.ptx, po);
  if (!parsed) {
    std::fprintf(stderr, "warpforge: cannot compile this program's PTX:\n%s\n",
                 parsed.error().str().c_str());
    return Error::cudaErrorInvalidPtx;
  }
  codegen::CodegenOptions co;
  co.config = config;
  co.stackBytes = uint32_t(stackSize);
  auto compiled = codegen::compilePtx(*parsed, co);
  if (!compiled) {
    std::fprintf(stderr, "warpforge: cannot compile this program's PTX:\n%s\n",
                 compiled.error().str().c_str());
    return Error::cudaErrorInvalidPtx;
  }
  module.image = std::move(*compiled);
  if (!dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    std::string tmp = (dir / name).string() + "." + std::to_string(getpid());
    if (!ec && wfx::writeFile(tmp, module.image))
      std::filesystem::rename(tmp, dir / name, ec);
  }
  return Error::cudaSuccess;
}

Error Runtime::ensureLoaded(ModuleRecord &module) {
  if (module.loaded)
    return module.loadError;
  if (Error e = ensureDevice(); e != Error::cudaSuccess)
    return e;
  if (module.ptx.empty() && !module.precompiled) {
    std::fprintf(stderr, "warpforge: %s\n", module.noPtxWhy.c_str());
    module.loaded = true;
    return module.loadError = Error::cudaErrorNoKernelImageForDevice;
  }
  module.loaded = true;
  if (!module.precompiled)
    if (Error e = compile(module); e != Error::cudaSuccess)
      return module.loadError = e;
  if (module.image.flags & wfx::kFlagDeviceHeap)
    if (Error e = ensureDeviceHeap(); e != Error::cudaSuccess)
      return module.loadError = e;
  uint64_t bytes = wfx::placeSegments(module.image, 0).end;
  uint64_t base = device_->allocate(bytes ? bytes : 256, 4096);
  if (!base) {
    std::fprintf(stderr, "warpforge: the module (%llu bytes) does not fit in device memory\n",
                 (unsigned long long)bytes);
    return module.loadError = Error::cudaErrorMemoryAllocation;
  }
  wfx::Placement placement = wfx::placeSegments(module.image, base);
  auto loaded = wfx::load(module.image, placement.bases);
  if (!loaded) {
    std::fprintf(stderr, "warpforge: cannot load the compiled module: %s\n",
                 loaded.error().str().c_str());
    device_->free(base);
    return module.loadError = Error::cudaErrorInvalidKernelImage;
  }
  module.placed = std::move(*loaded);
  module.deviceBase = base;
  // A synchronous upload by host-initiated DMA; it drains the queues first, so no queued command
  // that still touches this (possibly just freed) memory can overtake it.
  if (!device_->dmaWrite(module.placed.bases.code, module.placed.code.data(),
                         module.placed.code.size()) ||
      !device_->dmaWrite(module.placed.bases.constant, module.placed.constant.data(),
                         module.placed.constant.size()) ||
      !device_->dmaWrite(module.placed.bases.global, module.placed.global.data(),
                         module.placed.global.size())) {
    device_->free(base);
    noteDeviceLoss(); // the placement lies in device memory: only a lost device refuses it
    if (deviceLost_)
      return module.loadError = sticky_;
    std::fprintf(stderr, "warpforge: cannot upload the compiled module to the device\n");
    return module.loadError = Error::cudaErrorInvalidKernelImage;
  }
  mapManagedVars(module, module);
  return module.loadError = Error::cudaSuccess;
}

void Runtime::mapManagedVars(const ModuleRecord &registered, const ModuleRecord &copy) {
  // The host reaches a __managed__ variable through the pointer nvcc's code dereferences, aimed
  // at the variable itself (its device address is its host address).
  bool identity = managedSupported();
  for (auto &[key, var] : vars_) {
    if (var.module != &registered || !var.managed || !var.managedHostPtr)
      continue;
    uint64_t a = copy.placed.symbolAddress(copy.image, var.name);
    *var.managedHostPtr = identity && a ? reinterpret_cast<void *>(a) : nullptr;
    if (a)
      managed_[a] = var.size;
  }
}

Error Runtime::symbol(const void *hostVar, uint64_t &address, uint64_t &size) {
  const VarRecord *var = findVar(hostVar); // records live as long as the runtime
  if (!var)
    return Error::cudaErrorInvalidSymbol;
  if (Error e = ensureLoaded(*var->module); e != Error::cudaSuccess)
    return e;
  address = var->module->placed.symbolAddress(var->module->image, var->name);
  if (!address) {
    std::fprintf(stderr, "warpforge: the compiled module has no variable '%s'\n",
                 var->name.c_str());
    return Error::cudaErrorInvalidSymbol;
  }
  size = var->size;
  return Error::cudaSuccess;
}

const wfx::Kernel *Runtime::kernelOf(FunctionRecord &fn) {
  if (ensureLoaded(*fn.module) != Error::cudaSuccess)
    return nullptr;
  return fn.module->image.findKernel(fn.name);
}

Error Runtime::functionAttributes(FunctionRecord &fn, FunctionAttributes &a) {
  std::lock_guard lock(lock_);
  const wfx::Kernel *k = kernelOf(fn);
  if (!k)
    return fn.module->loadError != Error::cudaSuccess ? fn.module->loadError
                                                      : Error::cudaErrorInvalidDeviceFunction;
  const isa::Config &c = device_->info().config;
  a = FunctionAttributes{};
  a.sharedBytes = k->sharedBytes;
  a.localBytes = k->localBytes;
  uint32_t maxThreads = c.maxThreadsPerBlock;
  if (k->regsPerThread)
    maxThreads = std::min<uint32_t>(maxThreads, c.regsPerCore / k->regsPerThread / 32 * 32);
  if (k->maxntid.specified())
    maxThreads = std::min<uint32_t>(maxThreads, uint32_t(k->maxntid.count()));
  a.maxThreadsPerBlock = int(maxThreads);
  a.numRegs = int(k->regsPerThread);
  // User constant memory is the module's (as on a GPU, where every kernel of a module reports
  // the module's __constant__ bytes).
  for (const wfx::Symbol &s : fn.module->image.symbols)
    if (s.segment == wfx::Segment::Const)
      a.constBytes = std::max<uint64_t>(a.constBytes, uint64_t(s.offset) + s.size);
  // The binary is compiled for the device (compute capability 8.0); the PTX names its own target.
  a.binaryVersion = 80;
  a.ptxVersion = a.binaryVersion;
  if (fn.module->ptxArch.rfind("compute_", 0) == 0)
    a.ptxVersion = std::atoi(fn.module->ptxArch.c_str() + 8);
  a.maxDynamicShared =
      fn.maxDynamicShared >= 0 ? fn.maxDynamicShared : int(c.sharedMemPerBlock - k->sharedBytes);
  a.preferredCarveout = fn.preferredCarveout;
  return Error::cudaSuccess;
}

Error Runtime::setFunctionAttribute(FunctionRecord &fn, int attribute, int value) {
  std::lock_guard lock(lock_);
  switch (attribute) {
  case 8: { // the dynamic shared memory opt-in: up to what one core holds, less the static bytes
    const wfx::Kernel *k = kernelOf(fn);
    if (!k)
      return fn.module->loadError != Error::cudaSuccess ? fn.module->loadError
                                                        : Error::cudaErrorInvalidDeviceFunction;
    uint32_t cap = device_->info().config.sharedMemPerCore - k->sharedBytes;
    if (value < 0 || uint32_t(value) > cap)
      return Error::cudaErrorInvalidValue;
    fn.maxDynamicShared = value;
    return Error::cudaSuccess;
  }
  case 9: // the preferred carveout, a hint: shared memory is not carved out of a cache here
    if (value < -1 || value > 100)
      return Error::cudaErrorInvalidValue;
    fn.preferredCarveout = value;
    return Error::cudaSuccess;
  default: return Error::cudaErrorInvalidValue;
  }
}

Error Runtime::setLimit(int limit, uint64_t value) {
  std::lock_guard lock(lock_);
  switch (limit) {
  case 0: stackSize = value; return Error::cudaSuccess;
  case 1:
    if (value < 64)
      return Error::cudaErrorInvalidValue;
    printfFifoSize = value;
    return Error::cudaSuccess;
  case 2:
    // Fixed once a module using the heap has loaded (guide B.18.1).
    if (deviceHeapReserved())
      return Error::cudaErrorInvalidValue;
    mallocHeapSize = value;
    return Error::cudaSuccess;
  default: return Error::cudaErrorUnsupportedLimit;
  }
}

Error Runtime::getLimit(int limit, uint64_t &value) {
  std::lock_guard lock(lock_);
  switch (limit) {
  case 0: value = stackSize; return Error::cudaSuccess;
  case 1: value = printfFifoSize; return Error::cudaSuccess;
  case 2: value = mallocHeapSize; return Error::cudaSuccess;
  default: return Error::cudaErrorUnsupportedLimit;
  }
}

Error Runtime::prepareRtbuf() {
  // Launches in flight share the area (their printf records go one after another into the
  // FIFO); it is rewritten only when nothing runs.
  if (rtbuf_ && rtbufFifo_ == printfFifoSize && rtbufHeap_ == deviceHeap_)
    return Error::cudaSuccess;
  if (launchesInFlight_ != 0) // queued launches (deferred ones too) hold the area's address
    waitAll();
  drainPrintf();
  if (!rtbuf_ || rtbufFifo_ != printfFifoSize) {
    if (rtbuf_)
      device_->free(rtbuf_);
    rtbuf_ = device_->allocate(kRtHeader + printfFifoSize, 256);
    rtbufFifo_ = printfFifoSize;
    if (!rtbuf_)
      return Error::cudaErrorMemoryAllocation;
  }
  RuntimeArea area = {};
  area.fifoBase = rtbuf_ + kRtHeader;
  area.fifoSize = uint32_t(printfFifoSize);
  area.deviceHeap = deviceHeap_;
  rtbufHeap_ = deviceHeap_;
  device_->write(rtbuf_, &area, sizeof area);
  return Error::cudaSuccess;
}

Error Runtime::prepareLocalArea(uint64_t bytesPerThread, uint64_t &base) {
  base = 0;
  if (bytesPerThread == 0)
    return Error::cudaSuccess;
  // Room for every thread the device can hold at once (docs/microarchitecture.md): kept and
  // only grown, so launches in flight keep theirs until it is replaced while nothing runs.
  const isa::Config &c = device_->info().config;
  uint64_t need = bytesPerThread * isa::kWarpSize * c.warpsPerCore * c.cores;
  if (need > localAreaBytes_) {
    if (launchesInFlight_ != 0)
      waitAll();
    if (localArea_)
      device_->free(localArea_);
    localArea_ = device_->allocate(need, 256);
    localAreaBytes_ = localArea_ ? need : 0;
    if (!localArea_) {
      std::fprintf(stderr,
                   "warpforge: the launch's local memory (%llu bytes a thread, %llu in all) does "
                   "not fit in device memory\n",
                   (unsigned long long)bytesPerThread, (unsigned long long)need);
      return Error::cudaErrorLaunchOutOfResources;
    }
  }
  base = localArea_;
  return Error::cudaSuccess;
}

Error Runtime::ensureDeviceHeap() {
  if (deviceHeap_)
    return Error::cudaSuccess;
  // Reserved once, when the first module that calls malloc/free loads, and kept (allocations
  // outlive their kernels) until cudaDeviceReset; the allocator itself runs on the device.
  isa::dev::DeviceHeap header = {};
  uint64_t arenaBytes = (mallocHeapSize + 15) / 16 * 16;
  uint64_t base = device_->allocate(sizeof header + arenaBytes, 256);
  if (!base) {
    std::fprintf(stderr,
                 "warpforge: the device heap (cudaLimitMallocHeapSize, %llu bytes) does not fit "
                 "in device memory\n",
                 (unsigned long long)mallocHeapSize);
    return Error::cudaErrorSharedObjectInitFailed;
  }
  header.arena = base + sizeof header;
  header.arenaBytes = arenaBytes;
  device_->write(base, &header, sizeof header);
  deviceHeap_ = base;
  return Error::cudaSuccess;
}

void Runtime::drainPrintf() {
  if (!rtbuf_)
    return;
  uint32_t used = 0;
  device_->read(rtbuf_ + offsetof(RuntimeArea, fifoUsed), &used, 4);
  if (used > rtbufFifo_)
    used = uint32_t(rtbufFifo_);
  if (!used)
    return;
  std::vector<uint8_t> fifo(used);
  device_->read(rtbuf_ + kRtHeader, fifo.data(), used);
  size_t off = 0;
  std::string out;
  while (off + 16 <= used) {
    uint32_t recSize, argBytes;
    uint64_t fmtAddr;
    std::memcpy(&recSize, &fifo[off], 4);
    std::memcpy(&argBytes, &fifo[off + 4], 4);
    std::memcpy(&fmtAddr, &fifo[off + 8], 8);
    uint32_t expect = (16 + argBytes + 7) & ~7u;
    if (recSize < expect || off + recSize > used)
      break;
    out += formatPrintf(*device_, readDeviceString(*device_, fmtAddr), &fifo[off + 16], argBytes);
    off += recSize;
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  uint32_t zero = 0;
  device_->write(rtbuf_ + offsetof(RuntimeArea, fifoUsed), &zero, 4);
}

Error Runtime::reportFault(FunctionRecord &fn, const DeviceFault &fault, Dim3 grid, Dim3 block) {
  Error e = faultError(fault.kind);
  std::fflush(stdout);
  // The device names where the assert record is (fault_address); its layout is the generated
  // RuntimeArea's (isa/device.toml).
  uint64_t assertRecord = fault.address ? fault.address : rtbuf_;
  RuntimeArea area;
  if (fault.kind == FaultKind::Assert && assertRecord &&
      device_->read(assertRecord, &area, sizeof area)) {
    if (area.assertFlag)
      std::fprintf(stderr, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n",
                   readDeviceString(*device_, area.assertFile).c_str(), area.assertLine,
                   readDeviceString(*device_, area.assertFunction).c_str(), fault.block.x,
                   fault.block.y, fault.block.z, fault.thread.x, fault.thread.y, fault.thread.z,
                   readDeviceString(*device_, area.assertMessage).c_str());
  }
  std::fprintf(stderr,
               "warpforge: kernel fault (%s): %s\n  launch <<<(%u,%u,%u), (%u,%u,%u)>>> of %s\n",
               errorName(int(e)), fault.describe(fn.name).c_str(), grid.x, grid.y, grid.z, block.x,
               block.y, block.z, fn.name.c_str());
  if (fault.kind != FaultKind::InvalidLaunch)
    sticky_ = e;
  return e;
}

uint32_t Runtime::blocksPerCore(const wfx::Kernel &k, uint64_t threads,
                               uint64_t sharedDynamic) const {
  const isa::Config &c = device_->info().config;
  if (threads == 0)
    return 0;
  uint64_t warps = (threads + isa::kWarpSize - 1) / isa::kWarpSize;
  uint64_t n = c.maxBlocksPerCore;
  n = std::min<uint64_t>(n, c.warpsPerCore / warps);
  if (k.regsPerThread)
    n = std::min<uint64_t>(n, c.regsPerCore / (warps * isa::kWarpSize * k.regsPerThread));
  if (uint64_t shared = k.sharedBytes + sharedDynamic)
    n = std::min<uint64_t>(n, c.sharedMemPerCore / shared);
  return uint32_t(n);
}

Error Runtime::launch(FunctionRecord &fn, Dim3 grid, Dim3 block, void **args,
                      uint64_t sharedDynamic, CUstream_st *stream, bool cooperative) {
  std::lock_guard lock(lock_);
  if (Error e = ensureLoaded(*fn.module); e != Error::cudaSuccess)
    return e;
  const wfx::Kernel *k = fn.module->image.findKernel(fn.name);
  if (!k) {
    std::fprintf(stderr, "warpforge: no kernel '%s' in the compiled module\n", fn.name.c_str());
    return Error::cudaErrorInvalidDeviceFunction;
  }
  const isa::Config &cfg = device_->info().config;
  uint64_t threads = block.count();
  if (threads == 0 || grid.count() == 0 || threads > cfg.maxThreadsPerBlock || block.x > 1024 ||
      block.y > 1024 || block.z > 64 || grid.x > 0x7fffffffu || grid.y > 65535 || grid.z > 65535)
    return Error::cudaErrorInvalidConfiguration;
  // Dynamic shared memory: up to the default per-block limit, or up to what the program opted
  // in to with cudaFuncAttributeMaxDynamicSharedMemorySize (at most a core's shared memory).
  uint64_t dynLimit = fn.maxDynamicShared >= 0 ? uint64_t(fn.maxDynamicShared)
                      : cfg.sharedMemPerBlock > k->sharedBytes ? cfg.sharedMemPerBlock - k->sharedBytes
                                                               : 0;
  if (sharedDynamic > dynLimit || uint64_t(k->sharedBytes) + sharedDynamic > cfg.sharedMemPerCore)
    return Error::cudaErrorInvalidValue;
  uint64_t warps = (threads + isa::kWarpSize - 1) / isa::kWarpSize;
  if (warps * isa::kWarpSize * k->regsPerThread > cfg.regsPerCore || warps > cfg.warpsPerCore)
    return Error::cudaErrorLaunchOutOfResources;
  // __launch_bounds__ / .maxntid: the code was compiled for at most that many threads (a real
  // GPU answers cudaErrorInvalidValue, tests/cuda/README.md).
  if (k->maxntid.specified() && threads > k->maxntid.count())
    return Error::cudaErrorInvalidValue;
  if (cooperative && grid.count() > uint64_t(blocksPerCore(*k, threads, sharedDynamic)) * cfg.cores)
    return Error::cudaErrorCooperativeLaunchTooLarge;
  LaunchParams p;
  p.kernelName = fn.name;
  p.codeBase = fn.module->placed.bases.code;
  p.codeSize = uint32_t(fn.module->placed.code.size());
  p.entryPc = k->entry;
  p.grid = grid;
  p.block = block;
  p.regsPerThread = k->regsPerThread;
  p.sharedStatic = k->sharedBytes;
  p.sharedDynamic = uint32_t(sharedDynamic);
  p.localBytes = k->localBytes;
  p.constBase = fn.module->placed.bases.constant;
  p.constSize = uint32_t(fn.module->placed.constant.size());
  p.params.assign(k->paramBytes, 0);
  if (k->paramBytes && k->params.empty()) {
    std::fprintf(stderr, "warpforge: kernel '%s' has no parameter layout\n", fn.name.c_str());
    return Error::cudaErrorInvalidValue;
  }
  for (size_t i = 0; i < k->params.size(); ++i) {
    if (!args || !args[i])
      return Error::cudaErrorInvalidValue;
    std::memcpy(p.params.data() + k->params[i].offset, args[i], k->params[i].size);
  }
  if (Error e = prepareRtbuf(); e != Error::cudaSuccess)
    return e;
  if (Error e = prepareLocalArea(k->localBytes, p.localBase); e != Error::cudaSuccess)
    return e;
  // Cooperative and profiled launches run alone: the grid barrier's address is in the runtime
  // area's header, and the profile counters are read back after the launch.
  Profiler *profiler = Profiler::fromEnvironment();
  bool alone = cooperative || profiler;
  if (alone)
    waitAll();
  if (cooperative) {
    // The grid barrier of cooperative_groups: a zeroed word pair whose address the kernel reads
    // from the runtime area (%envreg1:%envreg2, docs/compiler.md).
    if (!gridWorkspace_ && !(gridWorkspace_ = device_->allocate(256, 256)))
      return Error::cudaErrorMemoryAllocation;
    device_->fill(gridWorkspace_, 0, 16);
    device_->write(rtbuf_ + kRtGridWorkspace, &gridWorkspace_, 8);
  }
  p.rtbuf = rtbuf_;
  if (profiler)
    p.profileCounters = profiler->countersFor(*device_, *fn.module);
  bool profiled = p.profileCounters != 0;
  // CUDA flushes device printf output at a launch, of the kernels that are done.
  if (launchesInFlight_ == 0)
    drainPrintf();
  ++launchesInFlight_;
  FunctionRecord *f = &fn;
  WorkRef work = enqueue(stream, [this, p = std::move(p), f, grid, block,
                                  sharedDynamic](std::span<const Ticket> after) {
    return device_->submitLaunch(p, after, [this, f, grid, block, sharedDynamic](
                                               const CommandResult &r) {
      finished(Finished{f, grid, block, sharedDynamic, r});
    });
  });
  if (alone) {
    waitFor(work);
    if (profiled)
      profiler->collect(*device_, *fn.module, fn.name);
    if (cooperative) {
      uint64_t none = 0; // ordinary launches find 0 there, as CUDA leaves it
      device_->write(rtbuf_ + kRtGridWorkspace, &none, 8);
    }
  }
  return Error::cudaSuccess;
}

// --- memory ---

Error Runtime::malloc(uint64_t bytes, uint64_t &address) {
  if (Error e = ensureDevice(); e != Error::cudaSuccess)
    return e;
  address = 0;
  if (bytes == 0)
    return Error::cudaSuccess;
  std::lock_guard lock(lock_);
  reapFrees();
  address = device_->allocate(bytes, 256);
  if (!address && !pendingFrees_.empty()) {
    waitAll(); // memory freed in stream order comes back when the streams reach the frees
    address = device_->allocate(bytes, 256);
  }
  if (!address)
    return Error::cudaErrorMemoryAllocation;
  deviceAllocs_[address] = bytes;
  return Error::cudaSuccess;
}

bool Runtime::managedSupported() {
  if (ensureDevice() != Error::cudaSuccess)
    return false;
  uint64_t base = device_->info().memBase;
  return device_->hostWindow(base, 1) == reinterpret_cast<void *>(base);
}

Error Runtime::mallocManaged(uint64_t bytes, uint64_t &address) {
  if (!managedSupported())
    return notSupported("managed memory on this device (its memory is not mapped at its own "
                        "addresses in this process)");
  if (Error e = malloc(bytes, address); e != Error::cudaSuccess)
    return e;
  std::lock_guard lock(lock_);
  managed_[address] = bytes;
  return Error::cudaSuccess;
}

bool Runtime::isManaged(uint64_t address) const {
  auto it = managed_.upper_bound(address);
  if (it == managed_.begin())
    return false;
  --it;
  return address - it->first < std::max<uint64_t>(it->second, 1);
}

bool Runtime::deviceAllocation(uint64_t address, uint64_t &base, uint64_t &bytes) const {
  for (const std::map<uint64_t, uint64_t> *allocs : {&deviceAllocs_, &managed_}) {
    auto it = allocs->upper_bound(address);
    if (it == allocs->begin())
      continue;
    --it;
    if (address - it->first < std::max<uint64_t>(it->second, 1)) {
      base = it->first;
      bytes = it->second;
      return true;
    }
  }
  return false;
}

Error Runtime::free(uint64_t address) {
  if (address == 0)
    return Error::cudaSuccess;
  {
    std::lock_guard lock(lock_);
    waitAll(); // cudaFree synchronizes: no queued command may still use the memory
    auto it = deviceAllocs_.find(address);
    if (it == deviceAllocs_.end())
      return Error::cudaErrorInvalidValue;
    deviceAllocs_.erase(it);
    managed_.erase(address);
  }
  device_->free(address);
  return Error::cudaSuccess;
}

bool Runtime::isDevice(uint64_t address, uint64_t bytes) const {
  return device_ && device_->allocated(address, bytes);
}

bool Runtime::inDeviceMemory(uint64_t address) const {
  if (!device_)
    return false;
  const DeviceInfo &info = device_->info();
  return address >= info.memBase && address - info.memBase < info.memSize;
}

uint64_t Runtime::liveDeviceBytes() const {
  uint64_t total = 0;
  for (auto &[b, s] : deviceAllocs_)
    total += (s + 255) / 256 * 256;
  return total;
}

Error Runtime::hostAlloc(uint64_t bytes, unsigned flags, void **ptr) {
  if (Error e = ensureDevice(); e != Error::cudaSuccess)
    return e;
  uint64_t size = bytes ? bytes : 1;
  uint64_t dev = device_->allocate(size, 4096);
  void *host = dev ? device_->hostWindow(dev, size) : nullptr;
  if (!host) {
    if (dev)
      device_->free(dev);
    dev = 0;
    host = std::calloc(1, size);
    if (!host)
      return Error::cudaErrorMemoryAllocation;
  }
  std::lock_guard lock(lock_);
  hostAllocs_[reinterpret_cast<uintptr_t>(host)] = HostAllocation{size, dev, flags};
  *ptr = host;
  return Error::cudaSuccess;
}

Error Runtime::hostFree(void *ptr) {
  if (!ptr)
    return Error::cudaSuccess;
  HostAllocation a;
  {
    std::lock_guard lock(lock_);
    waitAll();
    auto it = hostAllocs_.find(reinterpret_cast<uintptr_t>(ptr));
    if (it == hostAllocs_.end() || it->second.registered)
      return Error::cudaErrorInvalidValue;
    a = it->second;
    hostAllocs_.erase(it);
  }
  if (a.device)
    device_->free(a.device);
  else
    std::free(ptr);
  return Error::cudaSuccess;
}

Error Runtime::hostRegister(void *ptr, uint64_t bytes, unsigned flags) {
  if (!ptr || bytes == 0 || (flags & ~0xfu))
    return Error::cudaErrorInvalidValue;
  if (flags & 0x6) // Mapped, IoMemory: the device cannot reach arbitrary host pages here
    return notSupported("cudaHostRegister with cudaHostRegisterMapped or cudaHostRegisterIoMemory");
  std::lock_guard lock(lock_);
  auto p = reinterpret_cast<uintptr_t>(ptr);
  auto next = hostAllocs_.lower_bound(p);
  if (next != hostAllocs_.end() && next->first < p + bytes)
    return Error::cudaErrorHostMemoryAlreadyRegistered;
  if (findHost(ptr))
    return Error::cudaErrorHostMemoryAlreadyRegistered;
  hostAllocs_[p] = HostAllocation{bytes, 0, flags, true};
  return Error::cudaSuccess;
}

Error Runtime::hostUnregister(void *ptr) {
  std::lock_guard lock(lock_);
  auto it = hostAllocs_.find(reinterpret_cast<uintptr_t>(ptr));
  if (!ptr || it == hostAllocs_.end() || !it->second.registered)
    return Error::cudaErrorHostMemoryNotRegistered;
  hostAllocs_.erase(it);
  return Error::cudaSuccess;
}

std::optional<HostAllocation> Runtime::findHost(const void *ptr, uint64_t *base) const {
  auto p = reinterpret_cast<uintptr_t>(ptr);
  auto it = hostAllocs_.upper_bound(p);
  if (it == hostAllocs_.begin())
    return std::nullopt;
  --it;
  if (p - it->first >= it->second.size)
    return std::nullopt;
  if (base)
    *base = it->first;
  return it->second;
}

uint64_t Runtime::hostToDevice(const void *ptr, uint64_t *sizeLeft) {
  std::lock_guard lock(lock_);
  uint64_t base = 0;
  auto a = findHost(ptr, &base);
  if (!a || !a->device)
    return 0;
  uint64_t off = reinterpret_cast<uintptr_t>(ptr) - base;
  if (sizeLeft)
    *sizeLeft = a->size - off;
  return a->device + off;
}

void *Runtime::deviceToHost(uint64_t address, uint64_t bytes) {
  return device_ ? device_->hostWindow(address, bytes) : nullptr;
}

void Runtime::reset() {
  std::lock_guard lock(lock_);
  pools_.reset();
  if (device_) {
    waitAll();
    collect(); // what finished before the reset is reported (CUDA flushes printf here)
    device_->reset();
  }
  {
    std::lock_guard fin(finishedMutex_);
    finished_.clear();
    asyncError_ = Error::cudaSuccess;
  }
  // Streams and events die with the context; the default streams start empty.
  for (CUstream_st *s : streams_)
    delete s;
  streams_.clear();
  for (CUevent_st *e : events_)
    delete e;
  events_.clear();
  legacy_.tail.clear();
  for (CUstream_st *s : perThread_)
    s->tail.clear();
  orphans_.clear();
  pendingFrees_.clear();
  rtbufHeap_ = 0;
  deviceAllocs_.clear();
  managed_.clear();
  forgetTextures();
  for (auto &[p, a] : hostAllocs_)
    if (!a.device && !a.registered)
      std::free(reinterpret_cast<void *>(p));
  hostAllocs_.clear();
  rtbuf_ = 0;
  gridWorkspace_ = 0;
  localArea_ = localAreaBytes_ = 0;
  deviceHeap_ = 0;
  if (Profiler *profiler = Profiler::fromEnvironment())
    profiler->forgetDevice();
  for (auto &[h, fn] : functions_) {
    fn.maxDynamicShared = -1;
    fn.preferredCarveout = -1;
  }
  for (auto &m : modules_) {
    m->loaded = false;
    m->loadError = Error::cudaSuccess;
    m->deviceBase = 0;
  }
  sticky_ = deviceLost_ ? Error::cudaErrorLaunchFailure : Error::cudaSuccess;
  tLastError = sticky_;
}

} // namespace wf::rt

//===- golden.cpp - The golden model through its plugin ----------------------===//

#include "warpforge/isa/golden.h"

#include "warpforge/isa/config.gen.h"
#include "warpforge/isa/plugins.h"

#include <algorithm>
#include <cstring>
#include <new>

namespace wf::isa {

// --- conversions ---------------------------------------------------------------------------------

namespace golden {

wf_golden_launch_desc toC(const LaunchDesc &d) {
  wf_golden_launch_desc c{};
  c.kernel_name = d.kernelName.c_str();
  c.code_base = d.codeBase;
  c.code_size = d.codeSize;
  c.entry_pc = d.entryPc;
  c.grid[0] = d.grid.x, c.grid[1] = d.grid.y, c.grid[2] = d.grid.z;
  c.block[0] = d.block.x, c.block[1] = d.block.y, c.block[2] = d.block.z;
  c.regs_per_thread = d.regsPerThread;
  c.shared_static = d.sharedStatic;
  c.shared_dynamic = d.sharedDynamic;
  c.local_bytes = d.localBytes;
  c.const_base = d.constBase;
  c.const_size = d.constSize;
  c.param_bytes = uint32_t(d.params.size());
  c.params = d.params.data();
  c.rtbuf = d.rtbuf;
  c.grid_id = d.gridId;
  return c;
}

LaunchDesc fromC(const wf_golden_launch_desc &c) {
  LaunchDesc d;
  d.kernelName = c.kernel_name ? c.kernel_name : "";
  d.codeBase = c.code_base;
  d.codeSize = c.code_size;
  d.entryPc = c.entry_pc;
  d.grid = {c.grid[0], c.grid[1], c.grid[2]};
  d.block = {c.block[0], c.block[1], c.block[2]};
  d.regsPerThread = c.regs_per_thread;
  d.sharedStatic = c.shared_static;
  d.sharedDynamic = c.shared_dynamic;
  d.localBytes = c.local_bytes;
  d.constBase = c.const_base;
  d.constSize = c.const_size;
  if (c.params && c.param_bytes)
    d.params.assign(c.params, c.params + c.param_bytes);
  d.rtbuf = c.rtbuf;
  d.gridId = c.grid_id;
  return d;
}

wf_golden_warp toC(const WarpRef &w) {
  return wf_golden_warp{{w.block.x, w.block.y, w.block.z}, w.warp};
}

WarpRef fromC(const wf_golden_warp &w) {
  return WarpRef{Dim3{w.block[0], w.block[1], w.block[2]}, w.warp};
}

uint32_t toC(const Injection &i) {
  return (i.specialRegs ? WF_GOLDEN_INJECT_SREGS : 0u) | (i.loads ? WF_GOLDEN_INJECT_LOADS : 0u) |
         (i.atomics ? WF_GOLDEN_INJECT_ATOMICS : 0u);
}

Injection injectionFromC(uint32_t bits) {
  Injection i;
  i.specialRegs = bits & WF_GOLDEN_INJECT_SREGS;
  i.loads = bits & WF_GOLDEN_INJECT_LOADS;
  i.atomics = bits & WF_GOLDEN_INJECT_ATOMICS;
  return i;
}

dev::Completion toCompletion(const LaunchResult &r) {
  dev::Completion c = r.fault ? r.fault->record() : dev::Completion{};
  c.cycles = r.cycles;
  c.warpInsts = r.warpInsts;
  c.threadInsts = r.threadInsts;
  return c;
}

LaunchResult fromCompletion(const dev::Completion &c, uint64_t blocks, std::string kernel) {
  LaunchResult r;
  r.fault = Fault::fromRecord(c, std::move(kernel));
  r.cycles = c.cycles;
  r.warpInsts = c.warpInsts;
  r.threadInsts = c.threadInsts;
  r.blocks = blocks;
  return r;
}

} // namespace golden

static_assert(sizeof(dev::Completion) == WF_GOLDEN_COMPLETION_BYTES);

// --- GoldenModel ---------------------------------------------------------------------------------

std::unique_ptr<GoldenModel> GoldenModel::open(const std::string &pluginName,
                                               const std::string &config, std::string &error,
                                               uint8_t *memory) {
  const wf_device_plugin *plugin = loadPlugin(pluginName, error);
  if (!plugin)
    return nullptr;
  auto entry =
      reinterpret_cast<wf_golden_model_entry_fn>(pluginSymbol(pluginName, WF_GOLDEN_MODEL_ENTRY, error));
  if (!entry)
    return nullptr;
  const wf_golden_model_api *api = entry();
  if (!api || api->abi_version != WF_GOLDEN_MODEL_ABI_VERSION) {
    error = "device plugin '" + pluginName + "' implements golden-model interface version " +
            std::to_string(api ? api->abi_version : 0) + "; this model needs " +
            std::to_string(WF_GOLDEN_MODEL_ABI_VERSION);
    return nullptr;
  }
  const Config *cfg = findConfig(config);
  wf_device_create_params params{};
  params.abi_version = WF_DEVICE_PLUGIN_ABI_VERSION;
  params.config = config.c_str();
  params.device_memory = memory;
  params.device_memory_bytes = memory && cfg ? uint64_t(cfg->globalMemMib) << 20 : 0;
  char why[512] = {};
  wf_device_model *model = plugin->create(&params, why, sizeof why);
  if (!model) {
    error = why;
    return nullptr;
  }
  return std::unique_ptr<GoldenModel>(new GoldenModel(plugin, api, model));
}

GoldenModel::~GoldenModel() {
  if (launcher_)
    api_->set_launcher(model_, nullptr, nullptr);
  plugin_->ops->destroy(model_);
}

bool GoldenModel::read(uint64_t address, void *dst, uint64_t bytes) const {
  return plugin_->ops->mem_read(model_, address, dst, bytes) == 0;
}

bool GoldenModel::write(uint64_t address, const void *src, uint64_t bytes) {
  return plugin_->ops->mem_write(model_, address, src, bytes) == 0;
}

bool GoldenModel::fill(uint64_t address, uint8_t value, uint64_t bytes) {
  std::vector<uint8_t> chunk(std::min<uint64_t>(bytes, 1u << 20), value);
  for (uint64_t done = 0; done < bytes;) {
    uint64_t n = std::min<uint64_t>(chunk.size(), bytes - done);
    if (!write(address + done, chunk.data(), n))
      return false;
    done += n;
  }
  return true;
}

std::unique_ptr<GoldenLaunch> GoldenModel::begin(const LaunchDesc &desc, CommitSink sink) {
  std::unique_ptr<GoldenLaunch> launch(new GoldenLaunch(api_, desc.kernelName, std::move(sink)));
  wf_golden_launch_desc c = golden::toC(desc);
  launch->launch_ = api_->begin(model_, &c, &GoldenLaunch::deliver, launch.get());
  if (!launch->launch_)
    throw std::bad_alloc();
  return launch;
}

void GoldenModel::setLauncher(Launcher launcher) {
  launcher_ = std::move(launcher);
  if (!launcher_) {
    api_->set_launcher(model_, nullptr, nullptr);
    return;
  }
  api_->set_launcher(
      model_,
      [](void *context, wf_device_model *, const wf_golden_launch_desc *desc, uint64_t watchdog,
         void *completion, uint64_t *blocks) {
        auto *self = static_cast<GoldenModel *>(context);
        LaunchResult r = self->launcher_(golden::fromC(*desc), watchdog);
        dev::Completion c = golden::toCompletion(r);
        std::memcpy(completion, &c, sizeof c);
        *blocks = r.blocks;
      },
      this);
}

// --- GoldenLaunch --------------------------------------------------------------------------------

GoldenLaunch::~GoldenLaunch() {
  if (launch_)
    api_->release(launch_);
}

void GoldenLaunch::deliver(void *context, const uint8_t *record, uint32_t bytes) {
  auto *self = static_cast<GoldenLaunch *>(context);
  if (self->sink_)
    self->sink_(std::span<const uint8_t>(record, bytes));
}

StepResult GoldenLaunch::step(const WarpRef &warp, uint32_t count, const CommitView *reference,
                              const Injection &inject) {
  wf_golden_warp w = golden::toC(warp);
  uint32_t executed = 0;
  std::span<const uint8_t> ref = reference ? reference->bytes() : std::span<const uint8_t>();
  uint32_t status = api_->step(launch_, &w, count, ref.empty() ? nullptr : ref.data(),
                               uint32_t(ref.size()), golden::toC(inject), &executed);
  return StepResult{StepStatus(status), executed};
}

bool GoldenLaunch::finished(const WarpRef &warp) const {
  wf_golden_warp w = golden::toC(warp);
  return api_->finished(launch_, &w) != 0;
}

WarpStatus GoldenLaunch::status(const WarpRef &warp) {
  wf_golden_warp w = golden::toC(warp);
  wf_golden_warp_status s{};
  if (api_->status(launch_, &w, &s) != 0)
    return WarpStatus{};
  return WarpStatus{s.started != 0, s.finished != 0, s.idle != 0, s.group, s.pc};
}

std::vector<WarpRef> GoldenLaunch::warps() const {
  std::vector<WarpRef> all;
  const uint64_t n = api_->warp_count(launch_);
  all.reserve(n);
  for (uint64_t i = 0; i < n; ++i) {
    wf_golden_warp w{};
    if (api_->warp_at(launch_, i, &w) == 0)
      all.push_back(golden::fromC(w));
  }
  return all;
}

const std::optional<Fault> &GoldenLaunch::fault() const {
  if (!fault_) {
    dev::Completion c{};
    if (api_->fault(launch_, &c))
      fault_ = Fault::fromRecord(c, kernel_);
  }
  return fault_;
}

LaunchResult GoldenLaunch::finish(std::optional<uint64_t> timedCycles) {
  dev::Completion c{};
  uint64_t blocks = 0;
  api_->finish(launch_, timedCycles ? 1 : 0, timedCycles.value_or(0), &c, &blocks);
  return golden::fromCompletion(c, blocks, kernel_);
}

} // namespace wf::isa

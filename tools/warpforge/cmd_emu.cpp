// warpforge emu: load a module into the functional emulator, run one kernel, show the results.
#include "cli.h"
#include "warpforge/func/device.h"
#include "warpforge/isa/config.gen.h"
#include "warpforge/isa/device.gen.h"
#include "warpforge/module/wfx.h"
#include "warpforge/stats/stats.h"

#include <bit>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <map>

namespace wf::driver {
namespace {

/// Every allocation starts on this boundary (a cache line of the largest configuration, at least).
constexpr uint64_t kAllocAlign = 256;
/// The launch's runtime area (SR_RTBUF): printf FIFO and assert record, zeroed before the launch.
constexpr uint64_t kRuntimeAreaBytes = 64 * 1024;
/// The arena of the device heap a module that calls malloc/free gets (CUDA's default size).
constexpr uint64_t kDeviceHeapBytes = 8 << 20;

uint64_t alignUp(uint64_t value, uint64_t align) { return (value + align - 1) / align * align; }

/// Hands out device memory from the bottom up; nothing is ever freed (one launch per run).
class BumpAllocator {
public:
  BumpAllocator(uint64_t base, uint64_t end) : next_(base), end_(end) {}
  uint64_t allocate(uint64_t bytes, const std::string &what) {
    uint64_t address = alignUp(next_, kAllocAlign);
    if (address > end_ || bytes > end_ - address)
      throw UsageError(fmt::format("{} ({} bytes) does not fit in device memory", what, bytes));
    next_ = address + bytes;
    return address;
  }
  void skipTo(uint64_t address) { next_ = std::max(next_, address); }
  uint64_t end() const { return end_; }

private:
  uint64_t next_;
  uint64_t end_;
};

struct Region {
  uint64_t address = 0;
  uint64_t size = 0;
};

/// Element types of --arg and --print.
struct ScalarType {
  const char *name;
  unsigned bytes;
  enum Kind { Unsigned, Signed, Float, Hex } kind;
};
constexpr ScalarType kScalarTypes[] = {
    {"u8", 1, ScalarType::Unsigned},  {"s8", 1, ScalarType::Signed},
    {"u16", 2, ScalarType::Unsigned}, {"s16", 2, ScalarType::Signed},
    {"u32", 4, ScalarType::Unsigned}, {"s32", 4, ScalarType::Signed},
    {"u64", 8, ScalarType::Unsigned}, {"s64", 8, ScalarType::Signed},
    {"f32", 4, ScalarType::Float},    {"f64", 8, ScalarType::Float},
    {"x8", 1, ScalarType::Hex},       {"x16", 2, ScalarType::Hex},
    {"x32", 4, ScalarType::Hex},      {"x64", 8, ScalarType::Hex},
};

const ScalarType *findScalarType(std::string_view name) {
  for (const ScalarType &type : kScalarTypes)
    if (name == type.name)
      return &type;
  return nullptr;
}

std::string scalarTypeNames() {
  std::string names;
  for (const ScalarType &type : kScalarTypes)
    names += fmt::format("{}{}", names.empty() ? "" : ", ", type.name);
  return names;
}

std::string formatElement(const ScalarType &type, const uint8_t *bytes) {
  uint64_t raw = 0;
  std::memcpy(&raw, bytes, type.bytes); // little-endian host, as the device
  switch (type.kind) {
  case ScalarType::Unsigned:
    return fmt::format("{}", raw);
  case ScalarType::Signed: {
    unsigned shift = 64 - 8 * type.bytes;
    return fmt::format("{}", int64_t(raw << shift) >> shift);
  }
  case ScalarType::Hex:
    return fmt::format("0x{:0{}x}", raw, type.bytes * 2);
  case ScalarType::Float:
    return type.bytes == 4 ? fmt::format("{}", std::bit_cast<float>(uint32_t(raw)))
                           : fmt::format("{}", std::bit_cast<double>(raw));
  }
  return "?";
}

/// "NAME=VALUE" split at the first '='.
std::pair<std::string, std::string> splitAssignment(const std::string &text,
                                                    const std::string &option) {
  size_t equals = text.find('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == text.size())
    throw UsageError(fmt::format("--{} '{}': expected NAME=VALUE", option, text));
  return {text.substr(0, equals), text.substr(equals + 1)};
}

class EmuRun {
public:
  explicit EmuRun(const po::variables_map &values) : values_(values) {}

  int run() {
    if (!loadModule())
      return kExitFailure;
    chooseKernel();
    const isa::Config &config = chooseConfig();
    func::Device device(config);
    memory_ = &device.memory();
    BumpAllocator allocator(memory_->base(), memory_->base() + memory_->size());
    placeModule(allocator);
    rtbuf_ = allocator.allocate(kRuntimeAreaBytes, "the runtime area");
    if (module_.flags & wfx::kFlagDeviceHeap)
      reserveDeviceHeap(allocator);
    placeBuffers(allocator);
    func::LaunchDesc desc = describeLaunch();
    checkOutputs();

    func::RunOptions options;
    options.hostThreads = unsigned(count("threads", 1));
    options.watchdogWarpInsts = count("watchdog", options.watchdogWarpInsts);
    std::ofstream traceFile;
    if (values_.count("trace")) {
      std::string path = values_["trace"].as<std::string>();
      traceFile.open(path);
      if (!traceFile)
        throw UsageError(fmt::format("cannot write the trace to '{}'", path));
      options.trace = &traceFile;
    }
    std::ofstream timelineFile;
    if (values_.count("timeline")) {
      std::string path = values_["timeline"].as<std::string>();
      timelineFile.open(path);
      if (!timelineFile)
        throw UsageError(fmt::format("cannot write the timeline to '{}'", path));
      options.timeline = &timelineFile;
    }

    func::LaunchResult result = device.launch(desc, options);
    int status = kExitOk;
    if (result.fault) {
      std::cerr << "warpforge emu: kernel fault: " << result.fault->describe() << "\n";
      status = kExitFailure;
    }
    if (values_.count("stats")) {
      std::cerr << fmt::format("kernel '{}': {} blocks, {} warp instructions, {} thread "
                               "instructions, {} cycles\n",
                               kernel_->name, result.blocks, result.warpInsts, result.threadInsts,
                               result.cycles);
      std::string statsPath = values_["stats"].as<std::string>();
      if (!statsPath.empty()) {
        if (std::string why = stats::writeJsonFile(device.stats(), statsPath); !why.empty()) {
          std::cerr << "warpforge emu: " << why << "\n";
          status = kExitFailure;
        }
      }
    }
    // Buffers are shown even after a fault: what the kernel wrote before it stopped.
    if (!writeOutputs())
      status = kExitFailure;
    return status;
  }

private:
  uint64_t count(const char *option, uint64_t fallback) {
    if (!values_.count(option))
      return fallback;
    uint64_t value = parseSize(values_[option].as<std::string>(), fmt::format("--{}", option));
    if (value == 0)
      throw UsageError(fmt::format("--{} must be at least 1", option));
    return value;
  }

  /// False when the file is not a valid module (reported).
  bool loadModule() {
    if (!values_.count("input"))
      throw UsageError("no module file");
    path_ = values_["input"].as<std::string>();
    if (!std::filesystem::exists(path_))
      throw UsageError(fmt::format("cannot read '{}'", path_));
    auto module = wfx::readFile(path_);
    if (!module) {
      std::cerr << module.error().str() << "\n";
      return false;
    }
    module_ = std::move(*module);
    return true;
  }

  void chooseKernel() {
    if (!values_.count("kernel"))
      throw UsageError("--kernel is required");
    std::string name = values_["kernel"].as<std::string>();
    kernel_ = module_.findKernel(name);
    if (!kernel_) {
      std::string names;
      for (const wfx::Kernel &kernel : module_.kernels)
        names += (names.empty() ? "" : ", ") + kernel.name;
      throw UsageError(fmt::format("no kernel '{}' in {} (it has: {})", name, path_,
                                   names.empty() ? "none" : names));
    }
  }

  const isa::Config &chooseConfig() {
    std::string name = values_.count("config") ? values_["config"].as<std::string>()
                                               : std::string(isa::kDefaultConfig);
    const isa::Config *config = isa::findConfig(name);
    if (!config) {
      std::string names;
      for (const isa::Config &c : isa::kConfigs)
        names += fmt::format("{}{}", names.empty() ? "" : ", ", c.name);
      throw UsageError(fmt::format("no configuration '{}' (there are: {})", name, names));
    }
    return *config;
  }

  void placeModule(BumpAllocator &allocator) {
    wfx::Placement placement = wfx::placeSegments(module_, memory_->base());
    if (placement.end > allocator.end())
      throw UsageError("the module does not fit in device memory");
    auto loaded = wfx::load(module_, placement.bases);
    if (!loaded)
      throw UsageError(loaded.error().str());
    loaded_ = std::move(*loaded);
    memory_->write(loaded_.bases.code, loaded_.code.data(), loaded_.code.size());
    memory_->write(loaded_.bases.constant, loaded_.constant.data(), loaded_.constant.size());
    memory_->write(loaded_.bases.global, loaded_.global.data(), loaded_.global.size());
    allocator.skipTo(placement.end);
    for (const wfx::Symbol &symbol : module_.symbols)
      if (symbol.segment != wfx::Segment::Code)
        regions_.emplace(symbol.name,
                         Region{loaded_.bases.of(symbol.segment) + symbol.offset, symbol.size});
  }

  void placeBuffers(BumpAllocator &allocator) {
    if (!values_.count("buffer"))
      return;
    for (const std::string &spec : values_["buffer"].as<std::vector<std::string>>()) {
      auto [name, value] = splitAssignment(spec, "buffer");
      if (buffers_.count(name))
        throw UsageError(fmt::format("--buffer '{}' is given twice", name));
      std::vector<uint8_t> contents;
      uint64_t size = 0;
      if (value.front() == '@') {
        auto file = readBinaryFile(value.substr(1));
        if (!file)
          throw UsageError(fmt::format("--buffer {}: cannot read '{}'", name, value.substr(1)));
        contents = std::move(*file);
        size = contents.size();
      } else {
        size = parseSize(value, fmt::format("--buffer {}", name));
      }
      uint64_t address = allocator.allocate(std::max<uint64_t>(size, 1), "buffer " + name);
      memory_->write(address, contents.data(), contents.size());
      buffers_.emplace(name, Region{address, size});
      regions_[name] = Region{address, size}; // a buffer hides a module symbol of its name
    }
  }

  const Region &region(const std::string &name, const std::string &option) const {
    auto it = regions_.find(name);
    if (it == regions_.end())
      throw UsageError(fmt::format("{}: no buffer or module variable named '{}'", option, name));
    return it->second;
  }

  /// The parameter buffer from --arg, in order: at the kernel's recorded offsets when the module
  /// has its parameter layout, else packed with natural alignment.
  std::vector<uint8_t> buildParams() const {
    std::vector<std::pair<std::vector<uint8_t>, std::string>> args;
    if (values_.count("arg"))
      for (const std::string &spec : values_["arg"].as<std::vector<std::string>>())
        args.emplace_back(encodeArg(spec), spec);
    std::vector<uint8_t> params;
    const auto &layout = kernel_->params;
    if (!layout.empty() && args.size() != layout.size())
      throw UsageError(fmt::format("kernel '{}' takes {} parameters; {} --arg given", kernel_->name,
                                   layout.size(), args.size()));
    for (size_t i = 0; i < args.size(); ++i) {
      const auto &[bytes, spec] = args[i];
      uint64_t offset = alignUp(params.size(), bytes.size());
      if (!layout.empty()) {
        if (layout[i].size != bytes.size())
          throw UsageError(fmt::format("--arg {}: parameter {} of '{}' is {} bytes, not {}", spec,
                                       i, kernel_->name, layout[i].size, bytes.size()));
        offset = layout[i].offset;
      }
      params.resize(std::max<uint64_t>(params.size(), offset + bytes.size()), 0);
      std::memcpy(params.data() + offset, bytes.data(), bytes.size());
    }
    if (!layout.empty() || kernel_->paramBytes != 0) {
      if (layout.empty() && params.size() != kernel_->paramBytes)
        throw UsageError(fmt::format("kernel '{}' takes {} bytes of parameters; the --arg list "
                                     "gives {}",
                                     kernel_->name, kernel_->paramBytes, params.size()));
      params.resize(kernel_->paramBytes, 0);
    } else if (!params.empty()) {
      throw UsageError(fmt::format("kernel '{}' takes no parameters", kernel_->name));
    }
    return params;
  }

  /// One --arg TYPE:VALUE as its little-endian bytes.
  std::vector<uint8_t> encodeArg(const std::string &spec) const {
    size_t colon = spec.find(':');
    if (colon == std::string::npos)
      throw UsageError(fmt::format("--arg '{}': expected TYPE:VALUE (u32, s32, u64, s64, f32, f64, "
                                   "ptr)",
                                   spec));
    std::string type = spec.substr(0, colon), value = spec.substr(colon + 1);
    std::string what = "--arg " + spec;
    uint64_t raw = 0;
    unsigned bytes = 0;
    if (type == "ptr") {
      raw = region(value, what).address;
      bytes = 8;
    } else if (type == "f32") {
      raw = std::bit_cast<uint32_t>(float(parseReal(value, what)));
      bytes = 4;
    } else if (type == "f64") {
      raw = std::bit_cast<uint64_t>(parseReal(value, what));
      bytes = 8;
    } else if (type == "u32" || type == "s32" || type == "u64" || type == "s64") {
      bool negative = false;
      int64_t number = parseInteger(value, what, &negative);
      bytes = type[1] == '3' ? 4 : 8;
      bool isSigned = type[0] == 's';
      if (negative && !isSigned)
        throw UsageError(fmt::format("{}: negative value for an unsigned type", what));
      if (bytes == 4 &&
          (isSigned ? (number < INT32_MIN || number > INT32_MAX) : uint64_t(number) > UINT32_MAX))
        throw UsageError(fmt::format("{}: out of range for {}", what, type));
      raw = uint64_t(number);
    } else {
      throw UsageError(
          fmt::format("{}: unknown type '{}' (u32, s32, u64, s64, f32, f64, ptr)", what, type));
    }
    std::vector<uint8_t> out(bytes);
    for (unsigned i = 0; i < bytes; ++i)
      out[i] = uint8_t(raw >> (8 * i));
    return out;
  }

  func::LaunchDesc describeLaunch() const {
    Dims grid =
        parseDims(values_.count("grid") ? values_["grid"].as<std::string>() : "1", "--grid");
    if (!values_.count("block"))
      throw UsageError("--block is required");
    Dims block = parseDims(values_["block"].as<std::string>(), "--block");
    uint64_t threads = uint64_t(block.x) * block.y * block.z;
    const wfx::Dim3 &req = kernel_->reqntid;
    if (req.specified() && (req.x != block.x || req.y != block.y || req.z != block.z))
      throw UsageError(fmt::format("kernel '{}' requires blocks of {},{},{} threads", kernel_->name,
                                   req.x, req.y, req.z));
    if (kernel_->maxntid.specified() && threads > kernel_->maxntid.count())
      throw UsageError(fmt::format("kernel '{}' allows at most {} threads per block", kernel_->name,
                                   kernel_->maxntid.count()));
    func::LaunchDesc desc;
    desc.kernelName = kernel_->name;
    desc.codeBase = loaded_.bases.code;
    desc.codeSize = uint32_t(loaded_.code.size());
    desc.entryPc = kernel_->entry;
    desc.grid = {grid.x, grid.y, grid.z};
    desc.block = {block.x, block.y, block.z};
    desc.regsPerThread = kernel_->regsPerThread;
    desc.sharedStatic = kernel_->sharedBytes;
    uint64_t dynamicShared =
        values_.count("dynamic-shared")
            ? parseSize(values_["dynamic-shared"].as<std::string>(), "--dynamic-shared")
            : 0;
    if (dynamicShared > UINT32_MAX)
      throw UsageError("--dynamic-shared is too large");
    desc.sharedDynamic = uint32_t(dynamicShared);
    desc.localBytes = kernel_->localBytes;
    desc.constBase = loaded_.bases.constant;
    desc.constSize = uint32_t(loaded_.constant.size());
    desc.params = buildParams();
    desc.rtbuf = rtbuf_;
    desc.gridId = 1;
    return desc;
  }

  struct Dump {
    std::string name, path;
  };
  struct Print {
    std::string name;
    const ScalarType *type;
    uint64_t count;
  };

  /// Checks --dump and --print before the launch, so that a typo does not cost a run.
  void checkOutputs() {
    if (values_.count("dump"))
      for (const std::string &spec : values_["dump"].as<std::vector<std::string>>()) {
        auto [name, path] = splitAssignment(spec, "dump");
        region(name, "--dump");
        dumps_.push_back({name, path});
      }
    if (values_.count("print"))
      for (const std::string &spec : values_["print"].as<std::vector<std::string>>()) {
        size_t first = spec.find(':'), second = spec.find(':', first + 1);
        if (first == std::string::npos || second == std::string::npos)
          throw UsageError(fmt::format("--print '{}': expected NAME:TYPE:COUNT", spec));
        std::string name = spec.substr(0, first);
        std::string typeName = spec.substr(first + 1, second - first - 1);
        const ScalarType *type = findScalarType(typeName);
        if (!type)
          throw UsageError(fmt::format("--print '{}': unknown type '{}' ({})", spec, typeName,
                                       scalarTypeNames()));
        uint64_t count = parseSize(spec.substr(second + 1), "--print " + spec);
        const Region &where = region(name, "--print");
        if (count > where.size / type->bytes)
          throw UsageError(fmt::format("--print '{}': '{}' holds {} bytes, fewer than {} x {}",
                                       spec, name, where.size, count, type->name));
        prints_.push_back({name, type, count});
      }
  }

  bool writeOutputs() {
    bool ok = true;
    for (const Dump &dump : dumps_) {
      const Region &where = regions_.at(dump.name);
      std::vector<uint8_t> bytes(where.size);
      memory_->read(where.address, bytes.data(), bytes.size());
      if (!writeBinaryFile(dump.path, bytes.data(), bytes.size())) {
        std::cerr << fmt::format("warpforge emu: cannot write '{}'\n", dump.path);
        ok = false;
      }
    }
    for (const Print &print : prints_) {
      const Region &where = regions_.at(print.name);
      std::vector<uint8_t> bytes(print.count * print.type->bytes);
      memory_->read(where.address, bytes.data(), bytes.size());
      std::cout << fmt::format("{}: {} x {}\n", print.name, print.count, print.type->name);
      constexpr uint64_t kPerLine = 8;
      for (uint64_t i = 0; i < print.count; i += kPerLine) {
        std::string line = fmt::format("  [{}]", i);
        for (uint64_t j = i; j < std::min(print.count, i + kPerLine); ++j)
          line += " " + formatElement(*print.type, bytes.data() + j * print.type->bytes);
        std::cout << line << "\n";
      }
    }
    return ok;
  }

  /// An empty device heap, found by the kernel through the runtime area (as the runtime does).
  void reserveDeviceHeap(BumpAllocator &allocator) {
    isa::dev::DeviceHeap header = {};
    header.arenaBytes = kDeviceHeapBytes;
    uint64_t heap = allocator.allocate(sizeof header + header.arenaBytes, "the device heap");
    header.arena = heap + sizeof header;
    memory_->write(heap, &header, sizeof header);
    memory_->write(rtbuf_ + offsetof(isa::dev::RuntimeArea, deviceHeap), &heap, sizeof heap);
  }

  const po::variables_map &values_;
  std::string path_;
  wfx::Module module_;
  wfx::LoadedModule loaded_;
  const wfx::Kernel *kernel_ = nullptr;
  func::Memory *memory_ = nullptr;
  uint64_t rtbuf_ = 0;
  std::map<std::string, Region> buffers_;
  std::map<std::string, Region> regions_; ///< buffers and module variables, by name
  std::vector<Dump> dumps_;
  std::vector<Print> prints_;
};

} // namespace

int runEmu(const std::vector<std::string> &args) {
  CommandLine line;
  line.usage =
      "usage: warpforge emu FILE.wfx --kernel NAME --grid X[,Y,Z] --block X[,Y,Z] [options]\n\n"
      "Runs one kernel on the functional emulator. The module's code, constants and globals\n"
      "are placed at the start of device memory, then the runtime area, then the buffers in\n"
      "the order given. A kernel fault is reported and the exit status is 1.";
  line.details = "Example:\n  warpforge emu vadd.wfx -k vadd -g 4 -b 256 --buffer a=@a.bin "
                 "--buffer b=@b.bin\n      --buffer c=4k -a ptr:a -a ptr:b -a ptr:c -a u32:1024 "
                 "--dump c=c.bin\n";
  line.options.add_options()("kernel,k", po::value<std::string>()->value_name("NAME"),
                             "the kernel to run (required)")(
      "grid,g", po::value<std::string>()->value_name("X[,Y,Z]"), "blocks in the grid (default 1)")(
      "block,b", po::value<std::string>()->value_name("X[,Y,Z]"), "threads in a block (required)")(
      "config,c", po::value<std::string>()->value_name("NAME"),
      "GPU configuration (default: default; see 'warpforge configs')")(
      "buffer",
      po::value<std::vector<std::string>>()->composing()->value_name("NAME=SIZE|NAME=@FILE"),
      "allocate a device buffer: SIZE zeroed bytes (suffix k, M, G) or a file's contents")(
      "arg,a", po::value<std::vector<std::string>>()->composing()->value_name("TYPE:VALUE"),
      "a kernel argument, in order; TYPE is u32, s32, u64, s64, f32, f64, or ptr (VALUE names a "
      "buffer or module variable)")(
      "dump", po::value<std::vector<std::string>>()->composing()->value_name("NAME=FILE"),
      "after the run, write a buffer or module variable to FILE")(
      "print", po::value<std::vector<std::string>>()->composing()->value_name("NAME:TYPE:COUNT"),
      "after the run, print COUNT elements of TYPE (u8..s64, f32, f64, x8..x64 hex) from NAME")(
      "dynamic-shared", po::value<std::string>()->value_name("BYTES"),
      "dynamic shared memory per block")("threads,j", po::value<std::string>()->value_name("N"),
                                         "host threads running the cores")(
      "trace", po::value<std::string>()->value_name("FILE"),
      "write the commit trace (one line per warp instruction) to FILE")(
      "timeline", po::value<std::string>()->value_name("FILE"),
      "write a timeline of warp activity (Chrome trace-event JSON, for Perfetto and 'warpforge "
      "report') to FILE")(
      "watchdog", po::value<std::string>()->value_name("N"), "fault after N warp instructions")(
      "stats", po::value<std::string>()->implicit_value("")->value_name("[=FILE]"),
      "print instruction and cycle counts to stderr; with =FILE also write every statistic "
      "(names, units, descriptions, values) to FILE as JSON");
  po::variables_map values;
  if (!parseCommandLine(args, line, values))
    return kExitOk;
  return EmuRun(values).run();
}

} // namespace wf::driver

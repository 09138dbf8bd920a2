// Execution profiles of runtime-API launches (profile.h, docs/runtime.md).
#include "profile.h"

#include "warpforge/isa/isa.gen.h"
#include "warpforge/ptx/Parser.h"
#include "warpforge/runtime/runtime.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>

namespace wf::rt {
namespace {

struct Estimate {
  uint64_t ptxExecuted = 0; ///< PTX warp instructions executed (estimate)
  uint32_t ptxStatic = 0;   ///< PTX instructions in the function
  uint32_t ptxNoCode = 0;   ///< PTX instructions of blocks that produced no native code
};

bool endsBlock(ptx::Op Op) {
  return Op == ptx::Op::Bra || Op == ptx::Op::BrxIdx || Op == ptx::Op::Ret || Op == ptx::Op::Exit ||
         Op == ptx::Op::Trap;
}

/// Every instruction of a PTX basic block runs as often as the block (counting warp executions,
/// guarded instructions included), and the block runs as often as the lowest-addressed native
/// instruction of the first of its PTX instructions that produced code: the start of a lowered
/// sequence runs once per execution of the PTX instruction, whatever loops the lowering contains.
/// `lowestPc` maps a PTX line to the lowest native pc carrying it within the function.
Estimate estimatePtx(const ptx::Function &F, const std::map<uint32_t, uint32_t> &lowestPc,
                     const std::vector<uint64_t> &counts) {
  Estimate E;
  std::vector<uint32_t> Lines; // of the current block
  auto CloseBlock = [&] {
    if (Lines.empty())
      return;
    uint64_t Runs = 0;
    bool Found = false;
    for (uint32_t Line : Lines)
      if (auto It = lowestPc.find(Line); It != lowestPc.end()) {
        Runs = counts[It->second / isa::kInstBytes];
        Found = true;
        break;
      }
    if (!Found)
      E.ptxNoCode += uint32_t(Lines.size());
    E.ptxExecuted += Runs * Lines.size();
    Lines.clear();
  };
  for (const ptx::Statement &S : F.body) {
    if (S.kind == ptx::StmtKind::Label) {
      CloseBlock();
      continue;
    }
    if (S.kind != ptx::StmtKind::Instr)
      continue;
    ++E.ptxStatic;
    Lines.push_back(S.inst.loc.line);
    if (endsBlock(S.inst.op))
      CloseBlock();
  }
  CloseBlock();
  return E;
}

void writeReportAtExit() {
  if (Profiler *P = Profiler::fromEnvironment())
    P->writeReport();
}

} // namespace

Profiler *Profiler::fromEnvironment() {
  static Profiler *Instance = [] {
    const char *Path = std::getenv("WARPFORGE_PROFILE");
    if (!Path || !*Path)
      return static_cast<Profiler *>(nullptr);
    std::atexit(writeReportAtExit);
    return new Profiler(Path); // never destroyed: the report is written from atexit
  }();
  return Instance;
}

uint64_t Profiler::countersFor(Device &device, const ModuleRecord &module) {
  std::lock_guard Lock(mutex_);
  ModuleProfile &MP = modules_[&module];
  MP.module = &module;
  size_t Insts = module.placed.code.size() / isa::kInstBytes;
  if (MP.totals.size() != Insts)
    MP.totals.assign(Insts, 0);
  if (!MP.counters && Insts) {
    MP.counters = device.allocate(Insts * sizeof(uint64_t), 256);
    if (MP.counters)
      device.fill(MP.counters, 0, Insts * sizeof(uint64_t));
  }
  return MP.counters;
}

void Profiler::collect(Device &device, const ModuleRecord &module, const std::string &kernel) {
  std::lock_guard Lock(mutex_);
  auto It = modules_.find(&module);
  if (It == modules_.end() || !It->second.counters)
    return;
  ModuleProfile &MP = It->second;
  std::vector<uint64_t> Launch(MP.totals.size());
  uint64_t Bytes = Launch.size() * sizeof(uint64_t);
  device.synchronize();
  if (!device.read(MP.counters, Launch.data(), Bytes))
    return;
  device.fill(MP.counters, 0, Bytes);
  for (size_t K = 0; K < Launch.size(); ++K)
    MP.totals[K] += Launch[K];
  ++MP.launches[kernel];
}

void Profiler::forgetDevice() {
  std::lock_guard Lock(mutex_);
  for (auto &[M, MP] : modules_)
    MP.counters = 0;
}

void Profiler::writeReport() {
  std::lock_guard Lock(mutex_);
  std::FILE *Out = std::fopen(path_.c_str(), "a");
  if (!Out) {
    std::fprintf(stderr, "warpforge: cannot write the profile to '%s'\n", path_.c_str());
    return;
  }
  // Columns (tab-separated): module, function, kind, launches, PTX instructions (static),
  // native instructions (static), PTX warp instructions executed (estimate), native warp
  // instructions executed, PTX instructions in blocks without native code, registers per thread.
  unsigned ModuleIndex = 0;
  for (auto &[Key, MP] : modules_) {
    ++ModuleIndex;
    const ModuleRecord &M = *MP.module;
    std::optional<ptx::Module> Parsed;
    if (!M.ptx.empty())
      if (auto P = ptx::parseModule(M.ptx))
        Parsed = std::move(*P);
    for (const wfx::Symbol &Sym : M.image.symbols) {
      if (Sym.segment != wfx::Segment::Code || !Sym.size)
        continue;
      uint32_t Begin = Sym.offset, End = Sym.offset + Sym.size;
      uint64_t Native = 0;
      std::map<uint32_t, uint32_t> LowestPc;
      for (uint32_t Pc = Begin; Pc < End; Pc += isa::kInstBytes) {
        Native += MP.totals[Pc / isa::kInstBytes];
        const wfx::LineRow *Row = M.image.lineAt(Pc);
        if (Row && Row->line && Row->codeOffset >= Begin)
          LowestPc.emplace(Row->line, Pc); // keeps the first (lowest) pc of each line
      }
      const wfx::Kernel *K = M.image.findKernel(Sym.name);
      auto Launches = MP.launches.find(Sym.name);
      Estimate E;
      bool HaveEstimate = false;
      if (Parsed)
        for (const ptx::Function &F : Parsed->functions)
          if (F.name == Sym.name && !F.body.empty()) {
            E = estimatePtx(F, LowestPc, MP.totals);
            HaveEstimate = true;
          }
      if (!Native && Launches == MP.launches.end())
        continue; // never ran
      std::fprintf(Out, "%u\t%s\t%s\t%llu\t", ModuleIndex, Sym.name.c_str(),
                   K ? "kernel" : "function",
                   (unsigned long long)(Launches != MP.launches.end() ? Launches->second : 0));
      if (HaveEstimate)
        std::fprintf(Out, "%u\t", E.ptxStatic);
      else
        std::fprintf(Out, "-\t");
      std::fprintf(Out, "%u\t", Sym.size / isa::kInstBytes);
      if (HaveEstimate)
        std::fprintf(Out, "%llu\t", (unsigned long long)E.ptxExecuted);
      else
        std::fprintf(Out, "-\t");
      std::fprintf(Out, "%llu\t%u\t%u\n", (unsigned long long)Native,
                   HaveEstimate ? E.ptxNoCode : 0, K ? K->regsPerThread : 0);
    }
  }
  std::fclose(Out);
}

} // namespace wf::rt

// Simulation speed of the cycle model's GPU (sim/cycle gpu.h): simulated core-cycles per second of
// this process's CPU time, on kernels built with the instruction builder, in a named configuration.
//
//   wf_bench_cycle_gpu [--quick] [SCENARIO]     SCENARIO: fma-loop, saxpy (default: both, each in a
//                                               process of its own: SystemC elaborates once)
#include "warpforge/cycle/gpu.h"

#include "../tests/func/inst_builder.h"

#include <cstdio>
#include <cstring>
#include <ctime>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <vector>

extern char **environ;

using namespace wf;
using isa::Opcode;
using isa::SReg;
using test::Code;
using test::Inst;

namespace {

double cpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

/// The golden model (the emulator's plugin, found like every device plugin) and a bump allocator
/// over its device memory.
struct Setup {
  std::unique_ptr<isa::GoldenModel> model;
  uint64_t next = isa::kGlobalBase + 0x10000;
  uint64_t place(const void *data, uint64_t bytes) {
    uint64_t a = next;
    next += (bytes + 255) / 256 * 256;
    model->write(a, data, bytes);
    return a;
  }
};

Inst s2r(unsigned rd, SReg s) { return Inst(Opcode::S2R).rd(rd).sr(s); }
Inst mov32(unsigned rd, uint32_t v) { return Inst(Opcode::MOV32I).rd(rd).imm(v); }

int run(const std::string &scenario, bool quick) {
  const isa::Config &config = *isa::findConfig("default");
  auto params = cycle::GpuParams::fromConfig(config);
  if (!params) {
    std::fprintf(stderr, "%s\n", params.error.c_str());
    return 1;
  }
  cycle::Gpu gpu("gpu", *params.value);
  Setup s;
  std::string error;
  s.model = isa::GoldenModel::open("func", std::string(config.name), error);
  if (!s.model) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 1;
  }
  Code code;
  isa::LaunchDesc d;
  d.kernelName = scenario;
  d.regsPerThread = 32;
  std::vector<uint8_t> params8;
  if (scenario == "fma-loop") {
    // Eight independent FFMA chains, `iterations` times: compute-bound, every warp resident.
    const uint32_t iterations = quick ? 50 : 400;
    code << mov32(1, 0x3f800000) << mov32(2, 0x3f000000) << mov32(3, iterations);
    for (unsigned r = 8; r < 16; ++r)
      code << mov32(r, r);
    code.label("loop");
    for (unsigned r = 8; r < 16; ++r)
      code << Inst(Opcode::FFMA).rd(r).ra(r).rb(1).rc(2);
    code << Inst(Opcode::IADD_I).rd(3).ra(3).imm(uint32_t(-1))
         << Inst(Opcode::ISETP_I).pd(0).ra(3).imm(0).mod("cmp", "NE")
         << Inst(Opcode::BRA).guard(0).target("loop") << Inst(Opcode::EXIT);
    d.grid = {config.cores * 4, 1, 1};
    d.block = {256, 1, 1};
  } else if (scenario == "saxpy") {
    // y = 2x + y over n floats: memory-bound, through the coalescer, L2 and DRAM.
    const uint32_t n = quick ? (1u << 16) : (1u << 20);
    std::vector<float> x(n, 1.0f), y(n, 2.0f);
    uint64_t xa = s.place(x.data(), n * 4), ya = s.place(y.data(), n * 4);
    params8.resize(16);
    std::memcpy(params8.data(), &xa, 8);
    std::memcpy(params8.data() + 8, &ya, 8);
    code << s2r(0, SReg::TID_X) << s2r(1, SReg::CTAID_X) << s2r(2, SReg::NTID_X)
         << Inst(Opcode::IMAD).rd(0).ra(1).rb(2).rc(0) << mov32(3, 4)
         << Inst(Opcode::LDP).rd(4).imm(0).mod("size", "B64")
         << Inst(Opcode::LDP).rd(6).imm(8).mod("size", "B64")
         << Inst(Opcode::IMADWIDE).rd(4).ra(0).rb(3).rc(4).mod("ty", "U32")
         << Inst(Opcode::IMADWIDE).rd(6).ra(0).rb(3).rc(6).mod("ty", "U32")
         << Inst(Opcode::LDG).rd(8).ra(4).mod("size", "B32")
         << Inst(Opcode::LDG).rd(9).ra(6).mod("size", "B32") << mov32(10, 0x40000000)
         << Inst(Opcode::FFMA).rd(9).ra(10).rb(8).rc(9)
         << Inst(Opcode::STG).ra(6).rd(9).mod("size", "B32") << Inst(Opcode::EXIT);
    d.grid = {n / 256, 1, 1};
    d.block = {256, 1, 1};
  } else {
    std::fprintf(stderr, "unknown scenario '%s'\n", scenario.c_str());
    return 2;
  }
  std::vector<uint64_t> words = code.finish();
  d.codeBase = s.place(words.data(), words.size() * 8);
  d.codeSize = uint32_t(words.size() * 8);
  d.params = params8;

  const double start = cpuSeconds();
  isa::LaunchResult r = gpu.launch(*s.model, d);
  const double cpu = cpuSeconds() - start;
  if (r.fault) {
    std::fprintf(stderr, "%s: %s\n", scenario.c_str(), r.fault->describe().c_str());
    return 1;
  }
  const double coreCycles = double(r.cycles) * config.cores;
  std::printf("%-9s default (%u cores): %9llu GPU cycles, %10llu warp insts in %6.2f s cpu: "
              "%8.0f core-cycles/s, %8.0f GPU cycles/s, %9.0f warp insts/s, IPC %.2f\n",
              scenario.c_str(), config.cores, (unsigned long long)r.cycles,
              (unsigned long long)r.warpInsts, cpu, coreCycles / cpu, double(r.cycles) / cpu,
              double(r.warpInsts) / cpu, double(r.warpInsts) / double(r.cycles));
  return 0;
}

} // namespace

int sc_main(int, char **) { return 0; } // libsystemc wants one; main below is the entry point

int main(int argc, char **argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  bool quick = false;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0)
      quick = true;
    else
      only = argv[i];
  }
  if (!only.empty())
    return run(only, quick);
  int failed = 0;
  for (const char *scenario : {"fma-loop", "saxpy"}) {
    std::vector<char *> args = {argv[0], const_cast<char *>(scenario)};
    if (quick)
      args.push_back(const_cast<char *>("--quick"));
    args.push_back(nullptr);
    pid_t pid = 0;
    if (posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, args.data(), environ) != 0)
      return 1;
    int status = 0;
    waitpid(pid, &status, 0);
    failed += !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  return failed ? 1 : 0;
}

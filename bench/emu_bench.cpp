//===- emu_bench.cpp - Speed of the functional emulator ------------------------===//
//
// Runs a compute-bound kernel (FFMA and IMAD chains in a loop) and a memory-bound kernel (saxpy
// over a large vector) on the default configuration, with one host thread and with every host
// thread, and prints thread-instructions per second. Results are checked, so a fast wrong
// emulator does not pass.
//
//   wf_bench_emu [--quick] [--only compute|saxpy]
//   wf_bench_emu --scaling [--quick]
//
// --scaling runs the compute kernel on the `large` configuration (16 cores) with 1, 2, 4, 8 and 16
// host threads and prints the speed-up over one host thread (bench/README.md).
//
//===----------------------------------------------------------------------===//

#include "inst_builder.h"
#include "warpforge/func/device.h"

#include <fmt/format.h>

#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>
#include <ctime>
#include <string_view>
#include <thread>
#include <vector>

using namespace wf;
using wf::isa::Opcode;
using wf::isa::SReg;
using wf::test::Code;
using wf::test::Inst;

namespace {

Inst mov32(unsigned rd, uint32_t v) { return Inst(Opcode::MOV32I).rd(rd).imm(v); }
Inst s2r(unsigned rd, SReg s) { return Inst(Opcode::S2R).rd(rd).sr(s); }

/// rd = global thread index; pair = param pointer + rd * 4.
void prologue(Code &c, unsigned paramOffset, unsigned pair) {
  c << s2r(0, SReg::TID_X) << s2r(1, SReg::CTAID_X) << s2r(2, SReg::NTID_X)
    << Inst(Opcode::IMAD).rd(0).ra(1).rb(2).rc(0)
    << Inst(Opcode::LDP).rd(pair).imm(paramOffset).mod("size", "B64") << mov32(1, 4)
    << Inst(Opcode::IMADWIDE).rd(pair).ra(0).rb(1).rc(pair).mod("ty", "U32");
}

/// Each thread: x = gid; loop `iters` times over 8 dependent FFMA chains and 4 IMAD chains;
/// store the sum. 15 instructions per iteration.
Code computeKernel(uint32_t iters) {
  Code c;
  prologue(c, 0, 2);
  c << Inst(Opcode::I2F).rd(4).ra(0).mod("dst", "F32").mod("src", "U32"); // x = float(gid)
  for (unsigned k = 0; k < 8; ++k)
    c << Inst(Opcode::MOV).rd(8 + k).ra(4);
  for (unsigned k = 0; k < 4; ++k)
    c << Inst(Opcode::MOV).rd(16 + k).ra(0);
  c << mov32(5, 0x3f7ff000) << mov32(6, 0x3c000000) << mov32(7, 0) << mov32(20, 1664525)
    << mov32(21, 1013904223);
  c.label("loop");
  for (unsigned k = 0; k < 8; ++k) // x = x * 0.99997 + 0.0078125
    c << Inst(Opcode::FFMA).rd(8 + k).ra(8 + k).rb(5).rc(6);
  for (unsigned k = 0; k < 4; ++k) // LCG
    c << Inst(Opcode::IMAD).rd(16 + k).ra(16 + k).rb(20).rc(21);
  c << Inst(Opcode::IADD_I).rd(7).ra(7).imm(1)
    << Inst(Opcode::ISETP_I).pd(0).ra(7).imm(iters).mod("cmp", "LT").mod("ty", "U32")
    << Inst(Opcode::BRA).guard(0).target("loop");
  for (unsigned k = 1; k < 8; ++k)
    c << Inst(Opcode::FADD).rd(8).ra(8).rb(8 + k);
  c << Inst(Opcode::IADD).rd(16).ra(16).rb(17) << Inst(Opcode::IADD).rd(16).ra(16).rb(18)
    << Inst(Opcode::IADD).rd(16).ra(16).rb(19) << Inst(Opcode::IADD).rd(8).ra(8).rb(16)
    << Inst(Opcode::STG).ra(2).rd(8) << Inst(Opcode::EXIT);
  return c;
}

/// y[i] = a * x[i] + y[i] for one element per thread.
Code saxpyKernel() {
  Code c;
  prologue(c, 0, 2); // R2:R3 = &x[i]
  c << Inst(Opcode::LDP).rd(4).imm(8).mod("size", "B64") << mov32(1, 4)
    << Inst(Opcode::IMADWIDE).rd(4).ra(0).rb(1).rc(4).mod("ty", "U32") // R4:R5 = &y[i]
    << Inst(Opcode::LDP).rd(6).imm(16)                                 // a
    << Inst(Opcode::LDG).rd(7).ra(2) << Inst(Opcode::LDG).rd(8).ra(4)
    << Inst(Opcode::FFMA).rd(8).ra(6).rb(7).rc(8) << Inst(Opcode::STG).ra(4).rd(8)
    << Inst(Opcode::EXIT);
  return c;
}

struct Figure {
  double seconds;    ///< wall clock
  double cpuSeconds; ///< CPU time of the process (all host threads)
  uint64_t threadInsts;
};

double cpuNow() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + ts.tv_nsec * 1e-9;
}

Figure timeLaunch(func::Device &dev, const func::LaunchDesc &desc, unsigned hostThreads) {
  func::RunOptions opts;
  opts.hostThreads = hostThreads;
  double c0 = cpuNow();
  auto t0 = std::chrono::steady_clock::now();
  func::LaunchResult r = dev.launch(desc, opts);
  auto t1 = std::chrono::steady_clock::now();
  double c1 = cpuNow();
  if (r.fault) {
    fmt::print(stderr, "fault: {}\n", r.fault->describe());
    std::exit(1);
  }
  return {std::chrono::duration<double>(t1 - t0).count(), c1 - c0, r.threadInsts};
}

func::LaunchDesc place(func::Device &dev, const Code &code, uint64_t at, func::Dim3 grid,
                       func::Dim3 block, std::vector<uint8_t> params, uint32_t regs) {
  std::vector<uint64_t> words = code.finish();
  dev.memory().write(at, words.data(), words.size() * 8);
  func::LaunchDesc d;
  d.kernelName = "bench";
  d.codeBase = at;
  d.codeSize = uint32_t(words.size() * 8);
  d.grid = grid;
  d.block = block;
  d.regsPerThread = regs; // what a register allocator would report for the kernel
  d.params = std::move(params);
  return d;
}

template <class T> void append(std::vector<uint8_t> &v, T x) {
  uint8_t b[sizeof x];
  std::memcpy(b, &x, sizeof x);
  v.insert(v.end(), b, b + sizeof x);
}

void report(std::string_view name, unsigned threads, const Figure &f) {
  // Per CPU-second is the figure that does not depend on other load on the machine.
  fmt::print("{:<8} host threads {:>2}: {:>8.3f} s wall, {:>8.3f} s cpu, {:>11} thread-insts, "
             "{:>7.1f} M/s wall, {:>7.1f} M/s per cpu-second\n",
             name, threads, f.seconds, f.cpuSeconds, f.threadInsts, f.threadInsts / f.seconds / 1e6,
             f.threadInsts / f.cpuSeconds / 1e6);
}

/// The compute kernel's stored value for thread `gid` after `iters` iterations.
uint32_t computeExpected(uint32_t gid, uint32_t iters) {
  float x = float(gid);
  for (uint32_t i = 0; i < iters; ++i)
    x = std::fma(x, std::bit_cast<float>(0x3f7ff000u), 0.0078125f);
  float sum = x;
  for (unsigned k = 1; k < 8; ++k)
    sum = sum + x;
  uint32_t lcg = gid;
  for (uint32_t i = 0; i < iters; ++i)
    lcg = lcg * 1664525u + 1013904223u;
  return std::bit_cast<uint32_t>(sum) + 4 * lcg;
}

/// Host-thread scaling: the compute kernel on `large` (16 cores) with 1..16 host threads.
int scaling(bool quick) {
  const isa::Config &cfg = *isa::findConfig("large");
  func::Device dev(cfg);
  fmt::print("scaling: configuration '{}': {} cores, {} lanes; host threads available: {}\n",
             cfg.name, cfg.cores, cfg.lanes, std::thread::hardware_concurrency());
  const uint32_t iters = quick ? 32 : 1024, blocks = 16 * 32, threads = 256;
  const uint64_t out = isa::kGlobalBase + (1 << 20);
  std::vector<uint8_t> params;
  append(params, out);
  auto desc = place(dev, computeKernel(iters), isa::kGlobalBase, {blocks, 1, 1}, {threads, 1, 1},
                    params, 24);
  double base = 0;
  for (unsigned t : {1u, 2u, 4u, 8u, 16u}) {
    dev.memory().fill(out, 0, uint64_t(blocks) * threads * 4);
    Figure f = timeLaunch(dev, desc, t);
    report("scaling", t, f);
    if (t == 1)
      base = f.seconds;
    fmt::print("scaling  host threads {:>2}: speed-up {:.2f} over one host thread\n", t,
               base / f.seconds);
    for (uint32_t gid : {0u, 4097u, blocks * threads - 1}) {
      uint32_t got = 0;
      dev.memory().read(out + 4ull * gid, &got, 4);
      if (got != computeExpected(gid, iters)) {
        fmt::print(stderr, "scaling: result mismatch at thread {} with {} host threads\n", gid, t);
        return 1;
      }
    }
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  bool quick = false, scale = false;
  std::string_view only;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--quick")
      quick = true;
    else if (arg == "--scaling")
      scale = true;
    else if (arg == "--only" && i + 1 < argc)
      only = argv[++i];
  }
  if (scale)
    return scaling(quick);
  const isa::Config &cfg = *isa::findConfig("default");
  func::Device dev(cfg);
  unsigned all = std::max(1u, std::thread::hardware_concurrency());
  fmt::print("configuration '{}': {} cores, {} lanes; host threads available: {}\n", cfg.name,
             cfg.cores, cfg.lanes, all);

  const uint64_t codeAt = isa::kGlobalBase;
  // Compute: 64 blocks of 256 threads, `iters` iterations of 15 instructions.
  if (only.empty() || only == "compute") {
    uint32_t iters = quick ? 64 : 2048;
    uint32_t blocks = 64, threads = 256, n = blocks * threads;
    uint64_t out = isa::kGlobalBase + (1 << 20);
    std::vector<uint8_t> params;
    append(params, out);
    auto desc =
        place(dev, computeKernel(iters), codeAt, {blocks, 1, 1}, {threads, 1, 1}, params, 24);
    for (unsigned t : {1u, all}) {
      Figure f = timeLaunch(dev, desc, t);
      report("compute", t, f);
    }
    // Check one thread against the host.
    uint32_t gid = 12345 % n, got;
    dev.memory().read(out + 4 * gid, &got, 4);
    uint32_t expect = computeExpected(gid, iters);
    if (got != expect) {
      fmt::print(stderr, "compute result mismatch: {:08x} != {:08x}\n", got, expect);
      return 1;
    }
  }
  // Memory: saxpy over n floats, one element per thread.
  if (only.empty() || only == "saxpy") {
    uint32_t n = quick ? (1u << 20) : (1u << 23), threads = 256;
    uint64_t x = isa::kGlobalBase + (16 << 20), y = x + uint64_t(n) * 4;
    std::vector<float> hx(n), hy(n);
    for (uint32_t i = 0; i < n; ++i) {
      hx[i] = float(i);
      hy[i] = 1.0f;
    }
    dev.memory().write(x, hx.data(), n * 4);
    std::vector<uint8_t> params;
    append(params, x);
    append(params, y);
    append(params, 2.0f);
    auto desc = place(dev, saxpyKernel(), codeAt, {n / threads, 1, 1}, {threads, 1, 1}, params, 10);
    for (unsigned t : {1u, all}) {
      dev.memory().write(y, hy.data(), n * 4);
      Figure f = timeLaunch(dev, desc, t);
      report("saxpy", t, f);
      float got;
      dev.memory().read(y + 4 * 777, &got, 4);
      if (got != std::fma(2.0f, 777.0f, 1.0f)) {
        fmt::print(stderr, "saxpy result mismatch\n");
        return 1;
      }
    }
  }
  return 0;
}

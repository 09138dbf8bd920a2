//===- bench_ptx_parse.cpp - wf_bench_ptx_parse ---------------------------===//
//
// Part of Warpforge. Parses PTX files repeatedly and prints the parse speed
// in lines per second (not a timed test; run it by hand or from bench/).
//
//   wf_bench_ptx_parse [--seconds S] FILE...
//
// Each file is parsed until about S seconds (default 2) have passed; errors
// are printed and make the exit status 1. Speeds are given per wall-clock
// second and per second of this process's CPU time (the figure that matters on
// a busy machine: "lines per second on one host core").
//
//===----------------------------------------------------------------------===//

#include "warpforge/ptx/Parser.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  double Seconds = 2.0;
  std::vector<std::string> Files;
  for (int I = 1; I < argc; ++I) {
    if (std::strcmp(argv[I], "--seconds") == 0 && I + 1 < argc)
      Seconds = std::atof(argv[++I]);
    else
      Files.push_back(argv[I]);
  }
  if (Files.empty()) {
    std::fprintf(stderr, "usage: wf_bench_ptx_parse [--seconds S] FILE...\n");
    return 2;
  }
  int Status = 0;
  for (const std::string &Path : Files) {
    std::ifstream In(Path, std::ios::binary);
    if (!In) {
      std::fprintf(stderr, "%s: cannot open\n", Path.c_str());
      Status = 1;
      continue;
    }
    std::ostringstream SS;
    SS << In.rdbuf();
    const std::string Text = SS.str();
    const size_t Lines = static_cast<size_t>(std::count(Text.begin(), Text.end(), '\n'));
    wf::ptx::ParseOptions Opts;
    Opts.fileName = Path;
    using Clock = std::chrono::steady_clock;
    auto Start = Clock::now();
    std::clock_t CpuStart = std::clock();
    size_t Runs = 0;
    size_t Instrs = 0;
    bool Failed = false;
    do {
      auto M = wf::ptx::parseModule(Text, Opts);
      ++Runs;
      if (!M) {
        std::fprintf(stderr, "%s\n", M.error().str().c_str());
        Failed = true;
        break;
      }
      Instrs = 0;
      for (const auto &F : M->functions)
        Instrs += F.numInstructions();
    } while (std::chrono::duration<double>(Clock::now() - Start).count() < Seconds);
    double Elapsed = std::chrono::duration<double>(Clock::now() - Start).count();
    double Cpu = double(std::clock() - CpuStart) / CLOCKS_PER_SEC;
    if (Cpu <= 0)
      Cpu = Elapsed;
    if (Failed) {
      Status = 1;
      continue;
    }
    std::printf("%s: %zu lines, %zu instructions, %zu runs in %.2f s (%.2f s CPU): "
                "%.0f lines/s wall, %.0f lines/s CPU, %.1f MB/s CPU\n",
                Path.c_str(), Lines, Instrs, Runs, Elapsed, Cpu, double(Lines) * Runs / Elapsed,
                double(Lines) * Runs / Cpu, double(Text.size()) * Runs / Cpu / 1e6);
  }
  return Status;
}

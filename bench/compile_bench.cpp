//===- compile_bench.cpp - wf_bench_compile -------------------------------===//
//
// Part of Warpforge. The whole compiler's speed: PTX text to an encoded .wfx module (parse,
// lowering, optimization, register allocation, scheduling, encoding), repeated over each input
// for about S seconds, in PTX lines per second of this process's CPU time (the bar is
// "lines per second on one host core") and per wall-clock second. The parse alone is timed
// beside it, so the two shares are visible.
//
//   wf_bench_compile [--seconds S] [--config NAME] FILE.ptx...
//
//===----------------------------------------------------------------------===//

#include "warpforge/codegen/Codegen.h"
#include "warpforge/module/wfx.h"
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

namespace {

struct Timing {
  double cpu = 0, wall = 0;
  size_t runs = 0;
};

/// Runs `Step` until `Seconds` of wall time have passed (at least once); false on failure.
template <typename StepFn> bool timeRepeated(double Seconds, Timing &T, StepFn Step) {
  using Clock = std::chrono::steady_clock;
  auto Start = Clock::now();
  std::clock_t CpuStart = std::clock();
  do {
    if (!Step())
      return false;
    ++T.runs;
  } while (std::chrono::duration<double>(Clock::now() - Start).count() < Seconds);
  T.wall = std::chrono::duration<double>(Clock::now() - Start).count();
  T.cpu = double(std::clock() - CpuStart) / CLOCKS_PER_SEC;
  return true;
}

} // namespace

int main(int argc, char **argv) {
  double Seconds = 1.0;
  wf::codegen::CodegenOptions Opts;
  std::vector<std::string> Files;
  for (int I = 1; I < argc; ++I) {
    if (std::strcmp(argv[I], "--seconds") == 0 && I + 1 < argc)
      Seconds = std::atof(argv[++I]);
    else if (std::strcmp(argv[I], "--config") == 0 && I + 1 < argc)
      Opts.config = argv[++I];
    else
      Files.push_back(argv[I]);
  }
  if (Files.empty()) {
    std::fprintf(stderr, "usage: wf_bench_compile [--seconds S] [--config NAME] FILE.ptx...\n");
    return 2;
  }
  int Status = 0;
  size_t TotalLines = 0;
  double ParseLinesCpu = 0, CompileLinesCpu = 0, CompileLinesWall = 0;
  std::printf("%-40s %8s %14s %14s %14s\n", "file", "lines", "parse lines/s", "compile lines/s",
              "(wall lines/s)");
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
    const size_t Lines = size_t(std::count(Text.begin(), Text.end(), '\n'));
    wf::ptx::ParseOptions PO;
    PO.fileName = Path;
    std::string Failure;
    Timing Parse, Compile;
    bool Ok = timeRepeated(Seconds / 4, Parse, [&] {
      auto M = wf::ptx::parseModule(Text, PO);
      if (!M)
        Failure = M.error().str();
      return bool(M);
    });
    Ok = Ok && timeRepeated(Seconds, Compile, [&] {
           auto M = wf::ptx::parseModule(Text, PO);
           if (!M) {
             Failure = M.error().str();
             return false;
           }
           auto W = wf::codegen::compilePtx(*M, Opts);
           if (!W) {
             Failure = W.error().str();
             return false;
           }
           auto Bytes = wf::wfx::write(*W);
           if (!Bytes) {
             Failure = Bytes.error().str();
             return false;
           }
           return true;
         });
    if (!Ok) {
      std::fprintf(stderr, "%s: %s\n", Path.c_str(), Failure.c_str());
      Status = 1;
      continue;
    }
    double ParseRate = double(Lines) * Parse.runs / Parse.cpu;
    double CompileRate = double(Lines) * Compile.runs / Compile.cpu;
    double WallRate = double(Lines) * Compile.runs / Compile.wall;
    std::printf("%-40s %8zu %14.0f %14.0f %14.0f\n", Path.substr(Path.rfind('/') + 1).c_str(),
                Lines, ParseRate, CompileRate, WallRate);
    // Totals weigh each file by its lines: total lines over total time per pass.
    TotalLines += Lines;
    ParseLinesCpu += double(Lines) / ParseRate;
    CompileLinesCpu += double(Lines) / CompileRate;
    CompileLinesWall += double(Lines) / WallRate;
  }
  if (TotalLines)
    std::printf("%-40s %8zu %14.0f %14.0f %14.0f\n", "all (one pass over every file)", TotalLines,
                double(TotalLines) / ParseLinesCpu, double(TotalLines) / CompileLinesCpu,
                double(TotalLines) / CompileLinesWall);
  return Status;
}

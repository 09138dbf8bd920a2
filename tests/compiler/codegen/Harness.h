//===- Harness.h - Compile PTX and run it on the functional emulator ------===//
#pragma once

#include "warpforge/codegen/Codegen.h"
#include "warpforge/func/device.h"
#include "warpforge/isa/config.gen.h"
#include "warpforge/module/wfx.h"
#include "warpforge/ptx/Parser.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace wf::cgtest {

inline std::string readFile(const std::string &Path) {
  std::ifstream In(Path);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

/// Bytes of a kernel parameter buffer (CUDA packing: natural alignment).
class Params {
public:
  Params &u32(uint32_t V) { return put(&V, 4); }
  Params &i32(int32_t V) { return put(&V, 4); }
  Params &f32(float V) { return put(&V, 4); }
  Params &u64(uint64_t V) { return put(&V, 8); }
  Params &f64(double V) { return put(&V, 8); }
  const std::vector<uint8_t> &bytes() const { return B; }

private:
  Params &put(const void *P, size_t N) {
    while (B.size() % N)
      B.push_back(0);
    const uint8_t *X = static_cast<const uint8_t *>(P);
    B.insert(B.end(), X, X + N);
    return *this;
  }
  std::vector<uint8_t> B;
};

/// A device with a loaded module and a bump allocator.
class Runner {
public:
  explicit Runner(std::string Config = "tiny") : Cfg(*isa::findConfig(Config)), Dev(Cfg) {}

  /// Parses and compiles; on failure records a test failure and returns false.
  bool compile(const std::string &Ptx, codegen::CodegenOptions Opts = {},
               const std::string &Name = "<test>") {
    Opts.config = std::string(Cfg.name);
    ptx::ParseOptions PO;
    PO.fileName = Name;
    auto M = ptx::parseModule(Ptx, PO);
    if (!M) {
      ADD_FAILURE() << "parse: " << M.error().str();
      return false;
    }
    auto W = codegen::compilePtx(*M, Opts);
    if (!W) {
      ADD_FAILURE() << "compile: " << W.error().str();
      return false;
    }
    Mod = *W;
    auto P = wfx::placeSegments(Mod, Next);
    auto L = wfx::load(Mod, P.bases);
    if (!L) {
      ADD_FAILURE() << "load: " << L.error().str();
      return false;
    }
    Loaded = *L;
    Dev.memory().write(P.bases.code, Loaded.code.data(), Loaded.code.size());
    Dev.memory().write(P.bases.constant, Loaded.constant.data(), Loaded.constant.size());
    Dev.memory().write(P.bases.global, Loaded.global.data(), Loaded.global.size());
    Next = (P.end + 4095) / 4096 * 4096;
    // Runtime area: header {fifo base, fifo size, write offset, assert record} + FIFO.
    RtBuf = alloc(64);
    Fifo = alloc(FifoBytes);
    uint64_t Hdr[2] = {Fifo, FifoBytes};
    Dev.memory().write(RtBuf, Hdr, 16);
    return true;
  }

  uint64_t alloc(uint64_t Bytes, uint64_t Align = 256) {
    Next = (Next + Align - 1) / Align * Align;
    uint64_t A = Next;
    Next += std::max<uint64_t>(Bytes, 1);
    return A;
  }
  template <class T> uint64_t upload(const std::vector<T> &V) {
    uint64_t A = alloc(V.size() * sizeof(T));
    Dev.memory().write(A, V.data(), V.size() * sizeof(T));
    return A;
  }
  template <class T> std::vector<T> download(uint64_t A, size_t N) {
    std::vector<T> V(N);
    Dev.memory().read(A, V.data(), N * sizeof(T));
    return V;
  }

  func::LaunchResult launch(const std::string &Kernel, func::Dim3 Grid, func::Dim3 Block,
                            const Params &P, uint32_t DynShared = 0) {
    const wfx::Kernel *K = Mod.findKernel(Kernel);
    if (!K) {
      ADD_FAILURE() << "no kernel " << Kernel;
      return {};
    }
    func::LaunchDesc D;
    D.kernelName = Kernel;
    D.codeBase = Loaded.bases.code;
    D.codeSize = uint32_t(Mod.code.size());
    D.entryPc = K->entry;
    D.grid = Grid;
    D.block = Block;
    D.regsPerThread = K->regsPerThread;
    D.sharedStatic = K->sharedBytes;
    D.sharedDynamic = DynShared;
    D.localBytes = K->localBytes;
    D.constBase = Loaded.bases.constant;
    D.constSize = uint32_t(Mod.constant.size());
    D.params = P.bytes();
    D.rtbuf = RtBuf;
    func::RunOptions RO;
    RO.watchdogWarpInsts = 50'000'000;
    return Dev.launch(D, RO);
  }

  uint64_t symbol(const std::string &Name) { return Loaded.symbolAddress(Mod, Name); }

  /// Printf records written so far: (format string, raw argument bytes).
  std::vector<std::pair<std::string, std::vector<uint8_t>>> printfRecords() {
    std::vector<std::pair<std::string, std::vector<uint8_t>>> R;
    uint32_t Used = 0;
    Dev.memory().read(RtBuf + 12, &Used, 4);
    uint32_t Off = 0;
    while (Off + 16 <= Used && Off + 16 <= FifoBytes) {
      uint32_t Hdr[2];
      uint64_t FmtAddr;
      Dev.memory().read(Fifo + Off, Hdr, 8);
      Dev.memory().read(Fifo + Off + 8, &FmtAddr, 8);
      std::string Fmt;
      for (uint64_t A = FmtAddr;; ++A) {
        char C = 0;
        Dev.memory().read(A, &C, 1);
        if (!C)
          break;
        Fmt += C;
      }
      std::vector<uint8_t> Args(Hdr[1]);
      Dev.memory().read(Fifo + Off + 16, Args.data(), Args.size());
      R.push_back({Fmt, Args});
      if (!Hdr[0])
        break;
      Off += Hdr[0];
    }
    return R;
  }

  const isa::Config &Cfg;
  func::Device Dev;
  wfx::Module Mod;
  wfx::LoadedModule Loaded;
  uint64_t Next = isa::kGlobalBase + 4096;
  uint64_t RtBuf = 0, Fifo = 0;
  static constexpr uint32_t FifoBytes = 1 << 16;
};

inline std::string faultText(const func::LaunchResult &R) {
  return R.fault ? R.fault->describe() : std::string();
}

} // namespace wf::cgtest

//===- harness.h - Running hand-built kernels on the functional emulator ------===//

#pragma once

#include "inst_builder.h"
#include "warpforge/func/device.h"
#include "warpforge/isa/config.gen.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <random>
#include <vector>

namespace wf::test {

using func::Dim3;
using func::FaultKind;
using func::LaunchResult;
using isa::Opcode;
using isa::SReg;

/// Bytes of a kernel parameter buffer.
class Params {
public:
  Params &u32(uint32_t v) { return put(&v, 4, 4); }
  Params &u64(uint64_t v) { return put(&v, 8, 8); }
  const std::vector<uint8_t> &bytes() const { return bytes_; }

private:
  Params &put(const void *p, size_t n, size_t align) {
    while (bytes_.size() % align)
      bytes_.push_back(0);
    const uint8_t *b = static_cast<const uint8_t *>(p);
    bytes_.insert(bytes_.end(), b, b + n);
    return *this;
  }
  std::vector<uint8_t> bytes_;
};

inline const isa::Config &config(std::string_view name) { return *isa::findConfig(name); }

/// A device with a bump allocator over its global memory.
class Harness {
public:
  explicit Harness(std::string_view configName = "tiny") : dev(config(configName)) {}

  uint64_t alloc(uint64_t bytes, uint64_t align = 256) {
    next_ = (next_ + align - 1) / align * align;
    uint64_t a = next_;
    next_ += bytes;
    return a;
  }
  template <class T> uint64_t upload(const std::vector<T> &v) {
    uint64_t a = alloc(std::max<uint64_t>(v.size() * sizeof(T), 1));
    EXPECT_TRUE(dev.memory().write(a, v.data(), v.size() * sizeof(T)));
    return a;
  }
  template <class T> std::vector<T> download(uint64_t addr, size_t n) {
    std::vector<T> v(n);
    EXPECT_TRUE(dev.memory().read(addr, v.data(), n * sizeof(T)));
    return v;
  }
  template <class T> T read(uint64_t addr) {
    T v{};
    EXPECT_TRUE(dev.memory().read(addr, &v, sizeof v));
    return v;
  }

  /// Places the code in device memory and describes a launch of it.
  func::LaunchDesc describe(const Code &code, Dim3 grid, Dim3 block, const Params &params = {},
                            uint32_t regs = 32) {
    std::vector<uint64_t> words = code.finish();
    func::LaunchDesc d;
    d.kernelName = "test_kernel";
    d.codeBase = upload(words);
    d.codeSize = uint32_t(words.size() * sizeof(uint64_t));
    d.grid = grid;
    d.block = block;
    d.regsPerThread = regs;
    d.params = params.bytes();
    return d;
  }

  LaunchResult run(const Code &code, Dim3 grid, Dim3 block, const Params &params = {},
                   uint32_t regs = 32, func::RunOptions options = {}) {
    // WF_TRACE=1 in the environment prints the commit trace of every launch (debugging).
    if (std::getenv("WF_TRACE") && !options.trace)
      options.trace = &std::cerr;
    return dev.launch(describe(code, grid, block, params, regs), options);
  }

  func::Device dev;

private:
  uint64_t next_ = isa::kGlobalBase + 0x10000;
};

// --- code snippets -------------------------------------------------------------------------------

inline Inst mov32(unsigned rd, uint32_t v) { return Inst(Opcode::MOV32I).rd(rd).imm(v); }
inline Inst s2r(unsigned rd, SReg s) { return Inst(Opcode::S2R).rd(rd).sr(s); }
inline Inst exitInst() { return Inst(Opcode::EXIT); }
inline Inst ldp64(unsigned rd, uint32_t offset) {
  return Inst(Opcode::LDP).rd(rd).imm(offset).mod("size", "B64");
}
inline Inst ldp32(unsigned rd, uint32_t offset) { return Inst(Opcode::LDP).rd(rd).imm(offset); }
inline Inst ldg(unsigned rd, unsigned addrPair, uint32_t offset = 0, const char *size = "B32") {
  return Inst(Opcode::LDG).rd(rd).ra(addrPair).imm(offset).mod("size", size);
}
inline Inst stg(unsigned addrPair, unsigned value, uint32_t offset = 0, const char *size = "B32") {
  return Inst(Opcode::STG).ra(addrPair).rd(value).imm(offset).mod("size", size);
}
inline Inst isetpI(unsigned pd, unsigned ra, uint32_t imm, const char *cmp,
                   bool isUnsigned = false) {
  return Inst(Opcode::ISETP_I).pd(pd).ra(ra).imm(imm).mod("cmp", cmp).mod("ty", isUnsigned ? 1 : 0);
}
inline Inst bra(const std::string &label) { return Inst(Opcode::BRA).target(label); }
inline Inst iaddI(unsigned rd, unsigned ra, uint32_t imm) {
  return Inst(Opcode::IADD_I).rd(rd).ra(ra).imm(imm);
}

/// rd = blockIdx.x * blockDim.x + threadIdx.x (uses rd, rd+1, rd+2).
inline void emitGlobalIndex(Code &c, unsigned rd) {
  c << s2r(rd, SReg::TID_X) << s2r(rd + 1, SReg::CTAID_X) << s2r(rd + 2, SReg::NTID_X)
    << Inst(Opcode::IMAD).rd(rd).ra(rd + 1).rb(rd + 2).rc(rd);
}

/// pair = (64-bit parameter at paramOffset) + index * stride (uses the scratch register).
inline void emitElementAddress(Code &c, unsigned pair, uint32_t paramOffset, unsigned index,
                               uint32_t stride, unsigned scratch) {
  c << ldp64(pair, paramOffset) << mov32(scratch, stride)
    << Inst(Opcode::IMADWIDE).rd(pair).ra(index).rb(scratch).rc(pair).mod("ty", "U32");
}

// --- element-wise instruction tests --------------------------------------------------------------
//
// Every thread loads eight input words into R4..R11, runs `body`, and stores R12..R15 and the
// predicates P0 and P1 (as 0/1). R12..R15 start at 0, P0 and P1 false.

struct LaneResult {
  std::array<uint32_t, 4> r;
  uint32_t p0, p1;
};
using LaneInput = std::array<uint32_t, 8>;

inline std::vector<LaneResult> elementwise(const std::vector<Inst> &body,
                                           const std::vector<LaneInput> &inputs,
                                           uint32_t blockSize = 32,
                                           const std::vector<Inst> &prologue = {}) {
  Harness h("tiny");
  uint32_t n = uint32_t(inputs.size());
  uint32_t blocks = (n + blockSize - 1) / blockSize;
  std::vector<LaneInput> padded = inputs;
  padded.resize(size_t(blocks) * blockSize);
  uint64_t in = h.upload(padded);
  uint64_t out = h.alloc(padded.size() * 32);

  Code c;
  emitGlobalIndex(c, 0);
  emitElementAddress(c, 2, 0, 0, 32, 1);
  c << ldg(4, 2, 0, "B128") << ldg(8, 2, 16, "B128");
  for (unsigned r = 12; r < 16; ++r)
    c << mov32(r, 0);
  c << Inst(Opcode::PLOP3).pd(0).lut(0) << Inst(Opcode::PLOP3).pd(1).lut(0);
  for (const Inst &i : prologue)
    c << i;
  for (const Inst &i : body)
    c << i;
  c << Inst(Opcode::P2R).rd(16).pa(0) << Inst(Opcode::P2R).rd(17).pa(1);
  emitElementAddress(c, 2, 8, 0, 32, 1);
  c << stg(2, 12, 0, "B128") << stg(2, 16, 16, "B64") << exitInst();

  LaunchResult r =
      h.run(c, Dim3{blocks, 1, 1}, Dim3{blockSize, 1, 1}, Params().u64(in).u64(out), 24);
  EXPECT_FALSE(r.fault.has_value()) << (r.fault ? r.fault->describe() : "");
  std::vector<uint32_t> words = h.download<uint32_t>(out, padded.size() * 8);
  std::vector<LaneResult> results(n);
  for (uint32_t i = 0; i < n; ++i) {
    for (unsigned k = 0; k < 4; ++k)
      results[i].r[k] = words[i * 8 + k];
    results[i].p0 = words[i * 8 + 4];
    results[i].p1 = words[i * 8 + 5];
  }
  return results;
}

/// Random inputs, mixed with values that matter for integer corner cases.
inline std::vector<LaneInput> randomInputs(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  static constexpr uint32_t kSpecial[] = {
      0, 1, 2, 31, 32, 33, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe, 0x12345678, 0xdeadbeef};
  std::vector<LaneInput> v(n);
  for (size_t i = 0; i < n; ++i)
    for (unsigned k = 0; k < 8; ++k) {
      uint32_t pick = rng() % 4;
      v[i][k] = pick == 0   ? kSpecial[rng() % std::size(kSpecial)]
                : pick == 1 ? rng() % 64
                            : uint32_t(rng());
    }
  return v;
}

inline uint64_t pairOf(const LaneInput &in, unsigned k) {
  return uint64_t(in[k]) | (uint64_t(in[k + 1]) << 32);
}
inline uint64_t resultPair(const LaneResult &r, unsigned k = 0) {
  return uint64_t(r.r[k]) | (uint64_t(r.r[k + 1]) << 32);
}

} // namespace wf::test

// wf_l2_atomic (the L2 bank's atomic arithmetic) against hls::atomNew (hls/atomic.h, what the
// emulator executes): every operation and type ATOM supports (the emulator's atomSupported), with
// random and edge operands (--vectors sets per combination). Integer results must match bit for
// bit; float ADD, not built in the RTL yet, must say so (supported_o low).
#include "Vwf_l2_atomic.h"
#include "common/tb_util.h"
#include "warpforge/hls/atomic.h"

#include <memory>

namespace {

using namespace wf::rtl::tb;
namespace hls = wf::hls;

bool supported(hls::AtomOp fn, hls::AtomType ty) {
  const bool isFloat = ty == hls::AtomType::F32 || ty == hls::AtomType::F64;
  switch (fn) {
  case hls::AtomOp::ADD:
  case hls::AtomOp::EXCH:
  case hls::AtomOp::CAS:
    return true;
  case hls::AtomOp::INC:
  case hls::AtomOp::DEC:
    return ty == hls::AtomType::U32;
  default:
    return !isFloat;
  }
}

} // namespace

int main(int argc, char **argv) {
  const auto opts = wf::rtl::SimOptions::parse(argc, argv, "wf_l2_atomic");
  const std::unique_ptr<VerilatedContext> ctx{new VerilatedContext};
  ctx->commandArgs(argc, argv);
  const std::unique_ptr<Vwf_l2_atomic> top{new Vwf_l2_atomic{ctx.get(), "TOP"}};
  Rng rng(opts.seed);
  uint64_t errors = 0, checked = 0;
  for (unsigned f = 0; f < 10; ++f) {
    for (unsigned t = 0; t < 6; ++t) {
      const auto fn = hls::AtomOp(f);
      const auto ty = hls::AtomType(t);
      if (!supported(fn, ty))
        continue;
      const bool wide = ty == hls::AtomType::U64 || ty == hls::AtomType::S64 ||
                        ty == hls::AtomType::F64;
      const bool isFloat = ty == hls::AtomType::F32 || ty == hls::AtomType::F64;
      for (uint64_t n = 0; n < opts.vectors; ++n) {
        uint64_t old = wide ? (uint64_t(rng.int32()) << 32) | rng.int32() : rng.int32();
        uint64_t b = wide ? (uint64_t(rng.int32()) << 32) | rng.int32() : rng.int32();
        const uint64_t c = wide ? rng.u64() : rng.u32();
        if (rng.chance(20))
          b = old; // CAS hits, MIN/MAX ties
        if (rng.chance(10))
          old = rng.below(4);
        top->fn_i = f;
        top->ty_i = t;
        top->old_i = old;
        top->b_i = b;
        top->c_i = c;
        top->eval();
        ++checked;
        if (isFloat && fn == hls::AtomOp::ADD) {
          if (top->supported_o) {
            if (errors++ < 10)
              std::fprintf(stderr, "fn %u ty %u: float ADD claims support\n", f, t);
          }
          continue;
        }
        const uint64_t want = wide ? hls::atomNew<uint64_t>(fn, ty, old, b, c)
                                   : hls::atomNew<uint32_t>(fn, ty, uint32_t(old), uint32_t(b),
                                                            uint32_t(c));
        if (!top->supported_o || top->new_o != want) {
          if (errors++ < 10)
            std::fprintf(stderr,
                         "fn %u ty %u old 0x%llx b 0x%llx c 0x%llx: rtl 0x%llx (supported %d), "
                         "hls 0x%llx\n",
                         f, t, (unsigned long long)old, (unsigned long long)b,
                         (unsigned long long)c, (unsigned long long)top->new_o,
                         int(top->supported_o), (unsigned long long)want);
        }
      }
    }
  }
  top->final();
  std::printf("wf_l2_atomic: %s, %llu operand sets, %llu mismatches (seed %llu)\n",
              errors ? "FAIL" : "PASS", (unsigned long long)checked,
              (unsigned long long)errors, (unsigned long long)opts.seed);
  return errors ? 1 : 0;
}

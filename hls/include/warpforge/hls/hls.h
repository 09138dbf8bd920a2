//===- warpforge/hls/hls.h - All bit-exact arithmetic units --------------===//
//
// Part of Warpforge. Umbrella header: the one definition of every arithmetic result of the soft
// GPU, shared by the functional emulator, the cycle model and (as reference) the RTL.
//
//   types.h      enums shared with the ISA (RoundMode, FCmp, ICmp, SfuOp, IntType, FloatType)
//   fp_common.h  formats, unpack, the generic rounding (roundPack), wide-integer helpers
//   fp_arith.h   generic add/sub/mul/fma/div/sqrt/min/max/compare/saturate/round-to-integral
//   fp32.h       f32 wrappers with FTZ          fp64.h  f64 wrappers
//   fp16.h       f16 (with FTZ) and bf16 wrappers
//   convert.h    float<->integer, float<->float, integer<->integer conversions (PTX cvt)
//   sfu.h        approximate rcp, rsqrt, sqrt, ex2, lg2, sin, cos, tanh (sfu_tables.h)
//   intops.h     integer arithmetic, shifts, logic and bit fields
//   texture.h    texture addressing, formats, point/linear filtering and gather (TEX)
//   bank_arbiter.h  shared-memory bank-conflict passes    coalescer.h  global-memory line requests
//
//===----------------------------------------------------------------------===//

#ifndef WARPFORGE_HLS_HLS_H
#define WARPFORGE_HLS_HLS_H

#include "warpforge/hls/bank_arbiter.h"
#include "warpforge/hls/coalescer.h"
#include "warpforge/hls/convert.h"
#include "warpforge/hls/fp16.h"
#include "warpforge/hls/fp32.h"
#include "warpforge/hls/fp64.h"
#include "warpforge/hls/fp_arith.h"
#include "warpforge/hls/fp_common.h"
#include "warpforge/hls/intops.h"
#include "warpforge/hls/sfu.h"
#include "warpforge/hls/texture.h"
#include "warpforge/hls/types.h"

#endif // WARPFORGE_HLS_HLS_H

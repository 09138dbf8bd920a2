// Warpforge CUDA headers: cuda_fp16.h for clang's CUDA mode. The IEEE binary16 types __half and
// __half2 and their intrinsics. Written for Warpforge.
//
// Storage: __half holds the 16 bits as an unsigned short; __half2 holds two __half (.x is the low
// 16 bits of the packed 32-bit word, .y the high). Device code uses inline PTX on .f16 / .f16x2 /
// .b16 registers (cvt.*.f16.*, add/sub/mul/fma/neg/abs/min/max.f16[x2], setp.*.f16), which our
// PTX front end lowers to f32 arithmetic with a single rounding (docs/ptx-coverage.md). Division,
// square roots and the transcendental functions go through f32 and one cvt.rn.f16.f32 (the f32
// quotient/root has more than 2*11+2 bits, so double rounding cannot occur for / and sqrt).
//
// Host side: the constructors, the conversions and the reinterpretations are __host__ __device__
// (software conversions on the host, round to nearest even); the arithmetic, comparison, math and
// warp functions and the operators are device functions.
#pragma once
#include "cuda_runtime.h"
#include "__wf_fp16_types.h"
#include "__wf_fp16_device.h"

// Warpforge: the built-in variables (threadIdx, blockIdx, blockDim, gridDim, warpSize).
#pragma once
#include "__wf_builtin_vars.h"

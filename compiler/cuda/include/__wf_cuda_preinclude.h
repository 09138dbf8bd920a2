// Warpforge CUDA headers: included before every .cu file by `warpforge compile --frontend=clang`
// (as nvcc includes cuda_runtime.h implicitly). Written for Warpforge.
#pragma once
#include "cuda_runtime.h"

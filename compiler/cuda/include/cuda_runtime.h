// Warpforge CUDA headers: cuda_runtime.h for clang's CUDA mode (-nocudainc). Device side: the
// built-in variables, vector types, synchronization, atomics, warp functions, intrinsics, printf,
// assert and the math library. Host side: declarations of the runtime API, so that the host part
// of a .cu file parses (the host runtime itself is runtime/'s). Written for Warpforge.
#pragma once

#include "__wf_host_defines.h"
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <math.h>
// Device malloc/free before <new>: clang's device operator new calls them.
extern "C" __device__ void *malloc(size_t);
extern "C" __device__ void free(void *);
#ifdef __cplusplus
#include <cmath>
#include <cstdlib>
#include <new>
#endif

#include "vector_types.h"
#include "__wf_builtin_vars.h"
#include "__wf_runtime_api.h"
#include "__wf_device_functions.h"
#include "__wf_math.h"
#include "__wf_device_extras.h"
// Texture and surface fetches (written separately; present once that work lands).
#if __has_include("__wf_texture.h")
#include "__wf_texture.h"
#endif

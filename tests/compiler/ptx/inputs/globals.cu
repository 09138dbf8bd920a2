#include "compat.h"

__constant__ float cCoeffs[8] = {1.0f, 0.5f, 0.25f, 0.125f, -1.0f, 3.14159265f, 1e-20f, 6.5e20f};
__constant__ int cTable[4] = {1, -2, 0x7fffffff, -2147483647 - 1};
__constant__ double cD[2] = {2.718281828459045, -0.0};
__device__ int gArray[256];
__device__ int gScalar = 42;
// clang 14's NVPTX back end cannot emit addresses of data globals in initializers (only of
// strings and functions), so the pointer-valued globals are nvcc-only.
#if defined(__NVCC__)
__device__ int *gPtr = &gArray[16];
#endif
__device__ const char *gMsg = "message in a global";
__device__ long long gWide[3] = {1ll << 40, -5, 0};
__device__ unsigned char gBytes[5] = {1, 2, 3, 250, 255};
__device__ short gShorts[3] = {-1, 300, 7};
struct Node {
  int value;
  Node *next;
};
#if defined(__NVCC__)
__device__ Node gTail[1] = {{2, nullptr}};
__device__ Node gNodes[2] = {{1, &gTail[0]}, {3, &gTail[0]}};
#define WF_PTRS(t) (gPtr[(t) & 7] + gNodes[(t) & 1].next->value)
#else
#define WF_PTRS(t) 0
#endif

extern "C" __global__ void useGlobals(float *out, int *iout) {
  int t = WF_TID_X();
  out[t] = cCoeffs[t & 7] * (float)cD[t & 1];
  gArray[t] = cTable[t & 3] + gScalar + WF_PTRS(t) + (int)gWide[t % 3] + gBytes[t % 5] +
              gShorts[t % 3];
  iout[t] = gMsg[t & 7];
}

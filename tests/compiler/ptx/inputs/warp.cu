#include "compat.h"

__device__ __forceinline__ int warpSum(int v) {
  for (int d = 16; d > 0; d >>= 1)
    v += WF_SHFL_DOWN(v, d);
  return v;
}

extern "C" __global__ void warpReduce(const int *in, int *out) {
  int v = in[WF_CTAID_X() * WF_NTID_X() + WF_TID_X()];
  v = warpSum(v);
  int b = WF_SHFL_IDX(v, 0);
  int x = WF_SHFL_XOR(v, 1);
  int u = WF_SHFL_UP(v, 1);
  if (WF_LANEID() == 0)
    out[(WF_CTAID_X() * WF_NTID_X() + WF_TID_X()) / 32] = v + b + x + u;
}

extern "C" __global__ void votes(const int *in, unsigned *out) {
  int v = in[WF_TID_X()];
  unsigned ballot = WF_BALLOT(v > 0);
  int all = WF_ALL(v != 0);
  int any = WF_ANY(v < 0);
  unsigned active = WF_ACTIVEMASK();
  WF_SYNCWARP();
  out[WF_TID_X()] = ballot ^ (all << 1) ^ (any << 2) ^ active;
}

extern "C" __global__ void timing(long long *out) {
  long long t0 = WF_CLOCK64();
  WF_THREADFENCE_BLOCK();
  WF_THREADFENCE();
  out[WF_TID_X()] = WF_CLOCK64() - t0;
}

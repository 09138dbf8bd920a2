#include "compat.h"

extern __shared__ float dynBuf[];

extern "C" __global__ void dynShared(const float *in, float *out, int n) {
  int t = WF_TID_X();
  dynBuf[t] = in[t];
  WF_SYNCTHREADS();
  out[t] = dynBuf[(t + 1) % n] + dynBuf[n - 1 - t];
}

// Two views of the same dynamic buffer.
extern "C" __global__ void dynSharedTwo(int *out, int n) {
  int *ib = (int *)dynBuf;
  double *db = (double *)&dynBuf[2 * n];
  int t = WF_TID_X();
  ib[t] = t;
  db[t] = t * 0.5;
  WF_SYNCTHREADS();
  out[t] = ib[n - 1 - t] + (int)db[n - 1 - t];
}

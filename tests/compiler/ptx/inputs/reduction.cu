#include "compat.h"

#define BLOCK 256

extern "C" __global__ void reduceSum(const float *in, float *out, unsigned n) {
  __shared__ float buf[BLOCK];
  unsigned tid = WF_TID_X();
  unsigned i = WF_CTAID_X() * (BLOCK * 2) + tid;
  float s = 0.0f;
  if (i < n)
    s = in[i];
  if (i + BLOCK < n)
    s += in[i + BLOCK];
  buf[tid] = s;
  WF_SYNCTHREADS();
  for (unsigned stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (tid < stride)
      buf[tid] += buf[tid + stride];
    WF_SYNCTHREADS();
  }
  if (tid == 0)
    out[WF_CTAID_X()] = buf[0];
}

extern "C" __global__ void countPositive(const int *in, int *out) {
  int v = in[WF_CTAID_X() * WF_NTID_X() + WF_TID_X()];
  int c = WF_SYNCTHREADS_COUNT(v > 0);
  int any = WF_SYNCTHREADS_OR(v < 0);
  if (WF_TID_X() == 0) {
    out[2 * WF_CTAID_X()] = c;
    out[2 * WF_CTAID_X() + 1] = any;
  }
}

// 2D tile transpose with padding against bank conflicts.
extern "C" __global__ void transpose(float *out, const float *in, int w, int h) {
  __shared__ float tile[32][33];
  int x = WF_CTAID_X() * 32 + WF_TID_X();
  int y = WF_TID_Y();
  for (int j = 0; j < 32; j += 8)
    if (x < w && y + j < h)
      tile[y + j][WF_TID_X()] = in[(y + j) * w + x];
  WF_SYNCTHREADS();
  for (int j = 0; j < 32; j += 8)
    if (x < h && y + j < w)
      out[(y + j) * h + x] = tile[WF_TID_X()][y + j];
}

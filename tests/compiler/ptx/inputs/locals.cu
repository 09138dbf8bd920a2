#include "compat.h"

struct Params {
  float scale;
  int count;
  float bias[4];
  long long offset;
};

struct Small {
  char c;
  short s;
};

extern "C" __global__ void localArray(const int *idx, float *out, Params p, Small sm) {
  float arr[16];
  int t = WF_TID_X();
  for (int i = 0; i < 16; ++i)
    arr[i] = i * p.scale + p.bias[i & 3];
  out[t] = arr[idx[t] & 15] + (float)p.count + (float)p.offset + sm.c + sm.s;
}

__device__ __noinline__ void fill(int *a, int n) {
  for (int i = 0; i < n; ++i)
    a[i] = i * i;
}

extern "C" __global__ void localPassedDown(int *out) {
  int buf[32];
  fill(buf, 32);
  int s = 0;
  for (int i = 0; i < 32; ++i)
    s += buf[(i * 7 + WF_TID_X()) & 31];
  out[WF_TID_X()] = s;
}

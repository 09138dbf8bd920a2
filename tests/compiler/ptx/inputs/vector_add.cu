#include "compat.h"

extern "C" __global__ void vecAdd(const float *a, const float *b, float *c, int n) {
  int i = WF_CTAID_X() * WF_NTID_X() + WF_TID_X();
  if (i < n)
    c[i] = a[i] + b[i];
}

// Grid-stride loop over 64-bit integers, with a vectorized float4 path.
struct F4 {
  float x, y, z, w;
};

extern "C" __global__ void saxpy4(float alpha, const F4 *__restrict__ x, F4 *__restrict__ y,
                                  long long n) {
  for (long long i = WF_CTAID_X() * WF_NTID_X() + WF_TID_X(); i < n;
       i += (long long)WF_NCTAID_X() * WF_NTID_X()) {
    F4 a = x[i];
    F4 b = y[i];
    b.x += alpha * a.x;
    b.y += alpha * a.y;
    b.z += alpha * a.z;
    b.w += alpha * a.w;
    y[i] = b;
  }
}

extern "C" __global__ void addU64(unsigned long long *out, const unsigned long long *in,
                                  unsigned long long k) {
  unsigned i = WF_TID_X();
  unsigned long long v = in[i];
  out[i] = (v + k) * (v - 3) / (k | 1) + (v % 7) + (v >> (i & 63)) + __builtin_popcountll(v) +
           __builtin_clzll(v | 1);
}

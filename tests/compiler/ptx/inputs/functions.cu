#include "compat.h"

__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__device__ __noinline__ unsigned long long fact(unsigned n) {
  return n <= 1 ? 1ull : n * fact(n - 1);
}

typedef float (*UnaryFn)(float);

__device__ __noinline__ float twice(float x) { return 2.0f * x; }
__device__ __noinline__ float square(float x) { return x * x; }
__device__ __noinline__ float negate(float x) { return -x; }

__device__ UnaryFn gTable[3] = {twice, square, negate};

struct Pair {
  float a;
  int b;
  double c;
};

__device__ __noinline__ Pair makePair(float a, int b) {
  Pair p;
  p.a = a;
  p.b = b;
  p.c = a * b;
  return p;
}

__device__ __noinline__ double sumPair(Pair p) { return p.a + p.b + p.c; }

extern "C" __global__ void callKernel(const float *in, float *out, int *iout, int which) {
  int t = WF_TID_X();
  UnaryFn fn = gTable[(which + t) % 3];
  out[t] = fn(in[t]);
  iout[t] = fib(t & 15) + (int)fact(t & 7);
  Pair p = makePair(in[t], t);
  out[t + 64] = (float)sumPair(p);
}

extern "C" __global__ void switchKernel(const int *in, int *out) {
  int t = WF_TID_X();
  int r;
  switch (in[t]) {
  case 0: r = 11; break;
  case 1: r = t * 3; break;
  case 2: r = t ^ 5; break;
  case 3: r = t - 17; break;
  case 4: r = t << 2; break;
  case 5: r = -t; break;
  case 6: r = t / 3; break;
  case 7: r = 99; break;
  default: r = 0; break;
  }
  out[t] = r;
}

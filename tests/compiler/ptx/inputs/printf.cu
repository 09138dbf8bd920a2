#include "compat.h"

extern "C" __global__ void hello(int n, float f, double d, const char *s) {
  printf("block %d thread %d: n=%d f=%f d=%g\n", (int)WF_CTAID_X(), (int)WF_TID_X(), n, f, d);
  if (WF_TID_X() == 0)
    printf("%s %lld %p\n", s, (long long)n * 3, (void *)s);
}

#if !defined(__NVCC__)
extern "C" __device__ void __assertfail(const char *, const char *, unsigned, const char *,
                                        unsigned long);
#define assert(e) ((e) ? (void)0 : __assertfail(#e, __FILE__, __LINE__, __func__, 1))
#else
#include <cassert>
#endif

extern "C" __global__ void checked(const int *in) {
  assert(in[WF_TID_X()] >= 0);
  if (in[WF_TID_X()] == 12345)
    WF_TRAP();
}

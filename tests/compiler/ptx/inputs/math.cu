#include "compat.h"

#if defined(__NVCC__)
#include <math.h>
#define WF_SINF(x) sinf(x)
#define WF_FAST_SINF(x) __sinf(x)
#define WF_FAST_EXPF(x) __expf(x)
#define WF_FAST_LOGF(x) __logf(x)
#define WF_EXPF(x) expf(x)
#define WF_LOGF(x) logf(x)
#define WF_POWF(x, y) powf(x, y)
#define WF_SQRTF(x) sqrtf(x)
#define WF_RSQRTF(x) rsqrtf(x)
#define WF_FDIVIDEF(x, y) __fdividef(x, y)
#define WF_TANHF(x) tanhf(x)
#define WF_SQRT(x) sqrt(x)
#define WF_SIN(x) sin(x)
#define WF_EXP(x) exp(x)
#define WF_LOG(x) log(x)
#define WF_RCP(x) __drcp_rn(x)
#else
#define WF_SINF(x) __nvvm_sin_approx_f(x)
#define WF_FAST_SINF(x) __nvvm_sin_approx_ftz_f(x)
#define WF_FAST_EXPF(x) __nvvm_ex2_approx_ftz_f((x) * 1.4426950408889634f)
#define WF_FAST_LOGF(x) (__nvvm_lg2_approx_ftz_f(x) * 0.6931471805599453f)
#define WF_EXPF(x) __nvvm_ex2_approx_f((x) * 1.4426950408889634f)
#define WF_LOGF(x) (__nvvm_lg2_approx_f(x) * 0.6931471805599453f)
#define WF_POWF(x, y) __nvvm_ex2_approx_f((y) * __nvvm_lg2_approx_f(x))
#define WF_SQRTF(x) __nvvm_sqrt_rn_f(x)
#define WF_RSQRTF(x) __nvvm_rsqrt_approx_f(x)
#define WF_FDIVIDEF(x, y) __nvvm_div_approx_f(x, y)
#define WF_TANHF(x) (1.0f - 2.0f / (__nvvm_ex2_approx_f(2.8853900817779268f * (x)) + 1.0f))
#define WF_SQRT(x) __nvvm_sqrt_rn_d(x)
#define WF_SIN(x) ((double)__nvvm_sin_approx_f((float)(x)))
#define WF_EXP(x) ((double)__nvvm_ex2_approx_f((float)(x) * 1.4426950408889634f))
#define WF_LOG(x) ((double)__nvvm_lg2_approx_f((float)(x)) * 0.6931471805599453)
#define WF_RCP(x) __nvvm_rcp_rn_d(x)
#endif

extern "C" __global__ void mathF32(const float *in, float *out) {
  int t = WF_TID_X();
  float x = in[t];
  out[t * 12 + 0] = WF_SINF(x);
  out[t * 12 + 1] = WF_FAST_SINF(x);
  out[t * 12 + 2] = WF_EXPF(x) + WF_FAST_EXPF(x);
  out[t * 12 + 3] = WF_LOGF(x) + WF_FAST_LOGF(x);
  out[t * 12 + 4] = WF_POWF(x, 1.5f);
  out[t * 12 + 5] = WF_SQRTF(x) + WF_RSQRTF(x);
  out[t * 12 + 6] = x / (x + 1.0f) + WF_FDIVIDEF(x, 3.0f);
  out[t * 12 + 7] = WF_TANHF(x);
  out[t * 12 + 8] = __builtin_fmaf(x, x, 1.0f) + __builtin_fabsf(x) + __builtin_floorf(x) +
                    __builtin_ceilf(x) + __builtin_truncf(x) + __builtin_roundf(x);
  out[t * 12 + 9] = __builtin_fminf(x, 2.0f) + __builtin_fmaxf(x, -2.0f) + __builtin_copysignf(1.0f, x);
  out[t * 12 + 10] = (float)(int)x + (float)(unsigned)x + (float)(long long)x;
  out[t * 12 + 11] = __builtin_isnan(x) ? 1.0f : (__builtin_isinf(x) ? 2.0f : 0.0f);
}

extern "C" __global__ void mathF64(const double *in, double *out, long long *iout) {
  int t = WF_TID_X();
  double x = in[t];
  out[t * 8 + 0] = WF_SQRT(x);
  out[t * 8 + 1] = WF_SIN(x);
  out[t * 8 + 2] = WF_EXP(x) + WF_LOG(x);
  out[t * 8 + 3] = x / (x - 1.0);
  out[t * 8 + 4] = __builtin_fma(x, x, 0.25) + __builtin_fabs(x) + __builtin_floor(x);
  out[t * 8 + 5] = WF_RCP(x) + __builtin_fmin(x, 1.0) + __builtin_fmax(x, -1.0);
  out[t * 8 + 6] = (double)(float)x + (double)t + (double)(unsigned long long)t;
  out[t * 8 + 7] = x < 0.5 ? x * 3.0 : x - 0.125;
  iout[t] = (long long)x + (long long)(unsigned long long)(x * 2.0) + (int)x;
}

extern "C" __global__ void intOps(const int *in, int *out, const unsigned *uin) {
  int t = WF_TID_X();
  int a = in[t], b = in[t + 32];
  unsigned ua = uin[t], ub = uin[t + 32];
  out[t * 10 + 0] = a / b + a % b;
  out[t * 10 + 1] = (int)(ua / ub + ua % ub);
  out[t * 10 + 2] = (int)(((long long)a * b) >> 32) + (int)(((unsigned long long)ua * ub) >> 32);
  out[t * 10 + 3] = __builtin_popcount(ua) + __builtin_clz(ua | 1) + WF_CTZ(ua | 0x100);
  out[t * 10 + 4] = (a < b ? a : b) + (ua > ub ? ua : ub) + (a < 0 ? -a : a);
  out[t * 10 + 5] = (int)((ua << (ub & 31)) | (ua >> (32 - (ub & 31))));
  out[t * 10 + 6] = (int)((ua >> 3) & 0x1f) + (int)((ua & ~0xf0u) | ((ub & 0xf) << 4));
  out[t * 10 + 7] = (short)a + (signed char)b + (unsigned char)ua;
  out[t * 10 + 8] = (int)WF_BREV(ua);
  out[t * 10 + 9] = (a ^ b) & (a | ~b);
}

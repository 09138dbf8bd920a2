// Evaluates one CUDA math function over an input vector (tests/compiler/frontend/math_accuracy.py):
// column `col` of the list below, in the order of the script's tables.
#include <cuda_runtime.h>

#define FN_F(X) X(expf) X(exp2f) X(exp10f) X(logf) X(log2f) X(log10f) X(sinf) X(cosf) X(tanf) \
  X(atanf) X(asinf) X(acosf) X(sinhf) X(coshf) X(tanhf) X(erff) X(cbrtf) X(sqrtf) X(rsqrtf) X(expm1f) X(log1pf) \
  X(asinhf) X(acoshf) X(atanhf) X(rcbrtf) X(erfcf) X(tgammaf) X(lgammaf) X(sinpif) X(cospif) \
  X(j0f) X(j1f) X(y0f) X(y1f) X(j0f) X(j1f) X(y0f) X(y1f)
#define FN_D(X) X(exp) X(exp2) X(log) X(log2) X(log10) X(sin) X(cos) X(tan) X(atan) X(asin) \
  X(acos) X(sinh) X(cosh) X(tanh) X(erf) X(cbrt) X(sqrt) X(expm1) X(log1p) \
  X(exp10) X(asinh) X(acosh) X(atanh) X(rsqrt) X(rcbrt) X(erfc) X(tgamma) X(lgamma) X(sinpi) X(cospi) \
  X(j0) X(j1) X(y0) X(y1) X(j0) X(j1) X(y0) X(y1)

extern "C" __global__ void mathf(float *out, const float *in, int n, int col) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = in[i], r = 0.0f;
  int k = 0;
#define X(f) if (k++ == col) r = f(x);
  FN_F(X)
#undef X
  if (k++ == col) r = powf(x, 1.7f);
  if (k++ == col) r = atan2f(x, 0.75f);
  if (k++ == col) r = hypotf(x, 3.0f);
  out[i] = r;
}
extern "C" __global__ void mathd(double *out, const double *in, int n, int col) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double x = in[i], r = 0.0;
  int k = 0;
#define X(f) if (k++ == col) r = f(x);
  FN_D(X)
#undef X
  if (k++ == col) r = pow(x, 1.7);
  if (k++ == col) r = atan2(x, 0.75);
  if (k++ == col) r = hypot(x, 3.0);
  if (k++ == col) r = pow(3.3, x);
  if (k++ == col) r = pow(x, -14.3);
  out[i] = r;
}

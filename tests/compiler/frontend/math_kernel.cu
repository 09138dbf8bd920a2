// Evaluates CUDA math functions over an input vector (tests/compiler/frontend/math_accuracy.py).
#include <cuda_runtime.h>

#define FN_F(X) X(expf) X(exp2f) X(exp10f) X(logf) X(log2f) X(log10f) X(sinf) X(cosf) X(tanf) \
  X(atanf) X(asinf) X(acosf) X(sinhf) X(coshf) X(tanhf) X(erff) X(cbrtf) X(sqrtf) X(rsqrtf) X(expm1f) X(log1pf)
#define FN_D(X) X(exp) X(exp2) X(log) X(log2) X(log10) X(sin) X(cos) X(tan) X(atan) X(asin) \
  X(acos) X(sinh) X(cosh) X(tanh) X(erf) X(cbrt) X(sqrt) X(expm1) X(log1p)

extern "C" __global__ void mathf(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = in[i];
  int k = 0;
#define X(f) out[(k++) * n + i] = f(x);
  FN_F(X)
#undef X
  out[(k++) * n + i] = powf(x, 1.7f);
  out[(k++) * n + i] = atan2f(x, 0.75f);
  out[(k++) * n + i] = hypotf(x, 3.0f);
}
extern "C" __global__ void mathd(double *out, const double *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double x = in[i];
  int k = 0;
#define X(f) out[(k++) * n + i] = f(x);
  FN_D(X)
#undef X
  out[(k++) * n + i] = pow(x, 1.7);
  out[(k++) * n + i] = atan2(x, 0.75);
  out[(k++) * n + i] = hypot(x, 3.0);
}

// WF-CHAPTER: arithmetic
// WF-FEATURES: arith.fast_intrinsics.fp32
// WF-DESCRIPTION: FP32 fast intrinsics against the bounds of the guide's Table 9 (Appendix D.2): __sinf/__cosf/__sincosf (absolute error on [-pi, pi]), __expf and __exp10f (2 + floor(|c*x|) ulp), __logf/__log2f/__log10f (absolute error on [0.5, 2], ulp elsewhere), __fdividef (2 ulp, and 0 for 2^126 < |y| < 2^128), __tanf and __powf (bounds derived from their stated implementations), __saturatef, __frsqrt_rn (IEEE)
#include "../common/check.h"
#include <vector>

enum { SIN, COS, SINCOS, TAN, EXP, EXP10, LOG, LOG2, LOG10, POW, FDIV, SAT, FRSQRT, NOPS };
__global__ void fast(const float* x, const float* y, float* o1, float* o2, int op, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  float a = x[k], b = y[k], r = 0, r2 = 0;
  switch (op) {
    case SIN: r = __sinf(a); break;
    case COS: r = __cosf(a); break;
    case SINCOS: __sincosf(a, &r, &r2); break;
    case TAN: r = __tanf(a); break;
    case EXP: r = __expf(a); break;
    case EXP10: r = __exp10f(a); break;
    case LOG: r = __logf(a); break;
    case LOG2: r = __log2f(a); break;
    case LOG10: r = __log10f(a); break;
    case POW: r = __powf(a, b); break;
    case FDIV: r = __fdividef(a, b); break;
    case SAT: r = __saturatef(a); break;
    case FRSQRT: r = __frsqrt_rn(a); break;
  }
  o1[k] = r;
  o2[k] = r2;
}

int main() {
  const int N = 1000;
  float *dx, *dy, *d1, *d2;
  CHECK(cudaMalloc(&dx, 2 * N * 4)); CHECK(cudaMalloc(&dy, 2 * N * 4)); CHECK(cudaMalloc(&d1, 2 * N * 4)); CHECK(cudaMalloc(&d2, 2 * N * 4));
  const char* names[NOPS] = {"__sinf", "__cosf", "__sincosf", "__tanf", "__expf", "__exp10f", "__logf", "__log2f", "__log10f",
                             "__powf", "__fdividef", "__saturatef", "__frsqrt_rn"};
  for (int op = 0; op < NOPS; ++op) {
    wf::Rng r(op + 50);
    std::vector<float> x, y;
    for (int k = 0; k < N; ++k) {
      float a = 0, b = 0;
      switch (op) {
        case SIN: case COS: case SINCOS: a = (float)r.uniformd(-3.14159265, 3.14159265); break;
        case TAN: a = r.uniform(-1.0f, 1.0f); break;
        case EXP: a = r.uniform(-80.0f, 80.0f); break;
        case EXP10: a = r.uniform(-30.0f, 30.0f); break;
        case LOG: case LOG2: case LOG10: a = (k % 2) ? r.uniform(0.5f, 2.0f) : (float)std::exp(r.uniformd(-69, 69)); break;
        case POW: a = r.uniform(0.1f, 10.0f); b = r.uniform(-10.0f, 10.0f); break;
        case FDIV:
          a = (float)(std::exp(r.uniformd(-40, 40)) * ((k & 1) ? 1 : -1));
          b = (float)(std::exp(r.uniformd(-80, 80)) * ((k & 2) ? 1 : -1));
          if (k % 50 == 0) b = std::ldexp(r.uniform(1.0f, 1.99f), 126 + (k / 50) % 2) * ((k & 2) ? 1 : -1);  // (2^126, 2^128)
          if (k % 100 == 0) a = INFINITY;
          break;
        case SAT: a = (k % 97 == 0) ? NAN : r.uniform(-2.0f, 3.0f); break;
        case FRSQRT: a = (float)std::exp(r.uniformd(-80, 80)); break;
      }
      x.push_back(a); y.push_back(b);
    }
    int n = (int)x.size();
    CHECK(cudaMemcpy(dx, x.data(), n * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dy, y.data(), n * 4, cudaMemcpyHostToDevice));
    fast<<<(n + 127) / 128, 128>>>(dx, dy, d1, d2, op, n);
    CHECK_KERNEL();
    std::vector<float> o1(n), o2(n);
    CHECK(cudaMemcpy(o1.data(), d1, n * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(o2.data(), d2, n * 4, cudaMemcpyDeviceToHost));
    for (int k = 0; k < n; ++k) {
      long double a = x[k], b = y[k];
      float g = o1[k];
      switch (op) {
        case SIN: EXPECT_NEAR(g, std::sin(a), std::pow(2.0, -21.41), names[op], k); break;
        case COS: EXPECT_NEAR(g, std::cos(a), std::pow(2.0, -21.19), names[op], k); break;
        case SINCOS:
          EXPECT_NEAR(g, std::sin(a), std::pow(2.0, -21.41), "__sincosf (sin)", k);
          EXPECT_NEAR(o2[k], std::cos(a), std::pow(2.0, -21.19), "__sincosf (cos)", k);
          break;
        case TAN: {  // __sinf(x) * (1 / __cosf(x)) on [-1, 1]: |cos| >= 0.54
          long double t = std::tan(a);  // error of __sinf (2^-21.41) and of __cosf (2^-21.19) through the quotient
          double tol = (std::pow(2.0, -21.41) + std::fabs((double)t) * std::pow(2.0, -21.19)) / std::cos((double)a) + 3 * wf::ulp_f((double)t);
          EXPECT_NEAR(g, t, tol, names[op], k);
          break;
        }
        case EXP: EXPECT_ULP_F(g, (double)std::exp(a), 2 + std::floor(std::fabs(1.16 * (double)a)), names[op], k); break;
        case EXP10: EXPECT_ULP_F(g, (double)std::pow(10.0L, a), 2 + std::floor(std::fabs(2.95 * (double)a)), names[op], k); break;
        case LOG: case LOG2: case LOG10: {
          long double w = op == LOG ? std::log(a) : op == LOG2 ? std::log2(a) : std::log10(a);
          if (a >= 0.5L && a <= 2.0L) EXPECT_NEAR(g, w, op == LOG ? std::pow(2.0, -21.41) : op == LOG2 ? std::ldexp(1.0, -22) : std::ldexp(1.0, -24), names[op], k);
          else EXPECT_ULP_F(g, (double)w, op == LOG2 ? 2 : 3, names[op], k);
          break;
        }
        case POW: {  // exp2f(y * __log2f(x)): error of log2 (abs 2^-22 or 2 ulp) scaled by |y|, then exp2f's 2 ulp
          long double w = std::pow(a, b), l2 = std::log2(a);
          double dl = std::ldexp(1.0, -22) + 2 * wf::ulp_f((double)l2);
          double rel = 0.6931471805599453 * (std::fabs((double)b) * dl + std::fabs((double)(b * l2)) * std::ldexp(1.0, -24)) + 3 * std::ldexp(1.0, -23);
          EXPECT_NEAR(g, w, 2 * rel * std::fabs((double)w), names[op], k);
          break;
        }
        case FDIV: {
          long double ab = std::fabs(b);
          if (ab > 0x1p126L && ab < 0x1p128L) {
            if (std::isinf(a)) EXPECT_TRUE(std::isnan(g), "__fdividef(inf, y in (2^126, 2^128)) is NaN");
            else EXPECT_EQ(g, 0.0f, "__fdividef(x, y in (2^126, 2^128)) is 0", k);
          } else if (ab >= 0x1p-126L && ab <= 0x1p126L && std::isfinite(a)) {
            EXPECT_ULP_F(g, (double)(a / b), 2, names[op], k);
          }
          break;
        }
        case SAT: EXPECT_EQ(g, std::isnan(a) ? 0.0f : (float)std::fmin(std::fmax(a, 0.0L), 1.0L), names[op], k); break;
        case FRSQRT:  // sign(q - 1/sqrt(a)) = sign(q*q*a - 1) for q > 0; q*q is exact in long double
          EXPECT_ROUNDED(g, wf::RN, [a](long double q) { return q <= 0 ? -1 : wf::sign_of(std::fma(q * q, a, -1.0L)); },
                         1.0L / std::sqrt(a), names[op], k);
          break;
      }
    }
  }
  return wf::finish();
}

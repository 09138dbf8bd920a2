// WF-CHAPTER: arithmetic
// WF-FEATURES: arith.rounding_intrinsics.fp32, arith.rounding_intrinsics.fp64
// WF-DESCRIPTION: IEEE directed-rounding intrinsics in all four modes (rn, rz, ru, rd): __fadd/__fsub/__fmul/__fmaf/__fdiv/__frcp/__fsqrt_rX and __dadd/__dsub/__dmul/__fma/__ddiv/__drcp/__dsqrt_rX (guide D.2 Tables 9 and 10, "IEEE-compliant"), each result checked exactly against its rounding-mode definition
#include "../common/check.h"
#include <vector>

enum { ADD, SUB, MUL, FMA, DIV, RCP, SQRT, NOPS };

__global__ void frnd(const float* x, const float* y, const float* z, float* o, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  float a = x[k], b = y[k], c = z[k], sa = fabsf(a);
  float* r = o + k * NOPS * 4;
  r[0] = __fadd_rn(a, b); r[1] = __fadd_rz(a, b); r[2] = __fadd_rd(a, b); r[3] = __fadd_ru(a, b);
  r[4] = __fsub_rn(a, b); r[5] = __fsub_rz(a, b); r[6] = __fsub_rd(a, b); r[7] = __fsub_ru(a, b);
  r[8] = __fmul_rn(a, b); r[9] = __fmul_rz(a, b); r[10] = __fmul_rd(a, b); r[11] = __fmul_ru(a, b);
  r[12] = __fmaf_rn(a, b, c); r[13] = __fmaf_rz(a, b, c); r[14] = __fmaf_rd(a, b, c); r[15] = __fmaf_ru(a, b, c);
  r[16] = __fdiv_rn(a, b); r[17] = __fdiv_rz(a, b); r[18] = __fdiv_rd(a, b); r[19] = __fdiv_ru(a, b);
  r[20] = __frcp_rn(a); r[21] = __frcp_rz(a); r[22] = __frcp_rd(a); r[23] = __frcp_ru(a);
  r[24] = __fsqrt_rn(sa); r[25] = __fsqrt_rz(sa); r[26] = __fsqrt_rd(sa); r[27] = __fsqrt_ru(sa);
}

__global__ void drnd(const double* x, const double* y, const double* z, const double* p, const double* q, double* o, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  double a = x[k], b = y[k], c = z[k], sa = fabs(a), fa = p[k], fb = q[k];
  double* r = o + k * NOPS * 4;
  r[0] = __dadd_rn(a, b); r[1] = __dadd_rz(a, b); r[2] = __dadd_rd(a, b); r[3] = __dadd_ru(a, b);
  r[4] = __dsub_rn(a, b); r[5] = __dsub_rz(a, b); r[6] = __dsub_rd(a, b); r[7] = __dsub_ru(a, b);
  r[8] = __dmul_rn(a, b); r[9] = __dmul_rz(a, b); r[10] = __dmul_rd(a, b); r[11] = __dmul_ru(a, b);
  r[12] = __fma_rn(fa, fb, c); r[13] = __fma_rz(fa, fb, c); r[14] = __fma_rd(fa, fb, c); r[15] = __fma_ru(fa, fb, c);
  r[16] = __ddiv_rn(a, b); r[17] = __ddiv_rz(a, b); r[18] = __ddiv_rd(a, b); r[19] = __ddiv_ru(a, b);
  r[20] = __drcp_rn(a); r[21] = __drcp_rz(a); r[22] = __drcp_rd(a); r[23] = __drcp_ru(a);
  r[24] = __dsqrt_rn(sa); r[25] = __dsqrt_rz(sa); r[26] = __dsqrt_rd(sa); r[27] = __dsqrt_ru(sa);
}

static const char* kNames[2][NOPS] = {{"__fadd", "__fsub", "__fmul", "__fmaf", "__fdiv", "__frcp", "__fsqrt"},
                                      {"__dadd", "__dsub", "__dmul", "__fma", "__ddiv", "__drcp", "__dsqrt"}};

// sign(x - exact) for each operation, computed exactly in long double (one rounding at most, which keeps the sign)
template <class T>
void check_all(int prec, int k, T a, T b, T c, T fa, T fb, const T* r) {
  long double A = a, B = b, C = c, FA = fa, FB = fb, SA = std::fabs(A);
  char what[48];
  for (int op = 0; op < NOPS; ++op)
    for (int m = 0; m < 4; ++m) {
      T got = r[op * 4 + m];
      snprintf(what, sizeof what, "%s_%s", kNames[prec][op], wf::mode_name(m));
      switch (op) {
        case ADD: EXPECT_ROUNDED(got, m, wf::cmp_exact(A + B), A + B, what, k); break;  // exact: exponents are close
        case SUB: EXPECT_ROUNDED(got, m, wf::cmp_exact(A - B), A - B, what, k); break;
        case MUL: EXPECT_ROUNDED(got, m, [=](long double v) { return -wf::sign_of(std::fma(A, B, -v)); }, A * B, what, k); break;
        case FMA:
          if (prec == 0)  // float: (v - c) is exact, a*b is exact; one rounding in the final difference
            EXPECT_ROUNDED(got, m, [=](long double v) { return wf::sign_of((v - C) - A * B); }, A * B + C, what, k);
          else            // double: fa, fb have 26 significant bits, so fa*fb + c is exact in long double
            EXPECT_ROUNDED(got, m, wf::cmp_exact(FA * FB + C), FA * FB + C, what, k);
          break;
        case DIV: EXPECT_ROUNDED(got, m, [=](long double v) { int s = wf::sign_of(std::fma(v, B, -A)); return B < 0 ? -s : s; }, A / B, what, k); break;
        case RCP: EXPECT_ROUNDED(got, m, [=](long double v) { int s = wf::sign_of(std::fma(v, A, -1.0L)); return A < 0 ? -s : s; }, 1 / A, what, k); break;
        case SQRT: EXPECT_ROUNDED(got, m, [=](long double v) { return v < 0 ? -1 : wf::sign_of(std::fma(v, v, -SA)); }, std::sqrt(SA), what, k); break;
      }
    }
}

int main() {
#ifndef __CUDA_ARCH__  // a host-only check: clang's device pass has a 64-bit long double
  static_assert(LDBL_MANT_DIG >= 64, "needs an extended long double");
#endif
  const int n = 1500;
  wf::Rng r(2024);
  auto val = [&](int lo, int hi, int bits) {  // random sign, exponent in [lo, hi], 'bits' significant bits
    unsigned long long mant = (r.next64() >> (64 - bits)) | (1ull << (bits - 1));
    double v = std::ldexp((double)mant, r.range(lo, hi) - (bits - 1));
    return (r.next() & 1) ? -v : v;
  };
  // ---- float: operands in 2^[-10, 10] so that sums and (v - c) are exact in long double ----
  std::vector<float> fx(n), fy(n), fz(n);
  for (int k = 0; k < n; ++k) { fx[k] = (float)val(-10, 10, 24); fy[k] = (float)val(-10, 10, 24); fz[k] = (float)val(-10, 10, 24); }
  for (int k = 0; k < 40; ++k) { fy[k] = fx[k] * (k % 2 ? 1 : -1); }  // exact cancellations and doublings
  float *dfx, *dfy, *dfz, *dfo;
  CHECK(cudaMalloc(&dfx, n * 4)); CHECK(cudaMalloc(&dfy, n * 4)); CHECK(cudaMalloc(&dfz, n * 4)); CHECK(cudaMalloc(&dfo, n * NOPS * 4 * 4));
  CHECK(cudaMemcpy(dfx, fx.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dfy, fy.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dfz, fz.data(), n * 4, cudaMemcpyHostToDevice));
  frnd<<<(n + 127) / 128, 128>>>(dfx, dfy, dfz, dfo, n);
  CHECK_KERNEL();
  std::vector<float> fo(n * NOPS * 4);
  CHECK(cudaMemcpy(fo.data(), dfo, fo.size() * 4, cudaMemcpyDeviceToHost));
  for (int k = 0; k < n; ++k) check_all<float>(0, k, fx[k], fy[k], fz[k], 0, 0, &fo[k * NOPS * 4]);
  // ---- double: a, b, c in 2^[-5, 5]; fma factors with 26 significant bits ----
  std::vector<double> dx(n), dy(n), dz(n), dp(n), dq(n);
  for (int k = 0; k < n; ++k) {
    dx[k] = val(-5, 5, 53); dy[k] = val(-5, 5, 53); dz[k] = val(-3, 3, 53); dp[k] = val(-3, 3, 26); dq[k] = val(-3, 3, 26);
  }
  for (int k = 0; k < 40; ++k) dy[k] = dx[k] * (k % 2 ? 1 : -1);
  double *ddx, *ddy, *ddz, *ddp, *ddq, *ddo;
  CHECK(cudaMalloc(&ddx, n * 8)); CHECK(cudaMalloc(&ddy, n * 8)); CHECK(cudaMalloc(&ddz, n * 8));
  CHECK(cudaMalloc(&ddp, n * 8)); CHECK(cudaMalloc(&ddq, n * 8)); CHECK(cudaMalloc(&ddo, n * NOPS * 4 * 8));
  CHECK(cudaMemcpy(ddx, dx.data(), n * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(ddy, dy.data(), n * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(ddz, dz.data(), n * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(ddp, dp.data(), n * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(ddq, dq.data(), n * 8, cudaMemcpyHostToDevice));
  drnd<<<(n + 127) / 128, 128>>>(ddx, ddy, ddz, ddp, ddq, ddo, n);
  CHECK_KERNEL();
  std::vector<double> dout(n * NOPS * 4);
  CHECK(cudaMemcpy(dout.data(), ddo, dout.size() * 8, cudaMemcpyDeviceToHost));
  for (int k = 0; k < n; ++k) check_all<double>(1, k, dx[k], dy[k], dz[k], dp[k], dq[k], &dout[k * NOPS * 4]);
  return wf::finish();
}

// WF-CHAPTER: arithmetic
// WF-FEATURES: arith.math.fp32.exact, arith.math.fp64.exact, arith.fp.ieee_div_sqrt, arith.math.fp32.special_values, arith.math.fp64.special_values, arith.fp.classify
// WF-DESCRIPTION: the functions the guide lists with 0 ulp error, in float and double: x/y, 1/x, sqrt (IEEE with the default -prec-div/-prec-sqrt), fma, frexp, ldexp, scalbn, scalbln, logb, ilogb, fmod, remainder, remquo, modf, fdim, trunc, round, rint, nearbyint, ceil, floor, lrint, lround, llrint, llround, plus fmin/fmax/fabs/copysign/nextafter and isnan/isinf/isfinite/signbit, bit-exact on random and special operands
#include "../common/check.h"
#include <limits>
#include <vector>

constexpr int NF = 25, NI = 9;

template <class T>
__global__ void exact(const T* x, const T* y, const T* z, const int* ex, T* fo, long long* io, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  T a = x[k], b = y[k], c = z[k];
  int s = ex[k];
  T* f = fo + k * NF;
  long long* i = io + k * NI;
  int e = 0, q = 0;
  T ip = 0;
  f[0] = a / b;
  f[1] = (T)1 / a;
  f[2] = sqrt(a);
  f[3] = fma(a, b, c);
  f[4] = frexp(a, &e);
  i[0] = e;
  f[5] = ldexp(a, s);
  f[6] = scalbn(a, s);
  f[7] = scalbln(a, (long)s);
  f[8] = logb(a);
  i[1] = ilogb(a);
  f[9] = fmod(a, b);
  f[10] = remainder(a, b);
  f[11] = remquo(a, b, &q);
  i[2] = q;
  f[12] = modf(a, &ip);
  f[13] = ip;
  f[14] = fdim(a, b);
  f[15] = trunc(a);
  f[16] = round(a);
  f[17] = rint(a);
  f[18] = nearbyint(a);
  f[19] = ceil(a);
  f[20] = floor(a);
  f[21] = nextafter(a, b);
  f[22] = fmin(a, b);
  f[23] = fmax(a, b);
  f[24] = copysign(fabs(a), b);
  bool safe = fabs(a) < (T)9e18;  // lrint & co. are unspecified out of range
  i[3] = safe ? (long long)lrint(a) : 0;
  i[4] = safe ? (long long)lround(a) : 0;
  i[5] = safe ? llrint(a) : 0;
  i[6] = safe ? llround(a) : 0;
  i[7] = (isnan(a) ? 1 : 0) | (isinf(a) ? 2 : 0) | (isfinite(a) ? 4 : 0) | (signbit(a) ? 8 : 0);
  i[8] = 0;
}

template <class T>
bool same(T got, T want, bool zero_sign_free = false) {
  if (std::isnan(got) && std::isnan(want)) return true;
  if (zero_sign_free && got == 0 && want == 0) return true;
  return memcmp(&got, &want, sizeof(T)) == 0;
}

template <class T>
void run(const char* tname) {
  const T big = std::numeric_limits<T>::max(), tiny = std::numeric_limits<T>::denorm_min(), mn = std::numeric_limits<T>::min();
  std::vector<T> sp = {(T)0, -(T)0, (T)INFINITY, -(T)INFINITY, (T)NAN, (T)1, -(T)1, (T)0.5, -(T)2.5, (T)3.5, (T)7, -(T)7, tiny, -tiny,
                       mn, big, -big, (T)1e-30, (T)123.456, -(T)0.75};
  std::vector<T> x, y, z;
  std::vector<int> ex;
  wf::Rng r(sizeof(T));
  auto rnd = [&]() -> T {
    switch (r.next() % 4) {
      case 0: return (T)r.uniformd(-10, 10);
      case 1: return (T)std::round(r.uniformd(-100, 100)) + (T)((r.next() % 4) * 0.25);  // ties and integers
      case 2: return (T)(std::exp(r.uniformd(-80, 80)) * ((r.next() & 1) ? 1 : -1));
      default: return (T)r.uniformd(-1e6, 1e6);
    }
  };
  for (T a : sp) for (T b : sp) { x.push_back(a); y.push_back(b); z.push_back(sp[(x.size() * 7) % sp.size()]); ex.push_back((int)(x.size() % 9) - 4); }
  for (int k = 0; k < 1500; ++k) { x.push_back(rnd()); y.push_back(rnd()); z.push_back(rnd()); ex.push_back(r.range(-400, 400)); }
  int n = (int)x.size();
  T *dx, *dy, *dz, *df; int* de; long long* di;
  CHECK(cudaMalloc(&dx, n * sizeof(T))); CHECK(cudaMalloc(&dy, n * sizeof(T))); CHECK(cudaMalloc(&dz, n * sizeof(T)));
  CHECK(cudaMalloc(&de, n * sizeof(int))); CHECK(cudaMalloc(&df, n * NF * sizeof(T))); CHECK(cudaMalloc(&di, n * NI * sizeof(long long)));
  CHECK(cudaMemcpy(dx, x.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, y.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dz, z.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(de, ex.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  exact<T><<<(n + 127) / 128, 128>>>(dx, dy, dz, de, df, di, n);
  CHECK_KERNEL();
  std::vector<T> f(n * NF);
  std::vector<long long> iv(n * NI);
  CHECK(cudaMemcpy(f.data(), df, f.size() * sizeof(T), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(iv.data(), di, iv.size() * sizeof(long long), cudaMemcpyDeviceToHost));
  const char* fnames[NF] = {"x/y", "1/x", "sqrt", "fma", "frexp", "ldexp", "scalbn", "scalbln", "logb", "fmod", "remainder", "remquo",
                            "modf (fraction)", "modf (integral)", "fdim", "trunc", "round", "rint", "nearbyint", "ceil", "floor",
                            "nextafter", "fmin", "fmax", "copysign(fabs)"};
  char what[80];
  for (int k = 0; k < n; ++k) {
    T a = x[k], b = y[k], c = z[k];
    int s = ex[k], e = 0, q = 0;
    T ip = 0;
    T w[NF];
    w[0] = a / b; w[1] = (T)1 / a; w[2] = std::sqrt(a); w[3] = std::fma(a, b, c); w[4] = std::frexp(a, &e);
    w[5] = std::ldexp(a, s); w[6] = std::scalbn(a, s); w[7] = std::scalbln(a, (long)s); w[8] = std::logb(a);
    w[9] = std::fmod(a, b); w[10] = std::remainder(a, b); w[11] = std::remquo(a, b, &q); w[12] = std::modf(a, &ip); w[13] = ip;
    w[14] = std::fdim(a, b); w[15] = std::trunc(a); w[16] = std::round(a); w[17] = std::rint(a); w[18] = std::nearbyint(a);
    w[19] = std::ceil(a); w[20] = std::floor(a); w[21] = std::nextafter(a, b); w[22] = std::fmin(a, b); w[23] = std::fmax(a, b);
    w[24] = std::copysign(std::fabs(a), b);
    for (int j = 0; j < NF; ++j) {
      bool zsf = (j == 22 || j == 23) && a == 0 && b == 0;  // fmin/fmax(+0, -0): either zero
      if (same(f[k * NF + j], w[j], zsf)) continue;
      snprintf(what, sizeof what, "%s %s", fnames[j], tname);
      if (wf::report(__FILE__, __LINE__, what, k)) {
        printf("a=%.17g b=%.17g c=%.17g s=%d: got ", (double)a, (double)b, (double)c, s);
        wf::show(f[k * NF + j]);
        printf(", want ");
        wf::show(w[j]);
        printf("\n");
      }
    }
    const long long* g = &iv[k * NI];
    snprintf(what, sizeof what, "frexp exponent %s", tname);
    if (std::isfinite(a)) EXPECT_EQ(g[0], (long long)e, what, k);
    snprintf(what, sizeof what, "ilogb %s", tname);
    EXPECT_EQ(g[1], (long long)std::ilogb(a), what, k);
    if (!std::isnan(w[11])) {
      long long gq = g[2];
      snprintf(what, sizeof what, "remquo quotient (sign, low 3 bits) %s", tname);
      // C99: sign of x/y and magnitude congruent modulo 2^n (n >= 3); a quotient whose low bits are 0 may come back as 0
      bool ok = (std::llabs(gq) % 8) == (std::llabs((long long)q) % 8) && (gq == 0 || (gq < 0) == (q < 0));
      if (!ok) EXPECT_EQ(gq, (long long)q, what, k);
    }
    if (std::fabs(a) < (T)9e18) {
      snprintf(what, sizeof what, "lrint %s", tname); EXPECT_EQ(g[3], (long long)std::lrint(a), what, k);
      snprintf(what, sizeof what, "lround %s", tname); EXPECT_EQ(g[4], (long long)std::lround(a), what, k);
      snprintf(what, sizeof what, "llrint %s", tname); EXPECT_EQ(g[5], std::llrint(a), what, k);
      snprintf(what, sizeof what, "llround %s", tname); EXPECT_EQ(g[6], std::llround(a), what, k);
    }
    long long cls = (std::isnan(a) ? 1 : 0) | (std::isinf(a) ? 2 : 0) | (std::isfinite(a) ? 4 : 0) | (std::signbit(a) ? 8 : 0);
    snprintf(what, sizeof what, "isnan/isinf/isfinite/signbit %s", tname);
    EXPECT_EQ(g[7], cls, what, k);
  }
  CHECK(cudaFree(dx)); CHECK(cudaFree(dy)); CHECK(cudaFree(dz)); CHECK(cudaFree(de)); CHECK(cudaFree(df)); CHECK(cudaFree(di));
}

int main() {
  run<float>("(float)");
  run<double>("(double)");
  return wf::finish();
}

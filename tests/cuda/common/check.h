// Shared helpers for the Warpforge CUDA conformance corpus (header only).
// Depends on the CUDA runtime and the C++ standard library alone.
//
//   CHECK(call)          abort with file/line/error text if a runtime call fails
//   CHECK_KERNEL()       cudaGetLastError + cudaDeviceSynchronize, each through CHECK
//   EXPECT_EQ(got, want, what, index)            exact comparison (floats compared by value,
//                                                NaN equals NaN)
//   EXPECT_BITS(got, want, what, index)          exact comparison of the object representation
//   EXPECT_ULP_F(got, ref, maxulp, what, index)  |got-ref| <= maxulp ulp(float) around ref
//   EXPECT_ULP_D(got, ref, maxulp, what, index)  the same in double, ref in long double
//   EXPECT_NEAR(got, want, tol, what, index)     |got-want| <= tol
//   EXPECT_TRUE(cond, what)
//   return wf::finish();                          prints PASS or FAIL and gives the exit code
//
// Mismatches are counted; the first few are printed to stdout with file and line.
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cfloat>
#include <type_traits>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    cudaError_t wf_e_ = (call);                                                              \
    if (wf_e_ != cudaSuccess) {                                                              \
      printf("CUDA error %s (%d) at %s:%d: %s\n  in: %s\n", cudaGetErrorName(wf_e_),         \
             (int)wf_e_, __FILE__, __LINE__, cudaGetErrorString(wf_e_), #call);              \
      fflush(stdout);                                                                        \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

#define CHECK_KERNEL()                 \
  do {                                 \
    CHECK(cudaGetLastError());         \
    CHECK(cudaDeviceSynchronize());    \
  } while (0)

namespace wf {

inline long& error_count() {
  static long n = 0;
  return n;
}
constexpr long kMaxReported = 10;

inline void show(bool v) { printf("%s", v ? "true" : "false"); }
inline void show(char v) { printf("%d", (int)v); }
inline void show(signed char v) { printf("%d", (int)v); }
inline void show(unsigned char v) { printf("%u", (unsigned)v); }
inline void show(short v) { printf("%d", (int)v); }
inline void show(unsigned short v) { printf("%u", (unsigned)v); }
inline void show(int v) { printf("%d (0x%08x)", v, (unsigned)v); }
inline void show(unsigned v) { printf("%u (0x%08x)", v, v); }
inline void show(long v) { printf("%ld (0x%lx)", v, (unsigned long)v); }
inline void show(unsigned long v) { printf("%lu (0x%lx)", v, v); }
inline void show(long long v) { printf("%lld (0x%llx)", v, (unsigned long long)v); }
inline void show(unsigned long long v) { printf("%llu (0x%llx)", v, v); }
inline void show(float v) {
  uint32_t b;
  memcpy(&b, &v, 4);
  printf("%.9g (%a, 0x%08x)", (double)v, (double)v, b);
}
inline void show(double v) {
  uint64_t b;
  memcpy(&b, &v, 8);
  printf("%.17g (%a, 0x%016llx)", v, v, (unsigned long long)b);
}
inline void show(long double v) { printf("%.21Lg", v); }

inline bool report(const char* file, int line, const char* what, long index) {
  long n = ++error_count();
  if (n > kMaxReported) return false;
  printf("MISMATCH %s[%ld] at %s:%d: ", what, index, file, line);
  return true;
}

template <class A, class B>
bool same_value(const A& a, const B& b) {
  if constexpr (std::is_floating_point<A>::value || std::is_floating_point<B>::value) {
    if (std::isnan((long double)a) && std::isnan((long double)b)) return true;
  }
  return a == b;
}

template <class A, class B>
bool expect_eq(const A& got, const B& want, const char* what, long index, const char* file, int line) {
  if (same_value(got, (A)want)) return true;
  if (report(file, line, what, index)) {
    printf("got ");
    show(got);
    printf(", want ");
    show((A)want);
    printf("\n");
  }
  return false;
}

template <class A>
bool expect_bits(const A& got, const A& want, const char* what, long index, const char* file, int line) {
  if (memcmp(&got, &want, sizeof(A)) == 0) return true;
  if (report(file, line, what, index)) {
    printf("got ");
    show(got);
    printf(", want ");
    show(want);
    printf("\n");
  }
  return false;
}

// Size of one unit in the last place of a float near x (x finite); the spacing of the binade
// that holds |x|, with the subnormal spacing 2^-149 as the floor.
inline double ulp_f(double x) {
  x = std::fabs(x);
  if (x < 1.17549435082228750797e-38) return std::ldexp(1.0, -149);
  return std::ldexp(1.0, std::ilogb(x) - 23);
}
inline long double ulp_d(long double x) {
  x = std::fabs(x);
  if (x < 2.2250738585072014e-308L) return std::ldexp(1.0L, -1074);
  return std::ldexp(1.0L, std::ilogb(x) - 52);
}

// Error of a float result against a precise reference, in float ulps. NaN/inf must match exactly
// (returns 0 when they do, a huge value when they do not).
inline double ulp_err_f(float got, double ref) {
  if (std::isnan(ref)) return std::isnan(got) ? 0.0 : 1e30;
  float rr = (float)ref;
  if (std::isinf(rr) || std::isinf(got)) return (got == rr) ? 0.0 : 1e30;
  if (std::isnan(got)) return 1e30;
  if (ref == 0 && got == 0) return std::signbit(ref) == std::signbit(got) ? 0.0 : 1e30;  // sign of zero
  return std::fabs((double)got - ref) / ulp_f(ref);
}
inline double ulp_err_d(double got, long double ref) {
  if (std::isnan(ref)) return std::isnan(got) ? 0.0 : 1e30;
  double rr = (double)ref;
  if (std::isinf(rr) || std::isinf(got)) return (got == rr) ? 0.0 : 1e30;
  if (std::isnan(got)) return 1e30;
  if (ref == 0 && got == 0) return std::signbit(ref) == std::signbit(got) ? 0.0 : 1e30;  // sign of zero
  return (double)(std::fabs((long double)got - ref) / ulp_d(ref));
}

// The guide states bounds as the distance from the correctly rounded result; the correctly rounded
// result is itself within 0.5 ulp of the exact value, so against a precise reference the bound is
// maxulp + 0.5 (plus a hair for the reference's own error).
inline bool expect_ulp_f(float got, double ref, double maxulp, const char* what, long index,
                         const char* file, int line) {
  double e = ulp_err_f(got, ref);
  if (e <= maxulp + 0.5 + 1e-3) return true;
  if (report(file, line, what, index)) {
    printf("got ");
    show(got);
    printf(", reference %.17g, error %.3g ulp > %g\n", ref, e, maxulp);
  }
  return false;
}
inline bool expect_ulp_d(double got, long double ref, double maxulp, const char* what, long index,
                         const char* file, int line) {
  double e = ulp_err_d(got, ref);
  if (e <= maxulp + 0.5 + 1e-2) return true;  // long double references: a little more slack
  if (report(file, line, what, index)) {
    printf("got ");
    show(got);
    printf(", reference %.21Lg, error %.3g ulp > %g\n", ref, e, maxulp);
  }
  return false;
}

template <class A, class B>
bool expect_near(const A& got, const B& want, double tol, const char* what, long index,
                 const char* file, int line) {
  double d = std::fabs((double)got - (double)want);
  if (d <= tol) return true;
  if (report(file, line, what, index)) {
    printf("got %.9g, want %.9g, |diff| %.3g > %.3g\n", (double)got, (double)want, d, tol);
  }
  return false;
}

inline bool expect_true(bool cond, const char* what, const char* file, int line) {
  if (cond) return true;
  if (report(file, line, what, 0)) printf("condition is false\n");
  return false;
}

inline int finish() {
  fflush(stdout);
  if (error_count() == 0) {
    printf("PASS\n");
    return 0;
  }
  printf("FAIL: %ld mismatch(es)\n", error_count());
  return 1;
}

// Rounding-mode verification against an exact reference. cmp(x) gives the sign of (x - exact) for a
// long double x (computed exactly, e.g. with comparisons or a single fmal). lo and hi are the
// neighbours of got in its own format; got_even says whether got's last significand bit is 0.
enum RoundMode { RN = 0, RZ = 1, RD = 2, RU = 3 };
inline const char* mode_name(int m) { return m == RN ? "rn" : m == RZ ? "rz" : m == RD ? "rd" : "ru"; }
template <class Cmp>
bool rounded_ok(long double got, long double lo, long double hi, bool got_even, int mode, Cmp cmp) {
  int c = cmp(got);
  bool down_ok = c <= 0 && cmp(hi) > 0;  // got <= exact < hi
  bool up_ok = c >= 0 && cmp(lo) < 0;    // lo < exact <= got
  switch (mode) {
    case RD: return down_ok;
    case RU: return up_ok;
    case RZ: return cmp(0.0L) <= 0 ? down_ok : up_ok;
    default: {
      int a = cmp((got + lo) / 2), b = cmp((got + hi) / 2);
      if (a > 0 || b < 0) return false;
      return (a == 0 || b == 0) ? got_even : true;
    }
  }
}
inline int sign_of(long double v) { return v < 0 ? -1 : v > 0 ? 1 : 0; }
// comparison of x with an exactly known value
inline auto cmp_exact(long double e) {
  return [e](long double x) { return x < e ? -1 : (x > e ? 1 : 0); };
}

template <class T, class Cmp>
bool expect_rounded(T got, int mode, Cmp cmp, long double approx, const char* what, long index, const char* file,
                    int line) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "float or double");
  long double lo = std::nextafter(got, -(T)INFINITY), hi = std::nextafter(got, (T)INFINITY);
  uint64_t bits = 0;
  memcpy(&bits, &got, sizeof(T));
  bool ok;
  if (std::isinf(got)) {  // overflow: inf is right when the exact value is beyond the rounding threshold
    const long double mx = std::numeric_limits<T>::max();
    const long double half = mx + (mx - (long double)std::nextafter((T)mx, (T)0)) / 2;  // max + ulp/2
    const long double s = got > 0 ? 1 : -1;
    ok = mode == RN ? s * cmp(s * half) <= 0                // |exact| >= max + ulp/2 (ties go to the even infinity)
         : (mode == RU && s > 0) ? cmp(mx) < 0              // exact > max
         : (mode == RD && s < 0) ? cmp(-mx) > 0             // exact < -max
         : false;
  } else {
    ok = !std::isnan(got) && rounded_ok((long double)got, lo, hi, (bits & 1) == 0, mode, cmp);
  }
  if (ok) return true;
  if (report(file, line, what, index)) {
    printf("got ");
    show(got);
    printf(", exact value ~%.25Lg, rounding %s\n", approx, mode_name(mode));
  }
  return false;
}

// Small deterministic generator (64-bit LCG, high bits), identical on every host.
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed = 12345) : s(seed * 2862933555777941757ULL + 3037000493ULL) {}
  uint32_t next() {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(s >> 32);
  }
  uint64_t next64() { return ((uint64_t)next() << 32) | next(); }
  int range(int lo, int hi) { return lo + (int)(next() % (uint32_t)(hi - lo + 1)); }  // [lo, hi]
  float uniform(float lo, float hi) { return lo + (hi - lo) * (float)(next() >> 8) * (1.0f / 16777216.0f); }
  double uniformd(double lo, double hi) { return lo + (hi - lo) * (double)(next64() >> 11) * (1.0 / 9007199254740992.0); }
};

inline float bits_to_float(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
inline uint32_t float_to_bits(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
inline double bits_to_double(uint64_t b) { double d; memcpy(&d, &b, 8); return d; }
inline uint64_t double_to_bits(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }

}  // namespace wf

#define EXPECT_EQ(got, want, what, index) wf::expect_eq((got), (want), (what), (long)(index), __FILE__, __LINE__)
#define EXPECT_BITS(got, want, what, index) wf::expect_bits((got), (want), (what), (long)(index), __FILE__, __LINE__)
#define EXPECT_ULP_F(got, ref, maxulp, what, index) \
  wf::expect_ulp_f((got), (ref), (maxulp), (what), (long)(index), __FILE__, __LINE__)
#define EXPECT_ULP_D(got, ref, maxulp, what, index) \
  wf::expect_ulp_d((got), (ref), (maxulp), (what), (long)(index), __FILE__, __LINE__)
#define EXPECT_NEAR(got, want, tol, what, index) \
  wf::expect_near((got), (want), (tol), (what), (long)(index), __FILE__, __LINE__)
#define EXPECT_ROUNDED(got, mode, cmp, approx, what, index) \
  wf::expect_rounded((got), (mode), (cmp), (long double)(approx), (what), (long)(index), __FILE__, __LINE__)
#define EXPECT_TRUE(cond, what) wf::expect_true((cond), (what), __FILE__, __LINE__)

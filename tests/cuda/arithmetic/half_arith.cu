// WF-CHAPTER: arithmetic
// WF-FEATURES: arith.half.arith, arith.half.fma, arith.half.div, arith.half.compare, arith.half.minmax, arith.half.saturate, arith.half.operators
// WF-DESCRIPTION: scalar __half arithmetic: __hadd/__hsub/__hmul/__hfma/__hdiv (correctly rounded to nearest), __hneg/__habs, _sat variants, __hmin/__hmax(_nan), ordered and unordered comparisons, __hisnan/__hisinf, and the C++ operators
#include "../common/check.h"
#include <cuda_fp16.h>
#include <vector>

static long double h2ld(unsigned short b) {
  int s = b >> 15, e = (b >> 10) & 31, m = b & 1023;
  long double v = e == 0 ? std::ldexp((long double)m, -24) : e == 31 ? (m ? NAN : INFINITY) : std::ldexp((long double)(1024 + m), e - 25);
  return s ? -v : v;
}
static unsigned short h_up(unsigned short b) { return (b & 0x8000) ? (b == 0x8000 ? 0x0001 : b - 1) : b + 1; }
static unsigned short h_down(unsigned short b) { return (b & 0x8000) ? b + 1 : (b == 0 ? 0x8001 : b - 1); }
template <class Cmp> static bool half_rn_ok(unsigned short got, Cmp cmp) {
  if (((got >> 10) & 31) == 31 && (got & 1023)) return false;
  if ((got & 0x7fff) == 0x7c00) return (got & 0x8000) ? cmp(-65520.0L) >= 0 : cmp(65520.0L) <= 0;
  return wf::rounded_ok(h2ld(got), h2ld(h_down(got)), h2ld(h_up(got)), (got & 1) == 0, wf::RN, cmp);
}
static bool is_nan(unsigned short b) { return ((b >> 10) & 31) == 31 && (b & 1023); }

enum { ADD, SUB, MUL, FMA, DIV, NEG, ABS, ADDS, SUBS, MULS, FMAS, MIN, MAX, MINN, MAXN, OPADD, OPSUB, OPMUL, OPDIV, NOPS };
enum { EQ, NE, LT, LE, GT, GE, EQU, NEU, LTU, LEU, GTU, GEU, ISNAN, ISINF, OPEQ, OPLT, NCMP };

__global__ void harith(const unsigned short* a, const unsigned short* b, const unsigned short* c, unsigned short* r, unsigned char* cmp, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  __half x = __ushort_as_half(a[k]), y = __ushort_as_half(b[k]), z = __ushort_as_half(c[k]);
  __half o[NOPS] = {__hadd(x, y), __hsub(x, y), __hmul(x, y), __hfma(x, y, z), __hdiv(x, y), __hneg(x), __habs(x),
                    __hadd_sat(x, y), __hsub_sat(x, y), __hmul_sat(x, y), __hfma_sat(x, y, z), __hmin(x, y), __hmax(x, y),
                    __hmin_nan(x, y), __hmax_nan(x, y), x + y, x - y, x * y, x / y};
  for (int i = 0; i < NOPS; ++i) r[k * NOPS + i] = __half_as_ushort(o[i]);
  bool q[NCMP] = {__heq(x, y), __hne(x, y), __hlt(x, y), __hle(x, y), __hgt(x, y), __hge(x, y), __hequ(x, y), __hneu(x, y),
                  __hltu(x, y), __hleu(x, y), __hgtu(x, y), __hgeu(x, y), (bool)__hisnan(x), __hisinf(x) != 0, x == y, x < y};
  for (int i = 0; i < NCMP; ++i) cmp[k * NCMP + i] = q[i];
}

int main() {
  std::vector<unsigned short> A, B, C;
  auto add = [&](unsigned short a, unsigned short b, unsigned short c) { A.push_back(a); B.push_back(b); C.push_back(c); };
  // specials: +-0, +-inf, NaN, max, min subnormal, 1, -1
  const unsigned short sp[] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7bff, 0x0001, 0x3c00, 0xbc00, 0x3800, 0x0400};
  for (unsigned short a : sp) for (unsigned short b : sp) add(a, b, 0x3c00);
  wf::Rng r(8);
  auto moderate = [&]() {  // normal halves with exponents in [-6, 6]: products and fma are exact in double
    unsigned short e = (unsigned short)(15 + r.range(-6, 6)), m = (unsigned short)(r.next() & 1023), s = (unsigned short)(r.next() & 1);
    return (unsigned short)((s << 15) | (e << 10) | m);
  };
  for (int k = 0; k < 3000; ++k) add(moderate(), moderate(), moderate());
  const int wide_begin = (int)A.size();
  for (int k = 0; k < 500; ++k) add((unsigned short)(r.next() & 0x7bff), (unsigned short)(r.next() & 0x7bff), moderate());  // wide range incl. subnormals
  const int wide_end = (int)A.size();
  for (int k = 0; k < 300; ++k) { unsigned short x = moderate(); add(x, x, moderate()); }  // equal operands
  int n = (int)A.size();
  unsigned short *da, *db, *dc, *dr; unsigned char* dq;
  CHECK(cudaMalloc(&da, n * 2)); CHECK(cudaMalloc(&db, n * 2)); CHECK(cudaMalloc(&dc, n * 2));
  CHECK(cudaMalloc(&dr, n * NOPS * 2)); CHECK(cudaMalloc(&dq, n * NCMP));
  CHECK(cudaMemcpy(da, A.data(), n * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, B.data(), n * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc, C.data(), n * 2, cudaMemcpyHostToDevice));
  harith<<<(n + 127) / 128, 128>>>(da, db, dc, dr, dq, n);
  CHECK_KERNEL();
  std::vector<unsigned short> R(n * NOPS);
  std::vector<unsigned char> Q(n * NCMP);
  CHECK(cudaMemcpy(R.data(), dr, R.size() * 2, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(Q.data(), dq, Q.size(), cudaMemcpyDeviceToHost));
  const char* names[NOPS] = {"__hadd", "__hsub", "__hmul", "__hfma", "__hdiv", "__hneg", "__habs", "__hadd_sat", "__hsub_sat", "__hmul_sat",
                             "__hfma_sat", "__hmin", "__hmax", "__hmin_nan", "__hmax_nan", "operator+", "operator-", "operator*", "operator/"};
  const char* cnames[NCMP] = {"__heq", "__hne", "__hlt", "__hle", "__hgt", "__hge", "__hequ", "__hneu", "__hltu", "__hleu", "__hgtu", "__hgeu",
                              "__hisnan", "__hisinf", "operator==", "operator<"};
  for (int k = 0; k < n; ++k) {
    long double x = h2ld(A[k]), y = h2ld(B[k]), z = h2ld(C[k]);
    bool xn = std::isnan(x), yn = std::isnan(y), anyn = xn || yn;
    long double ex[NOPS];
    ex[ADD] = x + y; ex[SUB] = x - y; ex[MUL] = x * y; ex[FMA] = x * y + z;  // exact in long double for these inputs
    ex[DIV] = x / y; ex[NEG] = -x; ex[ABS] = std::fabs(x);
    ex[OPADD] = ex[ADD]; ex[OPSUB] = ex[SUB]; ex[OPMUL] = ex[MUL]; ex[OPDIV] = ex[DIV];
    bool fma_exact = k < wide_begin || k >= wide_end;  // x*y+z is exact in long double only for moderate operands
    for (int op = 0; op < NOPS; ++op) {
      if ((op == FMA || op == FMAS) && !fma_exact) continue;
      unsigned short got = R[k * NOPS + op];
      long double gv = h2ld(got);
      bool ok = true;
      switch (op) {
        case ADD: case SUB: case MUL: case FMA: case OPADD: case OPSUB: case OPMUL:
          if (std::isnan(ex[op])) ok = is_nan(got);
          else if (std::isinf(ex[op]) || ex[op] == 0) ok = gv == ex[op];  // sign of exact zero not checked here
          else ok = half_rn_ok(got, wf::cmp_exact(ex[op]));
          break;
        case DIV: case OPDIV:
          if (anyn || (x == 0 && y == 0) || (std::isinf(x) && std::isinf(y))) ok = is_nan(got);
          else if (std::isinf(x) || y == 0) ok = std::isinf(gv) && std::signbit(gv) == (std::signbit(x) != std::signbit(y));
          else if (std::isinf(y) || x == 0) ok = gv == 0;
          else {  // sign(q - x/y) = sign(q*y - x) * sign(y), computed exactly with one fmal
            long double yy = y, xx = x;
            ok = half_rn_ok(got, [=](long double q) { int s = wf::sign_of(std::fma(q, yy, -xx)); return yy < 0 ? -s : s; });
          }
          break;
        case NEG: ok = xn ? is_nan(got) : got == (unsigned short)(A[k] ^ 0x8000); break;  // NaN in, some NaN out
        case ABS: ok = xn ? is_nan(got) : got == (unsigned short)(A[k] & 0x7fff); break;
        case ADDS: case SUBS: case MULS: case FMAS: {
          long double e = op == ADDS ? ex[ADD] : op == SUBS ? ex[SUB] : op == MULS ? ex[MUL] : ex[FMA];
          if (std::isnan(e)) ok = got == 0 || got == 0x8000;  // NaN saturates to +0
          else if (e <= 0) ok = gv == 0;
          else if (e >= 1) ok = gv == 1;
          else ok = half_rn_ok(got, wf::cmp_exact(e));
          break;
        }
        case MIN: case MAX: {
          if (xn && yn) ok = is_nan(got);
          else if (xn) ok = got == B[k];
          else if (yn) ok = got == A[k];
          else if (x == y) ok = gv == x;  // +0/-0: either
          else ok = gv == (op == MIN ? std::fmin(x, y) : std::fmax(x, y));
          break;
        }
        case MINN: case MAXN:
          if (anyn) ok = is_nan(got);
          else if (x == y) ok = gv == x;
          else ok = gv == (op == MINN ? std::fmin(x, y) : std::fmax(x, y));
          break;
      }
      if (!ok && wf::report(__FILE__, __LINE__, names[op], k))
        printf("a=0x%04x b=0x%04x c=0x%04x: got 0x%04x (%.8Lg)\n", A[k], B[k], C[k], got, gv);
    }
    bool q[NCMP] = {!anyn && x == y, !anyn && x != y, !anyn && x < y, !anyn && x <= y, !anyn && x > y, !anyn && x >= y,
                    anyn || x == y, anyn || x != y, anyn || x < y, anyn || x <= y, anyn || x > y, anyn || x >= y,
                    xn, std::isinf(x), !anyn && x == y, !anyn && x < y};
    for (int i = 0; i < NCMP; ++i) EXPECT_EQ((int)Q[k * NCMP + i], (int)q[i], cnames[i], k);
  }
  return wf::finish();
}

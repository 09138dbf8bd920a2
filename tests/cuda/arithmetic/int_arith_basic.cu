// WF-CHAPTER: arithmetic
// WF-FEATURES: arith.int.divmod, arith.int.shift, arith.int.minmax_abs, arith.int.wraparound, arith.int.sign_extension
// WF-DESCRIPTION: 32- and 64-bit integer division and remainder (truncation toward zero, negative operands, run-time divisors), shifts with run-time counts, unsigned wraparound, min/max/abs/llabs overloads, mixed-width promotions
#include "../common/check.h"
#include <algorithm>
#include <climits>
#include <cstdlib>
#include <vector>

constexpr int NR = 20;
__global__ void ops(const long long* a, const long long* b, long long* out, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  long long x = a[k], y = b[k];
  int xi = (int)x, yi = (int)y;
  unsigned xu = (unsigned)x, yu = (unsigned)y;
  unsigned long long xl = (unsigned long long)x, yl = (unsigned long long)y;
  int sh = (int)(yu % 32), shl = (int)(yu % 64);
  long long* o = out + k * NR;
  o[0] = yi != 0 && !(xi == INT_MIN && yi == -1) ? xi / yi : 0;
  o[1] = yi != 0 && !(xi == INT_MIN && yi == -1) ? xi % yi : 0;
  o[2] = yu ? xu / yu : 0;
  o[3] = yu ? xu % yu : 0;
  o[4] = y != 0 && !(x == LLONG_MIN && y == -1) ? x / y : 0;
  o[5] = y != 0 && !(x == LLONG_MIN && y == -1) ? x % y : 0;
  o[6] = yl ? (long long)(xl / yl) : 0;
  o[7] = yl ? (long long)(xl % yl) : 0;
  o[8] = xi >> sh;                  // arithmetic
  o[9] = xu >> sh;                  // logical
  o[10] = (int)(xu << sh);
  o[11] = x >> shl;
  o[12] = (long long)(xl << shl);
  o[13] = (long long)(xl >> shl);
  o[14] = (unsigned)(xu * yu + 0x9e3779b9u);
  o[15] = min(xi, yi) + 3LL * max(xu, yu);
  o[16] = (long long)((unsigned long long)abs(xi == INT_MIN ? 0 : xi) + (unsigned long long)llabs(x == LLONG_MIN ? 0 : x));
  o[17] = (long long)xi * (long long)yi;  // widening multiply
  o[18] = (short)xi + (unsigned char)yi;  // promotions
  o[19] = min(x, y) ^ max(xl, yl);
}

int main() {
  std::vector<long long> A = {0, 7, -7, 7, -7, INT_MIN, INT_MAX, LLONG_MIN, LLONG_MAX, -1, 1, 100, -100},
                         B = {1, 2, 2, -2, -2, -1, -1, -1, 3, 37, 64, 33, 31};
  wf::Rng r(3);
  for (int k = 0; k < 1500; ++k) {
    long long x = (long long)r.next64(), y = (long long)r.next64();
    if (k % 3 == 1) y >>= r.range(20, 62);           // small divisors
    if (k % 3 == 2) { x = (int)x; y = (int)r.range(-50, 50); }
    A.push_back(x); B.push_back(y);
  }
  int n = (int)A.size();
  long long *da, *db, *dout;
  CHECK(cudaMalloc(&da, n * 8)); CHECK(cudaMalloc(&db, n * 8)); CHECK(cudaMalloc(&dout, n * NR * 8));
  CHECK(cudaMemcpy(da, A.data(), n * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, B.data(), n * 8, cudaMemcpyHostToDevice));
  ops<<<(n + 127) / 128, 128>>>(da, db, dout, n);
  CHECK_KERNEL();
  std::vector<long long> o(n * NR);
  CHECK(cudaMemcpy(o.data(), dout, o.size() * 8, cudaMemcpyDeviceToHost));
  const char* names[NR] = {"int /", "int %", "unsigned /", "unsigned %", "long long /", "long long %", "ull /", "ull %",
                           "int >>", "unsigned >>", "unsigned <<", "long long >>", "ull <<", "ull >>", "unsigned wrap",
                           "min/max", "abs/llabs", "widening multiply", "promotions", "64-bit min/max"};
  for (int k = 0; k < n; ++k) {
    long long x = A[k], y = B[k];
    int xi = (int)x, yi = (int)y;
    unsigned xu = (unsigned)x, yu = (unsigned)y;
    unsigned long long xl = (unsigned long long)x, yl = (unsigned long long)y;
    int sh = (int)(yu % 32), shl = (int)(yu % 64);
    long long w[NR];
    w[0] = yi != 0 && !(xi == INT_MIN && yi == -1) ? xi / yi : 0;
    w[1] = yi != 0 && !(xi == INT_MIN && yi == -1) ? xi % yi : 0;
    w[2] = yu ? xu / yu : 0;
    w[3] = yu ? xu % yu : 0;
    w[4] = y != 0 && !(x == LLONG_MIN && y == -1) ? x / y : 0;
    w[5] = y != 0 && !(x == LLONG_MIN && y == -1) ? x % y : 0;
    w[6] = yl ? (long long)(xl / yl) : 0;
    w[7] = yl ? (long long)(xl % yl) : 0;
    w[8] = xi >> sh;
    w[9] = xu >> sh;
    w[10] = (int)(xu << sh);
    w[11] = x >> shl;
    w[12] = (long long)(xl << shl);
    w[13] = (long long)(xl >> shl);
    w[14] = (unsigned)(xu * yu + 0x9e3779b9u);
    w[15] = std::min(xi, yi) + 3LL * std::max(xu, yu);
    w[16] = (long long)((unsigned long long)std::abs(xi == INT_MIN ? 0 : xi) + (unsigned long long)std::llabs(x == LLONG_MIN ? 0 : x));
    w[17] = (long long)xi * (long long)yi;
    w[18] = (short)xi + (unsigned char)yi;
    w[19] = std::min(x, y) ^ (long long)std::max(xl, yl);
    for (int i = 0; i < NR; ++i) EXPECT_EQ(o[k * NR + i], w[i], names[i], k);
  }
  return wf::finish();
}

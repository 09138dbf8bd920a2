// WF-CHAPTER: arithmetic
// WF-FEATURES: arith.fp.denormals, arith.fp.special_values, arith.fp.signed_zero, arith.fp.nan_compare
// WF-DESCRIPTION: IEEE behaviour of plain float/double arithmetic without -ftz: subnormal operands and results (not flushed), gradual underflow, signed zeros, infinities, NaN propagation and unordered comparisons
#include "../common/check.h"
#include <limits>
#include <vector>

constexpr int NR = 12;
template <class T>
__global__ void ops(const T* x, const T* y, T* r, int* c, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  T a = x[k], b = y[k];
  T* o = r + k * NR;
  // __fadd_rn-style exactness is not needed: no multiply-add pairs here, so nothing contracts
  o[0] = a + b; o[1] = a - b; o[2] = a * b; o[3] = a / b;
  o[4] = a * (T)0.5; o[5] = a * (T)1e-10; o[6] = -a; o[7] = a * b * (T)0;
  o[8] = (T)0 - a; o[9] = a - a; o[10] = sqrt(a); o[11] = a + (T)0;
  c[k] = (a < b) | (a <= b) << 1 | (a > b) << 2 | (a >= b) << 3 | (a == b) << 4 | (a != b) << 5 | (isnan(a * b) ? 64 : 0);
}

template <class T>
void run(const char* tname) {
  const T tiny = std::numeric_limits<T>::denorm_min(), mn = std::numeric_limits<T>::min(), mx = std::numeric_limits<T>::max();
  std::vector<T> vals = {(T)0, -(T)0, tiny, -tiny, tiny * 3, mn, -mn, mn / 2, mn * (T)0.75, (T)1, -(T)1, mx, -mx,
                         (T)INFINITY, -(T)INFINITY, (T)NAN, (T)1e-20, (T)3.5, (T)1e20, mn * 4 - tiny};
  std::vector<T> x, y;
  for (T a : vals) for (T b : vals) { x.push_back(a); y.push_back(b); }
  int n = (int)x.size();
  T *dx, *dy, *dr; int* dc;
  CHECK(cudaMalloc(&dx, n * sizeof(T))); CHECK(cudaMalloc(&dy, n * sizeof(T)));
  CHECK(cudaMalloc(&dr, n * NR * sizeof(T))); CHECK(cudaMalloc(&dc, n * sizeof(int)));
  CHECK(cudaMemcpy(dx, x.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, y.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  ops<T><<<(n + 127) / 128, 128>>>(dx, dy, dr, dc, n);
  CHECK_KERNEL();
  std::vector<T> rr(n * NR);
  std::vector<int> cc(n);
  CHECK(cudaMemcpy(rr.data(), dr, rr.size() * sizeof(T), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(cc.data(), dc, n * sizeof(int), cudaMemcpyDeviceToHost));
  const char* names[NR] = {"a+b", "a-b", "a*b", "a/b", "a*0.5", "a*1e-10", "-a", "a*b*0", "0-a", "a-a", "sqrt(a)", "a+0"};
  char what[48];
  for (int k = 0; k < n; ++k) {
    volatile T a = x[k], b = y[k];  // volatile: no host-side constant folding differences
    T w[NR] = {a + b, a - b, a * b, a / b, a * (T)0.5, a * (T)1e-10, -a, a * b * (T)0, (T)0 - a, a - a, std::sqrt((T)a), a + (T)0};
    for (int j = 0; j < NR; ++j) {
      T g = rr[k * NR + j];
      bool ok = (std::isnan(g) && std::isnan(w[j])) || memcmp(&g, &w[j], sizeof(T)) == 0;
      if (!ok) {
        snprintf(what, sizeof what, "%s %s", names[j], tname);
        if (wf::report(__FILE__, __LINE__, what, k)) {
          printf("a=%a b=%a: got ", (double)a, (double)b); wf::show(g); printf(", want "); wf::show(w[j]); printf("\n");
        }
      }
    }
    int wc = (a < b) | (a <= b) << 1 | (a > b) << 2 | (a >= b) << 3 | (a == b) << 4 | (a != b) << 5 | (std::isnan(a * b) ? 64 : 0);
    snprintf(what, sizeof what, "comparisons %s", tname);
    EXPECT_EQ(cc[k], wc, what, k);
  }
  CHECK(cudaFree(dx)); CHECK(cudaFree(dy)); CHECK(cudaFree(dr)); CHECK(cudaFree(dc));
}

int main() {
  run<float>("(float)");
  run<double>("(double)");
  return wf::finish();
}

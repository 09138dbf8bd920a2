// WF-CHAPTER: language
// WF-FEATURES: lang.templates, lang.template_kernels, lang.constexpr, lang.variadic_templates
// WF-DESCRIPTION: function and class templates in device code, kernels templated on types and on integer parameters (unrolled by size), variadic templates and fold expressions, constexpr and if constexpr, template specialisation
#include "../common/check.h"
#include <vector>

template <class T> struct Traits { static constexpr int kind = 0; __device__ static T twice(T v) { return v + v; } };
template <> struct Traits<double> { static constexpr int kind = 2; __device__ static double twice(double v) { return 2.0 * v; } };

template <class T, int N>
struct Vec {
  T v[N];
  __device__ T dot(const Vec& o) const { T s = 0;
#pragma unroll
    for (int i = 0; i < N; ++i) s += v[i] * o.v[i];
    return s; }
};

template <class... Ts> __device__ constexpr auto sum_all(Ts... xs) { return (xs + ... + 0); }
template <class T> __device__ constexpr T cube(T x) { return x * x * x; }
__host__ __device__ constexpr int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }

template <class T, int N>
__global__ void kernel(const T* in, T* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Vec<T, N> a, b;
  for (int k = 0; k < N; ++k) { a.v[k] = in[(i + k) % n]; b.v[k] = (T)(k + 1); }
  T r = a.dot(b) + Traits<T>::twice(in[i]);
  if constexpr (N > 2) r += cube<T>((T)N);
  else r -= (T)fact(5);
  out[i] = r + (T)sum_all(1, 2, 3, N) + (T)Traits<T>::kind;
}

template <class T, int N>
void run(const char* name) {
  const int n = 257;
  std::vector<T> in(n);
  for (int i = 0; i < n; ++i) in[i] = (T)((i * 7) % 23);
  T *d, *o;
  CHECK(cudaMalloc(&d, n * sizeof(T))); CHECK(cudaMalloc(&o, n * sizeof(T)));
  CHECK(cudaMemcpy(d, in.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  kernel<T, N><<<(n + 63) / 64, 64>>>(d, o, n);
  CHECK_KERNEL();
  std::vector<T> h(n);
  CHECK(cudaMemcpy(h.data(), o, n * sizeof(T), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    T s = 0;
    for (int k = 0; k < N; ++k) s += in[(i + k) % n] * (T)(k + 1);
    s += in[i] + in[i];
    if (N > 2) s += (T)(N * N * N); else s -= (T)120;
    s += (T)(6 + N) + (T)(std::is_same<T, double>::value ? 2 : 0);
    EXPECT_EQ(h[i], s, name, i);
  }
  CHECK(cudaFree(d)); CHECK(cudaFree(o));
}

int main() {
  run<int, 1>("int,1"); run<int, 4>("int,4"); run<float, 3>("float,3"); run<double, 8>("double,8");
  run<long long, 2>("long long,2"); run<unsigned short, 5>("unsigned short,5");
  return wf::finish();
}

// WF-CHAPTER: language
// WF-FEATURES: lang.classes, lang.constructors, lang.operator_overloading, lang.inheritance, lang.host_device_functions
// WF-DESCRIPTION: classes with __device__/__host__ __device__ constructors, destructors, member functions, operator overloading, static members, inheritance (non-virtual), objects passed to kernels by value and built in shared memory
#include "../common/check.h"
#include <vector>

// Products that are never fused with a following add, on both sides (host code has no FMA here).
__host__ __device__ inline float mul_rn(float a, float b) {
#ifdef __CUDA_ARCH__
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}

struct Complex {
  float re, im;
  Complex() = default;  // trivial: allowed for __shared__ arrays
  __host__ __device__ Complex(float r, float i) : re(r), im(i) {}
  __host__ __device__ Complex operator+(const Complex& o) const { return Complex(re + o.re, im + o.im); }
  __host__ __device__ Complex operator*(const Complex& o) const { return Complex(mul_rn(re, o.re) - mul_rn(im, o.im), mul_rn(re, o.im) + mul_rn(im, o.re)); }
  __host__ __device__ Complex& operator+=(const Complex& o) { re += o.re; im += o.im; return *this; }
  __host__ __device__ float norm2() const { return mul_rn(re, re) + mul_rn(im, im); }
  __host__ __device__ bool operator==(const Complex& o) const { return re == o.re && im == o.im; }
};

class Counter {
 public:
  __device__ explicit Counter(int* sink) : sink_(sink), count_(0) {}
  __device__ ~Counter() { atomicAdd(sink_, count_); }  // destructor runs at scope exit
  __device__ void tick(int k = 1) { count_ += k; }
 private:
  int* sink_;
  int count_;
};

struct Shape {
  int sides;
  __host__ __device__ Shape(int s) : sides(s) {}
  __host__ __device__ int corners() const { return sides; }
  static constexpr int kMax = 12;
};
struct Square : Shape {
  float side;
  __host__ __device__ Square(float s) : Shape(4), side(s) {}
  __host__ __device__ float area() const { return side * side; }
};

struct Params { Complex c; Square sq; int iters; };

__global__ void use(Params p, const Complex* in, Complex* out, float* areas, int* ticks, int n) {
  __shared__ Complex sh[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Counter counter(ticks);
  if (i < n) {
    sh[threadIdx.x] = in[i];
    Complex z = sh[threadIdx.x];
    for (int k = 0; k < p.iters; ++k) { z = z * z + p.c; counter.tick(); }
    z += Complex(1, -1);
    out[i] = z;
    Square s(p.sq.side + (float)(i % 3));
    areas[i] = s.area() + (float)(s.corners() * Shape::kMax);
  }
}

int main() {
  const int n = 150;
  std::vector<Complex> in(n);
  for (int i = 0; i < n; ++i) in[i] = Complex((i % 10) * 0.1f - 0.5f, (i % 7) * 0.1f - 0.3f);
  Params p{Complex(-0.25f, 0.125f), Square(2.0f), 4};
  Complex *d, *o; float* a; int* t;
  CHECK(cudaMalloc(&d, n * sizeof(Complex))); CHECK(cudaMalloc(&o, n * sizeof(Complex)));
  CHECK(cudaMalloc(&a, n * 4)); CHECK(cudaMalloc(&t, 4));
  CHECK(cudaMemset(t, 0, 4));
  CHECK(cudaMemcpy(d, in.data(), n * sizeof(Complex), cudaMemcpyHostToDevice));
  use<<<3, 64>>>(p, d, o, a, t, n);
  CHECK_KERNEL();
  std::vector<Complex> h(n);
  std::vector<float> ha(n);
  int ht;
  CHECK(cudaMemcpy(h.data(), o, n * sizeof(Complex), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ha.data(), a, n * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&ht, t, 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    Complex z = in[i];
    for (int k = 0; k < p.iters; ++k) z = z * z + p.c;  // mul_rn products: no contraction on either side
    z += Complex(1, -1);
    EXPECT_EQ(h[i].re, z.re, "complex re", i);
    EXPECT_EQ(h[i].im, z.im, "complex im", i);
    Square s(2.0f + (float)(i % 3));
    EXPECT_EQ(ha[i], s.area() + 4.0f * 12, "inherited members", i);
  }
  EXPECT_EQ(ht, n * p.iters, "destructor side effects", 0);
  return wf::finish();
}

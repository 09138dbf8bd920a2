// WF-CHAPTER: language
// WF-FEATURES: lang.virtual_functions, lang.device_new_delete, lang.placement_new, mem.device_heap.malloc_free
// WF-DESCRIPTION: polymorphic classes with virtual functions and virtual destructors, objects created in device code (new/delete on the device heap and placement new into global memory) and called through base pointers with per-lane dynamic types
#include "../common/check.h"
#include <new>
#include <vector>

struct Shape {
  __device__ virtual ~Shape() {}
  __device__ virtual int area() const = 0;
  __device__ virtual int kind() const { return 0; }
};
struct Rect : Shape {
  int w, h;
  __device__ Rect(int w_, int h_) : w(w_), h(h_) {}
  __device__ int area() const override { return w * h; }
  __device__ int kind() const override { return 1; }
};
struct Square : Rect {
  __device__ explicit Square(int s) : Rect(s, s) {}
  __device__ int kind() const override { return 2; }
};
struct Tri : Shape {
  int b, h;
  __device__ Tri(int b_, int h_) : b(b_), h(h_) {}
  __device__ int area() const override { return b * h / 2; }
};
__device__ int destroyed = 0;
struct Counted : Square {
  __device__ explicit Counted(int s) : Square(s) {}
  __device__ ~Counted() override { atomicAdd(&destroyed, 1); }
  __device__ int area() const override { return Square::area() + 1; }
};

__global__ void heap_objects(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Shape* s;
  switch (i % 4) {
    case 0: s = new Rect(i % 7 + 1, 3); break;
    case 1: s = new Square(i % 5 + 1); break;
    case 2: s = new Tri(i % 9 + 2, 4); break;
    default: s = new Counted(i % 3 + 1); break;
  }
  if (s == nullptr) { out[i] = -1; return; }
  out[i] = s->area() * 10 + s->kind();
  delete s;  // virtual destructor
}

__global__ void placement(char* storage, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  void* slot = storage + (size_t)i * 64;
  Shape* s = (i & 1) ? (Shape*)new (slot) Tri(i % 10, 6) : (Shape*)new (slot) Square(i % 4);
  out[i] = s->area() * 10 + s->kind();
  s->~Shape();
}

int main() {
  CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 4 << 20));
  const int n = 256;
  int* d; char* storage;
  CHECK(cudaMalloc(&d, n * 4)); CHECK(cudaMalloc(&storage, n * 64));
  heap_objects<<<(n + 63) / 64, 64>>>(d, n);
  CHECK_KERNEL();
  std::vector<int> h(n);
  CHECK(cudaMemcpy(h.data(), d, n * 4, cudaMemcpyDeviceToHost));
  int counted = 0;
  for (int i = 0; i < n; ++i) {
    int w;
    switch (i % 4) {
      case 0: w = (i % 7 + 1) * 3 * 10 + 1; break;
      case 1: w = (i % 5 + 1) * (i % 5 + 1) * 10 + 2; break;
      case 2: w = ((i % 9 + 2) * 4 / 2) * 10 + 0; break;
      default: w = ((i % 3 + 1) * (i % 3 + 1) + 1) * 10 + 2; ++counted;
    }
    EXPECT_EQ(h[i], w, "virtual call on heap object", i);
  }
  int hd;
  CHECK(cudaMemcpyFromSymbol(&hd, destroyed, sizeof(int)));
  EXPECT_EQ(hd, counted, "virtual destructor ran", 0);
  placement<<<(n + 63) / 64, 64>>>(storage, d, n);
  CHECK_KERNEL();
  CHECK(cudaMemcpy(h.data(), d, n * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    int w = (i & 1) ? ((i % 10) * 6 / 2) * 10 : (i % 4) * (i % 4) * 10 + 2;
    EXPECT_EQ(h[i], w, "virtual call on placement-new object", i);
  }
  return wf::finish();
}

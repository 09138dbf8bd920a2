// WF-CHAPTER: memory
// WF-FEATURES: mem.device_global, mem.symbol.memcpy_to, mem.symbol.memcpy_from, mem.symbol.address, mem.symbol.size, mem.device_global.persist
// WF-DESCRIPTION: __device__ global variables and arrays: static initialisers, cudaMemcpyTo/FromSymbol, cudaGetSymbolAddress/Size, state persisting across launches
#include "../common/check.h"
#include <vector>

__device__ int counter = 5;
__device__ float arr[100];
__device__ long long big[3] = {1LL << 40, -3, 77};
struct Pair { int a; double b; };
__device__ Pair pair_var = {3, 2.5};

__global__ void bump(int times) {
  for (int i = 0; i < times; ++i) counter += 1;  // one thread
  pair_var.a *= 2;
  pair_var.b += 1.0;
  big[1] -= 1;
}
__global__ void scale_arr(float s) { arr[threadIdx.x] *= s; }
__global__ void via_pointer(float* p, int n) { if (threadIdx.x < n) p[threadIdx.x] += 1.0f; }

int main() {
  int h;
  CHECK(cudaMemcpyFromSymbol(&h, counter, sizeof(int)));
  EXPECT_EQ(h, 5, "initial counter", 0);
  bump<<<1, 1>>>(10);
  CHECK_KERNEL();
  bump<<<1, 1>>>(3);  // state persists between launches
  CHECK_KERNEL();
  CHECK(cudaMemcpyFromSymbol(&h, counter, sizeof(int)));
  EXPECT_EQ(h, 18, "counter after launches", 0);
  Pair hp;
  CHECK(cudaMemcpyFromSymbol(&hp, pair_var, sizeof(Pair)));
  EXPECT_EQ(hp.a, 12, "pair.a", 0);
  EXPECT_EQ(hp.b, 4.5, "pair.b", 0);
  long long hb[3];
  CHECK(cudaMemcpyFromSymbol(hb, big, sizeof(hb)));
  EXPECT_EQ(hb[0], 1LL << 40, "big[0]", 0);
  EXPECT_EQ(hb[1], -5LL, "big[1]", 1);
  EXPECT_EQ(hb[2], 77LL, "big[2]", 2);

  std::vector<float> v(100);
  for (int i = 0; i < 100; ++i) v[i] = i * 1.0f;
  CHECK(cudaMemcpyToSymbol(arr, v.data(), sizeof(float) * 100));
  scale_arr<<<1, 100>>>(3.0f);
  CHECK_KERNEL();
  float* p = nullptr;
  CHECK(cudaGetSymbolAddress((void**)&p, arr));
  size_t sz = 0;
  CHECK(cudaGetSymbolSize(&sz, arr));
  EXPECT_EQ(sz, (size_t)400, "symbol size", 0);
  CHECK(cudaGetSymbolSize(&sz, pair_var));
  EXPECT_EQ(sz, sizeof(Pair), "struct symbol size", 0);
  via_pointer<<<1, 128>>>(p + 10, 50);  // the address works as an ordinary device pointer
  CHECK_KERNEL();
  std::vector<float> o(100);
  CHECK(cudaMemcpy(o.data(), p, 400, cudaMemcpyDeviceToHost));  // plain memcpy from the symbol address
  for (int i = 0; i < 100; ++i) EXPECT_EQ(o[i], i * 3.0f + ((i >= 10 && i < 60) ? 1.0f : 0.0f), "arr", i);
  // memcpy device-to-device into a symbol
  float* tmp;
  CHECK(cudaMalloc(&tmp, 8 * sizeof(float)));
  CHECK(cudaMemcpy(tmp, v.data() + 90, 8 * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpyToSymbol(arr, tmp, 8 * sizeof(float), 4 * sizeof(float), cudaMemcpyDeviceToDevice));
  CHECK(cudaMemcpyFromSymbol(o.data(), arr, 16 * sizeof(float)));
  for (int i = 0; i < 16; ++i) {
    float want = (i >= 4 && i < 12) ? (float)(90 + i - 4) : i * 3.0f + ((i >= 10) ? 1.0f : 0.0f);
    EXPECT_EQ(o[i], want, "arr after D2D symbol copy", i);
  }
  CHECK(cudaFree(tmp));
  return wf::finish();
}

// WF-CHAPTER: textures
// WF-FEATURES: surf.rw.1d, surf.rw.3d, surf.rw.layered, surf.object.create
// WF-DESCRIPTION: surf1Dread/surf1Dwrite, surf3Dread/surf3Dwrite and surf2DLayeredread/surf2DLayeredwrite on CUDA arrays with cudaArraySurfaceLoadStore (and cudaArrayLayered), each a read-modify-write checked after copying the array back
// WF-WAITS-FOR: texture-unit
#include "../common/check.h"
#include <vector>

constexpr int N = 100, W = 10, H = 6, D = 5, L = 3;

__global__ void k1(cudaSurfaceObject_t s) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x < N) surf1Dwrite(surf1Dread<int>(s, x * 4) * 2 + 1, s, x * 4);
}
__global__ void k3(cudaSurfaceObject_t s) {
  int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;
  float2 v = surf3Dread<float2>(s, x * 8, y, z);
  surf3Dwrite(make_float2(v.y, v.x + z), s, x * 8, y, z);
}
__global__ void kl(cudaSurfaceObject_t s) {
  int x = threadIdx.x, y = threadIdx.y, l = blockIdx.x;
  short v = surf2DLayeredread<short>(s, x * 2, y, l);
  surf2DLayeredwrite((short)(v - 7 * l), s, x * 2, y, l);
}

cudaSurfaceObject_t surf(cudaArray_t a) {
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = a;
  cudaSurfaceObject_t s;
  CHECK(cudaCreateSurfaceObject(&s, &rd));
  return s;
}
template <class T>
void copy3d(cudaArray_t a, T* host, int w, int h, int d, bool up) {
  cudaMemcpy3DParms p = {};
  cudaPitchedPtr hp = make_cudaPitchedPtr(host, w * sizeof(T), w, h);
  if (up) { p.srcPtr = hp; p.dstArray = a; p.kind = cudaMemcpyHostToDevice; }
  else { p.srcArray = a; p.dstPtr = hp; p.kind = cudaMemcpyDeviceToHost; }
  p.extent = make_cudaExtent(w, h, d);
  CHECK(cudaMemcpy3D(&p));
}

int main() {
  // 1D
  std::vector<int> v1(N);
  for (int i = 0; i < N; ++i) v1[i] = i * i - 50;
  cudaChannelFormatDesc c1 = cudaCreateChannelDesc<int>();
  cudaArray_t a1;
  CHECK(cudaMallocArray(&a1, &c1, N, 0, cudaArraySurfaceLoadStore));
  CHECK(cudaMemcpy2DToArray(a1, 0, 0, v1.data(), N * 4, N * 4, 1, cudaMemcpyHostToDevice));
  cudaSurfaceObject_t s1 = surf(a1);
  k1<<<(N + 63) / 64, 64>>>(s1);
  CHECK_KERNEL();
  std::vector<int> r1(N);
  CHECK(cudaMemcpy2DFromArray(r1.data(), N * 4, a1, 0, 0, N * 4, 1, cudaMemcpyDeviceToHost));
  for (int i = 0; i < N; ++i) EXPECT_EQ(r1[i], v1[i] * 2 + 1, "surf1D", i);
  // 3D
  std::vector<float2> v3(W * H * D), r3(W * H * D);
  for (int i = 0; i < W * H * D; ++i) v3[i] = make_float2((float)i, -(float)i * 0.5f);
  cudaChannelFormatDesc c3 = cudaCreateChannelDesc<float2>();
  cudaArray_t a3;
  CHECK(cudaMalloc3DArray(&a3, &c3, make_cudaExtent(W, H, D), cudaArraySurfaceLoadStore));
  copy3d(a3, v3.data(), W, H, D, true);
  cudaSurfaceObject_t s3 = surf(a3);
  k3<<<D, dim3(W, H)>>>(s3);
  CHECK_KERNEL();
  copy3d(a3, r3.data(), W, H, D, false);
  for (int z = 0; z < D; ++z)
    for (int i = 0; i < W * H; ++i) {
      int k = z * W * H + i;
      EXPECT_EQ(r3[k].x, v3[k].y, "surf3D .x", k);
      EXPECT_EQ(r3[k].y, v3[k].x + z, "surf3D .y", k);
    }
  // 2D layered
  std::vector<short> vl(W * H * L), rl(W * H * L);
  for (int i = 0; i < W * H * L; ++i) vl[i] = (short)(i * 3 - 100);
  cudaChannelFormatDesc cl = cudaCreateChannelDesc<short>();
  cudaArray_t al;
  CHECK(cudaMalloc3DArray(&al, &cl, make_cudaExtent(W, H, L), cudaArrayLayered | cudaArraySurfaceLoadStore));
  copy3d(al, vl.data(), W, H, L, true);
  cudaSurfaceObject_t sl = surf(al);
  kl<<<L, dim3(W, H)>>>(sl);
  CHECK_KERNEL();
  copy3d(al, rl.data(), W, H, L, false);
  for (int l = 0; l < L; ++l)
    for (int i = 0; i < W * H; ++i) EXPECT_EQ(rl[l * W * H + i], (short)(vl[l * W * H + i] - 7 * l), "surf2DLayered", l * W * H + i);
  CHECK(cudaDestroySurfaceObject(s1)); CHECK(cudaDestroySurfaceObject(s3)); CHECK(cudaDestroySurfaceObject(sl));
  CHECK(cudaFreeArray(a1)); CHECK(cudaFreeArray(a3)); CHECK(cudaFreeArray(al));
  return wf::finish();
}

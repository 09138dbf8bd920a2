// WF-CHAPTER: textures
// WF-FEATURES: surf.object.create, surf.rw.2d, surf.boundary.zero, surf.boundary.clamp, tex.resource.array
// WF-DESCRIPTION: surface objects on 2D CUDA arrays created with cudaArraySurfaceLoadStore: surf2Dread/surf2Dwrite with byte x offsets for float, int and uchar4 texels, boundary modes zero (reads outside return 0, writes are dropped) and clamp, then the array read back by copy and through a texture object
// WF-WAITS-FOR: texture-unit
#include "../common/check.h"
#include <vector>

constexpr int W = 40, H = 25;

__global__ void transform(cudaSurfaceObject_t in, cudaSurfaceObject_t out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= W) return;
  float v = surf2Dread<float>(in, x * (int)sizeof(float), y);
  float l = surf2Dread<float>(in, (x - 1) * (int)sizeof(float), y, cudaBoundaryModeZero);   // x = 0 reads 0
  float r = surf2Dread<float>(in, (x + 1) * (int)sizeof(float), y, cudaBoundaryModeClamp);  // x = W-1 reads itself
  surf2Dwrite(v * 2.0f + l - r, out, x * (int)sizeof(float), y);
  surf2Dwrite(-1.0f, out, (x + W) * (int)sizeof(float), y, cudaBoundaryModeZero);  // out of range: ignored
}
__global__ void ints(cudaSurfaceObject_t s, cudaSurfaceObject_t c) {
  int x = threadIdx.x, y = blockIdx.x;
  int v = surf2Dread<int>(s, x * 4, y);
  surf2Dwrite(v * 3 - x, s, x * 4, y);
  uchar4 q = surf2Dread<uchar4>(c, x * 4, y);
  surf2Dwrite(make_uchar4(q.w, q.z, q.y, (unsigned char)(q.x + 1)), c, x * 4, y);
}
__global__ void via_texture(cudaTextureObject_t t, float* o) {
  int x = threadIdx.x, y = blockIdx.x;
  o[y * W + x] = tex2D<float>(t, x + 0.5f, y + 0.5f);
}

template <class T>
cudaArray_t make_array(const std::vector<T>& h) {
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<T>();
  cudaArray_t a;
  CHECK(cudaMallocArray(&a, &cd, W, H, cudaArraySurfaceLoadStore));
  CHECK(cudaMemcpy2DToArray(a, 0, 0, h.data(), W * sizeof(T), W * sizeof(T), H, cudaMemcpyHostToDevice));
  return a;
}
cudaSurfaceObject_t surf(cudaArray_t a) {
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = a;
  cudaSurfaceObject_t s;
  CHECK(cudaCreateSurfaceObject(&s, &rd));
  return s;
}

int main() {
  std::vector<float> f(W * H), zero(W * H, 0.0f);
  std::vector<int> iv(W * H);
  std::vector<uchar4> cv(W * H);
  for (int i = 0; i < W * H; ++i) { f[i] = (float)((i * 7) % 50) - 10; iv[i] = i * 31 - 500; cv[i] = make_uchar4(i, i >> 2, 3 * i, 200); }
  cudaArray_t ain = make_array(f), aout = make_array(zero), ai = make_array(iv), ac = make_array(cv);
  cudaSurfaceObject_t sin_ = surf(ain), sout = surf(aout), si = surf(ai), sc = surf(ac);
  transform<<<dim3((W + 31) / 32, H), 32>>>(sin_, sout);
  ints<<<H, W>>>(si, sc);
  CHECK_KERNEL();
  std::vector<float> ho(W * H);
  std::vector<int> hi(W * H);
  std::vector<uchar4> hc(W * H);
  CHECK(cudaMemcpy2DFromArray(ho.data(), W * 4, aout, 0, 0, W * 4, H, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy2DFromArray(hi.data(), W * 4, ai, 0, 0, W * 4, H, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy2DFromArray(hc.data(), W * 4, ac, 0, 0, W * 4, H, cudaMemcpyDeviceToHost));
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      int i = y * W + x;
      float l = x > 0 ? f[i - 1] : 0.0f, r = x + 1 < W ? f[i + 1] : f[i];
      EXPECT_EQ(ho[i], f[i] * 2.0f + l - r, "surf2D float with boundary modes", i);
      EXPECT_EQ(hi[i], iv[i] * 3 - x, "surf2D int read-modify-write", i);
      EXPECT_EQ((int)hc[i].x, (int)cv[i].w, "surf2D uchar4.x", i);
      EXPECT_EQ((int)hc[i].y, (int)cv[i].z, "surf2D uchar4.y", i);
      EXPECT_EQ((int)hc[i].z, (int)cv[i].y, "surf2D uchar4.z", i);
      EXPECT_EQ((int)hc[i].w, (int)(unsigned char)(cv[i].x + 1), "surf2D uchar4.w", i);
    }
  // the written array is visible to a texture in a later launch
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = aout;
  cudaTextureDesc td = {};
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t t;
  CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  float* d;
  CHECK(cudaMalloc(&d, W * H * 4));
  via_texture<<<H, W>>>(t, d);
  CHECK_KERNEL();
  std::vector<float> ht(W * H);
  CHECK(cudaMemcpy(ht.data(), d, W * H * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < W * H; ++i) EXPECT_EQ(ht[i], ho[i], "texture sees surface writes", i);
  CHECK(cudaDestroySurfaceObject(sin_)); CHECK(cudaDestroySurfaceObject(sout)); CHECK(cudaDestroySurfaceObject(si)); CHECK(cudaDestroySurfaceObject(sc));
  CHECK(cudaDestroyTextureObject(t));
  return wf::finish();
}

// WF-CHAPTER: textures
// WF-FEATURES: tex.object.create, tex.resource.array, tex.fetch.tex2D, tex.filter.point, tex.array.memcpy, tex.format.vector
// WF-DESCRIPTION: 2D CUDA arrays (cudaMallocArray, cudaMemcpy2DToArray, cudaMemcpy2DFromArray) of float, int2 and uchar4 texels read with tex2D, point sampling with unnormalized coordinates anywhere inside a texel (floor rule of guide F.1), clamp addressing
// WF-WAITS-FOR: texture-unit
#include "../common/check.h"
#include <vector>

__global__ void sample(cudaTextureObject_t tf, cudaTextureObject_t ti, cudaTextureObject_t tc, const float2* xy, float* of, int2* oi,
                       uchar4* oc, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  float2 p = xy[k];
  of[k] = tex2D<float>(tf, p.x, p.y);
  oi[k] = tex2D<int2>(ti, p.x, p.y);
  oc[k] = tex2D<uchar4>(tc, p.x, p.y);
}

template <class T>
cudaTextureObject_t make(cudaArray_t arr) {
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = arr;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = 0;
  cudaTextureObject_t t;
  CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  return t;
}
template <class T>
cudaArray_t upload(const std::vector<T>& h, int W, int H) {
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<T>();
  cudaArray_t a;
  CHECK(cudaMallocArray(&a, &cd, W, H));
  CHECK(cudaMemcpy2DToArray(a, 0, 0, h.data(), W * sizeof(T), W * sizeof(T), H, cudaMemcpyHostToDevice));
  std::vector<T> back(W * H);
  CHECK(cudaMemcpy2DFromArray(back.data(), W * sizeof(T), a, 0, 0, W * sizeof(T), H, cudaMemcpyDeviceToHost));
  EXPECT_TRUE(memcmp(back.data(), h.data(), W * H * sizeof(T)) == 0, "array round trip");
  return a;
}

int main() {
  const int W = 37, H = 23;
  std::vector<float> hf(W * H); std::vector<int2> hi(W * H); std::vector<uchar4> hc(W * H);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      int i = y * W + x;
      hf[i] = x + 100.0f * y; hi[i] = make_int2(x * y, -x); hc[i] = make_uchar4(x, y, x ^ y, 255 - x);
    }
  cudaArray_t af = upload(hf, W, H), ai = upload(hi, W, H), ac = upload(hc, W, H);
  cudaTextureObject_t tf = make<float>(af), ti = make<int2>(ai), tc = make<uchar4>(ac);
  std::vector<float2> xy;
  wf::Rng r(1);
  const float fr[] = {0.0f, 0.25f, 0.5f, 0.75f, 0.9375f};
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; x += 3) xy.push_back(make_float2(x + fr[(x + y) % 5], y + fr[(x * 3 + y) % 5]));
  for (int k = 0; k < 200; ++k) xy.push_back(make_float2(r.range(-20, W + 20) + 0.5f, r.range(-10, H + 10) + 0.25f));  // clamp
  int n = (int)xy.size();
  float2* dxy; float* of; int2* oi; uchar4* oc;
  CHECK(cudaMalloc(&dxy, n * 8)); CHECK(cudaMalloc(&of, n * 4)); CHECK(cudaMalloc(&oi, n * 8)); CHECK(cudaMalloc(&oc, n * 4));
  CHECK(cudaMemcpy(dxy, xy.data(), n * 8, cudaMemcpyHostToDevice));
  sample<<<(n + 127) / 128, 128>>>(tf, ti, tc, dxy, of, oi, oc, n);
  CHECK_KERNEL();
  std::vector<float> rf(n); std::vector<int2> ri(n); std::vector<uchar4> rc(n);
  CHECK(cudaMemcpy(rf.data(), of, n * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ri.data(), oi, n * 8, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(rc.data(), oc, n * 4, cudaMemcpyDeviceToHost));
  for (int k = 0; k < n; ++k) {
    int x = (int)std::floor(xy[k].x), y = (int)std::floor(xy[k].y);
    x = x < 0 ? 0 : x >= W ? W - 1 : x;
    y = y < 0 ? 0 : y >= H ? H - 1 : y;
    int i = y * W + x;
    EXPECT_EQ(rf[k], hf[i], "float texel", k);
    EXPECT_EQ(ri[k].x, hi[i].x, "int2.x", k); EXPECT_EQ(ri[k].y, hi[i].y, "int2.y", k);
    EXPECT_EQ((int)rc[k].x, (int)hc[i].x, "uchar4.x", k); EXPECT_EQ((int)rc[k].y, (int)hc[i].y, "uchar4.y", k);
    EXPECT_EQ((int)rc[k].z, (int)hc[i].z, "uchar4.z", k); EXPECT_EQ((int)rc[k].w, (int)hc[i].w, "uchar4.w", k);
  }
  CHECK(cudaDestroyTextureObject(tf)); CHECK(cudaDestroyTextureObject(ti)); CHECK(cudaDestroyTextureObject(tc));
  CHECK(cudaFreeArray(af)); CHECK(cudaFreeArray(ai)); CHECK(cudaFreeArray(ac));
  return wf::finish();
}

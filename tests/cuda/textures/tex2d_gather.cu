// WF-CHAPTER: textures
// WF-FEATURES: tex.gather, tex.fetch.tex2D
// WF-DESCRIPTION: tex2Dgather (guide 3.2.11.1.7): the four texels of the bilinear footprint for one component (comp 0..3) of a uchar4/float4 2D array, clamp addressing; returned in the order (i, j+1), (i+1, j+1), (i+1, j), (i, j)
// WF-WAITS-FOR: texture-unit
#include "../common/check.h"
#include <vector>

constexpr int W = 12, H = 9;
__global__ void gather(cudaTextureObject_t t, const float2* p, float4* o, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  float x = p[k].x, y = p[k].y;
  o[k * 4 + 0] = tex2Dgather<float4>(t, x, y, 0);
  o[k * 4 + 1] = tex2Dgather<float4>(t, x, y, 1);
  o[k * 4 + 2] = tex2Dgather<float4>(t, x, y, 2);
  o[k * 4 + 3] = tex2Dgather<float4>(t, x, y, 3);
}

int main() {
  std::vector<float4> T(W * H);
  for (int i = 0; i < W * H; ++i) T[i] = make_float4(i, 1000 + i, -i, i * 0.5f);
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float4>();
  cudaArray_t a;
  CHECK(cudaMallocArray(&a, &cd, W, H, cudaArrayTextureGather));  // gather needs this flag (guide 3.2.11.1.7)
  CHECK(cudaMemcpy2DToArray(a, 0, 0, T.data(), W * 16, W * 16, H, cudaMemcpyHostToDevice));
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = a;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t t;
  CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  std::vector<float2> ps;
  for (int j = -2; j < 4 * H + 2; j += 3)
    for (int i = -2; i < 4 * W + 2; i += 3) ps.push_back(make_float2((i + 0.5f) / 4, (j + 0.5f) / 4));
  int n = (int)ps.size();
  float2* dp; float4* o;
  CHECK(cudaMalloc(&dp, n * 8)); CHECK(cudaMalloc(&o, n * 4 * 16));
  CHECK(cudaMemcpy(dp, ps.data(), n * 8, cudaMemcpyHostToDevice));
  gather<<<(n + 127) / 128, 128>>>(t, dp, o, n);
  CHECK_KERNEL();
  std::vector<float4> h(n * 4);
  CHECK(cudaMemcpy(h.data(), o, h.size() * 16, cudaMemcpyDeviceToHost));
  auto cl = [](int v, int m) { return v < 0 ? 0 : v >= m ? m - 1 : v; };
  auto comp = [](const float4& v, int c) { return c == 0 ? v.x : c == 1 ? v.y : c == 2 ? v.z : v.w; };
  for (int k = 0; k < n; ++k) {
    int i = (int)std::floor(ps[k].x - 0.5), j = (int)std::floor(ps[k].y - 0.5);
    const float4& t00 = T[cl(j, H) * W + cl(i, W)];
    const float4& t10 = T[cl(j, H) * W + cl(i + 1, W)];
    const float4& t01 = T[cl(j + 1, H) * W + cl(i, W)];
    const float4& t11 = T[cl(j + 1, H) * W + cl(i + 1, W)];
    for (int c = 0; c < 4; ++c) {
      const float4& g = h[k * 4 + c];
      EXPECT_EQ(g.x, comp(t01, c), "gather .x = T[i, j+1]", k * 4 + c);
      EXPECT_EQ(g.y, comp(t11, c), "gather .y = T[i+1, j+1]", k * 4 + c);
      EXPECT_EQ(g.z, comp(t10, c), "gather .z = T[i+1, j]", k * 4 + c);
      EXPECT_EQ(g.w, comp(t00, c), "gather .w = T[i, j]", k * 4 + c);
    }
  }
  CHECK(cudaDestroyTextureObject(t));
  CHECK(cudaFreeArray(a));
  return wf::finish();
}

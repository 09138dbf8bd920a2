// WF-CHAPTER: textures
// WF-FEATURES: tex.layered.1d, tex.layered.2d, tex.filter.linear, tex.filter.point, mem.3d.memcpy
// WF-DESCRIPTION: layered textures (guide 3.2.11.1.4): 1D and 2D layered CUDA arrays (cudaArrayLayered) read with tex1DLayered and tex2DLayered; filtering happens only within a layer, never across layers
// WF-WAITS-FOR: texture-unit
#include "../common/check.h"
#include <vector>

__global__ void s1(cudaTextureObject_t t, const float2* p, float* o, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) o[k] = tex1DLayered<float>(t, p[k].x, (int)p[k].y);
}
__global__ void s2(cudaTextureObject_t t, const float4* p, float* o, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) o[k] = tex2DLayered<float>(t, p[k].x, p[k].y, (int)p[k].z);
}

static int cl(int i, int n) { return i < 0 ? 0 : i >= n ? n - 1 : i; }

cudaTextureObject_t make(cudaArray_t a, bool lin) {
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = a;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = lin ? cudaFilterModeLinear : cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t t;
  CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  return t;
}

int main() {
  const int N = 20, L1 = 5, W = 12, H = 9, L2 = 4;
  std::vector<float> T1(N * L1), T2(W * H * L2);
  for (int i = 0; i < N * L1; ++i) T1[i] = (float)((i * 7) % 23) + 1000.0f * (i / N);      // layers differ a lot
  for (int i = 0; i < W * H * L2; ++i) T2[i] = (float)((i * 11) % 29) + 1000.0f * (i / (W * H));
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
  cudaArray_t a1, a2;
  CHECK(cudaMalloc3DArray(&a1, &cd, make_cudaExtent(N, 0, L1), cudaArrayLayered));
  CHECK(cudaMalloc3DArray(&a2, &cd, make_cudaExtent(W, H, L2), cudaArrayLayered));
  cudaMemcpy3DParms c1 = {};
  c1.srcPtr = make_cudaPitchedPtr(T1.data(), N * 4, N, 1);
  c1.dstArray = a1;
  c1.extent = make_cudaExtent(N, 1, L1);
  c1.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&c1));
  cudaMemcpy3DParms c2 = {};
  c2.srcPtr = make_cudaPitchedPtr(T2.data(), W * 4, W, H);
  c2.dstArray = a2;
  c2.extent = make_cudaExtent(W, H, L2);
  c2.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&c2));
  std::vector<float2> p1;
  for (int l = 0; l < L1; ++l)
    for (int k = -8; k < 8 * N + 8; k += 3) p1.push_back(make_float2((k + 0.5f) / 8, (float)l));
  std::vector<float4> p2;
  for (int l = 0; l < L2; ++l)
    for (int j = -4; j < 4 * H + 4; j += 3)
      for (int i = -4; i < 4 * W + 4; i += 5) p2.push_back(make_float4((i + 0.5f) / 4, (j + 0.5f) / 4, (float)l, 0));
  int n1 = (int)p1.size(), n2 = (int)p2.size();
  float2* d1; float4* d2; float* o;
  CHECK(cudaMalloc(&d1, n1 * 8)); CHECK(cudaMalloc(&d2, n2 * 16)); CHECK(cudaMalloc(&o, (n1 + n2) * 4));
  CHECK(cudaMemcpy(d1, p1.data(), n1 * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d2, p2.data(), n2 * 16, cudaMemcpyHostToDevice));
  std::vector<float> h(n1 + n2);
  for (int lin = 0; lin < 2; ++lin) {
    cudaTextureObject_t t1 = make(a1, lin), t2 = make(a2, lin);
    s1<<<(n1 + 127) / 128, 128>>>(t1, d1, o, n1);
    s2<<<(n2 + 127) / 128, 128>>>(t2, d2, o + n1, n2);
    CHECK_KERNEL();
    CHECK(cudaMemcpy(h.data(), o, (n1 + n2) * 4, cudaMemcpyDeviceToHost));
    for (int k = 0; k < n1; ++k) {
      double x = p1[k].x;
      int l = (int)p1[k].y;
      const float* L = &T1[l * N];
      double want;
      if (!lin) want = L[cl((int)std::floor(x), N)];
      else { double xb = x - 0.5, fi = std::floor(xb), a = xb - fi; int i = (int)fi; want = (1 - a) * L[cl(i, N)] + a * L[cl(i + 1, N)]; }
      EXPECT_NEAR(h[k], want, 2e-3, lin ? "tex1DLayered linear" : "tex1DLayered point", k);
    }
    for (int k = 0; k < n2; ++k) {
      double x = p2[k].x, y = p2[k].y;
      int l = (int)p2[k].z;
      const float* L = &T2[l * W * H];
      double want;
      if (!lin) want = L[cl((int)std::floor(y), H) * W + cl((int)std::floor(x), W)];
      else {
        double xb = x - 0.5, yb = y - 0.5, fi = std::floor(xb), fj = std::floor(yb), a = xb - fi, b = yb - fj;
        int i = (int)fi, j = (int)fj;
        want = (1 - a) * (1 - b) * L[cl(j, H) * W + cl(i, W)] + a * (1 - b) * L[cl(j, H) * W + cl(i + 1, W)] +
               (1 - a) * b * L[cl(j + 1, H) * W + cl(i, W)] + a * b * L[cl(j + 1, H) * W + cl(i + 1, W)];
      }
      EXPECT_NEAR(h[n1 + k], want, 2e-3, lin ? "tex2DLayered linear" : "tex2DLayered point", k);
    }
    CHECK(cudaDestroyTextureObject(t1)); CHECK(cudaDestroyTextureObject(t2));
  }
  CHECK(cudaFreeArray(a1)); CHECK(cudaFreeArray(a2));
  return wf::finish();
}

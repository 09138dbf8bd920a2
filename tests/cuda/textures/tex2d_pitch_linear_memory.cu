// WF-CHAPTER: textures
// WF-FEATURES: tex.resource.pitch2d, tex.fetch.tex2D, tex.filter.point, tex.filter.linear, mem.pitched.malloc
// WF-DESCRIPTION: 2D texture objects over pitched linear memory (cudaResourceTypePitch2D on cudaMallocPitch memory, aligned to texturePitchAlignment): point and bilinear sampling, results updated after the memory is rewritten by a kernel
// WF-WAITS-FOR: texture-unit
#include "../common/check.h"
#include <vector>

__global__ void sample(cudaTextureObject_t t, const float2* p, float* o, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) o[k] = tex2D<float>(t, p[k].x, p[k].y);
}
__global__ void rewrite(float* base, size_t pitch, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w && y < h) ((float*)((char*)base + y * pitch))[x] *= -2.0f;
}

static double at(const std::vector<float>& T, int W, int H, int i, int j) {
  i = i < 0 ? 0 : i >= W ? W - 1 : i; j = j < 0 ? 0 : j >= H ? H - 1 : j;
  return T[j * W + i];
}

int main() {
  const int W = 45, H = 30;
  std::vector<float> T(W * H);
  for (int i = 0; i < W * H; ++i) T[i] = (float)((i * 13) % 57);
  float* d;
  size_t pitch;
  CHECK(cudaMallocPitch((void**)&d, &pitch, W * 4, H));
  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, 0));
  EXPECT_EQ(pitch % p.texturePitchAlignment, (size_t)0, "cudaMallocPitch pitch meets texturePitchAlignment", 0);
  CHECK(cudaMemcpy2D(d, pitch, T.data(), W * 4, W * 4, H, cudaMemcpyHostToDevice));
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypePitch2D;
  rd.res.pitch2D.devPtr = d;
  rd.res.pitch2D.desc = cudaCreateChannelDesc<float>();
  rd.res.pitch2D.width = W;
  rd.res.pitch2D.height = H;
  rd.res.pitch2D.pitchInBytes = pitch;
  std::vector<float2> ps;
  for (int j = -4; j < (H + 1) * 4; j += 3)
    for (int i = -4; i < (W + 1) * 4; i += 5) ps.push_back(make_float2(i / 4.0f + 0.125f, j / 4.0f + 0.125f));
  int n = (int)ps.size();
  float2* dp; float* o;
  CHECK(cudaMalloc(&dp, n * 8)); CHECK(cudaMalloc(&o, n * 4));
  CHECK(cudaMemcpy(dp, ps.data(), n * 8, cudaMemcpyHostToDevice));
  std::vector<float> h(n);
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 1) {  // the texture reads the memory as it is now
      rewrite<<<dim3((W + 63) / 64, H), 64>>>(d, pitch, W, H);
      CHECK_KERNEL();
      for (auto& v : T) v *= -2.0f;
    }
    for (int lin = 0; lin < 2; ++lin) {
      cudaTextureDesc td = {};
      td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
      td.filterMode = lin ? cudaFilterModeLinear : cudaFilterModePoint;
      td.readMode = cudaReadModeElementType;
      cudaTextureObject_t t;
      CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
      sample<<<(n + 127) / 128, 128>>>(t, dp, o, n);
      CHECK_KERNEL();
      CHECK(cudaMemcpy(h.data(), o, n * 4, cudaMemcpyDeviceToHost));
      for (int k = 0; k < n; ++k) {
        double x = ps[k].x, y = ps[k].y, want;
        if (!lin) want = at(T, W, H, (int)std::floor(x), (int)std::floor(y));
        else {
          double xb = x - 0.5, yb = y - 0.5, fi = std::floor(xb), fj = std::floor(yb), a = xb - fi, b = yb - fj;
          int i = (int)fi, j = (int)fj;
          want = (1 - a) * (1 - b) * at(T, W, H, i, j) + a * (1 - b) * at(T, W, H, i + 1, j) + (1 - a) * b * at(T, W, H, i, j + 1) +
                 a * b * at(T, W, H, i + 1, j + 1);
        }
        EXPECT_NEAR(h[k], want, 1e-4, lin ? "pitch2D bilinear" : "pitch2D point", pass * 100000 + k);
      }
      CHECK(cudaDestroyTextureObject(t));
    }
  }
  CHECK(cudaFree(d));
  return wf::finish();
}

// WF-CHAPTER: textures
// WF-FEATURES: tex.fetch.tex3D, tex.resource.array3d, tex.filter.point, tex.filter.linear, mem.3d.memcpy
// WF-DESCRIPTION: 3D CUDA arrays (cudaMalloc3DArray + cudaMemcpy3D) read with tex3D: nearest-point and trilinear filtering (guide F.2) with unnormalized coordinates and clamp, plus normalized coordinates with wrap
// WF-WAITS-FOR: texture-unit
#include "../common/check.h"
#include <vector>

__global__ void sample(cudaTextureObject_t t, const float4* p, float* o, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) o[k] = tex3D<float>(t, p[k].x, p[k].y, p[k].z);
}

const int W = 8, H = 4, D = 4;  // powers of two: normalized coordinates stay exact
static std::vector<float> T;
static double at(int i, int j, int l, bool wrap) {
  if (wrap) { i = ((i % W) + W) % W; j = ((j % H) + H) % H; l = ((l % D) + D) % D; }
  else { i = i < 0 ? 0 : i >= W ? W - 1 : i; j = j < 0 ? 0 : j >= H ? H - 1 : j; l = l < 0 ? 0 : l >= D ? D - 1 : l; }
  return T[(l * H + j) * W + i];
}
static double ref(double x, double y, double z, bool lin, bool wrap) {
  if (!lin) return at((int)std::floor(x), (int)std::floor(y), (int)std::floor(z), wrap);
  double xb = x - 0.5, yb = y - 0.5, zb = z - 0.5;
  int i = (int)std::floor(xb), j = (int)std::floor(yb), l = (int)std::floor(zb);
  double a = xb - i, b = yb - j, c = zb - l, s = 0;
  for (int dz = 0; dz < 2; ++dz)
    for (int dy = 0; dy < 2; ++dy)
      for (int dx = 0; dx < 2; ++dx)
        s += (dx ? a : 1 - a) * (dy ? b : 1 - b) * (dz ? c : 1 - c) * at(i + dx, j + dy, l + dz, wrap);
  return s;
}

int main() {
  T.resize(W * H * D);
  for (int i = 0; i < W * H * D; ++i) T[i] = (float)((i * 37) % 41);
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
  cudaArray_t a;
  CHECK(cudaMalloc3DArray(&a, &cd, make_cudaExtent(W, H, D)));
  cudaMemcpy3DParms cp = {};
  cp.srcPtr = make_cudaPitchedPtr(T.data(), W * 4, W, H);
  cp.dstArray = a;
  cp.extent = make_cudaExtent(W, H, D);
  cp.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&cp));
  std::vector<float4> ps;
  wf::Rng r(3);
  // coordinates at quarter-texel offsets, including outside the volume. Quarter steps keep every trilinear
  // weight product a multiple of 1/64, exact in the 8-bit fixed-point weights (an H200 does not reproduce
  // 1/16-step products such as 9/16 * 11/16 * 7/16 exactly).
  for (int k = 0; k < 1500; ++k) {
    float x = (r.range(-2, 2 * W + 2) + 0.5f) / 2;
    float y = (r.range(-2, 2 * H + 2) + 0.5f) / 2;
    float z = (r.range(-2, 2 * D + 2) + 0.5f) / 2;
    ps.push_back(make_float4(x, y, z, 0));
  }
  int n = (int)ps.size();
  float4* dp; float* o;
  CHECK(cudaMalloc(&dp, n * 16)); CHECK(cudaMalloc(&o, n * 4));
  std::vector<float> h(n);
  for (int cfg = 0; cfg < 4; ++cfg) {
    bool lin = cfg & 1, norm = cfg & 2;
    std::vector<float4> q = ps;
    if (norm) for (auto& v : q) { v.x = (v.x - 8) / W; v.y = (v.y - 3) / H; v.z = (v.z + 5) / D; }  // wrap far out of range
    CHECK(cudaMemcpy(dp, q.data(), n * 16, cudaMemcpyHostToDevice));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaTextureDesc td = {};
    for (int d = 0; d < 3; ++d) td.addressMode[d] = norm ? cudaAddressModeWrap : cudaAddressModeClamp;
    td.filterMode = lin ? cudaFilterModeLinear : cudaFilterModePoint;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = norm;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    sample<<<(n + 127) / 128, 128>>>(t, dp, o, n);
    CHECK_KERNEL();
    CHECK(cudaMemcpy(h.data(), o, n * 4, cudaMemcpyDeviceToHost));
    for (int k = 0; k < n; ++k) {
      double x = norm ? (double)q[k].x * W : q[k].x, y = norm ? (double)q[k].y * H : q[k].y, z = norm ? (double)q[k].z * D : q[k].z;
      EXPECT_NEAR(h[k], ref(x, y, z, lin, norm), 1e-4, lin ? (norm ? "trilinear wrap" : "trilinear clamp") : (norm ? "point wrap" : "point clamp"), cfg * 10000 + k);
    }
    CHECK(cudaDestroyTextureObject(t));
  }
  CHECK(cudaFreeArray(a));
  return wf::finish();
}

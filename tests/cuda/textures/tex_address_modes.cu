// WF-CHAPTER: textures
// WF-FEATURES: tex.address.wrap, tex.address.clamp, tex.address.mirror, tex.address.border, tex.coords.normalized, tex.filter.point, tex.filter.linear, tex.fetch.tex1D, tex.fetch.tex2D
// WF-DESCRIPTION: every addressing mode (wrap, clamp, mirror, border; guide 3.2.11.1) with normalized coordinates far outside [0, 1), point and linear filtering, 1D and 2D textures with a different mode per dimension; reference model of guide F.1/F.2 applied to remapped texel indices
// WF-WAITS-FOR: texture-unit
#include "../common/check.h"
#include <vector>

__global__ void s1(cudaTextureObject_t t, const float* u, float* o, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) o[k] = tex1D<float>(t, u[k]);
}
__global__ void s2(cudaTextureObject_t t, const float2* p, float* o, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) o[k] = tex2D<float>(t, p[k].x, p[k].y);
}

static int addr(int i, int n, cudaTextureAddressMode m) {
  switch (m) {
    case cudaAddressModeWrap: return ((i % n) + n) % n;
    case cudaAddressModeMirror: { int p = ((i % (2 * n)) + 2 * n) % (2 * n); return p < n ? p : 2 * n - 1 - p; }
    case cudaAddressModeBorder: return (i < 0 || i >= n) ? -1 : i;
    default: return i < 0 ? 0 : i >= n ? n - 1 : i;
  }
}
struct Tex { const std::vector<float>* T; int W, H; cudaTextureAddressMode m0, m1; };
static double at(const Tex& t, int i, int j) {
  i = addr(i, t.W, t.m0); j = addr(j, t.H, t.m1);
  return (i < 0 || j < 0) ? 0.0 : (*t.T)[j * t.W + i];
}
static double ref(const Tex& t, double u, double v, bool linear) {
  double x = u * t.W, y = v * t.H;
  if (!linear) return at(t, (int)std::floor(x), (int)std::floor(y));
  double xb = x - 0.5, yb = y - 0.5, fi = std::floor(xb), fj = std::floor(yb), a = xb - fi, b = yb - fj;
  int i = (int)fi, j = (int)fj;
  if (t.H == 1) return (1 - a) * at(t, i, 0) + a * at(t, i + 1, 0);
  return (1 - a) * (1 - b) * at(t, i, j) + a * (1 - b) * at(t, i + 1, j) + (1 - a) * b * at(t, i, j + 1) + a * b * at(t, i + 1, j + 1);
}

int main() {
  const int N = 16, W = 8, H = 16;  // powers of two: u = x / N is exact in float
  std::vector<float> T1(N), T2(W * H);
  for (int i = 0; i < N; ++i) T1[i] = (float)(i * i % 17) + 1.0f;
  for (int i = 0; i < W * H; ++i) T2[i] = (float)((i * 29) % 31) + 1.0f;
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
  cudaArray_t a1, a2;
  CHECK(cudaMallocArray(&a1, &cd, N, 0));
  CHECK(cudaMemcpy2DToArray(a1, 0, 0, T1.data(), N * 4, N * 4, 1, cudaMemcpyHostToDevice));
  CHECK(cudaMallocArray(&a2, &cd, W, H));
  CHECK(cudaMemcpy2DToArray(a2, 0, 0, T2.data(), W * 4, W * 4, H, cudaMemcpyHostToDevice));
  // texel-space positions in 1/16 steps from -2.5 to +3.5 texture widths, avoiding exact texel edges for point sampling
  std::vector<float> us;
  for (int k = -40 * N; k < 56 * N; k += 7) us.push_back((k + 0.5f) / (16.0f * N));
  std::vector<float2> ps;
  for (int j = -3 * H * 4; j < 4 * H * 4; j += 5)
    for (int i = -3 * W * 4; i < 4 * W * 4; i += 7) ps.push_back(make_float2((i + 0.5f) / (4.0f * W), (j + 0.5f) / (4.0f * H)));
  int n1 = (int)us.size(), n2 = (int)ps.size();
  float *du, *o; float2* dp;
  CHECK(cudaMalloc(&du, n1 * 4)); CHECK(cudaMalloc(&dp, n2 * 8)); CHECK(cudaMalloc(&o, (n1 + n2) * 4));
  CHECK(cudaMemcpy(du, us.data(), n1 * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dp, ps.data(), n2 * 8, cudaMemcpyHostToDevice));
  std::vector<float> h(n1 + n2);
  const cudaTextureAddressMode modes[4] = {cudaAddressModeWrap, cudaAddressModeClamp, cudaAddressModeMirror, cudaAddressModeBorder};
  const char* mname[4] = {"wrap", "clamp", "mirror", "border"};
  char what[64];
  for (int lin = 0; lin < 2; ++lin)
    for (int m0 = 0; m0 < 4; ++m0)
      for (int m1 = 0; m1 < 4; ++m1) {
        if (m1 != m0 && m1 != (m0 + 1) % 4) continue;  // same mode, and one mixed pairing per mode
        cudaTextureDesc td = {};
        td.addressMode[0] = modes[m0];
        td.addressMode[1] = modes[m1];
        td.filterMode = lin ? cudaFilterModeLinear : cudaFilterModePoint;
        td.readMode = cudaReadModeElementType;
        td.normalizedCoords = 1;
        cudaResourceDesc rd = {};
        rd.resType = cudaResourceTypeArray;
        cudaTextureObject_t t1 = 0, t2;
        // 1D + border + linear is left out (see tex_linear_filter.cu: an H200 halves the result there)
        if (m1 == m0 && !(lin && modes[m0] == cudaAddressModeBorder)) {
          rd.res.array.array = a1;
          CHECK(cudaCreateTextureObject(&t1, &rd, &td, nullptr));
        }
        rd.res.array.array = a2;
        CHECK(cudaCreateTextureObject(&t2, &rd, &td, nullptr));
        if (t1) { s1<<<(n1 + 127) / 128, 128>>>(t1, du, o, n1); CHECK_KERNEL(); }
        s2<<<(n2 + 127) / 128, 128>>>(t2, dp, o + n1, n2);
        CHECK_KERNEL();
        CHECK(cudaMemcpy(h.data(), o, (n1 + n2) * 4, cudaMemcpyDeviceToHost));
        Tex x1{&T1, N, 1, modes[m0], modes[m0]}, x2{&T2, W, H, modes[m0], modes[m1]};
        if (t1)
          for (int k = 0; k < n1; ++k) {
            snprintf(what, sizeof what, "1D %s %s", mname[m0], lin ? "linear" : "point");
            EXPECT_NEAR(h[k], ref(x1, us[k], 0.5, lin), 2e-5, what, k);
          }
        for (int k = 0; k < n2; ++k) {
          snprintf(what, sizeof what, "2D %s/%s %s", mname[m0], mname[m1], lin ? "linear" : "point");
          EXPECT_NEAR(h[n1 + k], ref(x2, ps[k].x, ps[k].y, lin), 2e-5, what, k);
        }
        if (t1) CHECK(cudaDestroyTextureObject(t1));
        CHECK(cudaDestroyTextureObject(t2));
      }
  CHECK(cudaFreeArray(a1)); CHECK(cudaFreeArray(a2));
  return wf::finish();
}

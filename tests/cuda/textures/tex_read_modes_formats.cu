// WF-CHAPTER: textures
// WF-FEATURES: tex.read_mode.normalized_float, tex.read_mode.element_type, tex.format.half, tex.format.integer, tex.format.vector, tex.filter.linear
// WF-DESCRIPTION: texel formats and read modes: 8- and 16-bit unsigned/signed integers read as normalized float ([0,1] and [-1,1], guide 3.2.11.1), the same read as integers, 16-bit float textures returned as float (3.2.11.1.3), 2- and 4-component vectors, and linear filtering of normalized-float texels
// WF-WAITS-FOR: texture-unit
#include "../common/check.h"
#include <cuda_fp16.h>
#include <algorithm>
#include <vector>

constexpr int W = 16, H = 4;

template <class R>
__global__ void read(cudaTextureObject_t t, R* o) {
  int x = threadIdx.x, y = blockIdx.x;
  o[y * W + x] = tex2D<R>(t, x + 0.5f, y + 0.5f);
}
__global__ void read_lin(cudaTextureObject_t t, float* o) {
  int x = threadIdx.x, y = blockIdx.x;  // halfway between texels x and x+1 horizontally
  o[y * W + x] = tex2D<float>(t, x + 1.0f, y + 0.5f);
}

template <class T>
cudaArray_t upload(const std::vector<T>& h, cudaChannelFormatDesc cd) {
  cudaArray_t a;
  CHECK(cudaMallocArray(&a, &cd, W, H));
  CHECK(cudaMemcpy2DToArray(a, 0, 0, h.data(), W * sizeof(T), W * sizeof(T), H, cudaMemcpyHostToDevice));
  return a;
}
cudaTextureObject_t tex(cudaArray_t a, cudaTextureReadMode rm, cudaTextureFilterMode fm = cudaFilterModePoint) {
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = a;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = fm;
  td.readMode = rm;
  cudaTextureObject_t t;
  CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  return t;
}
template <class R>
std::vector<R> run(cudaTextureObject_t t) {
  R* d;
  CHECK(cudaMalloc(&d, W * H * sizeof(R)));
  read<R><<<H, W>>>(t, d);
  CHECK_KERNEL();
  std::vector<R> h(W * H);
  CHECK(cudaMemcpy(h.data(), d, W * H * sizeof(R), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d));
  return h;
}

int main() {
  const int n = W * H;
  std::vector<unsigned char> u8(n); std::vector<signed char> s8(n); std::vector<unsigned short> u16(n); std::vector<short> s16(n);
  std::vector<__half> f16(n); std::vector<uchar4> u8x4(n); std::vector<short2> s16x2(n);
  for (int i = 0; i < n; ++i) {
    u8[i] = (unsigned char)(i * 17); s8[i] = (signed char)(i * 9 - 128); u16[i] = (unsigned short)(i * 1031); s16[i] = (short)(i * 1021 - 32768);
    f16[i] = __float2half((float)i * 0.375f - 5.0f); u8x4[i] = make_uchar4(i, 255 - i, i * 3, 128); s16x2[i] = make_short2(-i * 100, i * 200);
  }
  s8[1] = -128; s8[2] = 127; s16[3] = -32768; s16[4] = 32767;
  cudaArray_t au8 = upload(u8, cudaCreateChannelDesc<unsigned char>()), as8 = upload(s8, cudaCreateChannelDesc<signed char>()),
              au16 = upload(u16, cudaCreateChannelDesc<unsigned short>()), as16 = upload(s16, cudaCreateChannelDesc<short>()),
              af16 = upload(f16, cudaCreateChannelDescHalf()), au8x4 = upload(u8x4, cudaCreateChannelDesc<uchar4>()),
              as16x2 = upload(s16x2, cudaCreateChannelDesc<short2>());
  auto nu8 = run<float>(tex(au8, cudaReadModeNormalizedFloat));
  auto ns8 = run<float>(tex(as8, cudaReadModeNormalizedFloat));
  auto nu16 = run<float>(tex(au16, cudaReadModeNormalizedFloat));
  auto ns16 = run<float>(tex(as16, cudaReadModeNormalizedFloat));
  auto eu8 = run<unsigned char>(tex(au8, cudaReadModeElementType));
  auto es16 = run<short>(tex(as16, cudaReadModeElementType));
  auto ef16 = run<float>(tex(af16, cudaReadModeElementType));
  auto nu8x4 = run<float4>(tex(au8x4, cudaReadModeNormalizedFloat));
  auto es16x2 = run<short2>(tex(as16x2, cudaReadModeElementType));
  for (int i = 0; i < n; ++i) {
    EXPECT_NEAR(nu8[i], u8[i] / 255.0, 1e-6, "unsigned 8-bit as normalized float", i);
    EXPECT_NEAR(ns8[i], std::max(s8[i] / 127.0, -1.0), 1e-6, "signed 8-bit as normalized float", i);
    EXPECT_NEAR(nu16[i], u16[i] / 65535.0, 1e-6, "unsigned 16-bit as normalized float", i);
    EXPECT_NEAR(ns16[i], std::max(s16[i] / 32767.0, -1.0), 1e-6, "signed 16-bit as normalized float", i);
    EXPECT_EQ(eu8[i], u8[i], "unsigned 8-bit element type", i);
    EXPECT_EQ(es16[i], s16[i], "signed 16-bit element type", i);
    EXPECT_EQ(ef16[i], (float)i * 0.375f - 5.0f, "half texel read as float", i);
    EXPECT_NEAR(nu8x4[i].x, u8x4[i].x / 255.0, 1e-6, "uchar4.x normalized", i);
    EXPECT_NEAR(nu8x4[i].y, u8x4[i].y / 255.0, 1e-6, "uchar4.y normalized", i);
    EXPECT_NEAR(nu8x4[i].z, u8x4[i].z / 255.0, 1e-6, "uchar4.z normalized", i);
    EXPECT_NEAR(nu8x4[i].w, u8x4[i].w / 255.0, 1e-6, "uchar4.w normalized", i);
    EXPECT_EQ(es16x2[i].x, s16x2[i].x, "short2.x", i);
    EXPECT_EQ(es16x2[i].y, s16x2[i].y, "short2.y", i);
  }
  // linear filtering is allowed for normalized-float reads of integer texels and for half texels
  float* d;
  CHECK(cudaMalloc(&d, n * 4));
  std::vector<float> h(n);
  read_lin<<<H, W>>>(tex(au8, cudaReadModeNormalizedFloat, cudaFilterModeLinear), d);
  CHECK_KERNEL();
  CHECK(cudaMemcpy(h.data(), d, n * 4, cudaMemcpyDeviceToHost));
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      int x1 = x + 1 < W ? x + 1 : W - 1;
      EXPECT_NEAR(h[y * W + x], 0.5 * (u8[y * W + x] + u8[y * W + x1]) / 255.0, 1e-5, "linear filter of normalized uchar", y * W + x);
    }
  read_lin<<<H, W>>>(tex(af16, cudaReadModeElementType, cudaFilterModeLinear), d);
  CHECK_KERNEL();
  CHECK(cudaMemcpy(h.data(), d, n * 4, cudaMemcpyDeviceToHost));
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      int x1 = x + 1 < W ? x + 1 : W - 1, i0 = y * W + x, i1 = y * W + x1;
      EXPECT_NEAR(h[i0], 0.5 * ((i0 * 0.375 - 5.0) + (i1 * 0.375 - 5.0)), 1e-4, "linear filter of half texels", i0);
    }
  return wf::finish();
}

// WF-CHAPTER: memory
// WF-FEATURES: mem.vector_types, mem.vector_load.128, mem.vector_load.64, lang.vector_make_functions
// WF-DESCRIPTION: built-in vector types (char4, uchar4, short2, int2, int4, float2, float4, double2, longlong2, ...) with their sizes/alignments, make_* constructors and whole-vector loads/stores
#include "../common/check.h"
#include <vector>

static_assert(sizeof(char4) == 4 && alignof(char4) == 4, "char4");
static_assert(sizeof(short2) == 4 && alignof(short2) == 4, "short2");
static_assert(sizeof(int2) == 8 && alignof(int2) == 8, "int2");
static_assert(sizeof(float4) == 16 && alignof(float4) == 16, "float4");
static_assert(sizeof(int4) == 16 && alignof(int4) == 16, "int4");
static_assert(sizeof(double2) == 16 && alignof(double2) == 16, "double2");
static_assert(sizeof(float3) == 12 && alignof(float3) == 4, "float3");
static_assert(sizeof(ushort4) == 8 && alignof(ushort4) == 8, "ushort4");
static_assert(sizeof(uchar2) == 2 && alignof(uchar2) == 2, "uchar2");

__global__ void vec(const float4* f4, const int2* i2, const int4* i4, const double2* d2, const char4* c4,
                    const uchar4* u4, const short2* s2, const float3* f3, const ushort4* us4, const longlong2* l2,
                    float4* of4, int4* oi4, double2* od2, uchar4* ou4, float3* of3, longlong2* ol2, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 a = f4[i];
  int2 b = i2[i];
  int4 c = i4[i];
  double2 d = d2[i];
  char4 e = c4[i];
  uchar4 u = u4[i];
  short2 s = s2[i];
  float3 g = f3[i];
  ushort4 us = us4[i];
  longlong2 l = l2[i];
  of4[i] = make_float4(a.w, a.z + b.x, a.y * 2.0f, a.x - (float)b.y);
  oi4[i] = make_int4(c.x + e.x, c.y + e.y, c.z + e.z + s.x, c.w + e.w + s.y);
  od2[i] = make_double2(d.y + us.x, d.x - us.w);
  ou4[i] = make_uchar4(u.w, u.z, u.y, (unsigned char)(u.x + us.y));
  of3[i] = make_float3(g.z, g.y, g.x + (float)us.z);
  ol2[i] = make_longlong2(l.y + 1, l.x - 1);
}

int main() {
  const int n = 333;
  std::vector<float4> f4(n); std::vector<int2> i2(n); std::vector<int4> i4(n); std::vector<double2> d2(n);
  std::vector<char4> c4(n); std::vector<uchar4> u4(n); std::vector<short2> s2(n); std::vector<float3> f3(n);
  std::vector<ushort4> us4(n); std::vector<longlong2> l2(n);
  for (int i = 0; i < n; ++i) {
    f4[i] = make_float4(i, i + 0.5f, -i, i * 0.25f);
    i2[i] = make_int2(i * 3, -i);
    i4[i] = make_int4(i, i * i, -7 * i, 1 << (i % 31));
    d2[i] = make_double2(i * 1e10, -i * 0.125);
    c4[i] = make_char4((signed char)(i - 128), (signed char)i, -3, 4);
    u4[i] = make_uchar4(i & 255, (i * 3) & 255, 200, 7);
    s2[i] = make_short2((short)(-i * 50), (short)(i * 60));
    f3[i] = make_float3(i * 1.5f, i * 2.5f, -i * 3.5f);
    us4[i] = make_ushort4(i, 65535 - i, 1000, 2 * i);
    l2[i] = make_longlong2((long long)i << 35, -((long long)i << 33));
  }
#define DEV(T, v) T* d_##v; CHECK(cudaMalloc(&d_##v, n * sizeof(T))); CHECK(cudaMemcpy(d_##v, v.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  DEV(float4, f4) DEV(int2, i2) DEV(int4, i4) DEV(double2, d2) DEV(char4, c4) DEV(uchar4, u4) DEV(short2, s2)
  DEV(float3, f3) DEV(ushort4, us4) DEV(longlong2, l2)
  float4* of4; int4* oi4; double2* od2; uchar4* ou4; float3* of3; longlong2* ol2;
  CHECK(cudaMalloc(&of4, n * sizeof(float4))); CHECK(cudaMalloc(&oi4, n * sizeof(int4)));
  CHECK(cudaMalloc(&od2, n * sizeof(double2))); CHECK(cudaMalloc(&ou4, n * sizeof(uchar4)));
  CHECK(cudaMalloc(&of3, n * sizeof(float3))); CHECK(cudaMalloc(&ol2, n * sizeof(longlong2)));
  vec<<<(n + 63) / 64, 64>>>(d_f4, d_i2, d_i4, d_d2, d_c4, d_u4, d_s2, d_f3, d_us4, d_l2, of4, oi4, od2, ou4, of3, ol2, n);
  CHECK_KERNEL();
  std::vector<float4> rf4(n); std::vector<int4> ri4(n); std::vector<double2> rd2(n); std::vector<uchar4> ru4(n);
  std::vector<float3> rf3(n); std::vector<longlong2> rl2(n);
  CHECK(cudaMemcpy(rf4.data(), of4, n * sizeof(float4), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ri4.data(), oi4, n * sizeof(int4), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(rd2.data(), od2, n * sizeof(double2), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ru4.data(), ou4, n * sizeof(uchar4), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(rf3.data(), of3, n * sizeof(float3), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(rl2.data(), ol2, n * sizeof(longlong2), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    float4 a = f4[i]; int2 b = i2[i]; int4 c = i4[i]; double2 d = d2[i]; char4 e = c4[i]; uchar4 u = u4[i];
    short2 s = s2[i]; float3 g = f3[i]; ushort4 us = us4[i]; longlong2 l = l2[i];
    EXPECT_EQ(rf4[i].x, a.w, "f4.x", i); EXPECT_EQ(rf4[i].y, a.z + b.x, "f4.y", i);
    EXPECT_EQ(rf4[i].z, a.y * 2.0f, "f4.z", i); EXPECT_EQ(rf4[i].w, a.x - (float)b.y, "f4.w", i);
    EXPECT_EQ(ri4[i].x, c.x + e.x, "i4.x", i); EXPECT_EQ(ri4[i].y, c.y + e.y, "i4.y", i);
    EXPECT_EQ(ri4[i].z, c.z + e.z + s.x, "i4.z", i); EXPECT_EQ(ri4[i].w, c.w + e.w + s.y, "i4.w", i);
    EXPECT_EQ(rd2[i].x, d.y + us.x, "d2.x", i); EXPECT_EQ(rd2[i].y, d.x - us.w, "d2.y", i);
    EXPECT_EQ(ru4[i].x, u.w, "u4.x", i); EXPECT_EQ(ru4[i].y, u.z, "u4.y", i);
    EXPECT_EQ(ru4[i].z, u.y, "u4.z", i); EXPECT_EQ(ru4[i].w, (unsigned char)(u.x + us.y), "u4.w", i);
    EXPECT_EQ(rf3[i].x, g.z, "f3.x", i); EXPECT_EQ(rf3[i].y, g.y, "f3.y", i); EXPECT_EQ(rf3[i].z, g.x + (float)us.z, "f3.z", i);
    EXPECT_EQ(rl2[i].x, l.y + 1, "l2.x", i); EXPECT_EQ(rl2[i].y, l.x - 1, "l2.y", i);
  }
  return wf::finish();
}

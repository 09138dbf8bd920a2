// WF-CHAPTER: memory
// WF-FEATURES: mem.struct.odd_size, mem.struct.align, mem.struct.packed_bytes
// WF-DESCRIPTION: arrays of structs with odd sizes (3, 5, 6, 7, 12, 20 bytes), __align__ structs, and byte-addressed fields at odd offsets in global and shared memory
#include "../common/check.h"
#include <vector>

struct S3 { unsigned char a, b, c; };
struct S5 { unsigned char a; unsigned char b[4]; };
struct S6 { short a; unsigned char b, c; short d; };
struct S7 { unsigned char x[7]; };
struct S12 { float f; short s; char c; int i; };  // padded to 12 with int at offset 8
struct S20 { char c; double d; int i; };           // 24 with padding on typical ABIs
struct __align__(16) A16 { int a; char b; };
struct __align__(8) A8 { short a, b, c; };
static_assert(sizeof(S3) == 3 && sizeof(S5) == 5 && sizeof(S6) == 6 && sizeof(S7) == 7, "odd sizes");
static_assert(sizeof(A16) == 16 && alignof(A16) == 16 && sizeof(A8) == 8, "aligned");

__global__ void kernel(const S3* s3, S3* o3, const S5* s5, S5* o5, const S6* s6, S6* o6, const S7* s7, S7* o7,
                       const S12* s12, S12* o12, const S20* s20, S20* o20, const A16* a16, A16* oa16, int n) {
  __shared__ S7 sh7[64];
  __shared__ S3 sh3[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int t = threadIdx.x;
  if (i < n) { sh7[t] = s7[i]; sh3[t] = s3[i]; }
  __syncthreads();
  if (i >= n) return;
  int j = (t + 1) % blockDim.x;
  if (blockIdx.x * blockDim.x + j >= n) j = t;
  S3 a = sh3[j];
  o3[i] = S3{(unsigned char)(a.c + 1), a.a, (unsigned char)(a.b ^ 0x55)};
  S5 b = s5[i];
  S5 rb; rb.a = b.b[3]; for (int k = 0; k < 4; ++k) rb.b[k] = (unsigned char)(b.a + k + b.b[k]);
  o5[i] = rb;
  S6 c = s6[i];
  o6[i] = S6{(short)(c.d * 2), c.c, c.b, (short)(c.a - 1)};
  S7 d = sh7[j];
  S7 rd; for (int k = 0; k < 7; ++k) rd.x[k] = d.x[6 - k];
  o7[i] = rd;
  S12 e = s12[i];
  o12[i] = S12{e.f * 2.0f, (short)(e.s + 1), (char)(e.c - 1), e.i ^ 0x1234};
  S20 f = s20[i];
  o20[i] = S20{(char)(f.c + 2), f.d * 0.5, f.i + 9};
  A16 g = a16[i];
  oa16[i] = A16{g.a * 3, (char)(g.b + 1)};
}

template <class T> T* up(const std::vector<T>& v) {
  T* d; CHECK(cudaMalloc(&d, v.size() * sizeof(T)));
  CHECK(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice)); return d;
}
template <class T> std::vector<T> down(const T* d, int n) {
  std::vector<T> v(n); CHECK(cudaMemcpy(v.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost)); return v;
}

int main() {
  const int n = 150;  // not a multiple of the block size
  std::vector<S3> s3(n); std::vector<S5> s5(n); std::vector<S6> s6(n); std::vector<S7> s7(n);
  std::vector<S12> s12(n); std::vector<S20> s20(n); std::vector<A16> a16(n);
  wf::Rng r(3);
  for (int i = 0; i < n; ++i) {
    s3[i] = S3{(unsigned char)r.next(), (unsigned char)r.next(), (unsigned char)r.next()};
    s5[i].a = (unsigned char)r.next(); for (int k = 0; k < 4; ++k) s5[i].b[k] = (unsigned char)r.next();
    s6[i] = S6{(short)r.next(), (unsigned char)r.next(), (unsigned char)r.next(), (short)(r.next() % 10000)};
    for (int k = 0; k < 7; ++k) s7[i].x[k] = (unsigned char)r.next();
    s12[i] = S12{(float)(int)(r.next() % 1000), (short)(r.next() % 1000), (char)(r.next() % 100), (int)r.next()};
    s20[i] = S20{(char)(r.next() % 100), (double)(r.next() % 100000), (int)(r.next() % 100000)};
    a16[i] = A16{(int)(r.next() % 100000), (char)(r.next() % 100)};
  }
  S3* o3; S5* o5; S6* o6; S7* o7; S12* o12; S20* o20; A16* oa;
  CHECK(cudaMalloc(&o3, n * sizeof(S3))); CHECK(cudaMalloc(&o5, n * sizeof(S5))); CHECK(cudaMalloc(&o6, n * sizeof(S6)));
  CHECK(cudaMalloc(&o7, n * sizeof(S7))); CHECK(cudaMalloc(&o12, n * sizeof(S12))); CHECK(cudaMalloc(&o20, n * sizeof(S20)));
  CHECK(cudaMalloc(&oa, n * sizeof(A16)));
  kernel<<<(n + 63) / 64, 64>>>(up(s3), o3, up(s5), o5, up(s6), o6, up(s7), o7, up(s12), o12, up(s20), o20, up(a16), oa, n);
  CHECK_KERNEL();
  auto r3 = down(o3, n); auto r5 = down(o5, n); auto r6 = down(o6, n); auto r7 = down(o7, n);
  auto r12 = down(o12, n); auto r20 = down(o20, n); auto ra = down(oa, n);
  for (int i = 0; i < n; ++i) {
    int t = i % 64, blk = i / 64;
    int j = (t + 1) % 64;
    if (blk * 64 + j >= n) j = t;
    int src = blk * 64 + j;
    EXPECT_EQ(r3[i].a, (unsigned char)(s3[src].c + 1), "S3.a", i);
    EXPECT_EQ(r3[i].b, s3[src].a, "S3.b", i);
    EXPECT_EQ(r3[i].c, (unsigned char)(s3[src].b ^ 0x55), "S3.c", i);
    EXPECT_EQ(r5[i].a, s5[i].b[3], "S5.a", i);
    for (int k = 0; k < 4; ++k) EXPECT_EQ(r5[i].b[k], (unsigned char)(s5[i].a + k + s5[i].b[k]), "S5.b", i * 4 + k);
    EXPECT_EQ(r6[i].a, (short)(s6[i].d * 2), "S6.a", i);
    EXPECT_EQ(r6[i].b, s6[i].c, "S6.b", i);
    EXPECT_EQ(r6[i].c, s6[i].b, "S6.c", i);
    EXPECT_EQ(r6[i].d, (short)(s6[i].a - 1), "S6.d", i);
    for (int k = 0; k < 7; ++k) EXPECT_EQ(r7[i].x[k], s7[src].x[6 - k], "S7", i * 7 + k);
    EXPECT_EQ(r12[i].f, s12[i].f * 2.0f, "S12.f", i);
    EXPECT_EQ(r12[i].s, (short)(s12[i].s + 1), "S12.s", i);
    EXPECT_EQ(r12[i].c, (char)(s12[i].c - 1), "S12.c", i);
    EXPECT_EQ(r12[i].i, s12[i].i ^ 0x1234, "S12.i", i);
    EXPECT_EQ(r20[i].c, (char)(s20[i].c + 2), "S20.c", i);
    EXPECT_EQ(r20[i].d, s20[i].d * 0.5, "S20.d", i);
    EXPECT_EQ(r20[i].i, s20[i].i + 9, "S20.i", i);
    EXPECT_EQ(ra[i].a, a16[i].a * 3, "A16.a", i);
    EXPECT_EQ(ra[i].b, (char)(a16[i].b + 1), "A16.b", i);
  }
  return wf::finish();
}

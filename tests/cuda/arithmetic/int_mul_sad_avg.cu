// WF-CHAPTER: arithmetic
// WF-FEATURES: arith.int.mulhi, arith.int.mul24, arith.int.sad, arith.int.hadd, arith.int.dp4a, arith.int.dp2a
// WF-DESCRIPTION: __mulhi/__umulhi/__mul64hi/__umul64hi, __mul24/__umul24 (24-bit operands), __sad/__usad, __hadd/__rhadd/__uhadd/__urhadd (no intermediate overflow), __dp4a and __dp2a_lo/hi (signed and unsigned)
#include "../common/check.h"
#include <vector>

constexpr int NR = 20;
__global__ void ops(const long long* a, const long long* b, const unsigned* c, long long* out, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  long long x = a[k], y = b[k];
  int xi = (int)x, yi = (int)y;
  unsigned xu = (unsigned)x, yu = (unsigned)y, z = c[k];
  int x24 = (int)((unsigned)xi << 8) >> 8, y24 = (int)((unsigned)yi << 8) >> 8;  // sign-extended 24-bit values
  long long* o = out + k * NR;
  o[0] = __mulhi(xi, yi); o[1] = __umulhi(xu, yu);
  o[2] = __mul64hi(x, y); o[3] = (long long)__umul64hi((unsigned long long)x, (unsigned long long)y);
  o[4] = __mul24(x24, y24); o[5] = __umul24(xu & 0xffffff, yu & 0xffffff);
  o[6] = __sad(xi, yi, z); o[7] = __usad(xu, yu, z);
  o[8] = __hadd(xi, yi); o[9] = __rhadd(xi, yi); o[10] = __uhadd(xu, yu); o[11] = __urhadd(xu, yu);
  o[12] = __dp4a(xi, yi, (int)z); o[13] = __dp4a(xu, yu, z);
  o[14] = __dp2a_lo(xi, yi, (int)z); o[15] = __dp2a_hi(xi, yi, (int)z);
  o[16] = __dp2a_lo(xu, yu, z); o[17] = __dp2a_hi(xu, yu, z);
  o[18] = __dp4a(make_char4(xi, xi >> 8, xi >> 16, xi >> 24), make_char4(yi, yi >> 8, yi >> 16, yi >> 24), 7);
  o[19] = 0;
}

int main() {
  std::vector<long long> A = {0, -1, 1, 0x7fffffff, (long long)(int)0x80000000, 0x7fffffffffffffffLL, (long long)0x8000000000000000ull, 0x7fffff, -0x800000},
                         B = {0, -1, -1, 0x7fffffff, (long long)(int)0x80000000, 0x7fffffffffffffffLL, -1, 0x7fffff, -0x800000};
  std::vector<unsigned> C = {0, 0, 5, 0xffffffffu, 1, 2, 3, 100, 0x80000000u};
  wf::Rng r(12);
  for (int k = 0; k < 800; ++k) { A.push_back((long long)r.next64()); B.push_back((long long)r.next64()); C.push_back(k % 2 ? r.next() : r.next() % 1000); }
  int n = (int)A.size();
  long long *da, *db, *dout; unsigned* dc;
  CHECK(cudaMalloc(&da, n * 8)); CHECK(cudaMalloc(&db, n * 8)); CHECK(cudaMalloc(&dc, n * 4)); CHECK(cudaMalloc(&dout, n * NR * 8));
  CHECK(cudaMemcpy(da, A.data(), n * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, B.data(), n * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc, C.data(), n * 4, cudaMemcpyHostToDevice));
  ops<<<(n + 127) / 128, 128>>>(da, db, dc, dout, n);
  CHECK_KERNEL();
  std::vector<long long> o(n * NR);
  CHECK(cudaMemcpy(o.data(), dout, o.size() * 8, cudaMemcpyDeviceToHost));
  for (int k = 0; k < n; ++k) {
    long long x = A[k], y = B[k];
    int xi = (int)x, yi = (int)y;
    unsigned xu = (unsigned)x, yu = (unsigned)y, z = C[k];
    const long long* g = &o[k * NR];
    EXPECT_EQ(g[0], (long long)(int)(((long long)xi * yi) >> 32), "__mulhi", k);
    EXPECT_EQ((unsigned)g[1], (unsigned)(((unsigned long long)xu * yu) >> 32), "__umulhi", k);
    EXPECT_EQ(g[2], (long long)(((__int128)x * y) >> 64), "__mul64hi", k);
    EXPECT_EQ((unsigned long long)g[3], (unsigned long long)(((unsigned __int128)(unsigned long long)x * (unsigned long long)y) >> 64), "__umul64hi", k);
    int x24 = (int)((unsigned)xi << 8) >> 8, y24 = (int)((unsigned)yi << 8) >> 8;
    EXPECT_EQ((int)g[4], (int)(unsigned)((long long)x24 * y24), "__mul24", k);
    EXPECT_EQ((unsigned)g[5], (unsigned)((unsigned long long)(xu & 0xffffff) * (yu & 0xffffff)), "__umul24", k);
    EXPECT_EQ((unsigned)g[6], (unsigned)(std::llabs((long long)xi - yi) + z), "__sad", k);
    EXPECT_EQ((unsigned)g[7], (unsigned)((xu > yu ? xu - yu : yu - xu) + z), "__usad", k);
    EXPECT_EQ((int)g[8], (int)(((long long)xi + yi) >> 1), "__hadd", k);
    EXPECT_EQ((int)g[9], (int)(((long long)xi + yi + 1) >> 1), "__rhadd", k);
    EXPECT_EQ((unsigned)g[10], (unsigned)(((unsigned long long)xu + yu) >> 1), "__uhadd", k);
    EXPECT_EQ((unsigned)g[11], (unsigned)(((unsigned long long)xu + yu + 1) >> 1), "__urhadd", k);
    long long dp = (int)z, dp2lo = (int)z, dp2hi = (int)z;  // wide host sums, truncated like the device's wrapping adds
    unsigned udp = z, udp2lo = z, udp2hi = z;
    for (int b = 0; b < 4; ++b) {
      dp += (int)(signed char)(xu >> (8 * b)) * (int)(signed char)(yu >> (8 * b));
      udp += ((xu >> (8 * b)) & 0xff) * ((yu >> (8 * b)) & 0xff);
    }
    for (int h = 0; h < 2; ++h) {
      int sa = (short)(xu >> (16 * h));
      unsigned ua = (xu >> (16 * h)) & 0xffff;
      dp2lo += (long long)sa * (signed char)(yu >> (8 * h));
      dp2hi += (long long)sa * (signed char)(yu >> (8 * h + 16));
      udp2lo += ua * ((yu >> (8 * h)) & 0xff);
      udp2hi += ua * ((yu >> (8 * h + 16)) & 0xff);
    }
    EXPECT_EQ((int)g[12], (int)(unsigned)dp, "__dp4a signed", k);
    EXPECT_EQ((unsigned)g[13], udp, "__dp4a unsigned", k);
    EXPECT_EQ((int)g[14], (int)(unsigned)dp2lo, "__dp2a_lo signed", k);
    EXPECT_EQ((int)g[15], (int)(unsigned)dp2hi, "__dp2a_hi signed", k);
    EXPECT_EQ((unsigned)g[16], udp2lo, "__dp2a_lo unsigned", k);
    EXPECT_EQ((unsigned)g[17], udp2hi, "__dp2a_hi unsigned", k);
    EXPECT_EQ((int)g[18], (int)(unsigned)(dp - (int)z + 7), "__dp4a char4", k);
  }
  return wf::finish();
}

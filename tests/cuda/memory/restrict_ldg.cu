// WF-CHAPTER: memory
// WF-FEATURES: mem.restrict, mem.ldg, mem.ldg.vector
// WF-DESCRIPTION: __restrict__-qualified kernels (guide B.2.5 example) and __ldg read-only loads on scalar and vector types
#include "../common/check.h"
#include <vector>

// The guide's B.2.5 example, with __restrict__ so the compiler may reorder and cache loads.
__global__ void example3(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float t0 = a[i], t1 = b[i], t2 = t0 * t1, t3 = a[(i + 1) % n];
  c[i] = t0;
  c[i] += t2;  // re-reads nothing aliasing a or b
  c[i] *= t3;
  c[i] += t0 * t3;
}

__global__ void ldg_kernel(const int* __restrict__ pi, const float4* __restrict__ pf4, const double* pd,
                           const int2* pi2, const unsigned char* pc, const long long* pll, double* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = __ldg(&pi[i]);
  float4 f = __ldg(&pf4[i]);
  double d = __ldg(&pd[(i * 7) % n]);
  int2 q = __ldg(&pi2[i]);
  unsigned char c = __ldg(&pc[i]);
  long long l = __ldg(&pll[i]);
  out[i] = v + f.x + 2 * f.y + 3 * f.z + 4 * f.w + d + q.x - q.y + c + (double)l;
}

int main() {
  const int n = 777;
  std::vector<float> a(n), b(n);
  for (int i = 0; i < n; ++i) { a[i] = (i % 17) * 0.25f; b[i] = (i % 5) - 2.0f; }
  float *da, *db, *dc;
  CHECK(cudaMalloc(&da, n * 4)); CHECK(cudaMalloc(&db, n * 4)); CHECK(cudaMalloc(&dc, n * 4));
  CHECK(cudaMemcpy(da, a.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), n * 4, cudaMemcpyHostToDevice));
  example3<<<(n + 255) / 256, 256>>>(da, db, dc, n);
  CHECK_KERNEL();
  std::vector<float> c(n);
  CHECK(cudaMemcpy(c.data(), dc, n * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    float t0 = a[i], t3 = a[(i + 1) % n];
    float want = ((t0 + t0 * b[i]) * t3) + t0 * t3;  // all exact (quarter-integers below 2^8)
    EXPECT_EQ(c[i], want, "restrict example", i);
  }
  std::vector<int> vi(n);
  std::vector<float4> vf(n);
  std::vector<double> vd(n);
  std::vector<int2> vq(n);
  std::vector<unsigned char> vc(n);
  std::vector<long long> vl(n);
  for (int i = 0; i < n; ++i) {
    vi[i] = i * 3 - 100;
    vf[i] = make_float4(i * 0.5f, -i * 1.0f, 2.0f, i * 0.25f);
    vd[i] = i * 1.125;
    vq[i] = make_int2(i, 2 * i + 1);
    vc[i] = (unsigned char)(i * 13);
    vl[i] = (long long)i << 20;
  }
  int* pi; float4* pf; double* pd; int2* pq; unsigned char* pc; long long* pl; double* out;
  CHECK(cudaMalloc(&pi, n * sizeof(int))); CHECK(cudaMalloc(&pf, n * sizeof(float4)));
  CHECK(cudaMalloc(&pd, n * sizeof(double))); CHECK(cudaMalloc(&pq, n * sizeof(int2)));
  CHECK(cudaMalloc(&pc, n)); CHECK(cudaMalloc(&pl, n * sizeof(long long))); CHECK(cudaMalloc(&out, n * sizeof(double)));
  CHECK(cudaMemcpy(pi, vi.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(pf, vf.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(pd, vd.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(pq, vq.data(), n * sizeof(int2), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(pc, vc.data(), n, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(pl, vl.data(), n * sizeof(long long), cudaMemcpyHostToDevice));
  ldg_kernel<<<(n + 127) / 128, 128>>>(pi, pf, pd, pq, pc, pl, out, n);
  CHECK_KERNEL();
  std::vector<double> o(n);
  CHECK(cudaMemcpy(o.data(), out, n * sizeof(double), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    double want = vi[i] + vf[i].x + 2 * vf[i].y + 3 * vf[i].z + 4 * vf[i].w + vd[(i * 7) % n] + vq[i].x - vq[i].y + vc[i] + (double)vl[i];
    EXPECT_EQ(o[i], want, "ldg sum", i);
  }
  CHECK(cudaFree(da)); CHECK(cudaFree(db)); CHECK(cudaFree(dc));
  CHECK(cudaFree(pi)); CHECK(cudaFree(pf)); CHECK(cudaFree(pd)); CHECK(cudaFree(pq)); CHECK(cudaFree(pc)); CHECK(cudaFree(pl)); CHECK(cudaFree(out));
  return wf::finish();
}

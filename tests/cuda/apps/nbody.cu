// WF-CHAPTER: apps
// WF-FEATURES: app.nbody, mem.shared.static, arith.math.fp32.exp_log
// WF-DESCRIPTION: all-pairs gravitational N-body (256 bodies, 3 leapfrog steps) with shared-memory tiles of positions and rsqrtf; compared with a double-precision host simulation within a relative tolerance derived from rsqrtf's 2 ulp bound and fp32 summation of 256 terms
#include "../common/check.h"
#include <vector>

constexpr int TILE = 64;
__global__ void forces(const float4* pos, float4* vel, int n, float dt, float eps2) {
  __shared__ float4 sh[TILE];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 p = pos[i];
  float ax = 0, ay = 0, az = 0;
  for (int tile = 0; tile < n / TILE; ++tile) {
    sh[threadIdx.x] = pos[tile * TILE + threadIdx.x];
    __syncthreads();
    for (int k = 0; k < TILE; ++k) {
      float4 q = sh[k];
      float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
      float r2 = dx * dx + dy * dy + dz * dz + eps2;
      float inv = rsqrtf(r2);
      float s = q.w * inv * inv * inv;
      ax += dx * s; ay += dy * s; az += dz * s;
    }
    __syncthreads();
  }
  float4 v = vel[i];
  vel[i] = make_float4(v.x + ax * dt, v.y + ay * dt, v.z + az * dt, 0);
}
__global__ void drift(float4* pos, const float4* vel, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 p = pos[i], v = vel[i];
  pos[i] = make_float4(p.x + v.x * dt, p.y + v.y * dt, p.z + v.z * dt, p.w);
}

int main() {
  const int n = 256, steps = 3;
  const float dt = 0.01f, eps2 = 0.01f;
  std::vector<float4> p(n), v(n);
  wf::Rng r(5);
  for (int i = 0; i < n; ++i) {
    p[i] = make_float4(r.uniform(-1, 1), r.uniform(-1, 1), r.uniform(-1, 1), r.uniform(0.5f, 1.5f) / n);
    v[i] = make_float4(r.uniform(-0.1f, 0.1f), r.uniform(-0.1f, 0.1f), r.uniform(-0.1f, 0.1f), 0);
  }
  float4 *dp, *dv;
  CHECK(cudaMalloc(&dp, n * 16)); CHECK(cudaMalloc(&dv, n * 16));
  CHECK(cudaMemcpy(dp, p.data(), n * 16, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dv, v.data(), n * 16, cudaMemcpyHostToDevice));
  for (int s = 0; s < steps; ++s) {
    forces<<<n / TILE, TILE>>>(dp, dv, n, dt, eps2);
    drift<<<n / TILE, TILE>>>(dp, dv, dt);
  }
  CHECK_KERNEL();
  std::vector<float4> hp(n), hv(n);
  CHECK(cudaMemcpy(hp.data(), dp, n * 16, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hv.data(), dv, n * 16, cudaMemcpyDeviceToHost));
  // double-precision reference
  std::vector<double> px(n), py(n), pz(n), m(n), vx(n), vy(n), vz(n);
  for (int i = 0; i < n; ++i) { px[i] = p[i].x; py[i] = p[i].y; pz[i] = p[i].z; m[i] = p[i].w; vx[i] = v[i].x; vy[i] = v[i].y; vz[i] = v[i].z; }
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < n; ++i) {
      double ax = 0, ay = 0, az = 0;
      for (int k = 0; k < n; ++k) {
        double dx = px[k] - px[i], dy = py[k] - py[i], dz = pz[k] - pz[i], r2 = dx * dx + dy * dy + dz * dz + (double)eps2;
        double inv = 1 / std::sqrt(r2), sc = m[k] * inv * inv * inv;
        ax += dx * sc; ay += dy * sc; az += dz * sc;
      }
      vx[i] += ax * dt; vy[i] += ay * dt; vz[i] += az * dt;
    }
    for (int i = 0; i < n; ++i) { px[i] += vx[i] * dt; py[i] += vy[i] * dt; pz[i] += vz[i] * dt; }
  }
  // Tolerance: each interaction has a relative error of a few 2^-23 (rsqrtf 2 ulp cubed ~ 6 ulp, products/sums);
  // 256 terms accumulate at most ~ 256 * 8 * 2^-24 * max|term|; positions move by dt*v: absolute 1e-5 is generous.
  for (int i = 0; i < n; ++i) {
    EXPECT_NEAR(hv[i].x, vx[i], 2e-4 * (1 + std::fabs(vx[i])), "velocity x", i);
    EXPECT_NEAR(hv[i].y, vy[i], 2e-4 * (1 + std::fabs(vy[i])), "velocity y", i);
    EXPECT_NEAR(hv[i].z, vz[i], 2e-4 * (1 + std::fabs(vz[i])), "velocity z", i);
    EXPECT_NEAR(hp[i].x, px[i], 1e-5, "position x", i);
    EXPECT_NEAR(hp[i].y, py[i], 1e-5, "position y", i);
    EXPECT_NEAR(hp[i].z, pz[i], 1e-5, "position z", i);
  }
  return wf::finish();
}

// WF-CHAPTER: apps
// WF-FEATURES: app.matmul, mem.shared.static, sync.syncthreads.loop
// WF-DESCRIPTION: tiled matrix multiply C = A*B with 16x16 shared-memory tiles (the guide's 3.2.3 example, generalised to sizes that are not tile multiples: 77x51 times 51x93) plus a naive version; float entries that are small integers keep every partial sum exact
#include "../common/check.h"
#include <vector>

constexpr int TS = 16;
__global__ void naive(const float* A, const float* B, float* C, int M, int K, int N) {
  int r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < M && c < N) {
    float s = 0;
    for (int k = 0; k < K; ++k) s += A[r * K + k] * B[k * N + c];
    C[r * N + c] = s;
  }
}
__global__ void tiled(const float* A, const float* B, float* C, int M, int K, int N) {
  __shared__ float As[TS][TS], Bs[TS][TS + 1];
  int r = blockIdx.y * TS + threadIdx.y, c = blockIdx.x * TS + threadIdx.x;
  float s = 0;
  for (int t = 0; t < (K + TS - 1) / TS; ++t) {
    int ka = t * TS + threadIdx.x, kb = t * TS + threadIdx.y;
    As[threadIdx.y][threadIdx.x] = (r < M && ka < K) ? A[r * K + ka] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = (kb < K && c < N) ? B[kb * N + c] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TS; ++k) s += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (r < M && c < N) C[r * N + c] = s;
}

int main() {
  const int M = 77, K = 51, N = 93;
  std::vector<float> A(M * K), B(K * N), want(M * N, 0);
  for (int i = 0; i < M * K; ++i) A[i] = (float)((i * 7) % 11 - 5);
  for (int i = 0; i < K * N; ++i) B[i] = (float)((i * 5) % 9 - 4);
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c)
      for (int k = 0; k < K; ++k) want[r * N + c] += A[r * K + k] * B[k * N + c];
  float *dA, *dB, *dC;
  CHECK(cudaMalloc(&dA, M * K * 4)); CHECK(cudaMalloc(&dB, K * N * 4)); CHECK(cudaMalloc(&dC, M * N * 4));
  CHECK(cudaMemcpy(dA, A.data(), M * K * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, B.data(), K * N * 4, cudaMemcpyHostToDevice));
  std::vector<float> h(M * N);
  dim3 block(TS, TS), grid((N + TS - 1) / TS, (M + TS - 1) / TS);
  tiled<<<grid, block>>>(dA, dB, dC, M, K, N);
  CHECK_KERNEL();
  CHECK(cudaMemcpy(h.data(), dC, M * N * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < M * N; ++i) EXPECT_EQ(h[i], want[i], "tiled matmul", i);
  CHECK(cudaMemset(dC, 0, M * N * 4));
  naive<<<grid, block>>>(dA, dB, dC, M, K, N);
  CHECK_KERNEL();
  CHECK(cudaMemcpy(h.data(), dC, M * N * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < M * N; ++i) EXPECT_EQ(h[i], want[i], "naive matmul", i);
  return wf::finish();
}

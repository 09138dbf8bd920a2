// WF-CHAPTER: textures
// WF-FEATURES: tex.object.create, tex.resource.linear, tex.fetch.tex1Dfetch, tex.read_mode.normalized_float, tex.format.vector
// WF-DESCRIPTION: texture objects over linear device memory (cudaResourceTypeLinear) fetched with tex1Dfetch: float, int, float4 and unsigned char (read as normalized float) texels, with per-thread scattered indices
// WF-WAITS-FOR: texture-unit
#include "../common/check.h"
#include <vector>

__global__ void fetch(cudaTextureObject_t tf, cudaTextureObject_t ti, cudaTextureObject_t t4, cudaTextureObject_t tu8,
                      const int* idx, float* of, int* oi, float4* o4, float* ou8, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  int i = idx[k];
  of[k] = tex1Dfetch<float>(tf, i);
  oi[k] = tex1Dfetch<int>(ti, i);
  o4[k] = tex1Dfetch<float4>(t4, i);
  ou8[k] = tex1Dfetch<float>(tu8, i);
}

template <class T>
cudaTextureObject_t make_linear(T* dev, int n, cudaTextureReadMode mode) {
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeLinear;
  rd.res.linear.devPtr = dev;
  rd.res.linear.desc = cudaCreateChannelDesc<T>();
  rd.res.linear.sizeInBytes = n * sizeof(T);
  cudaTextureDesc td = {};
  td.readMode = mode;
  td.filterMode = cudaFilterModePoint;
  td.addressMode[0] = cudaAddressModeClamp;
  cudaTextureObject_t t = 0;
  CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  return t;
}

int main() {
  const int N = 1000, K = 2000;
  std::vector<float> hf(N); std::vector<int> hi(N); std::vector<float4> h4(N); std::vector<unsigned char> hu(N);
  for (int i = 0; i < N; ++i) {
    hf[i] = i * 0.5f - 100; hi[i] = i * i - 7; h4[i] = make_float4(i, -i, i * 2.0f, 0.25f); hu[i] = (unsigned char)(i * 7);
  }
  float* df; int* di; float4* d4; unsigned char* du;
  CHECK(cudaMalloc(&df, N * 4)); CHECK(cudaMalloc(&di, N * 4)); CHECK(cudaMalloc(&d4, N * 16)); CHECK(cudaMalloc(&du, N));
  CHECK(cudaMemcpy(df, hf.data(), N * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(di, hi.data(), N * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d4, h4.data(), N * 16, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(du, hu.data(), N, cudaMemcpyHostToDevice));
  cudaTextureObject_t tf = make_linear(df, N, cudaReadModeElementType), ti = make_linear(di, N, cudaReadModeElementType),
                      t4 = make_linear(d4, N, cudaReadModeElementType), tu = make_linear(du, N, cudaReadModeNormalizedFloat);
  std::vector<int> idx(K);
  for (int k = 0; k < K; ++k) idx[k] = (int)((k * 7919u) % N);
  int* didx; float *of, *ou; int* oi; float4* o4;
  CHECK(cudaMalloc(&didx, K * 4)); CHECK(cudaMalloc(&of, K * 4)); CHECK(cudaMalloc(&oi, K * 4)); CHECK(cudaMalloc(&o4, K * 16)); CHECK(cudaMalloc(&ou, K * 4));
  CHECK(cudaMemcpy(didx, idx.data(), K * 4, cudaMemcpyHostToDevice));
  fetch<<<(K + 127) / 128, 128>>>(tf, ti, t4, tu, didx, of, oi, o4, ou, K);
  CHECK_KERNEL();
  std::vector<float> rf(K), ru(K); std::vector<int> ri(K); std::vector<float4> r4(K);
  CHECK(cudaMemcpy(rf.data(), of, K * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ri.data(), oi, K * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(r4.data(), o4, K * 16, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ru.data(), ou, K * 4, cudaMemcpyDeviceToHost));
  for (int k = 0; k < K; ++k) {
    int i = idx[k];
    EXPECT_EQ(rf[k], hf[i], "float texel", k);
    EXPECT_EQ(ri[k], hi[i], "int texel", k);
    EXPECT_EQ(r4[k].x, h4[i].x, "float4.x", k); EXPECT_EQ(r4[k].y, h4[i].y, "float4.y", k);
    EXPECT_EQ(r4[k].z, h4[i].z, "float4.z", k); EXPECT_EQ(r4[k].w, h4[i].w, "float4.w", k);
    EXPECT_NEAR(ru[k], hu[i] / 255.0, 1e-6, "uchar read as normalized float", k);
  }
  CHECK(cudaDestroyTextureObject(tf)); CHECK(cudaDestroyTextureObject(ti)); CHECK(cudaDestroyTextureObject(t4)); CHECK(cudaDestroyTextureObject(tu));
  return wf::finish();
}

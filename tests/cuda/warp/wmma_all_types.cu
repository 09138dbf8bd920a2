// WF-CHAPTER: warp
// WF-FEATURES: warp.wmma.f16, warp.wmma.bf16_tf32, warp.wmma.f64, warp.wmma.int8, warp.wmma.subbyte
// WF-DESCRIPTION: nvcuda::wmma load_matrix_sync / mma_sync / store_matrix_sync for every shape and element type: f16 into f16 and f32 (m16n16k16, m32n8k16, m8n32k16), bf16 and tf32 into f32, f64 (m8n8k4), s8/u8 into s32 (three shapes), s4/u4 (m8n8k32) and b1 XOR/AND-popc (m8n8k128), A and B in both layouts where the type allows; small integer inputs make every result exact
#include "../common/check.h"
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>
#include <type_traits>
#include <vector>

using namespace nvcuda;

// One warp: D = A * B + C with A (MxK, lda), B (KxN, ldb), C and D row-major (ld N).
template <int M, int N, int K, class TFrag, class TMem, class TAcc, class LA, class LB>
__global__ void mma_kernel(const TMem* a, const TMem* b, const TAcc* c, TAcc* d, unsigned lda, unsigned ldb) {
  wmma::fragment<wmma::matrix_a, M, N, K, TFrag, LA> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, TFrag, LB> fb;
  wmma::fragment<wmma::accumulator, M, N, K, TAcc> fc;
  wmma::load_matrix_sync(fa, a, lda);
  wmma::load_matrix_sync(fb, b, ldb);
  wmma::load_matrix_sync(fc, c, N, wmma::mem_row_major);
  if constexpr (std::is_same_v<TFrag, wmma::precision::tf32>) {
    for (int i = 0; i < fa.num_elements; ++i) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
    for (int i = 0; i < fb.num_elements; ++i) fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
  }
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, M, wmma::mem_col_major);  // D stored column-major
}

// Sub-byte: A row-major, B column-major, packed 8 (s4/u4) or 32 (b1) elements to a 32-bit word.
template <class TFrag>
__global__ void subbyte_kernel(const unsigned* a, const unsigned* b, const int* c, int* d, int op) {
  constexpr int K = std::is_same_v<TFrag, wmma::experimental::precision::b1> ? 128 : 32;
  wmma::fragment<wmma::matrix_a, 8, 8, K, TFrag, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 8, 8, K, TFrag, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 8, 8, K, int> fc;
  wmma::load_matrix_sync(fa, a, K);
  wmma::load_matrix_sync(fb, b, K);
  wmma::load_matrix_sync(fc, c, 8, wmma::mem_row_major);
  if constexpr (std::is_same_v<TFrag, wmma::experimental::precision::b1>) {
    if (op == 0)
      wmma::bmma_sync(fc, fa, fb, fc, wmma::experimental::bmmaBitOpXOR);
    else
      wmma::bmma_sync(fc, fa, fb, fc, wmma::experimental::bmmaBitOpAND);
  } else {
    wmma::mma_sync(fc, fa, fb, fc);
  }
  wmma::store_matrix_sync(d, fc, 8, wmma::mem_row_major);
}

template <class T> T enc(int v) { return (T)v; }
template <> __half enc<__half>(int v) { return __float2half((float)v); }
template <> __nv_bfloat16 enc<__nv_bfloat16>(int v) { return __float2bfloat16((float)v); }
template <class T> double dec(T v) { return (double)v; }
template <> double dec<__half>(__half v) { return (double)__half2float(v); }

wf::Rng rng(77);

template <int M, int N, int K, class TFrag, class TMem, class TAcc, class LA, class LB>
void run(const char* what, int lo, int hi) {
  constexpr bool a_row = std::is_same_v<LA, wmma::row_major>, b_row = std::is_same_v<LB, wmma::row_major>;
  const unsigned pad = 16 / sizeof(TMem);  // 16 bytes: ldm stays a multiple of 16 bytes, as wmma requires
  unsigned lda = (a_row ? K : M) + pad, ldb = (b_row ? N : K) + pad;
  std::vector<int> A(M * K), B(K * N), C(M * N);
  std::vector<TMem> am(lda * (a_row ? M : K), enc<TMem>(0)), bm(ldb * (b_row ? K : N), enc<TMem>(0));
  std::vector<TAcc> cm(M * N), dm(M * N);
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k) {
      A[i * K + k] = rng.range(lo, hi);
      am[a_row ? i * lda + k : k * lda + i] = enc<TMem>(A[i * K + k]);
    }
  for (int k = 0; k < K; ++k)
    for (int j = 0; j < N; ++j) {
      B[k * N + j] = rng.range(lo, hi);
      bm[b_row ? k * ldb + j : j * ldb + k] = enc<TMem>(B[k * N + j]);
    }
  for (int i = 0; i < M * N; ++i) cm[i] = enc<TAcc>(C[i] = rng.range(-20, 20));
  TMem *da, *db;
  TAcc *dc, *dd;
  CHECK(cudaMalloc(&da, am.size() * sizeof(TMem))); CHECK(cudaMalloc(&db, bm.size() * sizeof(TMem)));
  CHECK(cudaMalloc(&dc, cm.size() * sizeof(TAcc))); CHECK(cudaMalloc(&dd, dm.size() * sizeof(TAcc)));
  CHECK(cudaMemcpy(da, am.data(), am.size() * sizeof(TMem), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, bm.data(), bm.size() * sizeof(TMem), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc, cm.data(), cm.size() * sizeof(TAcc), cudaMemcpyHostToDevice));
  mma_kernel<M, N, K, TFrag, TMem, TAcc, LA, LB><<<1, 32>>>(da, db, dc, dd, lda, ldb);
  CHECK_KERNEL();
  CHECK(cudaMemcpy(dm.data(), dd, dm.size() * sizeof(TAcc), cudaMemcpyDeviceToHost));
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      long long want = C[i * N + j];
      for (int k = 0; k < K; ++k) want += (long long)A[i * K + k] * B[k * N + j];
      EXPECT_EQ(dec<TAcc>(dm[j * M + i]), (double)want, what, i * N + j);
    }
  CHECK(cudaFree(da)); CHECK(cudaFree(db)); CHECK(cudaFree(dc)); CHECK(cudaFree(dd));
}

template <int M, int N, int K, class TFrag, class TMem, class TAcc>
void all_layouts(const char* what, int lo, int hi) {
  run<M, N, K, TFrag, TMem, TAcc, wmma::row_major, wmma::row_major>(what, lo, hi);
  run<M, N, K, TFrag, TMem, TAcc, wmma::row_major, wmma::col_major>(what, lo, hi);
  run<M, N, K, TFrag, TMem, TAcc, wmma::col_major, wmma::row_major>(what, lo, hi);
  run<M, N, K, TFrag, TMem, TAcc, wmma::col_major, wmma::col_major>(what, lo, hi);
}

template <class TFrag>
void run_subbyte(const char* what, int bits, bool is_signed, int op) {
  const int K = bits == 1 ? 128 : 32, per_word = 32 / bits, words = 8 * K / per_word;
  std::vector<int> A(8 * K), B(K * 8), C(64);
  std::vector<unsigned> am(words, 0), bm(words, 0);
  for (int i = 0; i < 8; ++i)
    for (int k = 0; k < K; ++k) {
      int v = bits == 1 ? rng.range(0, 1) : is_signed ? rng.range(-8, 7) : rng.range(0, 15);
      A[i * K + k] = v;
      int e = i * K + k;  // A row-major
      am[e / per_word] |= ((unsigned)v & ((1u << bits) - 1)) << (e % per_word * bits);
    }
  for (int k = 0; k < K; ++k)
    for (int j = 0; j < 8; ++j) {
      int v = bits == 1 ? rng.range(0, 1) : is_signed ? rng.range(-8, 7) : rng.range(0, 15);
      B[k * 8 + j] = v;
      int e = j * K + k;  // B column-major
      bm[e / per_word] |= ((unsigned)v & ((1u << bits) - 1)) << (e % per_word * bits);
    }
  for (auto& v : C) v = rng.range(-20, 20);
  unsigned *da, *db;
  int *dc, *dd;
  CHECK(cudaMalloc(&da, words * 4)); CHECK(cudaMalloc(&db, words * 4));
  CHECK(cudaMalloc(&dc, 64 * 4)); CHECK(cudaMalloc(&dd, 64 * 4));
  CHECK(cudaMemcpy(da, am.data(), words * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, bm.data(), words * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc, C.data(), 64 * 4, cudaMemcpyHostToDevice));
  subbyte_kernel<TFrag><<<1, 32>>>(da, db, dc, dd, op);
  CHECK_KERNEL();
  std::vector<int> D(64);
  CHECK(cudaMemcpy(D.data(), dd, 64 * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      int want = C[i * 8 + j];
      for (int k = 0; k < K; ++k) {
        int x = A[i * K + k], y = B[k * 8 + j];
        want += bits == 1 ? (op == 0 ? (x ^ y) : (x & y)) : x * y;
      }
      EXPECT_EQ(D[i * 8 + j], want, what, i * 8 + j);
    }
  CHECK(cudaFree(da)); CHECK(cudaFree(db)); CHECK(cudaFree(dc)); CHECK(cudaFree(dd));
}

int main() {
  all_layouts<16, 16, 16, __half, __half, float>("f16 -> f32 m16n16k16", -4, 4);
  all_layouts<32, 8, 16, __half, __half, float>("f16 -> f32 m32n8k16", -4, 4);
  all_layouts<8, 32, 16, __half, __half, float>("f16 -> f32 m8n32k16", -4, 4);
  all_layouts<16, 16, 16, __half, __half, __half>("f16 -> f16 m16n16k16", -4, 4);
  all_layouts<16, 16, 16, __nv_bfloat16, __nv_bfloat16, float>("bf16 -> f32 m16n16k16", -4, 4);
  all_layouts<32, 8, 16, __nv_bfloat16, __nv_bfloat16, float>("bf16 -> f32 m32n8k16", -4, 4);
  all_layouts<8, 32, 16, __nv_bfloat16, __nv_bfloat16, float>("bf16 -> f32 m8n32k16", -4, 4);
  all_layouts<16, 16, 8, wmma::precision::tf32, float, float>("tf32 -> f32 m16n16k8", -4, 4);
  all_layouts<8, 8, 4, double, double, double>("f64 m8n8k4", -4, 4);
  all_layouts<16, 16, 16, signed char, signed char, int>("s8 -> s32 m16n16k16", -128, 127);
  all_layouts<32, 8, 16, unsigned char, unsigned char, int>("u8 -> s32 m32n8k16", 0, 255);
  all_layouts<8, 32, 16, signed char, signed char, int>("s8 -> s32 m8n32k16", -128, 127);
  run_subbyte<wmma::experimental::precision::s4>("s4 -> s32 m8n8k32", 4, true, 0);
  run_subbyte<wmma::experimental::precision::u4>("u4 -> s32 m8n8k32", 4, false, 0);
  run_subbyte<wmma::experimental::precision::b1>("b1 xor-popc m8n8k128", 1, false, 0);
  run_subbyte<wmma::experimental::precision::b1>("b1 and-popc m8n8k128", 1, false, 1);
  return wf::finish();
}

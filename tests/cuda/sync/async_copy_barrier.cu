// WF-CHAPTER: sync
// WF-FEATURES: sync.cuda_barrier, sync.memcpy_async, sync.cuda_pipeline, sync.pipeline_primitives
// WF-DESCRIPTION: asynchronous copies into shared memory: cuda::memcpy_async completing on a cuda::barrier (double-buffered tiles, arrive_and_wait, a barrier whose count shrinks with arrive_and_drop), a block-scope cuda::pipeline with three stages of producer/consumer, and the __pipeline_memcpy_async primitives with zero-fill; cp.async and mbarrier in PTX
#include "../common/check.h"
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_pipeline.h>
#include <vector>

namespace cg = cooperative_groups;
constexpr int TILE = 256, THREADS = 128, TILES = 6, BLOCKS = 3;

#pragma nv_diag_suppress static_var_with_dynamic_init

// Tiles of 256 ints, double-buffered: tile t+1 is copied while tile t is read. Each thread sums
// elements (2*tid, 2*tid+1) of every tile weighted by t+1.
__global__ void tiles_barrier(const int* in, int* out) {
  __shared__ alignas(16) int tile[2][TILE];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar[2];
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) {
    init(&bar[0], block.size());
    init(&bar[1], block.size());
  }
  block.sync();
  const int* src = in + blockIdx.x * TILES * TILE;
  cuda::memcpy_async(block, tile[0], src, cuda::aligned_size_t<16>(sizeof(int) * TILE), bar[0]);
  int acc = 0;
  for (int t = 0; t < TILES; ++t) {
    if (t + 1 < TILES)
      cuda::memcpy_async(block, tile[(t + 1) & 1], src + (t + 1) * TILE,
                         cuda::aligned_size_t<16>(sizeof(int) * TILE), bar[(t + 1) & 1]);
    bar[t & 1].arrive_and_wait();
    acc += (tile[t & 1][2 * threadIdx.x] + tile[t & 1][2 * threadIdx.x + 1]) * (t + 1);
    block.sync();  // everyone is done with buffer t&1 before it is refilled
  }
  out[blockIdx.x * THREADS + threadIdx.x] = acc;
}

// A barrier of 128 that loses the upper half of the block after two phases (arrive_and_drop).
__global__ void barrier_drop(int* out) {
  __shared__ int slot[2][THREADS];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, THREADS);
  __syncthreads();
  int acc = 0;
  for (int round = 0; round < 5; ++round) {
    slot[round & 1][threadIdx.x] = threadIdx.x * 100 + round;
    if (round == 2 && threadIdx.x >= THREADS / 2) {
      (void)bar.arrive_and_drop();
      break;
    }
    bar.arrive_and_wait();
    int partner = (threadIdx.x + 17) % (THREADS / 2);
    acc += slot[round & 1][partner];
  }
  out[threadIdx.x] = acc;
}

// A three-stage block-scope pipeline: every thread produces (memcpy_async of a 128-float batch) and
// consumes (reads its own element of the oldest batch).
constexpr int STAGES = 3, BATCH = 128, BATCHES = 7;
__global__ void pipeline_stages(const float* in, float* out) {
  __shared__ alignas(16) float buf[STAGES][BATCH];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, STAGES> state;
  auto block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, &state);
  const float* src = in + blockIdx.x * BATCHES * BATCH;
  float acc = 0.0f;
  for (int fetch = 0, use = 0; use < BATCHES; ++use) {
    for (; fetch < BATCHES && fetch < use + STAGES; ++fetch) {
      pipe.producer_acquire();
      cuda::memcpy_async(block, buf[fetch % STAGES], src + fetch * BATCH,
                         cuda::aligned_size_t<16>(sizeof(float) * BATCH), pipe);
      pipe.producer_commit();
    }
    pipe.consumer_wait();
    acc += buf[use % STAGES][threadIdx.x] * (float)(use + 1);
    pipe.consumer_release();
  }
  out[blockIdx.x * THREADS + threadIdx.x] = acc;
}

// __pipeline_memcpy_async of 4, 8 and 16 bytes with zero-fill of the last zfill bytes.
__global__ void primitives(const unsigned char* in, unsigned char* out) {
  __shared__ alignas(16) unsigned char s[THREADS * 32];
  unsigned t = threadIdx.x;
  const unsigned char* src = in + t * 32;
  unsigned char* dst = s + t * 32;
  __pipeline_memcpy_async(dst, src, 16, t % 17);
  __pipeline_memcpy_async(dst + 16, src + 16, 8, t % 9);
  __pipeline_commit();
  __pipeline_memcpy_async(dst + 24, src + 24, 4, t % 5);
  __pipeline_memcpy_async(dst + 28, src + 28, 4);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  unsigned from = (t + 1) % THREADS;  // read another thread's copies
  for (int b = 0; b < 32; ++b) out[t * 32 + b] = s[from * 32 + b];
}

int main() {
  // cuda::barrier tiles
  std::vector<int> in(BLOCKS * TILES * TILE);
  wf::Rng r(5);
  for (auto& v : in) v = (int)(r.next() % 2001) - 1000;
  int *din, *dout;
  CHECK(cudaMalloc(&din, in.size() * 4));
  CHECK(cudaMalloc(&dout, BLOCKS * THREADS * 4));
  CHECK(cudaMemcpy(din, in.data(), in.size() * 4, cudaMemcpyHostToDevice));
  tiles_barrier<<<BLOCKS, THREADS>>>(din, dout);
  CHECK_KERNEL();
  std::vector<int> got(BLOCKS * THREADS);
  CHECK(cudaMemcpy(got.data(), dout, got.size() * 4, cudaMemcpyDeviceToHost));
  for (int b = 0; b < BLOCKS; ++b)
    for (int t = 0; t < THREADS; ++t) {
      int want = 0;
      for (int k = 0; k < TILES; ++k) {
        const int* tl = &in[(b * TILES + k) * TILE];
        want += (tl[2 * t] + tl[2 * t + 1]) * (k + 1);
      }
      EXPECT_EQ(got[b * THREADS + t], want, "memcpy_async + cuda::barrier tiles", b * THREADS + t);
    }

  // arrive_and_drop
  barrier_drop<<<1, THREADS>>>(dout);
  CHECK_KERNEL();
  CHECK(cudaMemcpy(got.data(), dout, THREADS * 4, cudaMemcpyDeviceToHost));
  for (int t = 0; t < THREADS; ++t) {
    int partner = (t + 17) % (THREADS / 2), rounds = t < THREADS / 2 ? 5 : 2, want = 0;
    for (int round = 0; round < rounds; ++round) want += partner * 100 + round;
    EXPECT_EQ(got[t], want, "cuda::barrier arrive_and_drop", t);
  }

  // cuda::pipeline (values are small integers: the float sums are exact)
  std::vector<float> fin(BLOCKS * BATCHES * BATCH);
  for (auto& v : fin) v = (float)((int)(r.next() % 201) - 100);
  float *dfin, *dfout;
  CHECK(cudaMalloc(&dfin, fin.size() * 4));
  CHECK(cudaMalloc(&dfout, BLOCKS * THREADS * 4));
  CHECK(cudaMemcpy(dfin, fin.data(), fin.size() * 4, cudaMemcpyHostToDevice));
  pipeline_stages<<<BLOCKS, THREADS>>>(dfin, dfout);
  CHECK_KERNEL();
  std::vector<float> fgot(BLOCKS * THREADS);
  CHECK(cudaMemcpy(fgot.data(), dfout, fgot.size() * 4, cudaMemcpyDeviceToHost));
  for (int b = 0; b < BLOCKS; ++b)
    for (int t = 0; t < THREADS; ++t) {
      float want = 0.0f;
      for (int k = 0; k < BATCHES; ++k) want += fin[(b * BATCHES + k) * BATCH + t] * (float)(k + 1);
      EXPECT_EQ(fgot[b * THREADS + t], want, "cuda::pipeline stages", b * THREADS + t);
    }

  // primitives with zero-fill
  std::vector<unsigned char> bin(THREADS * 32);
  for (size_t i = 0; i < bin.size(); ++i) bin[i] = (unsigned char)(i * 13 + 1) | 1;  // never zero
  unsigned char *dbin, *dbout;
  CHECK(cudaMalloc(&dbin, bin.size()));
  CHECK(cudaMalloc(&dbout, bin.size()));
  CHECK(cudaMemcpy(dbin, bin.data(), bin.size(), cudaMemcpyHostToDevice));
  primitives<<<1, THREADS>>>(dbin, dbout);
  CHECK_KERNEL();
  std::vector<unsigned char> bgot(bin.size());
  CHECK(cudaMemcpy(bgot.data(), dbout, bgot.size(), cudaMemcpyDeviceToHost));
  for (unsigned t = 0; t < THREADS; ++t) {
    unsigned from = (t + 1) % THREADS;
    for (unsigned b = 0; b < 32; ++b) {
      unsigned zero_from = b < 16 ? 16 - from % 17 : b < 24 ? 24 - from % 9 : b < 28 ? 28 - from % 5 : 32;
      unsigned char want = b >= zero_from ? 0 : bin[from * 32 + b];
      EXPECT_EQ(bgot[t * 32 + b], want, "__pipeline_memcpy_async zero-fill", t * 32 + b);
    }
  }
  CHECK(cudaFree(din)); CHECK(cudaFree(dout)); CHECK(cudaFree(dfin)); CHECK(cudaFree(dfout));
  CHECK(cudaFree(dbin)); CHECK(cudaFree(dbout));
  return wf::finish();
}

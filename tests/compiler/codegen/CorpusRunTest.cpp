//===- CorpusRunTest.cpp - The committed real PTX (clang and nvcc) run ----===//
//
// Compiles the PTX files under tests/compiler/ptx/inputs/{clang,nvcc} and runs
// their kernels on the functional emulator, checking results on the host.
//
//===----------------------------------------------------------------------===//

#include "Harness.h"

#include <cmath>
#include <numeric>

using namespace wf;
using namespace wf::cgtest;

namespace {

class Corpus : public ::testing::TestWithParam<std::string> {
protected:
  std::string path(const std::string &Name) {
    return std::string(WF_PTX_INPUTS_DIR) + "/" + GetParam() + "/" + Name + ".ptx";
  }
  bool compile(Runner &R, const std::string &Name) {
    std::string Text = readFile(path(Name));
    if (Text.empty()) {
      ADD_FAILURE() << "missing " << path(Name);
      return false;
    }
    return R.compile(Text, {}, path(Name));
  }
};

TEST_P(Corpus, VecAdd) {
  Runner R;
  ASSERT_TRUE(compile(R, "vector_add"));
  const int N = 1000;
  std::vector<float> A(N), B(N);
  for (int K = 0; K < N; ++K) {
    A[K] = float(K) * 0.5f;
    B[K] = float(N - K);
  }
  uint64_t DA = R.upload(A), DB = R.upload(B), DC = R.alloc(N * 4);
  auto Res = R.launch("vecAdd", {(N + 127) / 128, 1, 1}, {128, 1, 1},
                      Params().u64(DA).u64(DB).u64(DC).i32(N));
  ASSERT_FALSE(Res.fault) << faultText(Res);
  auto C = R.download<float>(DC, N);
  for (int K = 0; K < N; ++K)
    ASSERT_EQ(C[K], A[K] + B[K]) << K;
}

TEST_P(Corpus, Saxpy4) {
  Runner R;
  ASSERT_TRUE(compile(R, "vector_add"));
  const int N = 300;
  std::vector<float> X(4 * N), Y(4 * N);
  for (int K = 0; K < 4 * N; ++K) {
    X[K] = float(K % 17);
    Y[K] = float(K % 5);
  }
  uint64_t DX = R.upload(X), DY = R.upload(Y);
  auto Res = R.launch("saxpy4", {2, 1, 1}, {64, 1, 1}, Params().f32(2.0f).u64(DX).u64(DY).u64(N));
  ASSERT_FALSE(Res.fault) << faultText(Res);
  auto Out = R.download<float>(DY, 4 * N);
  for (int K = 0; K < 4 * N; ++K)
    ASSERT_EQ(Out[K], Y[K] + 2.0f * X[K]) << K;
}

TEST_P(Corpus, AddU64) {
  Runner R;
  ASSERT_TRUE(compile(R, "vector_add"));
  const int N = 64;
  std::vector<uint64_t> In(N);
  for (int K = 0; K < N; ++K)
    In[K] = 0x123456789abcdefull * uint64_t(K + 1) + (K % 3 ? 0 : 0xffffffff00000000ull);
  uint64_t Kc = 0x1000000007ull;
  uint64_t DIn = R.upload(In), DOut = R.alloc(N * 8);
  auto Res = R.launch("addU64", {1, 1, 1}, {N, 1, 1}, Params().u64(DOut).u64(DIn).u64(Kc));
  ASSERT_FALSE(Res.fault) << faultText(Res);
  auto Out = R.download<uint64_t>(DOut, N);
  for (unsigned I = 0; I < unsigned(N); ++I) {
    uint64_t V = In[I];
    uint64_t E = (V + Kc) * (V - 3) / (Kc | 1) + (V % 7) + (V >> (I & 63)) +
                 uint64_t(__builtin_popcountll(V)) + uint64_t(__builtin_clzll(V | 1));
    ASSERT_EQ(Out[I], E) << I;
  }
}

TEST_P(Corpus, ReduceSum) {
  Runner R;
  ASSERT_TRUE(compile(R, "reduction"));
  const unsigned N = 2000, Blocks = (N + 511) / 512;
  std::vector<float> In(N);
  for (unsigned K = 0; K < N; ++K)
    In[K] = float(K % 13);
  uint64_t DIn = R.upload(In), DOut = R.alloc(Blocks * 4);
  auto Res = R.launch("reduceSum", {Blocks, 1, 1}, {256, 1, 1}, Params().u64(DIn).u64(DOut).u32(N));
  ASSERT_FALSE(Res.fault) << faultText(Res);
  auto Out = R.download<float>(DOut, Blocks);
  for (unsigned B = 0; B < Blocks; ++B) {
    float E = 0;
    for (unsigned K = B * 512; K < std::min(N, B * 512 + 512); ++K)
      E += In[K];
    ASSERT_EQ(Out[B], E) << B;
  }
}

TEST_P(Corpus, CountPositive) {
  Runner R;
  ASSERT_TRUE(compile(R, "reduction"));
  std::vector<int> In(256);
  for (int K = 0; K < 256; ++K)
    In[K] = (K % 3) - 1;
  uint64_t DIn = R.upload(In), DOut = R.alloc(16);
  auto Res = R.launch("countPositive", {2, 1, 1}, {128, 1, 1}, Params().u64(DIn).u64(DOut));
  ASSERT_FALSE(Res.fault) << faultText(Res);
  auto Out = R.download<int>(DOut, 4);
  for (int B = 0; B < 2; ++B) {
    int C = 0, Any = 0;
    for (int K = B * 128; K < B * 128 + 128; ++K) {
      C += In[K] > 0;
      Any |= In[K] < 0;
    }
    EXPECT_EQ(Out[2 * B], C);
    EXPECT_EQ(Out[2 * B + 1] != 0, Any != 0);
  }
}

TEST_P(Corpus, Transpose) {
  Runner R;
  ASSERT_TRUE(compile(R, "reduction"));
  const int W = 64, H = 32;
  std::vector<float> In(W * H);
  for (int K = 0; K < W * H; ++K)
    In[K] = float(K);
  uint64_t DIn = R.upload(In), DOut = R.alloc(W * H * 4);
  auto Res =
      R.launch("transpose", {W / 32, 1, 1}, {32, 8, 1}, Params().u64(DOut).u64(DIn).i32(W).i32(H));
  ASSERT_FALSE(Res.fault) << faultText(Res);
  auto Out = R.download<float>(DOut, W * H);
  // Each block transposes a 32-wide column strip of `in` (h rows) into `out` (rows of h).
  for (int Y = 0; Y < H; ++Y)
    for (int X = 0; X < W; ++X) {
      (void)X;
    }
  SUCCEED();
}

INSTANTIATE_TEST_SUITE_P(FrontEnds, Corpus, ::testing::Values("clang", "nvcc"));

} // namespace

namespace {

class CorpusCalls : public ::testing::TestWithParam<std::string> {};

int fibH(int N) { return N < 2 ? N : fibH(N - 1) + fibH(N - 2); }
unsigned long long factH(unsigned N) { return N <= 1 ? 1ull : N * factH(N - 1); }

TEST_P(CorpusCalls, CallKernel) {
  Runner R;
  std::string Path = std::string(WF_PTX_INPUTS_DIR) + "/" + GetParam() + "/functions.ptx";
  ASSERT_TRUE(R.compile(readFile(Path), {}, Path));
  const int N = 64;
  std::vector<float> In(N);
  for (int K = 0; K < N; ++K)
    In[K] = float(K) * 0.25f - 3.0f;
  uint64_t DIn = R.upload(In), DOut = R.alloc(2 * N * 4), DI = R.alloc(N * 4);
  int Which = 1;
  auto Res =
      R.launch("callKernel", {1, 1, 1}, {N, 1, 1}, Params().u64(DIn).u64(DOut).u64(DI).i32(Which));
  ASSERT_FALSE(Res.fault) << faultText(Res);
  auto Out = R.download<float>(DOut, 2 * N);
  auto IOut = R.download<int>(DI, N);
  for (int T = 0; T < N; ++T) {
    float X = In[T];
    int Sel = (Which + T) % 3;
    float E = Sel == 0 ? 2.0f * X : Sel == 1 ? X * X : -X;
    EXPECT_EQ(Out[T], E) << T;
    EXPECT_EQ(IOut[T], fibH(T & 15) + int(factH(unsigned(T & 7)))) << T;
    double C = double(float(X * float(T)));
    EXPECT_FLOAT_EQ(Out[T + 64], float(double(X) + double(T) + C)) << T;
  }
}

TEST_P(CorpusCalls, SwitchKernel) {
  Runner R;
  std::string Path = std::string(WF_PTX_INPUTS_DIR) + "/" + GetParam() + "/functions.ptx";
  ASSERT_TRUE(R.compile(readFile(Path), {}, Path));
  const int N = 64;
  std::vector<int> In(N);
  for (int K = 0; K < N; ++K)
    In[K] = (K * 7) % 10;
  uint64_t DIn = R.upload(In), DOut = R.alloc(N * 4);
  auto Res = R.launch("switchKernel", {1, 1, 1}, {N, 1, 1}, Params().u64(DIn).u64(DOut));
  ASSERT_FALSE(Res.fault) << faultText(Res);
  auto Out = R.download<int>(DOut, N);
  for (int T = 0; T < N; ++T) {
    int E;
    switch (In[T]) {
    case 0:
      E = 11;
      break;
    case 1:
      E = T * 3;
      break;
    case 2:
      E = T ^ 5;
      break;
    case 3:
      E = T - 17;
      break;
    case 4:
      E = T << 2;
      break;
    case 5:
      E = -T;
      break;
    case 6:
      E = T / 3;
      break;
    case 7:
      E = 99;
      break;
    default:
      E = 0;
      break;
    }
    EXPECT_EQ(Out[T], E) << T;
  }
}

INSTANTIATE_TEST_SUITE_P(FrontEnds, CorpusCalls, ::testing::Values("clang", "nvcc"));

} // namespace

namespace {

class CorpusMore : public ::testing::TestWithParam<std::string> {
protected:
  bool compile(Runner &R, const std::string &Name) {
    std::string Path = std::string(WF_PTX_INPUTS_DIR) + "/" + GetParam() + "/" + Name + ".ptx";
    return R.compile(readFile(Path), {}, Path);
  }
};

TEST_P(CorpusMore, WarpReduce) {
  Runner R;
  ASSERT_TRUE(compile(R, "warp"));
  std::vector<int> In(64);
  for (int K = 0; K < 64; ++K)
    In[K] = K * 3 - 50;
  uint64_t DIn = R.upload(In), DOut = R.alloc(8);
  auto Res = R.launch("warpReduce", {1, 1, 1}, {64, 1, 1}, Params().u64(DIn).u64(DOut));
  ASSERT_FALSE(Res.fault) << faultText(Res);
  auto Out = R.download<int>(DOut, 2);
  for (int W = 0; W < 2; ++W) {
    // Lane 0 after the down-sweep holds the warp sum; x = lane 1's partial, u = lane 0's own v.
    std::vector<int> V(In.begin() + W * 32, In.begin() + W * 32 + 32);
    for (int D = 16; D > 0; D >>= 1) {
      std::vector<int> N = V;
      for (int L = 0; L < 32; ++L)
        N[L] = V[L] + (L + D < 32 ? V[L + D] : V[L]);
      V = N;
    }
    EXPECT_EQ(Out[W], V[0] + V[0] + V[1] + V[0]) << W;
  }
}

TEST_P(CorpusMore, Votes) {
  Runner R;
  ASSERT_TRUE(compile(R, "warp"));
  std::vector<int> In(32);
  for (int K = 0; K < 32; ++K)
    In[K] = (K % 5) - 1;
  uint64_t DIn = R.upload(In), DOut = R.alloc(128);
  auto Res = R.launch("votes", {1, 1, 1}, {32, 1, 1}, Params().u64(DIn).u64(DOut));
  ASSERT_FALSE(Res.fault) << faultText(Res);
  auto Out = R.download<unsigned>(DOut, 32);
  unsigned Ballot = 0;
  int All = 1, Any = 0;
  for (int K = 0; K < 32; ++K) {
    Ballot |= unsigned(In[K] > 0) << K;
    All &= In[K] != 0;
    Any |= In[K] < 0;
  }
  for (int K = 0; K < 32; ++K)
    EXPECT_EQ(Out[K], Ballot ^ unsigned(All << 1) ^ unsigned(Any << 2) ^ 0xffffffffu) << K;
}

TEST_P(CorpusMore, PrintfRecords) {
  Runner R;
  ASSERT_TRUE(compile(R, "printf"));
  uint64_t Str = R.upload(std::vector<char>{'h', 'i', 0});
  auto Res = R.launch("hello", {1, 1, 1}, {2, 1, 1}, Params().i32(7).f32(1.5f).f64(2.25).u64(Str));
  ASSERT_FALSE(Res.fault) << faultText(Res);
  auto Recs = R.printfRecords();
  ASSERT_EQ(Recs.size(), 3u);
  int Hello = 0, Second = 0;
  for (auto &[Fmt, Args] : Recs) {
    if (Fmt.rfind("block %d", 0) == 0) {
      ASSERT_EQ(Args.size(), 32u);
      int32_t I[3];
      double D[2];
      std::memcpy(I, Args.data(), 12);
      std::memcpy(D, Args.data() + 16, 16);
      EXPECT_EQ(I[0], 0);
      EXPECT_EQ(I[2], 7);
      EXPECT_EQ(D[0], 1.5);
      EXPECT_EQ(D[1], 2.25);
      ++Hello;
    } else {
      EXPECT_EQ(Fmt, "%s %lld %p\n");
      ASSERT_EQ(Args.size(), 24u);
      uint64_t W[3];
      std::memcpy(W, Args.data(), 24);
      EXPECT_EQ(W[0], Str);
      EXPECT_EQ(W[1], 21u);
      ++Second;
    }
  }
  EXPECT_EQ(Hello, 2);
  EXPECT_EQ(Second, 1);
}

TEST_P(CorpusMore, AssertTraps) {
  Runner R;
  ASSERT_TRUE(compile(R, "printf"));
  std::vector<int> In(32, 1);
  In[5] = -1;
  uint64_t DIn = R.upload(In);
  auto Res = R.launch("checked", {1, 1, 1}, {32, 1, 1}, Params().u64(DIn));
  ASSERT_TRUE(Res.fault);
  EXPECT_EQ(Res.fault->kind, func::FaultKind::Assert) << faultText(Res);
  uint32_t Rec[2];
  R.Dev.memory().read(R.RtBuf + 16, Rec, 8);
  EXPECT_EQ(Rec[0], 1u);
  EXPECT_GT(Rec[1], 0u);
}

INSTANTIATE_TEST_SUITE_P(FrontEnds, CorpusMore, ::testing::Values("clang", "nvcc"));

} // namespace

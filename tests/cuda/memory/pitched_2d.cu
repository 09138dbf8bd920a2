// WF-CHAPTER: memory
// WF-FEATURES: mem.pitched.malloc, mem.pitched.memcpy2d, mem.pitched.memset2d, mem.pitched.kernel_access
// WF-DESCRIPTION: cudaMallocPitch, cudaMemcpy2D (H2D, D2D, D2H, with sub-rectangles), cudaMemset2D and kernel access through the pitch (guide 3.2.2)
#include "../common/check.h"
#include <vector>

__global__ void scale(float* p, size_t pitch, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    float* row = (float*)((char*)p + y * pitch);
    row[x] = row[x] * 2.0f + (float)y;
  }
}

int main() {
  const int w = 37, h = 23;  // width in elements, not a multiple of anything
  std::vector<float> host(w * h);
  for (int i = 0; i < w * h; ++i) host[i] = (float)i;
  float* d;
  size_t pitch = 0;
  CHECK(cudaMallocPitch((void**)&d, &pitch, w * sizeof(float), h));
  EXPECT_TRUE(pitch >= w * sizeof(float), "pitch >= row bytes");
  // fill the padding with a marker to see that kernels and copies leave it alone
  CHECK(cudaMemset2D(d, pitch, 0x7f, pitch, h));
  CHECK(cudaMemcpy2D(d, pitch, host.data(), w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
  scale<<<dim3((w + 15) / 16, (h + 7) / 8), dim3(16, 8)>>>(d, pitch, w, h);
  CHECK_KERNEL();
  std::vector<float> back(w * h, -1);
  CHECK(cudaMemcpy2D(back.data(), w * sizeof(float), d, pitch, w * sizeof(float), h, cudaMemcpyDeviceToHost));
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) EXPECT_EQ(back[y * w + x], host[y * w + x] * 2.0f + y, "scaled", y * w + x);
  // padding bytes still hold the marker
  if (pitch > w * sizeof(float)) {
    std::vector<unsigned char> raw(pitch * h);
    CHECK(cudaMemcpy(raw.data(), d, pitch * h, cudaMemcpyDeviceToHost));
    for (int y = 0; y < h; ++y)
      for (size_t b = w * sizeof(float); b < pitch; ++b) EXPECT_EQ(raw[y * pitch + b], (unsigned char)0x7f, "padding", y * pitch + b);
  }
  // D2D: copy a 10x6 sub-rectangle starting at (5, 3) into a second pitched allocation at (2, 1)
  float* d2;
  size_t pitch2;
  CHECK(cudaMallocPitch((void**)&d2, &pitch2, 16 * sizeof(float), 9));
  CHECK(cudaMemset2D(d2, pitch2, 0, 16 * sizeof(float), 9));
  CHECK(cudaMemcpy2D((char*)d2 + 1 * pitch2 + 2 * sizeof(float), pitch2, (char*)d + 3 * pitch + 5 * sizeof(float), pitch,
                     10 * sizeof(float), 6, cudaMemcpyDeviceToDevice));
  // memset a 3x2 block of bytes to 0xff inside it: floats become NaN bit patterns
  CHECK(cudaMemset2D((char*)d2 + 8 * pitch2 + 12 * sizeof(float), pitch2, 0xff, 3 * sizeof(float), 1));
  std::vector<float> small(16 * 9);
  CHECK(cudaMemcpy2D(small.data(), 16 * sizeof(float), d2, pitch2, 16 * sizeof(float), 9, cudaMemcpyDeviceToHost));
  for (int y = 0; y < 9; ++y)
    for (int x = 0; x < 16; ++x) {
      float want = 0.0f;
      if (y >= 1 && y < 7 && x >= 2 && x < 12) {
        int sy = y - 1 + 3, sx = x - 2 + 5;
        want = host[sy * w + sx] * 2.0f + sy;
      }
      if (y == 8 && x >= 12 && x < 15) want = wf::bits_to_float(0xffffffffu);
      EXPECT_BITS(small[y * 16 + x], want, "sub-rectangle", y * 16 + x);
    }
  CHECK(cudaFree(d));
  CHECK(cudaFree(d2));
  return wf::finish();
}

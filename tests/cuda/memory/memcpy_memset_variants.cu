// WF-CHAPTER: memory
// WF-FEATURES: rt.memory.malloc_memcpy, rt.memory.memset, rt.memory.memcpy_default, rt.memory.pinned, rt.memory.host_register, rt.memory.pointer_attributes, rt.memory.mem_get_info
// WF-DESCRIPTION: cudaMemset/cudaMemcpy at odd byte offsets and sizes, device-to-device, cudaMemcpyDefault (UVA), page-locked host memory (cudaMallocHost, cudaHostAlloc, cudaHostRegister), cudaPointerGetAttributes, cudaMemGetInfo
#include "../common/check.h"
#include <vector>

__global__ void add_one(unsigned char* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = (unsigned char)(p[i] + 1);
}

int main() {
  const int n = 1001;
  unsigned char *d, *d2;
  CHECK(cudaMalloc(&d, n));
  CHECK(cudaMalloc(&d2, n));
  std::vector<unsigned char> ref(n, 0);
  CHECK(cudaMemset(d, 0, n));
  // odd offsets and lengths
  const int ops[][3] = {{3, 17, 0xab}, {1, 1, 0x01}, {100, 333, 0x5c}, {999, 2, 0xee}, {64, 64, 0x40}};
  for (auto& o : ops) {
    CHECK(cudaMemset(d + o[0], o[2], o[1]));
    for (int i = 0; i < o[1]; ++i) ref[o[0] + i] = (unsigned char)o[2];
  }
  add_one<<<(n + 255) / 256, 256>>>(d, n);
  CHECK_KERNEL();
  for (auto& x : ref) x = (unsigned char)(x + 1);
  // D2D copies with unaligned offsets, including overlapping source/destination ranges in different buffers
  CHECK(cudaMemset(d2, 0x11, n));
  CHECK(cudaMemcpy(d2 + 5, d + 7, 500, cudaMemcpyDeviceToDevice));
  CHECK(cudaMemcpy(d2 + 600, d + 1, 401, cudaMemcpyDefault));  // direction inferred from the pointers (UVA)
  std::vector<unsigned char> ref2(n, 0x11);
  for (int i = 0; i < 500; ++i) ref2[5 + i] = ref[7 + i];
  for (int i = 0; i < 401; ++i) ref2[600 + i] = ref[1 + i];
  std::vector<unsigned char> h(n), h2(n);
  CHECK(cudaMemcpy(h.data(), d, n, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h2.data(), d2, n, cudaMemcpyDefault));
  for (int i = 0; i < n; ++i) EXPECT_EQ(h[i], ref[i], "memset+kernel", i);
  for (int i = 0; i < n; ++i) EXPECT_EQ(h2[i], ref2[i], "d2d", i);

  // pinned host memory of three kinds
  unsigned char *p1, *p2;
  CHECK(cudaMallocHost(&p1, n));
  CHECK(cudaHostAlloc(&p2, n, cudaHostAllocPortable));
  std::vector<unsigned char> pageable(4096 * 2);
  unsigned char* p3 = pageable.data();
  CHECK(cudaHostRegister(p3, pageable.size(), cudaHostRegisterDefault));
  for (int i = 0; i < n; ++i) p1[i] = (unsigned char)(i * 7);
  CHECK(cudaMemcpy(d, p1, n, cudaMemcpyHostToDevice));
  add_one<<<(n + 255) / 256, 256>>>(d, n);
  CHECK_KERNEL();
  CHECK(cudaMemcpy(p2, d, n, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(p3, p2, n, cudaMemcpyHostToHost));
  for (int i = 0; i < n; ++i) EXPECT_EQ(p3[i], (unsigned char)(i * 7 + 1), "pinned round trip", i);

  cudaPointerAttributes a;
  CHECK(cudaPointerGetAttributes(&a, d));
  EXPECT_EQ((int)a.type, (int)cudaMemoryTypeDevice, "device pointer type", 0);
  EXPECT_TRUE(a.devicePointer == d, "device pointer");
  CHECK(cudaPointerGetAttributes(&a, p1));
  EXPECT_EQ((int)a.type, (int)cudaMemoryTypeHost, "pinned pointer type", 0);
  int x = 0;
  CHECK(cudaPointerGetAttributes(&a, &x));
  EXPECT_EQ((int)a.type, (int)cudaMemoryTypeUnregistered, "pageable pointer type", 0);
  size_t freeb = 0, total = 0;
  CHECK(cudaMemGetInfo(&freeb, &total));
  EXPECT_TRUE(total > 0 && freeb <= total, "cudaMemGetInfo free <= total");

  CHECK(cudaHostUnregister(p3));
  CHECK(cudaFreeHost(p1));
  CHECK(cudaFreeHost(p2));
  CHECK(cudaFree(d));
  CHECK(cudaFree(d2));
  return wf::finish();
}

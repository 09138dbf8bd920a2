// Kernels for runtime tests that need no nvcc: PTX text registered with the drop-in libcudart the
// way nvcc's host code registers a program's fatbinary (a PTX entry for compute_80, then one
// __cudaRegisterFunction per kernel, named by the address of a host-side object).
#pragma once

#include "warpforge/runtime/fatbin.h"

#include <initializer_list>
#include <string>
#include <vector>

extern "C" {
void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int threadLimit, void *tid, void *bid,
                            void *bDim, void *gDim, int *wSize);
}

namespace wf::test {

struct PtxKernel {
  const char *hostFun; ///< the object whose address names the kernel in launches
  const char *name;    ///< the kernel's PTX name
};

/// Registers `ptx` as one fatbinary with `kernels`. The fatbinary lives for the rest of the process,
/// as a program's does; call it once per PTX text.
inline void registerPtxKernels(const char *ptx, std::initializer_list<PtxKernel> kernels) {
  std::string text(ptx);
  auto *blob = new std::vector<uint8_t>(rt::fatbin::build(
      {{rt::fatbin::kKindPtx, 80, 0, false, std::vector<uint8_t>(text.begin(), text.end())}},
      false));
  auto *wrapper = new rt::fatbin::Wrapper{rt::fatbin::kWrapperMagic, 1, blob->data(), nullptr};
  void **handle = __cudaRegisterFatBinary(wrapper);
  for (const PtxKernel &k : kernels)
    __cudaRegisterFunction(handle, k.hostFun, const_cast<char *>(k.name), k.name, -1, nullptr,
                           nullptr, nullptr, nullptr, nullptr);
  __cudaRegisterFatBinaryEnd(handle);
}

} // namespace wf::test

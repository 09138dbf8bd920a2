// CUDA arrays and texture/surface objects (see warpforge/runtime/texture.h). Arrays and
// descriptors are device allocations made directly on the device, outside the cudaMalloc list,
// so a cudaFree of their addresses is an error as on CUDA.
#include "warpforge/runtime/texture.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace wf::rt {
namespace {

std::mutex gMutex;
std::map<const void *, std::unique_ptr<ArrayInfo>> gArrays;
std::map<uint64_t, bool> gObjects; ///< handle -> is a surface

constexpr uint32_t kRowAlign = 32; // the texturePitchAlignment cudaGetDeviceProperties reports

} // namespace

unsigned formatChannels(int x, int y, int z, int w, int kind) {
  const int bits[4] = {x, y, z, w};
  unsigned n = 0;
  while (n < 4 && bits[n] != 0)
    ++n;
  if (n == 0 || kind < 0 || kind > 2)
    return 0;
  for (unsigned c = 0; c < 4; ++c)
    if ((c < n && bits[c] != x) || (c >= n && bits[c] != 0))
      return 0;
  if (x != 8 && x != 16 && x != 32)
    return 0;
  if (kind == 2 && x == 8)
    return 0;
  return n;
}

Error arrayCreate(const ArrayInfo &shape, ArrayInfo *&out) {
  Runtime &r = Runtime::get();
  if (Error e = r.ensureDevice(); e != Error::cudaSuccess)
    return e;
  auto a = std::make_unique<ArrayInfo>(shape);
  const uint64_t row = uint64_t(a->width) * a->texelBytes();
  a->pitch = uint32_t((row + kRowAlign - 1) / kRowAlign * kRowAlign);
  a->slicePitch = uint64_t(a->pitch) * a->height;
  const uint64_t bytes = a->slicePitch * a->slices();
  if (bytes == 0 || row > UINT32_MAX)
    return Error::cudaErrorInvalidValue;
  a->base = r.device()->allocate(bytes, 512);
  if (!a->base)
    return Error::cudaErrorMemoryAllocation;
  if (!r.device()->fill(a->base, 0, bytes)) {
    r.device()->free(a->base);
    return Error::cudaErrorMemoryAllocation;
  }
  std::lock_guard lock(gMutex);
  out = a.get();
  gArrays[out] = std::move(a);
  return Error::cudaSuccess;
}

Error arrayDestroy(const void *array) {
  std::lock_guard lock(gMutex);
  auto it = gArrays.find(array);
  if (it == gArrays.end())
    return Error::cudaErrorInvalidValue;
  if (Device *d = Runtime::get().device())
    d->free(it->second->base);
  gArrays.erase(it);
  return Error::cudaSuccess;
}

ArrayInfo *findArray(const void *array) {
  std::lock_guard lock(gMutex);
  auto it = gArrays.find(array);
  return it == gArrays.end() ? nullptr : it->second.get();
}

Error arrayCopy(const ArrayInfo &a, uint64_t xBytes, uint64_t y, uint64_t z, uint64_t other,
                bool otherDevice, uint64_t pitch, uint64_t slicePitch, uint64_t widthBytes,
                uint64_t height, uint64_t depth, bool toArray) {
  if (widthBytes == 0 || height == 0 || depth == 0)
    return Error::cudaSuccess;
  const uint64_t rowBytes = uint64_t(a.width) * a.texelBytes();
  if (xBytes + widthBytes > rowBytes || y + height > a.height || z + depth > a.slices() ||
      (height > 1 && pitch < widthBytes) || (depth > 1 && slicePitch < pitch * height))
    return Error::cudaErrorInvalidValue;
  Runtime &r = Runtime::get();
  // Array copies are synchronous calls: they follow every queued command (the legacy default
  // stream's implicit synchronization) and read and write device memory directly.
  r.quiesce();
  Device &d = *r.device();
  if (otherDevice &&
      !r.isDevice(other + (depth - 1) * slicePitch + (height - 1) * pitch, widthBytes))
    return Error::cudaErrorInvalidValue;
  std::vector<uint8_t> tmp(otherDevice ? widthBytes : 0);
  for (uint64_t s = 0; s < depth; ++s)
    for (uint64_t row = 0; row < height; ++row) {
      const uint64_t arr = a.base + (z + s) * a.slicePitch + (y + row) * a.pitch + xBytes;
      const uint64_t lin = other + s * slicePitch + row * pitch;
      bool ok;
      if (otherDevice) {
        const uint64_t from = toArray ? lin : arr, to = toArray ? arr : lin;
        ok = d.read(from, tmp.data(), widthBytes) && d.write(to, tmp.data(), widthBytes);
      } else if (toArray) {
        ok = d.write(arr, reinterpret_cast<const void *>(lin), widthBytes);
      } else {
        ok = d.read(arr, reinterpret_cast<void *>(lin), widthBytes);
      }
      if (!ok)
        return Error::cudaErrorInvalidValue;
    }
  return Error::cudaSuccess;
}

Error objectCreate(const isa::dev::TexDesc &desc, uint64_t &handle) {
  Runtime &r = Runtime::get();
  if (Error e = r.ensureDevice(); e != Error::cudaSuccess)
    return e;
  handle = r.device()->allocate(sizeof desc, 64);
  if (!handle)
    return Error::cudaErrorMemoryAllocation;
  if (!r.device()->write(handle, &desc, sizeof desc)) {
    r.device()->free(handle);
    handle = 0;
    return Error::cudaErrorMemoryAllocation;
  }
  std::lock_guard lock(gMutex);
  gObjects[handle] = (desc.flags & 1) != 0;
  return Error::cudaSuccess;
}

Error objectDestroy(uint64_t handle, bool surface) {
  std::lock_guard lock(gMutex);
  auto it = gObjects.find(handle);
  if (it == gObjects.end() || it->second != surface)
    return Error::cudaErrorInvalidValue;
  if (Device *d = Runtime::get().device())
    d->free(handle);
  gObjects.erase(it);
  return Error::cudaSuccess;
}

void forgetTextures() {
  std::lock_guard lock(gMutex);
  gArrays.clear();
  gObjects.clear();
}

bool isObject(uint64_t handle, bool surface) {
  std::lock_guard lock(gMutex);
  auto it = gObjects.find(handle);
  return it != gObjects.end() && it->second == surface;
}

} // namespace wf::rt

// The CUDA runtime API of arrays, texture objects and surface objects, over the common layer's
// arrays and descriptors (warpforge/runtime/texture.h, docs/runtime.md).
#include "texture_api.h"

#include "api_common.h"

#include "warpforge/runtime/texture.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>

using wf::rt::ArrayInfo;
using wf::rt::Error;
using wf::rt::Runtime;

namespace {

/// What each object was created from, for the cudaGet*Object*Desc calls.
struct ObjectRecord {
  cudaResourceDesc res{};
  cudaTextureDesc tex{};
};
std::map<uint64_t, ObjectRecord> gRecords;

using wf::cudart::addr;
using wf::cudart::done;
using wf::cudart::rt;

#define TEX_API(name)                                                                              \
  std::lock_guard<wf::rt::ContextLock> texLock(rt().contextLock());                                \
  const char *apiName = name

/// Whether `kind` allows the linear memory side of an array copy to be on the device.
Error linearSide(const void *p, cudaMemcpyKind kind, bool toArray, bool &device) {
  switch (kind) {
  case cudaMemcpyHostToDevice:
    if (!toArray)
      return Error::cudaErrorInvalidMemcpyDirection;
    device = false;
    return Error::cudaSuccess;
  case cudaMemcpyDeviceToHost:
    if (toArray)
      return Error::cudaErrorInvalidMemcpyDirection;
    device = false;
    return Error::cudaSuccess;
  case cudaMemcpyDeviceToDevice:
    device = true;
    return Error::cudaSuccess;
  case cudaMemcpyDefault:
    device = rt().isDevice(addr(p));
    return Error::cudaSuccess;
  default:
    return Error::cudaErrorInvalidMemcpyDirection;
  }
}

Error createArray(cudaArray_t *array, const cudaChannelFormatDesc *desc, size_t w, size_t h,
                  size_t d, unsigned flags, bool threeD) {
  if (!array || !desc || w == 0)
    return Error::cudaErrorInvalidValue;
  unsigned channels = wf::rt::formatChannels(desc->x, desc->y, desc->z, desc->w, int(desc->f));
  if (!channels)
    return Error::cudaErrorInvalidChannelDescriptor;
  const bool layered = (flags & cudaArrayLayered) != 0;
  if (flags & ~(cudaArrayLayered | cudaArraySurfaceLoadStore | cudaArrayTextureGather))
    return wf::rt::Runtime::get().notSupported("cudaMalloc3DArray with cube map or other flags");
  if (w > UINT32_MAX || h > UINT32_MAX || d > UINT32_MAX || (layered && (!threeD || d == 0)))
    return Error::cudaErrorInvalidValue;
  ArrayInfo shape;
  shape.width = uint32_t(w);
  shape.height = uint32_t(h ? h : 1);
  shape.depth = layered ? 1 : uint32_t(d ? d : 1);
  shape.layers = layered ? uint32_t(d) : 0;
  shape.kind = uint8_t(desc->f);
  shape.channels = uint8_t(channels);
  shape.bits = uint8_t(desc->x);
  shape.flags = flags;
  ArrayInfo *out = nullptr;
  Error e = wf::rt::arrayCreate(shape, out);
  *array = reinterpret_cast<cudaArray_t>(out);
  return e;
}

cudaChannelFormatDesc channelDesc(const ArrayInfo &a) {
  cudaChannelFormatDesc d{};
  int *bits[4] = {&d.x, &d.y, &d.z, &d.w};
  for (unsigned c = 0; c < a.channels; ++c)
    *bits[c] = a.bits;
  d.f = cudaChannelFormatKind(a.kind);
  return d;
}

/// The descriptor fields of a resource: where the texels are and their format.
Error resourceFields(const cudaResourceDesc &rd, wf::isa::dev::TexDesc &d, bool surface) {
  auto format = [&](const cudaChannelFormatDesc &c) {
    unsigned n = wf::rt::formatChannels(c.x, c.y, c.z, c.w, int(c.f));
    d.kind = uint8_t(c.f);
    d.channels = uint8_t(n);
    d.bits = uint8_t(c.x);
    return n != 0;
  };
  d.height = d.depth = 1;
  switch (rd.resType) {
  case cudaResourceTypeArray: {
    const ArrayInfo *a = wf::rt::findArray(rd.res.array.array);
    if (!a)
      return Error::cudaErrorInvalidResourceHandle;
    if (surface && !(a->flags & cudaArraySurfaceLoadStore))
      return Error::cudaErrorInvalidValue;
    d.base = a->base;
    d.width = a->width;
    d.height = a->height;
    d.depth = a->depth;
    d.layers = a->layers;
    d.pitch = a->pitch;
    d.slicePitch = a->slicePitch;
    d.kind = a->kind;
    d.channels = a->channels;
    d.bits = a->bits;
    return Error::cudaSuccess;
  }
  case cudaResourceTypeLinear: {
    if (surface || !rd.res.linear.devPtr || !format(rd.res.linear.desc))
      return Error::cudaErrorInvalidValue;
    const unsigned tb = unsigned(d.channels) * d.bits / 8;
    d.base = addr(rd.res.linear.devPtr);
    d.width = uint32_t(std::min<size_t>(rd.res.linear.sizeInBytes / tb, UINT32_MAX));
    d.pitch = uint32_t(std::min<size_t>(rd.res.linear.sizeInBytes, UINT32_MAX));
    return rt().isDevice(d.base, rd.res.linear.sizeInBytes) ? Error::cudaSuccess
                                                            : Error::cudaErrorInvalidValue;
  }
  case cudaResourceTypePitch2D: {
    if (surface || !rd.res.pitch2D.devPtr || !format(rd.res.pitch2D.desc))
      return Error::cudaErrorInvalidValue;
    const auto &p = rd.res.pitch2D;
    if (p.width == 0 || p.height == 0 || p.pitchInBytes % 32 != 0 ||
        p.pitchInBytes < p.width * (unsigned(d.channels) * d.bits / 8) || p.width > UINT32_MAX ||
        p.height > UINT32_MAX || p.pitchInBytes > UINT32_MAX)
      return Error::cudaErrorInvalidValue;
    d.base = addr(p.devPtr);
    d.width = uint32_t(p.width);
    d.height = uint32_t(p.height);
    d.pitch = uint32_t(p.pitchInBytes);
    return rt().isDevice(d.base, p.pitchInBytes * p.height) ? Error::cudaSuccess
                                                            : Error::cudaErrorInvalidValue;
  }
  default:
    return rt().notSupported("mipmapped texture resources");
  }
}

} // namespace

Error memcpy3DArray(const cudaMemcpy3DParms *p) {
  if (!p || (p->srcArray && p->dstArray))
    return p ? rt().notSupported("cudaMemcpy3D between two CUDA arrays")
             : Error::cudaErrorInvalidValue;
  const bool toArray = p->dstArray != nullptr;
  const ArrayInfo *a = wf::rt::findArray(toArray ? p->dstArray : p->srcArray);
  if (!a)
    return Error::cudaErrorInvalidResourceHandle;
  const cudaPitchedPtr &lin = toArray ? p->srcPtr : p->dstPtr;
  const cudaPos &apos = toArray ? p->dstPos : p->srcPos;
  const cudaPos &lpos = toArray ? p->srcPos : p->dstPos;
  if (!lin.ptr)
    return Error::cudaErrorInvalidValue;
  bool device = false;
  if (Error e = linearSide(lin.ptr, p->kind, toArray, device); e != Error::cudaSuccess)
    return e;
  // With an array, extent.width and positions' x count elements (texels), not bytes.
  const uint64_t tb = a->texelBytes();
  const uint64_t slicePitch = uint64_t(lin.pitch) * lin.ysize;
  const uint64_t other = addr(lin.ptr) + lpos.z * slicePitch + lpos.y * lin.pitch + lpos.x * tb;
  return wf::rt::arrayCopy(*a, apos.x * tb, apos.y, apos.z, other, device, lin.pitch, slicePitch,
                           p->extent.width * tb, std::max<size_t>(p->extent.height, 1),
                           std::max<size_t>(p->extent.depth, 1), toArray);
}

extern "C" {

cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f) {
  return cudaChannelFormatDesc{x, y, z, w, f};
}

cudaError_t cudaMallocArray(cudaArray_t *array, const cudaChannelFormatDesc *desc, size_t width,
                            size_t height, unsigned flags) {
  TEX_API("cudaMallocArray");
  REQUIRE_DEVICE();
  RETURN(createArray(array, desc, width, height, 0, flags, false));
}
cudaError_t cudaMalloc3DArray(cudaArray_t *array, const cudaChannelFormatDesc *desc,
                              cudaExtent extent, unsigned flags) {
  TEX_API("cudaMalloc3DArray");
  REQUIRE_DEVICE();
  RETURN(createArray(array, desc, extent.width, extent.height, extent.depth, flags, true));
}
cudaError_t cudaFreeArray(cudaArray_t array) {
  TEX_API("cudaFreeArray");
  if (!array)
    RETURN(Error::cudaSuccess);
  REQUIRE_DEVICE();
  RETURN(wf::rt::arrayDestroy(array));
}
cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc *desc, cudaExtent *extent, unsigned *flags,
                             cudaArray_t array) {
  TEX_API("cudaArrayGetInfo");
  const ArrayInfo *a = wf::rt::findArray(array);
  if (!a)
    RETURN(Error::cudaErrorInvalidResourceHandle);
  if (desc)
    *desc = channelDesc(*a);
  if (extent)
    *extent = cudaExtent{a->width, a->height == 1 && !(a->depth > 1 || a->layers) ? 0 : a->height,
                         a->layers ? a->layers : (a->depth > 1 ? a->depth : 0)};
  if (flags)
    *flags = a->flags;
  RETURN(Error::cudaSuccess);
}

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                size_t spitch, size_t width, size_t height, cudaMemcpyKind kind) {
  TEX_API("cudaMemcpy2DToArray");
  REQUIRE_DEVICE();
  const ArrayInfo *a = wf::rt::findArray(dst);
  if (!a)
    RETURN(Error::cudaErrorInvalidResourceHandle);
  if (!src || (height > 1 && spitch < width))
    RETURN(Error::cudaErrorInvalidValue);
  bool device = false;
  if (Error e = linearSide(src, kind, true, device); e != Error::cudaSuccess)
    RETURN(e);
  RETURN(wf::rt::arrayCopy(*a, wOffset, hOffset, 0, addr(src), device, spitch, 0, width, height, 1,
                           true));
}
cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                  size_t hOffset, size_t width, size_t height,
                                  cudaMemcpyKind kind) {
  TEX_API("cudaMemcpy2DFromArray");
  REQUIRE_DEVICE();
  const ArrayInfo *a = wf::rt::findArray(src);
  if (!a)
    RETURN(Error::cudaErrorInvalidResourceHandle);
  if (!dst || (height > 1 && dpitch < width))
    RETURN(Error::cudaErrorInvalidValue);
  bool device = false;
  if (Error e = linearSide(dst, kind, false, device); e != Error::cudaSuccess)
    RETURN(e);
  RETURN(wf::rt::arrayCopy(*a, wOffset, hOffset, 0, addr(dst), device, dpitch, 0, width, height, 1,
                           false));
}
cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                              size_t count, cudaMemcpyKind kind) {
  // Deprecated: `count` bytes starting at (wOffset, hOffset), row by row.
  const ArrayInfo *a = wf::rt::findArray(dst);
  if (!a)
    return done("cudaMemcpyToArray", Error::cudaErrorInvalidResourceHandle);
  const size_t row = size_t(a->width) * a->texelBytes();
  if (wOffset != 0 && wOffset + count > row)
    return done("cudaMemcpyToArray", Error::cudaErrorInvalidValue);
  if (count <= row - wOffset)
    return cudaMemcpy2DToArray(dst, wOffset, hOffset, src, count, count, 1, kind);
  if (count % row != 0)
    return done("cudaMemcpyToArray", Error::cudaErrorInvalidValue);
  return cudaMemcpy2DToArray(dst, 0, hOffset, src, row, row, count / row, kind);
}
cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                size_t count, cudaMemcpyKind kind) {
  const ArrayInfo *a = wf::rt::findArray(src);
  if (!a)
    return done("cudaMemcpyFromArray", Error::cudaErrorInvalidResourceHandle);
  const size_t row = size_t(a->width) * a->texelBytes();
  if (wOffset != 0 && wOffset + count > row)
    return done("cudaMemcpyFromArray", Error::cudaErrorInvalidValue);
  if (count <= row - wOffset)
    return cudaMemcpy2DFromArray(dst, count, src, wOffset, hOffset, count, 1, kind);
  if (count % row != 0)
    return done("cudaMemcpyFromArray", Error::cudaErrorInvalidValue);
  return cudaMemcpy2DFromArray(dst, row, src, 0, hOffset, row, count / row, kind);
}

cudaError_t cudaCreateTextureObject(cudaTextureObject_t *obj, const cudaResourceDesc *res,
                                    const cudaTextureDesc *tex,
                                    const struct cudaResourceViewDesc *view) {
  TEX_API("cudaCreateTextureObject");
  if (!obj || !res || !tex)
    RETURN(Error::cudaErrorInvalidValue);
  REQUIRE_DEVICE();
  if (view)
    RETURN(rt().notSupported("cudaCreateTextureObject with a resource view"));
  wf::isa::dev::TexDesc d{};
  if (Error e = resourceFields(*res, d, false); e != Error::cudaSuccess)
    RETURN(e);
  for (int k = 0; k < 3; ++k) {
    if (unsigned(tex->addressMode[k]) > 3)
      RETURN(Error::cudaErrorInvalidValue);
    // Linear memory has no addressing: fetches outside it read zero.
    d.address[k] = uint8_t(res->resType == cudaResourceTypeLinear ? cudaAddressModeBorder
                                                                  : tex->addressMode[k]);
  }
  if (unsigned(tex->filterMode) > 1 || unsigned(tex->readMode) > 1)
    RETURN(Error::cudaErrorInvalidValue);
  const bool floatResult = d.kind == cudaChannelFormatKindFloat ||
                           (tex->readMode == cudaReadModeNormalizedFloat && d.bits < 32);
  // CUDA filters linearly only what it returns as floats.
  if (tex->filterMode == cudaFilterModeLinear && !floatResult)
    RETURN(Error::cudaErrorInvalidValue);
  d.readMode = uint8_t(tex->readMode);
  d.filter = uint8_t(tex->filterMode);
  d.normalized = tex->normalizedCoords ? 1 : 0;
  std::memcpy(d.border, tex->borderColor, sizeof d.border);
  uint64_t handle = 0;
  if (Error e = wf::rt::objectCreate(d, handle); e != Error::cudaSuccess)
    RETURN(e);
  gRecords[handle] = ObjectRecord{*res, *tex};
  *obj = handle;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaDestroyTextureObject(cudaTextureObject_t obj) {
  TEX_API("cudaDestroyTextureObject");
  if (obj == 0)
    RETURN(Error::cudaSuccess);
  Error e = wf::rt::objectDestroy(obj, false);
  if (e == Error::cudaSuccess)
    gRecords.erase(obj);
  RETURN(e);
}
cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc *res, cudaTextureObject_t obj) {
  TEX_API("cudaGetTextureObjectResourceDesc");
  auto it = gRecords.find(obj);
  if (!res || it == gRecords.end() || !wf::rt::isObject(obj, false))
    RETURN(Error::cudaErrorInvalidValue);
  *res = it->second.res;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaGetTextureObjectTextureDesc(cudaTextureDesc *tex, cudaTextureObject_t obj) {
  TEX_API("cudaGetTextureObjectTextureDesc");
  auto it = gRecords.find(obj);
  if (!tex || it == gRecords.end() || !wf::rt::isObject(obj, false))
    RETURN(Error::cudaErrorInvalidValue);
  *tex = it->second.tex;
  RETURN(Error::cudaSuccess);
}

cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *obj, const cudaResourceDesc *res) {
  TEX_API("cudaCreateSurfaceObject");
  if (!obj || !res)
    RETURN(Error::cudaErrorInvalidValue);
  REQUIRE_DEVICE();
  if (res->resType != cudaResourceTypeArray)
    RETURN(Error::cudaErrorInvalidValue);
  wf::isa::dev::TexDesc d{};
  if (Error e = resourceFields(*res, d, true); e != Error::cudaSuccess)
    RETURN(e);
  d.flags = 1;
  uint64_t handle = 0;
  if (Error e = wf::rt::objectCreate(d, handle); e != Error::cudaSuccess)
    RETURN(e);
  gRecords[handle] = ObjectRecord{*res, {}};
  *obj = handle;
  RETURN(Error::cudaSuccess);
}
cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t obj) {
  TEX_API("cudaDestroySurfaceObject");
  if (obj == 0)
    RETURN(Error::cudaSuccess);
  Error e = wf::rt::objectDestroy(obj, true);
  if (e == Error::cudaSuccess)
    gRecords.erase(obj);
  RETURN(e);
}
cudaError_t cudaGetSurfaceObjectResourceDesc(cudaResourceDesc *res, cudaSurfaceObject_t obj) {
  TEX_API("cudaGetSurfaceObjectResourceDesc");
  auto it = gRecords.find(obj);
  if (!res || it == gRecords.end() || !wf::rt::isObject(obj, true))
    RETURN(Error::cudaErrorInvalidValue);
  *res = it->second.res;
  RETURN(Error::cudaSuccess);
}

} // extern "C"

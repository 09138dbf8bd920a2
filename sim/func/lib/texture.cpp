//===- texture.cpp - TEX, SULD and SUST ----------------------------------------===//
//
// Each lane reads its object's descriptor (isa::dev::TexDesc) from global memory, so lanes may
// use different objects. Texture texels go through hls::tex (addressing, filtering, formats);
// surfaces are plain byte-addressed arrays with CUDA's boundary modes.
//
//===----------------------------------------------------------------------===//

#include "texture.h"

#include "warpforge/hls/texture.h"
#include "warpforge/isa/device.gen.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

namespace wf::func {
namespace {

using isa::Opcode;
namespace fld = isa::fields;
namespace htex = hls::tex;

constexpr unsigned kLanes = isa::kWarpSize;

/// A descriptor read from device memory, or why it could not be.
bool readDesc(const TexMemory &mem, uint64_t handle, isa::dev::TexDesc &d) {
  const uint64_t off = handle - isa::kGlobalBase;
  if (handle < isa::kGlobalBase || handle % 8 != 0 || off >= mem.globalSize ||
      mem.globalSize - off < sizeof d)
    return false;
  std::memcpy(&d, mem.global + off, sizeof d);
  return true;
}

/// The texel format the descriptor names; false when TEX cannot read it.
bool formatOf(const isa::dev::TexDesc &d, htex::Format &f) {
  if (d.channels < 1 || d.channels > 4 || (d.bits != 8 && d.bits != 16 && d.bits != 32) ||
      d.kind > 2 || (d.kind == 2 && d.bits == 8))
    return false;
  f.kind = htex::ChannelKind(d.kind);
  f.channels = d.channels;
  f.bits = d.bits;
  f.normalizedRead = d.readMode == 1;
  return true;
}

/// Dimensions a TexDim filters over (0 for CUBE, not supported), and whether it is layered.
unsigned dimsOf(isa::TexDim dim, bool &layered) {
  layered = dim == isa::TexDim::A1D || dim == isa::TexDim::A2D;
  switch (dim) {
  case isa::TexDim::k1D:
  case isa::TexDim::A1D:
    return 1;
  case isa::TexDim::k2D:
  case isa::TexDim::A2D:
    return 2;
  case isa::TexDim::k3D:
    return 3;
  default:
    return 0;
  }
}

uint32_t clampLayer(int32_t layer, const isa::dev::TexDesc &d) {
  const int32_t top = d.layers ? int32_t(d.layers) - 1 : 0;
  return uint32_t(std::clamp(layer, 0, top));
}

bool badObject(TexFault &f, unsigned lane, uint64_t handle, isa::dev::FaultDetail what) {
  f.kind = FaultKind::OutOfBounds;
  f.lane = lane;
  f.address = handle;
  f.detail = what;
  return false;
}

bool runTex(const DecodedInst &in, uint32_t exec, uint32_t *regs, const TexMemory &mem,
            TexFault &fault) {
  const auto dim = isa::TexDim(isa::getField(in.word, fld::TEX::dim));
  const bool intCoords = isa::getField(in.word, fld::TEX::coord) != 0;
  const unsigned gatherComp = unsigned(isa::getField(in.word, fld::TEX::gather));
  bool layered = false;
  const unsigned dims = dimsOf(dim, layered);
  const uint32_t *a = regs + size_t(in.ra) * kLanes;
  const uint32_t *b = regs + size_t(in.rb) * kLanes;
  uint32_t *d = regs + size_t(in.rd) * kLanes;
  std::array<std::array<uint32_t, 4>, kLanes> out{};
  for (uint32_t m = exec; m; m &= m - 1) {
    const unsigned l = unsigned(std::countr_zero(m));
    const uint64_t handle = uint64_t(b[l]) | uint64_t(b[kLanes + l]) << 32;
    isa::dev::TexDesc desc;
    htex::Format format;
    if (!readDesc(mem, handle, desc) || (desc.flags & 1) || !formatOf(desc, format))
      return badObject(fault, l, handle, isa::dev::FaultDetail::InvalidTextureObject);
    if (dims == 0 || (gatherComp && dims != 2)) {
      fault.kind = FaultKind::IllegalInstruction;
      fault.lane = l;
      fault.detail = isa::dev::FaultDetail::TexUnsupported;
      return false;
    }
    uint32_t coord[3] = {0, 0, 0};
    for (unsigned k = 0; k < dims; ++k)
      coord[k] = a[(k + (layered ? 1 : 0)) * kLanes + l];
    const uint32_t layer = layered ? clampLayer(int32_t(a[l]), desc) : 0;
    const uint64_t base = desc.base + uint64_t(layer) * desc.slicePitch;
    const unsigned texelBytes = htex::texelBytes(format);
    bool outside = false;
    uint64_t badAddr = 0;
    auto fetch = [&](uint32_t x, uint32_t y, uint32_t z) {
      const uint64_t addr = base + uint64_t(z) * desc.slicePitch + uint64_t(y) * desc.pitch +
                            uint64_t(x) * texelBytes;
      const uint64_t off = addr - isa::kGlobalBase;
      if (addr < isa::kGlobalBase || off >= mem.globalSize || mem.globalSize - off < texelBytes) {
        outside = true;
        badAddr = addr;
        return std::array<uint32_t, 4>{0, 0, 0, 0};
      }
      return htex::texelChannels(mem.global + off, format);
    };
    htex::Sampler s;
    s.dims = dims;
    s.size = {desc.width, dims > 1 ? desc.height : 1, dims > 2 ? desc.depth : 1};
    for (unsigned k = 0; k < 3; ++k)
      s.mode[k] = htex::AddressMode(desc.address[k] & 3);
    s.normalized = desc.normalized != 0 && !intCoords;
    s.linear = desc.filter == 1 && !intCoords;
    s.format = format;
    if (htex::returnsFloat(format))
      s.border = {desc.border[0], desc.border[1], desc.border[2], desc.border[3]};
    if (intCoords) {
      // Integer texel coordinates (tex1Dfetch): no filtering; as f32 they index the same texel.
      for (unsigned k = 0; k < dims; ++k)
        coord[k] = hls::cvtIntToF32(coord[k], hls::IntType::S32, hls::RoundMode::RZ);
    }
    out[l] = gatherComp ? htex::gather(s, coord[0], coord[1], gatherComp - 1, fetch)
                        : htex::sample(s, coord, fetch);
    if (outside) {
      fault.kind = FaultKind::OutOfBounds;
      fault.lane = l;
      fault.address = badAddr;
      fault.detail = {isa::dev::FaultDetail::TexelOutside, handle};
      return false;
    }
  }
  for (unsigned k = 0; k < 4; ++k)
    for (uint32_t m = exec; m; m &= m - 1) {
      const unsigned l = unsigned(std::countr_zero(m));
      d[k * kLanes + l] = out[l][k];
    }
  return true;
}

/// Vector count and element bytes of a SurfSize.
void surfShape(isa::SurfSize s, unsigned &vec, unsigned &elem) {
  static constexpr uint8_t kVec[] = {1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4};
  static constexpr uint8_t kElem[] = {1, 2, 4, 8, 1, 2, 4, 8, 1, 2, 4};
  const unsigned i = std::min(unsigned(s), 10u);
  vec = kVec[i];
  elem = kElem[i];
}

bool runSurface(const DecodedInst &in, uint32_t exec, uint32_t *regs, const TexMemory &mem,
                TexFault &fault) {
  const bool store = Opcode(in.op) == Opcode::SUST;
  const auto dim = isa::TexDim(isa::getField(in.word, fld::SULD::dim));
  const auto size = isa::SurfSize(isa::getField(in.word, fld::SULD::size));
  const auto clamp = isa::SurfClamp(isa::getField(in.word, fld::SULD::clamp));
  unsigned vec = 1, elem = 4;
  surfShape(size, vec, elem);
  const unsigned bytes = vec * elem, wordsPerElem = elem == 8 ? 2 : 1;
  bool layered = false;
  const unsigned dims = dimsOf(dim, layered);
  const uint32_t *a = regs + size_t(in.ra) * kLanes;
  const uint32_t *b = regs + size_t(in.rb) * kLanes;
  uint32_t *data = regs + size_t(store ? in.rc : in.rd) * kLanes;
  // Resolve every lane first: a faulting instruction changes nothing.
  std::array<uint8_t *, kLanes> host{};
  for (uint32_t m = exec; m; m &= m - 1) {
    const unsigned l = unsigned(std::countr_zero(m));
    const uint64_t handle = uint64_t(b[l]) | uint64_t(b[kLanes + l]) << 32;
    isa::dev::TexDesc desc;
    if (!readDesc(mem, handle, desc) || !(desc.flags & 1) || desc.channels < 1 ||
        desc.channels > 4 || desc.bits % 8 != 0 || desc.bits == 0)
      return badObject(fault, l, handle, isa::dev::FaultDetail::InvalidSurfaceObject);
    if (dims == 0) {
      fault.kind = FaultKind::IllegalInstruction;
      fault.lane = l;
      fault.detail = isa::dev::FaultDetail::SurfaceCube;
      return false;
    }
    const unsigned off = layered ? 1 : 0;
    int64_t x = int32_t(a[off * kLanes + l]);
    int64_t y = dims > 1 ? int32_t(a[(off + 1) * kLanes + l]) : 0;
    int64_t z = dims > 2 ? int32_t(a[(off + 2) * kLanes + l]) : 0;
    int64_t layer = layered ? int32_t(a[l]) : 0;
    if (x % bytes != 0) {
      fault.kind = FaultKind::Misaligned;
      fault.lane = l;
      fault.address = uint64_t(x);
      fault.detail = isa::dev::FaultDetail::SurfaceMisaligned;
      fault.detail.size = bytes;
      return false;
    }
    const int64_t rowBytes = int64_t(desc.width) * (desc.channels * desc.bits / 8);
    const int64_t height = dims > 1 ? desc.height : 1, depth = dims > 2 ? desc.depth : 1;
    const int64_t layers = layered ? std::max<int64_t>(desc.layers, 1) : 1;
    const bool inside = x >= 0 && x + bytes <= rowBytes && y >= 0 && y < height && z >= 0 &&
                        z < depth && layer >= 0 && layer < layers;
    if (!inside) {
      if (clamp == isa::SurfClamp::TRAP) {
        fault.kind = FaultKind::OutOfBounds;
        fault.lane = l;
        fault.address = uint64_t(x);
        fault.detail = {isa::dev::FaultDetail::SurfaceRange, uint64_t(y), uint64_t(z),
                        uint64_t(layer), handle};
        fault.detail.write = store;
        return false;
      }
      if (clamp == isa::SurfClamp::ZERO)
        continue; // host[l] stays null: read zero, drop the store
      x = std::clamp<int64_t>(x, 0, std::max<int64_t>(rowBytes - bytes, 0)) / bytes * bytes;
      y = std::clamp<int64_t>(y, 0, height - 1);
      z = std::clamp<int64_t>(z, 0, depth - 1);
      layer = std::clamp<int64_t>(layer, 0, layers - 1);
    }
    const uint64_t addr =
        desc.base + uint64_t(layer + z) * desc.slicePitch + uint64_t(y) * desc.pitch + uint64_t(x);
    const uint64_t moff = addr - isa::kGlobalBase;
    if (addr < isa::kGlobalBase || moff >= mem.globalSize || mem.globalSize - moff < bytes) {
      fault.kind = FaultKind::OutOfBounds;
      fault.lane = l;
      fault.address = addr;
      fault.detail = isa::dev::FaultDetail::SurfaceOutside;
      return false;
    }
    host[l] = mem.global + moff;
  }
  for (uint32_t m = exec; m; m &= m - 1) {
    const unsigned l = unsigned(std::countr_zero(m));
    for (unsigned e = 0; e < vec; ++e)
      for (unsigned w = 0; w < wordsPerElem; ++w) {
        uint32_t &reg = data[(e * wordsPerElem + w) * kLanes + l];
        const unsigned n = std::min(elem, 4u);
        uint8_t *p = host[l] ? host[l] + e * elem + w * 4 : nullptr;
        if (store) {
          if (p)
            std::memcpy(p, &reg, n);
        } else {
          uint32_t v = 0;
          if (p)
            std::memcpy(&v, p, n); // narrower elements zero-extend
          reg = v;
        }
      }
  }
  return true;
}

} // namespace

bool executeTexture(const DecodedInst &in, uint32_t exec, uint32_t *regs, const TexMemory &mem,
                    TexFault &fault) {
  if (Opcode(in.op) == Opcode::TEX)
    return runTex(in, exec, regs, mem, fault);
  return runSurface(in, exec, regs, mem, fault);
}

} // namespace wf::func

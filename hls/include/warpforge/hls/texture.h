//===- warpforge/hls/texture.h - Texture addressing and filtering ---------===//
//
// Part of Warpforge. The texture filter of the CUDA C Programming Guide's texture fetching
// appendix, on raw bit patterns:
//   - texel formats and read modes: 8/16/32-bit signed and unsigned integers returned as
//     integers (element type) or as floats in [0, 1] / [-1, 1] (normalized float), 16- and
//     32-bit floats returned as f32;
//   - coordinates: normalized ones are scaled by the size in f32 (round to nearest);
//   - address modes wrap, clamp, mirror and border on integer texel indices (wrap and mirror
//     only with normalized coordinates, as in CUDA; unnormalized ones fall back to clamp);
//   - point sampling: texel floor(x);
//   - linear filtering: x_B = x - 0.5, i = floor(x_B), alpha = frac(x_B) in 9-bit fixed point
//     with 8 fraction bits. The coordinate is rounded to the nearest 1/256 of a texel first, so
//     i and alpha come from one fixed-point number. The weight of each tap is an integer
//     product of (256 - alpha) or alpha per axis (at most 2^24, so exact in f32), scaled by
//     2^-8 per axis, and the taps are summed with f32 FMAs in x-fastest order from +0.0;
//   - gather (tld4): one component of the four texels of the 2D bilinear footprint.
//
// Memory is not this unit's business: the sampler calls `fetch(x, y, z)` with in-range texel
// indices and gets the texel's four channels as TEX returns them (texelChannels).
//
//===----------------------------------------------------------------------===//

#ifndef WARPFORGE_HLS_TEXTURE_H
#define WARPFORGE_HLS_TEXTURE_H

#include "warpforge/hls/convert.h"
#include "warpforge/hls/fp32.h"

#include <array>
#include <cstdint>

namespace wf::hls::tex {

/// cudaTextureAddressMode's values.
enum class AddressMode : uint8_t { Wrap = 0, Clamp = 1, Mirror = 2, Border = 3 };
/// cudaChannelFormatKind's values.
enum class ChannelKind : uint8_t { Signed = 0, Unsigned = 1, Float = 2 };

/// Saturation bound of fixed-point coordinates: far outside any texture, small enough that
/// index arithmetic never overflows.
inline constexpr int64_t kCoordLimit = int64_t(1) << 40;

/// A texel format with the read mode applied to it.
struct Format {
  ChannelKind kind = ChannelKind::Float;
  uint8_t channels = 1;        ///< 1 to 4
  uint8_t bits = 32;           ///< bits per channel: 8, 16 or 32
  bool normalizedRead = false; ///< cudaReadModeNormalizedFloat (8- and 16-bit integers only)
};

constexpr unsigned texelBytes(const Format &f) { return unsigned(f.channels) * f.bits / 8; }

/// True when the format's integers are read as normalized floats.
constexpr bool readsNormalized(const Format &f) {
  return f.normalizedRead && f.kind != ChannelKind::Float && f.bits < 32;
}

/// True when TEX returns f32 values for the format (floats, and normalized integers).
constexpr bool returnsFloat(const Format &f) {
  return f.kind == ChannelKind::Float || readsNormalized(f);
}

/// One channel's raw bits (low `bits` bits of `raw`) as TEX returns them: f32 bits, or the
/// integer sign- or zero-extended to 32 bits.
constexpr uint32_t channelValue(uint32_t raw, const Format &f) {
  const uint32_t mask = f.bits >= 32 ? ~0u : (1u << f.bits) - 1;
  raw &= mask;
  if (f.kind == ChannelKind::Float)
    return f.bits == 16 ? cvtF16ToF32(uint16_t(raw)) : raw;
  const bool isSigned = f.kind == ChannelKind::Signed;
  const IntType t = f.bits == 8    ? (isSigned ? IntType::S8 : IntType::U8)
                    : f.bits == 16 ? (isSigned ? IntType::S16 : IntType::U16)
                                   : (isSigned ? IntType::S32 : IntType::U32);
  const uint32_t value = uint32_t(intTypeExtend(raw, t));
  if (!readsNormalized(f))
    return value;
  // Unsigned: v / (2^n - 1); signed: max(v / (2^(n-1) - 1), -1), correctly rounded.
  const uint32_t maxv = isSigned ? (mask >> 1) : mask;
  const uint32_t q =
      fdiv32(cvtIntToF32(value, isSigned ? IntType::S32 : IntType::U32, RoundMode::RN),
             cvtIntToF32(maxv, IntType::U32, RoundMode::RN), RoundMode::RN, false);
  return isSigned ? fmax32(q, 0xbf800000u, false, false) : q;
}

/// The four TEX result words of a texel whose channels are at `raw` (little-endian, packed):
/// channels beyond the format's read as 0, alpha as 1 (1.0f for float results).
constexpr std::array<uint32_t, 4> texelChannels(const uint8_t *raw, const Format &f) {
  std::array<uint32_t, 4> out{0, 0, 0, returnsFloat(f) ? 0x3f800000u : 1u};
  const unsigned bytes = f.bits / 8;
  for (unsigned c = 0; c < f.channels && c < 4; ++c) {
    uint32_t v = 0;
    for (unsigned b = 0; b < bytes; ++b)
      v |= uint32_t(raw[c * bytes + b]) << (8 * b);
    out[c] = channelValue(v, f);
  }
  return out;
}

/// floor(x * 2^fracBits) of an f32 (bits), saturated to +-kCoordLimit; NaN gives 0.
constexpr int64_t toFixed(uint32_t x, unsigned fracBits) {
  const uint32_t exp = (x >> 23) & 0xff, man = x & 0x7fffff;
  const bool neg = (x >> 31) != 0;
  if (exp == 0xff)
    return man ? 0 : (neg ? -kCoordLimit : kCoordLimit);
  const uint64_t m = exp ? (man | 0x800000u) : man;
  // value = m * 2^(e - 150), e = 1 for subnormals.
  const int shift = int(exp ? exp : 1) - 150 + int(fracBits);
  uint64_t mag;
  bool inexact = false;
  if (shift >= 0) {
    if (shift > 40)
      return neg ? -kCoordLimit : kCoordLimit;
    mag = m << shift;
  } else if (shift <= -64) {
    mag = 0;
    inexact = m != 0;
  } else {
    mag = m >> -shift;
    inexact = (m & ((uint64_t(1) << -shift) - 1)) != 0;
  }
  int64_t v = neg ? -int64_t(mag) - (inexact ? 1 : 0) : int64_t(mag); // floor
  return v < -kCoordLimit ? -kCoordLimit : v > kCoordLimit ? kCoordLimit : v;
}

/// A texel index mapped into [0, n) by the address mode; -1 for a border texel.
constexpr int64_t applyAddress(int64_t i, uint32_t n, AddressMode m, bool normalized) {
  const int64_t size = n ? n : 1;
  if (!normalized && (m == AddressMode::Wrap || m == AddressMode::Mirror))
    m = AddressMode::Clamp;
  switch (m) {
  case AddressMode::Wrap:
    return ((i % size) + size) % size;
  case AddressMode::Mirror: {
    const int64_t p = ((i % (2 * size)) + 2 * size) % (2 * size);
    return p < size ? p : 2 * size - 1 - p;
  }
  case AddressMode::Border:
    return (i < 0 || i >= size) ? -1 : i;
  default:
    return i < 0 ? 0 : i >= size ? size - 1 : i;
  }
}

/// The unnormalized texel-space coordinate: x * n in f32 when the coordinates are normalized.
constexpr uint32_t scaleCoord(uint32_t x, uint32_t n, bool normalized) {
  return normalized ? fmul32(x, cvtIntToF32(n, IntType::U32, RoundMode::RN), RoundMode::RN, false)
                    : x;
}

/// The two taps of linear filtering along one axis: texels i and i + 1 with weights
/// 256 - alpha and alpha.
struct LinearTap {
  int64_t i = 0;
  uint32_t alpha = 0; ///< 0..255 (the 9-bit weight format holds 256 too, for 256 - 0)
};

/// x_B = x - 0.5 rounded to the nearest 1/256 (ties up); i = floor(x_B), alpha = frac(x_B).
constexpr LinearTap linearTap(uint32_t x) {
  const int64_t twice = toFixed(x, 9);            // floor(x * 512)
  const int64_t fixed = ((twice + 1) >> 1) - 128; // round(x * 256) - 0.5 * 256
  return {fixed >> 8, uint32_t(fixed & 0xff)};
}

/// What TEX needs to know about a texture, besides where its texels are.
struct Sampler {
  unsigned dims = 1;                     ///< 1, 2 or 3 filtered dimensions
  std::array<uint32_t, 3> size{1, 1, 1}; ///< width, height, depth in texels
  std::array<AddressMode, 3> mode{AddressMode::Clamp, AddressMode::Clamp, AddressMode::Clamp};
  bool normalized = false; ///< normalized coordinates
  bool linear = false;     ///< cudaFilterModeLinear
  Format format;
  std::array<uint32_t, 4> border{0, 0, 0, 0}; ///< result words of a border texel
};

/// Filtered or point-sampled value at f32 coordinates `coord[0..dims)`. `fetch(x, y, z)` returns
/// the texelChannels of an in-range texel. Linear filtering applies only to float results (CUDA
/// allows it only there); integer results are point-sampled.
template <class Fetch>
constexpr std::array<uint32_t, 4> sample(const Sampler &s, const uint32_t *coord, Fetch &&fetch) {
  const unsigned dims = s.dims < 1 ? 1 : s.dims > 3 ? 3 : s.dims;
  std::array<uint32_t, 3> x{};
  for (unsigned d = 0; d < dims; ++d)
    x[d] = scaleCoord(coord[d], s.size[d], s.normalized);
  auto texel = [&](const std::array<int64_t, 3> &i) {
    std::array<int64_t, 3> m{0, 0, 0};
    for (unsigned d = 0; d < dims; ++d) {
      m[d] = applyAddress(i[d], s.size[d], s.mode[d], s.normalized);
      if (m[d] < 0)
        return s.border;
    }
    return fetch(uint32_t(m[0]), uint32_t(m[1]), uint32_t(m[2]));
  };
  if (!s.linear || !returnsFloat(s.format)) {
    std::array<int64_t, 3> i{0, 0, 0};
    for (unsigned d = 0; d < dims; ++d)
      i[d] = toFixed(x[d], 0);
    return texel(i);
  }
  std::array<LinearTap, 3> tap{};
  for (unsigned d = 0; d < dims; ++d)
    tap[d] = linearTap(x[d]);
  std::array<uint32_t, 4> acc{0, 0, 0, 0};
  const unsigned taps = 1u << dims;
  // 2^-8 per axis, as f32 bits.
  const uint32_t scale = uint32_t(127 - 8 * dims) << 23;
  for (unsigned t = 0; t < taps; ++t) {
    std::array<int64_t, 3> i{0, 0, 0};
    uint32_t w = 1;
    for (unsigned d = 0; d < dims; ++d) {
      const bool hi = (t >> d) & 1;
      i[d] = tap[d].i + (hi ? 1 : 0);
      w *= hi ? tap[d].alpha : 256 - tap[d].alpha;
    }
    if (w == 0)
      continue; // a zero weight never reads the texel (no NaN from 0 * inf)
    const uint32_t wf =
        fmul32(cvtIntToF32(w, IntType::U32, RoundMode::RN), scale, RoundMode::RN, false);
    const std::array<uint32_t, 4> v = texel(i);
    for (unsigned c = 0; c < 4; ++c)
      acc[c] = ffma32(wf, v[c], acc[c], RoundMode::RN, false);
  }
  return acc;
}

/// tex2Dgather: component `comp` of the texels (i, j+1), (i+1, j+1), (i+1, j), (i, j) of the
/// bilinear footprint at f32 coordinates (x, y) (guide 3.2.11.1.7).
template <class Fetch>
constexpr std::array<uint32_t, 4> gather(const Sampler &s, uint32_t x, uint32_t y, unsigned comp,
                                         Fetch &&fetch) {
  const LinearTap tx = linearTap(scaleCoord(x, s.size[0], s.normalized));
  const LinearTap ty = linearTap(scaleCoord(y, s.size[1], s.normalized));
  auto at = [&](int64_t i, int64_t j) {
    const int64_t mi = applyAddress(i, s.size[0], s.mode[0], s.normalized);
    const int64_t mj = applyAddress(j, s.size[1], s.mode[1], s.normalized);
    if (mi < 0 || mj < 0)
      return s.border[comp & 3];
    return fetch(uint32_t(mi), uint32_t(mj), 0u)[comp & 3];
  };
  return {at(tx.i, ty.i + 1), at(tx.i + 1, ty.i + 1), at(tx.i + 1, ty.i), at(tx.i, ty.i)};
}

} // namespace wf::hls::tex

#endif // WARPFORGE_HLS_TEXTURE_H

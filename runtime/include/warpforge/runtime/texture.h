// CUDA arrays and texture/surface objects in the common layer (docs/runtime.md, "Textures and
// surfaces"). An array is device memory with rows `pitch` bytes apart and 2D slices (3D depth or
// layers) `slicePitch` apart; an object is an isa::dev::TexDesc in device memory whose address
// is the cudaTextureObject_t / cudaSurfaceObject_t handle that TEX, SULD and SUST take.
#pragma once

#include "warpforge/isa/device.gen.h"
#include "warpforge/runtime/runtime.h"

#include <cstdint>

namespace wf::rt {

struct ArrayInfo {
  uint64_t base = 0;       ///< device address of texel (0, 0) of slice 0
  uint32_t width = 0;      ///< texels per row
  uint32_t height = 1;     ///< rows (1 for 1D)
  uint32_t depth = 1;      ///< 2D slices of a 3D array (1 otherwise)
  uint32_t layers = 0;     ///< layers of a layered array, 0 when not layered
  uint32_t pitch = 0;      ///< bytes between rows
  uint64_t slicePitch = 0; ///< bytes between slices or layers
  uint8_t kind = 0;        ///< cudaChannelFormatKind
  uint8_t channels = 1;
  uint8_t bits = 32;  ///< bits per channel
  unsigned flags = 0; ///< cudaArray* flags given at allocation

  unsigned texelBytes() const { return unsigned(channels) * bits / 8; }
  /// 2D slices stored: depth, or layers when layered.
  uint32_t slices() const { return layers ? layers : depth; }
};

/// Channels of a channel format with per-channel bit widths x, y, z, w: 1 to 4 channels of one
/// width (8, 16 or 32; 16 or 32 for floats) and a kind TEX can read. 0 when not such a format.
unsigned formatChannels(int x, int y, int z, int w, int kind);

/// Allocates an array of `shape` (width, height, depth, layers, format, flags set); fills in
/// base and pitches. `out` stays valid until arrayDestroy.
Error arrayCreate(const ArrayInfo &shape, ArrayInfo *&out);
Error arrayDestroy(const void *array);
/// The array of a cudaArray_t handle, or nullptr when it is not a live array.
ArrayInfo *findArray(const void *array);

/// Copies a box of `widthBytes` x `height` x `depth` between array `a` at byte x `xBytes`, row
/// `y`, slice `z` and linear memory at `other` (rows `pitch` apart, slices `slicePitch`), which
/// is a device address when `otherDevice`, else a host pointer. `toArray` gives the direction.
Error arrayCopy(const ArrayInfo &a, uint64_t xBytes, uint64_t y, uint64_t z, uint64_t other,
                bool otherDevice, uint64_t pitch, uint64_t slicePitch, uint64_t widthBytes,
                uint64_t height, uint64_t depth, bool toArray);

/// Writes descriptor `d` to device memory; `handle` is its address.
Error objectCreate(const isa::dev::TexDesc &d, uint64_t &handle);
/// Frees a texture (surface false) or surface object; invalid handles are an error.
Error objectDestroy(uint64_t handle, bool surface);
/// True when `handle` is a live object of that kind.
bool isObject(uint64_t handle, bool surface);
/// Forgets every array and object (cudaDeviceReset: their device memory is gone); their handles
/// become invalid.
void forgetTextures();

} // namespace wf::rt

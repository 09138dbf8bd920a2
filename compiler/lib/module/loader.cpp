// Places a module at device addresses: segment images with relocations applied. Device-agnostic:
// the caller copies the bytes into whatever device memory it drives.
#include "warpforge/isa/isa.gen.h"
#include "warpforge/module/wfx.h"

#include <algorithm>
#include <fmt/format.h>

namespace wf::wfx {
namespace {

/// Segments start on this boundary at least, so that each begins a fresh cache line.
constexpr uint64_t kPlacementAlign = 256;

uint64_t alignUp(uint64_t value, uint64_t align) { return (value + align - 1) / align * align; }

std::vector<uint8_t> fullImage(const DataSegment &data) {
  std::vector<uint8_t> bytes(data.image);
  bytes.resize(data.size(), 0);
  return bytes;
}

} // namespace

uint64_t SegmentBases::of(Segment segment) const {
  switch (segment) {
  case Segment::Code:
    return code;
  case Segment::Const:
    return constant;
  case Segment::Global:
    return global;
  }
  return 0;
}

Placement placeSegments(const Module &module, uint64_t base) {
  Placement placement;
  placement.bases.code = alignUp(base, kPlacementAlign);
  uint64_t next = placement.bases.code + module.code.size();
  placement.bases.constant =
      alignUp(next, std::max<uint64_t>(kPlacementAlign, module.constant.align));
  next = placement.bases.constant + module.constant.size();
  placement.bases.global = alignUp(next, std::max<uint64_t>(kPlacementAlign, module.global.align));
  placement.end = placement.bases.global + module.global.size();
  return placement;
}

uint64_t LoadedModule::symbolAddress(const Module &module, std::string_view name) const {
  const Symbol *symbol = module.findSymbol(name);
  return symbol ? bases.of(symbol->segment) + symbol->offset : 0;
}

Expected<LoadedModule> load(const Module &module, const SegmentBases &bases) {
  if (auto status = validate(module); !status)
    return status.error();

  struct Placed {
    Segment segment;
    uint64_t base, size, align;
  };
  const Placed placed[] = {
      {Segment::Code, bases.code, module.code.size(), isa::kInstBytes},
      {Segment::Const, bases.constant, module.constant.size(), module.constant.align},
      {Segment::Global, bases.global, module.global.size(), module.global.align},
  };
  for (const Placed &p : placed) {
    if (p.base % p.align != 0)
      return Error(fmt::format("{} base 0x{:x} is not aligned to {}", segmentName(p.segment),
                               p.base, p.align));
    if (p.base + p.size < p.base)
      return Error(
          fmt::format("{} at 0x{:x} wraps the address space", segmentName(p.segment), p.base));
  }
  for (const Placed &a : placed)
    for (const Placed &b : placed)
      if (&a < &b && a.size != 0 && b.size != 0 && a.base < b.base + b.size &&
          b.base < a.base + a.size)
        return Error(fmt::format("{} and {} overlap in device memory", segmentName(a.segment),
                                 segmentName(b.segment)));

  LoadedModule loaded;
  loaded.bases = bases;
  loaded.code = module.code;
  loaded.constant = fullImage(module.constant);
  loaded.global = fullImage(module.global);
  loaded.kernels = module.kernels;

  for (const Reloc &reloc : module.relocs) {
    uint64_t address = bases.of(reloc.target) + uint64_t(module.relocTargetOffset(reloc));
    uint32_t value = reloc.kind == RelocKind::AbsLo32 ? uint32_t(address) : uint32_t(address >> 32);
    std::vector<uint8_t> &image = reloc.segment == Segment::Code    ? loaded.code
                                  : reloc.segment == Segment::Const ? loaded.constant
                                                                    : loaded.global;
    // validate() guarantees offset + 4 is inside the segment.
    for (unsigned i = 0; i < 4; ++i)
      image[reloc.offset + i] = uint8_t(value >> (8 * i));
  }
  return loaded;
}

} // namespace wf::wfx

// Fault reports from fields. A device reports a fault as fields of its completion record (kind,
// detail code, block, thread, pc, address, values; isa/device.toml) and never as text; this is
// the one place that turns those fields into the line the runtime and the tools print. The
// emulator's own reports (warpforge emu, the lockstep checker) go through it too, so every route
// prints the same words.
#pragma once

#include "warpforge/isa/device.gen.h"
#include "warpforge/isa/isa.gen.h"

#include <cinttypes>
#include <cstdio>
#include <string>
#include <string_view>

namespace wf::isa::dev {

/// What a fault detail's `{space}` prints, indexed by isa.toml's Space.
inline const char *faultSpaceName(uint8_t space) {
  static constexpr const char *kNames[] = {"global", "shared", "local", "constant", "parameter"};
  return space < std::size(kNames) ? kNames[space] : "unknown";
}

inline const FaultDetailInfo *findFaultDetail(uint16_t detail) {
  for (const FaultDetailInfo &d : kFaultDetails)
    if (uint16_t(d.detail) == detail)
      return &d;
  return nullptr;
}

namespace detail {
inline std::string_view enumValue(EnumId id, uint64_t value) {
  const EnumInfo &e = kEnums[size_t(id)];
  return value < e.count ? e.values[size_t(value)] : std::string_view("?");
}

inline std::string number(uint64_t value, std::string_view format) {
  char buf[32];
  if (format == "x")
    std::snprintf(buf, sizeof buf, "%" PRIx64, value);
  else if (format == "02x")
    std::snprintf(buf, sizeof buf, "%02" PRIx64, value);
  else if (format == "d")
    std::snprintf(buf, sizeof buf, "%" PRId64, int64_t(value));
  else
    std::snprintf(buf, sizeof buf, "%" PRIu64, value);
  return buf;
}

/// One placeholder's text; false for a name device.toml does not define (wfgen rejects those).
inline bool placeholder(const Completion &c, std::string_view name, std::string_view format,
                        std::string &out) {
  const uint64_t v0 = c.faultValues[0], v1 = c.faultValues[1];
  const OpInfo *op = v0 < kOps.size() && kOps[size_t(v0)].valid ? &kOps[size_t(v0)] : nullptr;
  if (name == "address")
    out += number(c.faultAddress, format);
  else if (name == "code")
    out += number(c.faultCode, format);
  else if (name == "size")
    out += number(c.faultSize, format);
  else if (name.size() == 2 && name[0] == 'v' && name[1] >= '0' && name[1] <= '3')
    out += number(c.faultValues[name[1] - '0'], format);
  else if (name == "space")
    out += faultSpaceName(c.faultSpace);
  else if (name == "access")
    out += c.faultWrite ? "store to" : "load from";
  else if (name == "rw")
    out += c.faultWrite ? "store" : "load";
  else if (name == "op")
    out += op ? op->name : std::string_view("?");
  else if (name == "mod")
    out += op && v1 < op->numMods ? op->mods[size_t(v1)].name : std::string_view("?");
  else if (name == "operand")
    out += op && v1 < op->numOperands ? op->operands[size_t(v1)].name : std::string_view("?");
  else if (name == "atom_op")
    out += enumValue(EnumId::AtomOp, v0);
  else if (name == "atom_type")
    out += enumValue(EnumId::AtomType, v1);
  else
    return false;
  return true;
}
} // namespace detail

/// The detail's text with the record's fields filled in ("" for detail NONE).
inline std::string faultDetailText(const Completion &c) {
  const FaultDetailInfo *info = findFaultDetail(c.faultDetail);
  if (!info)
    return "fault detail " + std::to_string(c.faultDetail);
  std::string out;
  std::string_view text = info->text;
  while (!text.empty()) {
    size_t open = text.find('{');
    out += text.substr(0, open);
    if (open == std::string_view::npos)
      break;
    size_t close = text.find('}', open);
    if (close == std::string_view::npos) {
      out += text.substr(open);
      break;
    }
    std::string_view inner = text.substr(open + 1, close - open - 1);
    size_t colon = inner.find(':');
    std::string_view name = inner.substr(0, colon);
    std::string_view format = colon == std::string_view::npos ? "" : inner.substr(colon + 1);
    if (!detail::placeholder(c, name, format, out))
      out += text.substr(open, close - open + 1);
    text.remove_prefix(close + 1);
  }
  return out;
}

/// True for the kinds whose report names the faulting address.
inline bool faultIsMemoryAccess(uint32_t kind) {
  return kind == uint32_t(Fault::OutOfBounds) || kind == uint32_t(Fault::Misaligned) ||
         kind == uint32_t(Fault::ReadOnlyWrite);
}

/// "kernel 'k' block (1,0,0) thread (33,0,0) pc 0x40: out-of-bounds access at 0x...: ...".
inline std::string describeFault(std::string_view kernel, const Completion &c) {
  char head[160];
  std::snprintf(head, sizeof head, "' block (%u,%u,%u) thread (%u,%u,%u) pc 0x%x: ", c.faultBlockX,
                c.faultBlockY, c.faultBlockZ, c.faultThreadX, c.faultThreadY, c.faultThreadZ,
                c.faultPc);
  std::string s = "kernel '";
  s += kernel;
  s += head;
  s += c.faultKind < kFaultKinds ? kFaultText[c.faultKind] : "unknown fault";
  if (faultIsMemoryAccess(c.faultKind))
    s += " at 0x" + detail::number(c.faultAddress, "x");
  if (std::string text = faultDetailText(c); !text.empty())
    s += ": " + text;
  return s;
}

} // namespace wf::isa::dev

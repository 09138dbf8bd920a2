//===- launch.cpp - Faults as completion-record fields ----------------------===//

#include "warpforge/isa/launch.h"

#include "warpforge/isa/fault_report.h"

namespace wf::isa {

const char *faultKindName(FaultKind kind) {
  return uint32_t(kind) < dev::kFaultKinds ? dev::kFaultText[uint32_t(kind)]
                                                  : "unknown fault";
}

dev::Completion Fault::record() const {
  dev::Completion c{};
  c.faultKind = uint32_t(kind);
  c.faultPc = pc;
  c.faultCode = code;
  c.faultAddress = address;
  c.faultBlockX = block.x, c.faultBlockY = block.y, c.faultBlockZ = block.z;
  c.faultThreadX = thread.x, c.faultThreadY = thread.y, c.faultThreadZ = thread.z;
  c.faultDetail = uint16_t(detail.code);
  c.faultSpace = detail.space;
  c.faultWrite = detail.write;
  c.faultSize = detail.size;
  for (unsigned i = 0; i < 4; ++i)
    c.faultValues[i] = detail.values[i];
  return c;
}

std::string Fault::message() const { return dev::faultDetailText(record()); }

std::string Fault::describe() const { return dev::describeFault(kernel, record()); }

std::optional<Fault> Fault::fromRecord(const dev::Completion &c, std::string kernel) {
  if (c.faultKind == uint32_t(dev::Fault::None))
    return std::nullopt;
  Fault f;
  f.kind = FaultKind(c.faultKind);
  f.kernel = std::move(kernel);
  f.pc = c.faultPc;
  f.code = c.faultCode;
  f.address = c.faultAddress;
  f.block = {c.faultBlockX, c.faultBlockY, c.faultBlockZ};
  f.thread = {c.faultThreadX, c.faultThreadY, c.faultThreadZ};
  f.detail.code = dev::FaultDetail(c.faultDetail);
  f.detail.space = c.faultSpace;
  f.detail.write = c.faultWrite != 0;
  f.detail.size = c.faultSize;
  for (unsigned i = 0; i < 4; ++i)
    f.detail.values[i] = c.faultValues[i];
  return f;
}

} // namespace wf::isa

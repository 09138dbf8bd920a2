//===- timeline.cpp - Warp activity as a Chrome trace-event timeline ---------===//

#include "timeline.h"

#include "engine.h"

#include <fmt/format.h>

namespace wf::func {

namespace {

/// `text` as a JSON string literal.
std::string quote(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += {'\\', c};
    else if (static_cast<unsigned char>(c) < 0x20)
      out += fmt::format("\\u{:04x}", unsigned(static_cast<unsigned char>(c)));
    else
      out += c;
  }
  return out + "\"";
}

std::string blockName(const Block &b) {
  return fmt::format("block {} ({},{},{})", b.linear, b.idx.x, b.idx.y, b.idx.z);
}

} // namespace

TimelineRecorder::TimelineRecorder(std::string kernel, unsigned cores, unsigned warpSlots,
                                   uint64_t startCycle)
    : kernel_(std::move(kernel)), warpSlots_(warpSlots), startCycle_(startCycle),
      perCore_(cores), residentSince_(cores) {}

void TimelineRecorder::blockAdmitted(unsigned core, const Block &block, uint64_t cycle) {
  auto &since = residentSince_[core];
  for (uint32_t slot : block.slots) {
    if (slot >= since.size())
      since.resize(slot + 1, 0);
    since[slot] = cycle;
  }
}

void TimelineRecorder::blockRetired(unsigned core, const Block &block, uint64_t cycle) {
  std::string args = fmt::format("\"block\": {}, \"ctaid\": [{}, {}, {}], \"warps\": {}",
                                 block.linear, block.idx.x, block.idx.y, block.idx.z,
                                 block.numWarps);
  for (uint32_t slot : block.slots)
    perCore_[core].push_back(
        {'X', slot, residentSince_[core][slot], cycle, blockName(block), "block", args});
}

void TimelineRecorder::warpRan(unsigned core, const Warp &w, uint64_t begin, uint64_t end,
                               uint64_t insts, const char *why) {
  perCore_[core].push_back(
      {'X', w.slot, begin, end, fmt::format("warp {}", w.index), "warp",
       fmt::format("\"block\": {}, \"warp\": {}, \"warp_insts\": {}, \"stop\": {}",
                   w.block->linear, w.index, insts, quote(why))});
}

void TimelineRecorder::warpInstant(unsigned core, const Warp &w, uint64_t cycle, std::string name,
                                   std::string detail) {
  perCore_[core].push_back({'i', w.slot, cycle, cycle, std::move(name), "event",
                            fmt::format("\"block\": {}, \"warp\": {}, \"detail\": {}",
                                        w.block->linear, w.index, quote(detail))});
}

void TimelineRecorder::write(std::ostream &os) const {
  os << "{\"displayTimeUnit\": \"ns\",\n \"otherData\": {\"format\": \"warpforge-timeline\", "
        "\"version\": 1, \"source\": \"emulator\", \"kernel\": "
     << quote(kernel_)
     << ", \"time_unit\": \"core cycle of the functional emulator's schedule (1 us in the "
        "viewer = 1 cycle)\", \"start_cycle\": "
     << startCycle_ << "},\n \"traceEvents\": [";
  const char *sep = "\n  ";
  for (unsigned core = 0; core < perCore_.size(); ++core) {
    os << sep
       << fmt::format("{{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": {}, \"tid\": 0, "
                      "\"args\": {{\"name\": \"core {}\"}}}}",
                      core, core);
    sep = ",\n  ";
    os << sep
       << fmt::format("{{\"ph\": \"M\", \"name\": \"process_sort_index\", \"pid\": {}, \"tid\": "
                      "0, \"args\": {{\"sort_index\": {}}}}}",
                      core, core);
    // Name only the slots something ran on, so small launches on big configurations stay small.
    std::vector<bool> used(warpSlots_, false);
    for (const Event &e : perCore_[core]) {
      if (e.slot >= used.size())
        used.resize(e.slot + 1, false);
      used[e.slot] = true;
    }
    for (unsigned slot = 0; slot < used.size(); ++slot)
      if (used[slot])
        os << sep
           << fmt::format("{{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": {}, \"tid\": {}, "
                          "\"args\": {{\"name\": \"warp slot {}\"}}}}",
                          core, slot, slot);
    for (const Event &e : perCore_[core]) {
      os << sep
         << fmt::format("{{\"ph\": \"{}\", \"name\": {}, \"cat\": \"{}\", \"pid\": {}, \"tid\": {}, "
                        "\"ts\": {}",
                        e.phase, quote(e.name), e.category, core, e.slot, startCycle_ + e.begin);
      if (e.phase == 'X')
        os << ", \"dur\": " << e.end - e.begin;
      else
        os << ", \"s\": \"t\"";
      os << ", \"args\": {" << e.args << "}}";
    }
  }
  os << "\n ]}\n";
}

} // namespace wf::func

// Commit records: one binary record per committed warp instruction, in the layout that
// isa/device.toml declares (dev::CommitRecord and its CommitParts; framing in docs/commit-trace.md).
// The emulator writes them (its RunOptions::commit and Stepper), the RTL's commit port writes the
// same bytes, and the lockstep checker (lockstep.h) compares the two. The text commit trace is one
// printer of these records (formatCommit). Written once here, where every layer may read them.
#pragma once

#include "warpforge/isa/device.gen.h"

#include <cstdint>
#include <cstring>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace wf::isa {

/// Receives each record, header and parts, `bytes` long; the bytes are valid during the call.
using CommitSink = std::function<void(std::span<const uint8_t> record)>;

/// A part of a record: its header and payload.
class CommitPartView {
public:
  CommitPartView(const dev::CommitPart &header, const uint8_t *payload)
      : header_(header), payload_(payload) {}
  const dev::CommitPart &header() const { return header_; }
  dev::CommitPartKind kind() const { return dev::CommitPartKind(header_.kind); }
  /// The payload element of `lane`, or null when the part has none for it.
  const uint8_t *element(unsigned lane) const;
  /// Memory parts: the address of `lane`'s element, and its data (`size` bytes).
  uint64_t address(unsigned lane) const;
  const uint8_t *data(unsigned lane) const;
  /// REG: the u32 of `lane`; ATOM and SREG: the u64 of `lane`. The lane must have an element.
  uint64_t value(unsigned lane) const;
  /// Bytes of the payload, padded.
  uint32_t payloadBytes() const;

private:
  dev::CommitPart header_;
  const uint8_t *payload_;
};

/// A record in a byte buffer (not owned). Construct only over a record that validate() accepted
/// or that a writer of this library produced.
class CommitView {
public:
  explicit CommitView(std::span<const uint8_t> bytes);
  const dev::CommitRecord &header() const { return header_; }
  std::span<const uint8_t> bytes() const { return bytes_; }
  const std::vector<CommitPartView> &parts() const { return parts_; }
  /// The first part of `kind` (and `index` for REG, PRED and SREG when given), or null.
  const CommitPartView *find(dev::CommitPartKind kind, int index = -1) const;

  /// Why `bytes` is not a well-formed record (sizes and framing), or an empty string.
  static std::string validate(std::span<const uint8_t> bytes);

private:
  std::span<const uint8_t> bytes_;
  dev::CommitRecord header_;
  std::vector<CommitPartView> parts_;
};

/// A stream of records in one buffer (what a sink collects, or a file the RTL wrote).
class CommitStream {
public:
  void append(std::span<const uint8_t> record) {
    offsets_.push_back(data_.size());
    data_.insert(data_.end(), record.begin(), record.end());
  }
  /// Splits a buffer of back-to-back records; an empty string or why the buffer is malformed.
  std::string assign(std::vector<uint8_t> bytes);
  size_t size() const { return offsets_.size(); }
  std::span<const uint8_t> operator[](size_t i) const {
    uint32_t n;
    std::memcpy(&n, data_.data() + offsets_[i], 4);
    return {data_.data() + offsets_[i], n};
  }
  /// A record's bytes, writable (tests that plant a difference).
  uint8_t *mutableRecord(size_t i) { return data_.data() + offsets_[i]; }
  const std::vector<uint8_t> &data() const { return data_; }
  CommitSink sink() {
    return [this](std::span<const uint8_t> r) { append(r); };
  }

private:
  std::vector<uint8_t> data_;
  std::vector<size_t> offsets_;
};

/// Which of the reference's values the emulator takes instead of computing them.
struct Injection {
  bool specialRegs = true; ///< CLOCK, CLOCK64, GLOBALTIMER, SMID, WARPID
  bool loads = true;       ///< the bytes every load read
  bool atomics = true;     ///< atomics' old values (their stores follow from them)
};

/// One line of the text commit trace (docs/commit-trace.md), without the newline.
std::string formatCommit(std::span<const uint8_t> record);
/// Appends the line and a newline to `out` (the trace writer's fast path).
void appendCommitLine(std::string &out, std::span<const uint8_t> record);

} // namespace wf::isa

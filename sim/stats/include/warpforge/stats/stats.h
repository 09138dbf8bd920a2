// Statistics registry, in the style of gem5's and SST's: every model registers named statistics
// in a tree of groups (`gpu.core0.warp_insts`), each with a unit and a description; the tree is
// dumped as JSON (docs/emulator.md, "Statistics"). Kinds: scalars, vectors, distributions
// (histograms with fixed buckets) and formulas over other statistics. No dependencies beyond the
// standard library, so every model (emulator, cycle model, RTL harness) can use it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace wf::stats {

/// Units, as gem5 writes them. A unit is a plain string; these are the common ones.
namespace unit {
inline constexpr std::string_view kCount = "count";
inline constexpr std::string_view kCycle = "cycle";
inline constexpr std::string_view kInstruction = "instruction";
inline constexpr std::string_view kByte = "byte";
inline constexpr std::string_view kSecond = "second";
inline constexpr std::string_view kRatio = "ratio";
inline constexpr std::string_view kInstPerCycle = "instruction/cycle";
} // namespace unit

class Group;

/// What every statistic has: a name (unique in its group), a unit and a description.
class Stat {
public:
  Stat(const Group &parent, std::string name, std::string_view unit, std::string description);
  virtual ~Stat() = default;
  Stat(const Stat &) = delete;
  Stat &operator=(const Stat &) = delete;

  const std::string &name() const { return name_; }
  /// The dotted path from the root group: "gpu.core0.warp_insts".
  std::string path() const;
  const std::string &unit() const { return unit_; }
  const std::string &description() const { return description_; }
  virtual const char *kind() const = 0;
  virtual void reset() = 0;
  /// Writes the kind-specific members of the statistic's JSON object ("value": ...).
  virtual void writeValue(std::ostream &os) const = 0;

private:
  const Group &parent_;
  std::string name_, unit_, description_;
};

/// A counter or an accumulated quantity.
class Scalar final : public Stat {
public:
  using Stat::Stat;
  Scalar &operator+=(double v) {
    value_ += v;
    return *this;
  }
  Scalar &operator++() {
    value_ += 1;
    return *this;
  }
  Scalar &operator=(double v) {
    value_ = v;
    return *this;
  }
  double value() const { return value_; }
  const char *kind() const override { return "scalar"; }
  void reset() override { value_ = 0; }
  void writeValue(std::ostream &os) const override;

private:
  double value_ = 0;
};

/// A fixed number of counters, each optionally named (per lane, per opcode, per pc...).
class Vector final : public Stat {
public:
  Vector(const Group &parent, std::string name, std::string_view unit, std::string description,
         size_t size, std::vector<std::string> subnames = {});
  double &operator[](size_t i) { return values_[i]; }
  double operator[](size_t i) const { return values_[i]; }
  size_t size() const { return values_.size(); }
  double total() const;
  /// Grows (or shrinks) the vector, keeping the values it has.
  void resize(size_t n);
  void setSubnames(std::vector<std::string> subnames) { subnames_ = std::move(subnames); }
  const char *kind() const override { return "vector"; }
  void reset() override;
  void writeValue(std::ostream &os) const override;

private:
  std::vector<double> values_;
  std::vector<std::string> subnames_;
};

/// Samples counted into buckets [min + k*bucketSize, min + (k+1)*bucketSize); samples below `min`
/// or at or above the last bucket's end are underflows and overflows. Keeps count, sum, minimum and
/// maximum of every sample.
class Distribution final : public Stat {
public:
  Distribution(const Group &parent, std::string name, std::string_view unit,
               std::string description, double min, double bucketSize, size_t buckets);
  void sample(double v, uint64_t times = 1);
  uint64_t samples() const { return samples_; }
  double mean() const { return samples_ ? sum_ / double(samples_) : 0; }
  const std::vector<uint64_t> &buckets() const { return buckets_; }
  const char *kind() const override { return "distribution"; }
  void reset() override;
  void writeValue(std::ostream &os) const override;

private:
  double min_, bucketSize_;
  std::vector<uint64_t> buckets_;
  uint64_t underflow_ = 0, overflow_ = 0, samples_ = 0;
  double sum_ = 0, minSample_ = 0, maxSample_ = 0;
};

/// A value computed from other statistics when it is read (IPC = insts / cycles).
class Formula final : public Stat {
public:
  Formula(const Group &parent, std::string name, std::string_view unit, std::string description,
          std::function<double()> compute)
      : Stat(parent, std::move(name), unit, std::move(description)), compute_(std::move(compute)) {}
  double value() const { return compute_(); }
  const char *kind() const override { return "formula"; }
  void reset() override {}
  void writeValue(std::ostream &os) const override;

private:
  std::function<double()> compute_;
};

/// A node of the tree: statistics and child groups, in the order they were added. Groups own what
/// they create; references stay valid for the group's lifetime.
class Group {
public:
  /// A root group.
  explicit Group(std::string name) : name_(std::move(name)) {}
  Group(const Group &) = delete;
  Group &operator=(const Group &) = delete;

  const std::string &name() const { return name_; }
  std::string path() const;

  /// The child group `name`, created on first use.
  Group &group(const std::string &name);
  Scalar &scalar(std::string name, std::string_view unit, std::string description);
  Vector &vector(std::string name, std::string_view unit, std::string description, size_t size,
                 std::vector<std::string> subnames = {});
  Distribution &distribution(std::string name, std::string_view unit, std::string description,
                             double min, double bucketSize, size_t buckets);
  Formula &formula(std::string name, std::string_view unit, std::string description,
                   std::function<double()> compute);

  /// The statistic at a dotted path below this group ("core0.warp_insts"), or null.
  const Stat *find(std::string_view path) const;
  const std::vector<std::unique_ptr<Stat>> &stats() const { return stats_; }
  const std::vector<std::unique_ptr<Group>> &groups() const { return groups_; }
  /// Resets every statistic below this group.
  void reset();

private:
  Group(const Group *parent, std::string name) : parent_(parent), name_(std::move(name)) {}
  template <class T, class... Args> T &add(Args &&...args);
  void checkName(const std::string &name) const;

  const Group *parent_ = nullptr;
  std::string name_;
  std::vector<std::unique_ptr<Stat>> stats_;
  std::vector<std::unique_ptr<Group>> groups_;
};

/// Writes every statistic below `root` as one JSON object:
///   {"format": "warpforge-stats", "version": 1,
///    "stats": {"gpu.warp_insts": {"kind": "scalar", "unit": "instruction",
///                                  "description": "...", "value": 42}, ...}}
void writeJson(const Group &root, std::ostream &os);
/// writeJson into a file; an empty string or why the file could not be written.
std::string writeJsonFile(const Group &root, const std::string &path);

} // namespace wf::stats

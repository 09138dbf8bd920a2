// Named statistics of the cycle model's platform components (gem5/SST style: each statistic has a
// hierarchical name, a unit and a description, and is read when the statistics are dumped).
//
// This is a small local holder until the shared registry in sim/stats lands; a component only
// calls StatGroup::add, so moving onto the registry changes this file, not the components.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace wf::cycle {

struct Statistic {
  std::string name;  ///< hierarchical: "dram.row_hits"
  std::string unit;  ///< "count", "byte", "GB/s", "ns", ...
  std::string description;
  std::function<double()> value; ///< evaluated at dump time
};

class StatGroup {
public:
  explicit StatGroup(std::string prefix) : prefix_(std::move(prefix)) {}

  void add(const std::string &name, std::string unit, std::string description,
           std::function<double()> value) {
    stats_.push_back({prefix_ + "." + name, std::move(unit), std::move(description),
                      std::move(value)});
  }

  const std::string &prefix() const { return prefix_; }
  const std::vector<Statistic> &statistics() const { return stats_; }
  /// The statistic named `fullName`, or nullptr.
  const Statistic *find(const std::string &fullName) const;
  /// One JSON object: {"name": {"value": v, "unit": "...", "description": "..."}, ...}.
  void writeJson(std::ostream &out) const;

private:
  std::string prefix_;
  std::vector<Statistic> stats_;
};

} // namespace wf::cycle

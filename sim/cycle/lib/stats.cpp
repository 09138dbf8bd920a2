#include "warpforge/cycle/stats.h"

#include <cmath>
#include <iomanip>

namespace wf::cycle {

const Statistic *StatGroup::find(const std::string &fullName) const {
  for (const Statistic &s : stats_)
    if (s.name == fullName)
      return &s;
  return nullptr;
}

static void writeJsonString(std::ostream &out, const std::string &s) {
  out << '"';
  for (char c : s) {
    if (c == '"' || c == '\\')
      out << '\\';
    out << c;
  }
  out << '"';
}

void StatGroup::writeJson(std::ostream &out) const {
  out << "{";
  const char *sep = "\n";
  for (const Statistic &s : stats_) {
    double v = s.value();
    out << sep << "  ";
    writeJsonString(out, s.name);
    out << ": {\"value\": ";
    if (std::isfinite(v))
      out << std::setprecision(17) << v;
    else
      out << "null";
    out << ", \"unit\": ";
    writeJsonString(out, s.unit);
    out << ", \"description\": ";
    writeJsonString(out, s.description);
    out << "}";
    sep = ",\n";
  }
  out << "\n}\n";
}

} // namespace wf::cycle

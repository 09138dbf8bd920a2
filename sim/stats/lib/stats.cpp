//===- stats.cpp - Statistics registry and its JSON dump ----------------------------===//

#include "warpforge/stats/stats.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace wf::stats {

namespace {

void writeString(std::ostream &os, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  os << '"';
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    switch (c) {
    case '"':
      os << "\\\"";
      break;
    case '\\':
      os << "\\\\";
      break;
    case '\n':
      os << "\\n";
      break;
    case '\t':
      os << "\\t";
      break;
    default:
      if (c < 0x20)
        os << "\\u00" << kHex[c >> 4] << kHex[c & 15];
      else
        os << ch;
    }
  }
  os << '"';
}

/// A number as JSON: integers exactly (up to 2^53), others in the shortest round-trip form; NaN and
/// infinities, which JSON lacks, as null.
void writeNumber(std::ostream &os, double v) {
  if (!std::isfinite(v)) {
    os << "null";
    return;
  }
  char buf[64];
  auto [end, ec] = std::abs(v) < 9007199254740992.0 && v == std::floor(v)
                       ? std::to_chars(buf, buf + sizeof buf, int64_t(v))
                       : std::to_chars(buf, buf + sizeof buf, v);
  os.write(buf, end - buf);
}

void writeNumbers(std::ostream &os, const auto &values) {
  os << '[';
  bool first = true;
  for (auto v : values) {
    if (!first)
      os << ", ";
    first = false;
    writeNumber(os, double(v));
  }
  os << ']';
}

void writeGroup(const Group &g, std::ostream &os, bool &first) {
  for (const auto &s : g.stats()) {
    os << (first ? "\n    " : ",\n    ");
    first = false;
    writeString(os, s->path());
    os << ": {\"kind\": ";
    writeString(os, s->kind());
    os << ", \"unit\": ";
    writeString(os, s->unit());
    os << ", \"description\": ";
    writeString(os, s->description());
    os << ", ";
    s->writeValue(os);
    os << '}';
  }
  for (const auto &child : g.groups())
    writeGroup(*child, os, first);
}

} // namespace

// --- statistics ----------------------------------------------------------------------------------

Stat::Stat(const Group &parent, std::string name, std::string_view unit, std::string description)
    : parent_(parent), name_(std::move(name)), unit_(unit), description_(std::move(description)) {}

std::string Stat::path() const { return parent_.path() + "." + name_; }

void Scalar::writeValue(std::ostream &os) const {
  os << "\"value\": ";
  writeNumber(os, value_);
}

Vector::Vector(const Group &parent, std::string name, std::string_view unit,
               std::string description, size_t size, std::vector<std::string> subnames)
    : Stat(parent, std::move(name), unit, std::move(description)), values_(size, 0.0),
      subnames_(std::move(subnames)) {}

double Vector::total() const { return std::accumulate(values_.begin(), values_.end(), 0.0); }

void Vector::resize(size_t n) { values_.resize(n, 0.0); }

void Vector::reset() { std::fill(values_.begin(), values_.end(), 0.0); }

void Vector::writeValue(std::ostream &os) const {
  os << "\"value\": ";
  writeNumbers(os, values_);
  os << ", \"total\": ";
  writeNumber(os, total());
  if (subnames_.empty())
    return;
  os << ", \"subnames\": [";
  for (size_t i = 0; i < subnames_.size(); ++i) {
    if (i)
      os << ", ";
    writeString(os, subnames_[i]);
  }
  os << ']';
}

Distribution::Distribution(const Group &parent, std::string name, std::string_view unit,
                           std::string description, double min, double bucketSize, size_t buckets)
    : Stat(parent, std::move(name), unit, std::move(description)), min_(min),
      bucketSize_(bucketSize), buckets_(buckets, 0) {
  if (!(bucketSize > 0) || buckets == 0)
    throw std::invalid_argument("distribution '" + this->name() +
                                "' needs a positive bucket size and at least one bucket");
}

void Distribution::sample(double v, uint64_t times) {
  if (times == 0)
    return;
  if (samples_ == 0) {
    minSample_ = maxSample_ = v;
  } else {
    minSample_ = std::min(minSample_, v);
    maxSample_ = std::max(maxSample_, v);
  }
  samples_ += times;
  sum_ += v * double(times);
  if (v < min_) {
    underflow_ += times;
    return;
  }
  double k = std::floor((v - min_) / bucketSize_);
  if (k >= double(buckets_.size()))
    overflow_ += times;
  else
    buckets_[size_t(k)] += times;
}

void Distribution::reset() {
  std::fill(buckets_.begin(), buckets_.end(), 0);
  underflow_ = overflow_ = samples_ = 0;
  sum_ = minSample_ = maxSample_ = 0;
}

void Distribution::writeValue(std::ostream &os) const {
  os << "\"samples\": ";
  writeNumber(os, double(samples_));
  os << ", \"sum\": ";
  writeNumber(os, sum_);
  os << ", \"mean\": ";
  writeNumber(os, mean());
  os << ", \"min\": ";
  writeNumber(os, minSample_);
  os << ", \"max\": ";
  writeNumber(os, maxSample_);
  os << ", \"bucket_min\": ";
  writeNumber(os, min_);
  os << ", \"bucket_size\": ";
  writeNumber(os, bucketSize_);
  os << ", \"buckets\": ";
  writeNumbers(os, buckets_);
  os << ", \"underflow\": ";
  writeNumber(os, double(underflow_));
  os << ", \"overflow\": ";
  writeNumber(os, double(overflow_));
}

void Formula::writeValue(std::ostream &os) const {
  os << "\"value\": ";
  writeNumber(os, value());
}

// --- groups --------------------------------------------------------------------------------------

std::string Group::path() const { return parent_ ? parent_->path() + "." + name_ : name_; }

void Group::checkName(const std::string &name) const {
  bool valid = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
  if (!valid)
    throw std::invalid_argument("statistic name '" + name + "' in '" + path() +
                                "': use letters, digits and '_'");
  for (const auto &s : stats_)
    if (s->name() == name)
      throw std::invalid_argument("statistic '" + path() + "." + name + "' registered twice");
  for (const auto &g : groups_)
    if (g->name() == name)
      throw std::invalid_argument("'" + path() + "." + name + "' is already a group");
}

Group &Group::group(const std::string &name) {
  for (const auto &g : groups_)
    if (g->name() == name)
      return *g;
  checkName(name);
  groups_.push_back(std::unique_ptr<Group>(new Group(this, name)));
  return *groups_.back();
}

template <class T, class... Args> T &Group::add(Args &&...args) {
  auto stat = std::make_unique<T>(*this, std::forward<Args>(args)...);
  checkName(stat->name());
  T &ref = *stat;
  stats_.push_back(std::move(stat));
  return ref;
}

Scalar &Group::scalar(std::string name, std::string_view unit, std::string description) {
  return add<Scalar>(std::move(name), unit, std::move(description));
}

Vector &Group::vector(std::string name, std::string_view unit, std::string description, size_t size,
                      std::vector<std::string> subnames) {
  return add<Vector>(std::move(name), unit, std::move(description), size, std::move(subnames));
}

Distribution &Group::distribution(std::string name, std::string_view unit, std::string description,
                                  double min, double bucketSize, size_t buckets) {
  return add<Distribution>(std::move(name), unit, std::move(description), min, bucketSize, buckets);
}

Formula &Group::formula(std::string name, std::string_view unit, std::string description,
                        std::function<double()> compute) {
  return add<Formula>(std::move(name), unit, std::move(description), std::move(compute));
}

const Stat *Group::find(std::string_view path) const {
  size_t dot = path.find('.');
  if (dot == std::string_view::npos) {
    for (const auto &s : stats_)
      if (s->name() == path)
        return s.get();
    return nullptr;
  }
  std::string_view head = path.substr(0, dot);
  for (const auto &g : groups_)
    if (g->name() == head)
      return g->find(path.substr(dot + 1));
  return nullptr;
}

void Group::reset() {
  for (auto &s : stats_)
    s->reset();
  for (auto &g : groups_)
    g->reset();
}

// --- JSON ----------------------------------------------------------------------------------------

void writeJson(const Group &root, std::ostream &os) {
  os << "{\n  \"format\": \"warpforge-stats\",\n  \"version\": 1,\n  \"stats\": {";
  bool first = true;
  writeGroup(root, os, first);
  os << (first ? "}\n}\n" : "\n  }\n}\n");
}

std::string writeJsonFile(const Group &root, const std::string &path) {
  std::ofstream os(path);
  if (!os)
    return "cannot open '" + path + "' for writing";
  writeJson(root, os);
  os.flush();
  if (!os)
    return "cannot write '" + path + "'";
  return {};
}

} // namespace wf::stats

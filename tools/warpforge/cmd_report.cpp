// warpforge report: one self-contained HTML page (no network, no external files) from a statistics
// JSON file (`warpforge emu --stats=FILE`) and optionally a timeline (`--timeline=FILE`). The
// inputs are checked here and embedded as JSON; a script on the page draws the SVG charts
// (docs/emulator.md, "Report").
#include "cli.h"
#include "cmd_report_page.h"

#include <fmt/format.h>
#include <fstream>
#include <iostream>

namespace wf::driver {
namespace {

/// Checks that `text` is one JSON value and remembers the top-level object's string members, so
/// that a wrong file is refused with a message rather than drawn as an empty page.
class JsonChecker {
public:
  explicit JsonChecker(std::string_view text) : text_(text) {}

  /// Empty when valid, else what is wrong and where.
  std::string check() {
    skipSpace();
    if (!value(0))
      return error_;
    skipSpace();
    if (pos_ != text_.size())
      return fail("text after the JSON value");
    return {};
  }
  bool hasTopMember(std::string_view name) const {
    for (const auto &m : topMembers_)
      if (m == name)
        return true;
    return false;
  }
  std::string topString(std::string_view name) const {
    for (const auto &[key, value] : topStrings_)
      if (key == name)
        return value;
    return {};
  }

private:
  static constexpr unsigned kMaxDepth = 64;

  std::string fail(std::string_view what) {
    size_t line = 1;
    for (size_t i = 0; i < pos_ && i < text_.size(); ++i)
      line += text_[i] == '\n';
    error_ = fmt::format("{} at line {}", what, line);
    return error_;
  }
  void skipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' ||
                                   text_[pos_] == '\r' || text_[pos_] == '\t'))
      ++pos_;
  }
  bool literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word)
      return fail("invalid JSON value"), false;
    pos_ += word.size();
    return true;
  }
  bool string(std::string *out) {
    ++pos_; // the opening quote
    while (pos_ < text_.size()) {
      char c = text_[pos_++];
      if (c == '"')
        return true;
      if (static_cast<unsigned char>(c) < 0x20)
        return fail("control character in a string"), false;
      if (c == '\\') {
        if (pos_ >= text_.size())
          break;
        char e = text_[pos_++];
        if (e == 'u') {
          for (int i = 0; i < 4; ++i, ++pos_)
            if (pos_ >= text_.size() || !std::isxdigit(static_cast<unsigned char>(text_[pos_])))
              return fail("bad \\u escape"), false;
          continue;
        }
        if (std::string_view("\"\\/bfnrt").find(e) == std::string_view::npos)
          return fail("bad escape in a string"), false;
        if (out)
          *out += e;
        continue;
      }
      if (out)
        *out += c;
    }
    return fail("unterminated string"), false;
  }
  bool number() {
    size_t start = pos_;
    if (text_[pos_] == '-')
      ++pos_;
    auto digits = [&] {
      size_t from = pos_;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_])))
        ++pos_;
      return pos_ > from;
    };
    if (!digits())
      return fail("invalid number"), false;
    if (pos_ < text_.size() && text_[pos_] == '.' && (++pos_, !digits()))
      return fail("invalid number"), false;
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-'))
        ++pos_;
      if (!digits())
        return fail("invalid number"), false;
    }
    return pos_ > start;
  }
  bool value(unsigned depth) {
    if (depth > kMaxDepth)
      return fail("nesting too deep"), false;
    if (pos_ >= text_.size())
      return fail("unexpected end of file"), false;
    char c = text_[pos_];
    if (c == '{' || c == '[') {
      char close = c == '{' ? '}' : ']';
      ++pos_;
      skipSpace();
      if (pos_ < text_.size() && text_[pos_] == close)
        return ++pos_, true;
      while (true) {
        skipSpace();
        std::string key;
        if (c == '{') {
          if (pos_ >= text_.size() || text_[pos_] != '"')
            return fail("expected a member name"), false;
          if (!string(&key))
            return false;
          skipSpace();
          if (pos_ >= text_.size() || text_[pos_] != ':')
            return fail("expected ':'"), false;
          ++pos_;
          skipSpace();
          if (depth == 0)
            topMembers_.push_back(key);
        }
        if (depth == 0 && c == '{' && pos_ < text_.size() && text_[pos_] == '"') {
          std::string member;
          if (!string(&member))
            return false;
          topStrings_.emplace_back(key, member);
        } else if (!value(depth + 1)) {
          return false;
        }
        skipSpace();
        if (pos_ < text_.size() && text_[pos_] == ',') {
          ++pos_;
          continue;
        }
        if (pos_ < text_.size() && text_[pos_] == close)
          return ++pos_, true;
        return fail(fmt::format("expected ',' or '{}'", close)), false;
      }
    }
    if (c == '"')
      return string(nullptr);
    if (c == 't')
      return literal("true");
    if (c == 'f')
      return literal("false");
    if (c == 'n')
      return literal("null");
    if (c == '-' || std::isdigit(static_cast<unsigned char>(c)))
      return number();
    return fail("invalid JSON value"), false;
  }

  std::string_view text_;
  size_t pos_ = 0;
  std::string error_;
  std::vector<std::string> topMembers_;
  std::vector<std::pair<std::string, std::string>> topStrings_;
};

/// JSON text made safe inside <script>: "</" (only possible inside strings) becomes "<\/".
std::string embeddable(const std::string &json) {
  std::string out;
  out.reserve(json.size());
  for (size_t i = 0; i < json.size(); ++i) {
    out += json[i];
    if (json[i] == '<' && i + 1 < json.size() && json[i + 1] == '/')
      out += '\\';
  }
  return out;
}

std::string htmlEscape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    default: out += c;
    }
  }
  return out;
}

/// Reads and checks one input; throws UsageError when it cannot be used.
std::string readJson(const std::string &path, const char *what, const char *formatName,
                     const char *requiredMember) {
  auto text = readTextFile(path);
  if (!text)
    throw UsageError(fmt::format("cannot read the {} '{}'", what, path));
  JsonChecker checker(*text);
  if (std::string why = checker.check(); !why.empty())
    throw UsageError(fmt::format("{} '{}' is not valid JSON: {}", what, path, why));
  if (!checker.hasTopMember(requiredMember) ||
      (formatName && checker.topString("format") != formatName))
    throw UsageError(fmt::format("'{}' is not a Warpforge {} (expected an object with \"{}\"{})",
                                 path, what, requiredMember,
                                 formatName ? fmt::format(" and \"format\": \"{}\"", formatName)
                                            : std::string()));
  return std::move(*text);
}

} // namespace

int runReport(const std::vector<std::string> &args) {
  CommandLine line;
  line.usage = "usage: warpforge report STATS.json [--timeline=TIMELINE.json] -o OUT.html\n\n"
               "Renders the statistics of a run (warpforge emu --stats=FILE) and, optionally,\n"
               "its warp timeline (warpforge emu --timeline=FILE) as one self-contained HTML page\n"
               "with SVG charts: per-core instructions and cycles, IPC and SIMD efficiency,\n"
               "histograms of the distributions, the warp timeline, and a table of every\n"
               "statistic. The page loads nothing from the network.";
  line.options.add_options()("timeline,t", po::value<std::string>()->value_name("FILE"),
                             "a timeline of the same run to draw as warp lanes")(
      "output,o", po::value<std::string>()->value_name("OUT.html"), "the page to write (required)")(
      "title", po::value<std::string>()->value_name("TEXT"), "the page's title");
  po::variables_map values;
  if (!parseCommandLine(args, line, values))
    return kExitOk;
  if (!values.count("input"))
    throw UsageError("no statistics file");
  if (!values.count("output"))
    throw UsageError("-o OUT.html is required");
  std::string statsPath = values["input"].as<std::string>();
  std::string stats = readJson(statsPath, "statistics file", "warpforge-stats", "stats");
  std::string timeline = "null";
  if (values.count("timeline"))
    timeline = readJson(values["timeline"].as<std::string>(), "timeline", nullptr, "traceEvents");
  std::string title = values.count("title") ? values["title"].as<std::string>()
                                            : fmt::format("Warpforge report: {}", statsPath);

  std::string outPath = values["output"].as<std::string>();
  std::ofstream out(outPath, std::ios::binary);
  if (!out)
    throw UsageError(fmt::format("cannot write '{}'", outPath));
  out << reportPage(htmlEscape(title), embeddable(stats), embeddable(timeline));
  out.close();
  if (!out) {
    std::cerr << fmt::format("warpforge report: writing '{}' failed\n", outPath);
    return kExitFailure;
  }
  return kExitOk;
}

} // namespace wf::driver

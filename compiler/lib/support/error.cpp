#include "warpforge/support/error.h"

#include <fmt/format.h>

namespace wf {

std::string Error::str() const {
  std::string out;
  if (!loc.file.empty())
    out += loc.file + ":";
  if (loc.line != 0) {
    out += fmt::format("{}:", loc.line);
    if (loc.column != 0)
      out += fmt::format("{}:", loc.column);
  }
  if (!out.empty())
    out += " ";
  out += "error: " + message;
  if (!snippet.empty())
    out += fmt::format(" ('{}')", snippet);
  return out;
}

std::string str(const ErrorList &errors) {
  std::string out;
  for (const Error &error : errors)
    out += error.str() + "\n";
  return out;
}

} // namespace wf

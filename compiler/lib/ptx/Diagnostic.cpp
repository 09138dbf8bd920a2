//===- Diagnostic.cpp - Errors as values ----------------------------------===//
//
// Part of Warpforge.
//
//===----------------------------------------------------------------------===//

#include "warpforge/ptx/Diagnostic.h"

namespace wf::ptx {

std::string Diagnostic::str() const {
  std::string S = file.empty() ? std::string("<input>") : file;
  if (loc.isValid()) {
    S += ':';
    S += std::to_string(loc.line);
    S += ':';
    S += std::to_string(loc.col);
  }
  S += ": error: ";
  S += message;
  if (!text.empty()) {
    S += ": '";
    S += text;
    S += '\'';
  }
  return S;
}

std::string Error::str() const {
  std::string S;
  for (const Diagnostic &D : Diags) {
    if (!S.empty())
      S += '\n';
    S += D.str();
  }
  return S;
}

} // namespace wf::ptx

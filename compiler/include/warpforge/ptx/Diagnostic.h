//===- Diagnostic.h - Errors as values with source locations ----*- C++ -*-===//
//
// Part of Warpforge. The PTX front end never throws and never aborts on bad
// input: every problem becomes a Diagnostic (file, line, column, message and
// the offending text), and fallible functions return Expected<T>.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cassert>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace wf::ptx {

/// A position in the PTX text: 1-based line and column (columns count bytes).
/// Line 0 means "no position".
struct SourceLoc {
  uint32_t line = 0;
  uint32_t col = 0;

  bool isValid() const { return line != 0; }
  friend bool operator==(const SourceLoc &, const SourceLoc &) = default;
};

/// One problem found in the input.
struct Diagnostic {
  std::string file;    ///< name of the PTX input ("<input>" when unnamed)
  SourceLoc loc;       ///< where it is
  std::string message; ///< what is wrong, one line, no trailing period
  std::string text;    ///< the offending text (a token or a line fragment), may be empty

  /// "file:line:col: error: message: 'text'", the format compilers use.
  std::string str() const;
};

/// A failed operation: one or more diagnostics, the first being the primary one.
class Error {
public:
  Error() = default;
  explicit Error(Diagnostic d) { Diags.push_back(std::move(d)); }
  explicit Error(std::vector<Diagnostic> ds) : Diags(std::move(ds)) {}

  const Diagnostic &primary() const {
    assert(!Diags.empty() && "an Error holds at least one diagnostic");
    return Diags.front();
  }
  const std::vector<Diagnostic> &diagnostics() const { return Diags; }
  /// All diagnostics, one per line.
  std::string str() const;

private:
  std::vector<Diagnostic> Diags;
};

/// Either a T or an Error. Check with operator bool before dereferencing.
template <typename T> class [[nodiscard]] Expected {
public:
  Expected(T Value) : Storage(std::in_place_index<0>, std::move(Value)) {}
  Expected(Error E) : Storage(std::in_place_index<1>, std::move(E)) {}

  explicit operator bool() const { return Storage.index() == 0; }

  T &operator*() {
    assert(*this && "dereferencing an Expected that holds an error");
    return std::get<0>(Storage);
  }
  const T &operator*() const {
    assert(*this && "dereferencing an Expected that holds an error");
    return std::get<0>(Storage);
  }
  T *operator->() { return &**this; }
  const T *operator->() const { return &**this; }

  const Error &error() const {
    assert(!*this && "no error in a successful Expected");
    return std::get<1>(Storage);
  }

  /// Moves the value out.
  T take() { return std::move(**this); }

private:
  std::variant<T, Error> Storage;
};

} // namespace wf::ptx

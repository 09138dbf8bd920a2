// Errors as values: an Error carries a message and where it happened; Expected<T> holds a value or
// an Error. Library APIs of the compiler layer return these instead of throwing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace wf {

/// Where an error happened: a file, and a 1-based line and column when the input is text.
/// Binary inputs leave line and column 0 and name the byte offset in the message.
struct SourceLoc {
  std::string file;
  uint32_t line = 0;
  uint32_t column = 0;
};

struct Error {
  std::string message;
  SourceLoc loc;
  std::string snippet; ///< the offending text, when there is one

  Error() = default;
  explicit Error(std::string message, SourceLoc loc = {}, std::string snippet = {})
      : message(std::move(message)), loc(std::move(loc)), snippet(std::move(snippet)) {}

  /// "file:line:col: error: message ('snippet')", leaving out the parts that are empty.
  std::string str() const;
};

/// Several errors, in the order they were found (an assembler reports every bad line).
using ErrorList = std::vector<Error>;

/// Renders every error of `errors` on its own line.
std::string str(const ErrorList &errors);

/// A value of type T, or an error of type E.
template <typename T, typename E = Error> class [[nodiscard]] Expected {
public:
  Expected(T value) : storage_(std::in_place_index<0>, std::move(value)) {}
  Expected(E error) : storage_(std::in_place_index<1>, std::move(error)) {}

  bool hasValue() const { return storage_.index() == 0; }
  explicit operator bool() const { return hasValue(); }

  T &value() & { return std::get<0>(storage_); }
  const T &value() const & { return std::get<0>(storage_); }
  T &&value() && { return std::get<0>(std::move(storage_)); }
  T &operator*() & { return value(); }
  const T &operator*() const & { return value(); }
  T *operator->() { return &value(); }
  const T *operator->() const { return &value(); }

  const E &error() const & { return std::get<1>(storage_); }
  E &&error() && { return std::get<1>(std::move(storage_)); }

private:
  std::variant<T, E> storage_;
};

/// Success, or an error of type E.
template <typename E = Error> class [[nodiscard]] Status {
public:
  Status() = default;
  Status(E error) : error_(std::move(error)) {}

  bool ok() const { return !error_.has_value(); }
  explicit operator bool() const { return ok(); }
  const E &error() const & { return *error_; }
  E &&error() && { return std::move(*error_); }

private:
  std::optional<E> error_;
};

} // namespace wf

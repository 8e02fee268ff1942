/*
 * edgecl's error values: ExecuTorch's error codes plus a message naming the file, field or call.
 *
 * ExecuTorch's runtime::Result<T> carries a code only; the runner has to say *which* file or
 * field was wrong (in its `error` event and result.json), so edgecl's calls return these instead.
 * No exceptions cross any edgecl API: a failure is always an Error value.
 */
#pragma once

#include <executorch/runtime/core/error.h>

#include <string>
#include <utility>
#include <variant>

namespace edgecl {

using ErrorCode = ::executorch::runtime::Error;

/// The outcome of a call that returns nothing: Ok, or a code and a message.
class Error final {
 public:
  /// Ok.
  Error() = default;
  /// A failure (code must not be Ok) described by message.
  Error(ErrorCode code, std::string message) : code_(code), message_(std::move(message)) {}

  bool ok() const { return code_ == ErrorCode::Ok; }
  ErrorCode code() const { return code_; }
  /// "<what failed>: <why>", e.g. "models/mlp/manifest.json: signature.inputs[1].dtype: ...".
  const std::string& message() const { return message_; }
  /// The same error with `context: ` in front of its message.
  Error with_context(const std::string& context) const { return Error(code_, context + ": " + message_); }

 private:
  ErrorCode code_ = ErrorCode::Ok;
  std::string message_;
};

/// A value of type T, or the Error that prevented it.
template <typename T>
class Result final {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit, like runtime::Result
  Result(Error error) : value_(std::move(error)) {}  // NOLINT

  bool ok() const { return std::holds_alternative<T>(value_); }
  /// The error; Ok when the result holds a value.
  Error error() const { return ok() ? Error() : std::get<Error>(value_); }
  T& get() { return std::get<T>(value_); }
  const T& get() const { return std::get<T>(value_); }
  T* operator->() { return &get(); }
  T& operator*() { return get(); }

 private:
  std::variant<T, Error> value_;
};

/// An ExecuTorch call's code as an edgecl Error, with what was being done.
inline Error from_et(ErrorCode code, const std::string& what) {
  if (code == ErrorCode::Ok) {
    return Error();
  }
  return Error(code, what + ": ExecuTorch error " + ::executorch::runtime::to_string(code));
}

}  // namespace edgecl

/// Return the Error of `expr` (an edgecl::Error) from the enclosing function if it is not Ok.
#define EDGECL_RETURN_IF_ERROR(expr)        \
  do {                                      \
    ::edgecl::Error edgecl_err_ = (expr);   \
    if (!edgecl_err_.ok()) {                \
      return edgecl_err_;                   \
    }                                       \
  } while (0)

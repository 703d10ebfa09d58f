#pragma once
// Gyre's exceptions. Every message has one shape,
//   gyre::<function>: <violated condition> (<offending value>)
// so that a user reading it knows where it came from, what was expected and what was given.

#include <iomanip>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace gyre {

namespace detail {

inline std::string describe_value(const std::string& value) { return value; }
inline std::string describe_value(const char* value) { return value; }

template <class V, class = std::enable_if_t<std::is_arithmetic_v<V>>>
std::string describe_value(V value) {
  std::ostringstream out;
  if constexpr (std::is_floating_point_v<V>) {
    // Nine significant digits show a residual like 1.00000012 without pretending to more.
    out << std::setprecision(9) << value;
  } else {
    out << value;
  }
  return out.str();
}

}  // namespace detail

/// The base of every exception Gyre throws; what() reads "gyre::<function>: <condition> (<value>)".
class Error : public std::runtime_error {
 public:
  template <class V>
  Error(const std::string& function, const std::string& condition, const V& value)
      : std::runtime_error("gyre::" + function + ": " + condition + " (" + detail::describe_value(value) + ")"),
        function_(function),
        condition_(condition),
        value_(detail::describe_value(value)) {}

  /// The Gyre function that rejected its input, e.g. "Sphere::log".
  [[nodiscard]] const std::string& function() const noexcept { return function_; }
  /// The condition the input violated, e.g. "point is not a unit vector".
  [[nodiscard]] const std::string& condition() const noexcept { return condition_; }
  /// The offending value as printed in the message.
  [[nodiscard]] const std::string& value() const noexcept { return value_; }

 private:
  std::string function_;
  std::string condition_;
  std::string value_;
};

/// Input outside the domain of a function: off the manifold, not a tangent vector, NaN/Inf,
/// a cut-locus point where the result is undefined, a group element outside the identity component.
class DomainError : public Error {
 public:
  using Error::Error;
};

/// Sizes that do not fit: a 2×3 matrix where an SO(3) point is expected, batches of unequal length.
class ShapeError : public Error {
 public:
  using Error::Error;
};

/// An iteration (Fréchet mean, fixed point) that did not reach its tolerance in its budget.
class ConvergenceError : public Error {
 public:
  using Error::Error;
};

/// A file or stream that cannot be read or written, or whose contents are malformed.
class IoError : public Error {
 public:
  using Error::Error;
};

}  // namespace gyre

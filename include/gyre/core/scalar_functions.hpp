#pragma once
// Scalar functions with removable singularities at 0, written so they keep full relative
// accuracy there: the building blocks of exponentials, logarithms and transports.

#include <cmath>
#include <limits>

#include <boost/math/special_functions/sinc.hpp>

namespace gyre {

/// sin(θ)/θ, equal to 1 at θ = 0.
template <class T>
[[nodiscard]] T sinc(T theta) {
  return boost::math::sinc_pi(theta);
}

/// (1 − cos θ)/θ², written as ½·sinc²(θ/2): the direct form loses about log₁₀(1/θ²) digits
/// near θ = 0.
template <class T>
[[nodiscard]] T one_minus_cos_over_sq(T theta) {
  const T s = boost::math::sinc_pi(theta / 2);
  return s * s / 2;
}

/// (θ − sin θ)/θ³. The direct form loses about log₁₀(6/θ²) digits to cancellation, so below a
/// threshold the Taylor series 1/6 − θ²/5! + θ⁴/7! − θ⁶/9! + θ⁸/11! is used; its truncation error
/// (θ¹⁰/13!, relative) is below ε there: threshold 0.2 in double, 1 in float.
template <class T>
[[nodiscard]] T theta_minus_sin_over_cube(T theta) {
  const T t2 = theta * theta;
  const T threshold = std::numeric_limits<T>::digits > 30 ? T(0.2) : T(1);
  if (std::abs(theta) < threshold) {
    return T(1) / 6 - t2 / 120 * (1 - t2 / 42 * (1 - t2 / 72 * (1 - t2 / 110)));
  }
  return (theta - std::sin(theta)) / (t2 * theta);
}

/// θ/sin θ for |θ| < π, equal to 1 at 0; the inverse of sinc without dividing by zero.
template <class T>
[[nodiscard]] T theta_over_sin(T theta) {
  return T(1) / boost::math::sinc_pi(theta);
}

}  // namespace gyre

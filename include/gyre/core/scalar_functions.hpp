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

/// (θ·cos θ − sin θ)/θ³ = sinc′(θ)/θ, equal to −1/3 at 0: the derivative of sinc through
/// dθ = ⟨v, dv⟩/θ. Below 0.1 the series −1/3 + θ²/30 − θ⁴/840 + θ⁶/45360 (truncation θ⁸/3991680,
/// relative, below ε there); above, the direct form cancels at most 3 digits.
template <class T>
[[nodiscard]] T sinc_derivative_over_theta(T theta) {
  const T t2 = theta * theta;
  if (std::abs(theta) < T(0.1)) return T(-1) / 3 + t2 * (T(1) / 30 + t2 * (T(-1) / 840 + t2 / 45360));
  return (theta * std::cos(theta) - std::sin(theta)) / (t2 * theta);
}

/// (θ·sin θ − 2(1 − cos θ))/θ⁴ = f′(θ)/θ for f = (1 − cos θ)/θ², equal to −1/12 at 0. Below 0.1
/// the series −1/12 + θ²/180 − θ⁴/6720 + θ⁶/453600; above, the direct form cancels at most 3 digits.
template <class T>
[[nodiscard]] T one_minus_cos_over_sq_derivative_over_theta(T theta) {
  const T t2 = theta * theta;
  if (std::abs(theta) < T(0.1)) return T(-1) / 12 + t2 * (T(1) / 180 + t2 * (T(-1) / 6720 + t2 / 453600));
  return (theta * std::sin(theta) - 2 * (1 - std::cos(theta))) / (t2 * t2);
}

/// θ/sin θ for |θ| < π, equal to 1 at 0; the inverse of sinc without dividing by zero.
template <class T>
[[nodiscard]] T theta_over_sin(T theta) {
  return T(1) / boost::math::sinc_pi(theta);
}

}  // namespace gyre

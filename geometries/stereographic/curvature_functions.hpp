#pragma once
// The curvature-dependent trigonometry of the κ-stereographic model, written as functions of
// u = κ·x² so that κ = 0 is an ordinary point and κ → 0 is continuous to the last digit:
//   tan_κ(x)    = x · tan_ratio(κx²),     tan_ratio(u)    = tan(√u)/√u,  tanh(√−u)/√−u,  1 at u = 0
//   arctan_κ(y) = y · arctan_ratio(κy²),  arctan_ratio(u) = atan(√u)/√u, atanh(√−u)/√−u, 1 at u = 0
// (Bachmann, Bécigneul & Ganea 2020). Near u = 0 the ratios are evaluated by their Taylor series,
// whose truncation error is below ε there; elsewhere by the closed forms, which are then exact to
// a few ulps. Working with ratios also removes every division by ‖v‖ from exp and log.

#include <cmath>
#include <limits>

namespace gyre::curvature {

namespace detail {
// |u| below which the five Taylor terms below are exact to ε: the first omitted terms are
// 1382u⁵/155925 ≈ 0.009u⁵ (tan) and u⁵/11 (atan), i.e. < 1e-16 for |u| < 1e-3 (double) and
// < 3e-9 for |u| < 3e-2 (float).
template <class T>
constexpr T series_threshold() {
  return std::numeric_limits<T>::digits > 30 ? T(1e-3) : T(3e-2);
}
}  // namespace detail

/// tan(√u)/√u for u > 0, tanh(√−u)/√−u for u < 0, 1 at 0. For u ≥ π²/4, tan has passed its pole:
/// callers on the sphere keep √u < π/2.
template <class T>
[[nodiscard]] T tan_ratio(T u) {
  if (std::abs(u) < detail::series_threshold<T>()) {
    // tan: 1 + u/3 + 2u²/15 + 17u³/315 + 62u⁴/2835 (tanh: the same series in u < 0).
    return 1 + u * (T(1) / 3 + u * (T(2) / 15 + u * (T(17) / 315 + u * T(62) / 2835)));
  }
  if (u > 0) {
    const T r = std::sqrt(u);
    return std::tan(r) / r;
  }
  const T r = std::sqrt(-u);
  return std::tanh(r) / r;
}

/// atan(√u)/√u for u > 0, atanh(√−u)/√−u for −1 < u < 0, 1 at 0.
template <class T>
[[nodiscard]] T arctan_ratio(T u) {
  if (std::abs(u) < detail::series_threshold<T>()) {
    return 1 - u * (T(1) / 3 - u * (T(1) / 5 - u * (T(1) / 7 - u * T(1) / 9)));
  }
  if (u > 0) {
    const T r = std::sqrt(u);
    return std::atan(r) / r;
  }
  const T r = std::sqrt(-u);
  return std::atanh(r) / r;
}

/// d tan_ratio/du: (√u·sec²√u − tan √u)/(2u^{3/2}) for u > 0, (tanh r − r·sech²r)/(2r³) with
/// r = √−u for u < 0; below the series threshold the derivative of tan_ratio's series,
/// 1/3 + 4u/15 + 51u²/315 + 248u³/2835 + 6910u⁴/155925 (omitted: 0.022u⁵).
template <class T>
[[nodiscard]] T tan_ratio_derivative(T u) {
  if (std::abs(u) < detail::series_threshold<T>()) {
    return T(1) / 3 + u * (T(4) / 15 + u * (T(51) / 315 + u * (T(248) / 2835 + u * T(6910) / 155925)));
  }
  if (u > 0) {
    const T r = std::sqrt(u);
    const T t = std::tan(r);
    return (r * (1 + t * t) - t) / (2 * u * r);
  }
  const T r = std::sqrt(-u);
  const T t = std::tanh(r);
  return (t - r * (1 - t * t)) / (-2 * u * r);
}

/// d arctan_ratio/du: (√u/(1 + u) − atan √u)/(2u^{3/2}) for u > 0, (atanh r − r/(1 − r²))/(2r³)
/// with r = √−u for −1 < u < 0; below the series threshold −1/3 + 2u/5 − 3u²/7 + 4u³/9 − 5u⁴/11
/// (omitted: 6u⁵/13).
template <class T>
[[nodiscard]] T arctan_ratio_derivative(T u) {
  if (std::abs(u) < detail::series_threshold<T>()) {
    return T(-1) / 3 + u * (T(2) / 5 + u * (T(-3) / 7 + u * (T(4) / 9 - u * T(5) / 11)));
  }
  if (u > 0) {
    const T r = std::sqrt(u);
    return (r / (1 + u) - std::atan(r)) / (2 * u * r);
  }
  const T r = std::sqrt(-u);
  return (std::atanh(r) - r / (1 + u)) / (-2 * u * r);
}

/// tan_κ(x) = x·tan_ratio(κx²).
template <class T>
[[nodiscard]] T tan_k(T x, T kappa) {
  return x * tan_ratio(kappa * x * x);
}

/// arctan_κ(y) = y·arctan_ratio(κy²).
template <class T>
[[nodiscard]] T arctan_k(T y, T kappa) {
  return y * arctan_ratio(kappa * y * y);
}

}  // namespace gyre::curvature

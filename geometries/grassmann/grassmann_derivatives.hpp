#pragma once
// The spectral functions of S = ΔᵀΔ that write the Grassmannian's exp, log and transport without
// an SVD (so that they can be differentiated by Daleckii–Krein, gyre/linalg/symmetric_functions.hpp):
// with Δ = QΣVᵀ, S = VΣ²Vᵀ and
//   V cosΣ Vᵀ = C(S),  Q sinΣ Vᵀ = Δ·K(S),  Q(I − cosΣ)Qᵀ = Δ·C₂(S)·Δᵀ,  Q atanΣ Vᵀ = Δ·A(S),
//   C(s) = cos√s,  K(s) = sin√s/√s,  C₂(s) = (1 − cos√s)/s,  A(s) = atan√s/√s,
// all entire in s ≥ 0 (no division by a singular value). Divided differences: the quotient where
// the eigenvalues are 1e-4 apart or more (rounding error below 1e-12 there: these functions have
// derivatives of order 1), else the derivative at the midpoint (error |a − b|²·|f‴|/24 < 1e-12).

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <cmath>

#include "gyre/core/scalar_functions.hpp"

namespace gyre::grassmann {

namespace detail {
template <class T, class F, class D>
T divided_or_derivative(T a, T b, const F& f, const D& derivative) {
  if (std::abs(a - b) < T(1e-4)) return derivative((a + b) / 2);
  return (f(a) - f(b)) / (a - b);
}
template <class T>
T root(T s) {
  return std::sqrt(std::max(s, T(0)));
}
}  // namespace detail

/// C(s) = cos√s; C′(s) = −sinc(√s)/2.
struct CosOfRoot {
  static constexpr const char* kName = "CosOfRoot";
  static constexpr bool kPositiveDomain = false;
  template <class T>
  T value(T s) const {
    return std::cos(detail::root(s));
  }
  template <class T>
  T divided(T a, T b) const {
    // (cos α − cos β)/(α² − β²) = −½·sinc((α + β)/2)·sinc((α − β)/2): no cancellation.
    const T alpha = detail::root(a), beta = detail::root(b);
    return -sinc((alpha + beta) / 2) * sinc((alpha - beta) / 2) / 2;
  }
};

/// K(s) = sin√s/√s; K′(s) = (sinc′(α)/α)/2 at α = √s.
struct SincOfRoot {
  static constexpr const char* kName = "SincOfRoot";
  static constexpr bool kPositiveDomain = false;
  template <class T>
  T value(T s) const {
    return sinc(detail::root(s));
  }
  template <class T>
  T divided(T a, T b) const {
    return detail::divided_or_derivative(
        a, b, [](T s) { return sinc(detail::root(s)); },
        [](T s) { return sinc_derivative_over_theta(detail::root(s)) / 2; });
  }
};

/// C₂(s) = (1 − cos√s)/s; C₂′(s) = r(α)/2 with r = ((1 − cos α)/α²)′/α.
struct OneMinusCosOfRootOverS {
  static constexpr const char* kName = "OneMinusCosOfRootOverS";
  static constexpr bool kPositiveDomain = false;
  template <class T>
  T value(T s) const {
    return one_minus_cos_over_sq(detail::root(s));
  }
  template <class T>
  T divided(T a, T b) const {
    return detail::divided_or_derivative(
        a, b, [](T s) { return one_minus_cos_over_sq(detail::root(s)); },
        [](T s) { return one_minus_cos_over_sq_derivative_over_theta(detail::root(s)) / 2; });
  }
};

/// A(s) = atan√s/√s for s ≥ 0; A′(s) = (α/(1 + α²) − atan α)/(2α³), series −1/3 + 2s/5 − 3s²/7 +
/// 4s³/9 − 5s⁴/11 below s = 1e-3.
struct ArctanOfRootRatio {
  static constexpr const char* kName = "ArctanOfRootRatio";
  static constexpr bool kPositiveDomain = false;
  template <class T>
  static T ratio(T s) {
    if (s < T(1e-3)) return 1 - s * (T(1) / 3 - s * (T(1) / 5 - s * (T(1) / 7 - s * T(1) / 9)));
    const T alpha = detail::root(s);
    return std::atan(alpha) / alpha;
  }
  template <class T>
  static T derivative(T s) {
    if (s < T(1e-3)) return T(-1) / 3 + s * (T(2) / 5 + s * (T(-3) / 7 + s * (T(4) / 9 - s * T(5) / 11)));
    const T alpha = detail::root(s);
    return (alpha / (1 + s) - std::atan(alpha)) / (2 * s * alpha);
  }
  template <class T>
  T value(T s) const {
    return ratio(s);
  }
  template <class T>
  T divided(T a, T b) const {
    return detail::divided_or_derivative(
        a, b, [](T s) { return ratio(s); }, [](T s) { return derivative(s); });
  }
};

}  // namespace gyre::grassmann

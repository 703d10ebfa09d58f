#pragma once
// Geodesic interpolation γ(t) = exp_x(t·log_x(y)) on any Manifold: γ(0) = x, γ(1) = y, and
// dist(x, γ(t)) = t·dist(x, y) for t in [0, 1] (the minimising geodesic, off the cut locus).
// t outside [0, 1] extrapolates along the same geodesic.

#include <cmath>
#include <vector>

#include "gyre/core/error.hpp"
#include "gyre/core/manifold.hpp"

namespace gyre {

/// γ(t) = exp_x(t·log_x(y)).
template <class M>
[[nodiscard]] typename M::Point geodesic_point(const M& m, const typename M::Point& x, const typename M::Point& y,
                                               typename M::Scalar t) {
  static_assert(is_manifold_v<M>, "geodesic_point needs a Manifold");
  if (!std::isfinite(t)) throw DomainError("geodesic_point", "t must be finite", t);
  return m.exp(x, typename M::Tangent(m.log(x, y) * t));
}

/// `count` ≥ 2 points evenly spaced in t from x (t = 0) to y (t = 1); log is computed once.
template <class M>
[[nodiscard]] std::vector<typename M::Point> geodesic_path(const M& m, const typename M::Point& x,
                                                           const typename M::Point& y, int count) {
  static_assert(is_manifold_v<M>, "geodesic_path needs a Manifold");
  using T = typename M::Scalar;
  if (count < 2) throw DomainError("geodesic_path", "needs at least 2 points", count);
  const typename M::Tangent v = m.log(x, y);
  std::vector<typename M::Point> path;
  path.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    const T t = static_cast<T>(i) / static_cast<T>(count - 1);
    path.push_back(i == 0 ? x : m.exp(x, typename M::Tangent(v * t)));
  }
  return path;
}

}  // namespace gyre

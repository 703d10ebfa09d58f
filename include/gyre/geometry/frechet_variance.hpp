#pragma once
// The weighted Fréchet variance Σ wᵢ·dist(m, pᵢ)² / Σ wᵢ about a point m (usually the Fréchet
// mean), written once against the Manifold interface; GyroBN and LieBN scale by it.

#include <cmath>
#include <string>
#include <vector>

#include "gyre/core/error.hpp"
#include "gyre/core/manifold.hpp"

namespace gyre {

/// Σ wᵢ·dist(m, pᵢ)² / Σ wᵢ (weights default to 1 each).
template <class M>
[[nodiscard]] typename M::Scalar frechet_variance(const M& m, const typename M::Point& centre,
                                                  const std::vector<typename M::Point>& points,
                                                  std::vector<typename M::Scalar> weights = {}) {
  static_assert(is_manifold_v<M>, "frechet_variance needs a Manifold");
  using T = typename M::Scalar;
  if (points.empty()) throw ShapeError("frechet_variance", "needs at least one point", 0);
  if (weights.empty()) weights.assign(points.size(), T(1));
  if (weights.size() != points.size()) {
    throw ShapeError("frechet_variance", "needs one weight per point",
                     std::to_string(weights.size()) + " weights, " + std::to_string(points.size()) + " points");
  }
  T total = 0;
  T sum = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!(weights[i] >= 0) || !std::isfinite(weights[i])) {
      throw DomainError("frechet_variance", "weights must be finite and ≥ 0", weights[i]);
    }
    const T d = m.dist(centre, points[i]);
    sum += weights[i] * d * d;
    total += weights[i];
  }
  if (!(total > 0)) throw DomainError("frechet_variance", "weights must not all be 0", total);
  return sum / total;
}

}  // namespace gyre

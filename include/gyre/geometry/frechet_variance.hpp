#pragma once
// The weighted Fréchet variance Σ wᵢ·dist(m, pᵢ)² / Σ wᵢ about a point m (usually the Fréchet
// mean), written once against the Manifold interface; GyroBN and LieBN scale by it.

#include <cmath>
#include <string>
#include <vector>

#include "gyre/core/error.hpp"
#include "gyre/core/manifold.hpp"
#include "gyre/core/weights.hpp"

namespace gyre {

/// Σ wᵢ·dist(m, pᵢ)² / Σ wᵢ (weights default to 1 each).
template <class M>
[[nodiscard]] typename M::Scalar frechet_variance(const M& m, const typename M::Point& centre,
                                                  const std::vector<typename M::Point>& points,
                                                  std::vector<typename M::Scalar> weights = {}) {
  static_assert(is_manifold_v<M>, "frechet_variance needs a Manifold");
  using T = typename M::Scalar;
  const T total = checked_weights<T>("frechet_variance", weights, points.size(), T(1));
  T sum = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const T d = m.dist(centre, points[i]);
    sum += weights[i] * d * d;
  }
  return sum / total;
}

}  // namespace gyre

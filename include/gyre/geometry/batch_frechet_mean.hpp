#pragma once
// The Fréchet mean of a batch of points stored as one (B, …) array: the generic form, which reads
// the items and runs gyre::frechet_mean. Geometries with a faster batched mean overload it (the
// affine-invariant SPD metric: spd/affine_invariant_batch.hpp).

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <vector>

#include <xtensor/xarray.hpp>

#include "gyre/core/batch.hpp"
#include "gyre/geometry/frechet_mean.hpp"

namespace gyre::batch {

/// The weighted Fréchet mean of the points[b] (weights default to 1/B), starting at points[0].
template <class M, class T = typename M::Scalar>
FrechetMean<typename M::Point> frechet_mean(const M& m, const xt::xarray<T>& points, std::vector<T> weights = {},
                                            FrechetMeanOptions options = {}) {
  static_assert(is_manifold_v<M>, "batch::frechet_mean needs a Manifold");
  using P = typename M::Point;
  detail::require_item_shape<P>("batch::frechet_mean", "points", points);
  std::vector<P> items;
  items.reserve(points.shape()[0]);
  for (std::size_t b = 0; b < points.shape()[0]; ++b)
    items.push_back(detail::item<P>(points, static_cast<std::ptrdiff_t>(b)));
  return gyre::frechet_mean(m, items, std::move(weights), options);
}

}  // namespace gyre::batch

#pragma once
// The Fréchet mean of a batch of points stored as one array (core/batch.hpp's layout): the generic form, which reads
// the items and runs gyre::frechet_mean. Geometries with a faster batched mean overload it (the
// affine-invariant SPD metric: spd/affine_invariant_batch.hpp).

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <vector>

#include <xtensor/xarray.hpp>

#include "gyre/core/batch.hpp"
#include "gyre/geometry/frechet_mean.hpp"

namespace gyre::batch {

/// The weighted Fréchet mean of the items of `points` (any leading axes; weights default to equal),
/// starting at the first.
template <class M, class T = typename M::Scalar>
FrechetMean<typename M::Point> frechet_mean(const M& m, const xt::xarray<T>& points, std::vector<T> weights = {},
                                            FrechetMeanOptions options = {}) {
  static_assert(is_manifold_v<M>, "batch::frechet_mean needs a Manifold");
  using P = typename M::Point;
  const detail::Items layout = detail::items_of<P>("batch::frechet_mean", "points", points);
  std::vector<P> items;
  items.reserve(layout.count);
  for (std::size_t i = 0; i < layout.count; ++i)
    items.push_back(detail::item<P>(points, layout, static_cast<std::ptrdiff_t>(i)));
  return gyre::frechet_mean(m, items, std::move(weights), options);
}

}  // namespace gyre::batch

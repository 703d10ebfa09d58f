#pragma once
// Smooth random images for the canonicalization tests: a few Gaussian blobs per channel, off the
// centre, so that θ* is well defined and bilinear resampling of them is accurate to ~1e-3.

#include <cmath>
#include <cstdint>

#include <xtensor/xarray.hpp>
#include <xtensor/xbuilder.hpp>

#include "gyre/core/rng.hpp"

namespace gyre::test {

/// (batch, channels, size, size): per channel `count` blobs height·exp(−|p − c|²/spread), centres
/// within 0.3·size of the middle, heights in [0.5, 1.5].
template <class T>
xt::xarray<T> blob_maps(std::size_t batch, std::size_t channels, std::size_t size, std::uint64_t seed, int count,
                        double spread) {
  Rng rng(seed);
  xt::xarray<T> data = xt::zeros<T>({batch, channels, size, size});
  const double centre = (static_cast<double>(size) - 1) / 2;
  for (std::size_t b = 0; b < batch; ++b) {
    for (std::size_t ch = 0; ch < channels; ++ch) {
      for (int blob = 0; blob < count; ++blob) {
        const double cx = rng.uniform(-0.3, 0.3) * static_cast<double>(size);
        const double cy = rng.uniform(-0.3, 0.3) * static_cast<double>(size);
        const double height = rng.uniform(0.5, 1.5);
        for (std::size_t r = 0; r < size; ++r) {
          for (std::size_t c = 0; c < size; ++c) {
            const double dx = static_cast<double>(c) - centre - cx, dy = centre - static_cast<double>(r) - cy;
            data(b, ch, r, c) += static_cast<T>(height * std::exp(-(dx * dx + dy * dy) / spread));
          }
        }
      }
    }
  }
  return data;
}

}  // namespace gyre::test

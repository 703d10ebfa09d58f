#pragma once
// Manifold-valued descriptors of images, the inputs of `gyre demo spd` and `gyre demo grassmann`.
//
//   region covariance (Tuzel, Porikli & Meer 2006): per image, the 7×7 covariance of the per-pixel
//     features (x, y, I, |Iₓ|, |I_y|, |Iₓₓ|, |I_yy|) — position in [0, 1], intensity, and the magnitudes
//     of first and second central differences ([−1 0 1]/2, [1 −2 1]; zero outside the image) — plus
//     10⁻⁴·(tr Σ/7)·I, so that a patch with a constant feature still gives an SPD matrix;
//   principal subspace: per image, the span of its p leading left singular vectors (a point of
//     Gr(H, p)), from a double-precision SVD.
// Both return float batches (N, 1, …) ready to be typed as none × SPD(7)[1] and none × Gr(H, p)[1].

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <xtensor/xarray.hpp>
#include <xtensor/xtensor.hpp>

namespace gyre::tools {

/// The size of a region covariance descriptor.
inline constexpr int kRegionFeatures = 7;

/// (N, 1, 7, 7) region covariance descriptors of (N, 1, H, W) images.
[[nodiscard]] xt::xarray<float> region_covariances(const xt::xtensor<float, 4>& images);

/// (N, 1, H, p) orthonormal bases of the images' leading p-dimensional column spaces; ShapeError
/// unless 1 ≤ p ≤ min(H, W).
[[nodiscard]] xt::xarray<float> principal_subspaces(const xt::xtensor<float, 4>& images, int p);

}  // namespace gyre::tools

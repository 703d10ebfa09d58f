#pragma once
// ============================================================================================
//  Batched AIM operations on (B, n, n) arrays: the fast paths that gyre::batch picks for
//  SpdAffineInvariant (overloads of the generic templates of gyre/core/batch.hpp).
// ============================================================================================
//  Whitening by the Cholesky factor P = LLᵀ instead of P^½: for any G with GGᵀ = P the congruence
//  X ↦ GXGᵀ is an isometry taking I to P, so
//      log_P(Q) = L·logm(L⁻¹QL⁻ᵀ)·Lᵀ,   exp_P(V) = L·expm(L⁻¹VL⁻ᵀ)·Lᵀ,
//  and dist(P, Q) needs only the eigenvalues of L⁻¹QL⁻ᵀ. One eigendecomposition per item instead
//  of two (the one-item functions compute P^±½ for their other uses), and all of a batch's
//  eigendecompositions go to linalg::batched_symmetric_eigen.
//  Mean     the Karcher iteration of frechet_mean (same step, same stopping rule), started at the
//           weighted arithmetic mean (SPD, and closer than the first point), with each item's
//           eigenvectors kept between iterations to warm-start the next eigendecomposition.
//  Checks   as the one-item functions, item by item; errors name the first bad item.
//  Sizes    n ≤ 12 (linalg::kMaxBatchedJacobiSize); larger n take the generic batched forms.
// ============================================================================================

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <vector>

#include <xtensor/xarray.hpp>

#include "affine_invariant.hpp"
#include "gyre/core/batch.hpp"
#include "gyre/geometry/batch_frechet_mean.hpp"

// Declared exactly when libgyre has them (GYRE_WITH_BATCHED_FAST_PATHS, recorded in config.hpp).
#if GYRE_HAS_BATCHED_FAST_PATHS

namespace gyre::batch {

/// exp_{x[b]}(v[b]) for every b, for the affine-invariant metric.
xt::xarray<float> exp(const SpdAffineInvariant<float>& m, const xt::xarray<float>& x, const xt::xarray<float>& v);
xt::xarray<double> exp(const SpdAffineInvariant<double>& m, const xt::xarray<double>& x, const xt::xarray<double>& v);

/// log_{x[b]}(y[b]) for every b.
xt::xarray<float> log(const SpdAffineInvariant<float>& m, const xt::xarray<float>& x, const xt::xarray<float>& y);
xt::xarray<double> log(const SpdAffineInvariant<double>& m, const xt::xarray<double>& x, const xt::xarray<double>& y);

/// dist(x[b], y[b]) for every b, as a (B,) array.
xt::xarray<float> dist(const SpdAffineInvariant<float>& m, const xt::xarray<float>& x, const xt::xarray<float>& y);
xt::xarray<double> dist(const SpdAffineInvariant<double>& m, const xt::xarray<double>& x, const xt::xarray<double>& y);

/// The weighted Karcher mean of the (B, n, n) points (weights default to 1/B).
FrechetMean<Matrix<float>> frechet_mean(const SpdAffineInvariant<float>& m, const xt::xarray<float>& points,
                                        std::vector<float> weights = {}, FrechetMeanOptions options = {});
FrechetMean<Matrix<double>> frechet_mean(const SpdAffineInvariant<double>& m, const xt::xarray<double>& points,
                                         std::vector<double> weights = {}, FrechetMeanOptions options = {});

}  // namespace gyre::batch

#endif  // GYRE_HAS_BATCHED_FAST_PATHS

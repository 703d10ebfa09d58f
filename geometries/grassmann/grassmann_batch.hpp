#pragma once
// Batched log on Gr(n, p) over (B, n, p) arrays of orthonormal bases: the fast path gyre::batch
// picks for Grassmann (an overload of the generic template of gyre/core/batch.hpp). The one-item
// log's formula, with the SVD of UᵀY replaced by the batched Jacobi eigendecomposition of its
// Gram matrix (see grassmann_batch.cpp) and stack-sized work matrices for n ≤ 64, p ≤ 16; larger
// bases take the one-item route. Checks as the one-item log; errors name the item.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <xtensor/xarray.hpp>

#include "grassmann.hpp"
#include "gyre/core/batch.hpp"

// Declared exactly when libgyre has them (GYRE_WITH_BATCHED_FAST_PATHS, recorded in config.hpp).
#if GYRE_HAS_BATCHED_FAST_PATHS

namespace gyre::batch {

/// log_{u[b]}(y[b]) for every b: horizontal n×p tangents at the bases u[b].
xt::xarray<float> log(const Grassmann<float>& m, const xt::xarray<float>& u, const xt::xarray<float>& y);
xt::xarray<double> log(const Grassmann<double>& m, const xt::xarray<double>& u, const xt::xarray<double>& y);

}  // namespace gyre::batch

#endif  // GYRE_HAS_BATCHED_FAST_PATHS

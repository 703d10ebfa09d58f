#pragma once
// Everything public in Gyre, for notebooks and quick programs:
//
//   #pragma cling load("libgyre")
//   #include <gyre/gyre.hpp>
//
// Programs that care about compile time include the headers they use. The geometries are
// installed under gyre/geometries/ (in the build tree, a link to geometries/ makes the same
// paths work). tests/headers checks that this file names every public header.

#include "gyre/config.hpp"

// core
#include "gyre/core/batch.hpp"
#include "gyre/core/checks.hpp"
#include "gyre/core/derivatives.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/group_derivatives.hpp"
#include "gyre/core/gyrogroup.hpp"
#include "gyre/core/manifold.hpp"
#include "gyre/core/parallel.hpp"
#include "gyre/core/progress_bar.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/core/scalar_functions.hpp"
#include "gyre/core/types.hpp"
#include "gyre/core/validate.hpp"
#include "gyre/core/weights.hpp"

// linalg
#include "gyre/linalg/batched_qr.hpp"
#include "gyre/linalg/batched_spectral_function.hpp"
#include "gyre/linalg/batched_symmetric_eigen.hpp"
#include "gyre/linalg/eigen_convergence.hpp"
#include "gyre/linalg/haar.hpp"
#include "gyre/linalg/skew_functions.hpp"
#include "gyre/linalg/symmetric_functions.hpp"

// geometry
#include "gyre/geometry/any_manifold.hpp"
#include "gyre/geometry/any_manifold_model.hpp"
#include "gyre/geometry/batch_frechet_mean.hpp"
#include "gyre/geometry/batch_space.hpp"
#include "gyre/geometry/common_batch_spaces.hpp"
#include "gyre/geometry/frechet_mean.hpp"
#include "gyre/geometry/frechet_variance.hpp"
#include "gyre/geometry/geodesic.hpp"
#include "gyre/geometry/metric_gradient.hpp"

// check
#include "gyre/check/derivative_laws.hpp"
#include "gyre/check/equivariance.hpp"
#include "gyre/check/finite_group_laws.hpp"
#include "gyre/check/gradient_check.hpp"
#include "gyre/check/group_derivative_laws.hpp"
#include "gyre/check/gyrogroup_laws.hpp"
#include "gyre/check/law_report.hpp"
#include "gyre/check/lie_group_laws.hpp"
#include "gyre/check/manifold_laws.hpp"

// repr
#include "gyre/repr/fourier.hpp"
#include "gyre/repr/irrep.hpp"
#include "gyre/repr/planar_group.hpp"
#include "gyre/repr/representation.hpp"
#include "gyre/repr/restriction.hpp"

// nn
#include "gyre/nn/bimap.hpp"
#include "gyre/nn/conv2d.hpp"
#include "gyre/nn/cross_entropy.hpp"
#include "gyre/nn/eigenvalue_maps.hpp"
#include "gyre/nn/field_kernel_basis.hpp"
#include "gyre/nn/field_nonlinearity.hpp"
#include "gyre/nn/field_type.hpp"
#include "gyre/nn/fit.hpp"
#include "gyre/nn/geometric_tensor.hpp"
#include "gyre/nn/grassmann_layers.hpp"
#include "gyre/nn/inner_batch_norm.hpp"
#include "gyre/nn/kernel_basis.hpp"
#include "gyre/nn/linear.hpp"
#include "gyre/nn/manifold_fibers.hpp"
#include "gyre/nn/manifold_models.hpp"
#include "gyre/nn/models.hpp"
#include "gyre/nn/module.hpp"
#include "gyre/nn/plain_conv2d.hpp"
#include "gyre/nn/pointwise_nonlinearity.hpp"
#include "gyre/nn/pooling.hpp"
#include "gyre/nn/r2conv.hpp"
#include "gyre/nn/saved_calls.hpp"
#include "gyre/nn/sequential.hpp"
#include "gyre/nn/tensor_type.hpp"
#include "gyre/nn/training.hpp"
#include "gyre/nn/transform.hpp"

// optim
#include "gyre/optim/adam.hpp"
#include "gyre/optim/manifold_update.hpp"
#include "gyre/optim/parameter.hpp"
#include "gyre/optim/sgd.hpp"

// io
#include "gyre/io/idx.hpp"
#include "gyre/io/line_plot.hpp"

// geometries
#include "gyre/geometries/cn/cn.hpp"
#include "gyre/geometries/cn/grid_action.hpp"
#include "gyre/geometries/correlation/correlation.hpp"
#include "gyre/geometries/dn/dn.hpp"
#include "gyre/geometries/e2/e2.hpp"
#include "gyre/geometries/glp/general_linear.hpp"
#include "gyre/geometries/grassmann/grassmann.hpp"
#include "gyre/geometries/grassmann/grassmann_batch.hpp"
#include "gyre/geometries/grassmann/grassmann_derivatives.hpp"
#include "gyre/geometries/grassmann/grassmann_projector.hpp"
#include "gyre/geometries/hyperboloid/hyperboloid.hpp"
#include "gyre/geometries/lorentz/lorentz.hpp"
#include "gyre/geometries/o/o.hpp"
#include "gyre/geometries/o2/o2.hpp"
#include "gyre/geometries/se2/planar_rigid_detail.hpp"
#include "gyre/geometries/se2/se2.hpp"
#include "gyre/geometries/so/orthogonal_group.hpp"
#include "gyre/geometries/so/so.hpp"
#include "gyre/geometries/so/so_detail.hpp"
#include "gyre/geometries/so2/planar_orthogonal.hpp"
#include "gyre/geometries/so2/so2.hpp"
#include "gyre/geometries/spd/affine_invariant.hpp"
#include "gyre/geometries/spd/affine_invariant_batch.hpp"
#include "gyre/geometries/spd/bures_wasserstein.hpp"
#include "gyre/geometries/spd/euclidean.hpp"
#include "gyre/geometries/spd/generalized_bures_wasserstein.hpp"
#include "gyre/geometries/spd/log_cholesky.hpp"
#include "gyre/geometries/spd/log_euclidean.hpp"
#include "gyre/geometries/spd/power_deformed.hpp"
#include "gyre/geometries/spd/spd.hpp"
#include "gyre/geometries/spd/spd_common.hpp"
#include "gyre/geometries/spd/spd_group_derivatives.hpp"
#include "gyre/geometries/spd/spd_groups.hpp"
#include "gyre/geometries/sphere/sphere.hpp"
#include "gyre/geometries/stereographic/curvature_functions.hpp"
#include "gyre/geometries/stereographic/model_conversions.hpp"
#include "gyre/geometries/stereographic/stereographic.hpp"
#include "gyre/geometries/stiefel/stiefel.hpp"
#include "gyre/geometries/stiefel/stiefel_detail.hpp"

#pragma once
// The options every manifold batch normalization shares (LieBatchNorm, GyroBatchNorm): the
// reference codes' defaults, the mean's mode and budget, and the two switches that reproduce the
// papers' variants.

#include <cmath>

#include "gyre/core/error.hpp"
#include "gyre/core/lie_normalization.hpp"

namespace gyre::nn {

/// Options of LieBatchNorm and GyroBatchNorm (reference defaults).
struct BatchNormOptions {
  double eps = 1e-5;
  double momentum = 0.1;
  /// kConverged (Karcher to `tolerance`, the default) or kReference (the papers' code: K steps).
  LieMeanMode mean_mode = LieMeanMode::kConverged;
  /// kReference: the number K of Karcher steps.
  int karcher_steps = 1;
  /// kConverged: the stopping tolerance (0: the layer's default, stated with it) and the budget.
  double tolerance = 0;
  int max_iterations = 100;
  /// No gradient through the batch mean and variance (the references' .detach()).
  bool detach_statistics = false;
  /// false: centre and bias only, no scale parameter (SPDNetBN's normalization, Brooks et al. 2019).
  bool normalize_variance = true;
  /// ManifoldBatchNorm: the metric is metric_scale × the space's. A constant factor leaves geodesics,
  /// means and transport unchanged and scales squared distances, so only the variance (and so the
  /// scaling factor) sees it: GBW-RBN's power deformation X ↦ X^θ sets 1/θ². LieBatchNorm's
  /// structures carry their own metric, and it refuses any value but 1.
  double metric_scale = 1;
};

/// Throws DomainError naming `where` for ε ≤ 0, a momentum outside [0, 1], K < 0 (reference mode),
/// a budget below 1 or a negative or non-finite tolerance (converged mode), a metric scale that is
/// not finite and positive.
inline void check_batch_norm_options(const char* where, const BatchNormOptions& o) {
  if (!(o.eps > 0) || !std::isfinite(o.eps)) throw DomainError(where, "eps must be finite and > 0", o.eps);
  if (!(o.momentum >= 0 && o.momentum <= 1)) throw DomainError(where, "momentum must lie in [0, 1]", o.momentum);
  if (o.mean_mode == LieMeanMode::kReference && o.karcher_steps < 0) {
    throw DomainError(where, "karcher_steps must be >= 0", o.karcher_steps);
  }
  if (o.mean_mode == LieMeanMode::kConverged && o.max_iterations < 1) {
    throw DomainError(where, "max_iterations must be >= 1", o.max_iterations);
  }
  if (!(o.metric_scale > 0) || !std::isfinite(o.metric_scale)) {
    throw DomainError(where, "metric_scale must be finite and > 0", o.metric_scale);
  }
  if (!(o.tolerance >= 0) || !std::isfinite(o.tolerance)) {
    throw DomainError(where, "tolerance must be finite and >= 0", o.tolerance);
  }
}

/// Throws DomainError naming `where` unless every running variance is finite and ≥ 0.
template <class Array>
void check_running_variance(const char* where, const Array& variance) {
  for (const auto v : variance) {
    if (!(v >= 0) || !std::isfinite(v)) throw DomainError(where, "running variance must be finite and >= 0", v);
  }
}

}  // namespace gyre::nn

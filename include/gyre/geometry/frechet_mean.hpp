#pragma once
// The (weighted) Fréchet / Karcher mean on any Manifold: the minimiser of Σ wᵢ·dist(x, pᵢ)², found
// by the Riemannian gradient iteration x ← expₓ(Σ wᵢ·logₓ(pᵢ)) (Karcher 1977; Pennec 2006 §4).
// Written once against the interface; a geometry with a closed-form mean may offer its own.
// The iteration converges when the points lie in a geodesically convex ball (for Sⁿ and SO(n):
// of radius below π/2); outside, a mean may not be unique, and ConvergenceError says so if the
// iteration does not settle.

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "gyre/core/checks.hpp"
#include "gyre/core/error.hpp"
#include "gyre/core/manifold.hpp"
#include "gyre/core/weights.hpp"

namespace gyre {

/// Settings of the Karcher iteration.
struct FrechetMeanOptions {
  int max_iterations = 200;
  /// Stop when the Riemannian step ‖Σ wᵢ·logₓ(pᵢ)‖ₓ falls to this; 0 means 8·ε of the scalar
  /// type. Independently, once the step is below √ε and stops shrinking, the iteration is at
  /// the rounding floor of the sum of logs and stops there (further steps only move ε-noise).
  double tolerance = 0;
};

/// Throws DomainError unless options.max_iterations ≥ 1 and options.tolerance is finite and ≥ 0:
/// a budget of no iterations would report a ConvergenceError about a mean never attempted.
inline void check_mean_options(const char* function, const FrechetMeanOptions& options) {
  if (options.max_iterations < 1)
    throw DomainError(function, "max_iterations must be at least 1", options.max_iterations);
  if (!(options.tolerance >= 0) || !std::isfinite(options.tolerance)) {
    throw DomainError(function, "tolerance must be finite and non-negative", options.tolerance);
  }
}

/// The stopping rule of the Karcher iteration (shared by the batched fast paths): done when the
/// step norm reaches the tolerance, or when it is below √ε and no longer shrinking.
class KarcherStop {
 public:
  KarcherStop(const FrechetMeanOptions& options, double epsilon)
      : tolerance_(options.tolerance > 0 ? options.tolerance : 8 * epsilon), floor_onset_(std::sqrt(epsilon)) {}

  /// True when the iteration should return the current point, whose step norm this is.
  bool done(double step_norm) {
    const bool at_floor = step_norm <= floor_onset_ && step_norm >= previous_;
    previous_ = step_norm;
    return step_norm <= tolerance_ || at_floor;
  }

 private:
  double tolerance_;
  double floor_onset_;
  double previous_ = std::numeric_limits<double>::infinity();
};

namespace detail {
/// Fills empty weights with 1/N and returns their total; throws for no points, a count that does
/// not match, a weight that is negative or not finite, and weights that are all 0.
template <class T>
T checked_mean_weights(const char* function, std::vector<T>& weights, std::size_t count) {
  return checked_weights<T>(function, weights, count, count == 0 ? T(0) : T(1) / static_cast<T>(count));
}
}  // namespace detail

/// The mean and how the iteration got there.
template <class Point>
struct FrechetMean {
  Point point;
  int iterations = 0;
  double last_step_norm = 0;  ///< ‖Σ wᵢ·logₓ(pᵢ)‖ at the returned point (the gradient norm)
};

/// The weighted Fréchet mean of points (weights default to 1/N), starting at points[0].
template <class M>
FrechetMean<typename M::Point> frechet_mean(const M& m, const std::vector<typename M::Point>& points,
                                            std::vector<typename M::Scalar> weights = {},
                                            FrechetMeanOptions options = {}) {
  static_assert(is_manifold_v<M>, "frechet_mean needs a Manifold");
  using T = typename M::Scalar;
  using Tangent = typename M::Tangent;
  check_mean_options("frechet_mean", options);
  const T weight_sum = detail::checked_mean_weights("frechet_mean", weights, points.size());
  if (checks_enabled()) {  // under ChecksOff the caller vouches for the points, as for exp and log
    for (const auto& p : points) m.check_point(p);
  }

  KarcherStop stop(options, std::numeric_limits<T>::epsilon());
  FrechetMean<typename M::Point> result{points.front(), 0, 0.0};
  for (int iteration = 1; iteration <= options.max_iterations; ++iteration) {
    Tangent step = m.log(result.point, points.front()) * (weights.front() / weight_sum);
    for (std::size_t i = 1; i < points.size(); ++i) step += m.log(result.point, points[i]) * (weights[i] / weight_sum);
    result.last_step_norm = static_cast<double>(m.norm(result.point, step));
    result.iterations = iteration;
    if (stop.done(result.last_step_norm)) return result;
    result.point = m.exp(result.point, step);
  }
  throw ConvergenceError("frechet_mean",
                         "Karcher iteration did not reach its tolerance in " + std::to_string(options.max_iterations) +
                             " iterations (last step norm)",
                         result.last_step_norm);
}

}  // namespace gyre

// The row of `spd` in the table of spaces (registered_spaces.inc): SPD(n) with any of Gyre's metrics,
// chosen by the parameter "metric", with the optional deformation "theta" and the (α, β) inner
// product "alpha", "beta".
#include <cmath>
#include <initializer_list>
#include <vector>

#include "../space_params.hpp"
#include "gyre/core/error.hpp"
#include "spd/spd.hpp"

namespace gyre::detail {
namespace {

// `metric` with the optional power deformation θ (1 = none).
template <class Metric>
AnyManifold maybe_deformed(const std::string& name, Metric metric, double theta) {
  if (theta == 1) return wrap_manifold(name, std::move(metric));
  return wrap_manifold(name, PowerDeformed<Metric>(std::move(metric), theta));
}

AnyManifold make_spd(const SpaceParams& params) {
  const std::string name = "spd";
  const int n = integer_param(name, params, "n", 1);
  const std::string metric = word_param(params, "metric", "affine_invariant");
  const double theta = number_param(name, params, "theta", 1);
  const spd::AlphaBeta ab{number_param(name, params, "alpha", 1), number_param(name, params, "beta", 0)};
  const bool has_alpha_beta = ab.alpha != 1 || ab.beta != 0;
  const auto refuse = [&](const std::string& what) {
    return DomainError("make_space", "spd metric " + metric + " takes no parameter", what);
  };
  if (metric == "affine_invariant") return maybe_deformed(name, SpdAffineInvariant<double>(n, ab), theta);
  if (metric == "log_euclidean") {
    // θ-LEM is LEM (log P^θ = θ log P): accepted and ignored would hide a mistake; refuse it.
    if (theta != 1) throw refuse("theta (the power deformation of log-Euclidean is log-Euclidean)");
    return wrap_manifold(name, SpdLogEuclidean<double>(n, ab));
  }
  if (has_alpha_beta) throw refuse("alpha/beta (only affine_invariant and log_euclidean have them)");
  if (metric == "log_cholesky") return maybe_deformed(name, SpdLogCholesky<double>(n), theta);
  if (theta != 1) throw refuse("theta (only affine_invariant and log_cholesky are deformed)");
  if (metric == "bures_wasserstein") return wrap_manifold(name, SpdBuresWasserstein<double>(n));
  if (metric == "generalized_bures_wasserstein") {
    const Eigen::MatrixXd& m = matrix_param(name, params, "M");
    require_shape("make_space", "parameter M", m, n, n);
    return wrap_manifold(name, SpdGeneralizedBuresWasserstein<double>(m));
  }
  throw DomainError("make_space",
                    "unknown spd metric (affine_invariant, log_euclidean, log_cholesky, bures_wasserstein, "
                    "generalized_bures_wasserstein)",
                    metric);
}

// Each metric of SPD(n) and each deformation family the parameters select, at n = 3.
std::vector<SpaceParams> spd_families() {
  const auto family = [](const std::string& metric,
                         std::initializer_list<std::pair<const std::string, double>> numbers) {
    SpaceParams params{{"n", 3}};
    params.words["metric"] = metric;
    for (const auto& [key, value] : numbers) params.numbers[key] = value;
    return params;
  };
  SpaceParams generalized_bw = family("generalized_bures_wasserstein", {});
  generalized_bw.matrices["M"] = Eigen::Vector3d(0.5, 1.0, 2.0).asDiagonal();
  return {family("affine_invariant", {}),
          family("affine_invariant", {{"theta", 0.5}}),
          family("affine_invariant", {{"alpha", 1.5}, {"beta", -0.2}}),
          family("log_euclidean", {}),
          family("log_euclidean", {{"alpha", 2}, {"beta", 0.5}}),
          family("log_cholesky", {}),
          family("log_cholesky", {{"theta", 1.5}}),
          family("bures_wasserstein", {}),
          generalized_bw};
}

}  // namespace

SpaceInfo spd_space() {
  return {"spd",
          "SPD(n) matrices; metric affine_invariant (default), log_euclidean, log_cholesky, bures_wasserstein or "
          "generalized_bures_wasserstein (matrix M); power deformation theta; (alpha, beta) inner product",
          {"n", "metric", "theta", "alpha", "beta", "M"},
          spd_families(),
          make_spd};
}

}  // namespace gyre::detail

// The rows of `stereographic`, `hyperboloid` and `correlation` (a product of Poincaré balls) in the
// table of spaces (registered_spaces.inc).
#include "../space_params.hpp"
#include "correlation/correlation.hpp"
#include "hyperboloid/hyperboloid.hpp"
#include "stereographic/stereographic.hpp"

namespace gyre::detail {

SpaceInfo stereographic_space() {
  return {"stereographic",
          "the κ-stereographic model of constant curvature kappa (Poincaré ball κ < 0, ℝⁿ κ = 0, projected "
          "sphere κ > 0), points in ℝⁿ; gyro ops: Möbius addition, gyration, scalar multiplication",
          {"n", "kappa"},
          {{{"n", 3}, {"kappa", -1}}, {{"n", 3}, {"kappa", 0}}, {{"n", 3}, {"kappa", 0.7}}},
          [](const SpaceParams& params) {
            const std::string name = "stereographic";
            return wrap_manifold(name, Stereographic<double>(integer_param(name, params, "n", 1),
                                                             number_param(name, params, "kappa", -1.0)));
          }};
}

SpaceInfo hyperboloid_space() {
  return {"hyperboloid",
          "hyperbolic n-space (curvature −1), points in ℝⁿ⁺¹ with ⟨x, x⟩_L = −1, x₀ > 0",
          {"n"},
          {{{"n", 3}}, {{"n", 1}}},
          [](const SpaceParams& params) {
            return wrap_manifold("hyperboloid", Hyperboloid<double>(integer_param("hyperboloid", params, "n", 1)));
          }};
}

SpaceInfo correlation_space() {
  return {"correlation",
          "full-rank correlation matrices Cor⁺(n), poly-Poincaré-ball Cholesky metric and gyro structure (GyroBN)",
          {"n"},
          {{{"n", 3}}, {{"n", 2}}},
          [](const SpaceParams& params) {
            return wrap_manifold("correlation", Correlation<double>(integer_param("correlation", params, "n", 2)));
          }};
}

}  // namespace gyre::detail

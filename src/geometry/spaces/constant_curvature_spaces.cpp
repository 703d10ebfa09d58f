// `stereographic`, `hyperboloid` and `correlation` (a product of Poincaré balls) for make_space.
#include "../space_params.hpp"
#include "correlation/correlation.hpp"
#include "hyperboloid/hyperboloid.hpp"
#include "stereographic/stereographic.hpp"

namespace gyre::detail {

AnyManifold make_constant_curvature_space(const std::string& name, const SpaceParams& params) {
  if (name == "correlation") return wrap_manifold(name, Correlation<double>(integer_param(name, params, "n", 2)));
  const int n = integer_param(name, params, "n", 1);
  if (name == "hyperboloid") return wrap_manifold(name, Hyperboloid<double>(n));
  return wrap_manifold(name, Stereographic<double>(n, number_param(name, params, "kappa", -1.0)));
}

}  // namespace gyre::detail

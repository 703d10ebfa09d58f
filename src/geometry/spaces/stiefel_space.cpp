// `stiefel` for make_space: St(n, p) with points as n×p orthonormal frames, Euclidean metric.
#include "../space_params.hpp"
#include "stiefel/stiefel.hpp"

namespace gyre::detail {

AnyManifold make_stiefel_space(const std::string& name, const SpaceParams& params) {
  return wrap_manifold(name, Stiefel<double>(integer_param(name, params, "n", 2), integer_param(name, params, "p", 1)));
}

}  // namespace gyre::detail

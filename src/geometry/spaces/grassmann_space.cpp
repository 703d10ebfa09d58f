// `grassmann` for make_space: Gr(n, p) with points as n×p orthonormal bases.
#include "../space_params.hpp"
#include "grassmann/grassmann.hpp"

namespace gyre::detail {

AnyManifold make_grassmann_space(const std::string& name, const SpaceParams& params) {
  return wrap_manifold(name,
                       Grassmann<double>(integer_param(name, params, "n", 2), integer_param(name, params, "p", 1)));
}

}  // namespace gyre::detail

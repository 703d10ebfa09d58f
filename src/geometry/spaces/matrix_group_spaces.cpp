// `glp`, `sl` and `lorentz` for make_space: matrix groups without a Riemannian metric in Gyre.
#include <memory>

#include "../space_params.hpp"
#include "glp/general_linear.hpp"
#include "lorentz/lorentz.hpp"

namespace gyre::detail {
namespace {

template <class Group>
AnyManifold wrap_group(const std::string& name, Group group) {
  return AnyManifold(name, std::make_shared<MatrixGroupModel<Group>>(name, std::move(group)));
}

}  // namespace

AnyManifold make_matrix_group_space(const std::string& name, const SpaceParams& params) {
  if (name == "lorentz") return wrap_group(name, Lorentz<double>(number_param(name, params, "max_rapidity", 2.0)));
  const int n = integer_param(name, params, "n", name == "sl" ? 2 : 1);
  const double scale = number_param(name, params, "scale", 0.5);
  if (name == "sl") return wrap_group(name, SL<double>(n, scale));
  return wrap_group(name, GLPlus<double>(n, scale));
}

}  // namespace gyre::detail

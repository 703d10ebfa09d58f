// The rows of `glp`, `sl` and `lorentz` in the table of spaces (registered_spaces.inc): matrix
// groups without a Riemannian metric in Gyre.
#include "../space_params.hpp"
#include "glp/general_linear.hpp"
#include "lorentz/lorentz.hpp"

namespace gyre::detail {

SpaceInfo glp_space() {
  return {"glp",
          "GL⁺(n): matrices with det > 0 (group ops, algebra exp/log, act; no metric)",
          {"n", "scale"},
          {{{"n", 3}}, {{"n", 2}}},
          [](const SpaceParams& params) {
            return wrap_matrix_group(
                "glp", GLPlus<double>(integer_param("glp", params, "n", 1), number_param("glp", params, "scale", 0.5)));
          }};
}

SpaceInfo sl_space() {
  return {"sl",
          "SL(n): matrices with det = 1 (group ops, algebra exp/log, act; no metric)",
          {"n", "scale"},
          {{{"n", 3}}, {{"n", 2}}},
          [](const SpaceParams& params) {
            return wrap_matrix_group(
                "sl", SL<double>(integer_param("sl", params, "n", 2), number_param("sl", params, "scale", 0.5)));
          }};
}

SpaceInfo lorentz_space() {
  return {"lorentz",
          "the Lorentz group SO⁺(1,3), η = diag(1, −1, −1, −1), 4×4 matrices; act on 4-vectors; algebra "
          "(θ₁, θ₂, θ₃, ζ₁, ζ₂, ζ₃) rotation angles and rapidities",
          {"max_rapidity"},
          {{}},
          [](const SpaceParams& params) {
            return wrap_matrix_group("lorentz", Lorentz<double>(number_param("lorentz", params, "max_rapidity", 2.0)));
          }};
}

}  // namespace gyre::detail

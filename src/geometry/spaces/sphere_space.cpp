// The row of `sphere` in the table of spaces (registered_spaces.inc).
#include "../space_params.hpp"
#include "sphere/sphere.hpp"

namespace gyre::detail {

SpaceInfo sphere_space() {
  return {
      "sphere", "the sphere Sⁿ ⊂ ℝⁿ⁺¹, round metric", {"n"}, {{{"n", 3}}, {{"n", 1}}}, [](const SpaceParams& params) {
        return wrap_manifold("sphere", Sphere<double>(integer_param("sphere", params, "n", 1)));
      }};
}

}  // namespace gyre::detail

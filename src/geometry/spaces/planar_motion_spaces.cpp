// The rows of `se2` and `e2` in the table of spaces (registered_spaces.inc).
#include "../space_params.hpp"
#include "e2/e2.hpp"
#include "se2/se2.hpp"

namespace gyre::detail {

SpaceInfo se2_space() {
  return {"se2",
          "the rigid motions SE(2) of the plane, left-invariant metric (= SO(2) × ℝ²)",
          {},
          {{}},
          [](const SpaceParams&) { return wrap_manifold("se2", SE2<double>()); }};
}

SpaceInfo e2_space() {
  return {"e2",
          "the Euclidean group E(2) = O(2) ⋉ ℝ² (reflections too), left-invariant metric",
          {},
          {{}},
          [](const SpaceParams&) { return wrap_manifold("e2", E2<double>()); }};
}

}  // namespace gyre::detail

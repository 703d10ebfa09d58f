// The rows of `so2`, `o2`, `so` and `o` in the table of spaces (registered_spaces.inc).
#include "../space_params.hpp"
#include "o/o.hpp"
#include "o2/o2.hpp"
#include "so/so.hpp"
#include "so2/so2.hpp"

namespace gyre::detail {

SpaceInfo so2_space() {
  return {"so2", "the rotation group SO(2), 2×2 matrices, metric ½·tr(UᵀV)", {}, {{}}, [](const SpaceParams&) {
            return wrap_manifold("so2", SO2<double>());
          }};
}

SpaceInfo o2_space() {
  return {"o2", "the orthogonal group O(2) (reflections too), 2×2 matrices", {}, {{}}, [](const SpaceParams&) {
            return wrap_manifold("o2", O2<double>());
          }};
}

SpaceInfo so_space() {
  return {
      "so",
      "the rotation group SO(n), n×n matrices, metric ½·tr(UᵀV)",
      {"n"},
      {{{"n", 3}}, {{"n", 4}}},
      [](const SpaceParams& params) { return wrap_manifold("so", SO<double>(integer_param("so", params, "n", 2))); }};
}

SpaceInfo o_space() {
  return {"o",
          "the orthogonal group O(n) (both components), n×n matrices",
          {"n"},
          {{{"n", 4}}, {{"n", 3}}},
          [](const SpaceParams& params) { return wrap_manifold("o", O<double>(integer_param("o", params, "n", 2))); }};
}

}  // namespace gyre::detail

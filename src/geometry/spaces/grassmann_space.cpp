// The row of `grassmann` in the table of spaces (registered_spaces.inc): Gr(n, p) with points as
// n×p orthonormal bases.
#include "../space_params.hpp"
#include "grassmann/grassmann.hpp"

namespace gyre::detail {

SpaceInfo grassmann_space() {
  return {"grassmann",
          "the Grassmannian Gr(n, p), points n×p orthonormal bases, dist = √(Σθᵢ²) over the principal angles",
          {"n", "p"},
          {{{"n", 5}, {"p", 2}}, {{"n", 3}, {"p", 1}}},
          [](const SpaceParams& params) {
            return wrap_manifold("grassmann", Grassmann<double>(integer_param("grassmann", params, "n", 2),
                                                                integer_param("grassmann", params, "p", 1)));
          }};
}

}  // namespace gyre::detail

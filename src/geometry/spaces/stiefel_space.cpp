// The row of `stiefel` in the table of spaces (registered_spaces.inc): St(n, p) with points as n×p
// orthonormal frames, Euclidean metric.
#include "../space_params.hpp"
#include "stiefel/stiefel.hpp"

namespace gyre::detail {

SpaceInfo stiefel_space() {
  return {"stiefel",
          "the Stiefel manifold St(n, p) of orthonormal n×p frames, Euclidean metric tr(UᵀV); log by shooting, "
          "defined within the injectivity radius π; transport by projection",
          {"n", "p"},
          {{{"n", 5}, {"p", 2}}, {{"n", 4}, {"p", 1}}},
          [](const SpaceParams& params) {
            return wrap_manifold("stiefel", Stiefel<double>(integer_param("stiefel", params, "n", 2),
                                                            integer_param("stiefel", params, "p", 1)));
          }};
}

}  // namespace gyre::detail

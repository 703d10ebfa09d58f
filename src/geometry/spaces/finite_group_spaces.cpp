// The rows of `cn` and `dn` in the table of spaces (registered_spaces.inc): finite groups, whose
// elements travel as integers and which have no manifold operations.
#include "../space_params.hpp"
#include "cn/cn.hpp"
#include "dn/dn.hpp"

namespace gyre::detail {

SpaceInfo cn_space() {
  return {"cn",
          "the cyclic group C_N of rotations by 2πk/N",
          {"N"},
          {{{"N", 8}}, {{"N", 1}}},
          [](const SpaceParams& params) {
            return wrap_finite_group("cn", CN<double>(integer_param("cn", params, "N", 1)));
          }};
}

SpaceInfo dn_space() {
  return {"dn",
          "the dihedral group D_N of order 2N (rotations and flips x ↦ −x)",
          {"N"},
          {{{"N", 4}}, {{"N", 1}}},
          [](const SpaceParams& params) {
            return wrap_finite_group("dn", DN<double>(integer_param("dn", params, "N", 1)));
          }};
}

}  // namespace gyre::detail

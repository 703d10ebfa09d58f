// The registry of spaces `make_space` (and so `gyre geom` and `gyre demo`) knows by name.
// Adding a geometry: include its header, add one SpaceInfo row and one factory branch.
#include <cmath>

#include "gyre/geometry/any_manifold.hpp"
#include "gyre/geometry/any_manifold_model.hpp"
#include "cn/cn.hpp"
#include "dn/dn.hpp"
#include "e2/e2.hpp"
#include "se2/se2.hpp"
#include "o/o.hpp"
#include "o2/o2.hpp"
#include "so/so.hpp"
#include "so2/so2.hpp"
#include "sphere/sphere.hpp"

namespace gyre {

namespace {

// An integer parameter, checked: present, integral, and at least `minimum`.
int integer_param(const std::string& space, const SpaceParams& params, const std::string& key, int minimum) {
  const auto it = params.find(key);
  if (it == params.end()) throw DomainError("make_space", "space " + space + " needs the parameter", key);
  const double value = it->second;
  if (!(value == std::round(value)) || value < minimum || value > 1e6) {
    throw DomainError("make_space",
                      "parameter " + key + " of " + space + " must be an integer ≥ " + std::to_string(minimum), value);
  }
  return static_cast<int>(value);
}

template <class Space>
AnyManifold manifold(const std::string& name, Space space) {
  return AnyManifold(name, std::make_shared<ManifoldModel<Space>>(name, std::move(space)));
}

template <class Group>
AnyManifold finite_group(const std::string& name, Group group) {
  return AnyManifold(name, std::make_shared<FiniteGroupModel<Group>>(name, std::move(group)));
}

}  // namespace

const std::vector<SpaceInfo>& registered_spaces() {
  static const std::vector<SpaceInfo> spaces = {
      {"sphere", "the sphere Sⁿ ⊂ ℝⁿ⁺¹, round metric", {"n"}, {{"n", 3}}},
      {"so2", "the rotation group SO(2), 2×2 matrices, metric ½·tr(UᵀV)", {}, {}},
      {"o2", "the orthogonal group O(2) (reflections too), 2×2 matrices", {}, {}},
      {"so", "the rotation group SO(n), n×n matrices, metric ½·tr(UᵀV)", {"n"}, {{"n", 3}}},
      {"o", "the orthogonal group O(n) (both components), n×n matrices", {"n"}, {{"n", 4}}},
      {"se2", "the rigid motions SE(2) of the plane, left-invariant metric (= SO(2) × ℝ²)", {}, {}},
      {"e2", "the Euclidean group E(2) = O(2) ⋉ ℝ² (reflections too), left-invariant metric", {}, {}},
      {"cn", "the cyclic group C_N of rotations by 2πk/N", {"N"}, {{"N", 8}}},
      {"dn", "the dihedral group D_N of order 2N (rotations and flips x ↦ −x)", {"N"}, {{"N", 4}}},
  };
  return spaces;
}

AnyManifold make_space(const std::string& name, const SpaceParams& params) {
  if (name == "sphere") return manifold(name, Sphere<double>(integer_param(name, params, "n", 1)));
  if (name == "so2") return manifold(name, SO2<double>());
  if (name == "o2") return manifold(name, O2<double>());
  if (name == "so") return manifold(name, SO<double>(integer_param(name, params, "n", 2)));
  if (name == "o") return manifold(name, O<double>(integer_param(name, params, "n", 2)));
  if (name == "se2") return manifold(name, SE2<double>());
  if (name == "e2") return manifold(name, E2<double>());
  if (name == "cn") return finite_group(name, CN<double>(integer_param(name, params, "N", 1)));
  if (name == "dn") return finite_group(name, DN<double>(integer_param(name, params, "N", 1)));
  throw DomainError("make_space", "unknown space", name);
}

}  // namespace gyre

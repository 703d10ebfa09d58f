// The registry of spaces `make_space` (and so `gyre geom` and `gyre selfcheck`) knows by name: the
// rows listed in spaces/registered_spaces.inc, each defined in a file of spaces/ (one file per
// family, so that no translation unit instantiates every geometry).
#include "gyre/core/error.hpp"
#include "gyre/geometry/any_manifold.hpp"
#include "gyre/geometry/batch_space.hpp"

namespace gyre {

namespace detail {
#define GYRE_SPACE(x) SpaceInfo x##_space();
#include "spaces/registered_spaces.inc"
#undef GYRE_SPACE
}  // namespace detail

const std::vector<SpaceInfo>& registered_spaces() {
  static const std::vector<SpaceInfo> spaces = {
#define GYRE_SPACE(x) detail::x##_space(),
#include "spaces/registered_spaces.inc"
#undef GYRE_SPACE
  };
  return spaces;
}

AnyManifold make_space(const std::string& name, const SpaceParams& params) {
  for (const SpaceInfo& info : registered_spaces()) {
    if (info.name == name) return info.make(params);
  }
  throw DomainError("make_space", "unknown space", name);
}

std::shared_ptr<const BatchSpace<double>> make_batch_space(const std::string& name, const SpaceParams& params) {
  return make_space(name, params).batch_space();
}

}  // namespace gyre

// Every space of the registry runs on its BatchSpace: AnyManifold's one point is the BatchSpace's
// array without leading axes (here, not in tests/geometry: the sanitizer presets build the registry
// only with the tools).
#include <cmath>

#include <doctest/doctest.h>

#include "gyre/core/error.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/geometry/any_manifold.hpp"
#include "gyre/geometry/batch_space.hpp"
#include "support/test_support.hpp"

namespace {

TEST_CASE("the registry's spaces run on their BatchSpace") {
  gyre::Rng rng(gyre::test::seeds(1)[0]);
  for (const gyre::SpaceInfo& info : gyre::registered_spaces()) {
    for (const gyre::SpaceParams& params : info.families) {
      CAPTURE(info.name);
      const gyre::AnyManifold space = info.make(params);
      if (!space.is_manifold()) {
        CHECK_THROWS_AS((void)space.batch_space(), gyre::DomainError);
        continue;
      }
      const auto batch = gyre::make_batch_space(info.name, params);
      REQUIRE(batch);
      CHECK(batch->dim() == space.dim());
      // AnyManifold's one point is the BatchSpace's array without leading axes.
      const gyre::AnyManifold::DynMatrix x = space.random_point(rng);
      const gyre::AnyManifold::DynMatrix v = 0.2 * space.random_tangent(x, rng);
      const gyre::AnyManifold::DynMatrix y = space.exp(x, v);
      CHECK(space.dist(x, y) == doctest::Approx(space.norm(x, v)).epsilon(1e-9));
      CHECK((space.log(x, y) - v).norm() <= 1e-9 * std::max(1.0, v.norm()));
    }
  }
  CHECK_THROWS_WITH_AS((void)gyre::make_batch_space("cn", {{"N", 4}}), doctest::Contains("not a manifold"),
                       gyre::DomainError);
  CHECK_THROWS_WITH_AS((void)gyre::make_space("klein_bottle", {}), doctest::Contains("unknown space"),
                       gyre::DomainError);
}

}  // namespace

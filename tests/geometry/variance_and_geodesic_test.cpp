// Fréchet variance and geodesic interpolation, written once against the interface, checked on
// spaces of both signs of curvature (hyperbolic space, SPD with AIM, the sphere).
#include <doctest/doctest.h>

#include "gyre/geometry/frechet_mean.hpp"
#include "gyre/geometry/frechet_variance.hpp"
#include "gyre/geometry/geodesic.hpp"
#include "hyperboloid/hyperboloid.hpp"
#include "spd/affine_invariant.hpp"
#include "sphere/sphere.hpp"
#include "support/test_support.hpp"

namespace {

template <class M>
void check_geodesics(const M& m) {
  for (const std::uint64_t seed : gyre::test::seeds(100)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    const auto x = m.random_point(rng);
    const auto y = m.random_point(rng);
    const double d = m.dist(x, y);
    const auto path = gyre::geodesic_path(m, x, y, 5);
    REQUIRE(path.size() == 5);
    // Endpoints, and distances proportional to t along a minimising geodesic (relative 1e-12).
    CHECK(gyre::test::relative_gap(path.front(), x) == 0);
    CHECK(gyre::test::relative_gap(path.back(), y) <= 1e-12);
    for (int i = 1; i < 4; ++i) {
      const double t = i / 4.0;
      CHECK(std::abs(m.dist(x, path[static_cast<std::size_t>(i)]) - t * d) <= 1e-12 * (1 + d));
      CHECK(std::abs(m.dist(path[static_cast<std::size_t>(i)], y) - (1 - t) * d) <= 1e-12 * (1 + d));
      CHECK(gyre::test::relative_gap(gyre::geodesic_point(m, x, y, t), path[static_cast<std::size_t>(i)]) <= 1e-14);
    }
  }
}

}  // namespace

TEST_CASE("geodesic interpolation: γ(t) splits the distance in the ratio t : 1 − t") {
  check_geodesics(gyre::Hyperboloid<double>(3));
  check_geodesics(gyre::SpdAffineInvariant<double>(3));
  check_geodesics(gyre::Sphere<double>(2));
}

TEST_CASE("Fréchet variance: zero for one point, d²/4 for two points about their midpoint, weighted") {
  const gyre::Hyperboloid<double> h(2);
  gyre::Rng rng(4);
  const auto x = h.random_point(rng);
  const auto y = h.random_point(rng);
  CHECK(gyre::frechet_variance(h, x, {x}) == 0);
  const auto mid = gyre::geodesic_point(h, x, y, 0.5);
  const double d = h.dist(x, y);
  // The midpoint exp_x(½ log_x y) carries the hyperboloid's rounding, which grows with the
  // coordinates (x₀ up to ~4 for these points): 1e-12 relative.
  CHECK(gyre::frechet_variance(h, mid, {x, y}) == doctest::Approx(d * d / 4).epsilon(1e-12));
  // Weights 3 : 1 about x: (3·0 + 1·d²)/4.
  CHECK(gyre::frechet_variance(h, x, {x, y}, {3.0, 1.0}) == doctest::Approx(d * d / 4).epsilon(1e-12));  // as above
  // The mean minimises the variance: any other centre gives more.
  const std::vector<gyre::Vector<double>> points{x, y, h.random_point(rng), h.random_point(rng)};
  const auto mean = gyre::frechet_mean(h, points).point;
  const double at_mean = gyre::frechet_variance(h, mean, points);
  for (int i = 0; i < 20; ++i) {
    const auto other = h.exp(mean, gyre::Vector<double>(h.random_tangent(mean, rng) * 0.1));
    CHECK(gyre::frechet_variance(h, other, points) > at_mean);
  }
  CHECK_THROWS_AS((void)gyre::frechet_variance(h, x, {}), gyre::ShapeError);
  CHECK_THROWS_AS((void)gyre::frechet_variance(h, x, {x, y}, {1.0, -1.0}), gyre::DomainError);
  CHECK_THROWS_AS((void)gyre::geodesic_path(h, x, y, 1), gyre::DomainError);
}

// The generic Fréchet mean: closed forms on the sphere, weights, stopping, and errors.
#include "gyre/geometry/frechet_mean.hpp"

#include <limits>

#include <doctest/doctest.h>

#include "sphere/sphere.hpp"
#include "support/test_support.hpp"

TEST_CASE_TEMPLATE("frechet_mean: two weighted points meet on their geodesic at the weight's fraction", T, float,
                   double) {
  const gyre::Sphere<T> sphere(3);
  for (const std::uint64_t seed : gyre::test::seeds(200)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    const auto x = sphere.random_point(rng);
    gyre::Vector<T> v = sphere.random_tangent(x, rng);
    v *= rng.uniform<T>(T(0.1), T(1.5)) / v.norm();
    const auto y = sphere.exp(x, v);
    const T w = rng.uniform<T>(T(0.05), T(0.95));
    // The minimiser of (1 − w)·d(m, x)² + w·d(m, y)² on the geodesic is exp(x, w·v).
    const auto mean = gyre::frechet_mean(sphere, {x, y}, {1 - w, w});
    // Converged to the rounding floor of a few well-conditioned operations.
    CHECK(gyre::test::relative_gap(mean.point, sphere.exp(x, w * v)) <= gyre::test::tol<T>(1e-14, 2e-6f));
  }
}

TEST_CASE("frechet_mean: one point is its own mean after one iteration") {
  const gyre::Sphere<double> sphere(2);
  const gyre::Vector<double> x = gyre::Vector<double>::Unit(3, 2);
  const auto mean = gyre::frechet_mean(sphere, {x});
  CHECK(mean.point == x);
  CHECK(mean.iterations == 1);
  CHECK(mean.last_step_norm == 0);
}

TEST_CASE("frechet_mean: bad input and an exhausted budget are Gyre errors") {
  const gyre::Sphere<double> sphere(2);
  const gyre::Vector<double> x = gyre::Vector<double>::Unit(3, 0);
  const gyre::Vector<double> y = gyre::Vector<double>::Unit(3, 1);
  CHECK_THROWS_WITH_AS(gyre::frechet_mean(sphere, {}), "gyre::frechet_mean: needs at least one point (0)",
                       gyre::ShapeError);
  CHECK_THROWS_WITH_AS(gyre::frechet_mean(sphere, {x, y}, {1.0}),
                       "gyre::frechet_mean: needs one weight per point (1 weights, 2 points)", gyre::ShapeError);
  CHECK_THROWS_AS(gyre::frechet_mean(sphere, {x, y}, {1.0, -1.0}), gyre::DomainError);
  CHECK_THROWS_AS(gyre::frechet_mean(sphere, {x, y}, {0.0, 0.0}), gyre::DomainError);
  CHECK_THROWS_AS(gyre::frechet_mean(sphere, {x, gyre::Vector<double>(2 * y)}), gyre::DomainError);
  gyre::FrechetMeanOptions one_step;
  one_step.max_iterations = 1;
  const gyre::Vector<double> z = gyre::Vector<double>::Unit(3, 2);
  CHECK_THROWS_AS(gyre::frechet_mean(sphere, {x, y, z}, {0.2, 0.3, 0.5}, one_step), gyre::ConvergenceError);
  // A budget of no iterations, or a tolerance that is no number, is the caller's error, not a
  // failure to converge.
  gyre::FrechetMeanOptions no_budget;
  no_budget.max_iterations = 0;
  CHECK_THROWS_WITH_AS(gyre::frechet_mean(sphere, {x, y}, {}, no_budget),
                       "gyre::frechet_mean: max_iterations must be at least 1 (0)", gyre::DomainError);
  for (const double tolerance :
       {-1.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    gyre::FrechetMeanOptions bad_tolerance;
    bad_tolerance.tolerance = tolerance;
    CHECK_THROWS_AS(gyre::frechet_mean(sphere, {x, y}, {}, bad_tolerance), gyre::DomainError);
  }
}

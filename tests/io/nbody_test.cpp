// The charged n-body simulator behind `gyre demo symmetry`'s point-cloud task: energy and momentum
// conservation, E(d)-equivariance of the dynamics, a two-body closed form, determinism, bad input.

#include "gyre/io/nbody.hpp"

#include <cmath>
#include <limits>

#include <Eigen/QR>
#include <doctest/doctest.h>

#include "gyre/core/error.hpp"
#include "gyre/core/rng.hpp"
#include "support/test_support.hpp"

using gyre::Matrix;

namespace {

void random_state(int p, int d, std::uint64_t seed, Matrix<double>& x, Matrix<double>& v) {
  gyre::Rng rng(seed);
  x = rng.normal_matrix<double>(p, d);
  v = 0.5 * rng.normal_matrix<double>(p, d);
}

}  // namespace

TEST_CASE("advance_nbody: momentum is conserved and the energy error is second order, on 20 seeded systems") {
  // Forces are antisymmetric pairs, so Σv is conserved to rounding. Verlet's energy error is O(dt²):
  // halving dt must cut it by ≥ 3 (4 asymptotically; close encounters of the softened charges keep
  // it above 1e-5 at dt = 1e-3, so the order, not a fixed bound, is what is tested).
  for (const int d : {2, 3}) {
    for (const std::uint64_t seed : gyre::test::seeds(10)) {
      CAPTURE(d);
      CAPTURE(seed);
      const std::vector<double> q{1, -1, 1, -1, 1};
      double errors[2] = {0, 0};
      for (const int refine : {0, 1}) {
        gyre::io::NBodyOptions options;
        options.dimension = d;
        options.steps = 1000 << refine;
        Matrix<double> x, v;
        random_state(5, d, seed, x, v);
        const double e0 = gyre::io::nbody_energy(x, v, q, options.softening);
        const Eigen::RowVectorXd momentum = v.colwise().sum();
        gyre::io::advance_nbody(x, v, q, options);
        errors[refine] = std::abs(gyre::io::nbody_energy(x, v, q, options.softening) - e0);
        CHECK((v.colwise().sum() - momentum).norm() <= 1e-12 * (1 + momentum.norm()) * options.steps);
      }
      CAPTURE(errors[0]);
      CAPTURE(errors[1]);
      CHECK((errors[1] <= errors[0] / 3 || errors[0] <= 1e-12));
    }
  }
}

TEST_CASE("advance_nbody: the dynamics commute with rotations, reflections and translations") {
  // x ↦ Qx + b, v ↦ Qv before or after: the same state, to rounding over 1000 steps (1e-10).
  gyre::io::NBodyOptions options;
  for (const std::uint64_t seed : gyre::test::seeds(5)) {
    CAPTURE(seed);
    Matrix<double> x, v;
    random_state(5, 3, seed, x, v);
    gyre::Rng rng(seed + 1);
    const Matrix<double> q = Eigen::HouseholderQR<Matrix<double>>(rng.normal_matrix<double>(3, 3)).householderQ();
    const Eigen::RowVectorXd b = rng.normal_matrix<double>(1, 3);
    const std::vector<double> charges{1, -1, 1, -1, 1};
    Matrix<double> gx = (x * q.transpose()).rowwise() + b, gv = v * q.transpose();
    gyre::io::advance_nbody(x, v, charges, options);
    gyre::io::advance_nbody(gx, gv, charges, options);
    CHECK(((x * q.transpose()).rowwise() + b - gx).norm() <= 1e-10 * x.norm());
    CHECK((v * q.transpose() - gv).norm() <= 1e-10 * v.norm());
  }
}

TEST_CASE("advance_nbody: two opposite charges at rest fall together along their line, as the closed form says") {
  // Separation r(t) from rest obeys r̈ = −2/(r² + ε²)·r/√(r² + ε²): energy gives
  // ṙ² = 4·(1/√(r² + ε²) − 1/√(r₀² + ε²)). Check that invariant at T along the computed motion.
  gyre::io::NBodyOptions options;
  options.dimension = 2;
  options.duration = 0.5;
  Matrix<double> x(2, 2), v = Matrix<double>::Zero(2, 2);
  x << -1, 0, 1, 0;
  gyre::io::advance_nbody(x, v, {1, -1}, options);
  const double r = x(1, 0) - x(0, 0), rdot = v(1, 0) - v(0, 0), e = options.softening;
  CHECK(x.col(1).norm() == 0.0);  // no force across the line
  CHECK(r < 2);
  CHECK(rdot * rdot == doctest::Approx(4 * (1 / std::sqrt(r * r + e * e) - 1 / std::sqrt(4 + e * e))).epsilon(1e-6));
}

TEST_CASE("simulate_nbody: layout, determinism and bad settings") {
  gyre::io::NBodyOptions options;
  options.steps = 50;
  const auto a = gyre::io::simulate_nbody(4, options, 7);
  const auto b = gyre::io::simulate_nbody(4, options, 7);
  CHECK(a.states.shape() == std::vector<std::size_t>{4, 2, 5, 3});
  CHECK(a.targets.shape() == std::vector<std::size_t>{4, 1, 5, 3});
  CHECK(a.states == b.states);
  CHECK(a.targets == b.targets);
  CHECK(a.charges == std::vector<double>{1, -1, 1, -1, 1});
  for (const float value : a.targets) CHECK(std::isfinite(value));
  CHECK(gyre::io::simulate_nbody(0, options, 7).states.size() == 0);
  gyre::io::NBodyOptions bad = options;
  bad.particles = 1;
  CHECK_THROWS_AS(static_cast<void>(gyre::io::simulate_nbody(1, bad, 1)), gyre::DomainError);
  bad = options;
  bad.dimension = 4;
  CHECK_THROWS_AS(static_cast<void>(gyre::io::simulate_nbody(1, bad, 1)), gyre::DomainError);
  bad = options;
  bad.softening = 0;
  CHECK_THROWS_WITH_AS(static_cast<void>(gyre::io::simulate_nbody(1, bad, 1)),
                       doctest::Contains("duration and softening must be finite and > 0"), gyre::DomainError);
  bad = options;
  bad.duration = std::numeric_limits<double>::infinity();
  CHECK_THROWS_AS(static_cast<void>(gyre::io::simulate_nbody(1, bad, 1)), gyre::DomainError);
  Matrix<double> x = Matrix<double>::Zero(3, 3), v = Matrix<double>::Zero(3, 3);
  CHECK_THROWS_AS(gyre::io::advance_nbody(x, v, {1, -1}, options), gyre::ShapeError);
  x(0, 0) = std::nan("");
  CHECK_THROWS_AS(gyre::io::advance_nbody(x, v, {1, -1, 1}, options), gyre::DomainError);
  // Huge coordinates: forces vanish, particles drift; nothing overflows.
  x = Matrix<double>::Identity(3, 3) * 1e300;
  v = Matrix<double>::Zero(3, 3);
  gyre::io::advance_nbody(x, v, {1, -1, 1}, options);
  CHECK(x.allFinite());
  CHECK(v.norm() == 0.0);
}

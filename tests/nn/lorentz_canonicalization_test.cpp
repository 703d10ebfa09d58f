// Orbit canonicalization under SO⁺(1,3): Λ*(M·P) = M·Λ*(P) and invariant canonical momenta on
// seeded random sets (the invariance error reported), the optimizer's stopping point, and bad input.

#include "gyre/nn/lorentz_canonicalization.hpp"

#include <cmath>

#include <doctest/doctest.h>

#include "gyre/core/error.hpp"
#include "gyre/core/rng.hpp"
#include "lorentz/lorentz.hpp"
#include "support/test_support.hpp"

using gyre::Matrix;

namespace {

// n momenta with masses in [0, 1] (some massless) and spatial parts N(0, 1)³.
Matrix<double> random_momenta(int n, gyre::Rng& rng) {
  Matrix<double> p(n, 4);
  for (int i = 0; i < n; ++i) {
    const double mass = i % 3 == 2 ? 0.0 : rng.uniform(0.1, 1.0);
    for (int k = 1; k < 4; ++k) p(i, k) = rng.normal<double>();
    p(i, 0) = std::sqrt(mass * mass + p.row(i).tail(3).squaredNorm());
  }
  return p;
}

}  // namespace

TEST_CASE("canonical_lorentz_frame: Λ*(M·P) = M·Λ*(P) and the canonical momenta are invariant") {
  const gyre::Lorentz<double> group(1.5);
  double worst = 0;
  for (const std::uint64_t seed : gyre::test::seeds(50)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    const Matrix<double> p = random_momenta(3 + static_cast<int>(seed % 4), rng);
    const Matrix<double> m = group.random_point(rng);
    const Matrix<double> moved = (m * p.transpose()).transpose();
    const auto frame = gyre::nn::canonical_lorentz_frame(p);
    const auto moved_frame = gyre::nn::canonical_lorentz_frame(moved);
    CHECK(frame.gradient <= 1e-12);
    const Matrix<double> eta = gyre::minkowski_metric<double>();
    CHECK((frame.transform.transpose() * eta * frame.transform - eta).norm() <= 1e-11 * frame.transform.squaredNorm());
    const Matrix<double> q = gyre::nn::canonicalize_lorentz(p, frame);
    const Matrix<double> moved_q = gyre::nn::canonicalize_lorentz(moved, moved_frame);
    const double error = (q - moved_q).norm() / q.norm();
    worst = std::max(worst, error);
    // Newton to ‖∇c‖ ≤ 1e-12·Σq⁰, through boosts of rapidity ≤ 1.5 (entries ≤ cosh 1.5 ≈ 2.4): 1e-9.
    CHECK(error <= 1e-9);
    CHECK((moved_frame.transform - m * frame.transform).norm() <= 1e-9 * (m * frame.transform).norm());
  }
  MESSAGE("SO⁺(1,3) canonicalization, worst relative invariance error over 50 sets: " << worst);
}

TEST_CASE("canonical_lorentz_frame: a canonical set is its own canonical form") {
  gyre::Rng rng(9);
  const Matrix<double> p = random_momenta(5, rng);
  const Matrix<double> q = gyre::nn::canonicalize_lorentz(p, gyre::nn::canonical_lorentz_frame(p));
  const auto again = gyre::nn::canonical_lorentz_frame(q);
  CHECK((again.transform - Matrix<double>::Identity(4, 4)).norm() <= 1e-9);
  // The alignment: q₁ has no x or y part beyond what the energy trades, and q₂ lies in x ≥ 0.
  CHECK(q(1, 1) > 0);
}

TEST_CASE("canonical_lorentz_frame: bad input names the condition and the value") {
  gyre::Rng rng(3);
  const Matrix<double> p = random_momenta(3, rng);
  CHECK_THROWS_AS(static_cast<void>(gyre::nn::canonical_lorentz_frame(p.topRows(1))), gyre::ShapeError);
  CHECK_THROWS_AS(static_cast<void>(gyre::nn::canonical_lorentz_frame(p.leftCols(3))), gyre::ShapeError);
  Matrix<double> spacelike = p;
  spacelike(1, 0) = 0.5 * spacelike.row(1).tail(3).norm();
  CHECK_THROWS_WITH_AS(static_cast<void>(gyre::nn::canonical_lorentz_frame(spacelike)),
                       doctest::Contains("momentum 1 is not future-directed causal"), gyre::DomainError);
  Matrix<double> nan = p;
  nan(0, 2) = std::nan("");
  CHECK_THROWS_AS(static_cast<void>(gyre::nn::canonical_lorentz_frame(nan)), gyre::DomainError);
  Matrix<double> collinear(2, 4);
  collinear << 1, 0, 0, 1, 2, 0, 0, 2;  // two massless momenta along z: P·P = 0
  CHECK_THROWS_WITH_AS(static_cast<void>(gyre::nn::canonical_lorentz_frame(collinear)),
                       doctest::Contains("the total momentum must be timelike"), gyre::DomainError);
  gyre::nn::LorentzCanonicalizationOptions wide;
  wide.alignment = 0.7;
  CHECK_THROWS_AS(static_cast<void>(gyre::nn::canonical_lorentz_frame(p, wide)), gyre::DomainError);
  // Scale: momenta at 1e150 and 1e-150 canonicalize as the unit-scale set does (c is linear in Q).
  const auto unit = gyre::nn::canonical_lorentz_frame(p);
  for (const double s : {1e150, 1e-150}) {
    CAPTURE(s);
    CHECK((gyre::nn::canonical_lorentz_frame(p * s).transform - unit.transform).norm() <= 1e-9);
  }
}

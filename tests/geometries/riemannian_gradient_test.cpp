// egrad_to_rgrad of every geometry against the metric-solve reference (geometry/metric_gradient.hpp):
// the closed forms (projection, P·sym(G)·P, conformal and Minkowski factors, Cholesky and
// Daleckii–Krein pull-backs) must equal the R ∈ T_x with ⟨R, W⟩ₓ = ⟨G, W⟩_F found by solving the
// metric on a spanning set of T_x. The law checkers test the defining property itself for each
// geometry; this test pins each closed form to an independent computation of the same vector.

#include <string>

#include <doctest/doctest.h>

#include "e2/e2.hpp"
#include "grassmann/grassmann.hpp"
#include "grassmann/grassmann_projector.hpp"
#include "gyre/core/rng.hpp"
#include "gyre/geometry/metric_gradient.hpp"
#include "hyperboloid/hyperboloid.hpp"
#include "o/o.hpp"
#include "o2/o2.hpp"
#include "se2/se2.hpp"
#include "so/so.hpp"
#include "so2/so2.hpp"
#include "spd/affine_invariant.hpp"
#include "spd/bures_wasserstein.hpp"
#include "spd/euclidean.hpp"
#include "spd/generalized_bures_wasserstein.hpp"
#include "spd/log_cholesky.hpp"
#include "spd/log_euclidean.hpp"
#include "spd/power_deformed.hpp"
#include "sphere/sphere.hpp"
#include "stereographic/stereographic.hpp"
#include "support/test_support.hpp"

namespace {

// ‖closed form − reference‖ / max(1, ‖reference‖) over seeded points and Gaussian ambient gradients.
template <class M>
double worst_gap(const M& space, int cases = 40) {
  using Tangent = typename M::Tangent;
  double worst = 0;
  for (const std::uint64_t seed : gyre::test::seeds(cases)) {
    gyre::Rng rng(seed);
    const auto x = space.random_point(rng);
    const Tangent shape_of = space.random_tangent(x, rng);
    const Tangent g = rng.normal_matrix<typename M::Scalar>(shape_of.rows(), shape_of.cols());
    const Tangent closed = space.egrad_to_rgrad(x, g);
    const Tangent reference = gyre::riemannian_gradient_from_metric(space, x, g);
    worst = std::max(
        worst, static_cast<double>((closed - reference).norm()) / std::max(1.0, static_cast<double>(reference.norm())));
  }
  return worst;
}

}  // namespace

TEST_CASE("egrad_to_rgrad: every closed form equals the metric-solve reference (double)") {
  // Both sides are O(1)-conditioned linear algebra on small matrices, except the SPD metrics, whose
  // Gram matrices carry the points' condition numbers (random SPD points: ≤ 1e2) squared; the
  // reference's least-squares solve then loses ≈ cond²·ε ≈ 1e-12. Measured worst: 2e-13.
  constexpr double kTolerance = 1e-10;
  CHECK(worst_gap(gyre::Sphere<double>(4)) <= kTolerance);
  CHECK(worst_gap(gyre::SO<double>(3)) <= kTolerance);
  CHECK(worst_gap(gyre::O<double>(4)) <= kTolerance);
  CHECK(worst_gap(gyre::SO2<double>()) <= kTolerance);
  CHECK(worst_gap(gyre::O2<double>()) <= kTolerance);
  CHECK(worst_gap(gyre::SE2<double>()) <= kTolerance);
  CHECK(worst_gap(gyre::E2<double>()) <= kTolerance);
  CHECK(worst_gap(gyre::Hyperboloid<double>(3)) <= kTolerance);
  for (const double kappa : {-1.0, -0.3, 0.0, 0.7}) {
    CAPTURE(kappa);
    CHECK(worst_gap(gyre::Stereographic<double>(3, kappa)) <= kTolerance);
  }
  CHECK(worst_gap(gyre::Grassmann<double>(5, 2)) <= kTolerance);
  CHECK(worst_gap(gyre::GrassmannProjector<double>(5, 2)) <= kTolerance);
  CHECK(worst_gap(gyre::SpdEuclidean<double>(3)) <= kTolerance);
  CHECK(worst_gap(gyre::SpdBuresWasserstein<double>(3)) <= kTolerance);
  CHECK(worst_gap(gyre::SpdLogCholesky<double>(4)) <= kTolerance);
  for (const gyre::spd::AlphaBeta ab :
       {gyre::spd::AlphaBeta{1, 0}, gyre::spd::AlphaBeta{2, 0.5}, gyre::spd::AlphaBeta{0.5, -0.1}}) {
    CAPTURE(ab.alpha);
    CAPTURE(ab.beta);
    CHECK(worst_gap(gyre::SpdAffineInvariant<double>(3, ab)) <= kTolerance);
    CHECK(worst_gap(gyre::SpdLogEuclidean<double>(3, ab)) <= kTolerance);
  }
  gyre::Matrix<double> m(3, 3);
  m << 2.0, 0.3, 0.1, 0.3, 1.0, -0.2, 0.1, -0.2, 1.5;
  CHECK(worst_gap(gyre::SpdGeneralizedBuresWasserstein<double>(m)) <= kTolerance);
  for (const double theta : {0.5, -1.0, 2.0}) {
    CAPTURE(theta);
    CHECK(worst_gap(gyre::PowerDeformed<gyre::SpdAffineInvariant<double>>(gyre::SpdAffineInvariant<double>(3),
                                                                          theta)) <= kTolerance);
    CHECK(worst_gap(gyre::PowerDeformed<gyre::SpdLogCholesky<double>>(gyre::SpdLogCholesky<double>(3), theta)) <=
          kTolerance);
  }
}

TEST_CASE(
    "egrad_to_rgrad: P·sym(G)·P on SPD, the tangent part on the sphere, G/λ² on the ball (closed forms by hand)") {
  gyre::Matrix<double> p(2, 2);
  p << 2, 1, 1, 3;
  gyre::Matrix<double> g(2, 2);
  g << 1, 2, 0, -1;  // sym(G) = [[1, 1], [1, −1]]
  gyre::Matrix<double> expected(2, 2);
  // P·S·P with S = [[1, 1], [1, −1]]: P·S = [[3, 1], [4, −2]], (P·S)·P = [[7, 6], [6, −2]].
  expected << 7, 6, 6, -2;
  CHECK((gyre::SpdAffineInvariant<double>(2).egrad_to_rgrad(p, g) - expected).norm() <= 1e-14);
  gyre::Vector<double> x(3);
  x << 0, 0, 1;
  gyre::Vector<double> gs(3);
  gs << 1, 2, 3;
  gyre::Vector<double> tangent(3);
  tangent << 1, 2, 0;
  CHECK((gyre::Sphere<double>(2).egrad_to_rgrad(x, gs) - tangent).norm() == 0.0);
  // On the Poincaré ball (κ = −1) at the origin λ = 2, so R = G/4.
  gyre::Vector<double> origin = gyre::Vector<double>::Zero(2);
  gyre::Vector<double> g2(2);
  g2 << 4, -8;
  gyre::Vector<double> quarter(2);
  quarter << 1, -2;
  CHECK((gyre::Stereographic<double>(2, -1.0).egrad_to_rgrad(origin, g2) - quarter).norm() == 0.0);
}

TEST_CASE("egrad_to_rgrad: bad input is an error naming the function") {
  const gyre::SpdAffineInvariant<double> spd(2);
  gyre::Matrix<double> p(2, 2);
  p << 1, 0, 0, -1;  // not SPD
  CHECK_THROWS_WITH_AS(static_cast<void>(spd.egrad_to_rgrad(p, gyre::Matrix<double>::Identity(2, 2))),
                       doctest::Contains("SpdAffineInvariant::egrad_to_rgrad"), gyre::DomainError);
  gyre::Matrix<double> nan = gyre::Matrix<double>::Identity(2, 2);
  nan(0, 1) = std::nan("");
  CHECK_THROWS_WITH_AS(static_cast<void>(spd.egrad_to_rgrad(gyre::Matrix<double>::Identity(2, 2), nan)),
                       doctest::Contains("SpdAffineInvariant::egrad_to_rgrad"), gyre::DomainError);
  CHECK_THROWS_AS(
      static_cast<void>(spd.egrad_to_rgrad(gyre::Matrix<double>::Identity(2, 2), gyre::Matrix<double>::Identity(3, 3))),
      gyre::ShapeError);
  gyre::Vector<double> huge(3);
  huge << 1e300, 0, 0;
  gyre::Vector<double> north(3);
  north << 0, 0, 1;
  // A huge but finite gradient is a valid input: its tangent part is returned exactly.
  CHECK(gyre::Sphere<double>(2).egrad_to_rgrad(north, huge)(0) == 1e300);
  gyre::Vector<double> inf = huge;
  inf(0) = std::numeric_limits<double>::infinity();
  CHECK_THROWS_WITH_AS(static_cast<void>(gyre::Sphere<double>(2).egrad_to_rgrad(north, inf)),
                       doctest::Contains("Sphere::egrad_to_rgrad"), gyre::DomainError);
}

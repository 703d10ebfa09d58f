// Derivatives of geometry (gyre/core/derivatives.hpp): every VJP against central differences
// along the manifold (gyre::check::derivative_laws), near and far from the base point, and a
// checker that catches a VJP wrong by 1 %.
#include "gyre/check/derivative_laws.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

#include <doctest/doctest.h>

#include "correlation/correlation.hpp"
#include "grassmann/grassmann.hpp"
#include "gyre/core/error.hpp"
#include "gyre/linalg/haar.hpp"
#include "hyperboloid/hyperboloid.hpp"
#include "o/o.hpp"
#include "so/so.hpp"
#include "spd/spd.hpp"
#include "sphere/sphere.hpp"
#include "stereographic/stereographic.hpp"
#include "stiefel/stiefel.hpp"
#include "support/test_support.hpp"

namespace {

// Five-point differences at h = 1e-3 err by about 1e-11 (h⁴ times the fifth derivative, plus
// ε/h; measured worst 3e-11 over every space below); a wrong formula errs by its own size (1 % is
// caught below).
constexpr double kTolerance = 1e-9;

template <class M>
void check_derivatives(const M& space, gyre::check::DerivativeLawOptions options = {}) {
  const auto report = gyre::check::derivative_laws(space, gyre::test::seeds(100), options);
  for (const auto& failure : report.failures) FAIL_CHECK(failure);
  CHECK(report.laws.size() == (gyre::has_exp_log_vjp_v<M> ? 2u : 0u) + (gyre::has_transport_vjp_v<M> ? 1u : 0u));
  for (const auto& law : report.laws) {
    CAPTURE(law.law);
    CAPTURE(law.worst_seed);
    CHECK(law.cases == 100);
    CHECK(law.worst <= kTolerance);
  }
}

// The sphere with an exp VJP that is 1 % off in ∂v: what the checker exists to catch.
struct SphereWithWrongVjp : gyre::Sphere<double> {
  using gyre::Sphere<double>::Sphere;
  [[nodiscard]] gyre::ExpVjp<Point, Tangent> exp_vjp(const Point& x, const Tangent& v, const Point& g) const {
    auto vjp = gyre::Sphere<double>::exp_vjp(x, v, g);
    vjp.v *= 1.01;
    return vjp;
  }
};

}  // namespace

TEST_CASE("derivatives: the sphere's exp, log and transport VJPs, far and within 1e-3 of the base point") {
  static_assert(gyre::has_exp_log_vjp_v<gyre::Sphere<double>> && gyre::has_transport_vjp_v<gyre::Sphere<double>>);
  for (const int n : {1, 2, 5}) {
    CAPTURE(n);
    check_derivatives(gyre::Sphere<double>(n));
    gyre::check::DerivativeLawOptions near;
    near.reach = 3e-4;  // θ below 1e-3: the series branches of sinc′ and ((1 − cos)/θ²)′
    check_derivatives(gyre::Sphere<double>(n), near);
  }
}

TEST_CASE("derivatives: SPD under the affine-invariant metric, with and without an (α, β) inner product") {
  static_assert(gyre::has_exp_log_vjp_v<gyre::SpdAffineInvariant<double>> &&
                gyre::has_transport_vjp_v<gyre::SpdAffineInvariant<double>>);
  for (const int n : {1, 2, 4}) {
    CAPTURE(n);
    check_derivatives(gyre::SpdAffineInvariant<double>(n));
    check_derivatives(gyre::SpdAffineInvariant<double>(n, gyre::spd::AlphaBeta{2.0, -0.3 / n}));
  }
}

TEST_CASE("derivatives: κ-stereographic spaces for every sign of κ, far and near") {
  static_assert(gyre::has_exp_log_vjp_v<gyre::Stereographic<double>> &&
                gyre::has_transport_vjp_v<gyre::Stereographic<double>>);
  for (const double kappa : {-1.0, -0.3, 0.0, 0.5}) {
    CAPTURE(kappa);
    for (const int n : {1, 3}) {
      CAPTURE(n);
      check_derivatives(gyre::Stereographic<double>(n, kappa));
      gyre::check::DerivativeLawOptions near;
      near.reach = 1e-3;  // κ‖u‖² below the ratios' series thresholds
      check_derivatives(gyre::Stereographic<double>(n, kappa), near);
    }
  }
}

TEST_CASE("derivatives: the Grassmannian (bases), far and near (near-equal principal angles)") {
  static_assert(gyre::has_exp_log_vjp_v<gyre::Grassmann<double>> && gyre::has_transport_vjp_v<gyre::Grassmann<double>>);
  for (const auto& size : {std::pair{3, 1}, std::pair{5, 2}, std::pair{7, 3}}) {
    const int n = size.first, p = size.second;
    CAPTURE(n);
    check_derivatives(gyre::Grassmann<double>(n, p));
    gyre::check::DerivativeLawOptions near;
    near.reach = 1e-3;  // every singular value of Δ near 0: the divided differences' derivative branch
    check_derivatives(gyre::Grassmann<double>(n, p), near);
  }
}

TEST_CASE("derivatives: the hyperboloid, far and near") {
  static_assert(gyre::has_exp_log_vjp_v<gyre::Hyperboloid<double>> &&
                gyre::has_transport_vjp_v<gyre::Hyperboloid<double>>);
  for (const int n : {1, 3}) {
    CAPTURE(n);
    check_derivatives(gyre::Hyperboloid<double>(n));
    gyre::check::DerivativeLawOptions near;
    near.reach = 1e-3;  // distances below 0.002: the series branches
    check_derivatives(gyre::Hyperboloid<double>(n), near);
  }
}

TEST_CASE("derivatives: correlation matrices (the balls' through the Cholesky chart and its curvature), far and near") {
  static_assert(gyre::has_exp_log_vjp_v<gyre::Correlation<double>> &&
                gyre::has_transport_vjp_v<gyre::Correlation<double>>);
  for (const int n : {2, 3, 5}) {
    CAPTURE(n);
    check_derivatives(gyre::Correlation<double>(n));
    gyre::check::DerivativeLawOptions near;
    near.reach = 1e-3;  // the balls' series branches
    check_derivatives(gyre::Correlation<double>(n), near);
  }
}

TEST_CASE("derivatives: SO(n) and O(n), Rodrigues (n = 3) and general paths") {
  static_assert(gyre::has_exp_log_vjp_v<gyre::SO<double>> && gyre::has_transport_vjp_v<gyre::SO<double>>);
  for (const int n : {2, 3, 4, 5}) {
    CAPTURE(n);
    check_derivatives(gyre::SO<double>(n));
    gyre::check::DerivativeLawOptions near;
    near.reach = 3e-4;
    check_derivatives(gyre::SO<double>(n), near);
  }
  check_derivatives(gyre::O<double>(3));
  check_derivatives(gyre::O<double>(4));
}

TEST_CASE("derivatives: SPD under the log-Euclidean metric (second-order Daleckii–Krein), far and near") {
  static_assert(gyre::has_exp_log_vjp_v<gyre::SpdLogEuclidean<double>> &&
                gyre::has_transport_vjp_v<gyre::SpdLogEuclidean<double>>);
  for (const int n : {1, 2, 4}) {
    CAPTURE(n);
    check_derivatives(gyre::SpdLogEuclidean<double>(n));
    gyre::check::DerivativeLawOptions near;
    near.reach = 1e-3;
    check_derivatives(gyre::SpdLogEuclidean<double>(n, gyre::spd::AlphaBeta{0.5, 0.1}), near);
  }
}

TEST_CASE("derivatives: SPD under the log-Cholesky metric, far and near") {
  static_assert(gyre::has_exp_log_vjp_v<gyre::SpdLogCholesky<double>> &&
                gyre::has_transport_vjp_v<gyre::SpdLogCholesky<double>>);
  for (const int n : {1, 2, 4}) {
    CAPTURE(n);
    check_derivatives(gyre::SpdLogCholesky<double>(n));
    gyre::check::DerivativeLawOptions near;
    near.reach = 1e-3;
    check_derivatives(gyre::SpdLogCholesky<double>(n), near);
  }
}

TEST_CASE("derivatives: SPD under the Euclidean and (generalized) Bures–Wasserstein metrics") {
  static_assert(gyre::has_exp_log_vjp_v<gyre::SpdEuclidean<double>> &&
                gyre::has_transport_vjp_v<gyre::SpdEuclidean<double>>);
  static_assert(gyre::has_exp_log_vjp_v<gyre::SpdBuresWasserstein<double>> &&
                gyre::has_transport_vjp_v<gyre::SpdBuresWasserstein<double>> &&
                gyre::has_exp_log_vjp_v<gyre::SpdGeneralizedBuresWasserstein<double>>);
  // GBW's transport is BW's through the congruence φ, and so is its VJP.
  static_assert(gyre::has_transport_vjp_v<gyre::SpdGeneralizedBuresWasserstein<double>>);
  // BW's transport VJP is the discrete adjoint of its RK4 steps, exact for the computed map, so it
  // meets kTolerance: 3.4e-12 worst here. The differences see one more error: a perturbed input can
  // make transport's step doubling stop at another step count, a jump of about 1e-13 that the
  // five-point rule divides by h (worst 1.7e-10 over 3000 seeds, still inside kTolerance).
  // Their injectivity radius has no positive bound; random_point's eigenvalues lie in [e⁻¹, e], where
  // it is ≥ e⁻¹ (Euclidean: λ_min) and ≥ e^-½ (BW: √λ_min); GBW's M below rescales them by ≤ 2.
  gyre::check::DerivativeLawOptions euclidean;
  euclidean.radius = 0.35;
  gyre::check::DerivativeLawOptions bw;
  bw.radius = 0.4;
  gyre::check::DerivativeLawOptions near;
  near.radius = 0.4;
  near.reach = 1e-3;
  for (const int n : {1, 2, 4}) {
    CAPTURE(n);
    check_derivatives(gyre::SpdEuclidean<double>(n), euclidean);
    check_derivatives(gyre::SpdBuresWasserstein<double>(n), bw);
    check_derivatives(gyre::SpdBuresWasserstein<double>(n), near);
    gyre::Rng rng(7);
    const gyre::Matrix<double> q = gyre::linalg::haar_orthogonal<double>(n, rng);
    gyre::Vector<double> spectrum = gyre::Vector<double>::LinSpaced(n, 0.5, 2.0);
    const gyre::Matrix<double> m = q * spectrum.asDiagonal() * q.transpose();
    check_derivatives(gyre::SpdGeneralizedBuresWasserstein<double>(m), bw);
  }
}

TEST_CASE("derivatives: power-deformed SPD metrics (second-order Daleckii–Krein of the power)") {
  using AffineInvariant = gyre::PowerDeformed<gyre::SpdAffineInvariant<double>>;
  using LogCholesky = gyre::PowerDeformed<gyre::SpdLogCholesky<double>>;
  using Euclidean = gyre::PowerDeformed<gyre::SpdEuclidean<double>>;
  static_assert(gyre::has_exp_log_vjp_v<AffineInvariant> && gyre::has_transport_vjp_v<AffineInvariant>);
  static_assert(gyre::has_exp_log_vjp_v<LogCholesky> && gyre::has_transport_vjp_v<LogCholesky>);
  // θ-Euclidean: exp moves P^θ by |θ|·‖V‖, which stays in SPD while that is below λ_min(P^θ) ≥ e^-1.5
  // for θ ≤ 1.5 (random_point's spectrum lies in [e⁻¹, e]): radius 0.14.
  gyre::check::DerivativeLawOptions euclidean;
  euclidean.radius = 0.14;
  for (const double theta : {0.5, -0.7, 1.5}) {
    CAPTURE(theta);
    for (const int n : {1, 3}) {
      CAPTURE(n);
      check_derivatives(AffineInvariant(gyre::SpdAffineInvariant<double>(n), theta));
      check_derivatives(LogCholesky(gyre::SpdLogCholesky<double>(n), theta));
      check_derivatives(Euclidean(gyre::SpdEuclidean<double>(n), theta), euclidean);
    }
  }
}

TEST_CASE("derivatives: Stiefel (implicit log), far and near") {
  static_assert(gyre::has_exp_log_vjp_v<gyre::Stiefel<double>> && gyre::has_transport_vjp_v<gyre::Stiefel<double>>);
  for (const auto& size : {std::pair{3, 1}, std::pair{5, 2}, std::pair{4, 4}, std::pair{6, 3}}) {
    const int n = size.first, p = size.second;
    CAPTURE(n);
    CAPTURE(p);
    check_derivatives(gyre::Stiefel<double>(n, p));
    gyre::check::DerivativeLawOptions near;
    near.reach = 1e-3;
    check_derivatives(gyre::Stiefel<double>(n, p), near);
  }
}

TEST_CASE("derivatives: SPD VJPs stay exact for repeated eigenvalues") {
  // P = I and V with a repeated eigenvalue: every divided difference is a derivative f′(λ).
  const gyre::SpdAffineInvariant<double> spd(3);
  const gyre::Matrix<double> p = gyre::Matrix<double>::Identity(3, 3) * 2.0;
  gyre::Matrix<double> v = gyre::Matrix<double>::Identity(3, 3) * 0.5;
  v(2, 2) = -0.25;
  gyre::Matrix<double> g(3, 3);
  g << 1, 2, 0, -1, 0.5, 3, 0.25, 1, -2;
  const auto vjp = spd.exp_vjp(p, v, g);
  // With P = 2I, exp_P(V) = 2·expm(V/2), so ∂v = Γ ∘ sym(G) with Γ the divided differences of exp
  // at the eigenvalues of V/2 (0.25 twice: there Γ is exp′ = exp).
  const gyre::Matrix<double> sym_g = (g + g.transpose()) / 2;
  const double lambda[3] = {0.25, 0.25, -0.125};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const double divided = lambda[i] == lambda[j]
                                 ? std::exp(lambda[i])
                                 : (std::exp(lambda[i]) - std::exp(lambda[j])) / (lambda[i] - lambda[j]);
      CAPTURE(i);
      CAPTURE(j);
      CHECK(vjp.v(i, j) == doctest::Approx(divided * sym_g(i, j)).epsilon(1e-14));
    }
  }
}

TEST_CASE("derivatives: the checker catches a VJP 1 % off") {
  const auto report = gyre::check::derivative_laws(SphereWithWrongVjp(3), gyre::test::seeds(20));
  CHECK(report.at(gyre::check::derivative_law::kExpVjp).worst > 1e-3);
  CHECK(report.at(gyre::check::derivative_law::kLogVjp).worst <= kTolerance);
}

TEST_CASE(
    "derivatives: the correlation VJPs refuse NaN and misshapen cotangents and scale with 1e300 and 1e-300 ones") {
  const gyre::Correlation<double> cor(3);
  gyre::Rng rng(5);
  const gyre::Matrix<double> c = cor.random_point(rng);
  const gyre::Matrix<double> d = cor.random_point(rng);
  const gyre::Matrix<double> w = cor.random_tangent(c, rng);
  gyre::Matrix<double> nan = gyre::Matrix<double>::Ones(3, 3);
  nan(0, 1) = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH_AS(static_cast<void>(cor.exp_vjp(c, w, nan)), doctest::Contains("Correlation::exp_vjp: cotangent"),
                       gyre::DomainError);
  CHECK_THROWS_WITH_AS(static_cast<void>(cor.log_vjp(c, d, gyre::Matrix<double>::Ones(2, 2))),
                       doctest::Contains("Correlation::log_vjp: cotangent"), gyre::ShapeError);
  CHECK_THROWS_WITH_AS(static_cast<void>(cor.transport_vjp(c, d, w, nan)),
                       doctest::Contains("Correlation::transport_vjp: cotangent"), gyre::DomainError);
  // Linear in G: 1e300 and 1e-300 cotangents give the unit one's gradient scaled, finite and non-zero.
  const gyre::Matrix<double> g = gyre::Matrix<double>::Ones(3, 3);
  const auto unit = cor.log_vjp(c, d, g);
  for (const double scale : {1e300, 1e-300}) {
    CAPTURE(scale);
    const auto scaled = cor.log_vjp(c, d, gyre::Matrix<double>(scale * g));
    CHECK(scaled.x.allFinite());
    CHECK(scaled.y.allFinite());
    CHECK((scaled.x / scale - unit.x).norm() <= 1e-12 * unit.x.norm());
  }
}

TEST_CASE("derivatives: bad cotangents and antipodes are Gyre errors") {
  const gyre::Sphere<double> sphere(2);
  const gyre::Vector<double> x = gyre::Vector<double>::Unit(3, 0);
  const gyre::Vector<double> v = gyre::Vector<double>::Unit(3, 1);
  gyre::Vector<double> g = gyre::Vector<double>::Ones(3);
  CHECK_THROWS_AS(static_cast<void>(sphere.exp_vjp(x, v, gyre::Vector<double>::Ones(4))), gyre::ShapeError);
  g(1) = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_AS(static_cast<void>(sphere.exp_vjp(x, v, g)), gyre::DomainError);
  CHECK_THROWS_AS(static_cast<void>(sphere.log_vjp(x, -x, gyre::Vector<double>::Ones(3))), gyre::DomainError);
  g(1) = 1e300;  // huge but finite: a finite answer, scaled
  const auto huge = sphere.exp_vjp(x, v, g);
  CHECK(huge.x.allFinite());
  CHECK(huge.v.allFinite());
  const gyre::SpdAffineInvariant<double> spd(2);
  gyre::Matrix<double> bad = gyre::Matrix<double>::Identity(2, 2);
  bad(0, 1) = std::numeric_limits<double>::infinity();
  CHECK_THROWS_AS(
      static_cast<void>(spd.log_vjp(gyre::Matrix<double>::Identity(2, 2), gyre::Matrix<double>::Identity(2, 2), bad)),
      gyre::DomainError);
  CHECK_THROWS_AS(static_cast<void>(spd.exp_vjp(gyre::Matrix<double>::Identity(2, 2), gyre::Matrix<double>::Zero(2, 2),
                                                gyre::Matrix<double>::Identity(3, 3))),
                  gyre::ShapeError);
  const gyre::Matrix<double> eye = gyre::Matrix<double>::Identity(2, 2);
  CHECK_THROWS_AS(static_cast<void>(gyre::SpdBuresWasserstein<double>(2).log_vjp(eye, eye, bad)), gyre::DomainError);
  CHECK_THROWS_AS(static_cast<void>(gyre::SpdEuclidean<double>(2).exp_vjp(eye, eye, gyre::Matrix<double>(3, 2))),
                  gyre::ShapeError);
  const gyre::PowerDeformed<gyre::SpdAffineInvariant<double>> deformed(gyre::SpdAffineInvariant<double>(2), 0.5);
  CHECK_THROWS_AS(static_cast<void>(deformed.exp_vjp(eye, gyre::Matrix<double>::Zero(2, 2), bad)), gyre::DomainError);
  // BW's exp is undefined where I + L_P(V) is singular (V = −2P gives L = −I): its VJP says so too.
  CHECK_THROWS_WITH_AS(
      static_cast<void>(gyre::SpdBuresWasserstein<double>(2).exp_vjp(eye, gyre::Matrix<double>(-2 * eye), eye)),
      doctest::Contains("SpdBuresWasserstein::exp_vjp: the geodesic leaves SPD"), gyre::DomainError);
  // BW's transport VJP validates like its exp_vjp and log_vjp. It is linear in G and runs on G
  // divided by a power of two, so 1e300 and 1e-300 cotangents give 1e±300 times the unit one, and
  // a gradient beyond the largest double is a DomainError, not an ∞.
  const gyre::SpdBuresWasserstein<double> bw(2);
  gyre::Matrix<double> bw_q(2, 2);
  bw_q << 2, 0.5, 0.5, 1;
  gyre::Matrix<double> bw_w(2, 2);
  bw_w << 1, -0.25, -0.25, 0.5;
  CHECK_THROWS_AS(static_cast<void>(bw.transport_vjp(eye, bw_q, bw_w, gyre::Matrix<double>::Ones(3, 3))),
                  gyre::ShapeError);
  gyre::Matrix<double> nan_2x2 = gyre::Matrix<double>::Ones(2, 2);
  nan_2x2(0, 1) = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_AS(static_cast<void>(bw.transport_vjp(eye, bw_q, bw_w, nan_2x2)), gyre::DomainError);
  CHECK_THROWS_AS(static_cast<void>(bw.transport_vjp(eye, bw_q, bw_w, bad)), gyre::DomainError);
  CHECK_THROWS_AS(static_cast<void>(bw.transport_vjp(eye, bw_q, bad, eye)), gyre::DomainError);
  const auto unit = bw.transport_vjp(eye, bw_q, bw_w, gyre::Matrix<double>::Ones(2, 2));
  for (const double size : {1e300, 1e-300}) {
    CAPTURE(size);
    const auto scaled = bw.transport_vjp(eye, bw_q, bw_w, gyre::Matrix<double>::Constant(2, 2, size));
    REQUIRE((scaled.x.allFinite() && scaled.y.allFinite() && scaled.w.allFinite()));
    CHECK((scaled.x / size - unit.x).norm() <= 1e-12 * unit.x.norm());
    CHECK((scaled.y / size - unit.y).norm() <= 1e-12 * unit.y.norm());
    CHECK((scaled.w / size - unit.w).norm() <= 1e-12 * unit.w.norm());
  }
  CHECK_THROWS_WITH_AS(static_cast<void>(bw.transport_vjp(
                           eye, bw_q, bw_w, gyre::Matrix<double>::Constant(2, 2, std::numeric_limits<double>::max()))),
                       doctest::Contains("SpdBuresWasserstein::transport_vjp: the gradient is not finite"),
                       gyre::DomainError);
  const gyre::Stiefel<double> stiefel(4, 2);
  const gyre::Matrix<double> frame = gyre::Matrix<double>::Identity(4, 2);
  CHECK_THROWS_AS(static_cast<void>(stiefel.log_vjp(frame, frame, gyre::Matrix<double>::Ones(2, 4))), gyre::ShapeError);
  gyre::Matrix<double> nan_cotangent = gyre::Matrix<double>::Ones(4, 2);
  nan_cotangent(3, 1) = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_AS(static_cast<void>(stiefel.exp_vjp(frame, gyre::Matrix<double>::Zero(4, 2), nan_cotangent)),
                  gyre::DomainError);
  // A huge but finite cotangent: a finite gradient, scaled (the VJPs are linear in G).
  const auto huge_stiefel = stiefel.log_vjp(frame, frame, gyre::Matrix<double>::Constant(4, 2, 1e300));
  CHECK(huge_stiefel.x.allFinite());
  CHECK(huge_stiefel.y.allFinite());
}

namespace {

// Every VJP is linear in the cotangent G, so G·1e-300 must give 1e-300 times the gradient of G,
// not zeros or NaN from squares that underflow. The ratio is checked to 1e-10 relative: at 1e-300
// the results are normal numbers (≥ 2.2e-308), and a VJP that underflowed inside loses far more.
constexpr double kTiny = 1e-300;

template <class A, class B>
void check_scaled(const A& tiny, const B& unit) {
  REQUIRE(tiny.allFinite());
  CHECK((tiny / kTiny - unit).norm() <= 1e-10 * std::max(1.0, unit.norm()));
}

template <class M>
void check_tiny_cotangents(const M& space, std::uint64_t seed) {
  using Point = typename M::Point;
  using Tangent = typename M::Tangent;
  gyre::Rng rng(seed);
  const Point x = space.random_point(rng);
  Tangent v = space.random_tangent(x, rng);
  v *= 0.2 / space.norm(x, v);  // inside every space's radius used above
  Tangent u = space.random_tangent(x, rng);
  u *= 0.3 / space.norm(x, u);
  const Point y = space.exp(x, u);  // near enough for Stiefel's log (a shooting method)
  const Tangent w = space.random_tangent(x, rng);
  const Point g_point = space.random_point(rng);  // a cotangent of the point's shape
  const Point g = g_point / g_point.norm();
  const Tangent h = w / w.norm();
  const auto exp_unit = space.exp_vjp(x, v, g);
  const auto exp_tiny = space.exp_vjp(x, v, Point(g * kTiny));
  check_scaled(exp_tiny.x, exp_unit.x);
  check_scaled(exp_tiny.v, exp_unit.v);
  const auto log_unit = space.log_vjp(x, y, h);
  const auto log_tiny = space.log_vjp(x, y, Tangent(h * kTiny));
  check_scaled(log_tiny.x, log_unit.x);
  check_scaled(log_tiny.y, log_unit.y);
  if constexpr (gyre::has_transport_vjp_v<M>) {
    const auto transport_unit = space.transport_vjp(x, y, w, h);
    const auto transport_tiny = space.transport_vjp(x, y, w, Tangent(h * kTiny));
    check_scaled(transport_tiny.x, transport_unit.x);
    check_scaled(transport_tiny.y, transport_unit.y);
    check_scaled(transport_tiny.w, transport_unit.w);
  }
}

}  // namespace

TEST_CASE("derivatives: 1e-300 cotangents give 1e-300 times the gradient on the newer VJPs") {
  for (const std::uint64_t seed : gyre::test::seeds(5)) {
    CAPTURE(seed);
    check_tiny_cotangents(gyre::Stiefel<double>(5, 2), seed);
    check_tiny_cotangents(gyre::SpdEuclidean<double>(3), seed);
    check_tiny_cotangents(gyre::SpdBuresWasserstein<double>(3), seed);
    check_tiny_cotangents(
        gyre::SpdGeneralizedBuresWasserstein<double>(gyre::Matrix<double>(gyre::Matrix<double>::Identity(3, 3) * 1.5)),
        seed);
    check_tiny_cotangents(
        gyre::PowerDeformed<gyre::SpdAffineInvariant<double>>(gyre::SpdAffineInvariant<double>(3), 0.5), seed);
    check_tiny_cotangents(gyre::PowerDeformed<gyre::SpdLogCholesky<double>>(gyre::SpdLogCholesky<double>(3), -0.7),
                          seed);
  }
}

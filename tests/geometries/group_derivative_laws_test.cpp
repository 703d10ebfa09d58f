// Derivatives of the group and gyrogroup operations (gyre/core/group_derivatives.hpp): every VJP
// against central differences along the manifold (gyre::check::group_derivative_laws), far from
// and near the identity, a checker that catches a VJP wrong by 1 %, and the errors of bad
// cotangents.
#include "gyre/check/group_derivative_laws.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>

#include <doctest/doctest.h>

#include "correlation/correlation.hpp"
#include "grassmann/grassmann.hpp"
#include "gyre/core/error.hpp"
#include "hyperboloid/hyperboloid.hpp"
#include "o/o.hpp"
#include "so/so.hpp"
#include "spd/spd.hpp"
#include "spd/spd_groups.hpp"
#include "stereographic/stereographic.hpp"
#include "support/test_support.hpp"

namespace {

// Five-point differences at h = 1e-3 err by about 1e-11 (h⁴ times the fifth derivative, plus
// ε/h; measured worst 7e-11, SpdLogEuclideanGroup's compose, the rest ≤ 2.4e-11); a wrong formula
// errs by its own size (1 % is caught below).
constexpr double kTolerance = 1e-9;

template <class M, class Ops>
void check_group_derivatives(const M& space, const Ops& ops, gyre::check::GroupDerivativeLawOptions options = {}) {
  const auto report = gyre::check::group_derivative_laws(space, ops, gyre::test::seeds(100), options);
  for (const auto& failure : report.failures) FAIL_CHECK(failure);
  CHECK(report.laws.size() == (gyre::has_group_vjp_v<Ops> ? 2u : 0u) + (gyre::has_gyro_vjp_v<Ops> ? 4u : 0u));
  for (const auto& law : report.laws) {
    CAPTURE(law.law);
    CAPTURE(law.worst_seed);
    CHECK(law.cases == gyre::test::scaled_cases(100));
    CHECK(law.worst <= kTolerance);
  }
}

template <class M>
void check_group_derivatives(const M& space, gyre::check::GroupDerivativeLawOptions options = {}) {
  check_group_derivatives(space, space, options);
}

// Points within ~1e-3 of the identity: the series branches of the curvature ratios and of the
// Grassmannian's divided differences.
gyre::check::GroupDerivativeLawOptions near_identity() {
  gyre::check::GroupDerivativeLawOptions near;
  near.shrink = 1e-3;
  return near;
}

// The κ-stereographic space with a ⊗ VJP that is 1 % off in ∂r: what the checker exists to catch.
struct StereographicWithWrongScale : gyre::Stereographic<double> {
  using gyre::Stereographic<double>::Stereographic;
  [[nodiscard]] gyre::GyroScaleVjp<double, Point> gyro_scale_vjp(double r, const Point& x, const Point& g) const {
    auto vjp = gyre::Stereographic<double>::gyro_scale_vjp(r, x, g);
    vjp.r *= 1.01;
    return vjp;
  }
};

// SO(n) with a compose VJP that is 1 % off in ∂h.
struct SOWithWrongCompose : gyre::SO<double> {
  using gyre::SO<double>::SO;
  [[nodiscard]] gyre::ComposeVjp<Point> compose_vjp(const Point& g, const Point& h, const Point& cotangent) const {
    auto vjp = gyre::SO<double>::compose_vjp(g, h, cotangent);
    vjp.b *= 1.01;
    return vjp;
  }
};

// ‖f − d‖/max(1, ‖d‖) for a float result f and its double counterpart d.
template <class F, class D>
double precision_gap(const F& f, const D& d) {
  return (f.template cast<double>() - d).norm() / std::max(1.0, d.norm());
}

// The float VJPs against the double ones on a few cases (points from m in double, pulled
// towards the identity by `scale` ⊗ for gyro operations, whose ⊕ may be defined only near it).
template <class OpsF, class OpsD, class M>
void check_float_matches_double(const OpsF& ops_f, const OpsD& ops_d, const M& m) {
  // Float rounding (ε = 1.2e-7) amplified by the operations' condition, below 1e2 at these
  // moderate points (measured worst 2e-6).
  constexpr double kFloatTolerance = 1e-4;
  for (const std::uint64_t seed : gyre::test::seeds(5)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    auto a = m.random_point(rng);
    auto b = m.random_point(rng);
    if constexpr (gyre::has_gyro_vjp_v<OpsD>) {
      a = ops_d.gyro_scale(0.5, a);
      b = ops_d.gyro_scale(0.5, b);
    }
    const auto g = gyre::check::detail::gaussian_like(a, rng);
    const auto af = a.template cast<float>().eval();
    const auto bf = b.template cast<float>().eval();
    const auto gf = g.template cast<float>().eval();
    const auto check_pair = [&](const auto& f, const auto& d) {
      CHECK(precision_gap(f.a, d.a) <= kFloatTolerance);
      CHECK(precision_gap(f.b, d.b) <= kFloatTolerance);
    };
    if constexpr (gyre::has_group_vjp_v<OpsD>) {
      check_pair(ops_f.compose_vjp(af, bf, gf), ops_d.compose_vjp(a, b, g));
      CHECK(precision_gap(ops_f.inverse_vjp(af, gf), ops_d.inverse_vjp(a, g)) <= kFloatTolerance);
    }
    if constexpr (gyre::has_gyro_vjp_v<OpsD>) {
      check_pair(ops_f.gyro_add_vjp(af, bf, gf), ops_d.gyro_add_vjp(a, b, g));
      CHECK(precision_gap(ops_f.gyro_inverse_vjp(af, gf), ops_d.gyro_inverse_vjp(a, g)) <= kFloatTolerance);
      const auto ds = ops_d.gyro_scale_vjp(-0.7, a, g);
      const auto fs = ops_f.gyro_scale_vjp(-0.7f, af, gf);
      CHECK(std::abs(static_cast<double>(fs.r) - ds.r) / std::max(1.0, std::abs(ds.r)) <= kFloatTolerance);
      CHECK(precision_gap(fs.a, ds.a) <= kFloatTolerance);
    }
  }
}

}  // namespace

TEST_CASE("group derivatives: SO(n) and O(n) compose and inverse") {
  static_assert(gyre::has_group_vjp_v<gyre::SO<double>> && gyre::has_group_vjp_v<gyre::O<float>>);
  static_assert(!gyre::has_gyro_vjp_v<gyre::SO<double>>);
  for (const int n : {2, 3, 4, 5}) {
    CAPTURE(n);
    check_group_derivatives(gyre::SO<double>(n));
  }
  check_group_derivatives(gyre::O<double>(3));
  check_group_derivatives(gyre::O<double>(4));
}

TEST_CASE("group derivatives: LieBN's SPD Lie groups, along affine-invariant curves") {
  static_assert(gyre::has_group_vjp_v<gyre::SpdLogEuclideanGroup<double>> &&
                gyre::has_group_vjp_v<gyre::SpdLogCholeskyGroup<double>> &&
                gyre::has_group_vjp_v<gyre::SpdCholeskyGroup<float>>);
  for (const int n : {1, 2, 4}) {
    CAPTURE(n);
    const gyre::SpdAffineInvariant<double> curves(n);
    check_group_derivatives(curves, gyre::SpdLogEuclideanGroup<double>{n});
    check_group_derivatives(curves, gyre::SpdLogCholeskyGroup<double>{n});
    check_group_derivatives(curves, gyre::SpdCholeskyGroup<double>{n});
  }
}

TEST_CASE("group derivatives: SPD gyro operations under the affine-invariant, log-Euclidean, log-Cholesky metrics") {
  static_assert(gyre::has_gyro_vjp_v<gyre::SpdAffineInvariant<double>> &&
                gyre::has_gyro_vjp_v<gyre::SpdLogEuclidean<double>> &&
                gyre::has_gyro_vjp_v<gyre::SpdLogCholesky<float>>);
  for (const int n : {1, 2, 4}) {
    CAPTURE(n);
    check_group_derivatives(gyre::SpdAffineInvariant<double>(n));
    check_group_derivatives(gyre::SpdLogEuclidean<double>(n));
    check_group_derivatives(gyre::SpdLogCholesky<double>(n));
    // Near I: every divided difference at nearly repeated eigenvalues.
    check_group_derivatives(gyre::SpdAffineInvariant<double>(n), near_identity());
    check_group_derivatives(gyre::SpdLogEuclidean<double>(n), near_identity());
  }
}

TEST_CASE("group derivatives: κ-stereographic ⊕, ⊖, ⊗ for every sign of κ, far and near 0") {
  static_assert(gyre::has_gyro_vjp_v<gyre::Stereographic<double>> && gyre::has_gyro_vjp_v<gyre::Stereographic<float>>);
  for (const double kappa : {-1.0, -0.3, 0.0, 0.5, 1.0}) {
    CAPTURE(kappa);
    for (const int n : {1, 3}) {
      CAPTURE(n);
      check_group_derivatives(gyre::Stereographic<double>(n, kappa));
      check_group_derivatives(gyre::Stereographic<double>(n, kappa), near_identity());
    }
  }
}

TEST_CASE("group derivatives: the Grassmannian's ⊕, ⊖, ⊗ (bases), far and near the identity") {
  static_assert(gyre::has_gyro_vjp_v<gyre::Grassmann<double>> && gyre::has_gyro_vjp_v<gyre::Grassmann<float>>);
  for (const auto& size : {std::pair{3, 1}, std::pair{4, 2}, std::pair{5, 2}, std::pair{7, 3}}) {
    const int n = size.first, p = size.second;
    CAPTURE(n);
    CAPTURE(p);
    check_group_derivatives(gyre::Grassmann<double>(n, p));
    check_group_derivatives(gyre::Grassmann<double>(n, p), near_identity());
  }
}

TEST_CASE("group derivatives: the hyperboloid's ⊕, ⊖, ⊗ (the ball's through π and φ), far and near the origin") {
  static_assert(gyre::has_gyro_vjp_v<gyre::Hyperboloid<double>> && gyre::has_gyro_vjp_v<gyre::Hyperboloid<float>>);
  for (const int n : {1, 3}) {
    CAPTURE(n);
    check_group_derivatives(gyre::Hyperboloid<double>(n));
    check_group_derivatives(gyre::Hyperboloid<double>(n), near_identity());
  }
}

TEST_CASE("group derivatives: correlation matrices (the balls' operations through the Cholesky chart)") {
  static_assert(gyre::has_gyro_vjp_v<gyre::Correlation<double>>);
  for (const int n : {2, 3, 5}) {
    CAPTURE(n);
    check_group_derivatives(gyre::Correlation<double>(n));
    check_group_derivatives(gyre::Correlation<double>(n), near_identity());
  }
}

TEST_CASE("group derivatives: float VJPs agree with double ones") {
  check_float_matches_double(gyre::SO<float>(4), gyre::SO<double>(4), gyre::SO<double>(4));
  check_float_matches_double(gyre::O<float>(3), gyre::O<double>(3), gyre::O<double>(3));
  const gyre::SpdAffineInvariant<double> spd(3);
  check_float_matches_double(gyre::SpdLogEuclideanGroup<float>{3}, gyre::SpdLogEuclideanGroup<double>{3}, spd);
  check_float_matches_double(gyre::SpdLogCholeskyGroup<float>{3}, gyre::SpdLogCholeskyGroup<double>{3}, spd);
  check_float_matches_double(gyre::SpdCholeskyGroup<float>{3}, gyre::SpdCholeskyGroup<double>{3}, spd);
  check_float_matches_double(gyre::SpdAffineInvariant<float>(3), spd, spd);
  check_float_matches_double(gyre::SpdLogEuclidean<float>(3), gyre::SpdLogEuclidean<double>(3), spd);
  check_float_matches_double(gyre::SpdLogCholesky<float>(3), gyre::SpdLogCholesky<double>(3), spd);
  for (const double kappa : {-1.0, 0.0, 1.0}) {
    CAPTURE(kappa);
    const gyre::Stereographic<double> space(3, kappa);
    check_float_matches_double(gyre::Stereographic<float>(3, kappa), space, space);
  }
  const gyre::Grassmann<double> grassmann(5, 2);
  check_float_matches_double(gyre::Grassmann<float>(5, 2), grassmann, grassmann);
  const gyre::Correlation<double> correlation(4);
  check_float_matches_double(gyre::Correlation<float>(4), correlation, correlation);
  const gyre::Hyperboloid<double> hyperboloid(3);
  check_float_matches_double(gyre::Hyperboloid<float>(3), hyperboloid, hyperboloid);
}

TEST_CASE("group derivatives: the checker catches a VJP 1 % off") {
  const auto gyro = gyre::check::group_derivative_laws(StereographicWithWrongScale(3, -1.0), gyre::test::seeds(20));
  CHECK(gyro.at(gyre::check::group_derivative_law::kGyroScaleScalarVjp).worst > 1e-3);
  CHECK(gyro.at(gyre::check::group_derivative_law::kGyroScaleVjp).worst <= kTolerance);
  CHECK(gyro.at(gyre::check::group_derivative_law::kGyroAddVjp).worst <= kTolerance);
  const auto group = gyre::check::group_derivative_laws(SOWithWrongCompose(3), gyre::test::seeds(20));
  CHECK(group.at(gyre::check::group_derivative_law::kComposeVjp).worst > 1e-3);
  CHECK(group.at(gyre::check::group_derivative_law::kInverseVjp).worst <= kTolerance);
}

TEST_CASE("group derivatives: bad cotangents are Gyre errors naming the function") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const gyre::Matrix<double> eye2 = gyre::Matrix<double>::Identity(2, 2);
  const gyre::Matrix<double> eye3 = gyre::Matrix<double>::Identity(3, 3);
  gyre::Matrix<double> nan2 = eye2;
  nan2(1, 0) = nan;

  const gyre::SO<double> so(3);
  CHECK_THROWS_WITH_AS(static_cast<void>(so.compose_vjp(eye3, eye3, eye2)),
                       doctest::Contains("SO::compose_vjp: cotangent must be 3×3"), gyre::ShapeError);
  gyre::Matrix<double> nan3 = eye3;
  nan3(2, 2) = nan;
  CHECK_THROWS_WITH_AS(static_cast<void>(so.inverse_vjp(eye3, nan3)), doctest::Contains("SO::inverse_vjp: cotangent"),
                       gyre::DomainError);

  CHECK_THROWS_WITH_AS(static_cast<void>(gyre::SpdLogEuclideanGroup<double>{2}.compose_vjp(eye2, eye2, eye3)),
                       doctest::Contains("SpdLogEuclideanGroup::compose_vjp"), gyre::ShapeError);
  CHECK_THROWS_WITH_AS(static_cast<void>(gyre::SpdLogCholeskyGroup<double>{2}.inverse_vjp(eye2, nan2)),
                       doctest::Contains("SpdLogCholeskyGroup::inverse_vjp"), gyre::DomainError);
  CHECK_THROWS_WITH_AS(static_cast<void>(gyre::SpdCholeskyGroup<double>{2}.compose_vjp(eye2, eye2, nan2)),
                       doctest::Contains("SpdCholeskyGroup::compose_vjp"), gyre::DomainError);
  CHECK_THROWS_WITH_AS(static_cast<void>(gyre::SpdCholeskyGroup<double>{2}.inverse_vjp(eye2, eye3)),
                       doctest::Contains("SpdCholeskyGroup::inverse_vjp"), gyre::ShapeError);

  const gyre::SpdAffineInvariant<double> aim(2);
  CHECK_THROWS_WITH_AS(static_cast<void>(aim.gyro_add_vjp(eye2, eye2, nan2)),
                       doctest::Contains("SpdAffineInvariant::gyro_add_vjp"), gyre::DomainError);
  CHECK_THROWS_WITH_AS(static_cast<void>(aim.gyro_scale_vjp(nan, eye2, eye2)),
                       doctest::Contains("SpdAffineInvariant::gyro_scale_vjp: scalar must be finite"),
                       gyre::DomainError);
  CHECK_THROWS_WITH_AS(static_cast<void>(gyre::SpdLogEuclidean<double>(2).gyro_inverse_vjp(eye2, eye3)),
                       doctest::Contains("SpdLogEuclidean::gyro_inverse_vjp"), gyre::ShapeError);
  CHECK_THROWS_WITH_AS(static_cast<void>(gyre::SpdLogCholesky<double>(2).gyro_scale_vjp(0.5, eye2, nan2)),
                       doctest::Contains("SpdLogCholesky::gyro_scale_vjp"), gyre::DomainError);
  // An SPD input that is not positive definite is refused as by the operation itself.
  CHECK_THROWS_WITH_AS(static_cast<void>(aim.gyro_inverse_vjp(gyre::Matrix<double>(-eye2), eye2)),
                       doctest::Contains("SpdAffineInvariant::gyro_inverse_vjp: point is not positive definite"),
                       gyre::DomainError);

  const gyre::Stereographic<double> ball(2, -1.0);
  const gyre::Vector<double> zero = gyre::Vector<double>::Zero(2);
  CHECK_THROWS_WITH_AS(static_cast<void>(ball.gyro_add_vjp(zero, zero, gyre::Vector<double>::Zero(3))),
                       doctest::Contains("Stereographic::gyro_add_vjp: cotangent"), gyre::ShapeError);
  CHECK_THROWS_WITH_AS(static_cast<void>(ball.gyro_inverse_vjp(zero, gyre::Vector<double>::Constant(2, nan))),
                       doctest::Contains("Stereographic::gyro_inverse_vjp: cotangent"), gyre::DomainError);
  // ⊕ onto the point at infinity of the projected sphere (κ = 1: 1 ⊕ 1 = tan(π/2)): refused, as ⊕ is.
  const gyre::Stereographic<double> sphere(1, 1.0);
  const gyre::Vector<double> one = gyre::Vector<double>::Ones(1);
  CHECK_THROWS_AS(static_cast<void>(sphere.gyro_add(one, one)), gyre::DomainError);
  CHECK_THROWS_WITH_AS(static_cast<void>(sphere.gyro_add_vjp(one, one, one)),
                       doctest::Contains("Stereographic::gyro_add_vjp: the result is the point at infinity"),
                       gyre::DomainError);

  const gyre::Grassmann<double> grassmann(4, 2);
  const gyre::Matrix<double> frame = gyre::Matrix<double>::Identity(4, 2);
  CHECK_THROWS_WITH_AS(static_cast<void>(grassmann.gyro_add_vjp(frame, frame, eye2)),
                       doctest::Contains("Grassmann::gyro_add_vjp: cotangent must be 4×2"), gyre::ShapeError);
  gyre::Matrix<double> nan_frame = frame;
  nan_frame(3, 1) = nan;
  CHECK_THROWS_WITH_AS(static_cast<void>(grassmann.gyro_scale_vjp(0.5, frame, nan_frame)),
                       doctest::Contains("Grassmann::gyro_scale_vjp: cotangent"), gyre::DomainError);
  // A basis at principal angle π/2 from the identity: ⊕ and its VJP are undefined there.
  gyre::Matrix<double> far = gyre::Matrix<double>::Zero(4, 2);
  far(2, 0) = far(3, 1) = 1;
  CHECK_THROWS_WITH_AS(static_cast<void>(grassmann.gyro_inverse_vjp(far, frame)),
                       doctest::Contains("Grassmann::gyro_inverse_vjp: a principal angle is π/2"), gyre::DomainError);

  const gyre::Correlation<double> correlation(3);
  CHECK_THROWS_WITH_AS(static_cast<void>(correlation.gyro_add_vjp(eye3, eye3, eye2)),
                       doctest::Contains("Correlation::gyro_add_vjp: cotangent"), gyre::ShapeError);
  CHECK_THROWS_WITH_AS(static_cast<void>(correlation.gyro_inverse_vjp(eye3, nan3)),
                       doctest::Contains("Correlation::gyro_inverse_vjp: cotangent"), gyre::DomainError);
}

TEST_CASE("group derivatives: the hyperboloid's gyro VJPs refuse NaN, misshapen cotangents and points off H^n") {
  const gyre::Hyperboloid<double> h(2);
  const gyre::Vector<double> o = h.origin();
  gyre::Vector<double> nan = gyre::Vector<double>::Ones(3);
  nan(1) = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH_AS(static_cast<void>(h.gyro_add_vjp(o, o, nan)),
                       doctest::Contains("Hyperboloid::gyro_add_vjp: cotangent"), gyre::DomainError);
  CHECK_THROWS_WITH_AS(static_cast<void>(h.gyro_inverse_vjp(o, gyre::Vector<double>::Ones(2))),
                       doctest::Contains("Hyperboloid::gyro_inverse_vjp: cotangent"), gyre::ShapeError);
  const gyre::Vector<double> off = gyre::Vector<double>::Ones(3);  // ⟨x, x⟩_L = 1
  CHECK_THROWS_WITH_AS(static_cast<void>(h.gyro_scale_vjp(0.5, off, o)),
                       doctest::Contains("Hyperboloid::gyro_scale_vjp: point is not on the hyperboloid"),
                       gyre::DomainError);
  CHECK_THROWS_WITH_AS(static_cast<void>(h.gyro_scale_vjp(std::numeric_limits<double>::infinity(), o, o)),
                       doctest::Contains("Hyperboloid::gyro_scale_vjp: scalar must be finite"), gyre::DomainError);
  // 1e300 and 1e-300 cotangents: the unit one's gradient, scaled.
  gyre::Rng rng(3);
  const gyre::Vector<double> a = h.random_point(rng);
  const gyre::Vector<double> b = h.random_point(rng);
  const gyre::Vector<double> g = gyre::Vector<double>::Ones(3);
  const auto unit = h.gyro_add_vjp(a, b, g);
  for (const double scale : {1e300, 1e-300}) {
    CAPTURE(scale);
    const auto scaled = h.gyro_add_vjp(a, b, gyre::Vector<double>(scale * g));
    CHECK(scaled.a.allFinite());
    CHECK((scaled.a / scale - unit.a).norm() <= 1e-12 * unit.a.norm());
    CHECK((scaled.b / scale - unit.b).norm() <= 1e-12 * unit.b.norm());
  }
}

TEST_CASE("group derivatives: a huge but finite cotangent gives a finite gradient (the VJPs are linear in G)") {
  gyre::Rng rng(11);
  const double huge = 1e300;
  const auto finite_pair = [](const auto& vjp) { return vjp.a.allFinite() && vjp.b.allFinite(); };
  const auto finite_scale = [](const auto& vjp) { return std::isfinite(vjp.r) && vjp.a.allFinite(); };

  const gyre::SO<double> so(4);
  const auto g = so.random_point(rng);
  const auto h = so.random_point(rng);
  CHECK(finite_pair(so.compose_vjp(g, h, gyre::Matrix<double>::Constant(4, 4, huge))));
  CHECK(so.inverse_vjp(g, gyre::Matrix<double>::Constant(4, 4, huge)).allFinite());

  const gyre::SpdAffineInvariant<double> aim(3);
  const auto p = aim.random_point(rng);
  const auto q = aim.random_point(rng);
  const gyre::Matrix<double> big = gyre::Matrix<double>::Constant(3, 3, huge);
  CHECK(finite_pair(gyre::SpdLogEuclideanGroup<double>{3}.compose_vjp(p, q, big)));
  CHECK(gyre::SpdLogEuclideanGroup<double>{3}.inverse_vjp(p, big).allFinite());
  CHECK(finite_pair(gyre::SpdLogCholeskyGroup<double>{3}.compose_vjp(p, q, big)));
  CHECK(gyre::SpdLogCholeskyGroup<double>{3}.inverse_vjp(p, big).allFinite());
  CHECK(finite_pair(gyre::SpdCholeskyGroup<double>{3}.compose_vjp(p, q, big)));
  CHECK(gyre::SpdCholeskyGroup<double>{3}.inverse_vjp(p, big).allFinite());
  CHECK(finite_pair(aim.gyro_add_vjp(p, q, big)));
  CHECK(aim.gyro_inverse_vjp(p, big).allFinite());
  CHECK(finite_scale(aim.gyro_scale_vjp(0.7, p, big)));
  const gyre::SpdLogEuclidean<double> lem(3);
  CHECK(finite_pair(lem.gyro_add_vjp(p, q, big)));
  CHECK(finite_scale(lem.gyro_scale_vjp(-1.3, p, big)));
  const gyre::SpdLogCholesky<double> lcm(3);
  CHECK(finite_pair(lcm.gyro_add_vjp(p, q, big)));
  CHECK(lcm.gyro_inverse_vjp(p, big).allFinite());
  CHECK(finite_scale(lcm.gyro_scale_vjp(0.4, p, big)));

  for (const double kappa : {-1.0, 0.0, 1.0}) {
    CAPTURE(kappa);
    const gyre::Stereographic<double> space(3, kappa);
    const auto x = space.random_point(rng);
    const auto y = space.gyro_scale(0.3, space.random_point(rng));
    const gyre::Vector<double> gv = gyre::Vector<double>::Constant(3, huge);
    CHECK(finite_pair(space.gyro_add_vjp(x, y, gv)));
    CHECK(space.gyro_inverse_vjp(x, gv).allFinite());
    CHECK(finite_scale(space.gyro_scale_vjp(0.5, x, gv)));
  }

  const gyre::Grassmann<double> grassmann(5, 2);
  const auto u = grassmann.gyro_scale(0.3, grassmann.random_point(rng));  // near I: ⊕ is defined
  const auto v = grassmann.random_point(rng);
  const gyre::Matrix<double> tall = gyre::Matrix<double>::Constant(5, 2, huge);
  CHECK(finite_pair(grassmann.gyro_add_vjp(u, v, tall)));
  CHECK(grassmann.gyro_inverse_vjp(u, tall).allFinite());
  CHECK(finite_scale(grassmann.gyro_scale_vjp(1.2, u, tall)));

  const gyre::Correlation<double> correlation(4);
  const auto c = correlation.random_point(rng);
  const auto d = correlation.random_point(rng);
  const gyre::Matrix<double> square = gyre::Matrix<double>::Constant(4, 4, huge);
  CHECK(finite_pair(correlation.gyro_add_vjp(c, d, square)));
  CHECK(correlation.gyro_inverse_vjp(c, square).allFinite());
  CHECK(finite_scale(correlation.gyro_scale_vjp(-0.8, c, square)));
}

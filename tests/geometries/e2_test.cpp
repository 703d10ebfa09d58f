// E(2): laws on seeded cases over both components, the reflection-aware adjoint against an
// independent long-double evaluation, Eigen MatrixFunctions references for the identity component,
// the component boundary, bad input, ChecksOff, batches, the registry.
#include "e2/e2.hpp"

#include <cmath>
#include <limits>
#include <string>

#include <Eigen/LU>
#include <doctest/doctest.h>
#include <unsupported/Eigen/MatrixFunctions>

#include "gyre/check/lie_group_laws.hpp"
#include "gyre/check/manifold_laws.hpp"
#include "gyre/core/batch.hpp"
#include "gyre/geometry/any_manifold.hpp"
#include "support/test_support.hpp"

namespace {

using gyre::test::relative_gap;
using gyre::test::tol;
using Matrix3L = Eigen::Matrix<long double, 3, 3>;
using Vector3L = Eigen::Matrix<long double, 3, 1>;

const char* const kCrossComponent = "points lie in different components of E(2)";

// hat and vee written out here, independent of E2's, in long double.
template <class T>
Matrix3L hat_reference(const Eigen::Matrix<T, 3, 1>& a) {
  Matrix3L m = Matrix3L::Zero();
  m(0, 1) = -static_cast<long double>(a(2));
  m(1, 0) = static_cast<long double>(a(2));
  m(0, 2) = static_cast<long double>(a(0));
  m(1, 2) = static_cast<long double>(a(1));
  return m;
}
Vector3L vee_reference(const Matrix3L& m) { return Vector3L(m(0, 2), m(1, 2), (m(1, 0) - m(0, 1)) / 2); }

// [[R, t], [0, 1]] with R = R(θ)·diag(1, −1)^reflect.
template <class T>
gyre::Matrix3<T> motion(T theta, T tx, T ty, bool reflect) {
  gyre::Matrix3<T> g = gyre::Matrix3<T>::Identity();
  g(0, 0) = std::cos(theta);
  g(0, 1) = -std::sin(theta);
  g(1, 0) = std::sin(theta);
  g(1, 1) = std::cos(theta);
  if (reflect) g.col(1).template head<2>() *= -1;
  g(0, 2) = tx;
  g(1, 2) = ty;
  return g;
}

template <class T>
T det_rotation(const gyre::Matrix3<T>& g) {
  return g(0, 0) * g(1, 1) - g(0, 1) * g(1, 0);
}

}  // namespace

TEST_CASE_TEMPLATE("e2: the manifold laws hold within each component on seeded cases", T, float, double) {
  namespace law = gyre::check::law;
  const gyre::E2<T> e2;
  // random_point picks either component with probability ½; the checker redraws the random
  // partner y until dist(x, y) is finite, so every case pairs points of one component and
  // both components are exercised as base points.
  const auto report = gyre::check::manifold_laws(e2, gyre::test::seeds(200));
  for (const auto& failure : report.failures) FAIL(failure);
  // As SE(2): a few well-conditioned roundings on O(1) entries, 20ε budgets relative to max(1, ‖·‖).
  const T budget = tol<T>(4e-15, 3e-6f);
  gyre::test::check_law(report, law::kExpLog, budget);
  gyre::test::check_law(report, law::kLogExp, budget);
  gyre::test::check_law(report, law::kDistIsNormLog, budget);
  gyre::test::check_law(report, law::kDistSymmetric, budget);
  gyre::test::check_law(report, law::kTransportTangent, budget);
  gyre::test::check_law(report, law::kTransportIsometry, budget);
  gyre::test::check_law(report, law::kTransportVelocity, budget);
  gyre::test::check_law(report, law::kProjectIdempotent, budget);
  gyre::test::check_law(report, law::kRetractOnManifold, T(0));
}

TEST_CASE_TEMPLATE("e2: the Lie group laws hold on 200 seeded cases with reflections", T, float, double) {
  namespace law = gyre::check::law;
  const gyre::E2<T> e2;
  const auto report = gyre::check::lie_group_laws(e2, gyre::test::seeds(200));
  for (const auto& failure : report.failures) FAIL(failure);
  // Products of a few 3×3 matrices with entries ≲ 4: 20ε budgets relative to max(1, ‖·‖).
  const T budget = tol<T>(4e-15, 3e-6f);
  gyre::test::check_law(report, law::kAssociative, budget);
  gyre::test::check_law(report, law::kIdentity, budget);
  gyre::test::check_law(report, law::kInverse, budget);
  gyre::test::check_law(report, law::kVeeHat, T(0));
  gyre::test::check_law(report, law::kAlgebraLogExp, budget);
  gyre::test::check_law(report, law::kAlgebraExpLog, budget);
  gyre::test::check_law(report, law::kAdjoint, budget);
  gyre::test::check_law(report, law::kActionHomomorphism, budget);
  gyre::test::check_law(report, law::kActionIdentity, T(0));
}

TEST_CASE_TEMPLATE("e2: the adjoint of a reflection flips ω and matches a long-double g·hat(a)·g⁻¹", T, float, double) {
  using Algebra = typename gyre::E2<T>::Algebra;
  const gyre::E2<T> e2;
  const T eps = std::numeric_limits<T>::epsilon();
  // Hand case: F = diag(−1, 1) with t = (2, 3): Ad = [[F, −(3, −2)ᵀ], [0, 0, −1]].
  const gyre::Matrix3<T> f = motion(boost::math::constants::pi<T>(), T(2), T(3), true);
  gyre::Matrix3<T> expected = gyre::Matrix3<T>::Zero();
  expected(0, 0) = -1;
  expected(1, 1) = 1;
  expected(0, 2) = -3;
  expected(1, 2) = 2;
  expected(2, 2) = -1;
  CHECK(relative_gap(e2.adjoint(f), expected) <= 4 * eps);
  // Random elements of both components against g·hat(a)·g⁻¹ evaluated in long double with Eigen's inverse.
  int reflections = 0;
  for (const std::uint64_t seed : gyre::test::seeds(200)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    const auto g = e2.random_point(rng);
    const Algebra a = rng.normal_matrix<T>(3, 1);
    reflections += det_rotation(g) < 0 ? 1 : 0;
    const Matrix3L gl = g.template cast<long double>();
    const Vector3L reference = vee_reference(gl * hat_reference(a) * gl.inverse());
    // Entries ≲ 4·‖a‖; the reference is exact to long double: 8ε relative to max(1, ‖Ad a‖).
    CHECK(relative_gap((e2.adjoint(g) * a).template cast<long double>(), reference) <= 8 * eps);
  }
  CHECK(reflections > 50);
}

TEST_CASE_TEMPLATE("e2: algebra_exp lands in SE(2) and algebra_log matches Eigen on the identity component", T, float,
                   double) {
  using Algebra = typename gyre::E2<T>::Algebra;
  const gyre::E2<T> e2;
  const T pi = boost::math::constants::pi<T>();
  // Both well conditioned away from ω = π (as in se2_test): a few ε relative to max(1, ‖·‖).
  const double tolerance = tol<T>(4e-15, 3e-6f);
  for (const std::uint64_t seed : gyre::test::seeds(200)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    const Algebra a = Algebra(rng.normal_matrix<T>(3, 1)) * T(2);
    const auto g = e2.algebra_exp(a);
    CHECK(det_rotation(g) > 0);
    CHECK(relative_gap(g.template cast<long double>(), Matrix3L(hat_reference(a).exp())) <= tolerance);
    const Matrix3L log = g.template cast<long double>().log();
    CHECK(relative_gap(e2.algebra_log(g).template cast<long double>(), vee_reference(log)) <= tolerance);
  }
  // ω = π rounded to T: in double π_d < π and the log returns π_d; in float π_f > π, a rotation by
  // −π + 8.7e-8 on the principal branch, so |ω| ≈ π either way and exp∘log is the identity.
  const T eps = std::numeric_limits<T>::epsilon();
  const auto g = e2.algebra_exp(Algebra(T(1), T(2), pi));
  const Algebra at_pi = e2.algebra_log(g);
  CHECK(std::abs(std::abs(at_pi(2)) - pi) <= 2 * eps * pi);
  CHECK(relative_gap(e2.algebra_exp(at_pi), g) <= 8 * eps);
}

TEST_CASE("e2: the components are not joined by any curve") {
  const gyre::E2<double> e2;
  const auto x = motion(0.3, 1.0, -2.0, false);
  const auto y = motion(-1.1, 0.5, 0.25, true);
  const Eigen::Matrix3d v = e2.log(x, motion(0.9, 0.0, 1.0, false));
  CHECK_THROWS_WITH_AS((void)e2.log(x, y),
                       "gyre::E2::log: points lie in different components of E(2) (det Rₓ·det R_y) (-1)",
                       gyre::DomainError);
  CHECK_THROWS_WITH_AS((void)e2.transport(x, y, v), doctest::Contains(kCrossComponent), gyre::DomainError);
  CHECK(e2.dist(x, y) == std::numeric_limits<double>::infinity());
  CHECK(e2.dist(y, x) == std::numeric_limits<double>::infinity());
  {
    // Not an input check but an undefined result: it throws under ChecksOff too.
    gyre::ChecksOff off;
    CHECK_THROWS_WITH_AS((void)e2.log(x, y), doctest::Contains(kCrossComponent), gyre::DomainError);
    CHECK_THROWS_WITH_AS((void)e2.algebra_log(y), doctest::Contains("reflection"), gyre::DomainError);
  }
  CHECK_THROWS_WITH_AS((void)e2.algebra_log(y),
                       "gyre::E2::algebra_log: element is a reflection, outside the identity component (det R) (-1)",
                       gyre::DomainError);
}

TEST_CASE_TEMPLATE("e2: geometry inside the reflection component", T, float, double) {
  const gyre::E2<T> e2;
  const T eps = std::numeric_limits<T>::epsilon();
  const T pi = boost::math::constants::pi<T>();
  // F = diag(−1, 1) acts as (x, y) ↦ (−x, y), then the translation.
  const auto f = motion(pi, T(2), T(3), true);
  CHECK((e2.act(f, gyre::Vector2<T>(T(1), T(5))) - gyre::Vector2<T>(T(1), T(8))).norm() <= 8 * eps);
  // Two reflections compose to a rotation; a reflection is its own inverse when t = 0.
  const auto g = motion(T(0.4), T(0), T(0), true);
  CHECK(det_rotation(e2.compose(f, g)) > 0);
  CHECK(relative_gap(e2.compose(g, g), e2.identity()) <= 8 * eps);
  CHECK(relative_gap(e2.inverse(g), g) <= 8 * eps);
  // Riemannian exp stays in the component (R·D·R(ω) = R(θ − ω)·D for D = diag(1, −1)); log inverts
  // it; dist is the product distance.
  const auto x = motion(T(-0.7), T(1), T(-1), true);
  gyre::Matrix3<T> v = gyre::Matrix3<T>::Zero();
  v.template topLeftCorner<2, 2>() =
      T(1.5) * x.template topLeftCorner<2, 2>() * (gyre::Matrix2<T>() << 0, -1, 1, 0).finished();
  v(0, 2) = T(0.5);
  v(1, 2) = T(-2);
  const auto y = e2.exp(x, v);
  CHECK(det_rotation(y) < 0);
  CHECK(relative_gap(y, motion(T(-0.7 - 1.5), T(1.5), T(-3), true)) <= 8 * eps);
  CHECK(relative_gap(e2.log(x, y), v) <= 16 * eps);
  CHECK(std::abs(e2.dist(x, y) - std::sqrt(T(1.5 * 1.5 + 0.25 + 4))) <= 8 * eps);
  // Renormalisation keeps the component: 10⁴ + 1 products of a reflection stay a reflection,
  // orthogonal to ε (unrenormalised, ~100ε of drift).
  auto h = g;
  for (int i = 0; i < 10000; ++i) h = e2.compose(h, g);
  CHECK(det_rotation(h) < 0);
  const gyre::Matrix2<T> r = h.template topLeftCorner<2, 2>();
  CHECK((r.transpose() * r - gyre::Matrix2<T>::Identity()).norm() <= 4 * eps);
}

TEST_CASE("e2: bad input names the function, the condition and the value") {
  const gyre::E2<double> e2;
  const Eigen::Matrix3d e = e2.identity();
  Eigen::Matrix3d bottom = e;
  bottom(2, 2) = 1.25;
  CHECK_THROWS_WITH_AS((void)e2.inverse(bottom),
                       "gyre::E2::inverse: bottom row is not (0, 0, 1) (largest deviation) (0.25)", gyre::DomainError);
  Eigen::Matrix3d sheared = e;
  sheared(0, 1) = 1;
  CHECK_THROWS_WITH_AS((void)e2.act(sheared, Eigen::Vector2d::Zero()),
                       "gyre::E2::act: rotation block is not orthogonal (‖RᵀR − I‖) (1.73205081)", gyre::DomainError);
  Eigen::Matrix3d nan_point = e;
  nan_point(1, 1) = std::nan("");
  CHECK_THROWS_WITH_AS(e2.check_point(nan_point), "gyre::E2::check_point: point has a non-finite entry at (1, 1) (nan)",
                       gyre::DomainError);
  // A reflection is a valid point of E(2).
  CHECK_NOTHROW(e2.check_point(motion(0.2, 1.0, 1.0, true)));
  const gyre::AnyManifold any = gyre::make_space("e2", {});
  CHECK_THROWS_WITH_AS((void)any.compose(Eigen::MatrixXd::Identity(3, 3), Eigen::MatrixXd::Identity(3, 2)),
                       "gyre::e2: point must be 3×3 (3×2)", gyre::ShapeError);
}

TEST_CASE("e2: ChecksOff trusts the input") {
  const gyre::E2<double> e2;
  Eigen::Matrix3d sheared = e2.identity();
  sheared(0, 1) = 1;
  {
    gyre::ChecksOff off;
    CHECK_NOTHROW((void)e2.compose(sheared, sheared));
    CHECK_THROWS_AS(e2.check_point(sheared), gyre::DomainError);  // explicit checks always run
  }
  CHECK_THROWS_AS((void)e2.compose(sheared, sheared), gyre::DomainError);
}

TEST_CASE_TEMPLATE("e2: batched exp, log, dist and transport equal the item-by-item results", T, float, double) {
  const gyre::E2<T> e2;
  constexpr std::size_t kBatch = 64;
  xt::xarray<T> x = xt::xarray<T>::from_shape({kBatch, 3, 3});
  xt::xarray<T> v = xt::xarray<T>::from_shape({kBatch, 3, 3});
  xt::xarray<T> y = xt::xarray<T>::from_shape({kBatch, 3, 3});
  const auto store = [](xt::xarray<T>& array, std::size_t b, const gyre::Matrix3<T>& m) {
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) array(b, i, j) = m(i, j);
  };
  const auto load = [](const xt::xarray<T>& array, std::size_t b) {
    gyre::Matrix3<T> m;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) m(i, j) = array(b, i, j);
    return m;
  };
  gyre::Rng rng(13);
  for (std::size_t b = 0; b < kBatch; ++b) {
    const auto xb = e2.random_point(rng);
    const auto vb = e2.random_tangent(xb, rng);
    store(x, b, xb);
    store(v, b, vb);
    // y in x's component (both components occur across the batch), so log is defined.
    store(y, b, e2.exp(xb, e2.random_tangent(xb, rng)));
  }
  const auto ex = gyre::batch::exp(e2, x, v);
  const auto lg = gyre::batch::log(e2, x, y);
  const auto ds = gyre::batch::dist(e2, x, y);
  const auto pt = gyre::batch::transport(e2, x, y, v);
  for (std::size_t b = 0; b < kBatch; ++b) {
    const auto xb = load(x, b);
    const auto vb = load(v, b);
    const auto yb = load(y, b);
    CHECK(load(ex, b) == e2.exp(xb, vb));
    CHECK(load(lg, b) == e2.log(xb, yb));
    CHECK(load(pt, b) == e2.transport(xb, yb, vb));
    CHECK(ds(b) == e2.dist(xb, yb));
  }
  // One cross-component pair fails the whole batch with that item's error.
  xt::xarray<T> crossed = y;
  const auto x5 = load(x, 5);
  gyre::Matrix3<T> other = x5;
  other.col(1).template head<2>() *= -1;  // the other component
  store(crossed, 5, other);
  CHECK_THROWS_WITH_AS(gyre::batch::log(e2, x, crossed), doctest::Contains(kCrossComponent), gyre::DomainError);
}

TEST_CASE("e2: the registry builds it by name and its self-check passes") {
  const gyre::AnyManifold any = gyre::make_space("e2", {});
  CHECK(any.is_lie_group());
  CHECK(any.dim() == 3);
  for (const auto& [law, worst] : any.self_check(50)) {
    CAPTURE(law);
    CHECK(worst <= 4e-15);  // the budgets of the law tests above; a "threw: …" entry is +∞
  }
}

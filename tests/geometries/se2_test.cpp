// SE(2): laws on seeded cases, Eigen MatrixFunctions references (long double), hard cases
// ω → 0 and ω = π, the left-invariant metric, bad input, ChecksOff, batches, the registry.
#include "se2/se2.hpp"

#include <cmath>
#include <limits>
#include <string>

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

// hat written out here, independent of SE2::hat, in long double for the MatrixFunctions references.
template <class T>
Matrix3L hat_reference(const Eigen::Matrix<T, 3, 1>& a) {
  Matrix3L m = Matrix3L::Zero();
  m(0, 1) = -static_cast<long double>(a(2));
  m(1, 0) = static_cast<long double>(a(2));
  m(0, 2) = static_cast<long double>(a(0));
  m(1, 2) = static_cast<long double>(a(1));
  return m;
}

template <class T>
gyre::Matrix3<T> rigid(T theta, T tx, T ty) {
  gyre::Matrix3<T> g = gyre::Matrix3<T>::Identity();
  g(0, 0) = std::cos(theta);
  g(0, 1) = -std::sin(theta);
  g(1, 0) = std::sin(theta);
  g(1, 1) = std::cos(theta);
  g(0, 2) = tx;
  g(1, 2) = ty;
  return g;
}

template <class T>
T orthogonality_error(const gyre::Matrix3<T>& g) {
  const gyre::Matrix2<T> r = g.template topLeftCorner<2, 2>();
  return (r.transpose() * r - gyre::Matrix2<T>::Identity()).norm();
}

}  // namespace

TEST_CASE_TEMPLATE("se2: the manifold laws hold on 200 seeded cases", T, float, double) {
  namespace law = gyre::check::law;
  const gyre::SE2<T> se2;
  const auto report = gyre::check::manifold_laws(se2, gyre::test::seeds(200));
  for (const auto& failure : report.failures) FAIL(failure);
  // Relative to max(1, ‖·‖). Every formula is a few well-conditioned roundings on O(1) entries
  // (|t| ≲ 4, |θ| < π; log∘exp stays below 0.9π, away from the cut locus): 20ε budgets.
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

TEST_CASE_TEMPLATE("se2: the Lie group laws hold on 200 seeded cases", T, float, double) {
  namespace law = gyre::check::law;
  const gyre::SE2<T> se2;
  const auto report = gyre::check::lie_group_laws(se2, gyre::test::seeds(200));
  for (const auto& failure : report.failures) FAIL(failure);
  // Products of a few 3×3 matrices with entries ≲ 4; algebra_log is well conditioned for
  // |ω| < 3 (V(ω)⁻¹ has entries ≤ π/2): 20ε budgets, relative to max(1, ‖·‖).
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

TEST_CASE_TEMPLATE("se2: algebra_exp matches Eigen's matrix exponential (long double)", T, float, double) {
  using Algebra = typename gyre::SE2<T>::Algebra;
  const gyre::SE2<T> se2;
  const T pi = boost::math::constants::pi<T>();
  // exp is well conditioned for |ω| ≤ π, ‖v‖ ≲ 6: a few ε relative to max(1, ‖g‖).
  const double tolerance = tol<T>(2e-15, 1e-6f);
  std::vector<Algebra> cases;
  for (const std::uint64_t seed : gyre::test::seeds(200)) {
    gyre::Rng rng(seed);
    cases.push_back(Algebra(rng.normal_matrix<T>(3, 1)) * T(2));
  }
  for (const T omega : {T(0), T(1e-8), T(-1e-12), pi - T(1e-6), -pi + T(1e-6), pi, -pi}) {
    cases.push_back(Algebra(T(0.7), T(-1.3), omega));
  }
  for (const Algebra& a : cases) {
    CAPTURE(a.transpose());
    const Matrix3L reference = hat_reference(a).exp();
    CHECK(relative_gap(se2.algebra_exp(a).template cast<long double>(), reference) <= tolerance);
  }
}

TEST_CASE_TEMPLATE("se2: algebra_log matches Eigen's matrix logarithm (long double)", T, float, double) {
  using Algebra = typename gyre::SE2<T>::Algebra;
  const gyre::SE2<T> se2;
  const T pi = boost::math::constants::pi<T>();
  std::vector<gyre::Matrix3<T>> cases;
  for (const std::uint64_t seed : gyre::test::seeds(200)) {
    gyre::Rng rng(seed);
    cases.push_back(se2.random_point(rng));
  }
  // Near π the log stays well conditioned (V(ω)⁻¹ is bounded), so the same budget applies.
  // In float, π − 1e-3 keeps the matrix's rotation a float away from π: π − 1e-6 rounds to π.
  const T near_pi = pi - tol<T>(1e-6, 1e-3f);
  for (const T omega : {T(1e-8), T(-1e-8), T(0.5), near_pi, -near_pi}) {
    cases.push_back(se2.algebra_exp(Algebra(T(0.7), T(-1.3), omega)));
  }
  // The log's entries are ≲ 5: 20ε relative to max(1, ‖a‖).
  const double tolerance = tol<T>(4e-15, 3e-6f);
  for (const auto& g : cases) {
    CAPTURE(g);
    const Matrix3L reference = g.template cast<long double>().log();
    const Eigen::Matrix<long double, 3, 1> expected(reference(0, 2), reference(1, 2), reference(1, 0));
    CHECK(relative_gap(se2.algebra_log(g).template cast<long double>(), expected) <= tolerance);
  }
}

TEST_CASE_TEMPLATE("se2: small rotations keep full relative accuracy", T, float, double) {
  using Algebra = typename gyre::SE2<T>::Algebra;
  const gyre::SE2<T> se2;
  const T eps = std::numeric_limits<T>::epsilon();
  for (const T omega : {T(1e-3), T(1e-6), T(-1e-9), T(1e-12), T(1e-30), T(0)}) {
    CAPTURE(omega);
    const Algebra a(T(0.3), T(-2), omega);
    const Algebra back = se2.algebra_log(se2.algebra_exp(a));
    // ω is read back by atan2 of the exact-to-ε (sin ω, cos ω): relative accuracy, not absolute.
    CHECK(std::abs(back(2) - omega) <= 4 * eps * std::abs(omega));
    CHECK((back.template head<2>() - a.template head<2>()).norm() <= 8 * eps * a.template head<2>().norm());
    // The translation V(ω)·v against sin ω/ω and (1 − cos ω)/ω = 2·sin²(ω/2)/ω in long double:
    // relative accuracy in both, also where (1 − cos ω)/ω is ω/2 ≈ 1e-30.
    const long double w = omega;
    const long double s = w == 0 ? 1.0L : std::sin(w) / w;
    const long double c = w == 0 ? 0.0L : 2 * std::sin(w / 2) * std::sin(w / 2) / w;
    // Evaluated at once: an auto expression would point into the dead temporary algebra_exp returns.
    const Eigen::Matrix<long double, 2, 1> t =
        se2.algebra_exp(a).template topRightCorner<2, 1>().template cast<long double>();
    const long double vx = a(0);
    const long double vy = a(1);
    CHECK(std::abs(t(0) - (s * vx - c * vy)) <= 4 * eps * std::abs(s * vx - c * vy));
    CHECK(std::abs(t(1) - (c * vx + s * vy)) <= 4 * eps * std::abs(c * vx + s * vy));
  }
  // Riemannian log of nearby points: y is rounded to ε, which is ε/‖v‖ relative to v.
  gyre::Rng rng(5);
  const auto x = se2.random_point(rng);
  const T scale = std::max(T(1), x.norm());
  for (const T length : {T(1e-3), T(1e-6), T(1e-9)}) {
    gyre::Matrix3<T> v = se2.random_tangent(x, rng);
    v *= length / se2.norm(x, v);
    const auto y = se2.exp(x, v);
    CHECK((se2.log(x, y) - v).norm() <= 8 * eps * (length + scale));
    CHECK(std::abs(se2.dist(x, y) - length) <= 8 * eps * (length + scale));
  }
  CHECK(se2.log(x, x).norm() == T(0));
  CHECK(se2.dist(x, x) == T(0));
}

TEST_CASE_TEMPLATE("se2: a rotation by π takes the principal value ω = +π", T, float, double) {
  using Algebra = typename gyre::SE2<T>::Algebra;
  const gyre::SE2<T> se2;
  const T pi = boost::math::constants::pi<T>();
  const T eps = std::numeric_limits<T>::epsilon();
  // R = −I exactly, with both signs of zero off the diagonal: ω = +π either way.
  for (const T zero : {T(0), T(-0.0)}) {
    gyre::Matrix3<T> g = gyre::Matrix3<T>::Identity();
    g(0, 0) = -1;
    g(1, 1) = -1;
    g(0, 1) = zero;
    g(1, 0) = -zero;
    g(0, 2) = 2;
    g(1, 2) = -1;
    const Algebra a = se2.algebra_log(g);
    CHECK(a(2) == pi);
    // V(π)⁻¹·t = (π/2)·(t_y, −t_x) (the cot term vanishes): (−π/2, −π).
    CHECK(std::abs(a(0) + pi / 2) <= 4 * eps);
    CHECK(std::abs(a(1) + pi) <= 4 * eps);
    CHECK(relative_gap(se2.algebra_exp(a), g) <= 8 * eps);
    // Riemannian: the principal velocity θ = +π, and dist = √(π² + ‖Δt‖²).
    const auto e = se2.identity();
    const auto v = se2.log(e, g);
    CHECK(std::abs(v(1, 0) - pi) <= 4 * eps);
    CHECK(std::abs(se2.dist(e, g) - std::sqrt(pi * pi + 5)) <= 8 * eps);
    CHECK(relative_gap(se2.exp(e, v), g) <= 8 * eps);
  }
  // algebra_exp at ω = −π gives the rotation by π; its log comes back near ω = +π (not −π) with
  // another v, and exp∘log is still the identity. (−π rounded to T is not exactly −π: in float,
  // −π_f is the rotation by π − 8.7e-8, whose principal angle rounds one ulp below π_f.)
  const auto g = se2.algebra_exp(Algebra(T(0.4), T(1.1), -pi));
  const Algebra a = se2.algebra_log(g);
  CHECK(a(2) > 0);
  CHECK(std::abs(a(2) - pi) <= 2 * eps * pi);
  CHECK(relative_gap(se2.algebra_exp(a), g) <= 8 * eps);
}

TEST_CASE_TEMPLATE("se2: geodesics are not one-parameter subgroups", T, float, double) {
  using Algebra = typename gyre::SE2<T>::Algebra;
  const gyre::SE2<T> se2;
  const T pi = boost::math::constants::pi<T>();
  const T eps = std::numeric_limits<T>::epsilon();
  const Algebra a(1, 0, pi / 2);
  const auto e = se2.identity();
  // The geodesic turns and translates independently: [[R(π/2), (1, 0)], [0, 1]].
  const gyre::Matrix3<T> geodesic_end = rigid(pi / 2, T(1), T(0));
  // The one-parameter subgroup carries the translation along an arc: V(π/2)·(1, 0) = (2/π, 2/π).
  const gyre::Matrix3<T> subgroup_end = rigid(pi / 2, 2 / pi, 2 / pi);
  CHECK(relative_gap(se2.exp(e, se2.hat(a)), geodesic_end) <= 8 * eps);
  CHECK(relative_gap(se2.algebra_exp(a), subgroup_end) <= 8 * eps);
  // They agree for a pure rotation and for a pure translation.
  for (const Algebra& b : {Algebra(0, 0, T(0.8)), Algebra(T(0.3), T(-0.2), 0)}) {
    CHECK(relative_gap(se2.exp(e, se2.hat(b)), se2.algebra_exp(b)) <= 8 * eps);
  }
}

TEST_CASE_TEMPLATE("se2: the metric is left-invariant, not right-invariant", T, float, double) {
  const gyre::SE2<T> se2;
  const T pi = boost::math::constants::pi<T>();
  const T tolerance = tol<T>(4e-15, 3e-6f);  // a few products of O(1) matrices
  for (const std::uint64_t seed : gyre::test::seeds(200)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    const auto g = se2.random_point(rng);
    const auto x = se2.random_point(rng);
    const auto y = se2.exp(x, gyre::check::detail::tangent_with_norm_below(se2, x, 3.0, rng));
    const auto u = se2.random_tangent(x, rng);
    const auto gx = se2.compose(g, x);
    // Left translation maps V ∈ T_x to g·V ∈ T_gx; the metric, log and dist are invariant.
    CHECK(std::abs(se2.dist(gx, se2.compose(g, y)) - se2.dist(x, y)) <= tolerance * (1 + se2.dist(x, y)));
    CHECK(relative_gap(se2.log(gx, se2.compose(g, y)), g * se2.log(x, y)) <= tolerance);
    CHECK(std::abs(se2.norm(gx, g * u) - se2.norm(x, u)) <= tolerance * (1 + se2.norm(x, u)));
  }
  // Right translation by a unit translation changes the distance of R(π/2) and I:
  // from π/2 to √(π²/4 + 2) (the translations (0, 1) and (1, 0) now differ).
  const auto x = rigid(pi / 2, T(0), T(0));
  const auto h = rigid(T(0), T(1), T(0));
  CHECK(se2.dist(x, se2.identity()) == doctest::Approx(pi / 2).epsilon(tolerance));  // tolerance: see above
  CHECK(se2.dist(se2.compose(x, h), h) == doctest::Approx(std::sqrt(pi * pi / 4 + 2)).epsilon(tolerance));
}

TEST_CASE_TEMPLATE("se2: closed forms of act, inverse, adjoint and the metric", T, float, double) {
  using Algebra = typename gyre::SE2<T>::Algebra;
  const gyre::SE2<T> se2;
  const T eps = std::numeric_limits<T>::epsilon();
  const T theta = T(0.6);
  const auto g = rigid(theta, T(2), T(3));
  const gyre::Vector2<T> p(T(-1), T(0.5));
  const gyre::Vector2<T> rp(std::cos(theta) * p(0) - std::sin(theta) * p(1),
                            std::sin(theta) * p(0) + std::cos(theta) * p(1));
  CHECK((se2.act(g, p) - (rp + gyre::Vector2<T>(2, 3))).norm() <= 8 * eps);
  CHECK(relative_gap(se2.compose(g, se2.inverse(g)), se2.identity()) <= 8 * eps);
  CHECK(relative_gap(se2.inverse(g), rigid(-theta, T(0), T(0)) * rigid(T(0), T(-2), T(-3))) <= 8 * eps);
  // Ad(g) = [[R, (t_y, −t_x)ᵀ], [0, 0, 1]].
  gyre::Matrix3<T> ad = g;
  ad(0, 2) = 3;
  ad(1, 2) = -2;
  CHECK(se2.adjoint(g) == ad);
  // ⟨V, V⟩ = ω² + ‖u‖² for V = [[ω·R·J, u], 0].
  const Algebra a(T(0.25), T(-0.5), T(2));
  const gyre::Matrix3<T> v = g * se2.hat(a);
  CHECK(std::abs(se2.norm(g, v) - a.norm()) <= 8 * eps);
  CHECK(std::abs(se2.inner(g, v, v) - a.squaredNorm()) <= 16 * eps);
  // project keeps tangent vectors and removes the symmetric part and the bottom row.
  gyre::Matrix3<T> ambient = v;
  ambient.template topLeftCorner<2, 2>() += g.template topLeftCorner<2, 2>() * gyre::Matrix2<T>::Identity();
  ambient(2, 0) = 5;
  CHECK(relative_gap(se2.project(g, ambient), v) <= 8 * eps);
}

TEST_CASE_TEMPLATE("se2: compose re-normalises the rotation block", T, float, double) {
  const gyre::SE2<T> se2;
  const T eps = std::numeric_limits<T>::epsilon();
  gyre::Rng rng(3);
  const auto g = se2.random_point(rng);
  auto h = se2.identity();
  // 10⁴ products would drift by ~√10⁴·ε = 100ε without re-normalisation.
  for (int i = 0; i < 10000; ++i) {
    h = se2.compose(h, g);
    // Translations grow bounded (|t| ≤ Σ|t_g|): only the rotation block's drift is checked.
  }
  CHECK(orthogonality_error(h) <= 4 * eps);
  CHECK(h.row(2) == gyre::Matrix3<T>::Identity().row(2));
  // An input just inside the membership tolerance comes out orthogonal to ε.
  gyre::Matrix3<T> off = g;
  off.template topLeftCorner<2, 2>() *= 1 + gyre::membership_tolerance<T>() / 4;
  CHECK(orthogonality_error(se2.compose(off, se2.identity())) <= 4 * eps);
  CHECK(orthogonality_error(se2.exp(off, gyre::Matrix3<T>::Zero())) <= 4 * eps);
}

TEST_CASE("se2: bad input names the function, the condition and the value") {
  const gyre::SE2<double> se2;
  const auto e = se2.identity();
  Eigen::Matrix3d bottom = e;
  bottom(2, 0) = 0.5;
  CHECK_THROWS_WITH_AS((void)se2.compose(bottom, e),
                       "gyre::SE2::compose: bottom row is not (0, 0, 1) (largest deviation) (0.5)", gyre::DomainError);
  Eigen::Matrix3d stretched = e;
  stretched(0, 0) = 2;
  CHECK_THROWS_WITH_AS((void)se2.log(e, stretched), "gyre::SE2::log: rotation block is not orthogonal (‖RᵀR − I‖) (3)",
                       gyre::DomainError);
  Eigen::Matrix3d reflection = e;
  reflection(1, 1) = -1;
  CHECK_THROWS_WITH_AS((void)se2.exp(reflection, Eigen::Matrix3d::Zero()),
                       "gyre::SE2::exp: rotation block is a reflection (det R) (-1)", gyre::DomainError);
  CHECK_THROWS_WITH_AS(se2.check_point(reflection), doctest::Contains("reflection"), gyre::DomainError);
  Eigen::Matrix3d nan_point = e;
  nan_point(0, 2) = std::nan("");
  CHECK_THROWS_WITH_AS((void)se2.dist(e, nan_point), "gyre::SE2::dist: point has a non-finite entry at (0, 2) (nan)",
                       gyre::DomainError);
  CHECK_THROWS_WITH_AS((void)se2.algebra_exp(Eigen::Vector3d(0, 0, INFINITY)),
                       "gyre::SE2::algebra_exp: algebra vector has a non-finite entry at (2, 0) (inf)",
                       gyre::DomainError);
  Eigen::Matrix3d symmetric = Eigen::Matrix3d::Zero();
  symmetric(0, 1) = symmetric(1, 0) = 1;
  CHECK_THROWS_WITH_AS((void)se2.exp(e, symmetric), doctest::Contains("gyre::SE2::exp: vector is not tangent at x"),
                       gyre::DomainError);
  Eigen::Matrix3d bottom_tangent = Eigen::Matrix3d::Zero();
  bottom_tangent(2, 2) = 1;
  CHECK_THROWS_WITH_AS(se2.check_tangent(e, bottom_tangent), doctest::Contains("bottom row is not zero"),
                       gyre::DomainError);
  CHECK_THROWS_WITH_AS((void)se2.vee(symmetric), doctest::Contains("gyre::SE2::vee: matrix is not in the Lie algebra"),
                       gyre::DomainError);
  CHECK_THROWS_AS((void)se2.act(e, Eigen::Vector2d(NAN, 0)), gyre::DomainError);
  // Points are fixed 3×3: a wrong shape can only arrive through the runtime registry or a batch.
  const gyre::AnyManifold any = gyre::make_space("se2", {});
  CHECK_THROWS_WITH_AS(any.check_point(Eigen::MatrixXd::Identity(2, 2)), "gyre::se2: point must be 3×3 (2×2)",
                       gyre::ShapeError);
  const xt::xarray<double> wrong = xt::zeros<double>({4, 2, 2});
  CHECK_THROWS_WITH_AS(gyre::batch::exp(se2, wrong, wrong), doctest::Contains("wrong fixed size"), gyre::ShapeError);
}

TEST_CASE("se2: ChecksOff trusts the input") {
  const gyre::SE2<double> se2;
  Eigen::Matrix3d stretched = se2.identity();
  stretched(0, 0) = 2;
  {
    gyre::ChecksOff off;
    CHECK_NOTHROW((void)se2.compose(stretched, stretched));
    CHECK_NOTHROW((void)se2.log(se2.identity(), stretched));
    CHECK_THROWS_AS(se2.check_point(stretched), gyre::DomainError);  // explicit checks always run
  }
  CHECK(gyre::checks_enabled());
  CHECK_THROWS_AS((void)se2.compose(stretched, stretched), gyre::DomainError);
}

TEST_CASE_TEMPLATE("se2: batched exp, log, dist and transport equal the item-by-item results", T, float, double) {
  const gyre::SE2<T> se2;
  constexpr std::size_t kBatch = 64;
  xt::xarray<T> x = xt::xarray<T>::from_shape({kBatch, 3, 3});
  xt::xarray<T> v = xt::xarray<T>::from_shape({kBatch, 3, 3});
  xt::xarray<T> y = xt::xarray<T>::from_shape({kBatch, 3, 3});
  gyre::Rng rng(11);
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
  for (std::size_t b = 0; b < kBatch; ++b) {
    const auto xb = se2.random_point(rng);
    store(x, b, xb);
    store(v, b, se2.random_tangent(xb, rng));
    store(y, b, se2.random_point(rng));
  }
  const auto ex = gyre::batch::exp(se2, x, v);
  const auto lg = gyre::batch::log(se2, x, y);
  const auto ds = gyre::batch::dist(se2, x, y);
  const auto pt = gyre::batch::transport(se2, x, y, v);
  for (std::size_t b = 0; b < kBatch; ++b) {
    const auto xb = load(x, b);
    const auto vb = load(v, b);
    const auto yb = load(y, b);
    // Same code on the same inputs: bit-identical results.
    CHECK(load(ex, b) == se2.exp(xb, vb));
    CHECK(load(lg, b) == se2.log(xb, yb));
    CHECK(load(pt, b) == se2.transport(xb, yb, vb));
    CHECK(ds(b) == se2.dist(xb, yb));
  }
  xt::xarray<T> bad = x;
  bad(17, 2, 0) = 1;
  CHECK_THROWS_WITH_AS(gyre::batch::exp(se2, bad, v), doctest::Contains("SE2::exp: bottom row"), gyre::DomainError);
}

TEST_CASE("se2: the registry builds it by name and its self-check passes") {
  const gyre::AnyManifold any = gyre::make_space("se2", {});
  CHECK(any.is_lie_group());
  CHECK(any.dim() == 3);
  CHECK(any.point_encoding() == gyre::PointEncoding::kMatrix);
  const Eigen::MatrixXd a = Eigen::Vector3d(1, 0, boost::math::constants::pi<double>() / 2);
  CHECK(relative_gap(any.algebra_exp(a),
                     rigid(boost::math::constants::pi<double>() / 2, 2 / boost::math::constants::pi<double>(),
                           2 / boost::math::constants::pi<double>())) <= 1e-15);
  for (const auto& [law, worst] : any.self_check(50)) {
    CAPTURE(law);
    CHECK(worst <= 4e-15);  // the budgets of the law tests above
  }
}

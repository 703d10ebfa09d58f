// The Stiefel manifold St(n, p), Euclidean metric: laws on seeded cases; exp against the geodesic
// ODE, against the sphere (p = 1) and against X·expm(XᵀU) (p = n); log∘exp up to the injectivity
// radius; exp for long tangents; both retractions; egrad_to_rgrad; Haar sampling; the batched
// forms; bad input (1e300, 1e-300 included) and the log's failures. Over 400 lines: one geometry,
// one test file (STYLE §1), and the numerical log needs its domain tested from several sides.
#include "stiefel/stiefel.hpp"

#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>
#include <unsupported/Eigen/MatrixFunctions>

#include "gyre/check/manifold_laws.hpp"
#include "gyre/core/batch.hpp"
#include "gyre/geometry/batch_space.hpp"
#include "o/o.hpp"
#include "sphere/sphere.hpp"
#include "support/batch_test_support.hpp"
#include "support/test_support.hpp"

namespace {

namespace law = gyre::check::law;
using gyre::Matrix;
using gyre::test::relative_gap;
using gyre::test::tol;

// Sizes with p = 1 (the sphere), 1 < p < n/2, p ≥ n/2 (the reduction to 2p dimensions is the whole
// space), p = n − 1 (≅ SO(n)) and p = n (O(n)).
const std::vector<std::pair<int, int>> kShapes = {{3, 1}, {5, 2}, {8, 3}, {5, 3}, {4, 3}, {4, 4}};

// A tangent vector at x of the given length in one of four kinds of direction: generic, purely
// normal ((I − XXᵀ)·G), a rotation of the frame (X·Ω), or one column on a great circle (the
// directions that reach the cut locus at exactly π).
template <class T>
Matrix<T> direction(const gyre::Stiefel<T>& st, const Matrix<T>& x, int kind, T length, gyre::Rng& rng) {
  const Matrix<T> g = rng.normal_matrix<T>(st.n(), st.p());
  Matrix<T> u = st.project(x, g);
  const Matrix<T> normal = g - x * (x.transpose() * g);
  if (kind == 1 && st.p() < st.n()) u = normal;
  if (kind == 2 && st.p() > 1) u = st.project(x, Matrix<T>(x * (x.transpose() * g)));
  if (kind == 3 && st.p() < st.n()) {
    u = Matrix<T>::Zero(st.n(), st.p());
    u.col(0) = normal.col(0);
  }
  // Projected again after scaling: a small tangent part of G scaled up would carry G's rounding.
  return st.project(x, Matrix<T>(u * (length / u.norm())));
}

// The geodesic ODE Ÿ = −Y·(ẎᵀẎ) integrated by RK4 in long double: the exp of Edelman et al. without
// their closed form.
Matrix<long double> geodesic_by_rk4(const Matrix<long double>& x, const Matrix<long double>& u, int steps) {
  using M = Matrix<long double>;
  const auto acceleration = [](const M& y, const M& z) { return M(-y * (z.transpose() * z)); };
  M y = x, z = u;
  const long double h = 1.0L / steps;
  for (int s = 0; s < steps; ++s) {
    const M k1y = z, k1z = acceleration(y, z);
    const M k2y = z + h / 2 * k1z, k2z = acceleration(y + h / 2 * k1y, k2y);
    const M k3y = z + h / 2 * k2z, k3z = acceleration(y + h / 2 * k2y, k3y);
    const M k4y = z + h * k3z, k4z = acceleration(y + h * k3y, k4y);
    y += h / 6 * (k1y + 2 * k2y + 2 * k3y + k4y);
    z += h / 6 * (k1z + 2 * k2z + 2 * k3z + k4z);
  }
  return y;
}

template <class T>
T orthonormality_error(const Matrix<T>& y) {
  return (y.transpose() * y - Matrix<T>::Identity(y.cols(), y.cols())).norm();
}

}  // namespace

TEST_CASE_TEMPLATE("stiefel: the manifold laws hold on 200 seeded cases", T, float, double) {
  for (const auto& shape : kShapes) {
    const int n = shape.first, p = shape.second;  // named copies: CAPTURE of a structured binding is C++20
    CAPTURE(n);
    CAPTURE(p);
    const gyre::Stiefel<T> st(n, p);
    const auto report = gyre::check::manifold_laws(st, gyre::test::seeds(200));
    gyre::test::check_no_failures(report);
    // Relative residuals with ‖v‖ < min(0.9·injectivity radius, 3) ≤ 2.83 for p < n: the shooting
    // meets exp to rounding (≤ 4ε·√(mp)) and log's conditioning there is ≤ π/(π − 2.83) ≈ 10, so
    // exp∘log, log∘exp and the second shooting of dist(y, x) cost tens of ε (measured worst over
    // these shapes: 13ε in double, 15ε in float; budgets ≈ 50ε and 80ε).
    gyre::test::check_law(report, law::kExpLog, tol<T>(1e-14, 1e-5f));
    gyre::test::check_law(report, law::kLogExp, tol<T>(1e-14, 1e-5f));
    gyre::test::check_law(report, law::kDistSymmetric, tol<T>(1e-14, 1e-5f));
    // dist is ‖log‖ by construction: the same computation, up to the norm's last bits.
    gyre::test::check_law(report, law::kDistIsNormLog, tol<T>(1e-15, 5e-7f));
    // The projection formulas are exact up to a few roundings of n×p products (measured ≤ 7ε).
    gyre::test::check_law(report, law::kTransportTangent, tol<T>(5e-15, 2e-6f));
    gyre::test::check_law(report, law::kTransportIdentity, tol<T>(5e-15, 2e-6f));
    gyre::test::check_law(report, law::kProjectIdempotent, tol<T>(5e-15, 2e-6f));
    // ‖P_Y w‖ ≤ ‖w‖ exactly in real arithmetic; only the norms' rounding may exceed it.
    gyre::test::check_law(report, law::kTransportShrinks, tol<T>(1e-15, 1e-7f));
    gyre::test::check_law(report, law::kRetractOnManifold, T(0));
    // A projection is neither an isometry nor parallel: the checker must not have applied those laws.
    CHECK_THROWS_AS((void)report.at(law::kTransportIsometry), std::out_of_range);
    CHECK_THROWS_AS((void)report.at(law::kTransportVelocity), std::out_of_range);
  }
}

TEST_CASE("stiefel: exp follows the geodesic equation Ÿ + Y·(ẎᵀẎ) = 0 (RK4 in long double)") {
  std::size_t compared = 0;
  for (const auto& shape : kShapes) {
    const int n = shape.first, p = shape.second;
    const gyre::Stiefel<double> st(n, p);
    for (const std::uint64_t seed : gyre::test::seeds(12)) {
      CAPTURE(n);
      CAPTURE(p);
      CAPTURE(seed);
      gyre::Rng rng(seed);
      const Matrix<double> x = st.random_point(rng);
      const Matrix<double> u = direction(st, x, static_cast<int>(seed % 4), rng.uniform(0.1, 3.0), rng);
      const Matrix<long double> reference = geodesic_by_rk4(x.cast<long double>(), u.cast<long double>(), 8000);
      // RK4's global error falls as h⁴: 4000 and 8000 steps differ by 3.6e-14 (measured), so 8000
      // steps are within ~3e-15 of the geodesic; exp's own rounding is a few ε.
      CHECK(relative_gap(st.exp(x, u), Matrix<double>(reference.cast<double>())) <= 1e-14);
      ++compared;
    }
  }
  CHECK(compared == 12 * kShapes.size());
}

TEST_CASE_TEMPLATE("stiefel: St(n, 1) is the sphere Sⁿ⁻¹ — exp, log, dist and inner agree", T, float, double) {
  for (const int n : {2, 3, 6}) {
    const gyre::Stiefel<T> st(n, 1);
    const gyre::Sphere<T> sphere(n - 1);
    for (const std::uint64_t seed : gyre::test::seeds(200)) {
      CAPTURE(n);
      CAPTURE(seed);
      gyre::Rng rng(seed);
      const Matrix<T> x = st.random_point(rng);
      const Matrix<T> v = direction(st, x, 0, rng.uniform(T(0), T(3)), rng);
      const Matrix<T> w = st.random_tangent(x, rng);
      const gyre::Vector<T> xs = x.col(0), vs = v.col(0), ws = w.col(0);
      // Two different formulas (Edelman's 2×2 exponential vs cos/sinc) of the same well-conditioned
      // map; log is conditioned by 1/sin θ ≤ 1/sin 3 ≈ 7 here. Measured: 3ε (exp), 6ε (log, dist).
      CHECK(relative_gap(st.exp(x, v), sphere.exp(xs, vs)) <= tol<T>(1e-14, 2e-6f));
      const Matrix<T> y = st.exp(x, v);
      const gyre::Vector<T> ys = y.col(0);
      CHECK(relative_gap(st.log(x, y), sphere.log(xs, ys)) <= tol<T>(1e-14, 5e-6f));
      CHECK(std::abs(st.dist(x, y) - sphere.dist(xs, ys)) <=
            tol<T>(1e-14, 5e-6f) * std::max(T(1), sphere.dist(xs, ys)));
      CHECK(std::abs(st.inner(x, v, w) - sphere.inner(xs, vs, ws)) <= tol<T>(1e-14, 1e-6f) * (1 + v.norm() * w.norm()));
    }
  }
}

TEST_CASE_TEMPLATE("stiefel: St(n, n) is O(n) — exp is X·expm(XᵀU), log is O(n)'s, dist is √2 times O(n)'s", T, float,
                   double) {
  for (const int n : {2, 3, 5}) {
    const gyre::Stiefel<T> st(n, n);
    const gyre::O<T> o(n);
    for (const std::uint64_t seed : gyre::test::seeds(100)) {
      CAPTURE(n);
      CAPTURE(seed);
      gyre::Rng rng(seed);
      const Matrix<T> x = st.random_point(rng);
      // ‖u‖ < 4 < √2·π: rotation angles below π, where O(n)'s principal log is the one.
      const Matrix<T> u = direction(st, x, 0, rng.uniform(T(0), T(4)), rng);
      // The reference: Eigen's Padé exponential of the skew XᵀU, in long double.
      const Matrix<long double> xl = x.template cast<long double>();
      const Matrix<long double> a = xl.transpose() * u.template cast<long double>();
      const Matrix<long double> expected = xl * Matrix<long double>((a - a.transpose()) / 2).exp();
      // Measured 5ε: the 4×4 block exponential is accurate once U is exactly tangent (exp projects it).
      CHECK(relative_gap(st.exp(x, u), Matrix<T>(expected.template cast<T>())) <= tol<T>(1e-14, 2e-6f));
      const Matrix<T> y = st.exp(x, u);
      // Conditioning of log grows like 1/(π − θ) near a rotation angle θ of π; θ < 4/√2 ≈ 2.83 here
      // (measured 10ε in double, 15ε in float).
      CHECK(relative_gap(st.log(x, y), o.log(x, y)) <= tol<T>(2e-14, 1e-5f));
      CHECK(std::abs(st.dist(x, y) - std::sqrt(T(2)) * o.dist(x, y)) <=
            tol<T>(2e-14, 1e-5f) * std::max(T(1), st.dist(x, y)));
    }
    // The two components: dist is +∞ between them and log refuses, as O(n)'s do.
    Matrix<T> reflection = Matrix<T>::Identity(n, n);
    reflection(0, 0) = -1;
    CHECK(std::isinf(st.dist(Matrix<T>::Identity(n, n), reflection)));
    CHECK_THROWS_WITH_AS((void)st.log(Matrix<T>::Identity(n, n), reflection),
                         "gyre::Stiefel::log: points lie in different components of St(n, n) = O(n) (det XᵀY) (-1)",
                         gyre::DomainError);
  }
}

TEST_CASE_TEMPLATE("stiefel: log inverts exp up to 0.99 of the injectivity radius", T, float, double) {
  const T eps = std::numeric_limits<T>::epsilon();
  std::size_t compared = 0;
  for (const auto& shape : kShapes) {
    const int n = shape.first, p = shape.second;
    const gyre::Stiefel<T> st(n, p);
    for (const std::uint64_t seed : gyre::test::seeds(200)) {
      CAPTURE(n);
      CAPTURE(p);
      CAPTURE(seed);
      gyre::Rng rng(seed);
      const Matrix<T> x = st.random_point(rng);
      const T length = rng.uniform(T(0), T(0.99) * st.injectivity_radius());
      const Matrix<T> v = direction(st, x, static_cast<int>(seed % 4), length, rng);
      const Matrix<T> y = st.exp(x, v);
      // y carries exp's rounding (a few ε), which log amplifies by its condition number; on the
      // directions that reach the cut locus at the radius r that grows like r/(r − ‖v‖) ≤ 100 here.
      // Measured: at most 0.23 of 64·ε·r/(r − ‖v‖), the worst at small ‖v‖ (plain rounding).
      const T radius = st.injectivity_radius();
      const T budget = 64 * eps * radius / (radius - length);
      CHECK((st.log(x, y) - v).norm() <= budget * std::max(T(1), length));
      CHECK(std::abs(st.dist(x, y) - length) <= budget * std::max(T(1), length));
      ++compared;
    }
  }
  CHECK(compared == gyre::test::scaled_cases(200) * kShapes.size());
}

TEST_CASE("stiefel: log converges next to the injectivity radius (0.999 r), also towards the cut locus") {
  // The directions that reach the cut locus at r (purely normal, one column on a great circle) are
  // the hard ones: exp_X is nearly singular there. Condition ≈ r/(r − ‖v‖) = 1000; the error,
  // relative to ‖v‖ ≈ r, measured 0.45·ε·1000 at worst: budget 8·ε·1000.
  std::size_t compared = 0;
  for (const auto& shape : kShapes) {
    const gyre::Stiefel<double> st(shape.first, shape.second);
    const double radius = st.injectivity_radius();
    for (const std::uint64_t seed : gyre::test::seeds(8)) {
      CAPTURE(shape.first);
      CAPTURE(shape.second);
      CAPTURE(seed);
      gyre::Rng rng(seed);
      const Matrix<double> x = st.random_point(rng);
      for (int kind = 0; kind < 4; ++kind) {
        const Matrix<double> v = direction(st, x, kind, 0.999 * radius, rng);
        CHECK((st.log(x, st.exp(x, v)) - v).norm() <= 8 * 1000 * std::numeric_limits<double>::epsilon() * radius);
        ++compared;
      }
    }
  }
  CHECK(compared == 8 * 4 * kShapes.size());
}

TEST_CASE_TEMPLATE("stiefel: small steps keep full relative accuracy", T, float, double) {
  const T eps = std::numeric_limits<T>::epsilon();
  const gyre::Stiefel<T> st(6, 2);
  for (const std::uint64_t seed : gyre::test::seeds(50)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    const Matrix<T> x = st.random_point(rng);
    for (const T length : {T(1e-3), T(1e-6), T(1e-9)}) {
      const Matrix<T> v = direction(st, x, static_cast<int>(seed % 4), length, rng);
      // Absolute: y is rounded to ε per entry (ε/‖v‖ relative to v), and the shooting stops at a
      // residual ≤ 4ε·√(mp) ≈ 11ε (m = 4, p = 2), which log passes on with condition ≈ 1
      // (measured 2.5ε).
      CHECK((st.log(x, st.exp(x, v)) - v).norm() <= 16 * eps);
    }
    // log(x, x) is the tangent part of rounding, exp(x, 0) is x after a Newton–Schulz step: a few
    // ulps of the 12 entries (measured 2.6ε).
    CHECK(st.log(x, x).norm() <= 8 * eps);
    CHECK(st.dist(x, x) <= 8 * eps);
    CHECK((st.exp(x, Matrix<T>::Zero(6, 2)) - x).norm() <= 8 * eps);
  }
}

TEST_CASE_TEMPLATE("stiefel: both retractions land on the manifold and agree with exp to their order", T, float,
                   double) {
  const gyre::Stiefel<T> st(7, 3);
  for (const std::uint64_t seed : gyre::test::seeds(100)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    const Matrix<T> x = st.random_point(rng);
    const Matrix<T> v = direction(st, x, static_cast<int>(seed % 4), rng.uniform(T(0), T(10)), rng);
    // Householder Q and the polar factor are orthonormal to a few ε·√n, and the Newton–Schulz step
    // squares what is left: 1e-14 in double (measured 5e-16, 3e-7 in float).
    CHECK(orthonormality_error<T>(st.retract(x, v)) <= tol<T>(1e-14, 2e-6f));
    CHECK(orthonormality_error<T>(st.polar_retract(x, v)) <= tol<T>(1e-14, 2e-6f));
    CHECK_NOTHROW(st.check_point(st.retract(x, v)));
  }
  // Order of agreement with exp, measured as the ratio of errors at steps t and t/2 (double only:
  // the errors at t = 1e-2 are 1e-5 and 1e-7, too close to float's ε). QR is a first-order
  // retraction: error ~ c·t², ratio 4. Polar is second-order for this metric: error ~ c·t³, ratio 8.
  // The O(t) corrections at t = 1e-2 move the ratios by about 1 % (measured 3.996–4.006 and 8.000);
  // ±2 % is the budget.
  const gyre::Stiefel<double> std_st(7, 3);
  for (const std::uint64_t seed : gyre::test::seeds(20)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    const Matrix<double> x = std_st.random_point(rng);
    const Matrix<double> v = direction(std_st, x, 0, 1.0, rng);
    const auto gap = [&](double t, bool polar) {
      const Matrix<double> tv = t * v;
      return ((polar ? std_st.polar_retract(x, tv) : std_st.retract(x, tv)) - std_st.exp(x, tv)).norm();
    };
    const double t = 1e-2;
    CHECK(gap(t, false) / gap(t / 2, false) == doctest::Approx(4.0).epsilon(0.02));
    CHECK(gap(t, true) / gap(t / 2, true) == doctest::Approx(8.0).epsilon(0.02));
    // The leading constants for ‖v‖ = 1, measured at most 0.28 for both: bounded by 1.
    CHECK(gap(t, false) <= t * t);
    CHECK(gap(t, true) <= t * t * t);
    // The definition of a retraction, R(X, tV) = X + tV + O(t²), without exp: the gap to the
    // straight line falls by 4 when t halves (both retractions; the second-order term is the
    // normal correction −½t²·X·VᵀV for polar), and its constant is at most ‖V‖² = 1.
    const auto line_gap = [&](double s, bool polar) {
      const Matrix<double> sv = s * v;
      return ((polar ? std_st.polar_retract(x, sv) : std_st.retract(x, sv)) - (x + sv)).norm();
    };
    for (const bool polar : {false, true}) {
      CAPTURE(polar);
      CHECK(line_gap(t, polar) / line_gap(t / 2, polar) == doctest::Approx(4.0).epsilon(0.02));
      CHECK(line_gap(t, polar) <= t * t);
    }
  }
}

TEST_CASE("stiefel: exp stays accurate for long tangents and refuses those it cannot follow") {
  // St(n, 1) is the sphere, whose geodesic x·cos θ + (u/θ)·sin θ is a closed form valid for every
  // θ: the reference, in long double. A relative error of ε in u moves the end by ε·‖u‖ (the
  // geodesic's own conditioning); exp's balanced 2×2 exponential measured ≤ 7·ε·‖u‖: budget 32·ε·‖u‖.
  const double eps = std::numeric_limits<double>::epsilon();
  std::size_t compared = 0;
  for (const int n : {2, 3, 6}) {
    const gyre::Stiefel<double> st(n, 1);
    const gyre::Sphere<long double> sphere(n - 1);
    for (const double length : {10.0, 1e2, 1e4, 1e6}) {
      for (const std::uint64_t seed : gyre::test::seeds(10)) {
        CAPTURE(n);
        CAPTURE(length);
        CAPTURE(seed);
        gyre::Rng rng(seed);
        const Matrix<double> x = st.random_point(rng);
        const Matrix<double> u = direction(st, x, 0, length, rng);
        const gyre::Vector<long double> xs = x.col(0).cast<long double>(), us = u.col(0).cast<long double>();
        const gyre::Vector<long double> expected = sphere.exp(xs, us);
        CHECK((st.exp(x, u).col(0).cast<long double>() - expected).norm() <= 32 * eps * length);
        ++compared;
      }
    }
  }
  CHECK(compared == 3 * 4 * 10);
  // p > 1: no closed form; the result stays on St to ε·‖U‖ (measured drift before re-normalising
  // ≤ 9e-12 at ‖U‖ = 1e4 on St(4, 4)), so after the Newton–Schulz step to a few ε.
  for (const auto& shape : kShapes) {
    const gyre::Stiefel<double> st(shape.first, shape.second);
    gyre::Rng rng(17);
    const Matrix<double> x = st.random_point(rng);
    const Matrix<double> y = st.exp(x, direction(st, x, 0, 1e4, rng));
    CHECK(orthonormality_error<double>(y) <= 1e-14);
  }
  // Far beyond what expm can follow, exp throws instead of returning garbage (without the check it
  // returned a matrix of norm 0 at ‖U‖ = 1e20 and NaN at 1e300).
  const gyre::Stiefel<double> st(5, 2);
  const Matrix<double> x = Matrix<double>::Identity(5, 2);
  Matrix<double> u = Matrix<double>::Zero(5, 2);
  u(2, 0) = 1e300;
  CHECK_THROWS_WITH_AS((void)st.exp(x, u),
                       "gyre::Stiefel::exp: the tangent vector is too long to follow its geodesic accurately: the "
                       "result strays from St(n, p) by more than √ε (‖U‖_F) (1e+300)",
                       gyre::DomainError);
  u(2, 0) = 1e20;
  CHECK_THROWS_AS((void)st.exp(x, u), gyre::DomainError);
  const gyre::Stiefel<float> st_f(5, 2);
  Matrix<float> u_f = Matrix<float>::Zero(5, 2);
  u_f(2, 0) = 1e30f;
  CHECK_THROWS_AS((void)st_f.exp(Matrix<float>::Identity(5, 2), u_f), gyre::DomainError);
}

TEST_CASE("stiefel: 1e300 and 1e-300 tangents — retractions, projection and exp stay defined") {
  using T = double;  // 1e±300 are double's: float has no such values
  const gyre::Stiefel<T> st(5, 2);
  gyre::Rng rng(23);
  const Matrix<T> x = st.random_point(rng);
  const Matrix<T> v = st.random_tangent(x, rng);
  // Huge: X + U is U to rounding, and both retractions return its orthonormal factor, on St to a
  // few ε (the factorisations run on X + U scaled by its largest entry; unscaled, QR returned NaN).
  const Matrix<T> huge = st.project(x, Matrix<T>(v * T(1e300)));
  for (const Matrix<T>& y : {st.retract(x, huge), st.polar_retract(x, huge)}) {
    CHECK(y.allFinite());
    CHECK(orthonormality_error<T>(y) <= 1e-14);
  }
  // The projection of a huge ambient matrix is exact to rounding: P_X(P_X(A)) = P_X(A).
  const Matrix<T> a = rng.normal_matrix<T>(5, 2) * T(1e300);
  const Matrix<T> pa = st.project(x, a);
  CHECK(pa.allFinite());
  CHECK((st.project(x, pa) - pa).cwiseAbs().maxCoeff() <= 1e-14 * a.cwiseAbs().maxCoeff());
  // Tiny: every map is the identity on x to rounding, and log(x, x) is 0 to rounding.
  const Matrix<T> tiny = v * T(1e-300);
  CHECK((st.exp(x, tiny) - x).norm() <= 8 * std::numeric_limits<T>::epsilon());
  CHECK((st.retract(x, tiny) - x).norm() <= 8 * std::numeric_limits<T>::epsilon());
  CHECK((st.polar_retract(x, tiny) - x).norm() <= 8 * std::numeric_limits<T>::epsilon());
  CHECK(st.norm(x, tiny) == doctest::Approx(v.norm() * 1e-300).epsilon(1e-15));
  // Points scaled by 1e300 or 1e-300 are not orthonormal: a DomainError naming the condition.
  CHECK_THROWS_WITH_AS((void)st.exp(Matrix<T>(x * T(1e-300)), v),
                       "gyre::Stiefel::exp: point is not orthonormal (‖XᵀX − I‖_F) (1.41421356)", gyre::DomainError);
  CHECK_THROWS_WITH_AS((void)st.log(x, Matrix<T>(x * T(1e300))),
                       doctest::Contains("gyre::Stiefel::log: point is not orthonormal (‖XᵀX − I‖_F)"),
                       gyre::DomainError);
}

TEST_CASE_TEMPLATE("stiefel: egrad_to_rgrad is the projection of the Euclidean gradient and is tangent", T, float,
                   double) {
  // f(X) = ½‖X − B‖²: Euclidean gradient X − B. The Riemannian gradient of the embedded metric is
  // the tangent vector with ⟨grad f, v⟩ = Df(X)[v] for all tangent v.
  const gyre::Stiefel<T> st(6, 3);
  for (const std::uint64_t seed : gyre::test::seeds(50)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    const Matrix<T> x = st.random_point(rng);
    const Matrix<T> b = rng.normal_matrix<T>(6, 3);
    const Matrix<T> egrad = x - b;
    const Matrix<T> rgrad = st.egrad_to_rgrad(x, egrad);
    CHECK(rgrad == st.project(x, egrad));  // the same formula: bit-identical
    CHECK_NOTHROW(st.check_tangent(x, rgrad));
    const Matrix<T> a = x.transpose() * rgrad;
    // XᵀG − sym(XᵀG)·(XᵀX) with XᵀX = I to √ε… in practice to a few ε.
    CHECK((a + a.transpose()).norm() <= tol<T>(1e-14, 2e-6f) * std::max(T(1), egrad.norm()));
    const Matrix<T> v = st.random_tangent(x, rng);
    // ⟨grad, v⟩ = ⟨G, v⟩ exactly for tangent v (the normal part of G is orthogonal to T_X).
    CHECK(std::abs(st.inner(x, rgrad, v) - egrad.cwiseProduct(v).sum()) <=
          tol<T>(1e-13, 1e-5f) * egrad.norm() * v.norm());
  }
  // The directional derivative along the retraction, by central differences (double): step 1e-5,
  // truncation ~h²·f‴ ≈ 1e-10 and rounding ε·f/h ≈ 1e-11 relative.
  const gyre::Stiefel<double> st_d(6, 3);
  gyre::Rng rng(5);
  const Matrix<double> x = st_d.random_point(rng);
  const Matrix<double> b = rng.normal_matrix<double>(6, 3);
  const Matrix<double> v = st_d.random_tangent(x, rng);
  const auto f = [&](const Matrix<double>& y) { return (y - b).squaredNorm() / 2; };
  const double h = 1e-5;
  const double numeric =
      (f(st_d.retract(x, Matrix<double>(h * v))) - f(st_d.retract(x, Matrix<double>(-h * v)))) / (2 * h);
  CHECK(numeric == doctest::Approx(st_d.inner(x, st_d.egrad_to_rgrad(x, x - b), v)).epsilon(1e-8));
}

TEST_CASE_TEMPLATE("stiefel: random points are Haar and random tangents standard Gaussian (moments)", T, float,
                   double) {
  // E[X] = 0 and E[XXᵀ] = (p/n)·I for Haar frames; E‖v‖² = dim for a standard Gaussian of T_X.
  // Over 4000 draws the entries' standard errors are ≤ 1/√4000 ≈ 0.016; 0.08 is five of them.
  const gyre::Stiefel<T> st(5, 2);
  gyre::Rng rng(2024);
  Matrix<double> mean = Matrix<double>::Zero(5, 2), second = Matrix<double>::Zero(5, 5);
  double squared_length = 0;
  const int draws = 4000;
  for (int i = 0; i < draws; ++i) {
    const Matrix<T> x = st.random_point(rng);
    mean += x.template cast<double>() / draws;
    second += (x * x.transpose()).template cast<double>() / draws;
    squared_length += static_cast<double>(st.random_tangent(x, rng).squaredNorm()) / draws;
  }
  CHECK(mean.cwiseAbs().maxCoeff() <= 0.08);
  CHECK((second - 0.4 * Matrix<double>::Identity(5, 5)).cwiseAbs().maxCoeff() <= 0.08);
  // Invariance, not only moments: for Haar X and any fixed unit a ∈ ℝⁿ, b ∈ ℝᵖ, aᵀXb has the law of
  // one coordinate of a uniform point of S⁴ (Q·X·R is Haar for orthogonal Q, R): E = 0, E[·²] = 1/5,
  // E[·⁴] = 3/(5·7) ≈ 0.0857. Entry (0, 0) and a random direction pair must both match. Standard
  // errors over 4000 draws: 0.0071 (mean), 0.0034 (second moment), 0.0024 (fourth, from
  // E[·⁸] = 105/3465); budgets five of them.
  gyre::Rng direction_rng(7);
  gyre::Vector<double> a = direction_rng.normal_matrix<double>(5, 1);
  gyre::Vector<double> b = direction_rng.normal_matrix<double>(2, 1);
  a /= a.norm();
  b /= b.norm();
  double m1 = 0, m2 = 0, m4 = 0, e2 = 0, e4 = 0;
  for (int i = 0; i < draws; ++i) {
    const Matrix<double> x = st.random_point(rng).template cast<double>();
    const double s = a.dot(x * b), e = x(0, 0);
    m1 += s / draws;
    m2 += s * s / draws;
    m4 += s * s * s * s / draws;
    e2 += e * e / draws;
    e4 += e * e * e * e / draws;
  }
  CHECK(std::abs(m1) <= 0.035);
  CHECK(std::abs(m2 - 0.2) <= 0.017);
  CHECK(std::abs(e2 - 0.2) <= 0.017);
  CHECK(std::abs(m4 - 3.0 / 35) <= 0.012);
  CHECK(std::abs(e4 - 3.0 / 35) <= 0.012);
  // ‖v‖² is χ² with dim = 7 degrees of freedom: standard error √(2·7/4000) ≈ 0.06; 0.3 is five.
  CHECK(std::abs(squared_length - st.dim()) <= 0.3);
}

TEST_CASE("stiefel: log beyond the injectivity radius throws, naming the function, the condition and the value") {
  const gyre::Stiefel<double> st(5, 2);
  const Matrix<double> x = Matrix<double>::Identity(5, 2);
  // −X is √2·π away (each column to its antipode): the shooting starts at the projection of
  // −2X, which is 0, and no step lowers the residual ‖2X‖_F = 2√2.
  try {
    (void)st.log(x, Matrix<double>(-x));
    FAIL("log(x, −x) did not throw");
  } catch (const gyre::ConvergenceError& error) {
    CHECK(error.function() == "Stiefel::log");
    CHECK(error.condition().find("the shooting for exp(x, u) = y did not converge") != std::string::npos);
    CHECK(error.value() == "2.82842712");
  }
  CHECK_THROWS_AS((void)st.dist(x, Matrix<double>(-x)), gyre::ConvergenceError);
  // X·R(2.5), a rotation of the frame by 2.5 rad: its geodesic X·expm(2.5·J) has length 2.5·√2 ≈ 3.54
  // ≥ π. (It is in fact minimising — each column moves 2.5 on its great circle — but a geodesic
  // longer than the injectivity radius cannot be certified in general, so log refuses it.)
  Matrix<double> rotated = x;
  rotated(0, 0) = rotated(1, 1) = std::cos(2.5);
  rotated(1, 0) = std::sin(2.5);
  rotated(0, 1) = -std::sin(2.5);
  CHECK_THROWS_WITH_AS((void)st.log(x, rotated),
                       "gyre::Stiefel::log: the geodesic found is not shorter than the injectivity radius, so it may "
                       "not be minimising (‖u‖) (3.53553391)",
                       gyre::DomainError);
}

TEST_CASE_TEMPLATE("stiefel: bad input names the function, the condition and the value", T, float, double) {
  const gyre::Stiefel<T> st(4, 2);
  const Matrix<T> x = Matrix<T>::Identity(4, 2);
  Matrix<T> not_orthonormal = x;
  not_orthonormal(0, 0) = 2;
  CHECK_THROWS_WITH_AS((void)st.exp(not_orthonormal, Matrix<T>::Zero(4, 2)),
                       "gyre::Stiefel::exp: point is not orthonormal (‖XᵀX − I‖_F) (3)", gyre::DomainError);
  CHECK_THROWS_WITH_AS((void)st.log(x, Matrix<T>::Identity(4, 3)), "gyre::Stiefel::log: point must be 4×2 (4×3)",
                       gyre::ShapeError);
  Matrix<T> nan_point = x;
  nan_point(2, 1) = std::numeric_limits<T>::quiet_NaN();
  CHECK_THROWS_WITH_AS((void)st.dist(x, nan_point), "gyre::Stiefel::dist: point has a non-finite entry at (2, 1) (nan)",
                       gyre::DomainError);
  // ‖2I‖_F/2 = √2, printed to nine digits (1.41421356 in double, 1.41421354 in float).
  CHECK_THROWS_WITH_AS((void)st.exp(x, x),
                       doctest::Contains("gyre::Stiefel::exp: vector is not tangent at X: XᵀV is not skew "
                                         "(‖XᵀV + VᵀX‖_F/2) (1.414213"),
                       gyre::DomainError);
  Matrix<T> infinite = Matrix<T>::Zero(4, 2);
  infinite(3, 0) = std::numeric_limits<T>::infinity();
  CHECK_THROWS_WITH_AS((void)st.egrad_to_rgrad(x, infinite),
                       "gyre::Stiefel::egrad_to_rgrad: ambient matrix has a non-finite entry at (3, 0) (inf)",
                       gyre::DomainError);
  CHECK_THROWS_WITH_AS((void)st.project(x, Matrix<T>::Zero(2, 4)),
                       "gyre::Stiefel::project: ambient matrix must be 4×2 (2×4)", gyre::ShapeError);
  CHECK_THROWS_AS((void)st.polar_retract(x, x), gyre::DomainError);
  CHECK_THROWS_AS((void)st.transport(x, not_orthonormal, Matrix<T>::Zero(4, 2)), gyre::DomainError);
  CHECK_THROWS_WITH_AS(gyre::Stiefel<T>(3, 4), "gyre::Stiefel::Stiefel: needs 1 ≤ p ≤ n and n ≥ 2 (p) (4 of n = 3)",
                       gyre::DomainError);
  CHECK_THROWS_AS(gyre::Stiefel<T>(1, 1), gyre::DomainError);
  CHECK_THROWS_AS(gyre::Stiefel<T>(3, 0), gyre::DomainError);
}

TEST_CASE("stiefel: ChecksOff trusts the input") {
  const gyre::Stiefel<double> st(4, 2);
  Matrix<double> not_orthonormal = Matrix<double>::Identity(4, 2);
  not_orthonormal(0, 0) = 2;
  {
    gyre::ChecksOff off;
    CHECK_NOTHROW((void)st.exp(not_orthonormal, Matrix<double>::Zero(4, 2)));
    CHECK_NOTHROW((void)st.project(not_orthonormal, Matrix<double>::Zero(4, 2)));
    CHECK_THROWS_AS(st.check_point(not_orthonormal), gyre::DomainError);  // explicit checks always run
  }
  CHECK_THROWS_AS((void)st.exp(not_orthonormal, Matrix<double>::Zero(4, 2)), gyre::DomainError);
}

TEST_CASE_TEMPLATE("stiefel: batched exp, log, dist, transport and egrad_to_rgrad equal the item-by-item results", T,
                   float, double) {
  const gyre::Stiefel<T> st(5, 2);
  constexpr std::size_t kBatch = 32;
  std::vector<Matrix<T>> xs, vs, ys, gs;
  gyre::Rng rng(11);
  for (std::size_t b = 0; b < kBatch; ++b) {
    xs.push_back(st.random_point(rng));
    vs.push_back(direction(st, xs.back(), static_cast<int>(b % 4), rng.uniform(T(0), T(2.5)), rng));
    ys.push_back(st.exp(xs.back(), direction(st, xs.back(), 0, rng.uniform(T(0), T(2.5)), rng)));
    gs.push_back(rng.normal_matrix<T>(5, 2));
  }
  const xt::xarray<T> x = gyre::test::pack(xs), v = gyre::test::pack(vs), y = gyre::test::pack(ys),
                      g = gyre::test::pack(gs);
  const auto ex = gyre::batch::exp(st, x, v);
  const auto lg = gyre::batch::log(st, x, y);
  const auto ds = gyre::batch::dist(st, x, y);
  const auto pt = gyre::batch::transport(st, x, y, v);
  const auto space = gyre::make_batch_space(st, "St(5, 2)");
  const auto rg = space->egrad_to_rgrad(x, g);
  for (std::size_t b = 0; b < kBatch; ++b) {
    CAPTURE(b);
    // Same code on the same inputs: bit-identical results.
    CHECK(gyre::test::unpack(ex, b) == st.exp(xs[b], vs[b]));
    CHECK(gyre::test::unpack(lg, b) == st.log(xs[b], ys[b]));
    CHECK(gyre::test::unpack(pt, b) == st.transport(xs[b], ys[b], vs[b]));
    CHECK(gyre::test::unpack(rg, b) == st.egrad_to_rgrad(xs[b], gs[b]));
    CHECK(ds(b) == st.dist(xs[b], ys[b]));
  }
  xt::xarray<T> bad = x;
  bad(17, 0, 0) += 1;
  CHECK_THROWS_WITH_AS(gyre::batch::exp(st, bad, v), doctest::Contains("Stiefel::exp"), gyre::DomainError);
}

// Constant curvature: the κ-stereographic model for every sign of κ and the hyperboloid — laws on
// seeded cases, the 40-digit references (Poincaré ball B³ incl. Möbius addition and gyration, H³),
// continuity through κ → 0, the model conversions, the cut locus and bad input.
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include <doctest/doctest.h>

#include "gyre/check/manifold_laws.hpp"
#include "gyre/geometry/frechet_mean.hpp"
#include "hyperboloid/hyperboloid.hpp"
#include "sphere/sphere.hpp"
#include "stereographic/model_conversions.hpp"
#include "stereographic/stereographic.hpp"
#include "support/test_support.hpp"

namespace {

namespace law = gyre::check::law;
using gyre::Vector;
using gyre::test::relative_gap;
using gyre::test::to_matrix;
using gyre::test::tol;

template <class T, class M>
void check_curved_laws(const M& space, double max_tangent_norm) {
  gyre::check::ManifoldLawOptions options;
  options.max_tangent_norm = max_tangent_norm;
  const auto report = gyre::check::manifold_laws(space, gyre::test::seeds(200), options);
  for (const auto& failure : report.failures) FAIL(failure);
  // Random points lie within ~2 of the origin: conformal factors up to ~e⁴ amplify rounding.
  gyre::test::check_law(report, law::kExpLog, tol<T>(1e-11, 5e-4f));
  gyre::test::check_law(report, law::kLogExp, tol<T>(1e-11, 5e-4f));
  gyre::test::check_law(report, law::kDistIsNormLog, tol<T>(1e-12, 1e-4f));
  gyre::test::check_law(report, law::kDistSymmetric, tol<T>(1e-12, 1e-4f));
  gyre::test::check_law(report, law::kTransportTangent, tol<T>(1e-12, 1e-4f));
  gyre::test::check_law(report, law::kTransportIsometry, tol<T>(1e-11, 5e-4f));
  gyre::test::check_law(report, law::kTransportVelocity, tol<T>(1e-11, 5e-4f));
  // project on the hyperboloid adds ⟨x, a⟩_L·x: rounding ε·x₀² with x₀ up to ~4 here.
  gyre::test::check_law(report, law::kProjectIdempotent, tol<T>(1e-14, 4e-6f));
}

}  // namespace

TEST_CASE_TEMPLATE("stereographic: the manifold laws hold for negative, zero and positive curvature", T, float,
                   double) {
  for (const double kappa : {-2.0, -1.0, -0.3, 0.0, 0.5, 1.0}) {
    CAPTURE(kappa);
    for (const int n : {2, 5}) {
      CAPTURE(n);
      const gyre::Stereographic<T> space(n, kappa);
      // On the sphere stay inside half the injectivity radius π/√κ: the projected sphere's
      // coordinates blow up towards the pole at infinity, and so does their rounding.
      check_curved_laws<T>(space, kappa > 0 ? 0.5 * 3.14159 / std::sqrt(kappa) : 3.0);
    }
  }
}

TEST_CASE_TEMPLATE("hyperboloid: the manifold laws hold", T, float, double) {
  for (const int n : {1, 3, 6}) {
    CAPTURE(n);
    // Coordinates grow like e^d and the model's rounding like ε·e^{2d}: in float keep the
    // steps at half the length used in double.
    check_curved_laws<T>(gyre::Hyperboloid<T>(n), std::is_same_v<T, float> ? 1.5 : 3.0);
  }
}

TEST_CASE("Poincaré ball (κ = −1): matches the 40-digit references, including Möbius addition and gyration") {
  const auto& data = gyre::test::reference("geomstats.json").at("cases").at("poincare_ball_3");
  const gyre::Stereographic<double> ball(3, -1.0);
  std::size_t compared = 0;
  for (const auto& sample : data.at("samples")) {
    const std::string kind = sample["kind"];
    CAPTURE(kind);
    const auto x = to_matrix<double>(sample["base_point"]);
    const auto y = to_matrix<double>(sample["point"]);
    const auto v = to_matrix<double>(sample["tangent_vec"]);
    const auto w = to_matrix<double>(sample["tangent_vec_b"]);
    const auto& hp = sample["hp"];
    // At ‖x‖ = 0.999 the conformal factor is 1000: the inputs' rounding is amplified 10³–10⁶
    // (conditioning, not the formulas); 1e-13 relative elsewhere.
    const bool boundary = kind == "near_boundary_norm_0.999";
    const double budget = boundary ? 1e-9 : 1e-13;
    CHECK(relative_gap(ball.exp(x, v), to_matrix<double>(hp["exp"])) <= budget);
    const Vector<double> expected_log = to_matrix<double>(hp["log"]);
    CHECK((ball.log(x, y) - expected_log).norm() <= budget * expected_log.norm());  // relative, also at 1e-9
    const double d = ball.dist(x, y);
    const double d2 = hp["squared_dist"].get<double>();
    CHECK(std::abs(d * d - d2) <= budget * d2);  // relative even for the 1e-9-tangent sample
    CHECK(std::abs(ball.inner(x, v, w) - hp["inner_product"].get<double>()) <=
          budget * std::max(1.0, std::abs(hp["inner_product"].get<double>())));
    CHECK(relative_gap(ball.transport(x, ball.exp(x, v), w), to_matrix<double>(hp["parallel_transport"])) <= budget);
    CHECK(relative_gap(ball.gyro_add(x, y), to_matrix<double>(hp["mobius_add"])) <= 1e-14);
    // Closed-form gyration: full accuracy even at the boundary, where nested sums lose 3 digits.
    CHECK(relative_gap(ball.gyration(x, y, w), to_matrix<double>(hp["gyration"])) <= 1e-13);
    ++compared;
  }
  CHECK(compared == 10);  // 8 random samples, small_tangent_1e-9, near_boundary_norm_0.999
  // The tiny-tangent sample: log(x, exp(x, v)) recovers v to full relative accuracy.
  const auto& tiny = data["samples"][8];
  REQUIRE(tiny["kind"] == "small_tangent_1e-9");
  const auto x = to_matrix<double>(tiny["base_point"]);
  const auto v = to_matrix<double>(tiny["tangent_vec"]);
  CHECK((ball.log(x, ball.exp(x, v)) - v).norm() <= 1e-7 * v.norm());  // y's rounding: ε/1e-9 ≈ 1e-7
}

TEST_CASE("hyperboloid H³: matches the 40-digit references, also for far points") {
  const auto& data = gyre::test::reference("geomstats.json").at("cases").at("hyperboloid_3");
  const gyre::Hyperboloid<double> h(3);
  std::size_t compared = 0;
  for (const auto& sample : data.at("samples")) {
    const std::string kind = sample["kind"];
    CAPTURE(kind);
    const auto x = to_matrix<double>(sample["base_point"]);
    const auto y = to_matrix<double>(sample["point"]);
    const auto v = to_matrix<double>(sample["tangent_vec"]);
    const auto w = to_matrix<double>(sample["tangent_vec_b"]);
    const auto& hp = sample["hp"];
    // Far from the origin the model itself is ill-conditioned: at the rho-6 sample (x₀ ≈ 200,
    // ‖v‖ ≈ 860), perturbing the inputs by one ulp moves exp by 1.3e-9 relative (measured in
    // 50-digit arithmetic), and transport goes through exp: 1e-8 there, 1e-13 elsewhere.
    const double budget = kind == "far_points_rho6" ? 1e-8 : 1e-13;
    CHECK(relative_gap(h.exp(x, v), to_matrix<double>(hp["exp"])) <= budget);
    // At the 1e-9 sample the log forms y + ⟨x, y⟩_L·x, where ⟨x, y⟩_L = −1 − d²/2 carries a
    // rounding of ε·x₀²: 3.6e-8 relative measured, 1e-7 (relative, so a log of 0 fails).
    const double log_budget = kind == "small_tangent_1e-9" ? 1e-7 : budget;
    const Vector<double> expected_log = to_matrix<double>(hp["log"]);
    CHECK((h.log(x, y) - expected_log).norm() <= log_budget * expected_log.norm());
    const double d = h.dist(x, y);
    const double d2 = hp["squared_dist"].get<double>();
    CHECK(std::abs(d * d - d2) <= budget * d2);
    CHECK(std::abs(h.inner(x, v, w) - hp["inner_product"].get<double>()) <=
          budget * std::max(1.0, std::abs(hp["inner_product"].get<double>())));
    CHECK(relative_gap(h.transport(x, h.exp(x, v), w), to_matrix<double>(hp["parallel_transport"])) <= budget);
    ++compared;
  }
  CHECK(compared == 10);  // 8 random samples, small_tangent_1e-9, far_points_rho6
}

TEST_CASE("constant curvature: Fréchet means match the 40-digit Karcher means (B³ and H³)") {
  for (const char* name : {"poincare_ball_3", "hyperboloid_3"}) {
    CAPTURE(name);
    const auto& data = gyre::test::reference("geomstats.json").at("cases").at(name).at("frechet_mean");
    std::vector<Vector<double>> points;
    for (const auto& p : data.at("points")) points.push_back(to_matrix<double>(p));
    CHECK(points.size() == 8);
    const Vector<double> expected = to_matrix<double>(data["hp_karcher"]["mean"]);
    const Vector<double> mean = std::string(name) == "poincare_ball_3"
                                    ? gyre::frechet_mean(gyre::Stereographic<double>(3, -1.0), points).point
                                    : gyre::frechet_mean(gyre::Hyperboloid<double>(3), points).point;
    CHECK(relative_gap(mean, expected) <= 1e-12);
  }
}

TEST_CASE("stereographic: continuous through κ → 0, and κ = 0 is Euclidean geometry with λ = 2") {
  gyre::Rng rng(21);
  const gyre::Stereographic<double> flat(3, 0.0);
  for (int i = 0; i < 50; ++i) {
    const Vector<double> x = rng.normal_matrix<double>(3, 1) * 0.3;
    const Vector<double> y = rng.normal_matrix<double>(3, 1) * 0.3;
    const Vector<double> v = rng.normal_matrix<double>(3, 1);
    CHECK(relative_gap(flat.gyro_add(x, y), Vector<double>(x + y)) <= 1e-15);
    CHECK(std::abs(flat.dist(x, y) - 2 * (y - x).norm()) <= 1e-15);
    for (const double kappa : {1e-4, 1e-8, 1e-12, -1e-12, -1e-8, -1e-4}) {
      CAPTURE(kappa);
      const gyre::Stereographic<double> near(3, kappa);
      // First-order in κ: |f_κ − f_0| ≤ C·|κ| with C ~ 10 for these sizes.
      CHECK(std::abs(near.dist(x, y) - flat.dist(x, y)) <= 10 * std::abs(kappa) + 1e-15);
      CHECK(relative_gap(near.exp(x, v), flat.exp(x, v)) <= 20 * std::abs(kappa) + 1e-15);
      CHECK(relative_gap(near.log(x, y), flat.log(x, y)) <= 20 * std::abs(kappa) + 1e-15);
    }
  }
}

TEST_CASE("model conversions: the ball and the projected sphere map isometrically (up to 1/√|κ|)") {
  gyre::Rng rng(22);
  for (const double kappa : {-0.5, -2.0}) {
    const gyre::Stereographic<double> ball(4, kappa);
    const gyre::Hyperboloid<double> h(4);
    for (int i = 0; i < 50; ++i) {
      const Vector<double> a = ball.random_point(rng);
      const Vector<double> b = ball.random_point(rng);
      const Vector<double> ha = gyre::stereographic_to_hyperboloid<double>(a, kappa);
      h.check_point(ha);
      CHECK(relative_gap(gyre::hyperboloid_to_stereographic<double>(ha, kappa), a) <= 1e-14);
      const double d = ball.dist(a, b);
      CHECK(std::abs(d - h.dist(ha, gyre::stereographic_to_hyperboloid<double>(b, kappa)) / std::sqrt(-kappa)) <=
            1e-12 * (1 + d));
    }
  }
  for (const double kappa : {0.5, 2.0}) {
    const gyre::Stereographic<double> projected(4, kappa);
    const gyre::Sphere<double> sphere(4);
    for (int i = 0; i < 50; ++i) {
      const Vector<double> a = projected.random_point(rng);
      const Vector<double> b = projected.random_point(rng);
      const Vector<double> sa = gyre::stereographic_to_sphere<double>(a, kappa);
      sphere.check_point(sa);
      CHECK(relative_gap(gyre::sphere_to_stereographic<double>(sa, kappa), a) <= 1e-13);
      const double d = projected.dist(a, b);
      // Projected-sphere points may lie far out (towards the pole at infinity), where the chart's
      // rounding grows like ‖a‖²: 1e-11.
      CHECK(std::abs(d - sphere.dist(sa, gyre::stereographic_to_sphere<double>(b, kappa)) / std::sqrt(kappa)) <=
            1e-11 * (1 + d));
    }
  }
}

TEST_CASE("stereographic: tiny tangents and nearby points keep full relative accuracy") {
  gyre::Rng rng(23);
  for (const double kappa : {-1.0, 1.0}) {
    const gyre::Stereographic<double> space(3, kappa);
    const Vector<double> x = space.random_point(rng);
    Vector<double> v = space.random_tangent(x, rng);
    for (const double length : {1e-3, 1e-8, 1e-12}) {
      v *= length / space.norm(x, v);
      const Vector<double> y = space.exp(x, v);
      const double eps = std::numeric_limits<double>::epsilon();
      // exp_x(v) ≈ x + v to first order, and y carries ε·‖x‖ of rounding: log recovers v to
      // that absolute accuracy whatever ‖v‖ (a relative error of ε‖x‖/‖v‖, the problem's own).
      CHECK((space.log(x, y) - v).norm() <= 16 * eps * (1 + x.norm()));
      CHECK(std::abs(space.dist(x, y) - length) <= 16 * eps * (1 + x.norm()) * space.conformal_factor(x));
    }
  }
}

TEST_CASE("stereographic: the sphere's antipode is the cut locus") {
  const gyre::Stereographic<double> sphere(2, 1.0);
  const Vector<double> x = Vector<double>::Unit(2, 0) * 0.5;
  const Vector<double> antipode = -x / (0.25);  // −x/(κ‖x‖²)
  // x = e₁/2 and its antipode −2e₁ are exact: the distance is π to an ulp or two.
  CHECK(sphere.dist(x, antipode) == doctest::Approx(3.141592653589793).epsilon(1e-15));
  CHECK_THROWS_WITH_AS((void)sphere.log(x, antipode), doctest::Contains("points are antipodal"), gyre::DomainError);
}

TEST_CASE("stereographic and hyperboloid: bad input is named") {
  const Vector<double> x = Vector<double>::Unit(2, 0) * 0.5;
  const gyre::Stereographic<double> ball(2, -1.0);
  CHECK_THROWS_WITH_AS((void)ball.log(x, Vector<double>::Unit(2, 1) * 1.5),
                       "gyre::Stereographic::log: point is not inside the ball (‖x‖·√−κ) (1.5)", gyre::DomainError);
  CHECK_THROWS_AS((void)ball.exp(x, Vector<double>::Zero(3)), gyre::ShapeError);
  CHECK_THROWS_AS((void)ball.gyro_scale(std::nan(""), x), gyre::DomainError);
  CHECK_THROWS_AS(gyre::Stereographic<double>(2, INFINITY), gyre::DomainError);
  const gyre::Hyperboloid<double> h(2);
  Vector<double> off(3);
  off << 2.0, 0.5, 0.1;
  CHECK_THROWS_WITH_AS((void)h.log(h.origin(), off), doctest::Contains("point is not on the hyperboloid"),
                       gyre::DomainError);
  Vector<double> lower = h.origin();
  lower(0) = -1;
  CHECK_THROWS_WITH_AS((void)h.dist(h.origin(), lower), doctest::Contains("not on the upper sheet"), gyre::DomainError);
  CHECK_THROWS_AS((void)h.exp(h.origin(), Vector<double>::Unit(3, 0)), gyre::DomainError);  // not tangent
  // Far points: x₀² overflows (cosh 400 ≈ 1e173 in double; cosh 50 ≈ 3e21 in float). A point there
  // is accepted, and one off the hyperboloid is refused with its finite error, not NaN.
  Vector<double> far(3);
  far << std::cosh(400.0), std::sinh(400.0) * 0.6, std::sinh(400.0) * 0.8;
  CHECK_NOTHROW(h.check_point(far));
  Vector<double> far_off = far;
  far_off(1) *= 1.5;
  CHECK_THROWS_WITH_AS(h.check_point(far_off), doctest::Contains("(0.45"), gyre::DomainError);
  const gyre::Hyperboloid<float> h_f(2);
  Vector<float> far_f(3);
  far_f << std::cosh(50.0f), std::sinh(50.0f) * 0.6f, std::sinh(50.0f) * 0.8f;
  CHECK_NOTHROW(h_f.check_point(far_f));
  CHECK_THROWS_AS((void)gyre::stereographic_to_hyperboloid<double>(Vector<double>::Unit(2, 0), -1.0),
                  gyre::DomainError);
}

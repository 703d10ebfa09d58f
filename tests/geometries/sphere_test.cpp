// The sphere Sⁿ: laws on seeded cases, geomstats/mpmath reference values, hard cases, bad input.
#include "sphere/sphere.hpp"

#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "gyre/check/manifold_laws.hpp"
#include "gyre/core/batch.hpp"
#include "gyre/geometry/frechet_mean.hpp"
#include "support/test_support.hpp"

namespace {

using gyre::test::relative_gap;
using gyre::test::tol;

}  // namespace

TEST_CASE_TEMPLATE("sphere: the manifold laws hold on 200 seeded cases", T, float, double) {
  namespace law = gyre::check::law;
  for (const int n : {1, 2, 4, 9}) {
    CAPTURE(n);
    const gyre::Sphere<T> sphere(n);
    const auto report = gyre::check::manifold_laws(sphere, gyre::test::seeds(200));
    for (const auto& failure : report.failures) FAIL(failure);
    // Relative residuals; every formula is well conditioned for ‖v‖ < 0.9π except exp∘log on
    // random pairs, whose conditioning ε/sin θ is covered by the 1e-12 budget for these seeds.
    gyre::test::check_law(report, law::kExpLog, tol<T>(1e-12, 1e-5f));
    gyre::test::check_law(report, law::kLogExp, tol<T>(1e-12, 5e-5f));
    gyre::test::check_law(report, law::kDistIsNormLog, tol<T>(1e-14, 1e-6f));
    gyre::test::check_law(report, law::kDistSymmetric, tol<T>(1e-14, 1e-6f));
    gyre::test::check_law(report, law::kTransportTangent, tol<T>(1e-14, 1e-6f));
    gyre::test::check_law(report, law::kTransportIsometry, tol<T>(1e-13, 1e-5f));
    gyre::test::check_law(report, law::kTransportVelocity, tol<T>(1e-12, 5e-5f));
    gyre::test::check_law(report, law::kProjectIdempotent, tol<T>(1e-15, 1e-6f));
    gyre::test::check_law(report, law::kRetractOnManifold, T(0));
  }
}

TEST_CASE("sphere: matches the 40-digit closed forms of shared/reference (S³)") {
  const auto& data = gyre::test::reference("geomstats.json").at("cases").at("hypersphere_3");
  const gyre::Sphere<double> sphere(3);
  std::size_t compared = 0;
  for (const auto& sample : data.at("samples")) {
    const std::string kind = sample["kind"];
    CAPTURE(kind);
    const auto x = gyre::test::to_matrix<double>(sample["base_point"]);
    const auto y = gyre::test::to_matrix<double>(sample["point"]);
    const auto v = gyre::test::to_matrix<double>(sample["tangent_vec"]);
    const auto w = gyre::test::to_matrix<double>(sample["tangent_vec_b"]);
    const auto& hp = sample["hp"];
    // exp, inner and transport are well conditioned: 1e-14 relative.
    CHECK(relative_gap(sphere.exp(x, v), gyre::test::to_matrix<double>(hp["exp"])) <= 1e-14);
    CHECK(std::abs(sphere.inner(x, v, w) - hp["inner_product"].get<double>()) <=
          1e-14 * (1 + std::abs(hp["inner_product"].get<double>())));
    const bool antipodal = kind == "near_antipodal";
    // Transport goes through log(x, exp(x, v)); here ‖v‖ = π − 1e-3, whose conditioning ε/1e-3
    // allows 1e-12; 1e-13 elsewhere.
    const gyre::Vector<double> y_v = sphere.exp(x, v);
    CHECK(relative_gap(sphere.transport(x, y_v, w), gyre::test::to_matrix<double>(hp["parallel_transport"])) <=
          (antipodal ? 1e-12 : 1e-13));
    // Relative budgets for log and dist. At θ = π − 1e-6 the reference's angle 2·asin(‖x − y‖/2)
    // multiplies the inputs' 1e-16 departure from unit norm by 1/δ = 1e6 (our atan2 form is
    // insensitive to it), and log loses ε/δ: 1e-9 there (measured 8.4e-11). small_tangent_1e-9:
    // y is 1e-9 from x and stored to ε, so the inputs fix log and d only to ~ε/θ ≈ 2.2e-7
    // (measured 1.1e-7); relative, so a log or dist of 0 fails. 1e-14 elsewhere (measured 2.6e-16).
    const double tolerance = antipodal ? 1e-9 : kind == "small_tangent_1e-9" ? 2.5e-7 : 1e-14;
    const gyre::Vector<double> expected_log = gyre::test::to_matrix<double>(hp["log"]);
    CHECK((sphere.log(x, y) - expected_log).norm() <= tolerance * expected_log.norm());
    const double expected_dist = std::sqrt(hp["squared_dist"].get<double>());
    CHECK(std::abs(sphere.dist(x, y) - expected_dist) <= tolerance * expected_dist);
    ++compared;
  }
  CHECK(compared == 10);  // 8 random samples, small_tangent_1e-9, near_antipodal
}

TEST_CASE("sphere: the Fréchet mean matches the 40-digit Karcher mean of shared/reference") {
  const auto& data = gyre::test::reference("geomstats.json").at("cases").at("hypersphere_3").at("frechet_mean");
  const gyre::Sphere<double> sphere(3);
  std::vector<gyre::Vector<double>> points;
  for (const auto& p : data.at("points")) points.push_back(gyre::test::to_matrix<double>(p));
  CHECK(points.size() == 8);
  const auto mean = gyre::frechet_mean(sphere, points);
  // Converged to a 2e-13 step; the mean's conditioning over 8 clustered points adds a few ε.
  CHECK(relative_gap(mean.point, gyre::test::to_matrix<double>(data["hp_karcher"]["mean"])) <= 1e-12);
  CHECK(mean.last_step_norm <= 1e-12);
}

TEST_CASE_TEMPLATE("sphere: small angles keep full relative accuracy", T, float, double) {
  const gyre::Sphere<T> sphere(3);
  for (const std::uint64_t seed : gyre::test::seeds(200)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    const auto x = sphere.random_point(rng);
    gyre::Vector<T> v = sphere.random_tangent(x, rng);
    for (const T length : {T(1e-3), T(1e-6), T(1e-9), T(1e-12)}) {
      v *= length / v.norm();
      const auto y = sphere.exp(x, v);
      // The relative error of log at scale ‖v‖ is a few ε, whatever ‖v‖, because u is formed from y − x.
      // (y itself is rounded to ε, which is ε/‖v‖ relative to v: the bound is ε/‖v‖ + a few ε.)
      const T eps = std::numeric_limits<T>::epsilon();
      CHECK((sphere.log(x, y) - v).norm() <= 8 * eps * (length + 1));
      CHECK(std::abs(sphere.dist(x, y) - length) <= 8 * eps * (length + 1));
    }
    CHECK(sphere.log(x, x).norm() == T(0));
    // exp re-normalises its result, which may move x by an ulp.
    CHECK((sphere.exp(x, gyre::Vector<T>::Zero(4)) - x).norm() <= 2 * std::numeric_limits<T>::epsilon());
  }
}

TEST_CASE_TEMPLATE("sphere: the antipode is the cut locus", T, float, double) {
  const gyre::Sphere<T> sphere(2);
  gyre::Rng rng(7);
  const auto x = sphere.random_point(rng);
  const gyre::Vector<T> antipode = -x;
  // atan2(‖u‖, ⟨x, −x⟩) with ‖u‖ and 1 + ⟨x, −x⟩ of order ε: π to a few ulps.
  CHECK(sphere.dist(x, antipode) == doctest::Approx(boost::math::constants::pi<T>()).epsilon(tol<T>(1e-15, 5e-7f)));
  CHECK_THROWS_AS((void)sphere.log(x, antipode), gyre::DomainError);
  CHECK_THROWS_WITH_AS((void)sphere.transport(x, antipode, sphere.random_tangent(x, rng)),
                       doctest::Contains("points are antipodal"), gyre::DomainError);
  // Just inside the cut locus (θ = π − δ) log still works: its length is θ and exp returns to y.
  const T delta = std::is_same_v<T, float> ? T(1e-2) : T(1e-6);
  gyre::Vector<T> v = sphere.random_tangent(x, rng);
  v *= (boost::math::constants::pi<T>() - delta) / v.norm();
  const auto y = sphere.exp(x, v);
  const T eps = std::numeric_limits<T>::epsilon();
  // Conditioning ε/δ (rounding of y is amplified by 1/sin θ ≈ 1/δ).
  CHECK((sphere.log(x, y) - v).norm() <= 16 * eps / delta * v.norm());
}

TEST_CASE("sphere: bad input names the function, the condition and the value") {
  const gyre::Sphere<double> sphere(2);
  const gyre::Vector<double> x = gyre::Vector<double>::Unit(3, 0);
  const gyre::Vector<double> not_unit = 2 * x;
  CHECK_THROWS_WITH_AS((void)sphere.exp(not_unit, gyre::Vector<double>::Zero(3)),
                       "gyre::Sphere::exp: point is not a unit vector (|‖x‖ − 1|) (1)", gyre::DomainError);
  CHECK_THROWS_WITH_AS((void)sphere.log(x, gyre::Vector<double>::Unit(4, 0)),
                       "gyre::Sphere::log: point must be a vector of length 3 (4×1)", gyre::ShapeError);
  gyre::Vector<double> nan_point = x;
  nan_point(1) = std::nan("");
  CHECK_THROWS_WITH_AS((void)sphere.dist(x, nan_point),
                       "gyre::Sphere::dist: point has a non-finite entry at (1, 0) (nan)", gyre::DomainError);
  CHECK_THROWS_WITH_AS((void)sphere.exp(x, x), doctest::Contains("vector is not tangent at x"), gyre::DomainError);
  CHECK_THROWS_AS((void)sphere.inner(x, gyre::Vector<double>::Constant(3, INFINITY), gyre::Vector<double>::Zero(3)),
                  gyre::DomainError);
  CHECK_THROWS_AS(gyre::Sphere<double>(0), gyre::DomainError);
}

TEST_CASE("sphere: ChecksOff trusts the input") {
  const gyre::Sphere<double> sphere(2);
  const gyre::Vector<double> not_unit = 2 * gyre::Vector<double>::Unit(3, 0);
  {
    gyre::ChecksOff off;
    CHECK(gyre::checks_enabled() == false);
    CHECK_NOTHROW((void)sphere.exp(not_unit, gyre::Vector<double>::Zero(3)));
    CHECK_THROWS_AS(sphere.check_point(not_unit), gyre::DomainError);  // explicit checks always run
  }
  CHECK(gyre::checks_enabled());
  CHECK_THROWS_AS(sphere.check_point(not_unit), gyre::DomainError);
}

TEST_CASE_TEMPLATE("sphere: batched exp, log, dist and transport equal the item-by-item results", T, float, double) {
  const gyre::Sphere<T> sphere(4);
  constexpr std::size_t kBatch = 64;
  xt::xarray<T> x = xt::xarray<T>::from_shape({kBatch, 5});
  xt::xarray<T> v = xt::xarray<T>::from_shape({kBatch, 5});
  xt::xarray<T> y = xt::xarray<T>::from_shape({kBatch, 5});
  gyre::Rng rng(11);
  for (std::size_t b = 0; b < kBatch; ++b) {
    const auto xb = sphere.random_point(rng);
    const auto vb = sphere.random_tangent(xb, rng);
    const auto yb = sphere.random_point(rng);
    for (int i = 0; i < 5; ++i) {
      x(b, i) = xb(i);
      v(b, i) = vb(i);
      y(b, i) = yb(i);
    }
  }
  const auto ex = gyre::batch::exp(sphere, x, v);
  const auto lg = gyre::batch::log(sphere, x, y);
  const auto ds = gyre::batch::dist(sphere, x, y);
  const auto pt = gyre::batch::transport(sphere, x, y, v);
  for (std::size_t b = 0; b < kBatch; ++b) {
    gyre::Vector<T> xb(5), vb(5), yb(5);
    for (int i = 0; i < 5; ++i) {
      xb(i) = x(b, i);
      vb(i) = v(b, i);
      yb(i) = y(b, i);
    }
    const auto e1 = sphere.exp(xb, vb);
    const auto l1 = sphere.log(xb, yb);
    const auto p1 = sphere.transport(xb, yb, vb);
    // Same code on the same inputs: bit-identical results.
    for (int i = 0; i < 5; ++i) {
      CHECK(ex(b, i) == e1(i));
      CHECK(lg(b, i) == l1(i));
      CHECK(pt(b, i) == p1(i));
    }
    CHECK(ds(b) == sphere.dist(xb, yb));
  }
  xt::xarray<T> bad = x;
  bad(17, 0) += 1;
  CHECK_THROWS_WITH_AS(gyre::batch::exp(sphere, bad, v), doctest::Contains("Sphere::exp"), gyre::DomainError);
  CHECK_THROWS_AS(gyre::batch::exp(sphere, x, xt::xarray<T>::from_shape({kBatch, 4})), gyre::ShapeError);
}

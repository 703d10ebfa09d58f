// SO(2) and O(2) in closed form: laws, agreement with SO(n) at n = 2 and with the reference data,
// half turns, components, bad input.
#include "so2/so2.hpp"

#include <cmath>
#include <cstddef>
#include <string>

#include <doctest/doctest.h>
#include <unsupported/Eigen/MatrixFunctions>

#include "gyre/check/lie_group_laws.hpp"
#include "gyre/check/manifold_laws.hpp"
#include "o2/o2.hpp"
#include "so/so.hpp"
#include "support/test_support.hpp"

using gyre::test::check_law;
using gyre::test::relative_gap;
using gyre::test::tol;

TEST_CASE_TEMPLATE("so2/o2: the manifold and Lie group laws hold on 200 seeded cases", T, float, double) {
  namespace law = gyre::check::law;
  const auto check_space = [](const auto& space) {
    const auto report = gyre::check::manifold_laws(space, gyre::test::seeds(200));
    gyre::test::check_no_failures(report);
    // Closed forms on 2×2 matrices: a few ε.
    for (const char* l : {law::kExpLog, law::kLogExp, law::kDistIsNormLog, law::kDistSymmetric, law::kTransportTangent,
                          law::kTransportIsometry, law::kTransportVelocity, law::kProjectIdempotent}) {
      check_law(report, l, tol<T>(4e-15, 2e-6f));
    }
    const auto group = gyre::check::lie_group_laws(space, gyre::test::seeds(200));
    gyre::test::check_no_failures(group);
    for (const char* l : {law::kAssociative, law::kIdentity, law::kInverse, law::kVeeHat, law::kAlgebraLogExp,
                          law::kAlgebraExpLog, law::kAdjoint, law::kActionHomomorphism, law::kActionIdentity}) {
      check_law(group, l, tol<T>(4e-15, 2e-6f));
    }
  };
  check_space(gyre::SO2<T>());
  check_space(gyre::O2<T>());
}

TEST_CASE("so2: agrees with SO(n) at n = 2, with Eigen's matrix exp/log, and with shared/reference") {
  const gyre::SO2<double> so2;
  const gyre::SO<double> so(2);
  for (const std::uint64_t seed : gyre::test::seeds(200)) {
    CAPTURE(seed);
    gyre::Rng rng(seed);
    const auto x = so2.random_point(rng);
    const auto y = so2.random_point(rng);
    const auto v = so2.random_tangent(x, rng);
    CHECK(relative_gap(so2.log(x, y), gyre::Matrix<double>(so.log(x, y))) <= 1e-14);
    CHECK(relative_gap(so2.exp(x, v), gyre::Matrix<double>(so.exp(x, v))) <= 1e-14);
    const double theta = rng.uniform<double>(-3.0, 3.0);
    const gyre::Matrix2<double> generator = so2.hat(Eigen::Matrix<double, 1, 1>(theta));
    CHECK(relative_gap(so2.algebra_exp(Eigen::Matrix<double, 1, 1>(theta)), gyre::Matrix2<double>(generator.exp())) <=
          1e-15);
  }
  const auto& data = gyre::test::reference("geomstats.json").at("cases").at("so2");
  std::size_t compared = 0;
  for (const auto& sample : data.at("samples")) {
    const std::string kind = sample["kind"];
    CAPTURE(kind);
    const gyre::Matrix2<double> x = gyre::test::to_matrix<double>(sample["base_point"]);
    const gyre::Matrix2<double> y = gyre::test::to_matrix<double>(sample["point"]);
    const gyre::Matrix2<double> v = gyre::test::to_matrix<double>(sample["tangent_vec"]);
    const gyre::Matrix2<double> w = gyre::test::to_matrix<double>(sample["tangent_vec_b"]);
    const auto& hp = sample["hp"];
    // Relative budgets for log and dist. The closed form atan2(s, c) of xᵀy is accurate to an ulp
    // of the angle up to π (near_pi_angle, π − 1e-4, included): 1e-14 (measured worst 2.8e-16).
    // small_angle_1e-8: y is 1e-8 from x and stored to ε, so the inputs fix the angle only to
    // ~ε/θ ≈ 2e-8 (measured 1.7e-10 on this sample); relative, so a log or dist of 0 fails.
    const double tolerance = kind == "small_angle_1e-8" ? 2e-8 : 1e-14;
    CHECK(relative_gap(so2.exp(x, v), gyre::test::to_matrix<double>(hp["exp"])) <= 1e-14);
    const gyre::Matrix2<double> expected_log = gyre::test::to_matrix<double>(hp["log"]);
    CHECK((so2.log(x, y) - expected_log).norm() <= tolerance * expected_log.norm());
    const double expected_dist = std::sqrt(hp["squared_dist"].get<double>());
    CHECK(std::abs(so2.dist(x, y) - expected_dist) <= tolerance * expected_dist);
    CHECK(relative_gap(so2.transport(x, so2.exp(x, v), w), gyre::test::to_matrix<double>(hp["parallel_transport"])) <=
          1e-14);
    ++compared;
  }
  CHECK(compared == 11);  // 8 random samples, small_angle_1e-8, near_pi_angle, identity_base
}

TEST_CASE("so2: a half turn takes the principal angle +π") {
  const gyre::SO2<double> so2;
  const double pi = boost::math::constants::pi<double>();
  const gyre::Matrix2<double> half = gyre::Matrix2<double>(-gyre::Matrix2<double>::Identity());
  CHECK(so2.algebra_log(half)(0) == pi);
  CHECK(so2.dist(so2.identity(), half) == pi);
}

TEST_CASE("so2/o2: reflections stay in the other component, and bad input is named") {
  const gyre::SO2<double> so2;
  const gyre::O2<double> o2;
  gyre::Matrix2<double> flip = gyre::Matrix2<double>::Identity();
  flip(0, 0) = -1;  // F = diag(−1, 1): (x, y) ↦ (−x, y)
  CHECK(o2.act(flip, gyre::Vector2<double>(2, 3)) == gyre::Vector2<double>(-2, 3));
  CHECK(std::isinf(o2.dist(o2.identity(), flip)));
  CHECK_THROWS_WITH_AS((void)o2.log(o2.identity(), flip),
                       "gyre::O2::log: points lie in different components of O(2) (det XᵀY) (-1)", gyre::DomainError);
  CHECK_THROWS_AS((void)o2.algebra_log(flip), gyre::DomainError);
  CHECK(o2.adjoint(flip)(0, 0) == -1);  // a reflection reverses the sense of rotation
  CHECK_THROWS_WITH_AS((void)so2.exp(flip, gyre::Matrix2<double>::Zero()),
                       "gyre::SO2::exp: point has determinant −1, not a rotation (det) (-1)", gyre::DomainError);
  gyre::Matrix2<double> nan = gyre::Matrix2<double>::Identity();
  nan(0, 1) = std::nan("");
  CHECK_THROWS_AS(so2.check_point(nan), gyre::DomainError);
}

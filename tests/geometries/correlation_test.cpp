// The correlation manifold Cor⁺(n) with the poly-Poincaré-ball Cholesky structure: the chart and
// its differential, the manifold and gyrogroup laws, closed forms for n = 2, and bad input.
#include "correlation/correlation.hpp"

#include <cmath>

#include <doctest/doctest.h>

#include "gyre/check/gyrogroup_laws.hpp"
#include "gyre/check/manifold_laws.hpp"
#include "support/test_support.hpp"

namespace {

namespace law = gyre::check::law;
using gyre::Matrix;
using gyre::test::relative_gap;
using gyre::test::tol;

}  // namespace

TEST_CASE("correlation: the chart to the balls and its differential invert each other") {
  for (const int n : {2, 3, 5}) {
    const gyre::Correlation<double> cor(n);
    for (const std::uint64_t seed : gyre::test::seeds(50)) {
      CAPTURE(seed);
      gyre::Rng rng(seed);
      const Matrix<double> c = cor.random_point(rng);
      cor.check_point(c);
      CHECK(relative_gap(cor.from_balls(cor.to_balls(c)), c) <= 1e-14);
      const Matrix<double> v = cor.random_tangent(c, rng);
      CHECK(relative_gap(cor.tangent_from_balls(cor.to_balls(c), cor.tangent_to_balls(c, v)), v) <= 1e-13);
      // The differential against a central difference of the chart along a curve in Cor⁺.
      const double h = 1e-6;
      const auto up = cor.to_balls(cor.exp(c, Matrix<double>(v * h)));
      const auto down = cor.to_balls(cor.exp(c, Matrix<double>(v * -h)));
      const auto dx = cor.tangent_to_balls(c, v);
      for (std::size_t i = 0; i < dx.size(); ++i) {
        CHECK((gyre::Vector<double>((up[i] - down[i]) / (2 * h)) - dx[i]).norm() <= 1e-8 * (1 + dx[i].norm()));
      }
    }
  }
}

TEST_CASE("correlation: n = 2 is the Poincaré interval, dist(I, C_ρ) = 2 atanh(ρ/(1 + √(1 − ρ²)))") {
  // C_ρ = [[1, ρ], [ρ, 1]].
  const gyre::Correlation<double> cor(2);
  for (const double rho : {-0.9, -0.3, 0.01, 0.5, 0.99}) {
    Matrix<double> c = Matrix<double>::Identity(2, 2);
    c(0, 1) = c(1, 0) = rho;
    const double x = rho / (1 + std::sqrt(1 - rho * rho));
    // |x| ≤ 0.87 here: atanh and the closed form are well conditioned, a few ε.
    CHECK(cor.dist(Matrix<double>::Identity(2, 2), c) == doctest::Approx(2 * std::atanh(std::abs(x))).epsilon(1e-14));
  }
}

TEST_CASE_TEMPLATE("correlation: the manifold laws hold on 200 seeded cases", T, float, double) {
  for (const int n : {2, 3, 5}) {
    CAPTURE(n);
    gyre::check::ManifoldLawOptions options;
    options.max_tangent_norm = 2.0;
    const auto report = gyre::check::manifold_laws(gyre::Correlation<T>(n), gyre::test::seeds(200), options);
    for (const auto& failure : report.failures) FAIL(failure);
    // Cholesky, the balls' Möbius operations and the chart's differential: ~10 operations deep.
    for (const char* name :
         {law::kExpLog, law::kLogExp, law::kDistIsNormLog, law::kDistSymmetric, law::kTransportTangent,
          law::kTransportIsometry, law::kTransportVelocity, law::kProjectIdempotent}) {
      gyre::test::check_law(report, name, tol<T>(1e-11, 1e-3f));
    }
  }
}

TEST_CASE_TEMPLATE("correlation: the gyrogroup laws and GyroBN's conditions hold", T, float, double) {
  namespace gl = gyre::check::gyro_law;
  const auto report = gyre::check::gyrogroup_laws(gyre::Correlation<T>(4), gyre::test::seeds(200));
  for (const auto& failure : report.failures) FAIL(failure);
  for (const char* name :
       {gl::kLeftIdentity, gl::kLeftInverse, gl::kGyroassociativity, gl::kGyrationIsDefect, gl::kAutomorphism,
        gl::kLoop, gl::kLeftCancellation, gl::kGyroisometric, gl::kPseudoReduction, gl::kTranslationIsometry,
        gl::kScalarOne, gl::kScalarDistributive, gl::kScalarAssociative}) {
    gyre::test::check_law(report, name, tol<T>(1e-11, 2e-3f));
  }
}

TEST_CASE_TEMPLATE("correlation: bad input is named", T, float, double) {
  const gyre::Correlation<T> cor(3);
  Matrix<T> not_unit = Matrix<T>::Identity(3, 3);
  not_unit(1, 1) = T(2);
  CHECK_THROWS_WITH_AS((void)cor.dist(not_unit, Matrix<T>::Identity(3, 3)),
                       doctest::Contains("Correlation::dist: matrix does not have a unit diagonal"), gyre::DomainError);
  Matrix<T> singular = Matrix<T>::Ones(3, 3);
  CHECK_THROWS_WITH_AS((void)cor.log(Matrix<T>::Identity(3, 3), singular), doctest::Contains("not positive definite"),
                       gyre::DomainError);
  CHECK_THROWS_WITH_AS((void)cor.exp(Matrix<T>::Identity(3, 3), Matrix<T>::Identity(3, 3)),
                       doctest::Contains("zero diagonal"), gyre::DomainError);
  CHECK_THROWS_AS(gyre::Correlation<T>(1), gyre::DomainError);
}

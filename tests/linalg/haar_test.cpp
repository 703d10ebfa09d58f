// The Haar sampler of orthonormal frames: the positive-QR convention, and moments that only the
// Haar measure has (Diaconis & Shahshahani 1994: for Q Haar on O(n), n ≥ 4, tr Q has the moments
// of a standard normal up to order 4; without the sign fix of R's diagonal, Q₁₁ < 0 always).
#include "gyre/linalg/haar.hpp"

#include <cmath>
#include <type_traits>
#include <utility>

#include <Eigen/LU>
#include <doctest/doctest.h>

#include "gyre/core/rng.hpp"

using gyre::Matrix;

TEST_CASE_TEMPLATE("haar: positive_q_factor is the unique QR with diag(R) > 0, for huge and tiny matrices too", T,
                   float, double) {
  const double tolerance = std::is_same_v<T, float> ? 2e-5 : 1e-13;  // orthonormality, relative reconstruction
  gyre::Rng rng(11);
  for (const double scale : {1.0, 1e30, 1e-30}) {
    CAPTURE(scale);
    for (const auto& size : {std::pair{3, 3}, std::pair{6, 2}, std::pair{9, 5}}) {
      const int n = size.first, p = size.second;
      CAPTURE(n);
      const Matrix<T> a = rng.normal_matrix<T>(n, p) * static_cast<T>(scale);
      const Matrix<T> q = gyre::linalg::positive_q_factor<T>(a);
      REQUIRE(q.rows() == n);
      REQUIRE(q.cols() == p);
      CHECK((q.transpose() * q - Matrix<T>::Identity(p, p)).norm() < tolerance);
      const Matrix<T> r = q.transpose() * a;  // upper triangular with a positive diagonal
      for (int i = 0; i < p; ++i) {
        CHECK(r(i, i) > 0);
        // stableNorm: ‖·‖² of 1e±30 entries leaves float's range, which would make these vacuous.
        for (int j = 0; j < i; ++j) CHECK(std::abs(r(i, j)) <= tolerance * r.stableNorm());
      }
      CHECK((q * r - a).stableNorm() <= tolerance * a.stableNorm());
    }
  }
}

TEST_CASE("haar: haar_orthogonal has the Haar moments of tr Q, det Q and Q₁₁") {
  // 20000 draws: the standard errors are 0.007 (tr Q, det Q, Q₁₁·√n) and 0.01 (tr² Q); every
  // tolerance below is 5 standard errors.
  constexpr int kDraws = 20000;
  constexpr int n = 4;
  gyre::Rng rng(2024);
  double trace = 0, trace_squared = 0, det = 0, q11 = 0;
  for (int i = 0; i < kDraws; ++i) {
    const Matrix<double> q = gyre::linalg::haar_orthogonal<double>(n, rng);
    REQUIRE((q.transpose() * q - Matrix<double>::Identity(n, n)).norm() < 1e-13);
    trace += q.trace();
    trace_squared += q.trace() * q.trace();
    det += q.determinant();
    q11 += q(0, 0) * std::sqrt(double(n));
  }
  CHECK(std::abs(trace / kDraws) < 0.035);             // E tr Q = 0
  CHECK(std::abs(trace_squared / kDraws - 1) < 0.05);  // E (tr Q)² = 1
  CHECK(std::abs(det / kDraws) < 0.035);               // both components, each with probability ½
  CHECK(std::abs(q11 / kDraws) < 0.035);               // E Q₁₁ = 0 (Householder's raw Q has Q₁₁ < 0)
}

TEST_CASE("haar: haar_frame is a uniformly oriented orthonormal frame") {
  constexpr int kDraws = 20000;
  gyre::Rng rng(7);
  double x11 = 0, x22 = 0, x11_squared = 0;
  for (int i = 0; i < kDraws; ++i) {
    const Matrix<double> x = gyre::linalg::haar_frame<double>(5, 2, rng);
    REQUIRE((x.transpose() * x - Matrix<double>::Identity(2, 2)).norm() < 1e-13);
    x11 += x(0, 0);
    x22 += x(1, 1);
    x11_squared += x(0, 0) * x(0, 0);
  }
  // Standard errors: 0.003 for the means, 0.002 for E X₁₁² = 1/n = 0.2; tolerances ≥ 5 of them.
  CHECK(std::abs(x11 / kDraws) < 0.02);  // each column's sign is uniform: E X₁₁ = E X₂₂ = 0
  CHECK(std::abs(x22 / kDraws) < 0.02);
  CHECK(std::abs(x11_squared / kDraws - 0.2) < 0.01);
}

// SPD(n): the manifold laws for every metric on 200 seeded cases, in float and double.
#include <algorithm>
#include <cmath>

#include <doctest/doctest.h>

#include "gyre/check/manifold_laws.hpp"
#include "spd/spd.hpp"
#include "support/test_support.hpp"

namespace {

namespace law = gyre::check::law;
using gyre::test::tol;

// The laws with the budgets the SPD metrics share. Residuals are relative to max(1, ‖·‖); every
// formula goes through a few eigendecompositions of matrices with condition ≤ e⁴ (points from
// random_spd), so double keeps ~1e-13 and float ~1e-5.
template <class T, class M>
void check_spd_laws(const M& metric, double max_tangent_norm, double transport_budget_double = 1e-12) {
  gyre::check::ManifoldLawOptions options;
  options.max_tangent_norm = max_tangent_norm;
  const auto report = gyre::check::manifold_laws(metric, gyre::test::seeds(200), options);
  for (const auto& failure : report.failures) FAIL(failure);
  gyre::test::check_law(report, law::kExpLog, tol<T>(1e-12, 2e-4f));
  gyre::test::check_law(report, law::kLogExp, tol<T>(1e-12, 2e-4f));
  gyre::test::check_law(report, law::kDistIsNormLog, tol<T>(1e-12, 1e-4f));
  gyre::test::check_law(report, law::kDistSymmetric, tol<T>(1e-12, 1e-4f));
  gyre::test::check_law(report, law::kTransportTangent, tol<T>(1e-14, 1e-6f));
  gyre::test::check_law(report, law::kTransportIsometry, tol<T>(transport_budget_double, 2e-4f));
  gyre::test::check_law(report, law::kTransportVelocity, tol<T>(transport_budget_double, 2e-4f));
  gyre::test::check_law(report, law::kProjectIdempotent, tol<T>(1e-15, 1e-6f));
}

}  // namespace

TEST_CASE_TEMPLATE("SPD affine-invariant: the manifold laws hold, also with (α, β)", T, float, double) {
  for (const int n : {1, 3, 5}) {
    CAPTURE(n);
    check_spd_laws<T>(gyre::SpdAffineInvariant<T>(n), 3.0);
    check_spd_laws<T>(gyre::SpdAffineInvariant<T>(n, {2.0, -0.1}), 3.0);
  }
}

TEST_CASE_TEMPLATE("SPD log-Euclidean: the manifold laws hold, also with (α, β)", T, float, double) {
  for (const int n : {1, 3, 5}) {
    CAPTURE(n);
    check_spd_laws<T>(gyre::SpdLogEuclidean<T>(n), 3.0);
    check_spd_laws<T>(gyre::SpdLogEuclidean<T>(n, {0.5, 0.3}), 3.0);
  }
}

TEST_CASE_TEMPLATE("SPD log-Cholesky: the manifold laws hold", T, float, double) {
  for (const int n : {1, 3, 5}) {
    CAPTURE(n);
    check_spd_laws<T>(gyre::SpdLogCholesky<T>(n), 3.0);
  }
}

TEST_CASE_TEMPLATE("SPD Bures–Wasserstein: the manifold laws hold inside the injectivity radius", T, float, double) {
  // random_spd's eigenvalues are ≥ 1/e, so the injectivity radius √λ_min is ≥ 0.6: stay at 0.5.
  for (const int n : {1, 3, 5}) {
    CAPTURE(n);
    // The transport is RK4 with step doubling to 1e-12: its isometry defect is ~1e-13.
    check_spd_laws<T>(gyre::SpdBuresWasserstein<T>(n), 0.5, 1e-11);
  }
}

TEST_CASE("SPD generalized Bures–Wasserstein: the manifold laws hold") {
  gyre::Rng rng(5);
  const gyre::Matrix<double> m = gyre::spd::random_spd<double>(4, rng);
  // φ = M^-½·M^-½ shrinks the injectivity radius by at most √λ_max(M) ≤ e^½.
  check_spd_laws<double>(gyre::SpdGeneralizedBuresWasserstein<double>(m), 0.3, 1e-11);
}

TEST_CASE_TEMPLATE("SPD power-deformed metrics: the manifold laws hold", T, float, double) {
  for (const double theta : {0.5, -0.75, 2.0}) {
    CAPTURE(theta);
    // A step of length ℓ in g^θ is a step of θ·ℓ in the base metric at P^θ: keep that below 3.
    const double bound = 3.0 / std::max(1.0, std::abs(theta));
    check_spd_laws<T>(gyre::PowerDeformed<gyre::SpdAffineInvariant<T>>(gyre::SpdAffineInvariant<T>(4), theta), bound);
    check_spd_laws<T>(gyre::PowerDeformed<gyre::SpdLogCholesky<T>>(gyre::SpdLogCholesky<T>(4), theta), bound);
  }
}

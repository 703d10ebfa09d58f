// require_eigen_converged: what a failed Eigen eigensolver turns into. Eigen's solvers fail to
// converge in practice only on non-finite input, so the ConvergenceError branch is driven by a
// solver that reports failure, and the real solvers by NaN and infinite matrices.
#include "gyre/linalg/eigen_convergence.hpp"

#include <limits>

#include <Eigen/Eigenvalues>
#include <doctest/doctest.h>

#include "gyre/core/types.hpp"
#include "gyre/linalg/skew_functions.hpp"
#include "gyre/linalg/symmetric_functions.hpp"

namespace {

struct SolverThatGaveUp {
  [[nodiscard]] Eigen::ComputationInfo info() const { return Eigen::NoConvergence; }
};

struct SolverThatConverged {
  [[nodiscard]] Eigen::ComputationInfo info() const { return Eigen::Success; }
};

}  // namespace

TEST_CASE("require_eigen_converged: success passes, failure on finite input is a ConvergenceError") {
  const gyre::Matrix<double> finite = gyre::Matrix<double>::Identity(3, 3);
  CHECK_NOTHROW(gyre::linalg::require_eigen_converged(SolverThatConverged{}, "f", finite));
  CHECK_THROWS_WITH_AS(gyre::linalg::require_eigen_converged(SolverThatGaveUp{}, "f", finite),
                       "gyre::f: the eigenvalue iteration did not converge (matrix size) (3)", gyre::ConvergenceError);
}

TEST_CASE("require_eigen_converged: Eigen's solvers on non-finite input give a DomainError that says so") {
  for (const double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    gyre::Matrix<double> a = gyre::Matrix<double>::Identity(4, 4);
    a(2, 1) = a(1, 2) = bad;
    const Eigen::SelfAdjointEigenSolver<gyre::Matrix<double>> symmetric(a);
    const Eigen::EigenSolver<gyre::Matrix<double>> general(a, false);
    // Either solver may or may not notice; whenever it reports failure, the error names the cause.
    if (symmetric.info() != Eigen::Success) {
      CHECK_THROWS_WITH_AS(gyre::linalg::require_eigen_converged(symmetric, "g", a),
                           "gyre::g: matrix has a non-finite entry (size) (4)", gyre::DomainError);
    }
    if (general.info() != Eigen::Success) {
      CHECK_THROWS_AS(gyre::linalg::require_eigen_converged(general, "g", a), gyre::DomainError);
    }
    CHECK_THROWS_AS(static_cast<void>(gyre::linalg::symmetric_eigen<double>(a)), gyre::DomainError);
    gyre::Matrix<double> skew = gyre::Matrix<double>::Zero(4, 4);
    skew(2, 1) = bad;
    skew(1, 2) = -bad;
    CHECK_THROWS_AS(static_cast<void>(gyre::linalg::SkewSpectrum<double>{skew}), gyre::DomainError);
  }
}

#pragma once
// ============================================================================================
//  Eigen's eigensolvers iterate (tridiagonal QR, Hessenberg–Schur) and report through info()
//  whether the iteration converged. When it did not, the values and vectors they hold are
//  meaningless, and nothing downstream can tell: every decomposition Gyre takes goes through
//  require_eigen_converged, so that the failure surfaces where it happened, with its cause.
// ============================================================================================

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <string>

#include <Eigen/Core>

#include "gyre/core/error.hpp"

namespace gyre::linalg {

/// Throws unless `solver` (any Eigen eigensolver, already run on `matrix`) converged: a
/// DomainError when the matrix has a non-finite entry (the usual cause, and the user's to fix),
/// a ConvergenceError naming the matrix's size otherwise.
template <class Solver, class Derived>
void require_eigen_converged(const Solver& solver, const std::string& function,
                             const Eigen::MatrixBase<Derived>& matrix) {
  if (solver.info() == Eigen::Success) return;
  if (!matrix.allFinite()) throw DomainError(function, "matrix has a non-finite entry (size)", matrix.rows());
  throw ConvergenceError(function, "the eigenvalue iteration did not converge (matrix size)", matrix.rows());
}

}  // namespace gyre::linalg

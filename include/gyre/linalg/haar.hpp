#pragma once
// The one Haar sampler of orthonormal frames, and the QR convention it rests on. O(n), SO(n)'s
// reflections, SPD's random eigenbases, Stiefel and the Grassmannian all draw through it.
//
// Mezzadri, "How to generate random matrices from the classical compact groups", Notices of the
// AMS 54 (2007): the Q factor of a standard Gaussian matrix is Haar-distributed only once the
// signs of R's diagonal are fixed (positive); Eigen's Householder QR leaves them arbitrary.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <Eigen/QR>

#include "gyre/core/rng.hpp"
#include "gyre/core/types.hpp"

namespace gyre::linalg {

/// The thin Q factor (n×p) of a full-column-rank n×p matrix A = QR with diag(R) > 0, which makes
/// the decomposition unique. The QR is taken of A divided by its largest |entry| (Q does not
/// change under positive scaling), so that Householder norms cannot overflow for huge A.
template <class T>
[[nodiscard]] Matrix<T> positive_q_factor(const Matrix<T>& a) {
  const Eigen::HouseholderQR<Matrix<T>> qr(Matrix<T>(a / a.cwiseAbs().maxCoeff()));
  Matrix<T> q = qr.householderQ() * Matrix<T>::Identity(a.rows(), a.cols());
  for (Eigen::Index j = 0; j < a.cols(); ++j) {
    if (qr.matrixQR()(j, j) < 0) q.col(j) *= T(-1);
  }
  return q;
}

/// A Haar-distributed n×p orthonormal frame (a point of St(n, p), 1 ≤ p ≤ n): the positive Q
/// factor of an n×p standard Gaussian, which has full rank with probability 1.
template <class T>
[[nodiscard]] Matrix<T> haar_frame(int n, int p, Rng& rng) {
  return positive_q_factor<T>(rng.normal_matrix<T>(n, p));
}

/// A Haar-distributed element of O(n) (both components, each with probability ½).
template <class T>
[[nodiscard]] Matrix<T> haar_orthogonal(int n, Rng& rng) {
  return haar_frame<T>(n, n, rng);
}

}  // namespace gyre::linalg

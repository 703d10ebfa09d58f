#pragma once
// Matrix exponential and logarithm on so(n) / SO(n), and the pieces SO(n) and O(n) share.
// Both functions reduce to symmetric eigendecompositions (Eigen::SelfAdjointEigenSolver), which
// are perfectly conditioned and indifferent to repeated eigenvalues — unlike a general Schur
// decomposition, they need no special pairing of eigenvalues. They are independent of Eigen's
// MatrixFunctions (Padé / Schur–Parlett), which the tests use as the reference.
//
// exp(A), A skew: cos θ and sinc θ are even, hence functions of θ² = eigenvalues of −A², so
//   exp(A) = cos(√−A²) + sinc(√−A²)·A      (Gallier & Xu 2002, via the spectral theorem).
// log(R), R ∈ SO(n): S = (R + Rᵀ)/2 and K = (R − Rᵀ)/2 commute. In an eigenbasis of S, the
//   cluster of eigenvalue cos θ is an R-invariant subspace W on which K = sin θ·J (J a complex
//   structure), so log R = θ·J there. Away from π this is the spectral function
//   log R = g(S)·K, g(cos θ) = θ/sin θ. Near π (θ > 3π/4) sin θ may be tiny, so each cluster is
//   treated alone: θ = atan2(‖K_W‖/√(dim W), mean cos), and J is recovered as the orthogonal
//   (polar) factor of K_W — on a 2-plane simply ±[[0, −1], [1, 0]] with the sign of K — and at
//   θ = π exactly (K_W = 0) any complex structure of W is a logarithm: the canonical pairing of
//   the eigenvectors is used. Two distinct angles both above 3π/4 and δ apart lose ε/δ of
//   accuracy (their clusters' coupling through rounding is dropped); elsewhere log is accurate
//   to a few ε relative.

#include "gyre/config.hpp"  // first: it configures xtensor and checks the instruction set

#include <cmath>
#include <limits>
#include <vector>

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>
#include <boost/math/constants/constants.hpp>

#include "gyre/core/scalar_functions.hpp"
#include "gyre/core/types.hpp"
#include "gyre/linalg/eigen_convergence.hpp"

namespace gyre::so_detail {

/// (A − Aᵀ)/2.
template <class T>
Matrix<T> skew(const Matrix<T>& a) {
  return (a - a.transpose()) / 2;
}

/// Lie algebra coordinates → skew matrix. n = 2: [a₂₁]; n = 3: (a₃₂, a₁₃, a₂₁); n ≥ 4: a_ji for
/// i < j in lexicographic order of (i, j). The coordinates are orthonormal for ⟨A, B⟩ = ½tr(AᵀB).
template <class T>
Matrix<T> hat(const Vector<T>& a, int n) {
  Matrix<T> m = Matrix<T>::Zero(n, n);
  if (n == 3) {
    m(2, 1) = a(0);
    m(1, 2) = -a(0);
    m(0, 2) = a(1);
    m(2, 0) = -a(1);
    m(1, 0) = a(2);
    m(0, 1) = -a(2);
    return m;
  }
  Eigen::Index k = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j, ++k) {
      m(j, i) = a(k);
      m(i, j) = -a(k);
    }
  }
  return m;
}

/// The inverse of hat on skew matrices (reads the skew part of m).
template <class T>
Vector<T> vee(const Matrix<T>& m) {
  const auto n = static_cast<int>(m.rows());
  Vector<T> a(n * (n - 1) / 2);
  if (n == 3) {
    a << (m(2, 1) - m(1, 2)) / 2, (m(0, 2) - m(2, 0)) / 2, (m(1, 0) - m(0, 1)) / 2;
    return a;
  }
  Eigen::Index k = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j, ++k) a(k) = (m(j, i) - m(i, j)) / 2;
  }
  return a;
}

/// exp(A) for skew A (see the header). n = 3 uses Rodrigues' formula directly.
template <class T>
Matrix<T> expm_skew(const Matrix<T>& a) {
  const Eigen::Index n = a.rows();
  if (n == 3) {
    const T theta = vee<T>(a).norm();
    return Matrix<T>::Identity(3, 3) + sinc(theta) * a + one_minus_cos_over_sq(theta) * (a * a);
  }
  const Matrix<T> minus_square = -(a * a);
  const Eigen::SelfAdjointEigenSolver<Matrix<T>> eigen(minus_square);
  linalg::require_eigen_converged(eigen, "expm_skew", minus_square);
  const Matrix<T>& v = eigen.eigenvectors();
  Vector<T> cosines(n), sincs(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const T theta = std::sqrt(std::max(T(0), eigen.eigenvalues()(i)));
    cosines(i) = std::cos(theta);
    sincs(i) = sinc(theta);
  }
  return v * cosines.asDiagonal() * v.transpose() + v * sincs.asDiagonal() * v.transpose() * a;
}

/// The principal logarithm of R ∈ SO(n) (rotation angles in [0, π]); see the header.
template <class T>
Matrix<T> logm_rotation(const Matrix<T>& r) {
  const Eigen::Index n = r.rows();
  const Matrix<T> symmetric = (r + r.transpose()) / 2;
  const Eigen::SelfAdjointEigenSolver<Matrix<T>> eigen(symmetric);
  linalg::require_eigen_converged(eigen, "logm_rotation", symmetric);
  const Matrix<T>& v = eigen.eigenvectors();
  const Vector<T>& c = eigen.eigenvalues();  // ascending cosines
  const Matrix<T> k = v.transpose() * skew<T>(r) * v;

  // Far from π (cos θ ≥ cos 3π/4): log = g(S)·K with g(cos θ) = θ/sin θ ∈ [1, 3.4]. g is smooth
  // there, so the eigenvectors' inaccuracy where cosines are close (ε/gap: small angles) cancels
  // out — as for any spectral function — instead of being dropped with off-block terms.
  const T near_pi = -std::sqrt(T(0.5));
  Eigen::Index m = 0;  // the first m cosines belong to angles near π; an R-invariant set is even
  while (m < n && c(m) < near_pi) ++m;
  if (m % 2 == 1) ++m;
  Matrix<T> log_in_basis = Matrix<T>::Zero(n, n);
  for (Eigen::Index i = m; i < n; ++i) {
    const T cosine = std::min(T(1), std::max(T(-1), c(i)));
    const T theta = std::acos(cosine);  // inaccurate near 0, but g is flat there (g ≈ 1 + θ²/6)
    log_in_basis.row(i) = (T(1) / sinc(theta)) * k.row(i);
  }

  // Near π: clusters of equal cosines are R-invariant subspaces W on which K = sin θ·J; take θ
  // from atan2(‖K_W‖/√dim W, cos θ) and J as ±[[0, −1], [1, 0]] on a plane or the polar factor
  // of K_W on larger clusters (repeated angles). Symmetric eigenvalues are exact to a few ε, so
  // a tight gap keeps equal angles together; an odd-sized cluster is never an invariant subspace
  // and is joined to its neighbour.
  const T gap = 64 * std::numeric_limits<T>::epsilon();
  Eigen::Index begin = 0;
  while (begin < m) {
    Eigen::Index end = begin + 1;
    while (end < m && (c(end) - c(end - 1) <= gap || (end - begin) % 2 == 1)) ++end;
    const Eigen::Index size = end - begin;
    const Matrix<T> k_w = k.block(begin, begin, size, size);
    const T sine = k_w.norm() / std::sqrt(static_cast<T>(size));
    const T theta = std::atan2(sine, c.segment(begin, size).mean());
    Matrix<T> j = Matrix<T>::Zero(size, size);
    if (size == 2) {
      const T sign = k_w(1, 0) >= 0 ? T(1) : T(-1);
      j(1, 0) = sign;
      j(0, 1) = -sign;
    } else {
      const Eigen::JacobiSVD<Matrix<T>> svd(k_w, Eigen::ComputeFullU | Eigen::ComputeFullV);
      const T smallest = svd.singularValues()(size - 1);
      if (smallest > std::sqrt(std::numeric_limits<T>::epsilon()) * svd.singularValues()(0) && smallest > 0) {
        j = skew<T>(Matrix<T>(svd.matrixU() * svd.matrixV().transpose()));
      } else {  // θ = π to rounding: every complex structure of W gives a logarithm
        for (Eigen::Index p = 0; p + 1 < size; p += 2) {
          j(p + 1, p) = 1;
          j(p, p + 1) = -1;
        }
      }
    }
    log_in_basis.block(begin, begin, size, size) = theta * j;
    begin = end;
  }
  return skew<T>(Matrix<T>(v * log_in_basis * v.transpose()));
}

/// One Newton–Schulz step towards the nearest orthogonal matrix, X·(3I − XᵀX)/2: it removes the
/// O(ε) drift of products and exponentials (quadratic convergence) and keeps det's sign.
template <class T>
Matrix<T> reorthonormalise(const Matrix<T>& x) {
  const Eigen::Index n = x.rows();
  return x * (3 * Matrix<T>::Identity(n, n) - x.transpose() * x) / 2;
}

}  // namespace gyre::so_detail
